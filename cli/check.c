/* SPDX-License-Identifier: MIT */
/* check.c — `gdwire check`: one packet against every dialect, and which engine most likely
 * wrote it, with the reasons.
 *
 * The ranking, each row's reason and the sentence are the library's (gdw_check_rank_rows, gdw_check_summary,
 * codec/check.c), which the Python and npm packages and the page print too; so are the bytes in front looked past
 * where no dialect reads every byte (gdw_check_find_skip). This file finds which dialects read the same value (one
 * "meaning", which the ranking takes as given) and prints the matrix.
 *
 * Cost: one decode for the dialects that read the packet alike (a row that agrees with a row already walked on
 * every rule and type id that row read takes its answer and its tree: the library's gdw_check_run_rows). The
 * decode adds each node to the row's digest, by which the dialects that read alike are grouped (a digest a row,
 * not a comparison a pair of trees), and to its facts (misread-looking reals and types: facts_node) as it makes
 * it, and keeps only the value's first CHECK_KEEP_NODES nodes, from which the value lines print (the JSON form,
 * which prints values whole, keeps them whole). The dialects are independent, so on a large packet they are
 * spread over the machine's cores (check_threads; the library's scheduler has a row wait while a row that may
 * read the packet alike runs); the answers, and so the output, are the same however they are spread. A tree is kept only as
 * long as something will read it (check_run.keep): the matrix keeps one tree per value (a freed row's value
 * lines are printed into the row first) and the one-line form none, and the pages a freed tree held serve the
 * next dialect's decode (region.c).
 */
#define _DEFAULT_SOURCE /* getrandom, clock_gettime under -std=c11 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAX_IDS 64

typedef struct tree_facts tree_facts;

/* The value lines the matrix prints for a row (print_value_line): 72 characters in the table, 200 under
 * its meaning; the text's start, one character more than shown. A row whose tree is freed (its twin keeps
 * the value) has them printed first, the meaning's line only where the row may be its meaning's first. */
#define VALUE_LINE_TABLE 72
#define VALUE_LINE_MEANING 200
/* The nodes a row's tree keeps where the output reads only its value lines (gdw_decode_options.keep_nodes): a
 * cut tree prints as the whole value does to that many characters, more than a line's 201. */
#define CHECK_KEEP_NODES 256
_Static_assert(CHECK_KEEP_NODES >= GDW_CHECK_REASON_NODES, "the reasons read the first choice's first GDW_CHECK_REASON_NODES values");
typedef struct value_line { char text[VALUE_LINE_MEANING + 2]; size_t n; } value_line;

typedef struct row {
    const gdw_check_result *r; /* gdw_check's, in check_run.res */
    value_line line[2];  /* a freed tree's value lines: [0] in the table, [1] under the meaning */
    int twin;            /* a row whose tree holds the same value (same digest) and stands in for this one's,
                            freed (KEEP_ONE_PER_VALUE); -1: this row's own tree, or none */
    gdw_doc *whole;    /* the row's value decoded whole for an engine note (its tree is cut): the notes of rows with its
                          digest read it too (note_tree); under check_run.twins_lock */
    bool exact_ok;     /* engine-exact mode accepts the packet (the engine's own verdict) */
    char engine_note[1000]; /* the engine holds another value than the bytes spell (engine_note.c) */
    size_t odd_reals;  /* reals that look misread (subnormal, NaN, beyond 1e30) */
    int rank;      /* 1-based; equal scores share a rank (the library's: gdw_check_rank_rows) */
    bool first;    /* the named first choice or one it is equal to (its "equally") */
    int meaning;   /* index into meanings, -1 when rejected */
    const char *reason; /* the library's reason (check_run.ranked) */
} row;

/* Which trees the output reads after every row is done: the JSON prints each row's value whole; the matrix
 * compares trees only where digests differ, and one tree of each value stands in for the others; the
 * one-line form (and -d auto) reads none. */
typedef enum keep_trees { KEEP_NONE, KEEP_ONE_PER_VALUE, KEEP_ALL } keep_trees;

typedef struct check_run {
    const opts *o;
    keep_trees keep;
    pthread_mutex_t twins_lock; /* rows finished with a tree kept (kept[], kept_n), and the rows' whole trees */
    size_t *kept;
    size_t kept_n;
    size_t nd;
    row *rows;
    gdw_check_result *res; /* gdw_check's results for the packet being checked */
    struct tree_facts *facts; /* per dialect: one walk of its tree (walk_with_facts) */
    int *rep;             /* per meaning: its first row (rank_rows) */
    gdw_check_row *ranked; /* per dialect: the library's ranking (gdw_check_rank_rows), its reasons */
    size_t skip;          /* bytes in front of the value the rows read (gdw_check_find_skip) */
    char summary[640];    /* gdw_check_summary: the sentence every surface prints */
    char script[384];     /* gdw_check_script_text: what a script passes to read it */
    size_t *accept_count; /* per dialect, over the run */
    size_t *first_count;  /* per dialect: packets it ranks first on (ties included) */
    bool matrix;          /* the full matrix per packet (one packet, or -v) */
} check_run;

