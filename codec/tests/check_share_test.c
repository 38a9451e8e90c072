/* SPDX-License-Identifier: MIT */
/* check_share_test — gdw_dialects_read_alike against the walks themselves: where a row agrees with
 * another on every rule and type id the other's answer rested on (gdw_check_dialect_read), its own
 * answer is the other's, field for field, and so are its tree, its decode's own digest and what its
 * walk read. That is what lets gdw_check and `gdwire check` give the row the other's answer without
 * walking.
 *
 * Inputs: the engines' packets (the TSV files given as arguments) and byte-mutated copies of them,
 * and every fuzz corpus input (its packet: the bytes after fuzz.h's two-byte head), in compatible
 * mode with and without watching for the engine's value, watching with the tree cut at its first
 * node (as `gdwire check` decodes), in strict mode, and in engine-exact mode (where the engine
 * pass's reads count too). Each pair of rows found alike is compared, and counted: the test cannot
 * pass on no pairs. Then gdw_check, which shares answers, against gdw_check_dialect row by row. */
#define _DEFAULT_SOURCE /* d_type */
#include <dirent.h>

#include "codec/tests/testing.h"

#define MAX_ROWS 64

static long g_pairs_answer_alike, g_strict_own, g_shared_checks, g_packets, g_pairs_alike,
    g_pairs_alike_accepted, g_pairs_apart, g_walks_saved, g_rows;

typedef t_answer answer;

/* b's own answer is a's: every field gdw_check fills, the tree, the digest, and what b's walks
 * read. */
static void same_answer(const answer *a, const answer *b, size_t n, const gdw_decode_options *o) {
    const char *na = gdw_dialect_name(a->r.dialect), *nb = gdw_dialect_name(b->r.dialect),
               *mode = gdw_mode_name(o->mode);
    CHECK(a->r.status == b->r.status, "%s and %s read alike, yet %s / %s (%zu bytes, %s)", na, nb,
          gdw_status_name(a->r.status), gdw_status_name(b->r.status), n, mode);
    CHECK(a->read.rules == b->read.rules && a->read.type_ids == b->read.type_ids &&
              a->read.strict_rules == b->read.strict_rules,
          "%s and %s read alike, yet read other rules or ids (%llx/%llx, %llx/%llx; %zu bytes, %s)",
          na, nb, (unsigned long long)a->read.rules, (unsigned long long)b->read.rules,
          (unsigned long long)a->read.type_ids, (unsigned long long)b->read.type_ids, n, mode);
    if (a->r.status != b->r.status) return;
    if (a->r.status != GDW_OK) {
        CHECK(t_same_error(&a->r.err, &b->r.err),
              "%s and %s read alike, yet reject at %zu / %zu (%s / %s; %zu bytes, %s)", na, nb,
              a->r.err.offset, b->r.err.offset, a->r.err.message, b->r.err.message, n, mode);
        return;
    }
    CHECK(a->r.consumed == b->r.consumed, "%s and %s read alike, yet consume %zu / %zu (%s)", na,
          nb, a->r.consumed, b->r.consumed, mode);
    CHECK(a->r.reencodes_same == b->r.reencodes_same,
          "%s and %s read alike, yet differ in reencodes_same (%zu bytes, %s)", na, nb, n, mode);
    if (!a->r.reencodes_same && a->r.reencodes_same == b->r.reencodes_same)
        CHECK(t_same_error(&a->r.strict_err, &b->r.strict_err),
              "%s and %s read alike, yet strict refuses at %zu / %zu (%s)", na, nb,
              a->r.strict_err.offset, b->r.strict_err.offset, mode);
    CHECK(a->r.engine_exact == b->r.engine_exact,
          "%s and %s read alike, yet differ in engine_exact (%zu bytes, %s)", na, nb, n, mode);
    CHECK(gdw_doc_engine_same(a->r.doc) == gdw_doc_engine_same(b->r.doc),
          "%s and %s read alike, yet differ in gdw_doc_engine_same (%s)", na, nb, mode);
    CHECK(gdw_value_equal(gdw_doc_root(a->r.doc), gdw_doc_root(b->r.doc)),
          "%s and %s read alike, yet decode unequal trees (%zu bytes, %s)", na, nb, n, mode);
    CHECK(a->digest.h[0] == b->digest.h[0] && a->digest.h[1] == b->digest.h[1],
          "%s and %s read alike, yet their decodes digest apart (%s)", na, nb, mode);
    g_pairs_alike_accepted++;
}

/* b's answer taken from a's (gdw_check_take_answer), where the rows agree on all a's answer rested
 * on but a rule only its strict verdict read: b's own answer, field for field, and b's tree and
 * digest a's. */
