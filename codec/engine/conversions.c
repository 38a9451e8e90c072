/* SPDX-License-Identifier: MIT */
/* engine/conversions.c — the conversions a Godot 4 engine computes, not copies, when a value enters
 * a typed container (engine/settle.c validate_elem): Color(String), Basis(Quaternion),
 * Quaternion(Basis) and String(Variant) of the simple types. Each does the engine's arithmetic in
 * the engine's order and in its real_t (float, or double in a double build), so that the bits
 * agree; where the engine's result is not known from the value alone, each says so (false), and
 * the caller marks the value GDW_VF_APPROXIMATE instead of guessing.
 *
 * Read from Godot 4.3-stable (TriggerCoder/TurboDot3D@21dd2992, the 4.3-stable import) and
 * confirmed on Godot 4.6.3 (conformance/vectors/engine/godot4-convert.yaml, each vector's engine
 * answer in conformance/evidence/godot4.6.tsv). The arithmetic is plain IEEE float or double, one
 * operation at a time: FP_CONTRACT is off, so no compiler fuses a multiply and an add (Debian's
 * x86-64 engine has no FMA in these paths).
 */
#include <math.h>
#include <stdlib.h>

#include "codec/engine/engine.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- Color(String): core/math/color.h Color(const String &), color.cpp html, named ---------- */

/* core/math/color_names.inc (Godot 4.3-stable): the X11 names, '_' removed as
 * Color::find_named_color keys them, with Color::hex of each; sorted for bsearch. */