/* ---- type ids read, through the decoder's trace -------------------------------------------------- */

typedef struct ids { unsigned id[MAX_IDS]; size_t n; } ids;

static void collect_id(void *ctx, const gdw_trace_event *ev) {
    ids *s = ctx;
    if (strcmp(ev->field, "header") != 0) return;
    unsigned w = (unsigned)(ev->number & 0xFF);
    for (size_t i = 0; i < s->n; i++) if (s->id[i] == w) return;
    if (s->n < MAX_IDS) s->id[s->n++] = w;
}

static const char *type_of(const gdw_dialect *d, unsigned w) {
    int t = gdw_dialect_wire_type(d, w);
    return t < 0 ? NULL : gdw_type_name((gdw_type)t);
}

/* ---- what a tree holds ---------------------------------------------------------------------------- */

/* What a row's decode tells of its value, node by node as it makes them (facts_node, gdw_decode_events.on_node):
 * its reals that look misread (the library's gdw_value_misread_own, down to GDW_MISREAD_DEPTH levels, as
 * gdw_value_misread_reals counts them), the types of its values in the order their headers are on the wire (an
 * Object's property names are bare strings, not values) and its digest (gdw_digest: the same digest, the same
 * value): what the ranking, the meanings and the reasons need, without a walk of a tree (which may be cut). */
struct tree_facts {
    size_t odd;
    uint64_t seen;     /* types met, as bits */
    unsigned type[MAX_IDS];
    size_t ntypes;
    gdw_digest digest;
    gdw_decode_events events; /* the row's decode's: into digest, and facts_node */
};

/* The types whose components are reals (gdw_type_has_reals), as bits: asked at every node. */
static uint64_t g_real_types;
static pthread_once_t g_real_types_once = PTHREAD_ONCE_INIT;
static void make_real_types(void) {
    for (unsigned t = 0; t < GDW_TYPE_COUNT && t < 64; t++) g_real_types |= (uint64_t)gdw_type_has_reals((gdw_type)t) << t;
}

static void facts_node(void *ctx, const gdw_value *v, unsigned depth) {
    tree_facts *f = ctx;
    if (v->type >= 64) return; /* no such type */
    if ((g_real_types >> v->type & 1u) && depth <= GDW_MISREAD_DEPTH) f->odd += gdw_value_misread_own(v);
    if (!(f->seen >> v->type & 1u) && f->ntypes < MAX_IDS) {
        f->seen |= (uint64_t)1 << v->type;
        f->type[f->ntypes++] = v->type;
    }
}

/* The digest's key: random, once a process (the digest is keyed so that no packet collides on purpose):
 * from the kernel, else from the clock and places in memory. */
static uint64_t g_digest_key[2];
static pthread_once_t g_digest_key_once = PTHREAD_ONCE_INIT;

static void make_digest_key(void) {
    if (getrandom(g_digest_key, sizeof g_digest_key, 0) == (ssize_t)sizeof g_digest_key) return;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    g_digest_key[0] = (uint64_t)t.tv_nsec * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)&t;
    g_digest_key[1] = (uint64_t)t.tv_sec ^ (uint64_t)(uintptr_t)g_digest_key ^ (uint64_t)getpid() << 32;
}

static bool same_digest(const tree_facts *fa, const tree_facts *fb) {
    return fa->digest.h[0] == fb->digest.h[0] && fa->digest.h[1] == fb->digest.h[1];
}

/* The document that holds row i's value: its own, or its twin's (same digest) when its own was freed. */
static const gdw_doc *doc_of(const check_run *c, size_t i) {
    const row *w = &c->rows[i];
    return w->twin >= 0 ? c->rows[w->twin].r->doc : w->r->doc;
}

static const gdw_value *tree_of(const check_run *c, size_t i) { return gdw_doc_root(doc_of(c, i)); }

/* Rows a and b read the same value. The same digest says so (but for a chance of 2^-128); a different one only
 * where both read every byte string in the packet at the same places, so it is asked of the trees, which stop at
 * the first difference: trees cut alike (CHECK_KEEP_NODES) that differ come from values that differ; where they
 * are equal, the whole trees are decoded to say (two rows that read equal values from other places: rare). */