static void same_taken(const answer *a, const answer *b, const uint8_t *p, size_t n,
                       const gdw_decode_options *o) {
    const char *na = gdw_dialect_name(a->r.dialect), *nb = gdw_dialect_name(b->r.dialect),
               *mode = gdw_mode_name(o->mode);
    gdw_check_result t;
    gdw_check_take_answer(b->r.dialect, p, n, o, &a->r, &a->read, &t);
    CHECK(t.dialect == b->r.dialect && t.doc == NULL, "%s from %s: another dialect or a document",
          nb, na);
    CHECK(t.status == b->r.status,
          "%s takes %s's answer but for the strict verdict, yet %s / %s (%zu bytes, %s)", nb, na,
          gdw_status_name(t.status), gdw_status_name(b->r.status), n, mode);
    if (t.status != b->r.status) return;
    if (t.status != GDW_OK) {
        CHECK(t_same_error(&t.err, &b->r.err),
              "%s from %s: rejects at %zu, its own walk at %zu (%s)", nb, na, t.err.offset,
              b->r.err.offset, mode);
        return;
    }
    CHECK(t.consumed == b->r.consumed && t.engine_exact == b->r.engine_exact,
          "%s from %s: another length or engine verdict (%s)", nb, na, mode);
    CHECK(t.reencodes_same == b->r.reencodes_same &&
              (t.reencodes_same || t_same_error(&t.strict_err, &b->r.strict_err)),
          "%s from %s: strict %s at %zu (%s), its own walk %s at %zu (%s) (%zu bytes, %s)", nb, na,
          t.reencodes_same ? "accepts" : "refuses", t.strict_err.offset, t.strict_err.message,
          b->r.reencodes_same ? "accepts" : "refuses", b->r.strict_err.offset,
          b->r.strict_err.message, n, mode);
    CHECK(gdw_doc_engine_same(a->r.doc) == gdw_doc_engine_same(b->r.doc),
          "%s from %s: another gdw_doc_engine_same (%s)", nb, na, mode);
    CHECK(gdw_value_equal(gdw_doc_root(a->r.doc), gdw_doc_root(b->r.doc)),
          "%s from %s: unequal trees (%zu bytes, %s)", nb, na, n, mode);
    CHECK(a->digest.h[0] == b->digest.h[0] && a->digest.h[1] == b->digest.h[1],
          "%s from %s: digests apart (%s)", nb, na, mode);
    g_strict_own += a->r.reencodes_same != b->r.reencodes_same;
}

static void check_packet_in(const uint8_t *p, size_t n, const gdw_decode_options *o) {
    size_t nd = gdw_dialect_count();
    static answer ans[MAX_ROWS];
    if (nd > MAX_ROWS) nd = MAX_ROWS;
    for (size_t i = 0; i < nd; i++) t_answer_of(&ans[i], gdw_dialect_at(i), p, n, o);
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < nd; j++) {
            if (i == j) continue;
            if (gdw_dialects_read_alike(ans[i].r.dialect, ans[j].r.dialect, &ans[i].read)) {
                g_pairs_alike++;
                same_answer(&ans[i], &ans[j], n, o);
            } else if (gdw_dialects_answer_alike(ans[i].r.dialect, ans[j].r.dialect,
                                                 &ans[i].read)) {
                g_pairs_answer_alike++;
                same_taken(&ans[i], &ans[j], p, n, o);
            } else {
                g_pairs_apart++;
            }
        }
    /* gdw_check shares: the same answers as each row's own */
    static gdw_check_result shared[MAX_ROWS];
    size_t rows = gdw_check(p, n, o->events ? NULL : o, NULL, false, shared, MAX_ROWS),
           accepted = 0, own = 0;
    CHECK(rows == gdw_dialect_count(), "gdw_check: %zu rows, the table has %zu", rows,
          gdw_dialect_count());
    for (size_t i = 0; i < rows && i < MAX_ROWS; i++) accepted += shared[i].status == GDW_OK;
    for (size_t i = 0; i < nd; i++) {
        own += ans[i].r.status == GDW_OK;
        const gdw_check_result *a = &ans[i].r, *b = &shared[i];
        CHECK(b->dialect == a->dialect && b->status == a->status && b->doc == NULL,
              "gdw_check, row %s: another status (%zu bytes)", gdw_dialect_name(a->dialect), n);
        if (a->status != GDW_OK)
            CHECK(t_same_error(&a->err, &b->err), "gdw_check, row %s: another error",
                  gdw_dialect_name(a->dialect));
        else
            CHECK(a->consumed == b->consumed && a->reencodes_same == b->reencodes_same &&
                      a->engine_exact == b->engine_exact &&
                      (a->reencodes_same || t_same_error(&a->strict_err, &b->strict_err)),
                  "gdw_check, row %s: another answer (%zu bytes, %s)", gdw_dialect_name(a->dialect),
                  n, gdw_mode_name(o->mode));
    }
    CHECK(accepted == own, "gdw_check: %zu accept, row by row %zu", accepted, own);
    if (gdw_check_shares(n, o)) g_shared_checks++; /* where gdw_check shares */
    /* the walks gdw_check saved: rows alike an earlier one */
    for (size_t i = 1; i < nd; i++)
        for (size_t j = 0; j < i; j++)
            if (gdw_dialects_answer_alike(ans[j].r.dialect, ans[i].r.dialect, &ans[j].read)) {
                g_walks_saved++;
                break;
            }
    g_rows += (long)nd;
    for (size_t i = 0; i < nd; i++) gdw_doc_free(ans[i].r.doc);
}

