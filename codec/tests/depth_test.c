/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* depth_test — the nesting limit: a value at depth 1024 is accepted, at 1025 rejected with
 * GDW_ERR_DEPTH (the top value is depth 0, as in the engines); a 10-million-deep array bomb
 * is rejected after reading only as far as the limit, with no recursion on the C stack.
 * The encoder refuses trees deeper than its limit. */
#include <time.h>

#include "codec/tests/testing.h"

/* `levels` nested one-element arrays around an int (Godot 3 ids): the int is at depth `levels`. */
static uint8_t *nest(size_t levels, size_t *len) {
    *len = levels * 8 + 8;
    uint8_t *p = malloc(*len);
    for (size_t i = 0; i < levels; i++) {
        memcpy(p + 8 * i, "\x13\x00\x00\x00\x01\x00\x00\x00", 8);
    }
    memcpy(p + 8 * levels, "\x02\x00\x00\x00\x07\x00\x00\x00", 8);
    return p;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void) {
    const gdw_dialect *d = t_dialect("godot3");
    size_t len;
    gdw_error err;
    for (int mode = 0; mode < 3; mode++) {
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = (gdw_mode)mode;
        uint8_t *ok = nest(1024, &len);
        gdw_doc *doc = NULL;
        size_t used = 0;
        gdw_status s = gdw_decode(d, ok, len, &o, NULL, &doc, &used, &err);
        CHECK(s == GDW_OK && used == len, "depth 1024 rejected: %s", gdw_status_name(s));
        /* the decoded tree really is 1024 deep */
        const gdw_value *v = gdw_doc_root(doc);
        size_t depth = 0;
        while (v && v->type == GDW_ARRAY) {
            v = &gdw_items(v)[0];
            depth++;
        }
        CHECK(depth == 1024 && v && v->type == GDW_INT && v->u.i == 7, "tree depth %zu", depth);
        /* it re-encodes at the encoder's limit too */
        size_t w = 0;
        CHECK(gdw_encode(d, gdw_doc_root(doc), NULL, NULL, 0, &w, &err) == GDW_OK && w == len,
              "encode depth 1024");
        gdw_doc_free(doc);
        free(ok);

        uint8_t *bad = nest(1025, &len);
        s = gdw_decode(d, bad, len, &o, NULL, &doc, NULL, &err);
        CHECK(s == GDW_ERR_DEPTH && err.offset == 1025 * 8 && doc == NULL, "depth 1025: %s at %zu",
              gdw_status_name(s), err.offset);
        CHECK(gdw_validate(d, bad, len, &o, NULL, &err) == GDW_ERR_DEPTH, "validate depth 1025");
        free(bad);
    }

    /* 10 million levels: rejected at the limit, time proportional to the limit, not the input */
    uint8_t *bomb = nest(10u * 1000 * 1000, &len);
    double t0 = now();
    gdw_doc *doc = NULL;
    gdw_status s = gdw_decode(d, bomb, len, NULL, NULL, &doc, NULL, &err);
    double t1 = now();
    gdw_status vs = gdw_validate(d, bomb, len, NULL, NULL, &err);
    double t2 = now();
    CHECK(s == GDW_ERR_DEPTH && vs == GDW_ERR_DEPTH && err.offset == 1025 * 8, "bomb: %s / %s",
          gdw_status_name(s), gdw_status_name(vs));
    printf(
        "10M-deep bomb (%zu bytes): decode rejected in %.3f ms, validate in %.3f ms, at byte %zu\n",
        len, (t1 - t0) * 1e3, (t2 - t1) * 1e3, err.offset);
    free(bomb);

    /* a lower per-call limit */
    gdw_decode_options o = gdw_decode_options_default();
    o.max_depth = 10;
    uint8_t *ten = nest(10, &len);
    CHECK(gdw_validate(d, ten, len, &o, NULL, &err) == GDW_OK, "10 within limit 10");
    free(ten);
    uint8_t *eleven = nest(11, &len);
    CHECK(gdw_validate(d, eleven, len, &o, NULL, &err) == GDW_ERR_DEPTH, "11 beyond limit 10");
    free(eleven);

    /* encoder: a hand-built tree 1025 deep */
    static gdw_value chain[1026];
    for (int i = 0; i < 1025; i++) {
        chain[i].type = GDW_ARRAY;
        chain[i].len = 1;
        chain[i].u.items = &chain[i + 1];
    }
    chain[1025].type = GDW_NIL;
    size_t w = 0;
    CHECK(gdw_encode(d, &chain[0], NULL, NULL, 0, &w, &err) == GDW_ERR_DEPTH, "encoder depth 1025");
    CHECK(gdw_encode(d, &chain[1], NULL, NULL, 0, &w, &err) == GDW_OK, "encoder depth 1024");
    return t_finish();
}
