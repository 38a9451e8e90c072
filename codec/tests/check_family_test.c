/* SPDX-License-Identifier: MIT */
/* check_family_test — does the ranking name the engine that wrote a packet (issue 56, section 1)?
 * Every packet the engines wrote (tools/engines/ENGINE-packets.tsv), whole, cut at 25, 50, 75 and
 * 90 % of its length and at length - 1, after a 4-byte length prefix (put_var's) and after one
 * opcode byte, checked in every dialect and ranked by the library (gdw_check_report). The
 * expectation is the engine that wrote the bytes, not gdwire.
 *
 * How it counts:
 *   - a hit: a dialect of the writer's family is among the first (the named first choice and its
 *   "equally");
 *   - undecidable, and left out of the rates: a packet every family that reads it whole reads as
 *   the same value
 *     (int 0), and any cut or framing of it; a cut that leaves fewer than 8 bytes;
 *   - named: the named first choice alone is of the writer's family (on decidable packets).
 *   - tied: the writer's family ranks as high as the named choice but reads another value (the
 *   bytes alone cannot
 *     tell them apart; the newest release is named, and the others are said to be "as likely").
 * Every sentence the ranking prints is checked against the readings it names (check_sentences): the
 * summary's first choice and kind of reading, each "equally" (as likely, and the same value or the
 * same walk), each "as likely", "needs at least N more bytes" (N - 1 zeros more still run out), and
 * every row's reason ("reads all N bytes", "reads N of M bytes", "same value as", "a different
 * value", "cut short", "rejected"). It prints the rates by shape and the misses by cause. The
 * issue's aim is 99 % hits on whole packets and 95 % on cut and prefixed ones; this test holds the
 * rates measured when the ranking was made (the floors below) so that a change that loses hits
 * fails, and says the aim beside them. Before this ranking (gdwire 0.x, rank 1 for every reading
 * with the best score, values alike or not): whole 100 % hits (an "equally" of other values) with
 * 83.23 % named; cut 20.54 % (7.17 % named); prefixed 40.48 % (16.05 % named). 
 *
 * usage: check_family_test FAMILY PACKETS.TSV [FAMILY PACKETS.TSV ...] */
#include "codec/tests/testing.h"

enum { WHOLE, CUT, PREFIXED, SHAPES };
static const char *const shape_name[SHAPES] = {"whole", "cut", "prefixed"};

typedef struct tally {
    long total, undecidable, hits, named, tied;
    long miss_cause[8];
} tally;

static tally g_tally[SHAPES];
static const char *const cause_name[] = {
    "another family reads the bytes whole",          /* 0 */
    "another family's cut reading ranks first",      /* 1 */
    "another family reads a prefix and ranks first", /* 2 */
    "another framing ranks first",                   /* 3 */
    "no dialect reads anything",                     /* 4 */
    /* 5: one string, split for the line's length (the parentheses say so to clang) */
    ("a tie: the writer's family ranks as high, reading another value, and the newest release is "
     "named"),
};

/* The families that read buf whole (every byte) read it as the same value: the bytes cannot tell
 * them apart. */
static bool undecidable_whole(const uint8_t *buf, size_t len) {
    size_t nd = gdw_dialect_count();
    gdw_check_result r[64];
    gdw_check(buf, len, NULL, NULL, true, r, 64);
    const gdw_value *first = NULL;
    const char *family = NULL;
    bool families = false, same = true;
    for (size_t i = 0; i < nd; i++) {
        if (r[i].status != GDW_OK || r[i].consumed != len) continue;
        const gdw_value *v = gdw_doc_root(r[i].doc);
        if (!first) first = v, family = gdw_dialect_family(r[i].dialect);
        else {
            if (strcmp(family, gdw_dialect_family(r[i].dialect)) != 0) families = true;
            if (!gdw_value_equal(first, v)) same = false;
        }
    }
    for (size_t i = 0; i < nd; i++) gdw_doc_free(r[i].doc);
    return families && same;
}


/* ---- every sentence true of the readings it names -------------------------------------------- */

static long g_sentences;

/* The rows read the same value (accepted) or fail alike (cut): what "equally" and "reads the packet
 * as X does" claim. */
static bool read_alike(const gdw_check_row *a, const gdw_check_row *b) {
    if ((a->result.status == GDW_OK) != (b->result.status == GDW_OK)) return false;
    if (a->result.status == GDW_OK)
        return gdw_value_equal(gdw_doc_root(a->result.doc), gdw_doc_root(b->result.doc));
    const gdw_error *x = &a->result.err, *y = &b->result.err;
    return x->code == y->code && x->offset == y->offset && x->short_by == y->short_by &&
           strcmp(x->path, y->path) == 0 && strcmp(x->message, y->message) == 0;
}

