/* SPDX-License-Identifier: MIT */
/* trace_text.c — a traced field of the input (gdw_trace_event) as one line of text: what its bytes
 * say. `gdwire explain` prints it beside the bytes, and the npm package and the page (js/, web/)
 * show the same text, so the wording lives here once. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codec/gdwire_check.h"

static bool field_is(const gdw_trace_event *ev, const char *name) {
    return strcmp(ev->field, name) == 0;
}

static bool integer_components(gdw_type t) {
    return t == GDW_VECTOR2I || t == GDW_VECTOR3I || t == GDW_VECTOR4I || t == GDW_RECT2I ||
           t == GDW_PACKED_INT32_ARRAY || t == GDW_PACKED_INT64_ARRAY ||
           t == GDW_PACKED_VECTOR2I_ARRAY || t == GDW_PACKED_VECTOR3I_ARRAY ||
           t == GDW_PACKED_VECTOR4I_ARRAY;
}

/* appends with snprintf's rules, keeping n at most cap - 1 */
#define APPEND(...) \
    do { \
        if (n + 1 < cap) { \
            int k_ = snprintf(out + n, cap - n, __VA_ARGS__); \
            if (k_ > 0) n = (size_t)k_ < cap - n ? n + (size_t)k_ : cap - 1; \
        } \
    } while (0)

size_t gdw_trace_field_text(const gdw_trace_event *ev, const uint8_t *input, char *out,
                            size_t cap) {
    if (!ev || !out || cap == 0) return 0;
    const uint8_t *p = input ? input + ev->offset : NULL;
    size_t n = 0;
    out[0] = 0;
    if (field_is(ev, "header")) {
        uint32_t h = (uint32_t)ev->number;
        APPEND("%s (type id %u",
               ev->type < GDW_TYPE_COUNT ? gdw_type_name(ev->type) : "unknown type", h & 0xFFu);
        if (h >> 8) APPEND(", flags 0x%x", h & ~0xFFu);
        APPEND(")%s%s", ev->path && ev->path[0] ? " at " : "", ev->path ? ev->path : "");
    } else if (field_is(ev, "bytes") &&
               (ev->type == GDW_PACKED_BYTE_ARRAY || ev->type == GDW_IMAGE || !p)) {
        APPEND("%zu bytes", ev->size);
    } else if (field_is(ev, "bytes")) {
        /* text as every text output shows it (gdw_text_show): UTF-8 as itself, what must be escaped
         * escaped */
        APPEND("\"");
        size_t shown = 0;
        for (size_t i = 0; i < ev->size;) {
            if (shown++ >= 48) {
                APPEND("...");
                break;
            }
            gdw_show how;
            uint32_t cp;
            size_t k = gdw_text_show(p + i, ev->size - i, &how, &cp);
            if (how == GDW_SHOW_CODE_POINT) APPEND("\\u%04x", (unsigned)cp);
            else if (how == GDW_SHOW_BYTE) {
                APPEND("\\x%02x", p[i]);
                k = 1;
            } else if (p[i] == '"' || p[i] == '\\') APPEND("\\%c", p[i]);
            else APPEND("%.*s", (int)k, (const char *)p + i);
            i += k ? k : 1;
        }
        APPEND("\"");
    } else if (field_is(ev, "padding")) {
        APPEND("to a multiple of 4");
    } else if (field_is(ev, "value") && ev->type == GDW_FLOAT) {
        gdw_real_text(out, cap, (uint64_t)ev->number, (unsigned)ev->size);
        n = strlen(out);
    } else if (field_is(ev, "value") && ev->type == GDW_BOOL) {
        APPEND("%s", ev->number == 0 ? "false" : ev->number == 1 ? "true" : "true (not 0 or 1)");
    } else if ((field_is(ev, "components") || field_is(ev, "elements")) && p) {
        unsigned w = (unsigned)ev->number;
        size_t count = w == 4 || w == 8 ? ev->size / w : 0;
        for (size_t i = 0; i < count; i++) {
            if (i >= 16) {
                APPEND(", ... (%zu in all)", count);
                break;
            }
            const uint8_t *q = p + i * w;
            uint64_t bits = 0;
            for (unsigned b = 0; b < w; b++) bits |= (uint64_t)q[b] << (8 * b);
            if (i) APPEND(", ");
            if (integer_components(ev->type))
                APPEND("%" PRId64, w == 8 ? (int64_t)bits : (int64_t)(int32_t)(uint32_t)bits);
            else {
                char t[48];
                gdw_real_text(t, sizeof t, bits, w);
                APPEND("%s", t);
            }
        }
    } else if (field_is(ev, "count") && ((uint64_t)ev->number & 0x80000000u) &&
               (ev->type == GDW_ARRAY || ev->type == GDW_DICTIONARY)) {
        APPEND("%" PRId64 " (bit 31 set: Godot 2's shared flag)", ev->number & 0x7FFFFFFF);
    } else if (field_is(ev, "name count")) {
        APPEND("%" PRId64 "%s", ev->number & 0x7FFFFFFF,
               (ev->number & 0x80000000) ? " (bit 31: new format)" : " (bit 31 clear: old format)");
    } else if (field_is(ev, "element type")) {
        APPEND("type id %" PRId64, ev->number & 0x7FFFFFFF);
    } else {
        APPEND("%" PRId64, ev->number);
    }
    return n;
}
