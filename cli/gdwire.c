/* gdwire — check, decode and encode Godot Variant packets in every dialect.
 *
 * Exit status: 0 accepted (check: by at least one dialect), 1 rejected, 2 usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire.h"
#include "dialects/dialects.h"

#define EXIT_REJECTED 1
#define EXIT_USAGE 2

static const char *k_prog = "gdwire";

static void usage_main(FILE *f) {
    fprintf(f,
            "usage: gdwire <verb> [options] [FILE|-]\n"
            "\n"
            "Verbs:\n"
            "  check     check one packet against every dialect\n"
            "  decode    decode a packet in one dialect and print its value in canonical text\n"
            "  encode    encode a value given in canonical text into a packet\n"
            "  dialects  list the dialects\n"
            "  help      this text; 'gdwire VERB --help' for a verb\n"
            "\n"
            "Exit status: 0 accepted, 1 rejected, 2 usage or I/O error.\n"
            "Version " GDW_VERSION ". The text form is described in docs/text-format.md.\n");
}

static void usage_check(FILE *f) {
    fprintf(f,
            "usage: gdwire check [--hex] [--mode compatible|strict|engine-exact] [--allow-objects] FILE|-\n"
            "\n"
            "Decodes one packet in every dialect and prints, per dialect: accepted or the error\n"
            "(code, byte offset, path), bytes consumed, trailing bytes, whether re-encoding gives\n"
            "back the same bytes, and the value in one line.\n"
            "\n"
            "  --hex             input is hex text (whitespace allowed), not raw bytes\n"
            "  --mode M          compatible (default), strict or engine-exact\n"
            "  --allow-objects   accept full Objects (class + properties)\n"
            "\n"
            "Example:\n"
            "  echo '0f000000 02000080 00000000 01000000 61000000' | gdwire check --hex -\n"
            "Exit status: 0 if at least one dialect accepts, 1 if none does, 2 on usage or I/O errors.\n");
}

static void usage_decode(FILE *f) {
    fprintf(f,
            "usage: gdwire decode -d DIALECT [--hex] [--mode M] [--allow-objects] FILE|-\n"
            "\n"
            "Decodes the packet and prints its value in canonical text (docs/text-format.md).\n"
            "Errors go to stderr with the byte offset and the path to the failing value.\n"
            "\n"
            "Example:\n"
            "  echo '04000000 02000000 68690000' | gdwire decode -d godot3 --hex -\n"
            "Exit status: 0 accepted, 1 rejected, 2 usage or I/O error.\n");
}

static void usage_encode(FILE *f) {
    fprintf(f,
            "usage: gdwire encode -d DIALECT [--hex] [--lossy] FILE|-\n"
            "\n"
            "Reads a value in canonical text and writes its encoding, as the dialect's engine would\n"
            "write it, to stdout: raw bytes, or hex with --hex. A value that does not fit the\n"
            "dialect exactly is an error unless --lossy is given.\n"
            "\n"
            "Example:\n"
            "  echo '{\"a\": 1}' | gdwire encode -d godot3 --hex -\n"
            "Exit status: 0 encoded, 1 the value cannot be encoded, 2 usage or I/O error.\n");
}

static void usage_dialects(FILE *f) {
    fprintf(f, "usage: gdwire dialects\n\nLists every dialect: name, aliases, engine, number of type ids.\n");
}

static int usage_error(const char *verb, const char *fmt, const char *arg) {
    fprintf(stderr, "%s %s: ", k_prog, verb);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try 'gdwire %s --help')\n", verb);
    return EXIT_USAGE;
}

/* ---- input ------------------------------------------------------------------------------ */

typedef struct buf {
    uint8_t *p;
    size_t n;
} buf;

static int read_all(const char *path, buf *out) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open %s: %s\n", k_prog, path, strerror(errno)); return EXIT_USAGE; }
    size_t cap = 4096, n = 0;
    uint8_t *p = malloc(cap);
    while (p) {
        size_t r = fread(p + n, 1, cap - n, f);
        n += r;
        if (n < cap) break;
        uint8_t *q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);
        if (!q) { free(p); p = NULL; break; }
        p = q;
        cap *= 2;
    }
    int bad = ferror(f);
    if (f != stdin) fclose(f);
    if (!p) { fprintf(stderr, "%s: out of memory reading %s\n", k_prog, path); return EXIT_USAGE; }
    if (bad) { free(p); fprintf(stderr, "%s: read error on %s\n", k_prog, path); return EXIT_USAGE; }
    out->p = p;
    out->n = n;
    return 0;
}