static const struct named_color {
    const char *name;
    uint32_t hex;
} k_named_colors[] = {
    {"ALICEBLUE", 0xF0F8FFFFU},
    {"ANTIQUEWHITE", 0xFAEBD7FFU},
    {"AQUA", 0x00FFFFFFU},
    {"AQUAMARINE", 0x7FFFD4FFU},
    {"AZURE", 0xF0FFFFFFU},
    {"BEIGE", 0xF5F5DCFFU},
    {"BISQUE", 0xFFE4C4FFU},
    {"BLACK", 0x000000FFU},
    {"BLANCHEDALMOND", 0xFFEBCDFFU},
    {"BLUE", 0x0000FFFFU},
    {"BLUEVIOLET", 0x8A2BE2FFU},
    {"BROWN", 0xA52A2AFFU},
    {"BURLYWOOD", 0xDEB887FFU},
    {"CADETBLUE", 0x5F9EA0FFU},
    {"CHARTREUSE", 0x7FFF00FFU},
    {"CHOCOLATE", 0xD2691EFFU},
    {"CORAL", 0xFF7F50FFU},
    {"CORNFLOWERBLUE", 0x6495EDFFU},
    {"CORNSILK", 0xFFF8DCFFU},
    {"CRIMSON", 0xDC143CFFU},
    {"CYAN", 0x00FFFFFFU},
    {"DARKBLUE", 0x00008BFFU},
    {"DARKCYAN", 0x008B8BFFU},
    {"DARKGOLDENROD", 0xB8860BFFU},
    {"DARKGRAY", 0xA9A9A9FFU},
    {"DARKGREEN", 0x006400FFU},
    {"DARKKHAKI", 0xBDB76BFFU},
    {"DARKMAGENTA", 0x8B008BFFU},
    {"DARKOLIVEGREEN", 0x556B2FFFU},
    {"DARKORANGE", 0xFF8C00FFU},
    {"DARKORCHID", 0x9932CCFFU},
    {"DARKRED", 0x8B0000FFU},
    {"DARKSALMON", 0xE9967AFFU},
    {"DARKSEAGREEN", 0x8FBC8FFFU},
    {"DARKSLATEBLUE", 0x483D8BFFU},
    {"DARKSLATEGRAY", 0x2F4F4FFFU},
    {"DARKTURQUOISE", 0x00CED1FFU},
    {"DARKVIOLET", 0x9400D3FFU},
    {"DEEPPINK", 0xFF1493FFU},
    {"DEEPSKYBLUE", 0x00BFFFFFU},
    {"DIMGRAY", 0x696969FFU},
    {"DODGERBLUE", 0x1E90FFFFU},
    {"FIREBRICK", 0xB22222FFU},
    {"FLORALWHITE", 0xFFFAF0FFU},
    {"FORESTGREEN", 0x228B22FFU},
    {"FUCHSIA", 0xFF00FFFFU},
    {"GAINSBORO", 0xDCDCDCFFU},
    {"GHOSTWHITE", 0xF8F8FFFFU},
    {"GOLD", 0xFFD700FFU},
    {"GOLDENROD", 0xDAA520FFU},
    {"GRAY", 0xBEBEBEFFU},
    {"GREEN", 0x00FF00FFU},
    {"GREENYELLOW", 0xADFF2FFFU},
    {"HONEYDEW", 0xF0FFF0FFU},
    {"HOTPINK", 0xFF69B4FFU},
    {"INDIANRED", 0xCD5C5CFFU},
    {"INDIGO", 0x4B0082FFU},
    {"IVORY", 0xFFFFF0FFU},
    {"KHAKI", 0xF0E68CFFU},
    {"LAVENDER", 0xE6E6FAFFU},
    {"LAVENDERBLUSH", 0xFFF0F5FFU},
    {"LAWNGREEN", 0x7CFC00FFU},
    {"LEMONCHIFFON", 0xFFFACDFFU},
    {"LIGHTBLUE", 0xADD8E6FFU},
    {"LIGHTCORAL", 0xF08080FFU},
    {"LIGHTCYAN", 0xE0FFFFFFU},
    {"LIGHTGOLDENROD", 0xFAFAD2FFU},
    {"LIGHTGRAY", 0xD3D3D3FFU},
    {"LIGHTGREEN", 0x90EE90FFU},
    {"LIGHTPINK", 0xFFB6C1FFU},
    {"LIGHTSALMON", 0xFFA07AFFU},
    {"LIGHTSEAGREEN", 0x20B2AAFFU},
    {"LIGHTSKYBLUE", 0x87CEFAFFU},
    {"LIGHTSLATEGRAY", 0x778899FFU},
    {"LIGHTSTEELBLUE", 0xB0C4DEFFU},
    {"LIGHTYELLOW", 0xFFFFE0FFU},
    {"LIME", 0x00FF00FFU},
    {"LIMEGREEN", 0x32CD32FFU},
    {"LINEN", 0xFAF0E6FFU},
    {"MAGENTA", 0xFF00FFFFU},
    {"MAROON", 0xB03060FFU},
    {"MEDIUMAQUAMARINE", 0x66CDAAFFU},
    {"MEDIUMBLUE", 0x0000CDFFU},
    {"MEDIUMORCHID", 0xBA55D3FFU},
    {"MEDIUMPURPLE", 0x9370DBFFU},
    {"MEDIUMSEAGREEN", 0x3CB371FFU},
    {"MEDIUMSLATEBLUE", 0x7B68EEFFU},
    {"MEDIUMSPRINGGREEN", 0x00FA9AFFU},
    {"MEDIUMTURQUOISE", 0x48D1CCFFU},
    {"MEDIUMVIOLETRED", 0xC71585FFU},
    {"MIDNIGHTBLUE", 0x191970FFU},
    {"MINTCREAM", 0xF5FFFAFFU},
    {"MISTYROSE", 0xFFE4E1FFU},
    {"MOCCASIN", 0xFFE4B5FFU},
    {"NAVAJOWHITE", 0xFFDEADFFU},
    {"NAVYBLUE", 0x000080FFU},
    {"OLDLACE", 0xFDF5E6FFU},
    {"OLIVE", 0x808000FFU},
    {"OLIVEDRAB", 0x6B8E23FFU},
    {"ORANGE", 0xFFA500FFU},
    {"ORANGERED", 0xFF4500FFU},
    {"ORCHID", 0xDA70D6FFU},
    {"PALEGOLDENROD", 0xEEE8AAFFU},
    {"PALEGREEN", 0x98FB98FFU},
    {"PALETURQUOISE", 0xAFEEEEFFU},
    {"PALEVIOLETRED", 0xDB7093FFU},
    {"PAPAYAWHIP", 0xFFEFD5FFU},
    {"PEACHPUFF", 0xFFDAB9FFU},
    {"PERU", 0xCD853FFFU},
    {"PINK", 0xFFC0CBFFU},
    {"PLUM", 0xDDA0DDFFU},
    {"POWDERBLUE", 0xB0E0E6FFU},
    {"PURPLE", 0xA020F0FFU},
    {"REBECCAPURPLE", 0x663399FFU},
    {"RED", 0xFF0000FFU},
    {"ROSYBROWN", 0xBC8F8FFFU},
    {"ROYALBLUE", 0x4169E1FFU},
    {"SADDLEBROWN", 0x8B4513FFU},
    {"SALMON", 0xFA8072FFU},
    {"SANDYBROWN", 0xF4A460FFU},
    {"SEAGREEN", 0x2E8B57FFU},
    {"SEASHELL", 0xFFF5EEFFU},
    {"SIENNA", 0xA0522DFFU},
    {"SILVER", 0xC0C0C0FFU},
    {"SKYBLUE", 0x87CEEBFFU},
    {"SLATEBLUE", 0x6A5ACDFFU},
    {"SLATEGRAY", 0x708090FFU},
    {"SNOW", 0xFFFAFAFFU},
    {"SPRINGGREEN", 0x00FF7FFFU},
    {"STEELBLUE", 0x4682B4FFU},
    {"TAN", 0xD2B48CFFU},
    {"TEAL", 0x008080FFU},
    {"THISTLE", 0xD8BFD8FFU},
    {"TOMATO", 0xFF6347FFU},
    {"TRANSPARENT", 0xFFFFFF00U},
    {"TURQUOISE", 0x40E0D0FFU},
    {"VIOLET", 0xEE82EEFFU},
    {"WEBGRAY", 0x808080FFU},
    {"WEBGREEN", 0x008000FFU},
    {"WEBMAROON", 0x800000FFU},
    {"WEBPURPLE", 0x800080FFU},
    {"WHEAT", 0xF5DEB3FFU},
    {"WHITE", 0xFFFFFFFFU},
    {"WHITESMOKE", 0xF5F5F5FFU},
    {"YELLOW", 0xFFFF00FFU},
    {"YELLOWGREEN", 0x9ACD32FFU},
};

