/* SPDX-License-Identifier: MIT */
/* container.c — Godot's file containers on the command line (files/gdwire_files.h, issue 63): with
 * --framing file, decode, check, explain and convert open a compressed or encrypted FileAccess file themselves
 * (the secret from --password, --password-file or --key), explain shows its header first, and convert writes
 * the same container in the target generation (or the one --container names); `gdwire migrate` does it for a
 * folder of saves. The secret comes from the user only. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "files/gdwire_files.h"

/* ---- the secret and the options ------------------------------------------------------------------------- */

int container_option(opts *o, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    bool pw = strcmp(a, "--password") == 0, pwf = strcmp(a, "--password-file") == 0, key = strcmp(a, "--key") == 0;
    bool cont = strcmp(a, "--container") == 0, cap = strcmp(a, "--max-plain") == 0;
    if (!pw && !pwf && !key && !cont && !cap) return 0;
    if (cont && o->verb && strcmp(o->verb, "convert") != 0 && strcmp(o->verb, "migrate") != 0) return 0;
    if (++*i >= argc) return usage_error(o->verb, "%s needs a value", a), -1;
    const char *v = argv[*i];
    if (cont) { o->container = v; return 1; }
    if (cap) {
        char *end = NULL;
        unsigned long long n = strtoull(v, &end, 10);
        unsigned shift = end && (*end == 'K' || *end == 'k') ? 10 : end && (*end == 'M' || *end == 'm') ? 20 : end && (*end == 'G' || *end == 'g') ? 30 : 0;
        if (shift) end++;
        if (!end || *end || n == 0 || n > (1ull << 34) >> shift)
            return usage_error(o->verb, "--max-plain '%s': a size in bytes up to 16G (K, M, G suffixes)", v), -1;
        o->max_plain = (uint64_t)n << shift;
        return 1;
    }
    if (o->has_key) return usage_error(o->verb, "%s", "one secret: --password, --password-file or --key"), -1;
    if (key) {
        /* the value itself is a secret: never echoed, even mistyped */
        if (!gdw_file_key_from_hex(v, o->key)) {
            char got[48];
            snprintf(got, sizeof got, "%zu characters", strlen(v));
            return usage_error(o->verb, "--key: 64 hex digits (the 32 bytes open_encrypted takes), got %s", got), -1;
        }
    } else if (pw) {
        gdw_file_key_from_password(v, strlen(v), o->key);
    } else {
        /* the file's bytes, less one line ending at its end (a password written with echo) */
        FILE *f = fopen(v, "rb");
        if (!f) return fprintf(stderr, "gdwire %s: cannot open %s: %s\n", o->verb, v, strerror(errno)), -1;
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        bool more = fgetc(f) != EOF;
        fclose(f);
        if (more) return usage_error(o->verb, "--password-file %s: over 4096 bytes", v), -1;
        if (n && buf[n - 1] == '\n') {
            n--;
            if (n && buf[n - 1] == '\r') n--; /* a CRLF line ending; a lone CR is the password's own */
        }
        if (memchr(buf, 0, n)) return usage_error(o->verb, "--password-file %s: holds a NUL byte, which a Godot String cannot", v), -1;
        gdw_file_key_from_password(buf, n, o->key);
    }
    o->has_key = true;
    return 1;
}

/* ---- generations and containers ------------------------------------------------------------------------- */

/* The container generation of a dialect's family: which engine's FileAccess layouts it goes with. Measured:
 * Godot 3.2.3, 3.6.2 (family godot3) and 4.6.3 (godot4) (conformance/saves). */
static const struct { const char *family; unsigned generation; } k_family_generation[] = {
    {"godot3", 3},
    {"godot4", 4},
};

unsigned container_generation(const gdw_dialect *d) {
    for (size_t i = 0; d && i < sizeof k_family_generation / sizeof *k_family_generation; i++)
        if (strcmp(gdw_dialect_family(d), k_family_generation[i].family) == 0) return k_family_generation[i].generation;
    return 0;
}

/* "plain", "compressed:MODE", "encrypted" into s (its generation and key set by the caller). */
static bool container_spec_parse(const char *text, gdw_file_spec *s) {
    if (strcmp(text, "plain") == 0) return s->container = GDW_FILE_PLAIN, true;
    if (strcmp(text, "encrypted") == 0) return s->container = GDW_FILE_ENCRYPTED, true;
    if (strncmp(text, "compressed:", 11) == 0 && gdw_file_compression_from_name(text + 11, &s->compression))
        return s->container = GDW_FILE_COMPRESSED, true;
    return false;
}

