// SPDX-License-Identifier: MIT
// amalgamation_test.cpp — gdwire.h from C++: builds the reply of examples/reply.c with the builder,
// encodes it for Godot 4 and prints the bytes in hex (the engine's own bytes are
// examples/reply-godot4.hex), then decodes them back and prints the text form.
#include <cstdio>
#include <cstdlib>

#include "gdwire.h"

int main() {
    gdw_builder *b = gdw_builder_new(nullptr);
    const double pos[] = {3, 4};
    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "ok");  gdw_build_bool(b, true);
    gdw_build_cstring(b, "id");  gdw_build_int(b, 7);
    gdw_build_cstring(b, "pos"); gdw_build_math(b, GDW_VECTOR2, pos, 2, 0);
    gdw_build_cstring(b, "eta"); gdw_build_float(b, 5.0 / 3.0);
    gdw_build_cstring(b, "msg"); gdw_build_cstring(b, "running");
    gdw_build_end(b);
    gdw_doc *doc = nullptr;
    gdw_error err;
    if (gdw_build_finish(b, &doc, &err) != GDW_OK) { std::fprintf(stderr, "build: %s\n", err.message); return 1; }
    gdw_builder_free(b);
    const gdw_dialect *d = gdw_dialect_find("godot4");
    uint8_t *bytes = nullptr;
    size_t n = 0;
    if (gdw_encode_alloc(d, gdw_doc_root(doc), nullptr, nullptr, &bytes, &n, &err) != GDW_OK) return 1;
    for (size_t i = 0; i < n; i++) std::printf("%02x", bytes[i]);
    std::printf("\n");
    gdw_doc *back = nullptr;
    if (gdw_decode(d, bytes, n, nullptr, nullptr, &back, nullptr, &err) != GDW_OK) return 1;
    char *text = gdw_text_print_alloc(gdw_doc_root(back), NULL, NULL);
    std::printf("%s\n%s %u\n", text, gdw_version(), gdw_version_number());
    std::free(text);
    std::free(bytes);
    gdw_doc_free(back);
    gdw_doc_free(doc);
    return 0;
}
