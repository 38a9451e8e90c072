/* SPDX-License-Identifier: MIT */
/* nodepath.c — a NodePath's text split into its names and subnames: the one skeleton the three
 * readers of such text share, each with its rules: the text form (^"a/b:c", docs/text-format.md),
 * Godot 2's old NodePath string on the wire (2.0-2.1.4, wire/decode.c) and Godot 4's
 * NodePath(String) in engine-exact conversions (engine/typed.c). */
#include "codec/value/value.h"

static bool split_fails(gdw_nodepath_split *out, size_t at, const char *why) {
    out->bad_at = at;
    out->why = why;
    return false;
}

bool gdw_nodepath_split_text(const uint8_t *p, size_t n, const gdw_nodepath_rules *r,
                             gdw_str *parts, gdw_nodepath_split *out) {
    /* parts has room for the parts the path keeps, so a path the rules empty writes none */
    if (parts && (!gdw_nodepath_split_text(p, n, r, NULL, out) || out->names + out->subnames == 0))
        return !out->why;
    memset(out, 0, sizeof *out);
    bool absolute = n > 0 && p[0] == '/', emptied = false;
    const uint8_t *colon = n ? (const uint8_t *)memchr(p, ':', n) : NULL;
    size_t cut = colon ? (size_t)(colon - p) : n;
    uint32_t k = 0, names = 0, subs = 0, flags = absolute ? 1u : 0u;
    /* names: between '/'s up to the first ':' */
    for (size_t i = absolute, from = absolute; i <= cut; i++) {
        if (i < cut && p[i] != '/') continue;
        if (i == from) {
            /* an empty name; none at all ("", "/", ":x") is no empty name */
            if (r->strict && (i < cut || from > (size_t)absolute))
                return split_fails(out, from, "empty NodePath name");
        } else {
            if (parts) parts[k] = str_make(p + from, i - from);
            k++, names++;
        }
        from = i + 1;
    }
    /* subnames: between ':'s after the first */
    for (size_t i = cut + 1, from = cut + 1; colon && i <= n; i++) {
        if (i < n && p[i] != ':') continue;
        if (i == from) {
            if (r->strict) return split_fails(out, from, "empty NodePath subname");
            if (i < n) emptied = true; /* the engines' constructor fails there: the path is empty */
        } else {
            if (parts) parts[k] = str_make(p + from, i - from);
            k++, subs++;
            if (i == n && r->last_is_property) flags |= 2u;
        }
        from = i + 1;
    }
    if (r->godot2_bare && (k == 0 || (names == 0 && !absolute && !(flags & 2u)))) emptied = true;
    if (emptied) names = subs = flags = 0;
    out->names = names;
    out->subnames = subs;
    out->flags = flags;
    return true;
}