/* What convert and migrate write for an input whose container info describes: --container, else the same
 * container (the same compression mode; encrypted with the same secret, under a fresh IV in Godot 4), in the
 * target dialect's generation. false (said on stderr) when that cannot be written. */
static bool output_spec(const opts *o, const gdw_file_info *info, gdw_file_spec *s, char *why, size_t cap) {
    memset(s, 0, sizeof *s);
    s->generation = container_generation(o->to);
    s->container = info->container;
    s->compression = info->compression;
    s->block_size = info->container == GDW_FILE_COMPRESSED ? info->block_size : 0;
    s->key = o->has_key ? o->key : NULL;
    if (o->container && !container_spec_parse(o->container, s)) {
        snprintf(why, cap, "--container '%s': plain, compressed:MODE (fastlz, deflate, zstd, gzip) or encrypted", o->container);
        return false;
    }
    if (s->container == GDW_FILE_PLAIN) return true;
    if (!s->generation) {
        snprintf(why, cap, "no FileAccess container layout is known for %s (only the godot3 and godot4 families)", gdw_dialect_name(o->to));
        return false;
    }
    if (s->container == GDW_FILE_COMPRESSED && !gdw_file_compression_supported(s->compression, s->generation, true)) {
        snprintf(why, cap, "Godot %u does not write %s files%s: choose another with --container compressed:MODE", s->generation,
                gdw_file_compression_name(s->compression), s->compression == GDW_FILE_BROTLI ? " (Brotli is read-only in every engine)" : "");
        return false;
    }
    if (s->container == GDW_FILE_ENCRYPTED && !s->key) {
        snprintf(why, cap, "an encrypted output needs --password, --password-file or --key");
        return false;
    }
    if (s->container == GDW_FILE_COMPRESSED && s->block_size == 0) s->block_size = 4096;
    return true;
}

/* ---- opening a file -------------------------------------------------------------------------------------- */

/* The plain bytes of the container p[0..n) from src: *plain (free it), or an exit status said on stderr. */
static int open_container(const opts *o, const char *src, const uint8_t *p, size_t n, gdw_file_info *info, uint8_t **plain, size_t *plain_n) {
    gdw_file_options fo = {o->has_key ? o->key : NULL, o->max_plain};
    gdw_file_error err;
    gdw_file_status st = gdw_file_open(p, n, &fo, info, plain, plain_n, &err);
    if (st == GDW_FILE_OK) return 0;
    char shown[512];
    shown_name(src, shown, sizeof shown);
    fprintf(stderr, "gdwire: %s: byte %llu: %s\n", shown, (unsigned long long)err.offset, err.message);
    return st == GDW_FILE_NEED_KEY || st == GDW_FILE_NO_MEMORY || st == GDW_FILE_UNSUPPORTED ? EXIT_USAGE : EXIT_REJECTED;
}

/* ---- convert's output: the frames, then the container around them ------------------------------------- */

static struct {
    bool active;
    uint8_t *buf;
    size_t n, cap;
} g_sink;

int sink_take(const uint8_t *pre, size_t np, const uint8_t *p, size_t n) {
    if (!g_sink.active) return 0;
    if (g_sink.n + np + n > g_sink.cap) {
        size_t nc = g_sink.cap ? g_sink.cap : 65536;
        while (nc < g_sink.n + np + n) nc *= 2;
        uint8_t *q = realloc(g_sink.buf, nc);
        if (!q) return -1;
        g_sink.buf = q, g_sink.cap = nc;
    }
    memcpy(g_sink.buf + g_sink.n, pre, np);
    if (n) memcpy(g_sink.buf + g_sink.n + np, p, n);
    g_sink.n += np + n;
    return 1;
}

static uint8_t *sink_end(size_t *n) {
    uint8_t *p = g_sink.buf;
    *n = g_sink.n;
    memset(&g_sink, 0, sizeof g_sink);
    return p;
}

/* ---- --framing file over a container ---------------------------------------------------------------------- */

bool container_magic(const uint8_t *p, size_t n) {
    gdw_file_info info;
    gdw_file_error err;
    /* the header alone decides nothing here: a container's magic word, even one whose header is then cut */
    return n >= 4 && (gdw_file_inspect(p, 4, &info, &err) != GDW_FILE_OK || info.container != GDW_FILE_PLAIN);
}

