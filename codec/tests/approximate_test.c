/* SPDX-License-Identifier: MIT */
/* approximate_test — engine-exact mode never hands back, silently, a tree whose elements break
 * their container's type (issue 32). Each conversion the engine makes and gdwire does not compute
 * keeps the element as written and says so: GDW_VF_APPROXIMATE on the value, gdw_doc_approximate
 * (count, first path, why), a "not computed" trace event, and GDW_ERR_LOSSY with the path under
 * fail_if_approximate. The conversions gdwire does compute leave no mark (their bits are checked
 * against Godot 4.6.3 in conformance/vectors/engine/godot4-convert.yaml). */
#include "codec/tests/testing.h"

typedef struct trace_log {
    int events;
    char path[GDW_PATH_MAX];
    const char *note;
    int64_t want;
    size_t offset;
} trace_log;

static void on_trace(void *ctx, const gdw_trace_event *ev) {
    trace_log *t = (trace_log *)ctx;
    if (strcmp(ev->field, "not computed") != 0) return;
    if (!t->events++) {
        snprintf(t->path, sizeof t->path, "%s", ev->path ? ev->path : "(none)");
        t->note = ev->note;
        t->want = ev->number;
        t->offset = ev->offset;
    }
}

/* The text encoded in dialect, then decoded in engine-exact mode three ways. */
static void expect(const char *dialect, const char *text, size_t count, const char *path,
                   const char *why_has, const char *holds) {
    const gdw_dialect *d = t_dialect(dialect);
    size_t len = 0;
    uint8_t *bytes = t_encode_text(d, text, &len);
    if (!bytes) return;

    gdw_error err;
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = GDW_MODE_ENGINE_EXACT;
    trace_log t;
    memset(&t, 0, sizeof t);
    o.trace = on_trace;
    o.trace_ctx = &t;
    gdw_doc *doc = NULL;
    size_t used = 0;
    gdw_status s = gdw_decode(d, bytes, len, &o, NULL, &doc, &used, &err);
    CHECK(s == GDW_OK, "%s [%s]: decode %s", text, dialect, gdw_status_name(s));
    char got_path[GDW_PATH_MAX];
    const char *why = NULL;
    size_t n = gdw_doc_approximate(doc, got_path, &why);
    CHECK(n == count, "%s [%s]: %zu values marked, want %zu", text, dialect, n, count);
    char *held = doc ? gdw_text_print_alloc(gdw_doc_root(doc), NULL, NULL) : NULL;
    CHECK(held && strcmp(held, holds) == 0, "%s [%s]: holds %s, want %s", text, dialect,
          held ? held : "(nothing)", holds);
    free(held);
    if (count) {
        CHECK(strcmp(got_path, path) == 0, "%s [%s]: first at '%s', want '%s'", text, dialect,
              got_path, path);
        CHECK(why && strstr(why, why_has), "%s [%s]: why '%s' lacks '%s'", text, dialect,
              why ? why : "(null)", why_has);
        CHECK(t.events == (int)count, "%s [%s]: %d trace events, want %zu", text, dialect, t.events,
              count);
        CHECK(t.offset == used && t.note && strstr(t.note, why_has),
              "%s [%s]: event at %zu (value ends at %zu), note '%s'", text, dialect, t.offset, used,
              t.note ? t.note : "(null)");
    } else {
        CHECK(got_path[0] == 0 && why == NULL && t.events == 0,
              "%s [%s]: unmarked, yet path '%s', %d events", text, dialect, got_path, t.events);
    }
    gdw_doc_free(doc);

    /* fail_if_approximate: LOSSY at the first place, nothing handed back; no effect when exact */
    o.trace = NULL;
    o.fail_if_approximate = true;
    doc = NULL;
    s = gdw_decode(d, bytes, len, &o, NULL, &doc, NULL, &err);
    if (count) {
        CHECK(s == GDW_ERR_LOSSY && !doc && strcmp(err.path, path) == 0 &&
                  strstr(err.message, why_has),
              "%s [%s]: fail_if_approximate gives %s at '%s' (%s)", text, dialect,
              gdw_status_name(s), err.path, err.message);
    } else {
        CHECK(s == GDW_OK && doc, "%s [%s]: fail_if_approximate on an exact tree gives %s", text,
              dialect, gdw_status_name(s));
    }
    gdw_doc_free(doc);

    /* the other modes keep every value as written and mark none */
    o.fail_if_approximate = true;
    o.mode = GDW_MODE_COMPATIBLE;
    s = gdw_decode(d, bytes, len, &o, NULL, &doc, NULL, &err);
    CHECK(s == GDW_OK && gdw_doc_approximate(doc, NULL, NULL) == 0,
          "%s [%s]: compatible mode marks values", text, dialect);
    gdw_doc_free(doc);
    free(bytes);
}

int main(void) {
    /* not computed: each kind, at the top and nested */
    expect("godot4", "Array[Quaternion]([Basis(2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0)])", 1,
           "[0]", "not a rotation",
           "Array[Quaternion]([Basis(2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0)])");
    expect("godot4-double",
           "Array[Quaternion]([f64:Basis(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)])", 1, "[0]",
           "not a rotation",
           "Array[Quaternion]([f64:Basis(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)])");
    expect("godot4",
           "{\"k\": [1, Array[Color]([\"red\", \"wh\\xc4\\xb1te\", \"\\xc5\\xbfalmon\"])]}", 2,
           "{\"k\"}[1][1]", "U+0131",
           /* valid UTF-8 prints as it is */
           "{\"k\": [1, Array[Color]([Color(1.0, 0.0, 0.0, 1.0), \"wh\xc4\xb1te\", \"\xc5\xbf"
           "almon\"])]}");
    expect("godot4", "Array[PackedStringArray]([[1, \"a\"], [1, 2.5]])", 1, "[1]",
           "PackedStringArray",
           "Array[PackedStringArray]([PackedStringArray(\"1\", \"a\"), [1, 2.5]])");
    expect("godot4", "Array[PackedInt64Array]([[\"99999999999999999999\"]])", 1, "[0]",
           "packed array", "Array[PackedInt64Array]([[\"99999999999999999999\"]])");
    expect("godot4", "Dictionary[Color, int]({\"wh\\xc4\\xb1te\": 1})", 1, "{#0 key}",
           "Color(String)", "Dictionary[Color, int]({\"wh\xc4\xb1te\": 1})");
    /* computed: no mark */
    expect("godot4", "Array[Color]([\"Dark Sea-Green\", \"#f80c\", \"nope\"])", 0, "", "",
           "Array[Color]([Color(0.56078434, 0.7372549, 0.56078434, 1.0), Color(1.0, 0.53333336, "
           "0.0, 0.8), Color(0.0, 0.0, 0.0, 1.0)])");
    expect("godot4", "Array[Transform3D]([Quaternion(0.0, 0.0, 0.0, 1.0)])", 0, "", "",
           "Array[Transform3D]([Transform3D(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, "
           "0.0)])");
    expect("godot4", "Array[PackedStringArray]([[-7, true, null, &\"n\"]])", 0, "", "",
           "Array[PackedStringArray]([PackedStringArray(\"-7\", \"true\", \"<null>\", \"n\")])");
    CHECK(gdw_doc_approximate(NULL, NULL, NULL) == 0, "a NULL document has no marked values");
    return t_finish();
}