/* Channel k (0 red .. 3 alpha) of Color::hex(hex): RGBA8888, each channel / 255 in float. */
float gdw_engine_hex_channel(uint32_t hex, unsigned k) {
    return (float)((hex >> (24 - 8 * k)) & 0xFF) / 255.0f;
}

/* One code point of strict UTF-8 (a Godot 4 String holds code points); 0 bytes: not UTF-8. */
static size_t next_code_point(const uint8_t *p, size_t n, uint32_t *cp) {
    uint8_t c = p[0];
    size_t need = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!need || need > n || gdw_utf8_check(p, need, GDW_UTF8_STRICT) != (size_t)-1) return 0;
    uint32_t v = need == 1 ? c : need == 2 ? (c & 0x1Fu) : need == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t i = 1; i < need; i++) v = (v << 6) | (p[i] & 0x3Fu);
    *cp = v;
    return need;
}

/* _parse_col4: the digit's value, or -1. Godot 4.3's source takes the code point as a C `char`
 * (`char character = p_str[p_ofs]`), which would read U+0130 as '0'; Godot 4.6.3 does not: "١٢٣"
 * and "#ņŁİ" are not colours there (engine/godot4-convert.yaml), so the whole code point counts. */
static int parse_col4(uint32_t cp) { return cp < 0x80 ? gdw_hex_digit((int)cp) : -1; }

static int named_cmp(const void *key, const void *row) {
    return strcmp((const char *)key, ((const struct named_color *)row)->name);
}

#define COLOR_MAX_CHARS 64 /* longer than any name or HTML code: neither can match */