static bool same_meaning(const check_run *c, size_t a, size_t b, const packet *pk, const gdw_decode_options *dec) {
    if (same_digest(&c->facts[a], &c->facts[b])) return true;
    if (!gdw_value_equal(tree_of(c, a), tree_of(c, b))) return false;
    if (!gdw_doc_cut(doc_of(c, a)) && !gdw_doc_cut(doc_of(c, b))) return true;
    gdw_decode_options o = *dec;
    o.keep_nodes = 0;
    gdw_doc *whole[2] = {NULL, NULL};
    bool ok = gdw_decode(c->res[a].dialect, pk->p, pk->n, &o, NULL, &whole[0], NULL, NULL) == GDW_OK &&
              gdw_decode(c->res[b].dialect, pk->p, pk->n, &o, NULL, &whole[1], NULL, NULL) == GDW_OK;
    bool same = ok && gdw_value_equal(gdw_doc_root(whole[0]), gdw_doc_root(whole[1]));
    gdw_doc_free(whole[0]);
    gdw_doc_free(whole[1]);
    return same;
}

/* ---- ranking -------------------------------------------------------------------------------------- */

/* Ranks, the first rows and their reasons (the library's: gdw_check_rank_rows, which every surface prints), meanings,
 * and the summary for the whole packet pk of which the rows read the bytes after c->skip (body). The rows that read
 * equal values are one meaning (same_meaning; in the one-line form, which keeps no trees, the same digest); each
 * row's tree was walked once already (walk_with_facts) for its misread-looking reals, which the ranking takes as given,
 * its types and its digest. */
static void rank_rows(check_run *c, const packet *pk, const packet *body, const gdw_decode_options *dec, ids *seen, int *best_out, int *n_meanings,
                      bool detail) {
    size_t nd = c->nd;
    row *rows = c->rows;
    int nm = 0;
    const tree_facts *tf = c->facts;
    int *rep = c->rep; /* the first row of each meaning */
    for (size_t i = 0; i < nd; i++) {
        rows[i].meaning = -1;
        if (rows[i].r->status) continue;
        for (int m = 0; m < nm && rows[i].meaning < 0; m++)
            if (detail ? same_meaning(c, (size_t)rep[m], i, body, dec) : same_digest(&tf[rep[m]], &tf[i])) rows[i].meaning = m;
        if (rows[i].meaning < 0) {
            rep[nm] = (int)i;
            rows[i].meaning = nm++;
        }
    }
    for (size_t i = 0; i < nd; i++) {
        gdw_check_row *l = &c->ranked[i];
        l->result = c->res[i];
        if (l->result.status == GDW_OK && !l->result.doc && rows[i].twin >= 0) l->result.doc = (gdw_doc *)doc_of(c, i); /* the same value */
        l->meaning = rows[i].meaning;
        l->misread = rows[i].r->status ? SIZE_MAX : tf[i].odd;
    }
    int best = (int)gdw_check_rank_rows(c->ranked, nd, body->p, body->n, dec, detail);
    gdw_check_summary(c->ranked, nd, (size_t)best, pk->p, pk->n, c->skip, c->summary, sizeof c->summary);
    gdw_check_script_text(c->ranked, nd, (size_t)best, pk->p, pk->n, c->skip, dec->allow_objects, c->script, sizeof c->script);
    *best_out = best;
    for (size_t i = 0; i < nd; i++) {
        row *w = &rows[i];
        w->rank = c->ranked[i].rank;
        w->first = c->ranked[i].first;
        w->reason = c->ranked[i].reason;
        if (w->r->status != GDW_OK) continue;
        w->odd_reals = c->ranked[i].misread;
        w->exact_ok = w->r->engine_exact; /* gdw_check's: found in its walk unless an engine quirk was met */
    }
    seen->n = 0;
    *n_meanings = 0;
    if (!detail) return; /* one line per packet: the rows that rank first are all it says */
    *n_meanings = nm;
    /* the type ids the best dialect read, in the order it met them, for the matrix: its tree's types where the tree
     * holds every value read (an engine-exact tree may hold converted ones: its trace then) */
    const gdw_dialect *bd = rows[best].r->dialect;
    if (rows[best].r->status == GDW_OK && dec->mode != GDW_MODE_ENGINE_EXACT) {
        const tree_facts *f = &tf[best];
        for (size_t k = 0; k < f->ntypes; k++)
            for (unsigned id = 0; id < gdw_dialect_type_count(bd); id++)
                if (gdw_dialect_wire_type(bd, id) == (int)f->type[k]) { seen->id[seen->n++] = id; break; }
    } else {
        gdw_decode_options t = c->o->dec;
        t.trace = collect_id;
        t.trace_ctx = seen;
        gdw_validate(bd, body->p, body->n, &t, NULL, NULL);
    }
}

