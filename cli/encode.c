/* SPDX-License-Identifier: MIT */
/* encode.c — `gdwire encode` (text or JSON to bytes), `gdwire convert` (dialect to dialect)
 * and `gdwire dialects`. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void print_encode_error(const char *where, const gdw_dialect *d, const gdw_error *e, bool converting) {
    fprintf(stderr, "%s: cannot %s %s: %s%s%s: %s\n", where, converting ? "convert into" : "encode in", gdw_dialect_name(d), gdw_status_name(e->code),
            e->path[0] ? " at " : " at the top", e->path, e->message);
    if (e->code == GDW_ERR_LOSSY || (converting && e->code == GDW_ERR_UNSUPPORTED_TYPE))
        fprintf(stderr, "%s: (--lossy allows it, with a warning per place)\n", where);
}

typedef struct lossy_ctx { const char *where; const gdw_dialect *d; size_t count; } lossy_ctx;

static void warn_lossy(void *ctx, const gdw_error *e) {
    lossy_ctx *l = ctx;
    l->count++;
    fprintf(stderr, "%s: warning: into %s: %s%s%s: %s\n", l->where, gdw_dialect_name(l->d), gdw_status_name(e->code), e->path[0] ? " at " : " at the top", e->path, e->message);
}

/* Encode v in d (lossy as asked, each narrowing warned about) and write it out. */
static int encode_and_write(const opts *o, const char *where, const gdw_dialect *d, const gdw_value *v) {
    gdw_encode_options eo = gdw_encode_options_default();
    lossy_ctx l = {where, d, 0};
    eo.lossy = o->lossy;
    eo.lossy_report = warn_lossy;
    eo.lossy_ctx = &l;
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_error err;
    gdw_status s = gdw_encode_alloc(d, v, &eo, NULL, &out, &n, &err);
    if (s) { print_encode_error(where, d, &err, o->from != NULL); return s == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED; }
    int rc = write_packet(o, out, n);
    free(out);
    return rc;
}

/* ---- encode ---------------------------------------------------------------------------------- */

typedef struct encode_run { const opts *o; } encode_run;

/* What a newcomer most likely meant where the text form refused text[at] (issue 56): a string in
 * single quotes, or a constructor's name misspelt. "" when nothing comes to mind. */
static const char *text_hint(const char *text, size_t n, size_t at) {
    static char hint[160];
    if (at < n && text[at] == '\'') return " (strings take double quotes: \"text\", not 'text')";
    size_t e = at;
    while (e < n && e - at < 63 && ((text[e] >= 'a' && text[e] <= 'z') || (text[e] >= 'A' && text[e] <= 'Z') || (text[e] >= '0' && text[e] <= '9') || text[e] == '_'))
        e++;
    if (e == at || (text[at] >= '0' && text[at] <= '9')) return "";
    char word[64];
    memcpy(word, text + at, e - at);
    word[e - at] = 0;
    /* the text form's words first (a tie goes to the first), then the constructors' types (a Nil,
     * bool, int, float or string is written as a literal, not by its type's name) */
    static const char *const words[] = {"null", "true", "false", "inf", "nan", "ObjectID"};
    const char *names[GDW_TYPE_COUNT + 8];
    size_t k = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) names[k++] = words[i];
    for (int t = 0; t < GDW_TYPE_COUNT; t++)
        if (t != GDW_NIL && t != GDW_BOOL && t != GDW_INT && t != GDW_FLOAT && t != GDW_STRING && t != GDW_STRING_NAME)
            names[k++] = gdw_type_name((gdw_type)t);
    const char *pick = suggest_verb(word, names, k);
    if (!pick) return "";
    snprintf(hint, sizeof hint, " ('%s': did you mean %s?)", word, pick);
    return hint;
}

static int encode_input(void *ctx, const packet *pk) {
    const opts *o = ((encode_run *)ctx)->o;
    gdw_doc *doc = NULL;
    gdw_error err;
    char where[600];
    packet_name(pk, where, sizeof where);
    gdw_status s = o->json_plain ? gdw_json_parse_plain((const char *)pk->p, pk->n, NULL, &doc, &err)
                   : o->json ? gdw_json_parse((const char *)pk->p, pk->n, NULL, &doc, &err)
                           : gdw_text_parse((const char *)pk->p, pk->n, NULL, &doc, &err);
    if (s) {
        fprintf(stderr, "%s: %s at character %zu%s%s: %s%s\n", where, gdw_status_name(err.code), err.offset, err.path[0] ? " in " : "", err.path,
                err.message, s == GDW_ERR_SYNTAX && !o->json && !o->json_plain ? text_hint((const char *)pk->p, pk->n, err.offset) : "");
        /* one value: a usage error; one line of many: that value is refused, the next line read */
        return s == GDW_ERR_NOMEM ? EXIT_USAGE : o->lines ? EXIT_REJECTED : EXIT_USAGE;
    }
    int rc = encode_and_write(o, where, o->dialect, gdw_doc_root(doc));
    gdw_doc_free(doc);
    return rc;
}

