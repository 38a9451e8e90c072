/* SPDX-License-Identifier: MIT */
/* convert_test — gdw_convert, the table of docs/convert.md row by row: a value (in the text form)
 * made to fit another dialect gives the stated value, silently where nothing is lost; a lossy
 * change fails with its code and the path of the value, or with lossy set is made and reported
 * once per place, in walk order; the converted value encodes in its dialect and reads back as
 * itself; and converting into any dialect a value that every dialect holds is the identity. */
#include "codec/tests/testing.h"

typedef struct reported {
    int n;
    gdw_status codes[8];
    char paths[8][GDW_PATH_MAX];
} reported;

static void on_report(void *ctx, const gdw_error *where) {
    reported *r = ctx;
    if (r->n < 8) {
        r->codes[r->n] = where->code;
        snprintf(r->paths[r->n], sizeof r->paths[r->n], "%s", where->path);
    }
    r->n++;
}

typedef struct ccase {
    const char *in, *to;
    const char *out;       /* the converted value's text; NULL when the strict conversion fails */
    gdw_status code;       /* the strict conversion's error, GDW_OK when it is lossless */
    const char *path;      /* where it fails */
    const char *lossy_out; /* with lossy: the value (NULL: as out) */
    int reports;           /* with lossy: how many places are reported */
} ccase;

static const ccase k_cases[] = {
    /* the same thing under another name: no loss, no report */
    {"PackedRealArray(1.5, 2.0)", "godot4", "PackedFloat32Array(1.5, 2.0)", GDW_OK, "", NULL, 0},
    {"PackedFloat32Array(1.5, 2.0)", "godot3", "PackedRealArray(1.5, 2.0)", GDW_OK, "", NULL, 0},
    {"[1, \"a\", {\"k\": Vector2(1.0, 2.0)}]", "mole", "[1, \"a\", {\"k\": Vector2(1.0, 2.0)}]",
     GDW_OK, "", NULL, 0},
    /* nearest counterparts: lossy */
    {"Vector2i(1, 2)", "godot3", NULL, GDW_ERR_LOSSY, "", "Vector2(1.0, 2.0)", 1},
    {"[Vector3i(1, 2, 3)]", "godot3", NULL, GDW_ERR_LOSSY, "[0]", "[Vector3(1.0, 2.0, 3.0)]", 1},
    {"{\"r\": Rect2i(1, 2, 3, 4)}", "mole", NULL, GDW_ERR_LOSSY, "{\"r\"}",
     "{\"r\": Rect2(1.0, 2.0, 3.0, 4.0)}", 1},
    {"&\"player\"", "godot3", NULL, GDW_ERR_LOSSY, "", "\"player\"", 1},
    {"PackedInt64Array(1, 2)", "godot3", NULL, GDW_ERR_LOSSY, "", "PackedInt32Array(1, 2)", 1},
    {"PackedVector2iArray(1, 2)", "godot3", NULL, GDW_ERR_LOSSY, "", "PackedVector2Array(1.0, 2.0)",
     1},
    /* no counterpart: the value becomes null */
    {"[1, Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)]", "godot3", NULL,
     GDW_ERR_UNSUPPORTED_TYPE, "[1]", "[1, null]", 1},
    {"Image(4, 0, 1, 1, PackedByteArray(255, 0, 0, 255))", "godot4", NULL, GDW_ERR_UNSUPPORTED_TYPE,
     "", "null", 1},
    {"[InputEvent(3, 0, 16, 1)]", "godot3", NULL, GDW_ERR_UNSUPPORTED_TYPE, "[0]", "[null]", 1},
    /* every place is reported, in walk order */
    {"[Vector2i(1, 2), {\"a\": &\"s\", \"b\": [Vector3i(0, 0, 0)]}]", "godot3", NULL, GDW_ERR_LOSSY,
     "[0]", "[Vector2(1.0, 2.0), {\"a\": \"s\", \"b\": [Vector3(0.0, 0.0, 0.0)]}]", 3},
    /* Pandemonium's TypedArray: typed where the target types its Arrays, else untyped */
    /* (another type, so lossy even where the element type stays; where it goes, a second report) */
    {"TypedArray[int]([1, 2])", "godot4", NULL, GDW_ERR_LOSSY, "", "Array[int]([1, 2])", 1},
    {"TypedArray[int]([1, 2])", "godot3", NULL, GDW_ERR_LOSSY, "", "[1, 2]", 2},
    /* an Object's property values are converted, its names kept */
    {"Object(\"Node\", {\"p\": Vector2i(1, 2)})", "godot3", NULL, GDW_ERR_LOSSY, ".\"p\"",
     "Object(\"Node\", {\"p\": Vector2(1.0, 2.0)})", 1},
};