/* "needs at least N more bytes": with N - 1 zero bytes more the value still runs out. */
static bool needs_at_least(const gdw_dialect *d, const uint8_t *buf, size_t len, size_t n) {
    if (n == 0) return false;
    uint8_t *padded = calloc(len + n, 1);
    if (!padded) exit(2);
    memcpy(padded, buf, len);
    gdw_error err;
    gdw_status s = gdw_validate(d, padded, len + n - 1, NULL, NULL, &err);
    free(padded);
    return s == GDW_ERR_TRUNCATED;
}

static const gdw_check_row *row_named(const gdw_check_report *rep, const char *name, size_t n) {
    for (size_t i = 0; i < rep->n; i++)
        if (strlen(gdw_dialect_name(rep->rows[i].result.dialect)) == n &&
            strncmp(gdw_dialect_name(rep->rows[i].result.dialect), name, n) == 0)
            return &rep->rows[i];
    return NULL;
}

/* The call a script of the engines of facts s makes to read the value after skip bytes, Objects not
 * asked for, as the script line writes it (gdw_script_facts). */
static void script_call(const gdw_script_facts *s, size_t skip, char *out, size_t cap) {
    if (!skip) snprintf(out, cap, "%sbytes%s", s->decode_open, s->decode_close);
    else if (s->tail_open)
        snprintf(out, cap, "%s%s%zu%s%s", s->decode_open, s->tail_open, skip, s->tail_close,
                 s->decode_close);
    else
        snprintf(out, cap, "%s<the bytes after the first %zu>%s", s->decode_open, skip,
                 s->decode_close);
}

/* Each claim of the summary and of every reason, against the readings (the documents the report
 * keeps). */
