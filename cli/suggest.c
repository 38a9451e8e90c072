/* SPDX-License-Identifier: MIT */
/* suggest.c — what a newcomer meant: the nearest verb or dialect name to a mistyped one, and raw
 * input that is really text (hex, base64, an xxd dump) read without --hex or --base64. */
#include <ctype.h>
#include <string.h>

#include "cli/cli.h"

/* Edit distance, letters compared without case; stops counting past 9. */
static unsigned distance(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    if (na > 40 || nb > 40) return 99;
    unsigned row[41];
    for (size_t j = 0; j <= nb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= na; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned up = row[j];
            unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            unsigned best = diag + cost;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* Close enough to suggest: the same without case, or at most a third of the letters wrong. */
static bool close_to(const char *typed, const char *name, unsigned *best) {
    unsigned d = distance(typed, name);
    size_t n = strlen(name);
    unsigned limit = n >= 6 ? (unsigned)n / 3 : 1;
    if (d <= limit && d < *best) { *best = d; return true; }
    return false;
}

const char *suggest_verb(const char *typed, const char *const *names, size_t n) {
    const char *pick = NULL;
    unsigned best = 99;
    for (size_t i = 0; i < n; i++)
        if (close_to(typed, names[i], &best)) pick = names[i];
    return pick;
}

/* A dialect's name or one of its aliases (space-separated) nearest typed, into out. */
static void consider(const char *typed, const char *name, const char *aliases, char *out, size_t cap, unsigned *best) {
    if (close_to(typed, name, best)) snprintf(out, cap, "%s", name);
    for (const char *p = aliases; p && *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        char word[64];
        if (e > p && (size_t)(e - p) < sizeof word) {
            memcpy(word, p, (size_t)(e - p));
            word[e - p] = 0;
            if (close_to(typed, word, best)) snprintf(out, cap, "%s", word);
        }
        p = e;
    }
}

bool suggest_dialect(const char *typed, char *out, size_t cap) {
    unsigned best = 99;
    out[0] = 0;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        consider(typed, gdw_dialect_name(d), gdw_dialect_aliases(d), out, cap, &best);
    }
    for (size_t i = 0; i < gdw_release_count(); i++) {
        const gdw_dialect *d = gdw_release_at(i);
        consider(typed, gdw_dialect_name(d), gdw_dialect_aliases(d), out, cap, &best);
    }
    return out[0] != 0;
}

const char *raw_input_hint(const uint8_t *p, size_t n) {
    /* files of Godot's that are not Variants, by their first four bytes (Godot's sources: core/io/file_access.cpp
     * configures "GCPF" for open_compressed, file_access_encrypted.cpp's COMP_MAGIC 0x43454447 is "GDEC",
     * resource_format_binary.cpp writes "RSRC" and, compressed, "RSCC", and a .pck begins "GDPC") */
    static const struct { char magic[5]; const char *what; } files[] = {
        {"GCPF", "this is a file FileAccess.open_compressed wrote (magic GCPF): its bytes are compressed blocks, not a Variant; "
                 "gdwire does not read them yet"},
        {"GDEC", "this is a file FileAccess.open_encrypted wrote (magic GDEC): its bytes are encrypted with the game's key, not a "
                 "Variant"},
        {"RSRC", "this is a binary resource (.res, .scn: magic RSRC), not a Variant"},
        {"RSCC", "this is a compressed binary resource (magic RSCC), not a Variant"},
        {"GDPC", "this is a Godot pack (.pck: magic GDPC), not a Variant"},
    };
    for (size_t i = 0; n >= 4 && i < sizeof files / sizeof files[0]; i++)
        if (memcmp(p, files[i].magic, 4) == 0) return files[i].what;
    if (n < 8) return NULL;
    size_t hex = 0, b64 = 0, space = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (isxdigit(c)) hex++;
        if (isalnum(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_') b64++;
        else if (isspace(c)) space++;
        else other++;
    }
    /* xxd's default dump "00000000: 1200 0000 0500 ...", hexdump -C "00000000  12 00 00 00 ..." */
    if (n > 10 && memcmp(p, "00000000:", 9) == 0) return "this looks like an xxd dump: read it with --dump";
    if (n > 10 && memcmp(p, "00000000  ", 10) == 0) return "this looks like a hexdump -C dump: read it with --dump";
    /* what Godot's print() shows of a PackedByteArray, "[27, 0, 0, 0, ...]", or a C array of 0x bytes */
    size_t k = 0;
    while (k < n && (p[k] == ' ' || p[k] == '[' || p[k] == '{')) k++;
    if (k < n && k > 0 && isdigit(p[k])) {
        size_t commas = 0, bad = 0;
        for (size_t i = k; i < n; i++) {
            unsigned c = p[i];
            if (c == ',') commas++;
            else if (!(isdigit(c) || isspace(c) || c == ']' || c == '}' || c == 'x' || c == 'X' || isxdigit(c))) bad++;
        }
        if (!bad && commas >= 3) return "this looks like a list of byte values (as Godot prints a PackedByteArray): read it with --dump";
    }
    if (hex + space == n && hex % 2 == 0) return "this looks like hex text: read it with --hex";
    if (other == 0 && b64 + space == n && b64 % 4 == 0) return "this looks like base64 text: read it with --base64";
    return NULL;
}

/* Length prefixes, each the length of what follows up to the next, that cover p[0..n) exactly: the
 * engines' framings (StreamPeer.put_var, FileAccess.store_var, PacketPeerStream), read raw. The
 * number of frames, 0 if they do not. */
static size_t prefix_chain(const uint8_t *p, size_t n) {
    size_t at = 0, frames = 0;
    while (at + 4 <= n) {
        uint32_t len = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;
        if (len < 4 || len % 4 || len > n - at - 4) return 0; /* a Variant is whole words, at least a header */
        at += 4 + len;
        frames++;
    }
    return at == n ? frames : 0;
}

void hint_raw_text(const opts *o, const packet *pk) {
    static bool said; /* once a run: the same advice for every file would be noise */
    if (said || o->enc == ENC_DUMP || o->frame != FRAME_NONE) return;
    const char *hint = o->enc == ENC_RAW ? raw_input_hint(pk->p, pk->n) : NULL;
    char framed[200];
    size_t frames = prefix_chain(pk->p, pk->n);
    if (!hint && frames) {
        snprintf(framed, sizeof framed, "its first 4 bytes are the length of what follows (%s): read it with --framing stream (or file, packet-stream)",
                 frames == 1 ? "one frame" : "a chain of length prefixes covers all of it");
        hint = framed;
    }
    if (!hint) return;
    char name[600];
    packet_name(pk, name, sizeof name);
    fprintf(stderr, "gdwire %s: %s: %s\n", o->verb, name, hint);
    said = true;
}
