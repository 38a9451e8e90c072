/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/* stack_test — every recursive walk of the codec is bounded in C stack (issue 14): each public
 * call runs on a thread of STACK_KIB KiB (a library must not assume an 8 MiB main thread) with
 * the deepest values the limits allow, nested every way a tree nests (Array items, Dictionary
 * keys and values, Object properties, typed containers), and with the hostile texts just past
 * the limits. The thread's stack is painted before each call and read after it: the test prints
 * the most each call used, and fails if one needs more than STACK_BUDGET_KIB. Below the stack
 * sits a guard page, so an overflow is a crash, never a silent corruption. */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "codec/tests/testing.h"

#ifndef STACK_KIB
#define STACK_KIB 256
#endif
#define STACK_BUDGET_KIB 192 /* what a call may use of the thread's 256 KiB */
#define PAINT 0xA5

typedef struct job {
    const char *name;
    void (*fn)(struct job *);
    /* inputs */
    const gdw_dialect *d, *to;
    const uint8_t *bytes;
    size_t len;
    const gdw_value *value, *other; /* other: an equal tree of its own */
    const char *text;
    size_t text_len;
    gdw_decode_options o;
    /* results */
    gdw_status status;
    size_t n;
    char *out;
    gdw_doc *doc;
} job;

static void *thread_main(void *arg) {
    job *j = arg;
    j->fn(j);
    return NULL;
}

/* Run j->fn on a fresh STACK_KIB thread; returns the bytes of stack it used. */
static size_t run_on_small_stack(job *j) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE), size = (size_t)STACK_KIB << 10;
    uint8_t *base = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                         0);
    if (base == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    mprotect(base, page, PROT_NONE); /* the guard page: an overflow faults */
    uint8_t *stack = base + page;
    memset(stack, PAINT, size);
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstack(&a, stack, size);
    pthread_t t;
    if (pthread_create(&t, &a, thread_main, j)) {
        perror("pthread_create");
        exit(2);
    }
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    size_t untouched = 0;
    while (untouched < size && stack[untouched] == PAINT) untouched++;
    munmap(base, size + page);
    return size - untouched;
}

static void do_decode(job *j) {
    j->status = gdw_decode(j->d, j->bytes, j->len, &j->o, NULL, &j->doc, NULL, NULL);
}
static void do_validate(job *j) {
    j->status = gdw_validate(j->d, j->bytes, j->len, &j->o, NULL, NULL);
}
static void trace_nothing(void *ctx, const gdw_trace_event *ev) {
    (void)ctx;
    (void)ev;
}
static void do_trace(job *j) {
    gdw_decode_options o = j->o;
    o.trace = trace_nothing;
    j->status = gdw_validate(j->d, j->bytes, j->len, &o, NULL, NULL);
}
static void do_check(job *j) {
    gdw_check_result *r = calloc(gdw_dialect_count(), sizeof *r);
    size_t rows = gdw_check(j->bytes, j->len, &j->o, NULL, false, r, gdw_dialect_count());
    j->n = 0; /* the rows that accept: gdw_check returns the rows it has, as snprintf its length */
    for (size_t i = 0; i < rows && i < gdw_dialect_count(); i++) j->n += r[i].status == GDW_OK;
    free(r);
}
static void do_encode(job *j) {
    j->status = gdw_encode(j->d, j->value, NULL, NULL, 0, &j->n, NULL);
}
static void do_convert(job *j) {
    j->status = gdw_convert(j->value, j->to, NULL, NULL, &j->doc, NULL);
}
static void do_text_print(job *j) { j->out = gdw_text_print_alloc(j->value, NULL, NULL); }
static void do_json_print(job *j) { j->out = gdw_json_print_alloc(j->value, NULL, NULL); }
static void do_text_parse(job *j) {
    j->status = gdw_text_parse(j->text, j->text_len, NULL, &j->doc, NULL);
}
static void do_json_parse(job *j) {
    j->status = gdw_json_parse(j->text, j->text_len, NULL, &j->doc, NULL);
}
static void do_equal(job *j) { j->n = gdw_value_equal(j->value, j->other); }