static void check_sentences(const gdw_check_report *rep, const uint8_t *packet, const char *name) {
    const uint8_t *buf = packet + rep->skip;
    size_t len = rep->len - rep->skip;
    const gdw_check_row *b = &rep->rows[rep->best];
    const char *bname = gdw_dialect_name(b->result.dialect), *s = rep->summary;
    g_sentences++;
    if (b->reading == GDW_READING_REJECTED) {
        CHECK(strncmp(s, "No dialect reads this packet; ", 30) == 0, "%s: %s", name, s);
        for (size_t i = 0; i < rep->n; i++)
            CHECK(rep->rows[i].reading == GDW_READING_REJECTED,
                  "%s: says no dialect reads it, %s does", name,
                  gdw_dialect_name(rep->rows[i].result.dialect));
    } else {
        char want[128];
        if (rep->skip)
            snprintf(want, sizeof want, "Most likely: %s",
                     rep->skip == 4 && packet[0] == (uint8_t)len ? "a 4-byte length prefix" : "");
        else if (b->reading == GDW_READING_CUT)
            snprintf(want, sizeof want, "Most likely: a cut %s packet", bname);
        else snprintf(want, sizeof want, "Most likely: %s", bname);
        CHECK(strncmp(s, want, strlen(want)) == 0, "%s: the summary does not begin '%s': %s", name,
              want, s);
        if (rep->skip) {
            for (size_t i = 0; i < rep->n; i++)
                if (rep->rows[i].first)
                    CHECK(rep->rows[i].reading == GDW_READING_WHOLE,
                          "%s: after %zu bytes, %s does not read the rest whole", name, rep->skip,
                          gdw_dialect_name(rep->rows[i].result.dialect));
        }
        /* (equally: A, B; ...): each read alike with the best and as likely */
        const char *eq = strstr(s, "(equally: ");
        for (size_t i = 0; i < rep->n; i++) {
            const gdw_check_row *w = &rep->rows[i];
            bool listed = false;
            if (eq) {
                const char *end = strchr(eq, ';'), *nm = gdw_dialect_name(w->result.dialect);
                for (const char *p = eq + 10; p && p < end;
                     p = strstr(p, ", ") ? strstr(p, ", ") + 2 : NULL) {
                    size_t k = strcspn(p, ",;");
                    if (k == strlen(nm) && strncmp(p, nm, k) == 0) listed = true;
                    if (p + k >= end) break;
                }
            }
            CHECK(listed == (w->first && w != b), "%s: %s %s in the equally of: %s", name,
                  gdw_dialect_name(w->result.dialect), listed ? "is" : "is not", s);
            if (listed) {
                g_sentences++;
                CHECK(w->rank == b->rank && read_alike(w, b),
                      "%s: equally %s, but it does not read the packet as %s does", name,
                      gdw_dialect_name(w->result.dialect), bname);
            }
        }
        /* "as likely by these bytes alone, but reading something else: X, Y" */
        const char *al = strstr(s, "but reading something else: ");
        if (al) {
            char list[640];
            snprintf(list, sizeof list, "%s", al + strlen("but reading something else: "));
            size_t k = strlen(list);
            /* the sentence's end (names hold dots: pandemonium-3.5) */
            if (k && list[k - 1] == '.') list[k - 1] = 0;
            for (char *p = list, *next; p; p = next) {
                next = strstr(p, ", ");
                if (next) *next = 0, next += 2;
                const gdw_check_row *w = row_named(rep, p, strlen(p));
                g_sentences++;
                CHECK(w && w->rank == b->rank && !w->first, "%s: %s is said to be as likely: %s",
                      name, p, s);
            }
        }
        if (b->reading == GDW_READING_CUT) {
            size_t need = 0;
            const char *at = strstr(s, "needs at least ");
            CHECK(at && sscanf(at, "needs at least %zu", &need) == 1 &&
                      need == b->result.err.short_by &&
                      needs_at_least(b->result.dialect, buf, len, need),
                  "%s: not true that the value needs at least %zu more bytes: %s", name, need, s);
        }
    }
    /* what a script passes (gdw_check_script_text): the named dialect's call, every first row's
     * call (the others' in the parenthesis, by their engines), and what it says of the reading */
    {
        const char *t = rep->script;
        const gdw_script_facts *sf = b->result.dialect->script;
        size_t a = 0, c = 0;
        g_sentences++;
        if (b->reading == GDW_READING_REJECTED) {
            CHECK(t[0] == 0, "%s: no dialect reads it, yet the script line says: %s", name, t);
        } else {
            uint32_t prefix = rep->len >= 4
                                  ? (uint32_t)packet[0] | (uint32_t)packet[1] << 8 |
                                        (uint32_t)packet[2] << 16 | (uint32_t)packet[3] << 24
                                  : 0;
            bool framed = rep->skip == 4 && prefix == rep->len - 4 && b->reading != GDW_READING_CUT;
            static const char says_framed[] =
                "StreamPeer.get_var() or the file's get_var() reads it as put_var";
            CHECK(framed == (strncmp(t, says_framed, sizeof says_framed - 1) == 0),
                  "%s: the script line %s put_var's length: %s", name,
                  framed ? "does not name" : "names", t);
            const char *call = framed ? strstr(t, "from a byte array, ") : t;
            if (call && framed) call += strlen("from a byte array, ");
            char own[128];
            script_call(sf, rep->skip, own, sizeof own);
            CHECK(call && strncmp(call, own, strlen(own)) == 0,
                  "%s: the script line does not lead with %s's call %s: %s", name, bname, own, t);
            for (size_t i = 0; i < rep->n; i++) {
                const gdw_check_row *w = &rep->rows[i];
                if (!w->first || w == b) continue;
                char theirs[128];
                script_call(w->result.dialect->script, rep->skip, theirs, sizeof theirs);
                g_sentences++;
                CHECK(strstr(t, theirs) &&
                          (!strcmp(theirs, own) || strstr(t, w->result.dialect->script->who)),
                      "%s: %s (equally) reads it with %s, which the script line does not say: %s",
                      name, gdw_dialect_name(w->result.dialect), theirs, t);
            }
            const char *at;
            if (b->reading == GDW_READING_CUT)
                CHECK((at = strstr(t, " fails on these bytes: the value needs at least ")) &&
                          sscanf(at, " fails on these bytes: the value needs at least %zu", &a) ==
                              1 &&
                          a == b->result.err.short_by,
                      "%s: %s", name, t);
            else if (b->reading == GDW_READING_PREFIX)
                CHECK(
                    (at = strstr(t, " reads the value in the first ")) &&
                        sscanf(at,
                               " reads the value in the first %zu bytes and ignores the other %zu",
                               &a, &c) == 2 &&
                        a == b->result.consumed && a + c == len,
                    "%s: %s", name, t);
            else if (rep->skip && !framed)
                CHECK((at = strstr(t, " reads it, past the ")) &&
                          sscanf(at, " reads it, past the %zu byte", &a) == 1 && a == rep->skip,
                      "%s: %s", name, t);
            else CHECK(rep->skip ? framed : strstr(t, " reads it.") != NULL, "%s: %s", name, t);
        }
    }
    /* every reason */
    for (size_t i = 0; i < rep->n; i++) {
        const gdw_check_row *w = &rep->rows[i];
        const char *r = w->reason, *nm = gdw_dialect_name(w->result.dialect);
        size_t a = 0, c = 0;
        g_sentences++;
        if (sscanf(r, "reads all %zu bytes", &a) == 1)
            CHECK(w->reading == GDW_READING_WHOLE && a == len && w->result.consumed == len,
                  "%s, %s: %s", name, nm, r);
        else if (sscanf(r, "reads %zu of %zu bytes", &a, &c) == 2)
            CHECK(w->reading == GDW_READING_PREFIX && a == w->result.consumed && c == len,
                  "%s, %s: %s", name, nm, r);
        else if (sscanf(r, "reads %zu bytes and leaves %zu", &a, &c) == 2)
            CHECK(w->reading == GDW_READING_PREFIX && a == w->result.consumed && a + c == len,
                  "%s, %s: %s", name, nm, r);
        else if (strncmp(r, "reads the packet as ", 20) == 0)
            CHECK(w->first && w != b && read_alike(w, b), "%s, %s: %s", name, nm, r);
        else if (sscanf(r, "cut short: the value needs at least %zu more byte", &a) == 1)
            CHECK(w->reading == GDW_READING_CUT && a == w->result.err.short_by &&
                      needs_at_least(w->result.dialect, buf, len, a),
                  "%s, %s: %s", name, nm, r);
        else if (strncmp(r, "rejected: ", 10) == 0)
            CHECK(w->reading == GDW_READING_REJECTED, "%s, %s: %s", name, nm, r);
        else if (strncmp(r, "same value as ", 14) == 0)
            CHECK(w->result.status == GDW_OK && b->result.status == GDW_OK && read_alike(w, b),
                  "%s, %s: %s", name, nm, r);
        else
            CHECK(strstr(r, "a different value") || strstr(r, "a value where"),
                  "%s, %s: a reason this test does not know: %s", name, nm, r);
        if (strstr(r, "a different value"))
            CHECK(!(w->result.status == GDW_OK && b->result.status == GDW_OK && read_alike(w, b)),
                  "%s, %s: %s", name, nm, r);
    }
}

