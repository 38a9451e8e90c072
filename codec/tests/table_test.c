/* SPDX-License-Identifier: MIT */
/* table_test.c — the dialect table agrees with itself: fuzz ids 0 .. rows-1, each once (byte 0 of
 * a fuzz input, fuzzers/fuzz.h); names and aliases unique and found by gdw_dialect_find; a release
 * row is a release of a dialect with the same wire format (family and type table); every type
 * table maps each wire id to a distinct type; released dates are "YYYY-MM". What each row must
 * have beside the table (its docs page, dictionary, vectors) is tools/rows_test.sh's job. */
#include <stdio.h>
#include <string.h>

#include "codec/tests/testing.h"
#include "codec/table/dialects.h"

static size_t rows(void) { return gdw_row_count(); }
static const gdw_dialect *row(size_t i) { return gdw_row_at(i); }

/* each space-separated word of list, in turn */
static int next_word(const char **p, char *out, size_t cap) {
    while (**p == ' ') (*p)++;
    size_t n = strcspn(*p, " ");
    if (!n) return 0;
    snprintf(out, cap, "%.*s", (int)n, *p);
    *p += n;
    return 1;
}

/* The group a rule's value lives in (GDW_RULES), as differs names it. */
static const char *gdw_rule_group(gdw_rule r) {
    switch (r) {
#define GROUP_NAME(id, rule_name, group, field) \
    case GDW_RULE_##id: return #group;
        GDW_RULES(GROUP_NAME)
#undef GROUP_NAME
    case GDW_RULE_COUNT: break;
    }
    return NULL;
}

/* r is the first rule of its group in GDW_RULES (each group checked once). */
static bool first_of_group(gdw_rule r) {
    for (int q = 0; q < (int)r; q++)
        if (!strcmp(gdw_rule_group((gdw_rule)q), gdw_rule_group(r))) return false;
    return true;
}