int cmd_encode(const opts *o) {
    /* the input is text: read it whole, as one "packet"; --hex/--base64/--framing shape the output */
    opts in = *o;
    in.enc = ENC_RAW;
    in.frame = FRAME_NONE;
    in.lines = o->lines; /* --lines: every line is a value (text, or JSON Lines with --json), answered as it arrives */
    encode_run r = {o};
    run_stats st = {0};
    return for_each_packet(&in, encode_input, &r, &st);
}

/* ---- convert --------------------------------------------------------------------------------- */

/* A lossy place as convert names it ("into godot4: LOSSY at [2]: ..."), to the caller's place function. */
typedef struct place_ctx { const gdw_dialect *d; void (*place)(void *, const char *); void *ctx; } place_ctx;

static void say_place(void *ctx, const gdw_error *e) {
    place_ctx *pc = ctx;
    char line[700];
    snprintf(line, sizeof line, "into %s: %s%s%s: %s", gdw_dialect_name(pc->d), gdw_status_name(e->code), e->path[0] ? " at " : " at the top", e->path,
             e->message);
    pc->place(pc->ctx, line);
}

bool convert_value(const opts *o, const uint8_t *p, size_t n, void (*place)(void *, const char *), void *place_ctx_arg, uint8_t **out,
                   size_t *out_n, char *why, size_t why_cap, gdw_error *failed, bool *decoded) {
    gdw_doc *doc = NULL, *conv = NULL;
    gdw_error err;
    gdw_decode_options dec = o->dec;
    dec.borrow_input = true;
    *out = NULL;
    gdw_status s = gdw_decode(o->from, p, n, &dec, NULL, &doc, NULL, &err);
    *decoded = s == GDW_OK;
    if (s) {
        *failed = err;
        snprintf(why, why_cap, "not a %s value: %s%s%s at byte %zu: %s", gdw_dialect_name(o->from), gdw_status_name(err.code), err.path[0] ? " at " : "",
                 err.path, err.offset, err.message);
        return false;
    }
    place_ctx pc = {o->to, place, place_ctx_arg};
    gdw_convert_options co = gdw_convert_options_default();
    co.lossy = o->lossy;
    co.report = say_place;
    co.report_ctx = &pc;
    s = gdw_convert(gdw_doc_root(doc), o->to, &co, NULL, &conv, &err);
    if (!s) {
        gdw_encode_options eo = gdw_encode_options_default();
        eo.lossy = o->lossy;
        eo.lossy_report = say_place;
        eo.lossy_ctx = &pc;
        s = gdw_encode_alloc(o->to, gdw_doc_root(conv), &eo, NULL, out, out_n, &err);
    }
    if (s) *failed = err;
    if (s)
        snprintf(why, why_cap, "cannot convert into %s: %s%s%s: %s%s", gdw_dialect_name(o->to), gdw_status_name(err.code), err.path[0] ? " at " : " at the top",
                 err.path, err.message, !o->lossy && (err.code == GDW_ERR_LOSSY || err.code == GDW_ERR_UNSUPPORTED_TYPE) ? " (--lossy allows it, with a warning per place)" : "");
    gdw_doc_free(conv);
    gdw_doc_free(doc);
    return s == GDW_OK;
}

/* convert's warnings: "where: warning: into ...". */
static void warn_place(void *ctx, const char *line) { fprintf(stderr, "%s: warning: %s\n", (const char *)ctx, line); }

static int convert_packet(void *ctx, const packet *pk) {
    const opts *o = ctx;
    char where[600], why[900];
    packet_name(pk, where, sizeof where);
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_error err;
    bool decoded;
    if (!convert_value(o, pk->p, pk->n, warn_place, where, &out, &n, why, sizeof why, &err, &decoded)) {
        if (!decoded) {
            fprintf(stderr, "%s: not a %s packet: ", where, gdw_dialect_name(o->from));
            print_decode_error(stderr, pk, &err);
        } else {
            print_encode_error(where, o->to, &err, true);
        }
        return err.code == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED;
    }
    int rc = write_packet(o, out, n);
    free(out);
    return rc;
}

int cmd_convert(const opts *o) {
    run_stats st = {0};
    int rc = for_each_packet(o, convert_packet, (void *)o, &st);
    if (!single_packet_input(o))
        fprintf(stderr, "%zu packet%s: %zu converted, %zu not\n", st.packets, plural(st.packets), st.accepted, st.rejected);
    return rc;
}

