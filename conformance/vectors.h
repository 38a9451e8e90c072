/* vectors.h — the conformance suite in memory: vectors read from YAML (conformance/README.md)
 * with their expectations expanded to every dialect and mode, and the deviations list. */
#ifndef GDWIRE_CONFORMANCE_VECTORS_H
#define GDWIRE_CONFORMANCE_VECTORS_H

#include "conformance/outcome.h"

#define CF_MODES 3 /* compatible, strict, engine-exact: the gdw_mode values */
#define CF_MAX_DIALECTS 32

/* The rows every vector states an outcome for: every row of the table (gdw_row_count,
 * gdw_row_at: the dialects, then the engine releases). A release row takes an expectation only
 * from a key naming it with '@' ("godot3@3.2", "godot3@*"); without one it has its dialect's. */
/* cf_row_index: the row of d, or -1. */
int cf_row_index(const gdw_dialect *d);

/* Where an expectation comes from, weakest first (conformance/README.md: Evidence). ENGINE is
 * never written in a vector: it is earned when an engine's recorded answer (conformance/evidence/)
 * agrees with the expectation. */
typedef enum cf_evidence { CF_EV_RECORDED = 0, CF_EV_SOURCE, CF_EV_FACT, CF_EV_ENGINE, CF_EV_COUNT } cf_evidence;
const char *cf_evidence_name(cf_evidence e);

typedef struct cf_vector {
    char *id;            /* "<file relative to the suite root>#<name>" */
    char *file;
    char *name;
    int line;            /* line of the vector in its file */
    const gdw_dialect *from; /* the dialect the vector was made for */
    char *note;
    uint8_t *bytes;
    size_t len;
    cf_options opt;
    cf_outcome expect[CF_MAX_DIALECTS][CF_MODES]; /* by row (gdw_row_at), by gdw_mode; borrowed */
    uint8_t evidence[CF_MAX_DIALECTS]; /* cf_evidence, by row: the vector's `evidence:` */
    cf_outcome *owned;   /* the outcomes that own the documents and buffers expect[] shares */
    size_t nowned;
} cf_vector;

typedef struct cf_deviation {
    char *vector;        /* vector id, or a shell pattern of ids when pattern is set */
    bool pattern;        /* written as vectors: PATTERN (one reason for a class of vectors) */
    char *engine;        /* against: engine only: the engine it is about (godot3.2, godot4.6...); NULL: every engine */
    const gdw_dialect *dialect;
    int mode;            /* gdw_mode, or -1 for every mode */
    bool against_engine; /* true: gdwire vs the real engine (oracle); false: vs the vector */
    char *engine_did;    /* with against: engine, the entry excuses only answers of this kind (cf_engine_did):
                            "crash", "accepted" (where gdwire rejects) or "other-value" (both accept); NULL: any */
    char *expected;      /* with engine_did: only where gdwire's expectation is one of these space-separated
                            status names (TRUNCATED BAD_LENGTH ...), or accepts a value whose re-encoding
                            fails so (LOSSY); NULL: any */
    char *reason;
    int line;
    int used;            /* how many checks it excused */
} cf_deviation;

typedef struct cf_suite {
    cf_vector *v;
    size_t n, cap;
    cf_deviation *dev;
    size_t ndev;
    int errors; /* load errors (already printed) */
    size_t *ids, ids_cap; /* the vectors by id: an open-addressed set of index + 1 (0 is empty) */
} cf_suite;

/* cf_load_path: load a .yaml file, or every .yaml file under a directory (sorted), into s.
 * Ids are relative to `root`. Problems are printed as "file:line: message" and counted in
 * s->errors: unknown keys, unknown dialects, malformed hex, a dialect no key matches, two
 * patterns of equal rank matching one dialect, duplicate names. */
void cf_load_path(cf_suite *s, const char *root, const char *path);
/* cf_load_deviations: read the deviations file; every entry must name a loaded vector. */
void cf_load_deviations(cf_suite *s, const char *path);
/* cf_deviation_applies: e is about dialect d, mode and comparison kind, and (for engine
 * comparisons) about this engine (engine NULL: the comparison names none). */
bool cf_deviation_applies(const cf_deviation *e, const gdw_dialect *d, int mode, bool against_engine, const char *engine);
cf_deviation *cf_find_deviation(cf_suite *s, const char *id, const gdw_dialect *d, int mode, bool against_engine, const char *engine);
/* cf_find_deviation for one engine answer that differs: did is its kind (cf_engine_did), want gdwire's
 * expectation; entries with engine-did / expected conditions apply only where they hold. */
cf_deviation *cf_find_engine_deviation(cf_suite *s, const char *id, const gdw_dialect *d, int mode, const char *engine, const char *did,
                                       const struct cf_outcome *want);
void cf_suite_free(cf_suite *s);

#endif