/* One shape of one packet: ranked, its sentences checked, and counted. */
static void rank_one(const char *family, const char *name, const char *what, int shape,
                     const uint8_t *buf, size_t len, bool undecidable) {
    tally *t = &g_tally[shape];
    t->total++;
    gdw_check_report *rep = gdw_check_report_make(buf, len, NULL, NULL);
    CHECK(rep != NULL, "%s: no report", name);
    if (!rep) return;
    check_sentences(rep, buf, name);
    if (undecidable) {
        t->undecidable++;
        gdw_check_report_free(rep);
        return;
    }
    bool hit = false;
    for (size_t i = 0; i < rep->n; i++)
        if (rep->rows[i].first &&
            strcmp(gdw_dialect_family(rep->rows[i].result.dialect), family) == 0)
            hit = true;
    const gdw_check_result *best = rep->best < rep->n ? &rep->rows[rep->best].result : NULL;
    bool named = best && strcmp(gdw_dialect_family(best->dialect), family) == 0;
    t->hits += hit;
    t->named += named;
    if (!hit) {
        int cause = 4;
        bool tied = false;
        for (size_t i = 0; i < rep->n; i++)
            if (rep->rows[i].rank == 1 &&
                strcmp(gdw_dialect_family(rep->rows[i].result.dialect), family) == 0)
                tied = true;
        if (tied) cause = 5, t->tied++;
        else if (best) {
            const gdw_check_row *b = &rep->rows[rep->best];
            if (rep->skip) cause = 3;
            else if (b->reading == GDW_READING_WHOLE) cause = 0;
            else if (b->reading == GDW_READING_CUT) cause = 1;
            else if (b->reading == GDW_READING_PREFIX) cause = 2;
        }
        t->miss_cause[cause]++;
        if (getenv("GDW_SHOW_MISSES")) {
            fprintf(stderr, "miss %-8s %-48.48s %-10s %5zu bytes: %s\n", shape_name[shape], name,
                    what, len, rep->summary);
            if (getenv("GDW_SHOW_MISSES")[0] == '2')
                for (size_t i = 0; i < rep->n; i++)
                    fprintf(stderr, "    %2d %-18s %s\n", rep->rows[i].rank,
                            gdw_dialect_name(rep->rows[i].result.dialect), rep->rows[i].reason);
        }
    }
    gdw_check_report_free(rep);
}