int main(void) {
    size_t n = rows();
    CHECK(n <= 256, "%zu rows: fuzz ids are one byte", n);
    for (size_t id = 0; id < n; id++) {
        int holders = 0;
        for (size_t i = 0; i < n; i++) holders += row(i)->fuzz_id == id;
        CHECK(holders == 1,
              "fuzz id %zu is held by %d rows, want 1 (a new row takes the next free id)", id,
              holders);
    }
    for (size_t i = 0; i < n; i++) {
        const gdw_dialect *d = row(i);
        CHECK(d->name && d->name[0], "row %zu has no name", i);
        /* every row says where its expectations come from: an engine, or why none (issue 27) */
        CHECK((d->engine_evidence != NULL) != (d->no_engine != NULL),
              "%s: name its engine evidence or why it has none, not both", d->name);
        CHECK(!d->documented_only || d->no_engine,
              "%s: a documented-only row has no engine evidence", d->name);
        CHECK(d->fuzz_id < n, "%s: fuzz id %u past the last row", d->name, d->fuzz_id);
        CHECK(gdw_dialect_find(d->name) == d, "%s: gdw_dialect_find does not find it", d->name);
        const char *p = d->aliases ? d->aliases : "";
        char word[64];
        while (next_word(&p, word, sizeof word))
            CHECK(gdw_dialect_find(word) == d, "%s: alias %s finds another row", d->name, word);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(d->name, row(j)->name) != 0, "two rows named %s", d->name);
        CHECK(d->family && d->family[0] && d->engine && d->summary && d->aliases,
              "%s: a text field is missing", d->name);
        CHECK(d->type_count > 0 && d->types, "%s: no type table", d->name);
        /* the engine-exact rules imply what they act on */
        bool typed = false;
        for (unsigned w = 0; w < d->type_count; w++) typed |= d->types[w] == GDW_TYPED_ARRAY;
        CHECK(gdw_row_rule(d, GDW_RULE_TYPED_RULE) <= GDW_TYPED_VALIDATE,
              "%s: typed_rule %d is no gdw_typed_rule", d->name,
              gdw_row_rule(d, GDW_RULE_TYPED_RULE));
        CHECK(gdw_row_rule(d, GDW_RULE_TYPED_RULE) != GDW_TYPED_SAME_TYPE || typed,
              "%s: typed_rule SAME_TYPE acts on TypedArrays, which it has none of", d->name);
        CHECK((gdw_row_rule(d, GDW_RULE_TYPED_RULE) != GDW_TYPED_CONVERT &&
               gdw_row_rule(d, GDW_RULE_TYPED_RULE) != GDW_TYPED_VALIDATE) ||
                  gdw_row_rule(d, GDW_RULE_TYPED_ARRAY_BITS),
              "%s: typed_rule CONVERT/VALIDATE act on typed Array headers (typed_array_bits)",
              d->name);
        CHECK(!gdw_row_rule(d, GDW_RULE_KEYS_NAME_TO_STRING) ||
                  gdw_row_rule(d, GDW_RULE_MERGE_DICT_KEYS),
              "%s: keys_name_to_string without merge_dict_keys", d->name);
        CHECK(!(gdw_row_rule(d, GDW_RULE_KEYS_STRING_LIKE) ||
                gdw_row_rule(d, GDW_RULE_KEYS_NESTED_NAN_EQUAL) ||
                gdw_row_rule(d, GDW_RULE_KEYS_DICTS_BY_IDENTITY)) ||
                  gdw_row_rule(d, GDW_RULE_MERGE_DICT_KEYS),
              "%s: a key-equality rule without merge_dict_keys", d->name);
        for (unsigned w = 0; w < d->type_count; w++) {
            CHECK(d->types[w] < GDW_TYPE_COUNT, "%s: wire id %u maps to no type", d->name, w);
            for (unsigned v = 0; v < w; v++)
                CHECK(d->types[v] != d->types[w], "%s: wire ids %u and %u are one type", d->name, v,
                      w);
        }
        if (d->released) {
            unsigned y, m;
            char tail;
            CHECK(strlen(d->released) == 7 &&
                      sscanf(d->released, "%4u-%2u%c", &y, &m, &tail) == 2 && y >= 2014 && m >= 1 &&
                      m <= 12,
                  "%s: released \"%s\" is not YYYY-MM", d->name, d->released);
        }
        if (i < gdw_dialect_count()) {
            CHECK(d->release_of == NULL && d->differs == NULL,
                  "dialect %s has release_of or differs", d->name);
        } else {
            const gdw_dialect *base = d->release_of ? gdw_dialect_find(d->release_of) : NULL;
            CHECK(base && !base->release_of, "release %s: release_of names no dialect", d->name);
            if (!base) continue;
            CHECK(gdw_dialect_base(d) == base, "release %s: gdw_dialect_base", d->name);
            size_t bl = strlen(base->name);
            CHECK(!strncmp(d->name, base->name, bl) && d->name[bl] == '@',
                  "release %s is not named %s@<release>", d->name, base->name);
            CHECK(!strcmp(d->family, base->family) && d->type_count == base->type_count &&
                      d->types == base->types,
                  "release %s: another wire format than %s", d->name, base->name);
            /* a release is its dialect with the groups of rules it names in differs: each one its
             * own combination, in which some rule differs, and every other group the dialect's own
             * (the same pointer) */
            CHECK(d->differs && d->differs[0], "release %s names no group it differs in", d->name);
#define RULE_GROUP(id, rule_name, group, field) \
    if (first_of_group(GDW_RULE_##id)) { \
        bool named = false, differ = false; \
        const char *w = d->differs ? d->differs : ""; \
        while (next_word(&w, word, sizeof word)) named |= !strcmp(word, #group); \
        for (int r = 0; r < GDW_RULE_COUNT; r++) \
            differ |= gdw_rule_group((gdw_rule)r) && \
                      !strcmp(gdw_rule_group((gdw_rule)r), #group) && \
                      gdw_dialect_rule(d, (gdw_rule)r) != gdw_dialect_rule(base, (gdw_rule)r); \
        CHECK(d->group && base->group, "%s: no " #group, d->name); \
        CHECK(named == (d->group != base->group), \
              "release %s: group " #group " %s %s's, and differs %s it", d->name, \
              d->group != base->group ? "is not" : "is", base->name, \
              named ? "names" : "does not name"); \
        CHECK(!named || differ, \
              "release %s: differs names " #group ", in which no rule differs from %s's", d->name, \
              base->name); \
    }
            GDW_RULES(RULE_GROUP)
#undef RULE_GROUP
            const char *w = d->differs ? d->differs : "";
            while (next_word(&w, word, sizeof word)) {
                bool known = false;
                for (int r = 0; r < GDW_RULE_COUNT; r++)
                    known |= !strcmp(word, gdw_rule_group((gdw_rule)r));
                CHECK(known, "release %s: differs names %s, which is no group of rules", d->name,
                      word);
            }
        }
    }
    return t_finish();
}