static int hexdigit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex text to bytes in place; whitespace ignored. */
static int unhex(const char *path, buf *b) {
    size_t o = 0;
    int hi = -1;
    for (size_t i = 0; i < b->n; i++) {
        int c = b->p[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        int v = hexdigit(c);
        if (v < 0) { fprintf(stderr, "%s: %s: not hex at character %zu ('%c')\n", k_prog, path, i, c >= 32 && c < 127 ? c : '?'); return EXIT_USAGE; }
        if (hi < 0) hi = v;
        else { b->p[o++] = (uint8_t)(hi * 16 + v); hi = -1; }
    }
    if (hi >= 0) { fprintf(stderr, "%s: %s: odd number of hex digits\n", k_prog, path); return EXIT_USAGE; }
    b->n = o;
    return 0;
}

/* ---- options ---------------------------------------------------------------------------- */

typedef struct opts {
    const char *dialect;
    const char *file;
    bool hex, lossy, help;
    gdw_decode_options dec;
} opts;

static int parse_opts(const char *verb, int argc, char **argv, opts *o, bool want_dialect, bool want_mode) {
    memset(o, 0, sizeof *o);
    o->dec = gdw_decode_options_default();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { o->help = true; return 0; }
        else if (strcmp(a, "--hex") == 0) o->hex = true;
        else if (strcmp(a, "--lossy") == 0 && !want_mode) o->lossy = true;
        else if (strcmp(a, "--allow-objects") == 0 && want_mode) o->dec.allow_objects = true;
        else if ((strcmp(a, "-d") == 0 || strcmp(a, "--dialect") == 0) && want_dialect) {
            if (++i >= argc) return usage_error(verb, "%s needs a dialect name", a);
            o->dialect = argv[i];
        } else if (strcmp(a, "--mode") == 0 && want_mode) {
            if (++i >= argc) return usage_error(verb, "%s needs a mode", a);
            int m = gdw_mode_from_name(argv[i]);
            if (m < 0) return usage_error(verb, "unknown mode '%s' (compatible, strict, engine-exact)", argv[i]);
            o->dec.mode = (gdw_mode)m;
        } else if (a[0] == '-' && a[1] != 0) return usage_error(verb, "unknown option '%s'", a);
        else if (o->file) return usage_error(verb, "more than one input: '%s'", a);
        else o->file = a;
    }
    if (!o->file) return usage_error(verb, "%s", "no input given (a FILE, or - for stdin)");
    if (want_dialect && !o->dialect) return usage_error(verb, "%s", "no dialect given (-d NAME; see 'gdwire dialects')");
    return 0;
}

static const gdw_dialect *find_dialect(const char *verb, const char *name) {
    const gdw_dialect *d = gdw_dialect_find(name);
    if (!d) usage_error(verb, "unknown dialect '%s' (see 'gdwire dialects')", name);
    return d;
}

static int load_input(const opts *o, buf *b) {
    int rc = read_all(o->file, b);
    if (rc) return rc;
    if (o->hex && (rc = unhex(o->file, b))) { free(b->p); return rc; }
    return 0;
}

static void print_error(FILE *f, const char *file, const gdw_error *e) {
    fprintf(f, "%s: %s at byte %zu", file, gdw_status_name(e->code), e->offset);
    if (e->path[0]) fprintf(f, " in %s", e->path);
    fprintf(f, ": %s", e->message);
    if (e->engine_error != GDW_ENGINE_NONE) fprintf(f, " (engine: %s)", gdw_engine_error_name(e->engine_error));
    fputc('\n', f);
}

/* ---- verbs ------------------------------------------------------------------------------ */