static size_t worst;
static const char *worst_name;

static job *run(const char *shape, const char *name, void (*fn)(job *), job *proto) {
    static job j;
    j = *proto;
    j.name = name;
    j.fn = fn;
    size_t used = run_on_small_stack(&j);
    printf("  %-34s %-16s %7zu bytes of stack\n", shape, name, used);
    CHECK(used <= (size_t)STACK_BUDGET_KIB << 10, "%s %s used %zu bytes of stack", shape, name,
          used);
    if (used > worst) {
        worst = used;
        worst_name = name;
    }
    return &j;
}

/* A byte builder. */
typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;
static void put(buf *b, const void *s, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) exit(2);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void put32(buf *b, uint32_t v) {
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}

/* The shapes, each `levels` deep around an int, in godot3 (objects: godot3 ids too). */
enum { ARRAY_ITEMS, DICT_VALUES, DICT_KEYS, OBJECT_PROPS, TYPED_ARRAYS };
/* A printed form parsed back on the small stack gives the value it was printed from. */
static void parses_back(const char *shape, const char *name, void (*fn)(job *), job *proto,
                        const char *text, const gdw_doc *doc) {
    proto->text = text;
    proto->text_len = text ? strlen(text) : 0;
    job *r = run(shape, name, fn, proto);
    CHECK(r->status == GDW_OK && r->doc && gdw_value_equal(gdw_doc_root(r->doc), gdw_doc_root(doc)),
          "%s %s: %s", shape, name, gdw_status_name(r->status));
    gdw_doc_free(r->doc);
}

static const char *const k_shape[] = {"Array items", "Dictionary values", "Dictionary keys",
                                      "Object properties", "typed Arrays (godot4)"};

static buf nest(int shape, size_t levels) {
    buf b = {0};
    for (size_t i = 0; i < levels; i++) {
        switch (shape) {
        case ARRAY_ITEMS:
            put32(&b, 19);
            put32(&b, 1);
            break;
        case DICT_VALUES:
            put32(&b, 18);
            put32(&b, 1);
            put32(&b, 4);
            put32(&b, 1);
            put(&b, "k\0\0\0", 4);
            break;
        /* the key is the next level; values follow */
        case DICT_KEYS:
            put32(&b, 18);
            put32(&b, 1);
            break;
        case OBJECT_PROPS:
            put32(&b, 17);
            put32(&b, 4);
            put(&b, "Node", 4);
            put32(&b, 1);
            put32(&b, 1);
            put(&b, "p\0\0\0", 4);
            break;
        /* Array[Array] */
        case TYPED_ARRAYS:
            put32(&b, 28 | (1u << 16));
            put32(&b, 28);
            put32(&b, 1);
            break;
        }
    }
    put32(&b, 2);
    put32(&b, 7);
    if (shape == DICT_KEYS)
        for (size_t i = 0; i < levels; i++) {
            put32(&b, 2);
            put32(&b, (uint32_t)i);
        }
    return b;
}

