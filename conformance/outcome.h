/* SPDX-License-Identifier: MIT */
/* outcome.h — what one byte string does in one dialect and mode: accepted (value, bytes
 * consumed, canonical re-encoding) or rejected (code, offset, path, engine error). The
 * conformance runner computes outcomes and compares them with the vectors; the vector
 * recorder (tools/conformance) computes them and writes them down. One definition for both. */
#ifndef GDWIRE_CONFORMANCE_OUTCOME_H
#define GDWIRE_CONFORMANCE_OUTCOME_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/gdwire_check.h"

/* A growing string. */
typedef struct cf_buf {
    char *p;
    size_t n, cap;
} cf_buf;
void cf_buf_put(cf_buf *b, const char *s, size_t n);
void cf_buf_puts(cf_buf *b, const char *s);
void cf_buf_printf(cf_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cf_buf_hex(cf_buf *b, const uint8_t *p, size_t n); /* groups of 4 bytes, space separated */
void cf_buf_yaml_string(cf_buf *b, const char *s);      /* a YAML double-quoted scalar */
void cf_buf_free(cf_buf *b);

/* Hex text (spaces allowed between digit pairs) to bytes. Returns false on any other
 * character or an odd number of digits; *bad is the offset of the first bad character. */
bool cf_unhex(const char *hex, uint8_t **out, size_t *len, size_t *bad);

/* cf_split_fields: split one line (its line end removed) into exactly n tab-separated fields,
 * in place; false when it has another number of fields. The testee protocol's lines. */
bool cf_split_fields(char *line, char **f, int n);

/* Decode options a vector may set. */
typedef struct cf_options {
    bool objects;        /* allow full Objects */
    unsigned max_depth;  /* 0 = default */
    size_t max_size;     /* 0 = none */
    size_t heap_limit;   /* 0 = none: the decoder's allocator fails past this many bytes */
} cf_options;

typedef struct cf_outcome {
    int status;            /* gdw_status; GDW_OK = accepted */
    /* rejected */
    size_t offset;
    int engine;            /* gdw_engine_error */
    char path[GDW_PATH_MAX];
    /* accepted */
    size_t consumed;
    gdw_doc *doc;          /* the value (owned) */
    int encode_status;     /* re-encoding in the same dialect: GDW_OK or the failure */
    uint8_t *encode;       /* canonical re-encoding (owned) */
    size_t encode_len;
    /* not part of the comparison */
    bool borrowed;         /* doc and encode belong to someone else: cf_outcome_free leaves them */
    bool validate_agrees;  /* gdw_validate gave the same verdict, offset and length */
} cf_outcome;

/* cf_run: decode buf in dialect d and mode m, re-encode, and validate. Never fails:
 * every result is an outcome. */
void cf_run(const gdw_dialect *d, gdw_mode m, const uint8_t *buf, size_t len, const cf_options *o, cf_outcome *out);
void cf_outcome_free(cf_outcome *o);

/* cf_outcome_equal: same verdict; for a rejection the same code, offset, path and engine
 * error; for an acceptance the same bytes consumed, an equal value (gdw_value_equal) and
 * the same re-encoding. */
bool cf_outcome_equal(const cf_outcome *a, const cf_outcome *b);

/* cf_outcome_format: the outcome as a YAML flow mapping, leaving out what is implied by the
 * input (consumed = whole input, re-encoding = the consumed bytes):
 *   {value: "[1, 2]"}  {value: "1", consumed: 8, encode: "02000000 01000000"}
 *   {error: TRUNCATED, offset: 4, engine: ERR_INVALID_DATA, path: "[0]"} */
void cf_outcome_format(cf_buf *b, const cf_outcome *o, const uint8_t *in, size_t len);

#endif