static const char *text_of(const gdw_value *v, char *buf, size_t cap) {
    gdw_text_print(v, buf, cap);
    return buf;
}

int main(void) {
    char got[512];
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        const ccase *c = &k_cases[i];
        gdw_doc *src = NULL, *out = NULL;
        gdw_error e;
        if (gdw_text_parse(c->in, strlen(c->in), NULL, &src, &e)) {
            CHECK(0, "parse %s: %s", c->in, e.message);
            continue;
        }
        /* strict: lossless, or the first loss fails with its code and path */
        gdw_status s = gdw_convert(gdw_doc_root(src), t_dialect(c->to), NULL, NULL, &out, &e);
        CHECK(s == c->code, "%s to %s: %s, want %s", c->in, c->to, gdw_status_name(s),
              gdw_status_name(c->code));
        if (s == GDW_OK && c->out)
            CHECK(!strcmp(text_of(gdw_doc_root(out), got, sizeof got), c->out),
                  "%s to %s: %s, want %s", c->in, c->to, got, c->out);
        if (s != GDW_OK) {
            CHECK(out == NULL, "%s to %s: a failed conversion leaves a document", c->in, c->to);
            CHECK(!strcmp(e.path, c->path), "%s to %s: fails at '%s', want '%s'", c->in, c->to,
                  e.path, c->path);
        }
        gdw_doc_free(out);
        out = NULL;
        /* lossy: made, each place reported once */
        reported r = {0};
        gdw_convert_options o = gdw_convert_options_default();
        o.lossy = true;
        o.report = on_report;
        o.report_ctx = &r;
        s = gdw_convert(gdw_doc_root(src), t_dialect(c->to), &o, NULL, &out, &e);
        const char *want = c->lossy_out ? c->lossy_out : c->out;
        CHECK(s == GDW_OK, "%s to %s, lossy: %s", c->in, c->to, gdw_status_name(s));
        if (s == GDW_OK)
            CHECK(!strcmp(text_of(gdw_doc_root(out), got, sizeof got), want),
                  "%s to %s, lossy: %s, want %s", c->in, c->to, got, want);
        CHECK(r.n == c->reports, "%s to %s, lossy: %d places reported, want %d", c->in, c->to, r.n,
              c->reports);
        if (r.n >= 1 && c->code != GDW_OK)
            CHECK(r.codes[0] == c->code && !strcmp(r.paths[0], c->path),
                  "%s to %s, lossy: first report %s at '%s'", c->in, c->to,
                  gdw_status_name(r.codes[0]), r.paths[0]);
        /* the converted value encodes in its dialect and reads back as itself */
        if (s == GDW_OK) {
            const gdw_dialect *d = t_dialect(c->to);
            uint8_t *bytes = NULL;
            size_t len = 0;
            gdw_encode_options eo = gdw_encode_options_default();
            eo.lossy = true;
            gdw_status es = gdw_encode_alloc(d, gdw_doc_root(out), &eo, NULL, &bytes, &len, NULL);
            CHECK(es == GDW_OK, "%s to %s: the converted value does not encode: %s", c->in, c->to,
                  gdw_status_name(es));
            gdw_doc *back = NULL;
            gdw_decode_options dop = gdw_decode_options_default();
            dop.allow_objects = true;
            if (es == GDW_OK &&
                gdw_decode(d, bytes, len, &dop, NULL, &back, NULL, NULL) == GDW_OK) {
                char again[512];
                CHECK(!strcmp(text_of(gdw_doc_root(back), again, sizeof again), want),
                      "%s to %s: reads back as %s", c->in, c->to, again);
            } else if (es == GDW_OK)
                CHECK(0, "%s to %s: the encoded copy does not decode", c->in, c->to);
            gdw_doc_free(back);
            free(bytes);
        }
        gdw_doc_free(out);
        gdw_doc_free(src);
    }
    /* every dialect into itself is the identity, on a value each can hold */
    {
        const char *text =
            "[null, true, 7, 1.5, \"s\", Vector2(1.0, 2.0), {\"k\": [PackedByteArray(1, 2)]}]";
        gdw_doc *src = NULL;
        CHECK(gdw_text_parse(text, strlen(text), NULL, &src, NULL) == GDW_OK, "parse");
        for (size_t i = 0; src && i < gdw_dialect_count(); i++) {
            gdw_doc *out = NULL;
            gdw_status s = gdw_convert(gdw_doc_root(src), gdw_dialect_at(i), NULL, NULL, &out,
                                       NULL);
            CHECK(s == GDW_OK && !strcmp(text_of(gdw_doc_root(out), got, sizeof got), text),
                  "into %s: %s %s", gdw_dialect_name(gdw_dialect_at(i)), gdw_status_name(s), got);
            gdw_doc_free(out);
        }
        gdw_doc_free(src);
    }
    return t_finish();
}