/* ---- output --------------------------------------------------------------------------------------- */

/* The start of a value's text, cut to width with "..." (in time proportional to width: a large
 * value is not printed whole to show 72 characters of it): made from the row's tree when it is walked
 * (walk_with_facts), printed from the row. */
static void make_value_line(value_line *l, const gdw_value *v, size_t width) {
    l->n = gdw_text_print_head(v, l->text, width + 2); /* one character more than shown: says whether there is more */
}

/* Row w's value line k (0: the table's, 1: the meaning's): from its tree, or, where the tree was freed, as
 * printed before (walk_with_facts). */
static void print_value_line(const row *w, int k) {
    size_t width = k ? VALUE_LINE_MEANING : VALUE_LINE_TABLE;
    value_line now;
    const value_line *l = &w->line[k];
    if (w->r->doc) {
        make_value_line(&now, gdw_doc_root(w->r->doc), width);
        l = &now;
    }
    if (l->n > width) printf("%.*s...", (int)(width - 3), l->text);
    else printf("%s", l->text);
}

static void print_matrix(check_run *c, const packet *pk, int nm, int accepted, const ids *seen) {
    char name[600];
    packet_name(pk, name, sizeof name);
    row *rows = c->rows;
    printf("%s%s%s: %zu bytes, mode %s\n", c_bold(), name, c_off(), pk->n, gdw_mode_name(c->o->dec.mode));
    printf("%-19s %-8s %8s %8s %-6s %-9s %s\n", "dialect", "verdict", "consumed", "trailing", "engine", "re-encode", "value / error");
    int same = 0;
    for (size_t i = 0; i < c->nd; i++) {
        const row *w = &rows[i];
        const gdw_dialect *d = w->r->dialect;
        if (w->r->status) {
            printf("%-19s %s%-8s%s %8s %8s %-6s %-9s %s%s at byte %zu%s%s: %s%s\n", gdw_dialect_name(d), c_bad(), "rejected", c_off(), "-", "-", "-", "-", c_dim(),
                   gdw_status_name(w->r->err.code), w->r->err.offset, w->r->err.path[0] ? " in " : "", w->r->err.path, w->r->err.message, c_off());
            continue;
        }
        const char *re = w->r->reencodes_same ? "same" : "differs";
        same += w->r->reencodes_same;
        char m[8] = "";
        if (nm > 1) snprintf(m, sizeof m, "%c ", 'A' + (w->meaning % 26));
        printf("%-19s %s%-8s%s %8zu %8zu %-6s %-9s %s", gdw_dialect_name(d), c_ok(), "accepted", c_off(), w->r->consumed, pk->n - w->r->consumed,
               w->exact_ok ? "yes" : "no", re, m);
        print_value_line(w, 0);
        printf("\n");
    }
    printf("%d of %zu dialects accept this packet; %d write it back byte for byte.\n", accepted, c->nd, same);
    for (size_t i = 0; i < c->nd; i++)
        if (!rows[i].r->status && rows[i].engine_note[0]) printf("%sNote%s, %s: %s\n", c_bold(), c_off(), gdw_dialect_name(rows[i].r->dialect), rows[i].engine_note);
    if (nm > 1) {
        printf("\nSame bytes, different meanings:\n");
        for (int m = 0; m < nm; m++) {
            char list[400];
            size_t n = 0;
            const row *first = NULL;
            list[0] = 0;
            for (size_t i = 0; i < c->nd; i++)
                if (rows[i].meaning == m) {
                    if (!first) first = &rows[i];
                    n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s", n ? ", " : "", gdw_dialect_name(rows[i].r->dialect));
                }
            printf("  %c  %s\n     ", 'A' + (m % 26), list);
            print_value_line(first, 1);
            printf("\n");
        }
        if (seen->n) {
            printf("  Type ids in the packet, as each meaning reads them:");
            for (size_t k = 0; k < seen->n && k < 12; k++) {
                printf("\n    %3u:", seen->id[k]);
                for (int m = 0; m < nm; m++)
                    for (size_t i = 0; i < c->nd; i++)
                        if (rows[i].meaning == m) {
                            const char *t = type_of(rows[i].r->dialect, seen->id[k]);
                            printf(" %c=%s", 'A' + (m % 26), t ? t : "-");
                            break;
                        }
            }
            printf("\n");
        }
    }
    printf("\nRanking (most likely first):\n");
    for (int r = 1; r <= (int)c->nd; r++)
        for (size_t i = 0; i < c->nd; i++)
            if (rows[i].rank == r) printf("  %2d. %-19s %s\n", r, gdw_dialect_name(rows[i].r->dialect), rows[i].reason);
    printf("%s%s%s\n", c_bold(), c->summary, c_off()); /* the library's sentence, as every surface prints it */
    if (c->script[0]) printf("In the engine: %s\n", c->script);
}

