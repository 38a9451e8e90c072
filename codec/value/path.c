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
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
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
        else {
            tmp[k++] = '\\';
            tmp[k++] = 'x';
            tmp[k++] = hex[c >> 4];
            tmp[k++] = hex[c & 15];
        }
    }
    if (len > GDW_PATH_KEY_SHOWN) {
        memcpy(tmp + k, "...", 3);
        k += 3;
    }
    if (quoted) tmp[k++] = '"';
    gdw_path_put(buf, n, tmp, k);
}

void gdw_path_step(char *buf, size_t *n, gdw_path_in in, uint32_t slot, const uint8_t *key,
                   size_t key_len) {
    switch (in) {
    case GDW_PATH_IN_ARRAY: gdw_path_uint(buf, n, "[", slot, "]"); return;
    case GDW_PATH_IN_DICT:
        if (slot % 2 == 0) gdw_path_uint(buf, n, "{#", slot / 2, " key}");
        else if (key) {
            gdw_path_put(buf, n, "{", 1);
            gdw_path_text(buf, n, key, key_len, true);
            gdw_path_put(buf, n, "}", 1);
        } else gdw_path_uint(buf, n, "{#", slot / 2, "}");
        return;
    case GDW_PATH_IN_OBJECT:
        if (slot % 2 == 0 || !key) gdw_path_uint(buf, n, ".#", slot / 2, "");
        else {
            gdw_path_put(buf, n, ".", 1);
            gdw_path_text(buf, n, key, key_len, true);
        }
        return;
    }
}

void gdw_path_child(char *buf, size_t *n, const gdw_value *parent, uint32_t slot) {
    const gdw_value *items;
    size_t count = gdw_children(parent, &items);
    unsigned k = type_info(parent->type)->kind;
    gdw_path_in in = k == K_DICT     ? GDW_PATH_IN_DICT
                     : k == K_OBJECT ? GDW_PATH_IN_OBJECT
                                     : GDW_PATH_IN_ARRAY;
    const gdw_value *key = in != GDW_PATH_IN_ARRAY && slot % 2 && slot < count ? &items[slot - 1]
                                                                               : NULL;
    bool text = key && (key->type == GDW_STRING || key->type == GDW_STRING_NAME);
    gdw_path_step(buf, n, in, slot, text ? key->u.bytes : NULL, text ? key->len : 0);
}

/* ---- hex digits ---------------------------------------------------------------------------- */

/* The one reader of a hex digit in gdwire: a path's \x escapes, the text form's \x escapes and NaN
 * payloads, JSON's \u escapes, Color's html form (engine/conversions.c) and hex text (forms/hex.c).
 * */
int gdw_hex_digit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ---- reading a path back (gdw_path_get) ------------------------------------------------------ */

static bool path_number(const char *p, size_t len, size_t *i, uint32_t *out) {
    uint64_t v = 0;
    size_t start = *i;
    while (*i < len && p[*i] >= '0' && p[*i] <= '9' && v <= UINT32_MAX)
        v = v * 10 + (uint64_t)(p[(*i)++] - '0');
    if (*i == start || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

/* A quoted key as the writer shows it: printable ASCII, \xHH for every other byte, into
 * out[0..cap); its length, or -1. */
static long path_quoted(const char *p, size_t len, size_t *i, uint8_t *out, size_t cap) {
    if (*i >= len || p[*i] != '"') return -1;
    size_t k = 0;
    for ((*i)++; *i < len && k < cap; (*i)++) {
        char c = p[*i];
        if (c == '"') {
            (*i)++;
            return (long)k;
        }
        if (c == '\\') {
            int h = *i + 3 < len && p[*i + 1] == 'x' ? gdw_hex_digit((unsigned char)p[*i + 2]) : -1;
            int l = h >= 0 ? gdw_hex_digit((unsigned char)p[*i + 3]) : -1;
            if (l < 0) return -1;
            out[k++] = (uint8_t)(h * 16 + l);
            *i += 3;
        } else out[k++] = (uint8_t)c;
    }
    return -1;
}

const gdw_value *gdw_path_get(const gdw_value *root, const char *path, size_t len, size_t *bad_at) {
    const gdw_value *v = root;
    size_t i = 0, step = 0;
    uint8_t key[GDW_PATH_MAX * 2]; /* a key typed longer than any path is written is not found */
    if (bad_at) *bad_at = 0;
    if (!root || (!path && len)) return NULL;
    while (v && i < len) {
        step = i;
        const gdw_value *items;
        size_t n = gdw_children(v, &items);
        unsigned kind = v->type < GDW_TYPE_COUNT ? (unsigned)type_info(v->type)->kind
                                                 : (unsigned)K_NIL;
        const gdw_value *next = NULL;
        uint32_t slot;
        if (path[i] == '[' && (kind == K_ARRAY || kind == K_TYPED_ARRAY)) {
            i++;
            if (path_number(path, len, &i, &slot) && i < len && path[i] == ']' && slot < n) {
                i++;
                next = &items[slot];
            }
        } else if (path[i] == '{' && kind == K_DICT) {
            i++;
            if (i < len && path[i] == '#') {
                i++;
                if (path_number(path, len, &i, &slot) && 2 * (size_t)slot + 1 < n) {
                    if (i + 5 <= len && memcmp(path + i, " key}", 5) == 0) {
                        i += 5;
                        next = &items[2 * slot];
                    } else if (i < len && path[i] == '}') {
                        i++;
                        next = &items[2 * slot + 1];
                    }
                }
            } else {
                long kl = path_quoted(path, len, &i, key, sizeof key);
                if (kl >= 0 && i < len && path[i] == '}') {
                    i++;
                    for (size_t k = 0; k + 1 < n && !next; k += 2) {
                        const gdw_value *kv = &items[k];
                        if ((kv->type == GDW_STRING || kv->type == GDW_STRING_NAME) &&
                            kv->len == (uint32_t)kl &&
                            (kl == 0 || memcmp(kv->u.bytes, key, (size_t)kl) == 0))
                            next = &items[k + 1];
                    }
                }
            }
        } else if (path[i] == '.' && kind == K_OBJECT) {
            i++;
            if (i < len && path[i] == '#') {
                i++;
                if (path_number(path, len, &i, &slot) && 2 * (size_t)slot < n)
                    next = &items[2 * slot];
            } else {
                long kl = path_quoted(path, len, &i, key, sizeof key);
                for (size_t k = 0; kl >= 0 && k + 1 < n && !next; k += 2)
                    if (items[k].len == (uint32_t)kl &&
                        (kl == 0 || memcmp(items[k].u.bytes, key, (size_t)kl) == 0))
                        next = &items[k + 1];
            }
        }
        v = next;
    }
    if (!v && bad_at) *bad_at = step;
    return v;
}

void gdw_path_push(char *path, size_t *len, const gdw_value *parent, size_t slot) {
    if (!path || !len || !parent || *len >= GDW_PATH_MAX || slot > UINT32_MAX) return;
    gdw_path_child(path, len, parent, (uint32_t)slot);
}
