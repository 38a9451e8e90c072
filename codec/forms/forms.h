/* SPDX-License-Identifier: MIT */
/* forms.h — the forms wing (codec/forms/): the canonical text form, the JSON form, their numbers,
 * base64 and hex; what its files share with each other. */
#ifndef GDWIRE_FORMS_H
#define GDWIRE_FORMS_H

#include "codec/value/value.h"

/* ---- Numbers of the text and JSON forms (numbers.c) ---------------------------------------- */

/* Each reads the token s[0..n) whole and returns NULL, or why not (a message for gdw_error). */
/* width 4 or 8 */
const char *gdw_number_real(const char *s, size_t n, unsigned width, uint64_t *bits);
const char *gdw_number_i64(const char *s, size_t n, int64_t *out);
const char *gdw_number_u64(const char *s, size_t n, uint64_t *out);
/* The width a real read at width 8 gets when its input names none: 4 (bits narrowed) when f32
 * holds it bit for bit and it is not a NaN, else 8. The encoders choose the same. */
unsigned gdw_number_natural_width(uint64_t *bits);

/* ---- Text output (text_print.c, json_print.c): snprintf-like, counts what does not fit ------- */

typedef struct sbuf {
    char *buf;
    size_t cap;
    size_t len;
    bool head; /* stop once full (gdw_text_print_head): the walk and long loops ask sb_done */
} sbuf;

static inline bool sb_done(const sbuf *s) { return s->head && s->len >= s->cap; }
static inline bool sb_done_ctx(void *ctx) { return sb_done((const sbuf *)ctx); }

static inline void sb_put(sbuf *s, const char *p, size_t n) {
    if (s->len < s->cap) {
        size_t room = s->cap - s->len;
        memcpy(s->buf + s->len, p, n < room ? n : room);
    }
    s->len += n;
}
static inline void sb_str(sbuf *s, const char *p) { sb_put(s, p, strlen(p)); }
static inline void sb_fmt(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sb_fmt(sbuf *s, const char *fmt, ...) {
    char tmp[256]; /* every caller's longest output (an Image header, 4 x u32) fits */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    assert(n >= 0 && (size_t)n < sizeof tmp);
    if (n > 0) sb_put(s, tmp, (size_t)n);
}


/* gdw_print_with: run print into out[0..cap) NUL-terminated, snprintf-like (the length the whole
 * text needs); gdw_print_alloc_with: the same into memory from alloc (NULL: the default), its
 * length in *len (NULL on OOM). The text and JSON printers are both called this way. */
size_t gdw_print_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v, char *out,
                      size_t cap);
char *gdw_print_alloc_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v,
                           const gdw_allocator *alloc, size_t *len);
/* gdw_print_components: the n components of a math value or packed array, separated by sep;
 * integers in decimal, reals through real (the text form's or the JSON form's writer). */
void gdw_print_components(sbuf *s, const gdw_value *v, size_t n, const char *sep,
                          void (*real)(sbuf *s, uint64_t bits, unsigned width));

#endif
