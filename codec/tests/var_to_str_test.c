/* SPDX-License-Identifier: MIT */
/* var_to_str_test — the text reader reads what Godot's own var_to_str writes (issue 33). For every
 * packet an engine wrote (tools/engines/ENGINE-packets.tsv), the same engine's var_to_str of it and
 * its str_to_var of that text, written again with var_to_bytes, were recorded
 * (tools/engines/var_to_str.sh -> ENGINE-var_to_str.tsv). gdwire's text reader must read each text
 * to the value the engine's str_to_var made, or else to the packet's own value: Godot's number
 * parser is not correctly rounded (it reads 3.402823466385289e+38 as FLT_MAX and 5e-324 as 0),
 * gdwire's is, so there gdwire gets back the value var_to_str was given. Texts the engine cannot
 * read back itself (Godot 3 writes a RID as nothing) are counted apart, as is Godot's Object(...)
 * form, which the reader does not take yet.
 *
 * usage: var_to_str_test DIALECT PACKETS.TSV VAR_TO_STR.TSV [DIALECT PACKETS.TSV VAR_TO_STR.TSV
 * ...] */
#include "codec/tests/testing.h"

static gdw_doc *decode_hex(const gdw_dialect *d, const char *hex) {
    size_t n = strlen(hex);
    uint8_t *b = (uint8_t *)malloc(n / 2 + 1);
    size_t bn = 0;
    gdw_doc *doc = NULL;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    if (b && !gdw_hex_decode(hex, n, b, &bn, NULL))
        gdw_decode(d, b, bn, &o, NULL, &doc, NULL, NULL);
    free(b);
    return doc;
}

static char *field(char *line, int k) { /* the k-th TAB field, NUL-terminated in place */
    for (int i = 0; i < k && line; i++) {
        line = strchr(line, '\t');
        if (line) line++;
    }
    if (!line) return NULL;
    char *e = strpbrk(line, "\t\n");
    if (e) *e = 0;
    return line;
}

static void one_engine(const char *dialect, const char *packets_tsv, const char *vts_tsv) {
    const gdw_dialect *d = t_dialect(dialect);
    FILE *pf = fopen(packets_tsv, "r"), *vf = fopen(vts_tsv, "r");
    if (!pf || !vf) {
        fprintf(stderr, "cannot open %s or %s\n", packets_tsv, vts_tsv);
        exit(2);
    }
    static char pl[1 << 17], vl[1 << 17], name_p[512];
    size_t texts = 0, as_engine = 0, as_packet = 0, engine_cannot = 0, object_form = 0;
    while (fgets(vl, sizeof vl, vf)) {
        if (vl[0] == '#') continue;
        /* the packet of the same name: the files are in the same order */
        char *pname = NULL, *phex = NULL;
        while (fgets(pl, sizeof pl, pf)) {
            if (pl[0] == '#') continue;
            char *t = strchr(pl, '\t');
            if (!t) continue;
            *t = 0;
            size_t nl = strlen(pl) < sizeof name_p - 1 ? strlen(pl) : sizeof name_p - 1;
            memcpy(name_p, pl, nl);
            name_p[nl] = 0;
            pname = name_p;
            phex = field(t + 1, 0);
            break;
        }
        char *vname = vl, *b64 = strchr(vl, '\t');
        if (!b64) continue;
        *b64++ = 0;
        char *back_hex = strchr(b64, '\t');
        if (!back_hex) continue;
        *back_hex++ = 0;
        back_hex[strcspn(back_hex, "\n")] = 0;
        CHECK(pname && strcmp(pname, vname) == 0,
              "%s: the packets and texts are not in the same order at %s", vts_tsv, vname);
        if (!pname || strcmp(pname, vname)) break;
        texts++;
        size_t bl = strlen(b64), tn = 0;
        char *text = (char *)malloc(bl / 4 * 3 + 4);
        gdw_base64_decode(b64, bl, (uint8_t *)text, &tn, NULL);
        gdw_doc *mine = NULL, *engine = decode_hex(d, back_hex), *packet = decode_hex(d, phex);
        gdw_error err;
        gdw_status s = gdw_text_parse(text, tn, NULL, &mine, &err);
        const gdw_value *e = gdw_doc_root(engine);
        const char *es = NULL;
        size_t en = 0;
        if (e && gdw_get_string(e, &es, &en) && en == tn &&
            (tn == 0 || memcmp(es, text, tn) == 0)) {
            /* str_to_var gave the text back as a String: the engine cannot read it either */
            engine_cannot++;
        } else if (tn >= 7 && memcmp(text, "Object(", 7) == 0) {
            /* read, but the engine's str_to_var makes a new instance (its own id), and the packet
             * was an Object by id: neither side's value can be the text's */
            CHECK(s == GDW_OK && gdw_doc_root(mine)->type == GDW_OBJECT,
                  "%s %s: gdwire cannot read Godot's Object form %.*s: %s", dialect, vname,
                  (int)(tn < 200 ? tn : 200), text, s ? err.message : "not an Object");
            object_form++;
        } else if (s) {
            CHECK(0, "%s %s: gdwire cannot read the engine's text %.*s: %s at %zu", dialect, vname,
                  (int)(tn < 200 ? tn : 200), text, err.message, err.offset);
        } else if (engine && gdw_value_equal(gdw_doc_root(mine), e)) {
            as_engine++;
        } else if (packet && gdw_value_equal(gdw_doc_root(mine), gdw_doc_root(packet))) {
            as_packet++;
        } else {
            CHECK(0, "%s %s: gdwire reads %.*s as neither the engine's str_to_var nor the packet",
                  dialect, vname, (int)(tn < 200 ? tn : 200), text);
        }
        gdw_doc_free(mine);
        gdw_doc_free(engine);
        gdw_doc_free(packet);
        free(text);
    }
    fclose(pf);
    fclose(vf);
    CHECK(texts > 200 && as_engine + as_packet + engine_cannot + object_form == texts,
          "%s: %zu texts", vts_tsv, texts);
    CHECK(engine_cannot <= 2 && object_form <= 1 && as_packet <= 4,
          "%s: more exceptions than known: %zu, %zu, %zu", vts_tsv, engine_cannot, object_form,
          as_packet);
    printf("%s: %zu texts var_to_str wrote: %zu read as the engine's str_to_var reads them, %zu as "
           "the value var_to_str was given "
           "(where the engine's number parser rounds), %zu the engine cannot read back itself, %zu "
           "in Godot's Object(...) form (read; the engine makes a new instance)\n",
           vts_tsv, texts, as_engine, as_packet, engine_cannot, object_form);
}

int main(int argc, char **argv) {
    if (argc < 4 || (argc - 1) % 3) {
        fprintf(stderr, "usage: var_to_str_test DIALECT PACKETS.TSV VAR_TO_STR.TSV ...\n");
        return 2;
    }
    for (int i = 1; i + 2 < argc; i += 3) one_engine(argv[i], argv[i + 1], argv[i + 2]);
    return t_finish();
}
