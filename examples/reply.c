/* SPDX-License-Identifier: MIT */
/* reply.c — a game server's answer to one request packet, with the gdwire library
 * (docs/library.md "Reading and building values"; examples/README.md).
 *
 *   reply FILE        FILE holds the request's bytes, or their hex (as examples/request-*.hex)
 *
 * The request is a Dictionary {"cmd": "move", "id": int, "to": Vector2, "speed": float, "run": bool}
 * as a Godot game sends it with var_to_bytes / var2bytes / put_var. The server finds the dialect the
 * request came in (the first whose own encoder writes exactly these bytes), reads the fields with
 * range checks, builds the reply {"ok": true, "id": id, "pos": to, "eta": |to| / speed, "msg": "moving"}
 * and encodes it in that same dialect, so the game reads it with bytes_to_var / bytes2var.
 * Prints the dialect, the request and the reply as text, and the reply's bytes in hex.
 * Exit 0 on a reply, 1 on a request it refuses (with the reason), 2 on a usage or I/O error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdwire_check.h"

/* The file's bytes; text that is all hex digits and spaces is read as hex. */
static uint8_t *read_packet(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) { uint8_t *b = realloc(buf, cap *= 2); if (!b) { free(buf); buf = NULL; } else buf = b; }
    }
    fclose(f);
    if (!buf) return NULL;
    /* a file of hex text (the examples' .hex files) is decoded; anything else is the bytes */
    uint8_t *bytes = malloc(n / 2 + 1);
    size_t nbytes = 0;
    if (bytes && n > 0 && gdw_hex_decode((const char *)buf, n, bytes, &nbytes, NULL) == GDW_OK) {
        memcpy(buf, bytes, nbytes);
        n = nbytes;
    }
    free(bytes);
    *len = n;
    return buf;
}

static int refuse(const char *why) {
    fprintf(stderr, "reply: refused: %s\n", why);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: reply FILE   (the request packet: bytes, or hex text)\n");
        return 2;
    }
    size_t len = 0;
    uint8_t *packet = read_packet(argv[1], &len);
    if (!packet) { perror(argv[1]); return 2; }

    /* 1. Which dialect: every dialect reads the packet; take the first whose encoder writes it. */
    gdw_check_result results[64];
    if (gdw_dialect_count() > 64) return 2;
    gdw_check(packet, len, NULL, NULL, true, results, 64);
    const gdw_check_result *req = NULL;
    for (size_t i = 0; i < gdw_dialect_count() && !req; i++)
        if (results[i].status == GDW_OK && results[i].reencodes_same && results[i].consumed == len) req = &results[i];
    int rc = 0;
    if (!req) { rc = refuse("no dialect writes exactly these bytes"); goto out; }
    char *text = gdw_text_print_alloc(gdw_doc_root(req->doc), NULL, NULL);
    printf("dialect  %s\nrequest  %s\n", gdw_dialect_name(req->dialect), text ? text : "?");
    free(text);

    /* 2. The fields, each with its type and range checked. */
    const gdw_value *r = gdw_doc_root(req->doc);
    const char *cmd;
    size_t cmd_len;
    int64_t id;
    double to[2], speed;
    bool run;
    if (!gdw_get_string(gdw_dict_get(r, "cmd", 3), &cmd, &cmd_len) || cmd_len != 4 || memcmp(cmd, "move", 4) != 0) { rc = refuse("\"cmd\" is not \"move\""); goto out; }
    if (!gdw_get_int_in(gdw_dict_get(r, "id", 2), 0, INT32_MAX, &id)) { rc = refuse("\"id\" is not an int in [0, 2^31)"); goto out; }
    if (!gdw_get_components(gdw_dict_get(r, "to", 2), GDW_VECTOR2, to, 2)) { rc = refuse("\"to\" is not a Vector2"); goto out; }
    if (!gdw_get_float(gdw_dict_get(r, "speed", 5), &speed) || !(speed > 0)) { rc = refuse("\"speed\" is not a float above 0"); goto out; }
    if (!gdw_get_bool(gdw_dict_get(r, "run", 3), &run)) { rc = refuse("\"run\" is not a bool"); goto out; }

    /* 3. The reply, value by value; errors are sticky, so one check at the end is enough. */
    gdw_builder *b = gdw_builder_new(NULL);
    if (!b) { rc = refuse("out of memory"); goto out; }
    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "ok");  gdw_build_bool(b, true);
    gdw_build_cstring(b, "id");  gdw_build_int(b, id);
    gdw_build_cstring(b, "pos"); gdw_build_math(b, GDW_VECTOR2, to, 2, 0);
    gdw_build_cstring(b, "eta"); gdw_build_float(b, hypot(to[0], to[1]) / (run ? 2 * speed : speed));
    gdw_build_cstring(b, "msg"); gdw_build_cstring(b, run ? "running" : "moving");
    gdw_build_end(b);
    gdw_doc *reply = NULL;
    gdw_error err;
    if (gdw_build_finish(b, &reply, &err) != GDW_OK) {
        fprintf(stderr, "reply: building: %s at %s\n", err.message, err.path);
        gdw_builder_free(b);
        rc = 2;
        goto out;
    }
    gdw_builder_free(b);

    /* 4. Encoded in the request's dialect. */
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (gdw_encode_alloc(req->dialect, gdw_doc_root(reply), NULL, NULL, &bytes, &n, &err) != GDW_OK) {
        fprintf(stderr, "reply: encoding: %s at %s\n", err.message, err.path);
        rc = 2;
    } else {
        text = gdw_text_print_alloc(gdw_doc_root(reply), NULL, NULL);
        printf("reply    %s\nbytes    ", text ? text : "?");
        for (size_t i = 0; i < n; i++) printf("%02x", bytes[i]);
        printf("\n");
        free(text);
        free(bytes);
    }
    gdw_doc_free(reply);
out:
    for (size_t i = 0; i < gdw_dialect_count(); i++) gdw_doc_free(results[i].doc);
    free(packet);
    return rc;
}