/* ---- dialects -------------------------------------------------------------------------------- */

/* Where a row's expectations come from: the engine that answered them, or why none has. */
static void print_evidence(const gdw_dialect *d) {
    if (gdw_dialect_engine_evidence(d)) printf("%-19s %-12s %5s  engine evidence: %s\n", "", "", "", gdw_dialect_engine_evidence(d));
    else printf("%-19s %-12s %5s  no engine evidence: %s\n", "", "", "", gdw_dialect_no_engine(d));
}

int cmd_dialects(const opts *o) {
    if (o->json) {
        printf("[");
        for (size_t i = 0; i < gdw_row_count(); i++) {
            const gdw_dialect *d = gdw_row_at(i);
            printf("%s{\"name\":\"%s\",\"fuzz_id\":%u,\"family\":\"%s\",\"type_ids\":%u,\"release\":\"%s\",\"release_of\":",
                   i ? "," : "", gdw_dialect_name(d), gdw_dialect_fuzz_id(d), gdw_dialect_family(d), gdw_dialect_type_count(d), gdw_dialect_release(d));
            if (gdw_dialect_base(d) != d) printf("\"%s\"", gdw_dialect_name(gdw_dialect_base(d))); else printf("null");
            printf(",\"engine\":");
            json_string(stdout, gdw_dialect_engines(d));
            printf(",\"aliases\":[");
            const char *a = gdw_dialect_aliases(d);
            int k = 0;
            while (*a) {
                size_t n = strcspn(a, " ");
                if (n) { printf("%s\"%.*s\"", k++ ? "," : "", (int)n, a); }
                a += n;
                while (*a == ' ') a++;
            }
            printf("],\"summary\":");
            json_string(stdout, gdw_dialect_summary(d));
            printf(",\"types\":[");
            for (unsigned w = 0; w < gdw_dialect_type_count(d); w++) printf("%s\"%s\"", w ? "," : "", gdw_type_name((gdw_type)gdw_dialect_wire_type(d, w)));
            printf("],\"engine_evidence\":");
            if (gdw_dialect_engine_evidence(d)) json_string(stdout, gdw_dialect_engine_evidence(d)); else printf("null");
            printf(",\"no_engine\":");
            if (gdw_dialect_no_engine(d)) json_string(stdout, gdw_dialect_no_engine(d)); else printf("null");
            printf(",\"documented_only\":%s,\"objects_by_default\":%s,\"rules\":{", gdw_dialect_documented_only(d) ? "true" : "false",
                   gdw_dialect_objects_by_default(d) ? "true" : "false");
            for (int r = 0; r < GDW_RULE_COUNT; r++) printf("%s\"%s\":%d", r ? "," : "", gdw_rule_name((gdw_rule)r), gdw_dialect_rule(d, (gdw_rule)r));
            printf("}}");
        }
        printf("]\n");
        return 0;
    }
    printf("%-19s %-12s %5s  %s\n", "dialect", "family", "types", "engine / aliases");
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        printf("%s%-19s%s %-12s %5u  %s%s%s\n", c_bold(), gdw_dialect_name(d), c_off(), gdw_dialect_family(d), gdw_dialect_type_count(d), gdw_dialect_engines(d), gdw_dialect_aliases(d)[0] ? "; also " : "", gdw_dialect_aliases(d));
        printf("%-19s %-12s %5s  %s%s%s\n", "", "", "", c_dim(), gdw_dialect_summary(d), c_off());
        print_evidence(d);
    }
    printf("\n%-19s %-12s %5s  %s\n", "engine release", "release of", "", "engine / aliases (engine-exact mode; -d NAME wherever a dialect goes)");
    for (size_t i = 0; i < gdw_release_count(); i++) {
        const gdw_dialect *d = gdw_release_at(i);
        printf("%s%-19s%s %-12s %5s  %s%s%s\n", c_bold(), gdw_dialect_name(d), c_off(), gdw_dialect_name(gdw_dialect_base(d)), "", gdw_dialect_engines(d), gdw_dialect_aliases(d)[0] ? "; also " : "", gdw_dialect_aliases(d));
        printf("%-19s %-12s %5s  %s%s%s\n", "", "", "", c_dim(), gdw_dialect_summary(d), c_off());
        print_evidence(d);
    }
    printf("\nNames: a dialect is named for its engine and release (godot3, godot4.3). mole is Godot 2\n"
           "(2.0-2.1.x), after the \"Mole\" legacy documents of its format; -d godot2 reads the same.\n"
           "pandemonium is the Pandemonium fork of Godot 3 (Relintai/pandemonium_engine), in its layouts.\n"
           "DIALECT@RELEASE is an older release of that dialect's engine where it reads bytes otherwise.\n");
    return 0;
}
