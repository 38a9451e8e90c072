/* SPDX-License-Identifier: MIT */
/* noting_test — a rule the walk did not note cannot change its answer, wherever the read sits in
 * its code.
 *
 * The walk and the engine pass read their row's rules through one noting RULE (table/dialects.h),
 * and a row that agrees on every rule noted is given the other's answer without a walk (gdw_check,
 * `gdwire check`). That is sound only if the notes cover every rule that could have changed the
 * answer: a read whose note is lost (a rule taken from a flag set up before the walk, a field read
 * beside its RULE, a condition that reads the rule only on one side of an &&) would let two rows
 * share where they differ. check_share_test holds it on the pairs of rows the table has; this test
 * holds it on every rule alone, whatever the table's rows happen to share: for each packet, row and
 * way of decoding, it changes each rule the walk did not note, one at a time, to each other value a
 * row of the table gives it (the string reader: another row's whole combination, which the rule
 * names), and asks the changed row for its answer. It must be the row's own, field for field:
 * status, error, length, strict verdict, engine verdict, gdw_doc_engine_same, the tree, the
 * decode's digest and what the walk read. A rule a walk noted may change the answer, or not:
 * nothing is asked of it.
 *
 * Inputs: the engines' packets (the TSV files given as arguments) and a byte-mutated copy of every
 * other one, in compatible mode with and without watching, strict, engine-exact, and watching with
 * the tree cut at its root (as `gdwire check` decodes). */
#include "codec/tests/testing.h"

static long g_changes, g_packets, g_noted, g_unnoted;

typedef t_answer answer;

/* A row whose groups are its own copies, so that one rule can be changed in it. */
typedef struct own_row {
    gdw_dialect row;
    gdw_reals_facts reals;
    gdw_keys_facts keys;
    gdw_typed_facts typed;
    gdw_strings_facts strings;
    gdw_header_facts header;
    gdw_objects_facts objects;
    gdw_text_facts text;
    gdw_defects_facts defects;
    gdw_session_facts session;
} own_row;

static void own_row_of(own_row *o, const gdw_dialect *d) {
    o->row = *d;
#define OWN(group) o->group = *d->group, o->row.group = &o->group
    OWN(reals), OWN(keys), OWN(typed), OWN(strings), OWN(header), OWN(objects), OWN(text),
        OWN(defects), OWN(session);
#undef OWN
}

/* Rule r's field in the row, where gdw_row_rule reads it (the one list of rules: GDW_RULES). Every
 * rule's value is one byte. */
static uint8_t *rule_field(own_row *o, gdw_rule r) {
    gdw_dialect *d = &o->row;
    switch (r) {
#define RULE_FIELD(id, name, group, field) \
    case GDW_RULE_##id: return (uint8_t *)&d->group->field;
        GDW_RULES(RULE_FIELD)
#undef RULE_FIELD
    case GDW_RULE_COUNT: break;
    }
    return NULL;
}

/* Row d with rule r set to v (the string reader: the combination of the table's row `as`, which has
 * that value). */
static void changed_row(own_row *o, const gdw_dialect *d, gdw_rule r, int v,
                        const gdw_dialect *as) {
    own_row_of(o, d);
    if (r == GDW_RULE_STRING_READER) o->strings = *as->strings;
    else *rule_field(o, r) = (uint8_t)v;
    CHECK(gdw_row_rule(&o->row, r) == v, "rule %s not set to %d", gdw_rule_name(r), v);
}

