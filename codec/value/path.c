/* SPDX-License-Identifier: MIT */
/* path.c — the one writer of error paths (gdw_error.path, docs/library.md "Error paths").
 *
 * A path is written step by step from the top value down: [3] an array slot, {"hp"} the value
 * under a String key, {#2} the value under the third key, {#2 key} the key itself, ."name" an
 * Object property, .#1 the name of the second property. Text that comes from the input (keys,
 * property names, JSON member names) is shown escaped, at most GDW_PATH_KEY_SHOWN bytes of it:
 * printable ASCII kept, every other byte as \xHH, so no control byte of a hostile packet ever
 * reaches a terminal through an error message. Every piece stops at GDW_PATH_MAX - 1 and keeps
 * the buffer NUL-terminated. No printf: check and explain build a path for every traced header.
 */
#include "codec/value/value.h"

void gdw_path_put(char *buf, size_t *n, const char *s, size_t len) {
    if (*n >= GDW_PATH_MAX - 1) return;
    size_t room = GDW_PATH_MAX - 1 - *n;
    if (len > room) len = room;
    memcpy(buf + *n, s, len);
    *n += len;
    buf[*n] = 0;
}

void gdw_path_uint(char *buf, size_t *n, const char *before, uint32_t v, const char *after) {
    char tmp[48], digits[12];
    size_t k = 0, d = 0, bl = strlen(before), al = strlen(after);
    assert(bl + al + 10 <= sizeof tmp);
    do { digits[d++] = (char)('0' + v % 10); v /= 10; } while (v);
    memcpy(tmp, before, bl);
    k = bl;
    while (d) tmp[k++] = digits[--d];
    memcpy(tmp + k, after, al);
    gdw_path_put(buf, n, tmp, k + al);
}

void gdw_path_text(char *buf, size_t *n, const uint8_t *p, size_t len, bool quoted) {
    static const char hex[] = "0123456789abcdef";
    char tmp[GDW_PATH_KEY_SHOWN * 4 + 8];
    size_t k = 0;
    if (quoted) tmp[k++] = '"';
    for (size_t i = 0; i < len && i < GDW_PATH_KEY_SHOWN; i++) {
        uint8_t c = p[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') tmp[k++] = (char)c;
        else { tmp[k++] = '\\'; tmp[k++] = 'x'; tmp[k++] = hex[c >> 4]; tmp[k++] = hex[c & 15]; }
    }
    if (len > GDW_PATH_KEY_SHOWN) { memcpy(tmp + k, "...", 3); k += 3; }
    if (quoted) tmp[k++] = '"';
    gdw_path_put(buf, n, tmp, k);
}

void gdw_path_step(char *buf, size_t *n, gdw_path_in in, uint32_t slot, const uint8_t *key, size_t key_len) {
    switch (in) {
    case GDW_PATH_IN_ARRAY: gdw_path_uint(buf, n, "[", slot, "]"); return;
    case GDW_PATH_IN_DICT:
        if (slot % 2 == 0) gdw_path_uint(buf, n, "{#", slot / 2, " key}");
        else if (key) { gdw_path_put(buf, n, "{", 1); gdw_path_text(buf, n, key, key_len, true); gdw_path_put(buf, n, "}", 1); }
        else gdw_path_uint(buf, n, "{#", slot / 2, "}");
        return;
    case GDW_PATH_IN_OBJECT:
        if (slot % 2 == 0 || !key) gdw_path_uint(buf, n, ".#", slot / 2, "");
        else { gdw_path_put(buf, n, ".", 1); gdw_path_text(buf, n, key, key_len, true); }
        return;
    }
}

void gdw_path_child(char *buf, size_t *n, const gdw_value *parent, uint32_t slot) {
    const gdw_value *items;
    size_t count = gdw_children(parent, &items);
    unsigned k = type_info(parent->type)->kind;
    gdw_path_in in = k == K_DICT ? GDW_PATH_IN_DICT : k == K_OBJECT ? GDW_PATH_IN_OBJECT : GDW_PATH_IN_ARRAY;
    const gdw_value *key = in != GDW_PATH_IN_ARRAY && slot % 2 && slot < count ? &items[slot - 1] : NULL;
    bool text = key && (key->type == GDW_STRING || key->type == GDW_STRING_NAME);
    gdw_path_step(buf, n, in, slot, text ? key->u.bytes : NULL, text ? key->len : 0);
}