typedef struct packet_ctx {
    const char *family;
} packet_ctx;

static void each_packet(const char *family, const char *name, const uint8_t *p, size_t n) {
    bool undecidable = undecidable_whole(p, n);
    rank_one(family, name, "whole", WHOLE, p, n, undecidable);
    static const unsigned pct[] = {25, 50, 75, 90};
    for (size_t k = 0; k <= sizeof pct / sizeof pct[0]; k++) {
        size_t cut = k < sizeof pct / sizeof pct[0] ? n * pct[k] / 100 : n - 1;
        char what[16];
        if (k < sizeof pct / sizeof pct[0]) snprintf(what, sizeof what, "cut %u%%", pct[k]);
        else snprintf(what, sizeof what, "cut n-1");
        if (cut == 0 || cut >= n) continue;
        rank_one(family, name, what, CUT, p, cut, undecidable || cut < 8);
    }
    uint8_t *framed = malloc(n + 4);
    if (!framed) exit(2);
    framed[0] = (uint8_t)n, framed[1] = (uint8_t)(n >> 8), framed[2] = (uint8_t)(n >> 16),
    framed[3] = (uint8_t)(n >> 24);
    memcpy(framed + 4, p, n);
    rank_one(family, name, "length", PREFIXED, framed, n + 4, undecidable);
    /* an opcode byte: SceneMultiplayer's commands are 0-7 (docs/multiplayer.md); one in turn */
    static unsigned op;
    framed[3] = (uint8_t)(op++ % 8);
    rank_one(family, name, "opcode", PREFIXED, framed + 3, n + 1, undecidable);
    free(framed);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: check_family_test FAMILY PACKETS.TSV [FAMILY PACKETS.TSV ...]\n");
        return 2;
    }
    static char line[1 << 17];
    static uint8_t p[1 << 16];
    for (int a = 1; a + 1 < argc; a += 2) {
        FILE *f = fopen(argv[a + 1], "r");
        if (!f) {
            fprintf(stderr, "cannot open %s\n", argv[a + 1]);
            return 2;
        }
        size_t n;
        while (t_tsv_packet(f, line, sizeof line, p, sizeof p, &n))
            if (n) each_packet(argv[a], line, p, n);
        fclose(f);
    }
    printf("%ld sentences checked against the readings they name\n", g_sentences);
    CHECK(g_sentences > 100000, "only %ld sentences checked", g_sentences);
    static const double aim[SHAPES] = {99.0, 95.0, 95.0}, floor_hits[SHAPES] = {86.5, 82.0, 85.0},
                        floor_named[SHAPES] = {83.0, 66.5, 82.0};
    printf("%-9s %7s %11s %9s %9s %9s   %s\n", "shape", "packets", "undecidable", "hits", "or tied",
           "named", "misses by cause");
    for (int s = 0; s < SHAPES; s++) {
        const tally *t = &g_tally[s];
        long decidable = t->total - t->undecidable;
        double hits = decidable ? 100.0 * (double)t->hits / (double)decidable : 0,
               named = decidable ? 100.0 * (double)t->named / (double)decidable : 0;
        double tied = decidable ? 100.0 * (double)(t->hits + t->tied) / (double)decidable : 0;
        printf("%-9s %7ld %11ld %8.2f%% %8.2f%% %8.2f%%  ", shape_name[s], t->total, t->undecidable,
               hits, tied, named);
        for (size_t c = 0; c < sizeof cause_name / sizeof cause_name[0]; c++)
            if (t->miss_cause[c]) printf(" %ld %s;", t->miss_cause[c], cause_name[c]);
        printf("\n");
        CHECK(decidable > 100, "%s: only %ld decidable packets", shape_name[s], decidable);
        CHECK(hits >= floor_hits[s],
              "%s: %.2f %% hits, below the %.1f %% measured (the aim is %.0f %%)", shape_name[s],
              hits, floor_hits[s], aim[s]);
        CHECK(named >= floor_named[s], "%s: %.2f %% named, below the %.1f %% measured",
              shape_name[s], named, floor_named[s]);
    }
    return t_finish();
}