int main(void) {
    printf(
        "stack used by each call on a %d KiB thread (budget %d KiB), values at the depth limit:\n",
        STACK_KIB, STACK_BUDGET_KIB);
    for (int shape = ARRAY_ITEMS; shape <= TYPED_ARRAYS; shape++) {
        const gdw_dialect *d = t_dialect(shape == TYPED_ARRAYS ? "godot4" : "godot3");
        const gdw_dialect *to = t_dialect(shape == TYPED_ARRAYS ? "godot3" : "godot4");
        size_t levels = 1024;
        buf b = nest(shape, levels);
        job proto = {0};
        proto.d = d;
        proto.to = to;
        proto.bytes = b.p;
        proto.len = b.n;
        proto.o = gdw_decode_options_default();
        proto.o.allow_objects = true;
        const char *s = k_shape[shape];
        for (int mode = 0; mode < 3; mode++) {
            proto.o.mode = (gdw_mode)mode;
            job *r = run(s,
                         mode == 0   ? "decode"
                         : mode == 1 ? "decode strict"
                                     : "decode exact",
                         do_decode, &proto);
            CHECK(r->status == GDW_OK, "%s: decode mode %d: %s", s, mode,
                  gdw_status_name(r->status));
            gdw_doc_free(r->doc);
        }
        proto.o.mode = GDW_MODE_COMPATIBLE;
        CHECK(run(s, "validate", do_validate, &proto)->status == GDW_OK, "%s validate", s);
        CHECK(run(s, "validate+trace", do_trace, &proto)->status == GDW_OK, "%s trace", s);
        CHECK(run(s, "check", do_check, &proto)->n >= 1, "%s check", s);
        gdw_doc *doc = NULL;
        CHECK(gdw_decode(d, b.p, b.n, &proto.o, NULL, &doc, NULL, NULL) == GDW_OK,
              "%s decode on the main thread", s);
        proto.value = gdw_doc_root(doc);
        gdw_doc *doc2 = NULL;
        CHECK(gdw_decode(d, b.p, b.n, &proto.o, NULL, &doc2, NULL, NULL) == GDW_OK,
              "%s second decode", s);
        proto.other = gdw_doc_root(doc2);
        job *r = run(s, "encode", do_encode, &proto);
        CHECK(r->status == GDW_OK && r->n == b.n, "%s encode: %s, %zu bytes", s,
              gdw_status_name(r->status), r->n);
        r = run(s, "convert", do_convert, &proto);
        CHECK(r->status == GDW_OK || r->status == GDW_ERR_LOSSY ||
                  r->status == GDW_ERR_UNSUPPORTED_TYPE,
              "%s convert: %s", s, gdw_status_name(r->status));
        gdw_doc_free(r->doc);
        CHECK(run(s, "equal", do_equal, &proto)->n == 1, "%s equal", s);
        char *text = run(s, "text print", do_text_print, &proto)->out;
        char *json = run(s, "json print", do_json_print, &proto)->out;
        CHECK(text && json, "%s print", s);
        parses_back(s, "text parse", do_text_parse, &proto, text, doc);
        parses_back(s, "json parse", do_json_parse, &proto, json, doc);
        free(text);
        free(json);
        gdw_doc_free(doc);
        gdw_doc_free(doc2);
        free(b.p);
        /* one level more: refused, within the same stack */
        b = nest(shape, levels + 1);
        proto.bytes = b.p;
        proto.len = b.n;
        CHECK(run(s, "decode 1 too deep", do_decode, &proto)->status == GDW_ERR_DEPTH,
              "%s: one level too deep", s);
        free(b.p);
    }
    /* texts past the limits: 1 MiB of '[' and of '{"type":"Array","value":[' */
    size_t n = 1u << 20;
    char *t = malloc(n);
    memset(t, '[', n);
    job proto = {0};
    proto.text = t;
    proto.text_len = n;
    job *r = run("1 MiB of '['", "text parse", do_text_parse, &proto);
    CHECK(r->status == GDW_ERR_DEPTH, "text of '[': %s", gdw_status_name(r->status));
    r = run("1 MiB of '['", "json parse", do_json_parse, &proto);
    CHECK(r->status == GDW_ERR_DEPTH, "JSON of '[': %s", gdw_status_name(r->status));
    static const char unit[] = "{\"type\":\"Array\",\"value\":[";
    size_t k = 0;
    while (k + sizeof unit - 1 <= n) {
        memcpy(t + k, unit, sizeof unit - 1);
        k += sizeof unit - 1;
    }
    proto.text_len = k;
    r = run("JSON Arrays 1 MiB deep", "json parse", do_json_parse, &proto);
    CHECK(r->status == GDW_ERR_DEPTH, "JSON of Arrays: %s", gdw_status_name(r->status));
    free(t);
    printf("the most any call used: %zu bytes (%s)\n", worst, worst_name ? worst_name : "-");
    return t_finish();
}