static void print_line(check_run *c, const packet *pk, int accepted) {
    char name[600];
    packet_name(pk, name, sizeof name);
    if (accepted) printf("%s: %zu bytes: %saccepted%s by %d of %zu. %s\n", name, pk->n, c_ok(), c_off(), accepted, c->nd, c->summary);
    else printf("%s: %zu bytes: %srejected%s by all %zu. %s\n", name, pk->n, c_bad(), c_off(), c->nd, c->summary);
}

static void print_json(check_run *c, const packet *pk, int best, int nm) {
    row *rows = c->rows;
    printf("{");
    json_packet_fields(stdout, pk);
    printf(",\"mode\":\"%s\",%s\"accepted_by\":[", gdw_mode_name(c->o->dec.mode), c->o->json_plain ? "\"json\":\"plain\"," : "");
    int k = 0;
    for (size_t i = 0; i < c->nd; i++) if (!rows[i].r->status) printf("%s\"%s\"", k++ ? "," : "", gdw_dialect_name(rows[i].r->dialect));
    bool reads = c->ranked[best].reading != GDW_READING_REJECTED;
    printf("],\"best\":");
    if (reads) printf("\"%s\"", gdw_dialect_name(rows[best].r->dialect)); else printf("null");
    printf(",\"equally\":[");
    k = 0;
    for (size_t i = 0; i < c->nd; i++)
        if (reads && (int)i != best && rows[i].first) printf("%s\"%s\"", k++ ? "," : "", gdw_dialect_name(rows[i].r->dialect));
    char framing[80];
    gdw_check_framing_text(pk->p, pk->n, c->skip, framing, sizeof framing);
    printf("],\"skip\":%zu,\"framing\":", c->skip);
    json_string(stdout, framing);
    printf(",\"summary\":");
    json_string(stdout, c->summary);
    printf(",\"script\":");
    json_string(stdout, c->script);
    printf(",\"dialects\":[");
    for (size_t i = 0; i < c->nd; i++) {
        const row *w = &rows[i];
        static const char *const reading_name[] = {"whole", "cut", "prefix", "rejected"};
        printf("%s{\"dialect\":\"%s\",\"accepted\":%s,\"reading\":\"%s\",\"rank\":%d,\"first\":%s,\"reason\":", i ? "," : "",
               gdw_dialect_name(w->r->dialect), w->r->status ? "false" : "true", reading_name[c->ranked[i].reading], w->rank, w->first ? "true" : "false");
        json_string(stdout, w->reason);
        if (w->r->status) {
            printf(",\"error\":");
            json_error(stdout, &w->r->err);
            printf("}");
            continue;
        }
        const char *re = w->r->reencodes_same ? "same" : "differs";
        printf(",\"consumed\":%zu,\"trailing\":%zu,\"strict\":%s,\"engine_exact\":%s,\"reencode\":\"%s\",\"meaning\":%d,\"value\":",
               w->r->consumed, pk->n - w->r->consumed, w->r->reencodes_same ? "true" : "false", w->exact_ok ? "true" : "false", re, w->meaning);
        char *j = json_value_alloc(c->o, tree_of(c, i));
        printf("%s", j ? j : "null");
        free(j);
        printf("}");
    }
    printf("],\"meanings\":[");
    for (int m = 0; m < nm; m++) {
        printf("%s{\"dialects\":[", m ? "," : "");
        size_t first = c->nd;
        int n = 0;
        for (size_t i = 0; i < c->nd; i++)
            if (rows[i].meaning == m) { if (first == c->nd) first = i; printf("%s\"%s\"", n++ ? "," : "", gdw_dialect_name(rows[i].r->dialect)); }
        printf("],\"text\":");
        char *t = gdw_text_print_alloc(tree_of(c, first), NULL, NULL);
        json_string(stdout, t ? t : "");
        free(t);
        printf("}");
    }
    printf("]}\n");
}

/* ---- the verb ------------------------------------------------------------------------------------- */

/* One packet's check: the library's scheduler runs the rows, on one thread or several, each taking an alike row's
 * answer where it can (gdw_check_run_rows); the hooks below are the command's own work on a row, on the thread that
 * does it: its digest and facts (walk_with_facts), its tree kept or its lines printed, and its engine note
 * (row_done). */
typedef struct check_job {
    check_run *c;
    const packet *pk;
    const gdw_decode_options *dec;
    const gdw_allocator *alloc;
} check_job;