int container_source(const opts *o, const char *src, const uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st) {
    gdw_file_info info;
    gdw_file_error err;
    bool converting = o->to != NULL && strcmp(o->verb, "convert") == 0;
    if (gdw_file_inspect(p, n, &info, &err) == GDW_FILE_OK && info.container == GDW_FILE_PLAIN && !(converting && o->container))
        return split_frames_memory(o, src, p, n, fn, ctx, st); /* a plain file: as before */
    if (converting && o->enc != ENC_RAW) { /* the container is raw bytes: it cannot go out as hex or base64 lines */
        fprintf(stderr, "gdwire convert: %s: a %s file is converted as raw bytes: leave out --hex, --base64 and --dump\n", src,
                info.container == GDW_FILE_PLAIN ? "plain" : info.layout);
        return st->rejected++, st->packets++, EXIT_USAGE;
    }
    uint8_t *plain = NULL;
    size_t plain_n = 0;
    int rc = open_container(o, src, p, n, &info, &plain, &plain_n);
    if (rc) return st->rejected++, st->packets++, rc;
    if (strcmp(o->verb, "explain") == 0 && !o->json) {
        char text[2048], shown[512];
        gdw_file_describe(&info, text, sizeof text);
        shown_name(src, shown, sizeof shown);
        printf("%s%s%s\n%s(the frames below: offsets in the %llu plain bytes inside)\n\n", c_bold(), shown, c_off(), text, (unsigned long long)info.plain_len);
    }
    gdw_file_spec out;
    char why[300];
    if (converting && !output_spec(o, &info, &out, why, sizeof why)) {
        fprintf(stderr, "gdwire convert: %s: %s\n", src, why);
        return free(plain), EXIT_USAGE;
    }
    if (converting) g_sink.active = true;
    rc = split_frames_memory(o, src, plain, plain_n, fn, ctx, st);
    free(plain);
    if (!converting) return rc;
    size_t body_n;
    uint8_t *body = sink_end(&body_n);
    if (rc == EXIT_ACCEPTED) {
        uint8_t *file = NULL;
        size_t file_n = 0;
        gdw_file_status ws = gdw_file_write(&out, body, body_n, &file, &file_n, &err);
        if (ws) fprintf(stderr, "gdwire convert: %s: %s\n", src, err.message), rc = EXIT_USAGE;
        else if (fwrite(file, 1, file_n, stdout) != file_n) fprintf(stderr, "gdwire convert: write error: %s\n", strerror(errno)), rc = EXIT_USAGE;
        free(file);
    } else {
        fprintf(stderr, "gdwire convert: %s: nothing written: a container is written whole or not at all\n", src);
    }
    free(body);
    return rc;
}

/* ---- migrate ---------------------------------------------------------------------------------------------- */

typedef enum { MIGRATED, MIGRATED_LOSSY, REFUSED } migrate_outcome;

typedef struct migrate_run {
    const opts *o;
    size_t counts[3];
    int depth;
    const char *src_real; /* SRC_DIR resolved: no folder written into may be it or inside it */
} migrate_run;

static const char *const k_outcome_name[] = {"converted", "lossy", "refused"};

/* Places convert_value reports (each as convert names it), gathered for the report. */
typedef struct places {
    char *text;
    size_t n, cap, count;
} places;

static void place_add(void *ctx, const char *line) {
    places *pl = ctx;
    size_t len = strlen(line);
    if (pl->n + len + 8 > pl->cap) {
        size_t nc = pl->cap ? pl->cap * 2 : 1024;
        while (nc < pl->n + len + 8) nc *= 2;
        char *q = realloc(pl->text, nc);
        if (!q) return;
        pl->text = q, pl->cap = nc;
    }
    pl->n += (size_t)snprintf(pl->text + pl->n, pl->cap - pl->n, "    %s\n", line);
    pl->count++;
}

/* One file: read, opened, every value converted (lossy places gathered), written beside under dst. why gets the
 * reason of a refusal. */
