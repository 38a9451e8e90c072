/* SPDX-License-Identifier: MIT */
/* locale_test LOCALE — the text and JSON forms do not depend on LC_NUMERIC: under a locale whose
 * decimal point is ',' (a host program that called setlocale(LC_ALL, "")), every text parses to
 * the value it has in the C locale and prints the same text. Fails when the locale cannot be set
 * or does not use ',' (locale_test.sh makes de_DE.UTF-8 with localedef). */
#include <locale.h>

#include "codec/tests/testing.h"

static const char *k_texts[] = {
    "0.5",
    "f64:0.1",
    "-2.25e-07",
    "f32:3.4028235e+38",
    "[1.5, -0.0, 1e+16, 123456.75]",
    "Vector2(1.5, -2.0)",
    "f64:Transform2D(0.1, 0.2, 0.3, 0.4, 0.5, 0.6)",
    "PackedFloat64Array(0.1, 1e+300, 2.5e-300)",
    "{\"pos\": Color(0.25, 0.5, 0.75, 1.0), \"speed\": f64:3.3333333333333335}",
};
#define N (sizeof k_texts / sizeof k_texts[0])

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "de_DE.UTF-8";
    char *c_text[N], *c_json[N];
    gdw_doc *c_doc[N];
    for (size_t i = 0; i < N; i++) { /* the C locale's reading is the reference */
        CHECK(gdw_text_parse(k_texts[i], strlen(k_texts[i]), NULL, &c_doc[i], NULL) == GDW_OK,
              "C locale: %s", k_texts[i]);
        c_text[i] = gdw_text_print_alloc(gdw_doc_root(c_doc[i]), NULL, NULL);
        c_json[i] = gdw_json_print_alloc(gdw_doc_root(c_doc[i]), NULL, NULL);
    }
    if (!setlocale(LC_ALL, name)) {
        CHECK(0, "cannot set the locale %s", name);
        return t_finish();
    }
    CHECK(strcmp(localeconv()->decimal_point, ",") == 0, "%s: decimal point '%s', not ','", name,
          localeconv()->decimal_point);
    char *end;
    (void)strtod("1.5", &end);
    CHECK(*end == '.', "strtod reads '1.5' whole under %s: the hazard this test is about is absent",
          name);
    for (size_t i = 0; i < N; i++) {
        gdw_doc *doc = NULL;
        gdw_error err;
        gdw_status s = gdw_text_parse(k_texts[i], strlen(k_texts[i]), NULL, &doc, &err);
        CHECK(s == GDW_OK && gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(c_doc[i])),
              "%s: %s reads %s (%s)", name, k_texts[i], s ? "nothing" : "another value",
              s ? err.message : "");
        if (s) continue;
        char *t = gdw_text_print_alloc(gdw_doc_root(doc), NULL, NULL),
             *j = gdw_json_print_alloc(gdw_doc_root(doc), NULL, NULL);
        CHECK(t && strcmp(t, c_text[i]) == 0, "%s: prints %s, the C locale %s", name, t, c_text[i]);
        CHECK(j && strcmp(j, c_json[i]) == 0, "%s: JSON %s, the C locale %s", name, j, c_json[i]);
        gdw_doc *back = NULL;
        CHECK(gdw_json_parse(j, strlen(j), NULL, &back, NULL) == GDW_OK &&
                  gdw_value_equal(gdw_doc_root(back), gdw_doc_root(doc)),
              "%s: the JSON form does not read back: %s", name, j);
        gdw_doc_free(back);
        free(t);
        free(j);
        gdw_doc_free(doc);
    }
    for (size_t i = 0; i < N; i++) {
        free(c_text[i]);
        free(c_json[i]);
        gdw_doc_free(c_doc[i]);
    }
    return t_finish();
}