bool gdw_engine_color_from_text(const uint8_t *p, size_t n, float rgba[4]) {
    uint32_t cps[COLOR_MAX_CHARS];
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = next_code_point(p + i, n - i, &cp);
        if (!len) return false; /* not a String a Godot 4 engine holds */
        if (count < COLOR_MAX_CHARS) cps[count] = cp;
        count++;
        i += len;
    }
    rgba[0] = rgba[1] = rgba[2] = 0.0f;
    rgba[3] = 1.0f; /* Color(): what html and named give on failure (with an error printed) */
    /* html_is_valid: an optional '#', then 3, 4, 6 or 8 digits */
    const uint32_t *h = cps;
    size_t hl = count;
    if (hl && h[0] == '#') h++, hl--;
    bool html = count <= COLOR_MAX_CHARS && (hl == 3 || hl == 4 || hl == 6 || hl == 8);
    for (size_t i = 0; html && i < hl; i++) html = parse_col4(h[i]) >= 0;
    if (html) { /* html: one digit a channel below 5 digits, two otherwise; alpha with 4 or 8 */
        bool shorthand = hl < 5, alpha = hl == 4 || hl == 8;
        for (unsigned k = 0; k < 3u + alpha; k++)
            rgba[k] = shorthand
                          ? (float)parse_col4(h[k]) / 15.0f
                          : (float)(parse_col4(h[2 * k]) * 16 + parse_col4(h[2 * k + 1])) / 255.0f;
        return true;
    }
    /* named: ' ', '-', '_', '\'' and '.' removed, to_upper, looked up */
    if (count > COLOR_MAX_CHARS) return true; /* no name is that long: Color() */
    char key[COLOR_MAX_CHARS + 1];
    size_t kl = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t cp = cps[i];
        if (cp == ' ' || cp == '-' || cp == '_' || cp == '\'' || cp == '.') continue;
        /* String::to_upper maps two code points outside ASCII into it (U+0131 dotless i to 'I',
         * U+017F long s to 'S'): whether the engine's case table has them is not known here */
        if (cp == 0x131 || cp == 0x17F) return false;
        if (cp >= 0x80) return true; /* stays outside ASCII, as no name does: Color() */
        key[kl++] = cp >= 'a' && cp <= 'z' ? (char)(cp - 32) : (char)cp;
    }
    key[kl] = 0;
    const struct named_color *row = (const struct named_color *)bsearch(
        key, k_named_colors, sizeof k_named_colors / sizeof k_named_colors[0],
        sizeof k_named_colors[0], named_cmp);
    if (row)
        for (unsigned k = 0; k < 4; k++) rgba[k] = gdw_engine_hex_channel(row->hex, k);
    return true;
}

/* ---- Basis and Quaternion: core/math/basis.cpp set_quaternion, get_quaternion, is_rotation -- */

/* One definition for each real_t: REAL float or double, SUFFIX naming the pair, ABS and SQRT its
 * functions. */