static void check_packet(const uint8_t *p, size_t n) {
    g_packets++;
    t_five_ways(p, n, check_packet_in);
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;

static void packet_or_mutation(void *ctx, const uint8_t *p, size_t n, int k) {
    (void)ctx, (void)k;
    check_packet(p, n);
}

static void packets_from_tsv(const char *path) {
    t_tsv_each(path, 4, &g_rng, packet_or_mutation, NULL);
}

static void packet_from_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "check_share_test: cannot open %s\n", path);
        exit(2);
    }
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n > 2) check_packet(buf + 2, n - 2); /* fuzz.h: row and mode in the first two bytes */
}

/* Dictionaries nested so that more keys are open at once than a watching validation's stack holds
 * (256): the keys past it are judged by the row's rules alone (keys_may_change,
 * codec/wire/decode.c). No engine packet or corpus input nests so; built here with Godot 3's and
 * Godot 4's Dictionary id, int keys and values, six levels of 60 pairs each (the keys of five of
 * them on the stack where the tree is cut at its root), the last value of each level the next
 * level's Dictionary; `collide`: the deepest level's last key is its first one again. */
static void put_le32(uint8_t *p, size_t *n, uint32_t v) {
    for (int i = 0; i < 4; i++) p[(*n)++] = (uint8_t)(v >> 8 * i);
}
static void nested_keys_packet(uint32_t dict_id, bool collide) {
    enum { LEVELS = 6 };
    static uint8_t buf[LEVELS * (8 + 60 * 16)];
    size_t n = 0;
    for (uint32_t level = 0; level < LEVELS; level++) {
        put_le32(buf, &n, dict_id);
        put_le32(buf, &n, 60);
        for (uint32_t k = 0; k < 60; k++) {
            /* INT key */
            put_le32(buf, &n, 2),
                put_le32(buf, &n, collide && level == LEVELS - 1 && k == 59 ? 0 : k);
            if (k == 59 && level < LEVELS - 1) break; /* its value: the next level */
            put_le32(buf, &n, 2), put_le32(buf, &n, k);
        }
    }
    check_packet(buf, n);
}

static bool ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: check_share_test PACKETS.tsv... [CORPUS FILES...]\n");
        return 2;
    }
    /* one rule names each combination of string rules: rows alike in it hold the same combination
     * */
    for (size_t i = 0; i < gdw_dialect_count(); i++)
        for (size_t j = 0; j < gdw_dialect_count(); j++) {
            const gdw_dialect *a = gdw_dialect_at(i), *b = gdw_dialect_at(j);
            if (gdw_dialect_rule(a, GDW_RULE_STRING_READER) ==
                gdw_dialect_rule(b, GDW_RULE_STRING_READER))
                CHECK(memcmp(a->strings, b->strings, sizeof *a->strings) == 0,
                      "%s and %s: one string_reader, two combinations", a->name, b->name);
        }
    long files = 0;
    for (int i = 1; i < argc; i++) {
        if (ends_with(argv[i], ".tsv")) packets_from_tsv(argv[i]);
        else if (!ends_with(argv[i], "README.md")) {
            packet_from_file(argv[i]);
            files++;
        }
    }
    for (int collide = 0; collide < 2; collide++) {
        nested_keys_packet(18, collide); /* Godot 3's Dictionary */
        nested_keys_packet(27, collide); /* Godot 4's */
    }
    printf("%ld packets (%ld of them corpus inputs) in five ways: %ld ordered pairs of rows read "
           "alike (%ld of them accepting), all "
           "with the same answer, tree, digest and reads; %ld more alike but for a rule only the "
           "strict verdict read, each answering as "
           "the other's answer with its own strict validation (%ld with another strict verdict); "
           "%ld apart; %ld of %ld walks are of a row "
           "alike one before it; gdw_check, which shares from %u bytes, shared on %ld packets and "
           "answered as the rows do\n",
           g_packets, files, g_pairs_alike, g_pairs_alike_accepted, g_pairs_answer_alike,
           g_strict_own, g_pairs_apart, g_walks_saved, g_rows, GDW_CHECK_SHARE_MIN,
           g_shared_checks);
    CHECK(g_strict_own > 1000, "only %ld pairs alike but for the strict verdict differ in it",
          g_strict_own);
    CHECK(g_shared_checks > 1000, "gdw_check shared on only %ld packets", g_shared_checks);
    CHECK(g_pairs_alike_accepted > 10000 && g_pairs_apart > 10000,
          "too few pairs to tell anything (%ld alike and accepting, %ld apart)",
          g_pairs_alike_accepted, g_pairs_apart);
    return t_finish();
}