static migrate_outcome migrate_file(const opts *o, const char *src, const char *dst, mode_t mode, places *pl, char *why, size_t why_cap) {
    struct stat sb_dst;
    if (lstat(dst, &sb_dst) == 0) return snprintf(why, why_cap, "%.300s exists: migrate never writes over a file", dst), REFUSED;
    FILE *f = fopen(src, "rb");
    if (!f) return snprintf(why, why_cap, "cannot open: %s", strerror(errno)), REFUSED;
    uint8_t *p = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 65536;
            uint8_t *q = realloc(p, nc);
            if (!q) { free(p); fclose(f); return snprintf(why, why_cap, "out of memory"), REFUSED; }
            p = q, cap = nc;
        }
        size_t k = fread(p + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool io = ferror(f);
    fclose(f);
    if (io) return free(p), snprintf(why, why_cap, "read error"), REFUSED;
    gdw_file_info info;
    gdw_file_options fo = {o->has_key ? o->key : NULL, o->max_plain};
    gdw_file_error err;
    uint8_t *plain = NULL;
    size_t plain_n = 0;
    gdw_file_status fs = gdw_file_open(p, n, &fo, &info, &plain, &plain_n, &err);
    free(p);
    if (fs) return snprintf(why, why_cap, "byte %llu: %s", (unsigned long long)err.offset, err.message), REFUSED;
    gdw_file_spec spec;
    if (!output_spec(o, &info, &spec, why, why_cap)) return free(plain), REFUSED;
    /* every frame, converted */
    uint8_t *body = NULL;
    size_t body_n = 0, body_cap = 0;
    gdw_frame_options frame = gdw_frame_options_default(GDW_FRAMING_FILE);
    frame.max_payload = UINT32_MAX;
    migrate_outcome out = MIGRATED;
    for (size_t at = 0; at < plain_n;) {
        size_t len = 0, whole = 0;
        if (gdw_frame_read(&frame, plain + at, plain_n - at, &len, &whole, NULL) != GDW_OK) {
            snprintf(why, why_cap, "the store_var frame at byte %zu of the %zu plain bytes is cut or too long", at, plain_n);
            out = REFUSED;
            break;
        }
        uint8_t *conv = NULL;
        size_t conv_n = 0;
        char msg[512];
        gdw_error cerr;
        bool decoded;
        if (!convert_value(o, plain + at + GDW_FRAME_PREFIX, len, place_add, pl, &conv, &conv_n, msg, sizeof msg, &cerr, &decoded)) {
            snprintf(why, why_cap, "the value at byte %zu: %s", at, msg);
            out = REFUSED;
            break;
        }
        if (body_n + 4 + conv_n > body_cap) {
            size_t nc = body_cap ? body_cap : 65536;
            while (nc < body_n + 4 + conv_n) nc *= 2;
            uint8_t *q = realloc(body, nc);
            if (!q) { free(conv); snprintf(why, why_cap, "out of memory"); out = REFUSED; break; }
            body = q, body_cap = nc;
        }
        gdw_frame_prefix(&frame, conv_n, body + body_n);
        memcpy(body + body_n + 4, conv, conv_n);
        body_n += 4 + conv_n;
        free(conv);
        at += whole;
    }
    free(plain);
    if (out == REFUSED) return free(body), out;
    uint8_t *file = NULL;
    size_t file_n = 0;
    if (gdw_file_write(&spec, body, body_n, &file, &file_n, &err)) return free(body), snprintf(why, why_cap, "%s", err.message), REFUSED;
    free(body);
    /* written whole to a new file beside it (O_EXCL: never over one), then renamed into place */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.gdwire-partial", dst);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode); /* the source's permissions: a save stays as private as it was */
    bool ok = fd >= 0 && write(fd, file, file_n) == (ssize_t)file_n;
    if (fd >= 0) ok = close(fd) == 0 && ok;
    free(file);
    if (ok && lstat(dst, &sb_dst) == 0) ok = false, errno = EEXIST;
    if (!ok || rename(tmp, dst) != 0) {
        char shown_dst[600];
        int saved = errno;
        shown_name(dst, shown_dst, sizeof shown_dst);
        snprintf(why, why_cap, "cannot write %.300s: %s", shown_dst, strerror(saved));
        if (fd >= 0) unlink(tmp);
        return REFUSED;
    }
    return pl->count ? MIGRATED_LOSSY : out;
}

