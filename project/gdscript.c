/* SPDX-License-Identifier: MIT */
/* gdscript.c — just enough of a GDScript tokenizer to find what decides a script's RPCs:
 * `extends`, `class_name`, top-level functions with their parameters, `@rpc(...)` (Godot 4),
 * the remote/master/puppet/... keywords (Godot 3), and calls that change RPCs at run time.
 *
 * One pass over the bytes, no recursion: tokens are gathered a logical line at a time (a line
 * continues inside brackets and after a backslash), at most MAX_LINE_TOKENS of them kept, so time
 * is linear in the input and memory bounded by the longest kept line. Rules cited from Godot
 * 4.6.3-stable (modules/gdscript/) and 3.6.2-stable. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pj.h"

enum { MAX_LINE_TOKENS = 4096, MAX_PARAMS = 256 };

typedef enum { T_IDENT, T_STRING, T_NUMBER, T_PUNCT, T_ANNOT } tok_kind;
typedef struct tok {
    tok_kind kind;
    unsigned line;
    const char *s; /* identifier, punct char, number text, string content (escapes kept), annotation name */
    size_t len;
    char prefix;   /* a string's: 'r', '&' (StringName), '^' (NodePath), or 0 */
} tok;

/* What each engine generation's parser accepts: the @rpc annotation (Godot 4,
 * gdscript_parser.cpp:190) or the network keywords (Godot 3, gdscript_tokenizer.cpp:210-217 in
 * 3.6.2; Godot 4 refuses them, gdscript_parser.cpp:1182-1192). */
typedef struct syntax {
    int godot;
    bool rpc_annotation;
    bool network_keywords;
} syntax;
static const syntax k_syntax[] = {
    {4, true, false},
    {3, false, true},
};

/* Godot 3's keywords: the mode and whether the caller runs it too
 * (core/io/multiplayer_api.h:119-127 in 3.6.2: sync = remotesync, slave = puppet). */
static const struct {
    const char *word;
    gdw_rpc_mode mode;
    bool call_local;
} k_keywords[] = {
    {"remote", GDW_RPC_REMOTE, false},         {"master", GDW_RPC_MASTER, false},
    {"puppet", GDW_RPC_PUPPET, false},         {"slave", GDW_RPC_PUPPET, false},
    {"remotesync", GDW_RPC_REMOTESYNC, true},  {"sync", GDW_RPC_REMOTESYNC, true},
    {"mastersync", GDW_RPC_MASTERSYNC, true},  {"puppetsync", GDW_RPC_PUPPETSYNC, true},
};

/* @rpc's string arguments (gdscript_parser.cpp:5213-5239): each sets one of three settings. */
enum { SET_LOCALITY, SET_PERMISSION, SET_TRANSFER };
static const struct {
    const char *word;
    int setting;
    int value; /* call_local, gdw_rpc_mode or gdw_transfer_mode */
} k_rpc_words[] = {
    {"call_local", SET_LOCALITY, 1},
    {"call_remote", SET_LOCALITY, 0},
    {"any_peer", SET_PERMISSION, GDW_RPC_ANY_PEER},
    {"authority", SET_PERMISSION, GDW_RPC_AUTHORITY},
    {"reliable", SET_TRANSFER, GDW_TRANSFER_RELIABLE},
    {"unreliable", SET_TRANSFER, GDW_TRANSFER_UNRELIABLE},
    {"unreliable_ordered", SET_TRANSFER, GDW_TRANSFER_UNRELIABLE_ORDERED},
};

/* Calls that change what a static reader sees, found at any depth of the script. */
static const struct {
    const char *callee;
    bool config; /* changes this node's own RPCs */
    const char *what;
} k_dynamic_calls[] = {
    {"rpc_config", true, "rpc_config() changes RPCs at run time"},
    {"rset_config", true, "rset_config() changes RPCs at run time"},
    {"set_script", true, "set_script() sets a script from code"},
    {"add_child", false, "add_child() adds nodes from code (their RPCs are not read here)"},
};

typedef struct scan {
    const char *file;
    const syntax *syn;
    pj_arena *a;
    pj_problems *probs;
    pj_script *out;
    pj_vec funcs;   /* pj_func */
    pj_vec dynamic; /* const char * */
    pj_map enums;   /* the script's own top-level named enums (a map: a hostile script has many) */
    tok *toks;
    size_t n_toks;
    bool toks_dropped;
    unsigned indent; /* of the logical line */
    size_t dynamic_dropped;
    pj_rpc_config pending; /* an @rpc waiting for its function */
    unsigned pending_line;
} scan;

