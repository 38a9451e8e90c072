/* SPDX-License-Identifier: MIT */
/* plain_json_test — plain JSON both ways (issue 33; docs/json.md "Plain JSON"): what JSON says as
 * itself is printed as itself, everything else wrapped in {"$gdwire": ...}, and every packet the
 * engines wrote reads back from its plain JSON to the same value and the same bytes.
 *
 * usage: plain_json_test GODOT3.2-PACKETS.TSV GODOT4.6-PACKETS.TSV */
#include "codec/tests/testing.h"

static char *plain(const char *dialect, const char *hex, unsigned flags) {
    uint8_t buf[256];
    size_t n = t_unhex(hex, buf, sizeof buf);
    char *json = NULL;
    size_t len = 0;
    gdw_error err;
    gdw_status s = gdw_decode_json(t_dialect(dialect), buf, n, NULL, GDW_JSON_PLAIN | flags, NULL,
                                   &json, &len, &err);
    if (s) {
        fprintf(stderr, "decode %s: %s\n", hex, err.message);
        exit(2);
    }
    return json;
}

static void expect(const char *dialect, const char *hex, unsigned flags, const char *want) {
    char *got = plain(dialect, hex, flags);
    CHECK(strcmp(got, want) == 0, "%s %s:\n   got %s\n  want %s", dialect, hex, got, want);
    free(got);
}

static void printing(void) {
    /* {"hp": 1, "name": "x", "pos": Vector2(1.5, -2)} in godot4 */
    expect("godot4",
           "1b000000 03000000 04000000 02000000 68700000 02000000 01000000 04000000 04000000 "
           "6e616d65 04000000 01000000 78000000"
           " 04000000 03000000 706f7300 05000000 0000c03f 000000c0",
           0,
           "{\"hp\":1,\"name\":\"x\",\"pos\":{\"$gdwire\":{\"type\":\"Vector2\",\"width\":4,"
           "\"value\":[1.5,-2.0]}}}");
    expect("godot4", "00000000", 0, "null");
    expect("godot4", "01000000 01000000", 0, "true");
    /* f32 0.1 is the double nearest that f32; its shortest double text reads back to f32 0.1 */
    expect("godot4", "03000000 cdcccc3d", 0, "0.10000000149011612");
    expect("godot4", "03000100 9a9999999999b93f", 0, "0.1"); /* f64 0.1 */
    /* a float stays a float */
    expect("godot4", "03000000 0000803f", 0, "1.0");
    /* 0.5 as f64: not the width chosen */
    expect("godot4", "03000100 000000000000e03f", 0,
           "{\"$gdwire\":{\"type\":\"float\",\"width\":8,\"value\":0.5}}");
    expect("godot4", "03000000 0000c07f", 0,
           "{\"$gdwire\":{\"type\":\"float\",\"width\":4,\"value\":\"nan\"}}");
    /* 2^53 + 1: a number, exact in the text */
    expect("godot4", "02000100 0100000000002000", 0, "9007199254740993");
    expect("godot4", "02000100 0100000000002000", GDW_JSON_BIG_INTS_AS_STRINGS,
           "\"9007199254740993\"");
    /* 2^53 itself: a number */
    expect("godot4", "02000100 0000000000002000", GDW_JSON_BIG_INTS_AS_STRINGS, "9007199254740992");
    /* [1, [], {}] */
    expect("godot4", "1c000000 03000000 02000000 01000000 1c000000 00000000 1b000000 00000000", 0,
           "[1,[],{}]");
    /* keys that JSON cannot say: an int key, a StringName key, two alike, "$gdwire" */
    expect("godot4", "1b000000 01000000 02000000 07000000 02000000 01000000", 0,
           "{\"$gdwire\":{\"type\":\"Dictionary\",\"value\":[[{\"type\":\"int\",\"value\":7},{"
           "\"type\":\"int\",\"value\":1}]]}}");
    expect("godot4", "1b000000 01000000 15000000 01000000 6b000000 02000000 01000000", 0,
           "{\"$gdwire\":{\"type\":\"Dictionary\",\"value\":[[{\"type\":\"StringName\",\"value\":"
           "\"k\"},{\"type\":\"int\",\"value\":1}]]}}");
    expect("godot4",
           "1b000000 02000000 04000000 01000000 6b000000 02000000 01000000 04000000 01000000 "
           "6b000000 02000000 02000000",
           0,
           "{\"$gdwire\":{\"type\":\"Dictionary\",\"value\":[[{\"type\":\"String\",\"value\":\"k\"}"
           ",{\"type\":\"int\",\"value\":1}],"
           "[{\"type\":\"String\",\"value\":\"k\"},{\"type\":\"int\",\"value\":2}]]}}");
    expect("godot4", "1b000000 01000000 04000000 07000000 24676477 69726500 00000000", 0,
           "{\"$gdwire\":{\"type\":\"Dictionary\",\"value\":[[{\"type\":\"String\",\"value\":\"$"
           "gdwire\"},{\"type\":\"Nil\"}]]}}");
    /* a typed Array: its type would be lost */
    expect("godot4", "1c000100 02000000 01000000 02000000 05000000", 0,
           "{\"$gdwire\":{\"type\":\"Array\",\"element_type\":\"int\",\"value\":[{\"type\":\"int\","
           "\"value\":5}]}}");
    /* a String that is not UTF-8 */
    /* Godot 2 reads it */
    expect("mole", "04000000 01000000 ff000000", 0,
           "{\"$gdwire\":{\"type\":\"String\",\"base64\":\"/w==\"}}");
}

