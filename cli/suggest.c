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
    if (n < 8) return NULL;
    size_t hex = 0, b64 = 0, space = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (isxdigit(c)) hex++;
        if (isalnum(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_') b64++;
        else if (isspace(c)) space++;
        else other++;
    }
    /* xxd's default dump: "00000000: 1200 0000 0500 ..." */
    if (n > 10 && memcmp(p, "00000000:", 9) == 0) return "this looks like an xxd dump: turn it back into bytes with 'xxd -r FILE', or 'xxd -p' it and read that with --hex";
    if (hex + space == n && hex % 2 == 0) return "this looks like hex text: read it with --hex";
    if (other == 0 && b64 + space == n && b64 % 4 == 0) return "this looks like base64 text: read it with --base64";
    return NULL;
}

void hint_raw_text(const opts *o, const packet *pk) {
    static bool said; /* once a run: the same advice for every file would be noise */
    if (said || o->enc != ENC_RAW || o->frame != FRAME_NONE) return;
    const char *hint = raw_input_hint(pk->p, pk->n);
    if (!hint) return;
    char name[600];
    packet_name(pk, name, sizeof name);
    fprintf(stderr, "gdwire %s: %s: %s\n", o->verb, name, hint);
    said = true;
}