static bool tok_is(const tok *t, tok_kind k, const char *s) {
    return t->kind == k && t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}
static bool punct(const tok *t, char c) { return t->kind == T_PUNCT && t->s[0] == c; }

static void broken(scan *sc, unsigned line, const char *why) {
    sc->out->broken = true;
    pj_problem(sc->probs, sc->file, line, "%s (the engine would not compile this script)", why);
}

enum { MAX_DYNAMIC_REASONS = 16 }; /* each node of the script carries them: kept few */

static void add_dynamic(scan *sc, unsigned line, const char *what) {
    if (sc->dynamic.n >= MAX_DYNAMIC_REASONS) { sc->dynamic_dropped++; return; }
    const char **d = pj_vec_push(&sc->dynamic);
    if (d) *d = pj_printf(sc->a, "%s:%u: %s", sc->file, line, what);
}

/* Index just past the bracket that closes the one at i (or n). */
static size_t close_of(const tok *t, size_t n, size_t i) {
    int depth = 0;
    for (; i < n; i++) {
        if (punct(&t[i], '(') || punct(&t[i], '[') || punct(&t[i], '{')) depth++;
        else if (punct(&t[i], ')') || punct(&t[i], ']') || punct(&t[i], '}')) {
            if (--depth == 0) return i + 1;
        }
    }
    return n;
}

/* Unescape a string token's content (the escapes GDScript knows that matter for names and paths). */
static char *tok_string(pj_arena *a, const tok *t) {
    char *o = pj_alloc(a, t->len + 1);
    if (!o) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c == '\\' && i + 1 < t->len) {
            c = t->s[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        o[k++] = c;
    }
    o[k] = 0;
    return o;
}

/* @rpc(args) from t[i] = '(' (or no arguments) into sc->pending. */
static void rpc_annotation(scan *sc, const tok *t, size_t n, size_t i, unsigned line) {
    if (sc->pending.set) {
        broken(sc, line, "RPC annotations can only be used once per function");
        return;
    }
    /* defaults: gdscript_parser.cpp:190 and :5205-5206 (authority, call_remote, reliable, 0) */
    pj_rpc_config cfg = {true, true, GDW_RPC_AUTHORITY, false, GDW_TRANSFER_RELIABLE, 0};
    int counts[3] = {0, 0, 0};
    if (i < n && punct(&t[i], '(')) {
        size_t end = close_of(t, n, i) - 1; /* the ')' */
        size_t arg = 0;
        for (size_t j = i + 1; j < end; arg++) {
            size_t k = j;
            int depth = 0;
            while (k < end && !(depth == 0 && punct(&t[k], ','))) {
                if (punct(&t[k], '(') || punct(&t[k], '[')) depth++;
                if (punct(&t[k], ')') || punct(&t[k], ']')) depth--;
                k++;
            }
            const tok *v = &t[j];
            bool single = k == j + 1;
            if (arg >= 4) {
                broken(sc, line, "@rpc takes at most 4 arguments");
                return;
            }
            if (arg == 3) { /* the channel, an int, only as the fourth (gdscript_parser.cpp:5211-5214) */
                if (single && v->kind == T_NUMBER) {
                    char *num = pj_strndup(sc->a, v->s, v->len);
                    cfg.channel = num ? (int)strtol(num, NULL, 0) : 0;
                }
                else if (single && v->kind == T_STRING) { broken(sc, line, "@rpc's fourth argument (the channel) must be an int"); return; }
                else { cfg.known = false; pj_problem(sc->probs, sc->file, line, "@rpc channel is not a literal: not read"); }
            } else if (single && v->kind == T_STRING) {
                char *w = tok_string(sc->a, v);
                size_t r = 0, nr = sizeof k_rpc_words / sizeof k_rpc_words[0];
                while (r < nr && !(w && strcmp(w, k_rpc_words[r].word) == 0)) r++;
                if (r == nr) {
                    broken(sc, line, "invalid @rpc argument: must be call_local/call_remote, any_peer/authority, reliable/unreliable/unreliable_ordered");
                    return;
                }
                counts[k_rpc_words[r].setting]++;
                if (k_rpc_words[r].setting == SET_LOCALITY) cfg.call_local = k_rpc_words[r].value;
                else if (k_rpc_words[r].setting == SET_PERMISSION) cfg.mode = (gdw_rpc_mode)k_rpc_words[r].value;
                else cfg.transfer_mode = (gdw_transfer_mode)k_rpc_words[r].value;
            } else if (single && v->kind == T_NUMBER) { /* the analyzer's words, gdscript_analyzer.cpp:1706-1707 */
                char why[160];
                snprintf(why, sizeof why, "Invalid argument for annotation \"@rpc\": argument %zu should be \"String\" but is \"int\" "
                         "(the channel is the fourth argument only)", arg + 1);
                broken(sc, line, why);
                return;
            } else {
                cfg.known = false;
                pj_problem(sc->probs, sc->file, line, "@rpc argument %zu is not a literal string: not read", arg + 1);
            }
            j = k < end ? k + 1 : k;
        }
    }
    for (int s = 0; s < 3; s++)
        if (counts[s] > 1) { broken(sc, line, "@rpc sets the same setting more than once"); return; }
    sc->pending = cfg;
    sc->pending_line = line;
}

