/* SPDX-License-Identifier: MIT */
/* undefined_conversion_test — engine-exact mode counts the conversions the engine's C++ leaves
 * undefined (gdw_doc_undefined_conversions; docs/engine-findings.md, finding 7).
 *
 * What it is held to, from outside gdwire:
 *   - the engine: every input of tools/engines/harness/regressions/typed_*.bin made Godot 4.6.3's
 *     UBSan build (godot4.6-asan) print "outside the range of representable values" or "division
 *     by zero" (tools/engines/harness/known.tsv, finding 7). Each one gdwire reads is counted, with
 *     a trace event at its place; the ones it refuses are refused (so a guard refuses them too);
 *   - the rule: C++'s [conv.fpint] (a float converts to an integer type when its truncated value is
 *     representable: int32_t from -2147483648.99... to 2147483647.99..., uint8_t from -0.99... to
 *     255.99...) and Godot 4.6.3's Basis(Quaternion), core/math/basis.cpp:830 `2.0f /
 *     length_squared()`, computed in real_t (single precision: a component of 1e-30 squares to 0).
 * The values gdwire holds there are x86-64's: Godot 4.6.3 confirms them in
 * conformance/vectors/engine/godot4-typed-arrays-1.yaml and, for 27 floats (the undefined ones
 * among them) through every float-to-integer conversion of a typed Array or Dictionary, in
 * tools/engines/godot4.6-typed_conversions.tsv (tools/engines/typed_conversions.sh: the engine's
 * var_to_bytes of what it held), which this test holds gdwire's engine-exact value to. */
#include "codec/tests/testing.h"

typedef struct events {
    int n;
    char path[GDW_PATH_MAX];
    const char *note;
    int64_t want;
} events;

static void on_trace(void *ctx, const gdw_trace_event *ev) {
    events *e = (events *)ctx;
    if (strcmp(ev->field, "undefined conversion") != 0) return;
    if (!e->n++) {
        snprintf(e->path, sizeof e->path, "%s", ev->path ? ev->path : "(none)");
        e->note = ev->note;
        e->want = ev->number;
    }
}

/* bytes decoded in dialect: engine-exact counts `count`, the first event at `path`; compatible and
 * strict mode count none. */
static void expect_bytes(const char *what, const char *dialect, const uint8_t *bytes, size_t len,
                         size_t count, const char *path) {
    const gdw_dialect *d = t_dialect(dialect);
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = GDW_MODE_ENGINE_EXACT;
    events e;
    memset(&e, 0, sizeof e);
    o.trace = on_trace;
    o.trace_ctx = &e;
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_decode(d, bytes, len, &o, NULL, &doc, NULL, &err);
    CHECK(s == GDW_OK, "%s [%s]: decode %s: %s", what, dialect, gdw_status_name(s), err.message);
    size_t n = gdw_doc_undefined_conversions(doc);
    CHECK(n == count, "%s [%s]: %zu undefined conversions, want %zu", what, dialect, n, count);
    CHECK(e.n == (int)count, "%s [%s]: %d trace events, want %zu", what, dialect, e.n, count);
    if (count && e.n) {
        CHECK(strcmp(e.path, path) == 0, "%s [%s]: first at '%s', want '%s'", what, dialect, e.path,
              path);
        CHECK(e.note && strstr(e.note, "finding 7"), "%s [%s]: note '%s'", what, dialect,
              e.note ? e.note : "(null)");
    }
    gdw_doc_free(doc);
    for (int m = GDW_MODE_COMPATIBLE; m <= GDW_MODE_STRICT; m++) {
        gdw_decode_options c = gdw_decode_options_default();
        c.mode = (gdw_mode)m;
        c.allow_trailing = true;
        doc = NULL;
        if (gdw_decode(d, bytes, len, &c, NULL, &doc, NULL, &err) == GDW_OK)
            CHECK(gdw_doc_undefined_conversions(doc) == 0, "%s [%s]: counted in mode %d", what,
                  dialect, m);
        gdw_doc_free(doc);
    }
}

