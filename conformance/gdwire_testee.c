/* SPDX-License-Identifier: MIT */
/* gdwire_testee — gdwire as a testee of the conformance runner (docs/testee-protocol.md): the
 * reference implementation of the protocol. Reads requests on stdin, answers each on stdout
 * with gdwire's outcome in the requested dialect and mode (conformance/outcome.c, the same
 * function the suite runs).
 *
 * `gdwire_testee --as-mode MODE` answers every request in MODE whatever it asks: a switch for
 * testing the testers. With `--as-mode compatible`, engine-exact mode is off (no key merging,
 * typed conversion or engine defects), and an oracle run against a real engine must report the
 * disagreements that follow as failures (tools/fuzz/differential_test.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/outcome.h"

/* Text with tabs and line ends made spaces: the detail field holds none. */
static void put_detail(const char *s, size_t max) {
    size_t i = 0;
    for (; s[i] && i < max; i++) putchar(s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i]);
    if (s[i]) fputs("...", stdout);
}

static void put_hex(const uint8_t *p, size_t n) {
    if (!n) putchar('-');
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(int argc, char **argv) {
    int as_mode = -1;
    if (argc == 3 && !strcmp(argv[1], "--as-mode") && (as_mode = gdw_mode_from_name(argv[2])) >= 0) {
    } else if (argc != 1) {
        fprintf(stderr, "usage: gdwire_testee [--as-mode strict|compatible|engine-exact]\n");
        return 2;
    }
    printf("gdwire-testee/1\tgdwire\t%s\t1\n", GDW_VERSION);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) > 0) {
        char *f[5];
        if (!cf_split_fields(line, f, 5)) {
            fprintf(stderr, "gdwire_testee: malformed request: %s\n", line);
            return 2;
        }
        const gdw_dialect *d = gdw_dialect_find(f[1]);
        int mode = gdw_mode_from_name(f[2]);
        if (mode >= 0 && as_mode >= 0) mode = as_mode;
        uint8_t *bytes = NULL;
        size_t len = 0, bad;
        if (!d || mode < 0) {
            printf("%s\tunsupported\t-\t-\t-\tno dialect %s or mode %s\n", f[0], f[1], f[2]);
        } else if (!cf_unhex(strcmp(f[4], "-") ? f[4] : "", &bytes, &len, &bad)) {
            printf("%s\tunsupported\t-\t-\t-\tthe packet is not hex (character %zu)\n", f[0], bad);
        } else {
            cf_options o = {.objects = !strcmp(f[3], "1")};
            cf_outcome out;
            cf_run(d, (gdw_mode)mode, bytes, len, &o, &out);
            if (out.status == GDW_OK) {
                printf("%s\taccepted\t%zu\t", f[0], out.consumed);
                if (out.encode_status == GDW_OK) put_hex(out.encode, out.encode_len);
                else putchar('-');
                fputs("\t-\t", stdout);
                char *text = gdw_text_print_alloc(gdw_doc_root(out.doc), NULL, NULL);
                put_detail(text ? text : "(out of memory)", 2000);
                free(text);
                putchar('\n');
            } else {
                const char *cls = out.engine != GDW_ENGINE_NONE ? gdw_engine_error_name(out.engine) : gdw_status_name(out.status);
                char msg[GDW_PATH_MAX + 64];
                snprintf(msg, sizeof msg, "%s at byte %zu%s%s", gdw_status_name(out.status), out.offset, out.path[0] ? " in " : "",
                         out.path);
                printf("%s\trejected\t-\t-\t%s\t", f[0], cls);
                put_detail(msg, sizeof msg);
                putchar('\n');
            }
            cf_outcome_free(&out);
            free(bytes);
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