/* The type `name := VALUE` gives a parameter, where VALUE says it alone (the analyzer infers the parameter's type
 * from its initializer: GDScriptAnalyzer::resolve_assignable, gdscript_analyzer.cpp:2122-2130 in 4.6.3): a number, a string, &"name", ^"path", true or
 * false, [...], {...}, or a builtin type's constructor; NULL for anything else (a constant, an expression). */
static const char *inferred_type(const tok *t, size_t n) {
    if (n == 1 && t[0].kind == T_NUMBER) {
        bool based = t[0].len > 1 && t[0].s[0] == '0' && (t[0].s[1] == 'x' || t[0].s[1] == 'b');
        bool real = !based && (memchr(t[0].s, '.', t[0].len) || memchr(t[0].s, 'e', t[0].len) || memchr(t[0].s, 'E', t[0].len));
        return real ? "float" : "int";
    }
    if (n == 2 && punct(&t[0], '-') && t[1].kind == T_NUMBER) return inferred_type(t + 1, 1);
    if (n == 1 && t[0].kind == T_STRING) return t[0].prefix == '&' ? "StringName" : t[0].prefix == '^' ? "NodePath" : "String";
    if (n == 1 && (tok_is(&t[0], T_IDENT, "true") || tok_is(&t[0], T_IDENT, "false"))) return "bool";
    if (n >= 2 && punct(&t[0], '[') && close_of(t, n, 0) == n) return "Array";
    if (n >= 2 && punct(&t[0], '{') && close_of(t, n, 0) == n) return "Dictionary";
    if (n >= 3 && t[0].kind == T_IDENT && punct(&t[1], '(') && close_of(t, n, 1) == n) {
        int ty = gdw_type_from_name(t[0].s, t[0].len);
        if (ty > GDW_NIL && ty != GDW_OBJECT) return gdw_type_name((gdw_type)ty); /* "Variant" is no constructor: GDW_NIL */
    }
    return NULL;
}