/* The tree row i's engine note compares with the engine's value: its own (cut, CHECK_KEEP_NODES) where that says the
 * engine holds the same (no note is made), else its value whole, decoded once for the rows with its digest. */
static const gdw_doc *note_tree(check_job *j, size_t i, const gdw_doc *tree) {
    if (!gdw_doc_cut(tree) || gdw_doc_engine_same(tree)) return tree;
    check_run *c = j->c;
    size_t first = c->rows[i].twin >= 0 ? (size_t)c->rows[i].twin : i;
    pthread_mutex_lock(&c->twins_lock);
    gdw_doc *whole = c->rows[first].whole;
    pthread_mutex_unlock(&c->twins_lock);
    if (whole) return whole;
    gdw_decode_options o = *j->dec;
    o.keep_nodes = 0;
    if (gdw_decode(gdw_dialect_at(i), j->pk->p, j->pk->n, &o, j->alloc, &whole, NULL, NULL) != GDW_OK) return tree; /* the note decodes it */
    gdw_doc *spare = NULL;
    pthread_mutex_lock(&c->twins_lock);
    if (c->rows[first].whole) spare = whole, whole = c->rows[first].whole; /* another row of the digest made it meanwhile */
    else c->rows[first].whole = whole;
    pthread_mutex_unlock(&c->twins_lock);
    gdw_doc_free(spare);
    return whole;
}

/* Row i's engine note (the matrix's): its value as written (note_tree) against the value its engine holds
 * (gdw_check_engine_tree: decoded once for the rows that read the packet alike in engine-exact mode; asked only
 * where the walk could not tell the two are the same). */
static void engine_note_of(check_job *j, gdw_check_run *run, size_t i, const gdw_doc *tree) {
    row *w = &j->c->rows[i];
    const gdw_doc *have = note_tree(j, i, tree);
    const gdw_doc *held = j->dec->mode == GDW_MODE_ENGINE_EXACT || gdw_doc_engine_same(have) ? NULL : gdw_check_engine_tree(run, i);
    engine_value_note(gdw_dialect_at(i), j->pk, j->dec, have, held, j->alloc, w->engine_note, sizeof w->engine_note);
}

/* Before row i walks the packet: the decode adds its value to the row's digest and facts as it makes it, and keeps
 * only the nodes the output reads. */
static void walk_with_facts(void *ctx, size_t i, gdw_decode_options *o) {
    check_job *j = ctx;
    check_run *c = j->c;
    tree_facts *f = &c->facts[i];
    pthread_once(&g_digest_key_once, make_digest_key);
    pthread_once(&g_real_types_once, make_real_types);
    gdw_digest_init(&f->digest, g_digest_key[0], g_digest_key[1], j->pk->p, j->pk->n);
    f->odd = 0;
    f->seen = 0;
    f->ntypes = 0;
    /* the decode adds its value as it makes it, and tells its facts */
    f->events = (gdw_decode_events){.digest = &f->digest, .on_node = facts_node, .on_node_ctx = f};
    o->events = &f->events;
    o->keep_nodes = c->keep == KEEP_ALL ? 0 : CHECK_KEEP_NODES; /* the output reads the value lines only */
}

/* Row i is answered: walked (from == i), or with the answer of row from, which read the packet as it would, taken;
 * then the other row's tree (or the one it stands for) stands for this row's, and its digest is this row's. */
static void row_done(void *ctx, gdw_check_run *run, size_t i, size_t from) {
    check_job *j = ctx;
    check_run *c = j->c;
    gdw_check_result *r = &c->res[i];
    row *w = &c->rows[i];
    w->r = r;
    w->engine_note[0] = 0;
    w->twin = -1;
    if (from != i) {
        c->facts[i].digest = c->facts[from].digest;
        if (r->status != GDW_OK) return;
        w->twin = c->rows[from].twin >= 0 ? c->rows[from].twin : (int)from;
        const gdw_doc *tree = c->rows[w->twin].r->doc; /* kept: the row a tree stands for keeps it */
        if (r->engine_exact && c->matrix) engine_note_of(j, run, i, tree);
        if (c->keep == KEEP_ONE_PER_VALUE) { /* its lines, as a freed row's (below) */
            make_value_line(&w->line[0], gdw_doc_root(tree), VALUE_LINE_TABLE);
            if ((size_t)w->twin > i) make_value_line(&w->line[1], gdw_doc_root(tree), VALUE_LINE_MEANING);
        }
        return;
    }
    if (r->status != GDW_OK) return;
    tree_facts *f = &c->facts[i];
    /* the first finished row of each digest keeps its tree for the output; a later one is freed (check_all) */
    pthread_mutex_lock(&c->twins_lock);
    for (size_t k = 0; k < c->kept_n && w->twin < 0; k++)
        if (same_digest(&c->facts[c->kept[k]], f)) w->twin = (int)c->kept[k];
    if (w->twin < 0) c->kept[c->kept_n++] = i;
    pthread_mutex_unlock(&c->twins_lock);
    if (r->engine_exact && c->matrix) engine_note_of(j, run, i, r->doc);
    if (c->keep == KEEP_ALL || (c->keep == KEEP_ONE_PER_VALUE && w->twin < 0)) return; /* the output reads its tree */
    if (c->keep == KEEP_ONE_PER_VALUE) {
        /* a later row of a digest is freed: its lines first, the meaning's only where a row before it may not be in it */
        make_value_line(&w->line[0], gdw_doc_root(r->doc), VALUE_LINE_TABLE);
        if ((size_t)w->twin > i) make_value_line(&w->line[1], gdw_doc_root(r->doc), VALUE_LINE_MEANING);
    }
    gdw_doc_free(r->doc); /* its pages serve the next decode (region.c) */
    r->doc = NULL;
}