/* The text form encoded in dialect, then as expect_bytes. */
static void expect(const char *dialect, const char *text, size_t count, const char *path) {
    const gdw_dialect *d = t_dialect(dialect);
    size_t len = 0;
    uint8_t *bytes = t_encode_text(d, text, &len);
    if (!bytes) return;
    expect_bytes(text, dialect, bytes, len, count, path);
    free(bytes);
}

/* The engine's own reports: each regression of finding 7 that gdwire reads is one undefined
 * conversion; the others gdwire refuses. */
static void regressions(const char *dir) {
    static const struct {
        const char *file;
        bool decodes; /* gdwire reads it whole (else it refuses it, as the engine fails it later) */
    } k_found[] = {
        {"typed_basis_from_zero_quaternion.bin", true},
        {"typed_int_from_float.bin", true},
        {"typed_long_int_from_float.bin", true},
        {"typed_unsigned_char_from_float.bin", true},
        {"typed_vector3i_from_float.bin", true},
        {"typed_vector2i_from_float.bin", false},
        {"typed_vector4i_from_float.bin", false},
    };
    for (size_t i = 0; i < sizeof k_found / sizeof *k_found; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, k_found[i].file);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL, "cannot open %s", path);
        if (!f) continue;
        uint8_t buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (k_found[i].decodes) {
            expect_bytes(k_found[i].file, "godot4", buf, n, 1, "[0]");
        } else {
            gdw_decode_options o = gdw_decode_options_default();
            o.mode = GDW_MODE_ENGINE_EXACT;
            gdw_error err;
            CHECK(gdw_validate(t_dialect("godot4"), buf, n, &o, NULL, &err) != GDW_OK,
                  "%s: gdwire reads it, and counts nothing of what the engine did",
                  k_found[i].file);
        }
    }
}

/* The engine's answers (typed_conversions.sh): each packet decoded in engine-exact mode and written
 * again is the engine's var_to_bytes of what it held. */
static void engine_values(const char *tsv) {
    FILE *f = fopen(tsv, "r");
    CHECK(f != NULL, "cannot open %s", tsv);
    if (!f) return;
    static char line[1 << 12];
    const gdw_dialect *d = t_dialect("godot4");
    int rows = 0, data = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (line[0] == '\n') continue;
        data++;
        char *packet = strchr(line, '\t'), *engine = packet ? strchr(packet + 1, '\t') : NULL;
        CHECK(engine != NULL, "%s: a case without its three fields", line);
        if (!engine) continue;
        *packet++ = 0;
        *engine++ = 0;
        engine[strcspn(engine, "\r\n")] = 0;
        uint8_t in[512], want[512];
        size_t n = t_unhex(packet, in, sizeof in), wn = t_unhex(engine, want, sizeof want);
        CHECK(n != (size_t)-1 && wn != (size_t)-1, "%s: bad hex", line);
        if (n == (size_t)-1 || wn == (size_t)-1) continue;
        rows++;
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = GDW_MODE_ENGINE_EXACT;
        gdw_doc *doc = NULL;
        gdw_error err;
        gdw_status s = gdw_decode(d, in, n, &o, NULL, &doc, NULL, &err);
        CHECK(s == GDW_OK, "%s: decode %s: %s", line, gdw_status_name(s), err.message);
        uint8_t *got = NULL;
        size_t gn = 0;
        if (s == GDW_OK)
            CHECK(gdw_encode_alloc(d, gdw_doc_root(doc), NULL, NULL, &got, &gn, &err) == GDW_OK,
                  "%s: encode: %s", line, err.message);
        if (got) {
            char gh[1100], wh[1100];
            t_hex(got, gn, gh, sizeof gh);
            t_hex(want, wn, wh, sizeof wh);
            CHECK(gn == wn && memcmp(got, want, wn) == 0, "%s: gdwire holds %s, the engine %s",
                  line, gh, wh);
        }
        free(got);
        gdw_doc_free(doc);
    }
    fclose(f);
    CHECK(rows == data && rows >= 270, "%s: %d cases of %d lines, want the 270 the engine answered",
          tsv, rows, data);
}