/* func NAME(params): t[i] is the name. */
static void function(scan *sc, const tok *t, size_t n, size_t i, pj_rpc_config rpc) {
    if (i >= n || t[i].kind != T_IDENT) {
        pj_problem(sc->probs, sc->file, i < n ? t[i].line : t[n - 1].line, "func without a name");
        return;
    }
    pj_func *f = pj_vec_push(&sc->funcs);
    if (!f) return;
    f->name = pj_strndup(sc->a, t[i].s, t[i].len);
    f->line = t[i].line;
    f->rpc = rpc;
    i++;
    if (i >= n || !punct(&t[i], '(')) return;
    size_t end = close_of(t, n, i) - 1;
    gdw_rpc_arg args[MAX_PARAMS];
    size_t na = 0;
    for (size_t j = i + 1; j < end && na < MAX_PARAMS;) {
        size_t k = j;
        int depth = 0;
        while (k < end && !(depth == 0 && punct(&t[k], ','))) {
            if (punct(&t[k], '(') || punct(&t[k], '[') || punct(&t[k], '{')) depth++;
            if (punct(&t[k], ')') || punct(&t[k], ']') || punct(&t[k], '}')) depth--;
            k++;
        }
        /* `...name`: the rest parameter, last (gdscript_parser.cpp:1670-1702 in 4.6.3); its type, Array, is not an
           argument's */
        bool dots = j + 3 < k && punct(&t[j], '.') && punct(&t[j + 1], '.') && punct(&t[j + 2], '.') && t[j + 3].kind == T_IDENT;
        if (dots) f->rest = pj_strndup(sc->a, t[j + 3].s, t[j + 3].len);
        else if (t[j].kind == T_IDENT) {
            args[na].name = pj_strndup(sc->a, t[j].s, t[j].len);
            args[na].type = NULL;
            args[na].has_default = false; /* `name: T = value` or `name := value` (gdscript_parser.cpp:1509 in 4.6.3) */
            for (size_t q = j + 1; q < k; q++)
                if (punct(&t[q], '=')) args[na].has_default = true;
            size_t p = j + 1;
            bool inferred = p + 1 < k && punct(&t[p], ':') && punct(&t[p + 1], '=') && t[p + 1].s == t[p].s + 1;
            args[na].inferred = inferred;
            if (inferred) {
                const char *ty = inferred_type(t + p + 2, k - (p + 2));
                if (ty) args[na].type = pj_strdup(sc->a, ty);
            }
            if (p < k && punct(&t[p], ':') && !inferred) {
                pj_buf b = {0};
                for (size_t q = p + 1; q < k && !punct(&t[q], '='); q++) {
                    pj_buf_add(&b, t[q].s, t[q].len);
                    if (punct(&t[q], ',')) pj_buf_add(&b, " ", 1);
                }
                if (b.p) args[na].type = pj_strndup(sc->a, b.p, b.len);
                free(b.p);
            }
            na++;
        }
        j = k < end ? k + 1 : k;
    }
    f->args = pj_alloc(sc->a, (na ? na : 1) * sizeof *f->args);
    if (f->args) {
        memcpy(f->args, args, na * sizeof *args);
        f->n_args = na;
    }
}

static void logical_line(scan *sc) {
    tok *t = sc->toks;
    size_t n = sc->n_toks;
    if (!n) return;
    if (sc->toks_dropped) pj_problem(sc->probs, sc->file, t[0].line, "a statement of more than %d tokens: the rest not read", MAX_LINE_TOKENS);
    /* calls that make the node dynamic, anywhere in the script */
    for (size_t i = 0; i + 1 < n; i++) {
        if (t[i].kind != T_IDENT || !punct(&t[i + 1], '(')) continue;
        for (size_t d = 0; d < sizeof k_dynamic_calls / sizeof k_dynamic_calls[0]; d++)
            if (tok_is(&t[i], T_IDENT, k_dynamic_calls[d].callee)) {
                add_dynamic(sc, t[i].line, k_dynamic_calls[d].what);
                sc->out->dynamic_config |= k_dynamic_calls[d].config;
            }
    }
    if (sc->indent) return; /* only the script's own top-level members count (not inner classes') */
    if (tok_is(&t[0], T_IDENT, "enum") && n > 1 && t[1].kind == T_IDENT) { /* enum Name { ... } */
        const char *name = pj_strndup(sc->a, t[1].s, t[1].len);
        if (name) pj_map_put(&sc->enums, name, 1);
        return;
    }
    size_t i = 0;
    while (i < n && t[i].kind == T_ANNOT) {
        size_t after = i + 1 < n && punct(&t[i + 1], '(') ? close_of(t, n, i + 1) : i + 1;
        if (tok_is(&t[i], T_ANNOT, "rpc")) {
            if (sc->syn->rpc_annotation) rpc_annotation(sc, t, n, i + 1, t[i].line);
            else broken(sc, t[i].line, "@rpc is Godot 4 syntax in a Godot 3 project");
        }
        i = after;
    }
    if (i >= n) return; /* annotations alone: they apply to the next member */
    pj_rpc_config rpc = sc->pending;
    unsigned rpc_line = sc->pending_line;
    memset(&sc->pending, 0, sizeof sc->pending);
    if (tok_is(&t[i], T_IDENT, "static")) i++;
    bool keyword = false;
    for (size_t k = 0; i < n && k < sizeof k_keywords / sizeof k_keywords[0]; k++) {
        if (!tok_is(&t[i], T_IDENT, k_keywords[k].word)) continue;
        if (!sc->syn->network_keywords) {
            broken(sc, t[i].line, "the Godot 3 network keyword was removed in Godot 4 (use @rpc)");
        } else {
            rpc = (pj_rpc_config){true, true, k_keywords[k].mode, k_keywords[k].call_local, GDW_TRANSFER_RELIABLE, 0};
            keyword = true;
        }
        i++;
        break;
    }
    if (i < n && tok_is(&t[i], T_IDENT, "static")) i++;
    if (i >= n) return;
    if (tok_is(&t[i], T_IDENT, "func")) {
        function(sc, t, n, i + 1, rpc);
        return;
    }
    if (rpc.set && !(keyword && tok_is(&t[i], T_IDENT, "var"))) /* Godot 3: `remote var` is an rset, not an RPC */
        broken(sc, rpc_line ? rpc_line : t[i].line, "\"@rpc\" annotation can only be applied to functions");
    for (; i < n; i++) {
        if (tok_is(&t[i], T_IDENT, "class_name") && i + 1 < n && t[i + 1].kind == T_IDENT) {
            sc->out->class_name = pj_strndup(sc->a, t[i + 1].s, t[i + 1].len);
            i++;
        } else if (tok_is(&t[i], T_IDENT, "extends") && i + 1 < n) {
            const tok *e = &t[i + 1];
            sc->out->extends_line = e->line;
            if (e->kind == T_STRING) {
                sc->out->extends_path = tok_string(sc->a, e);
                if (i + 2 < n && punct(&t[i + 2], '.')) pj_problem(sc->probs, sc->file, e->line, "extends an inner class of a script: its RPCs are not read");
            } else if (e->kind == T_IDENT) {
                pj_buf b = {0};
                size_t q = i + 1;
                for (; q < n && (t[q].kind == T_IDENT || punct(&t[q], '.')); q++) pj_buf_add(&b, t[q].s, t[q].len);
                if (b.p) sc->out->extends_name = pj_strndup(sc->a, b.p, b.len);
                free(b.p);
            }
            return;
        } else {
            return;
        }
    }
}