static void migrate_dir(migrate_run *r, const char *src, const char *dst) {
    DIR *d = opendir(src);
    if (!d) { fprintf(stderr, "gdwire migrate: cannot open directory %s: %s\n", src, strerror(errno)); r->counts[REFUSED]++; return; }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **q = realloc(names, cap * sizeof *q);
            if (!q) break;
            names = q;
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    for (size_t i = 0; i + 1 < n; i++) /* name order */
        for (size_t j = i + 1; j < n; j++)
            if (names[j] && names[i] && strcmp(names[j], names[i]) < 0) { char *t = names[i]; names[i] = names[j]; names[j] = t; }
    for (size_t i = 0; i < n; i++) {
        if (!names[i]) continue;
        char s[4096], t[4096];
        snprintf(s, sizeof s, "%s/%s", src, names[i]);
        snprintf(t, sizeof t, "%s/%s", dst, names[i]);
        free(names[i]);
        struct stat sb;
        if (lstat(s, &sb) != 0 || S_ISLNK(sb.st_mode)) continue; /* links are not followed */
        char shown[600];
        shown_name(s, shown, sizeof shown);
        if (S_ISDIR(sb.st_mode)) {
            if (r->depth > 64) { printf("refused   %s: a folder deeper than 64 levels\n", shown); r->counts[REFUSED]++; continue; }
            /* a folder made here, or one already there that is a real folder (not a link) outside SRC_DIR */
            struct stat tb;
            char tr[4096], shown_t[600];
            size_t ls = strlen(r->src_real);
            const char *why_not = NULL;
            if (mkdir(t, 0755) != 0 && errno != EEXIST) why_not = strerror(errno);
            else if (lstat(t, &tb) != 0 || !S_ISDIR(tb.st_mode)) why_not = "it is there and not a folder (a link is not followed)";
            else if (!realpath(t, tr) || strcmp(tr, r->src_real) == 0 || (strncmp(tr, r->src_real, ls) == 0 && tr[ls] == '/'))
                why_not = "it is SRC_DIR or inside it: migrate never writes among its sources";
            if (why_not) {
                shown_name(t, shown_t, sizeof shown_t);
                printf("refused   %s: cannot write into %s: %s\n", shown, shown_t, why_not);
                r->counts[REFUSED]++;
                continue;
            }
            r->depth++;
            migrate_dir(r, s, t);
            r->depth--;
            continue;
        }
        if (!S_ISREG(sb.st_mode)) continue;
        places pl = {0};
        char why[700] = "";
        migrate_outcome m = migrate_file(r->o, s, t, sb.st_mode & 0666, &pl, why, sizeof why);
        r->counts[m]++;
        printf("%-9s %s", k_outcome_name[m], shown);
        if (m == REFUSED) printf(": %s\n", why);
        else if (m == MIGRATED_LOSSY) printf(": %zu lossy place%s\n%s", pl.count, plural(pl.count), pl.text ? pl.text : "");
        else printf("\n");
        free(pl.text);
    }
    free(names);
}

int cmd_migrate(const opts *o) {
    if (o->n_inputs != 2) return usage_error(o->verb, "%s", "SRC_DIR DEST_DIR: two directories");
    const char *src = o->inputs[0], *dst = o->inputs[1];
    struct stat ss, ds;
    if (stat(src, &ss) != 0 || !S_ISDIR(ss.st_mode)) return usage_error(o->verb, "%s is not a directory", src);
    /* DEST_DIR, or the folder it would be made in, resolved before anything is made */
    char rs[4096], rd[4096], parent[4096];
    snprintf(parent, sizeof parent, "%s", dst);
    for (size_t k = strlen(parent); k > 1 && parent[k - 1] == '/'; k--) parent[k - 1] = 0; /* "new_saves/" names new_saves */
    char *slash = strrchr(parent, '/');
    bool exists = stat(dst, &ds) == 0;
    if (!exists) {
        if (slash) *slash = 0; else snprintf(parent, sizeof parent, ".");
        if (!parent[0]) snprintf(parent, sizeof parent, "/");
    }
    if (!realpath(src, rs) || !realpath(exists ? dst : parent, rd)) return usage_error(o->verb, "%s", "cannot resolve the directories");
    size_t ls = strlen(rs);
    if (strcmp(rs, rd) == 0 || (strncmp(rd, rs, ls) == 0 && rd[ls] == '/') || (!exists && strcmp(rs, "/") == 0))
        return usage_error(o->verb, "DEST_DIR %s is SRC_DIR or inside it: migrate never writes among its sources", dst);
    if (!exists && mkdir(dst, 0755) != 0) { fprintf(stderr, "gdwire migrate: cannot make %s: %s\n", dst, strerror(errno)); return EXIT_USAGE; }
    if (stat(dst, &ds) != 0 || !S_ISDIR(ds.st_mode)) return usage_error(o->verb, "%s is not a directory", dst);
    migrate_run r = {o, {0}, 0, rs};
    migrate_dir(&r, src, dst);
    fprintf(stderr, "%zu file%s: %zu converted, %zu lossy, %zu refused\n", r.counts[0] + r.counts[1] + r.counts[2],
            plural(r.counts[0] + r.counts[1] + r.counts[2]), r.counts[MIGRATED], r.counts[MIGRATED_LOSSY], r.counts[REFUSED]);
    return r.counts[REFUSED] ? EXIT_REJECTED : r.counts[MIGRATED_LOSSY] ? EXIT_MIGRATE_LOSSY : EXIT_ACCEPTED;
}