/* Below this many bytes a packet's rows are done one after another: starting a thread (tens of
 * microseconds) would cost more than it saves. At most CHECK_THREADS rows at once besides this thread's,
 * or as many as the environment's GDWIRE_THREADS says (1: one after another). */
#define CHECK_PARALLEL_PACKET ((size_t)1 << 20)
#define CHECK_THREADS 8

/* The threads a check of an n-byte packet runs on, this one included: on a packet of a megabyte or more, the
 * online cores. */
static unsigned check_threads(size_t n, size_t nd) {
    if (n < CHECK_PARALLEL_PACKET) return 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *cap = getenv("GDWIRE_THREADS"); /* at most this many (docs/gdwire.1, ENVIRONMENT) */
    if (cap && *cap) {
        long n = strtol(cap, NULL, 10);
        if (n >= 1 && n < cpus) cpus = n;
    }
    size_t want = cpus > 1 ? (size_t)cpus - 1 : 0; /* this thread is one of them */
    if (want > CHECK_THREADS) want = CHECK_THREADS;
    if (want > nd - 1) want = nd - 1;
    return (unsigned)want + 1;
}

/* Every dialect's answer to the packet (gdw_check's, row by row), each accepted tree walked once. Returns how many
 * dialects accept. */
static int check_all(check_run *c, const packet *pk, const gdw_decode_options *dec) {
    check_job j = {c, pk, dec, region_for(pk->n)};
    c->kept_n = 0;
    /* rows take alike rows' answers as gdw_check does (gdw_check_shares), the hooks standing in for their trees and digests */
    gdw_check_options co = {true, check_threads(pk->n, c->nd), true, walk_with_facts, row_done, &j};
    gdw_check_run_rows(pk->p, pk->n, dec, j.alloc, &co, c->res, c->nd);
    int accepted = 0;
    for (size_t i = 0; i < c->nd; i++) {
        row *w = &c->rows[i];
        if (c->res[i].status == GDW_OK && w->twin >= 0) { /* the same value, the same facts: its twin's walk */
            tree_facts *f = &c->facts[i], *tf = &c->facts[w->twin];
            f->odd = tf->odd;
            f->seen = tf->seen;
            f->ntypes = tf->ntypes;
            memcpy(f->type, tf->type, tf->ntypes * sizeof f->type[0]);
        }
        /* the fields rank_rows reads before it writes them (the texts are long: not cleared whole) */
        w->exact_ok = false;
        w->reason = "";
        w->first = false;
        w->odd_reals = 0;
        w->meaning = -1;
        accepted += c->res[i].status == GDW_OK;
    }
    return accepted;
}

static void free_docs(check_run *c) {
    for (size_t i = 0; i < c->nd; i++) {
        gdw_doc_free(c->res[i].doc);
        c->res[i].doc = NULL;
        gdw_doc_free(c->rows[i].whole);
        c->rows[i].whole = NULL;
    }
    region_reset();
}