static const syntax *syntax_of(int godot) {
    for (size_t i = 0; i < sizeof k_syntax / sizeof k_syntax[0]; i++)
        if (k_syntax[i].godot == godot) return &k_syntax[i];
    return &k_syntax[0];
}

static void push_tok(scan *sc, tok_kind k, unsigned line, const char *s, size_t len) {
    if (sc->n_toks >= MAX_LINE_TOKENS) { sc->toks_dropped = true; return; }
    sc->toks[sc->n_toks++] = (tok){k, line, s, len, 0};
}

static bool ident_byte(unsigned char c) { return isalnum(c) || c == '_' || c >= 0x80; }

void pj_gdscript_scan(const char *src, size_t len, const char *file, int godot, pj_arena *a, pj_problems *probs,
                      pj_script *out) {
    memset(out, 0, sizeof *out);
    out->file = pj_strdup(a, file);
    scan sc = {.file = out->file, .syn = syntax_of(godot), .a = a, .probs = probs, .out = out,
               .funcs = PJ_VEC(pj_func), .dynamic = PJ_VEC(const char *)};
    sc.toks = malloc(MAX_LINE_TOKENS * sizeof *sc.toks);
    if (!sc.toks) { a->oom = true; return; }
    unsigned line = 1;
    int depth = 0;
    bool at_line_start = true, continued = false;
    unsigned col = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)src[i];
        if (at_line_start) { /* the indentation of a new logical line; blank and comment lines have none */
            if (c == ' ' || c == '\t') { col++; i++; continue; }
            if (c == '\n') { line++; col = 0; i++; continue; }
            if (c == '\r') { i++; continue; }
            if (c == '#') { while (i < len && src[i] != '\n') i++; continue; }
            sc.indent = col;
            at_line_start = false;
        }
        if (c == '\n') {
            line++;
            i++;
            if (depth > 0 || continued) { continued = false; continue; }
            logical_line(&sc);
            sc.n_toks = 0;
            sc.toks_dropped = false;
            at_line_start = true;
            col = 0;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') { i++; continue; }
        continued = false;
        if (c == '#') { while (i < len && src[i] != '\n') i++; continue; }
        if (c == '\\') { continued = true; i++; continue; }
        /* strings, with the prefixes r"", &"", ^"" */
        size_t q = i;
        if ((c == 'r' || c == '&' || c == '^') && i + 1 < len && (src[i + 1] == '"' || src[i + 1] == '\'')) q = i + 1;
        if (src[q] == '"' || src[q] == '\'') {
            char quote = src[q];
            bool triple = q + 2 < len && src[q + 1] == quote && src[q + 2] == quote;
            size_t start = q + (triple ? 3 : 1), j = start;
            unsigned sline = line;
            bool closed = false;
            while (j < len) {
                if (src[j] == '\\' && j + 1 < len) { if (src[j + 1] == '\n') line++; j += 2; continue; }
                if (src[j] == '\n') { if (!triple) break; line++; }
                if (src[j] == quote && (!triple || (j + 2 < len && src[j + 1] == quote && src[j + 2] == quote))) { closed = true; break; }
                j++;
            }
            if (!closed) {
                broken(&sc, sline, "unterminated string");
                i = j;
                continue;
            }
            push_tok(&sc, T_STRING, sline, src + start, j - start);
            if (q > i && sc.n_toks && sc.toks[sc.n_toks - 1].s == src + start) sc.toks[sc.n_toks - 1].prefix = c;
            i = j + (triple ? 3 : 1);
            continue;
        }
        if (c == '@') {
            size_t j = i + 1;
            while (j < len && ident_byte((unsigned char)src[j])) j++;
            push_tok(&sc, T_ANNOT, line, src + i + 1, j - i - 1);
            i = j;
            continue;
        }
        if (isdigit(c) || (c == '.' && i + 1 < len && isdigit((unsigned char)src[i + 1]))) {
            size_t j = i + 1;
            while (j < len && (isalnum((unsigned char)src[j]) || src[j] == '_' || src[j] == '.')) j++;
            push_tok(&sc, T_NUMBER, line, src + i, j - i);
            i = j;
            continue;
        }
        if (ident_byte(c)) {
            size_t j = i + 1;
            while (j < len && ident_byte((unsigned char)src[j])) j++;
            push_tok(&sc, T_IDENT, line, src + i, j - i);
            i = j;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        push_tok(&sc, T_PUNCT, line, src + i, 1);
        i++;
    }
    logical_line(&sc);
    if (depth > 0) broken(&sc, line, "a bracket is not closed at the end of the script");
    if (sc.pending.set) broken(&sc, sc.pending_line, "@rpc at the end of the script applies to no function");
    free(sc.toks);
    if (sc.dynamic_dropped) {
        const char **d = pj_vec_push(&sc.dynamic);
        if (d) *d = pj_printf(a, "%s: and %zu more such calls", out->file, sc.dynamic_dropped);
    }
    /* a parameter typed by the script's own enum holds an int (gdscript_compiler.cpp:185-193 in 4.6.3; the engine's
     * method list says "int" too, conformance/projects/out/typed4.manifest.json) */
    for (size_t f = 0; f < sc.funcs.n; f++) {
        pj_func *fn = &PJ_AT(sc.funcs, pj_func, f);
        for (size_t k = 0; k < fn->n_args; k++)
            if (fn->args[k].type && pj_map_get(&sc.enums, fn->args[k].type, NULL)) fn->args[k].type = "int";
    }
    out->funcs = pj_alloc(a, (sc.funcs.n ? sc.funcs.n : 1) * sizeof(pj_func));
    if (out->funcs) {
        if (sc.funcs.n) memcpy(out->funcs, sc.funcs.p, sc.funcs.n * sizeof(pj_func));
        out->n_funcs = sc.funcs.n;
    }
    out->dynamic = pj_alloc(a, (sc.dynamic.n ? sc.dynamic.n : 1) * sizeof(const char *));
    if (out->dynamic) {
        if (sc.dynamic.n) memcpy(out->dynamic, sc.dynamic.p, sc.dynamic.n * sizeof(const char *));
        out->n_dynamic = sc.dynamic.n;
    }
    if (sc.funcs.oom || sc.dynamic.oom || sc.enums.oom) a->oom = true;
    pj_vec_free(&sc.funcs);
    pj_vec_free(&sc.dynamic);
    pj_map_free(&sc.enums);
}