static void reading(void) {
    static const struct {
        const char *json, *text;
    } cases[] = {
        {"{\"cmd\": \"move\", \"to\": [1, 2.5], \"ok\": true, \"none\": null}",
         "{\"cmd\": \"move\", \"to\": [1, 2.5], \"ok\": true, \"none\": null}"},
        {"0.1", "0.1"},
        {"0.10000000149011612", "0.10000000149011612"},
        {"1e3", "1000.0"},
        {"-0", "0"},
        {"{\"$gdwire\": {\"type\": \"Vector2\", \"value\": [1, 2]}}", "Vector2(1.0, 2.0)"},
        {"[{\"$gdwire\": {\"type\": \"StringName\", \"value\": \"a\"}}, {\"$gdwire\": {\"type\": "
         "\"Array\", \"value\": [{\"type\": \"int\", \"value\": 1}]}}]",
         "[&\"a\", [1]]"},
        {"{\"k\": 1, \"k\": 2}", "{\"k\": 1, \"k\": 2}"},
        /* not alone: a plain member */
        {"{\"$gdwire\": 1, \"x\": 2}", "{\"$gdwire\": 1, \"x\": 2}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gdw_doc *doc = NULL;
        gdw_error err;
        gdw_status s = gdw_json_parse_plain(cases[i].json, strlen(cases[i].json), NULL, &doc, &err);
        char text[512] = "";
        if (!s) gdw_text_print(gdw_doc_root(doc), text, sizeof text);
        CHECK(s == GDW_OK && strcmp(text, cases[i].text) == 0, "%s: %s, got %s (want %s)",
              cases[i].json, s ? err.message : "ok", text, cases[i].text);
        gdw_doc_free(doc);
    }
    static const struct {
        const char *json;
        size_t offset;
        const char *path;
    } bad[] = {
        {"[1, 9223372036854775808]", 4, "[1]"},
        {"{\"a\": {\"$gdwire\": {\"type\": \"Vector9\"}}}", 27, ".a.$gdwire.type"},
        {"{\"a\": [1,}", 9, ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gdw_doc *doc = NULL;
        gdw_error err;
        gdw_status s = gdw_json_parse_plain(bad[i].json, strlen(bad[i].json), NULL, &doc, &err);
        CHECK(s == GDW_ERR_SYNTAX && err.offset == bad[i].offset &&
                  (!bad[i].path[0] || strcmp(err.path, bad[i].path) == 0),
              "%s: %s at %zu %s (want offset %zu %s)", bad[i].json, gdw_status_name(s), err.offset,
              err.path, bad[i].offset, bad[i].path);
        gdw_doc_free(doc);
    }
}

/* Every packet an engine wrote: decoded, printed plain, read back: the same value, the same bytes.
 * */
static void engine_packets(const char *tsv, const char *dialect) {
    FILE *f = fopen(tsv, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", tsv);
        exit(2);
    }
    static char line[1 << 16];
    size_t n_packets = 0, n_plain = 0, n_same = 0, n = 0;
    static uint8_t buf[1 << 15];
    const char *hex;
    while ((hex = t_tsv_packet(f, line, sizeof line, buf, sizeof buf, &n))) {
        gdw_doc *doc = NULL;
        if (gdw_decode(t_dialect(dialect), buf, n, NULL, NULL, &doc, NULL, NULL) != GDW_OK)
            continue;
        n_packets++;
        size_t jl = 0;
        char *json = gdw_json_print_plain_alloc(gdw_doc_root(doc), 0, NULL, &jl);
        if (!strstr(json, "$gdwire")) n_plain++;
        gdw_doc *back = NULL;
        gdw_error err;
        gdw_status s = gdw_json_parse_plain(json, jl, NULL, &back, &err);
        bool same = !s && gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(back));
        CHECK(same, "%s %s: plain %s read back %s", dialect, hex, json,
              s ? err.message : "as another value");
        uint8_t *a = NULL, *b = NULL;
        size_t an = 0, bn = 0;
        if (same) {
            gdw_encode_alloc(t_dialect(dialect), gdw_doc_root(doc), NULL, NULL, &a, &an, NULL);
            gdw_encode_alloc(t_dialect(dialect), gdw_doc_root(back), NULL, NULL, &b, &bn, NULL);
            n_same += an == bn && (an == 0 || memcmp(a, b, an) == 0);
        }
        free(a);
        free(b);
        free(json);
        gdw_doc_free(back);
        gdw_doc_free(doc);
    }
    fclose(f);
    CHECK(n_packets > 100 && n_same == n_packets, "%s: %zu packets, %zu write the same bytes back",
          dialect, n_packets, n_same);
    printf("%s: %zu engine packets, %zu plain all through, every one read back to the same value "
           "and bytes: %s\n",
           tsv, n_packets, n_plain, n_same == n_packets ? "yes" : "NO");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: plain_json_test GODOT3.2-PACKETS.TSV GODOT4.6-PACKETS.TSV\n");
        return 2;
    }
    printing();
    reading();
    engine_packets(argv[1], "godot3@3.2");
    engine_packets(argv[2], "godot4");
    return t_finish();
}