static void same_answer(const answer *a, const answer *b, gdw_rule r, int v, size_t n,
                        const gdw_decode_options *o) {
    const char *na = gdw_dialect_name(a->r.dialect), *rn = gdw_rule_name(r),
               *mode = gdw_mode_name(o->mode);
    bool ok = a->r.status == b->r.status && a->read.rules == b->read.rules &&
              a->read.type_ids == b->read.type_ids && a->read.strict_rules == b->read.strict_rules;
    if (ok && a->r.status != GDW_OK) ok = t_same_error(&a->r.err, &b->r.err);
    else if (ok) {
        ok = a->r.consumed == b->r.consumed && a->r.reencodes_same == b->r.reencodes_same &&
             (a->r.reencodes_same || t_same_error(&a->r.strict_err, &b->r.strict_err)) &&
             a->r.engine_exact == b->r.engine_exact &&
             gdw_doc_engine_same(a->r.doc) == gdw_doc_engine_same(b->r.doc) &&
             gdw_value_equal(gdw_doc_root(a->r.doc), gdw_doc_root(b->r.doc)) &&
             a->digest.h[0] == b->digest.h[0] && a->digest.h[1] == b->digest.h[1];
    }
    CHECK(ok,
          "%s, %s mode%s: rule %s was not noted, yet set to %d it changes the answer (%s / %s at "
          "%zu / %zu; %zu bytes)",
          na, mode, o->watch_engine ? " watching" : "", rn, v, gdw_status_name(a->r.status),
          gdw_status_name(b->r.status), a->r.err.offset, b->r.err.offset, n);
}

/* The values each rule takes in the table's rows, and for each a row that has it. */
typedef struct rule_values {
    int n;
    int v[8];
    const gdw_dialect *as[8];
} rule_values;
static rule_values g_values[GDW_RULE_COUNT];

static void table_values(void) {
    for (unsigned r = 0; r < GDW_RULE_COUNT; r++)
        for (size_t i = 0; i < gdw_row_count(); i++) {
            const gdw_dialect *d = gdw_row_at(i);
            int v = gdw_row_rule(d, (gdw_rule)r), k = 0;
            rule_values *rv = &g_values[r];
            while (k < rv->n && rv->v[k] != v) k++;
            if (k == rv->n && rv->n < 8) rv->v[rv->n] = v, rv->as[rv->n] = d, rv->n++;
        }
}

static void check_in(const uint8_t *p, size_t n, const gdw_decode_options *o) {
    for (size_t i = 0; i < gdw_row_count(); i++) {
        const gdw_dialect *d = gdw_row_at(i);
        answer own, other;
        t_answer_of(&own, d, p, n, o);
        uint64_t noted = own.read.rules | own.read.strict_rules;
        for (unsigned r = 0; r < GDW_RULE_COUNT; r++) {
            if (noted >> r & 1) {
                g_noted++;
                continue;
            }
            g_unnoted++;
            const rule_values *rv = &g_values[r];
            for (int k = 0; k < rv->n; k++) {
                if (rv->v[k] == gdw_row_rule(d, (gdw_rule)r)) continue;
                own_row changed;
                changed_row(&changed, d, (gdw_rule)r, rv->v[k], rv->as[k]);
                t_answer_of(&other, &changed.row, p, n, o);
                same_answer(&own, &other, (gdw_rule)r, rv->v[k], n, o);
                gdw_doc_free(other.r.doc);
                g_changes++;
            }
        }
        gdw_doc_free(own.r.doc);
    }
}

static void check_packet(void *ctx, const uint8_t *p, size_t n, int k) {
    (void)ctx;
    static long packet;
    if (k < 0) packet++;
    else if (packet % 2) return; /* a mutation of every other packet: the test's time in bounds */
    g_packets++;
    t_five_ways(p, n, check_in);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: noting_test PACKETS.tsv...\n");
        return 2;
    }
    table_values();
    /* the list of rules is whole: each has a field of one byte, a name, and a value in every row */
    for (unsigned r = 0; r < GDW_RULE_COUNT; r++) {
        own_row o;
        own_row_of(&o, gdw_row_at(0));
        CHECK(rule_field(&o, (gdw_rule)r) != NULL && strcmp(gdw_rule_name((gdw_rule)r), "?") != 0,
              "rule %u is not in GDW_RULES", r);
        CHECK(g_values[r].n >= 1, "rule %s: no value", gdw_rule_name((gdw_rule)r));
    }
    uint64_t rng = 0x9E3779B97F4A7C15u;
    for (int i = 1; i < argc; i++) t_tsv_each(argv[i], 1, &rng, check_packet, NULL);
    printf("%ld packets in five ways, every row: %ld rules noted, %ld not; %ld changes of a rule "
           "not noted, each with the row's own "
           "answer, tree, digest and reads\n",
           g_packets, g_noted, g_unnoted, g_changes);
    CHECK(g_changes > 100000, "only %ld changes tried", g_changes);
    return t_finish();
}