int main(int argc, char **argv) {
    regressions(argc > 1 ? argv[1] : "tools/engines/harness/regressions");
    engine_values(argc > 2 ? argv[2] : "tools/engines/godot4.6-typed_conversions.tsv");

    /* int32_t(real_t): in range up to the largest float below 2^31, and -2^31 itself */
    expect("godot4", "Array[Vector2i]([Vector2(1.5, -2.0)])", 0, "");
    expect("godot4", "Array[Vector2i]([Vector2(2147483520.0, -2147483648.0)])", 0, "");
    expect("godot4", "Array[Vector2i]([Vector2(2147483648.0, 0.0)])", 1, "[0]");
    expect("godot4", "Array[Vector2i]([Vector2(0.0, -inf)])", 1, "[0]");
    expect("godot4", "Array[Vector3i]([Vector3(0.0, 4.397412e+36, -0.0)])", 1, "[0]");
    expect("godot4", "Array[Vector4i]([Vector4(nan, 0.0, 0.0, 0.0)])", 1, "[0]");
    expect("godot4", "Array[Rect2i]([Rect2(0.0, 0.0, 1e+10, 1.0)])", 1, "[0]");
    /* one count per element converted, the first event at the first */
    expect("godot4", "Array[Vector2i]([Vector2(1.0, 2.0), Vector2(nan, 1.0), Vector2(inf, inf)])",
           2, "[1]");
    /* int64_t(double): -2^63 is in range, 2^63 is not */
    expect("godot4", "Array[int]([-9223372036854775808.0])", 0, "");
    expect("godot4", "Array[int]([9223372036854775808.0])", 1, "[0]");
    expect("godot4", "Array[int]([1e+300, 2.5, nan])", 2, "[0]");
    /* an Array made a packed array: uint8_t, int32_t and int64_t of each float */
    expect("godot4", "Array[PackedByteArray]([[255.9, -0.9, 7]])", 0, "");
    expect("godot4", "Array[PackedByteArray]([[256.0]])", 1, "[0]");
    expect("godot4", "Array[PackedByteArray]([[-1.0]])", 1, "[0]");
    expect("godot4", "Array[PackedInt32Array]([[2147483647.0, 3000000000.0]])", 1, "[0]");
    expect("godot4", "Array[PackedInt64Array]([[-inf]])", 1, "[0]");
    expect("godot4", "Array[PackedFloat32Array]([[1e+300]])", 0, ""); /* a float stays a float */
    /* Basis(Quaternion): length_squared() in real_t */
    expect("godot4", "Array[Basis]([Quaternion(0.0, 0.0, 0.0, 1.0)])", 0, "");
    expect("godot4", "Array[Basis]([Quaternion(0.0, 0.0, 0.0, 0.0)])", 1, "[0]");
    expect("godot4", "Array[Transform3D]([Quaternion(0.0, -0.0, 0.0, 0.0)])", 1, "[0]");
    expect("godot4", "Array[Basis]([Quaternion(1e-30, 0.0, 0.0, 0.0)])", 1, "[0]");
    expect("godot4-double", "Array[Basis]([Quaternion(1e-30, 0.0, 0.0, 0.0)])", 0, "");
    /* a typed Dictionary's keys are converted too */
    expect("godot4", "Dictionary[Vector2i, Variant]({Vector2(inf, 0.0): 1})", 1, "{#0 key}");
    /* an element converted, then dropped by its own container: the engine still converted it */
    expect("godot4", "Array[int]([Array[Vector2i]([Vector2(inf, nan)])])", 1, "[0][0]");
    /* Godot 4.3 converts no float to an integer (k_convert_validate_43): it drops them */
    expect("godot4.3", "Array[Vector2i]([Vector2(inf, nan)])", 0, "");
    /* Godot 3 has no typed containers */
    expect("godot3", "[Vector2(inf, nan)]", 0, "");

    CHECK(gdw_doc_undefined_conversions(NULL) == 0, "a NULL document has none");
    return t_finish();
}