static int check_packet(void *ctx, const packet *pk) {
    check_run *c = ctx;
    gdw_decode_options dec = c->o->dec;
    dec.borrow_input = true; /* the packet outlives the documents: they are freed below */
    dec.watch_engine = c->matrix; /* the matrix's notes (engine_value_note) */
    int accepted = check_all(c, pk, &dec);
    for (size_t i = 0; i < c->nd; i++) c->accept_count[i] += c->res[i].status == GDW_OK;
    /* where no dialect reads every byte: the bytes in front of a value (a length prefix, an opcode), if that explains them */
    packet body = *pk;
    c->skip = gdw_check_find_skip(c->res, c->nd, pk->p, pk->n, &dec);
    if (c->skip) {
        free_docs(c);
        body.p += c->skip, body.n -= c->skip, body.offset += c->skip;
        accepted = check_all(c, &body, &dec);
    }
    int best = 0, nm = 0;
    ids seen;
    rank_rows(c, pk, &body, &dec, &seen, &best, &nm, c->matrix || c->o->json);
    for (size_t i = 0; i < c->nd; i++) if (c->rows[i].first) c->first_count[i]++;
    if (c->o->json) print_json(c, pk, best, nm);
    else if (c->matrix) {
        if (c->skip) {
            char framing[80];
            gdw_check_framing_text(pk->p, pk->n, c->skip, framing, sizeof framing);
            printf("No dialect reads all %zu bytes; after %s, the %zu bytes from byte %zu:\n", pk->n, framing, body.n, c->skip);
        }
        print_matrix(c, &body, nm, accepted, &seen);
        if (c->o->verbose) printf("\n");
    } else print_line(c, pk, accepted);
    bool read_whole = c->skip || (accepted && c->rows[best].r->consumed == pk->n);
    free_docs(c);
    if (!read_whole) hint_raw_text(c->o, pk); /* rejected, or read in part */
    return accepted ? EXIT_ACCEPTED : EXIT_REJECTED;
}

static void check_run_free(check_run *c) {
    free(c->rows);
    free(c->res);
    free(c->accept_count);
    free(c->first_count);
    free(c->facts);
    free(c->rep);
    free(c->ranked);
    free(c->kept);
}

static bool check_run_alloc(check_run *c) {
    c->nd = gdw_dialect_count();
    c->rows = calloc(c->nd, sizeof *c->rows);
    c->res = calloc(c->nd, sizeof *c->res);
    c->accept_count = calloc(c->nd, sizeof *c->accept_count);
    c->first_count = calloc(c->nd, sizeof *c->first_count);
    c->facts = calloc(c->nd, sizeof *c->facts);
    c->rep = calloc(c->nd, sizeof *c->rep);
    c->ranked = calloc(c->nd, sizeof *c->ranked);
    c->kept = calloc(c->nd, sizeof *c->kept);
    bool ok = c->rows && c->res && c->accept_count && c->first_count && c->facts && c->rep && c->ranked && c->kept;
    if (ok) ok = pthread_mutex_init(&c->twins_lock, NULL) == 0;
    if (ok) return true;
    check_run_free(c);
    return false;
}

const gdw_dialect *best_dialect_for(const opts *o, const packet *pk) {
    static check_run c; /* one per process: -d auto asks once a packet; it reads no tree (KEEP_NONE) */
    if (!c.rows && !check_run_alloc(&c)) return NULL;
    c.o = o;
    gdw_decode_options dec = o->dec;
    dec.trace = NULL;
    dec.borrow_input = true; /* the documents are freed below */
    check_all(&c, pk, &dec);
    c.skip = 0; /* -d auto decodes the bytes as they are: the dialect that reads them best, from their first byte */
    int best = 0, nm = 0;
    ids seen;
    rank_rows(&c, pk, pk, &dec, &seen, &best, &nm, false);
    const gdw_dialect *d = c.ranked[best].reading != GDW_READING_REJECTED ? c.rows[best].r->dialect : NULL;
    free_docs(&c);
    return d;
}

int cmd_check(const opts *o) {
    check_run c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.matrix = o->verbose || single_packet_input(o);
    c.keep = o->json ? KEEP_ALL : c.matrix ? KEEP_ONE_PER_VALUE : KEEP_NONE;
    if (!check_run_alloc(&c)) {
        fprintf(stderr, "gdwire: out of memory\n");
        return EXIT_USAGE;
    }
    run_stats st = {0};
    int rc = for_each_packet(o, check_packet, &c, &st);
    if (!o->json && !single_packet_input(o) && st.packets) {
        printf("\n%zu packet%s, %zu byte%s: %zu accepted by some dialect, %zu rejected by all%s", st.packets, plural(st.packets), st.bytes,
               plural(st.bytes), st.accepted, st.rejected,
               st.frame_errors ? " (frame errors included)" : "");
        if (st.skips) printf("; %zu bytes skipped in %zu place%s (--resync)", st.skipped, st.skips, st.skips == 1 ? "" : "s");
        printf("\n");
        printf("%-19s %9s %12s\n", "dialect", "accepts", "ranks first");
        for (size_t i = 0; i < c.nd; i++) printf("%-19s %9zu %12zu\n", gdw_dialect_name(gdw_dialect_at(i)), c.accept_count[i], c.first_count[i]);
    }
    check_run_free(&c);
    return rc;
}