#define ROTATIONS(REAL, SUFFIX, ABS, SQRT) \
    static bool basis_from_quaternion_##SUFFIX(const double *in, double *out) { \
        REAL x = (REAL)in[0], y = (REAL)in[1], z = (REAL)in[2], w = (REAL)in[3]; \
        REAL d = x * x + y * y + z * z + w * w; /* Quaternion::length_squared: dot(*this) */ \
        REAL s = (REAL)2.0f / d; /* IEEE: inf for d == 0, which C++ leaves undefined */ \
        REAL xs = x * s, ys = y * s, zs = z * s; \
        REAL wx = w * xs, wy = w * ys, wz = w * zs; \
        REAL xx = x * xs, xy = x * ys, xz = x * zs; \
        REAL yy = y * ys, yz = y * zs, zz = z * zs; \
        REAL m[9] = {(REAL)1.0f - (yy + zz), xy - wz, xz + wy, xy + wz, \
                     (REAL)1.0f - (xx + zz), yz - wx, xz - wy, yz + wx, \
                     (REAL)1.0f - (xx + yy)}; \
        for (int i = 0; i < 9; i++) out[i] = (double)m[i]; \
        return d != (REAL)0.0f; \
    } \
    static bool equal_approx_##SUFFIX(REAL a, REAL b) { \
        if (a == b) return true; \
        REAL tolerance = (REAL)CMP_EPSILON * ABS(a); \
        if (tolerance < (REAL)CMP_EPSILON) tolerance = (REAL)CMP_EPSILON; \
        return ABS(a - b) < tolerance; \
    } \
    static bool is_rotation_##SUFFIX(REAL r[3][3]) { \
        REAL col[3][3]; \
        for (int i = 0; i < 3; i++) \
            for (int j = 0; j < 3; j++) col[i][j] = r[j][i]; \
        REAL xl = col[0][0] * col[0][0] + col[0][1] * col[0][1] + col[0][2] * col[0][2]; \
        REAL yl = col[1][0] * col[1][0] + col[1][1] * col[1][1] + col[1][2] * col[1][2]; \
        REAL zl = col[2][0] * col[2][0] + col[2][1] * col[2][1] + col[2][2] * col[2][2]; \
        REAL xy = col[0][0] * col[1][0] + col[0][1] * col[1][1] + col[0][2] * col[1][2]; \
        REAL xz = col[0][0] * col[2][0] + col[0][1] * col[2][1] + col[0][2] * col[2][2]; \
        REAL yz = col[1][0] * col[2][0] + col[1][1] * col[2][1] + col[1][2] * col[2][2]; \
        bool conformal = equal_approx_##SUFFIX(xl, yl) && equal_approx_##SUFFIX(xl, zl) && \
                         ABS(xy) < (REAL)CMP_EPSILON && ABS(xz) < (REAL)CMP_EPSILON && \
                         ABS(yz) < (REAL)CMP_EPSILON; \
        REAL det = r[0][0] * (r[1][1] * r[2][2] - r[2][1] * r[1][2]) - \
                   r[1][0] * (r[0][1] * r[2][2] - r[2][1] * r[0][2]) + \
                   r[2][0] * (r[0][1] * r[1][2] - r[1][1] * r[0][2]); \
        return conformal && (det == (REAL)1.0f || ABS(det - (REAL)1.0f) < (REAL)UNIT_EPSILON); \
    } \
    static bool quaternion_from_basis_##SUFFIX(const double *in, double *out) { \
        REAL r[3][3], t[4]; \
        for (int i = 0; i < 9; i++) r[i / 3][i % 3] = (REAL)in[i]; \
        if (!is_rotation_##SUFFIX(r)) return false; \
        REAL trace = r[0][0] + r[1][1] + r[2][2]; \
        if (trace > 0.0f) { \
            REAL s = SQRT(trace + (REAL)1.0f); \
            t[3] = s * (REAL)0.5f; \
            s = (REAL)0.5f / s; \
            t[0] = (r[2][1] - r[1][2]) * s; \
            t[1] = (r[0][2] - r[2][0]) * s; \
            t[2] = (r[1][0] - r[0][1]) * s; \
        } else { \
            int i = r[0][0] < r[1][1] ? (r[1][1] < r[2][2] ? 2 : 1) : (r[0][0] < r[2][2] ? 2 : 0); \
            int j = (i + 1) % 3, k = (i + 2) % 3; \
            REAL s = SQRT(r[i][i] - r[j][j] - r[k][k] + (REAL)1.0f); \
            t[i] = s * (REAL)0.5f; \
            s = (REAL)0.5f / s; \
            t[3] = (r[k][j] - r[j][k]) * s; \
            t[j] = (r[j][i] + r[i][j]) * s; \
            t[k] = (r[k][i] + r[i][k]) * s; \
        } \
        for (int q = 0; q < 4; q++) out[q] = (double)t[q]; \
        return true; \
    }

#define CMP_EPSILON 0.00001 /* core/math/math_defs.h */
#define UNIT_EPSILON 0.001  /* the same, without PRECISE_MATH_CHECKS */
ROTATIONS(float, f32, fabsf, sqrtf)
ROTATIONS(double, f64, fabs, sqrt)

bool gdw_engine_basis_from_quaternion(const double q[4], unsigned real_width, double m[9]) {
    return real_width == 8 ? basis_from_quaternion_f64(q, m) : basis_from_quaternion_f32(q, m);
}

bool gdw_engine_quaternion_from_basis(const double m[9], unsigned real_width, double q[4]) {
    return real_width == 8 ? quaternion_from_basis_f64(m, q) : quaternion_from_basis_f32(m, q);
}