static void summarize(const gdw_value *v, char *out, size_t cap) {
    size_t n = gdw_text_print(v, out, cap);
    if (n >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

static int cmd_check(int argc, char **argv) {
    opts o;
    int rc = parse_opts("check", argc, argv, &o, false, true);
    if (rc || o.help) { if (o.help) usage_check(stdout); return rc; }
    buf b;
    if ((rc = load_input(&o, &b))) return rc;
    printf("%zu bytes, mode %s\n", b.n, gdw_mode_name(o.dec.mode));
    printf("%-19s %-8s %8s %8s %-9s %s\n", "dialect", "verdict", "consumed", "trailing", "re-encode", "value / error");
    gdw_check_result *res = calloc(gdw_dialect_count(), sizeof *res);
    if (!res) { fprintf(stderr, "%s: out of memory\n", k_prog); free(b.p); return EXIT_USAGE; }
    int accepted = (int)gdw_check(b.p, b.n, &o.dec, true, res);
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_check_result *r = &res[i];
        const gdw_dialect *d = r->dialect;
        if (r->status) {
            printf("%-19s %-8s %8s %8s %-9s %s at byte %zu%s%s: %s\n", d->name, "rejected", "-", "-", "-",
                   gdw_status_name(r->err.code), r->err.offset, r->err.path[0] ? " in " : "", r->err.path, r->err.message);
            continue;
        }
        const char *same = r->encode_status ? gdw_status_name(r->encode_status) : r->reencodes_same ? "same" : "differs";
        char line[100];
        summarize(gdw_doc_root(r->doc), line, sizeof line);
        printf("%-19s %-8s %8zu %8zu %-9s %s\n", d->name, "accepted", r->consumed, b.n - r->consumed, same, line);
        gdw_doc_free(r->doc);
    }
    free(res);
    printf("%d of %zu dialects accept this packet\n", accepted, gdw_dialect_count());
    free(b.p);
    return accepted ? 0 : EXIT_REJECTED;
}

static int cmd_decode(int argc, char **argv) {
    opts o;
    int rc = parse_opts("decode", argc, argv, &o, true, true);
    if (rc || o.help) { if (o.help) usage_decode(stdout); return rc; }
    const gdw_dialect *d = find_dialect("decode", o.dialect);
    if (!d) return EXIT_USAGE;
    buf b;
    if ((rc = load_input(&o, &b))) return rc;
    gdw_doc *doc = NULL;
    gdw_error err;
    size_t used = 0;
    gdw_status s = gdw_decode(d, b.p, b.n, &o.dec, NULL, &doc, &used, &err);
    if (s) {
        print_error(stderr, o.file, &err);
        free(b.p);
        return s == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED;
    }
    char *text = gdw_text_print_alloc(gdw_doc_root(doc));
    if (!text) { fprintf(stderr, "%s: out of memory\n", k_prog); gdw_doc_free(doc); free(b.p); return EXIT_USAGE; }
    printf("%s\n", text);
    if (used < b.n) fprintf(stderr, "%s: note: %zu trailing bytes after the value (ignored, as the engines do)\n", o.file, b.n - used);
    free(text);
    gdw_doc_free(doc);
    free(b.p);
    return 0;
}

static int cmd_encode(int argc, char **argv) {
    opts o;
    int rc = parse_opts("encode", argc, argv, &o, true, false);
    if (rc || o.help) { if (o.help) usage_encode(stdout); return rc; }
    const gdw_dialect *d = find_dialect("encode", o.dialect);
    if (!d) return EXIT_USAGE;
    buf b;
    if ((rc = read_all(o.file, &b))) return rc;
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse((const char *)b.p, b.n, NULL, &doc, &err);
    if (s) {
        fprintf(stderr, "%s: %s at character %zu: %s\n", o.file, gdw_status_name(err.code), err.offset, err.message);
        free(b.p);
        return EXIT_USAGE;
    }
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = o.lossy;
    uint8_t *out = NULL;
    size_t n = 0;
    s = gdw_encode_alloc(d, gdw_doc_root(doc), &eo, NULL, &out, &n, &err);
    gdw_doc_free(doc);
    free(b.p);
    if (s) {
        fprintf(stderr, "%s: cannot encode in %s: %s: %s\n", o.file, d->name, gdw_status_name(err.code), err.message);
        return s == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED;
    }
    if (o.hex) {
        for (size_t i = 0; i < n; i++) printf("%02x%s", out[i], (i % 4 == 3 && i + 1 < n) ? " " : "");
        printf("\n");
    } else if (fwrite(out, 1, n, stdout) != n) {
        fprintf(stderr, "%s: write error\n", k_prog);
        free(out);
        return EXIT_USAGE;
    }
    free(out);
    return 0;
}

static int cmd_dialects(int argc, char **argv) {
    if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) { usage_dialects(stdout); return 0; }
    if (argc > 0) return usage_error("dialects", "unexpected argument '%s'", argv[0]);
    printf("%-19s %-12s %5s  %s\n", "dialect", "family", "types", "engine / aliases");
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        printf("%-19s %-12s %5u  %s%s%s\n", d->name, d->family, d->type_count, d->engine,
               d->aliases[0] ? "; also " : "", d->aliases);
        printf("%-19s %-12s %5s  %s\n", "", "", "", d->summary);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { usage_main(stderr); return EXIT_USAGE; }
    const char *verb = argv[1];
    if (strcmp(verb, "check") == 0) return cmd_check(argc - 2, argv + 2);
    if (strcmp(verb, "decode") == 0) return cmd_decode(argc - 2, argv + 2);
    if (strcmp(verb, "encode") == 0) return cmd_encode(argc - 2, argv + 2);
    if (strcmp(verb, "dialects") == 0) return cmd_dialects(argc - 2, argv + 2);
    if (strcmp(verb, "help") == 0 || strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) { usage_main(stdout); return 0; }
    if (strcmp(verb, "--version") == 0) { printf("gdwire " GDW_VERSION "\n"); return 0; }
    fprintf(stderr, "%s: unknown verb '%s'\n", k_prog, verb);
    usage_main(stderr);
    return EXIT_USAGE;
}
