/* SPDX-License-Identifier: MIT */
/* reader_test.c — the project reader's rules where the engine's source states them (each expectation
 * cites Godot 4.6.3-stable or 3.6.2-stable, or RFC 1321), and its bounds on hostile projects:
 * an inheritance loop, a missing base, a script over the size cap, a bracket nested a million deep,
 * a scene that instances itself, syntax errors. Every problem must carry its file and line, and the
 * rest of the project must still be read. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codec/tests/testing.h"
#include "project/gdwire_project.h"
#include "project/pj.h"
#include "session/gdwire_session.h"

static char g_dir[256];

static void put(const char *rel, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(2); }
    fputs(text, f);
    fclose(f);
}

static void fresh(const char *name) {
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/%s", tmp ? tmp : "/tmp", name);
    mkdir(g_dir, 0700);
}

static const gdw_rpc_node *node(const gdw_rpc_manifest *m, const char *path) {
    for (size_t i = 0; i < m->n_nodes; i++)
        if (strcmp(m->nodes[i].path, path) == 0) return &m->nodes[i];
    return NULL;
}

static const gdw_rpc_method *method(const gdw_rpc_node *n, const char *name) {
    for (size_t i = 0; n && i < n->n_rpcs; i++)
        if (strcmp(n->rpcs[i].name, name) == 0) return &n->rpcs[i];
    return NULL;
}

static bool problem_at(const gdw_rpc_manifest *m, const char *file, unsigned line, const char *words) {
    for (size_t i = 0; i < m->n_problems; i++) {
        const gdw_project_problem *p = &m->problems[i];
        if (p->file && strcmp(p->file, file) == 0 && (!line || p->line == line) && strstr(p->message, words)) return true;
    }
    return false;
}

static gdw_rpc_manifest *read_dir(const gdw_project_limits *lim) {
    gdw_rpc_manifest *m = NULL;
    char err[256];
    gdw_project_status s = gdw_project_read(g_dir, lim, &m, err, sizeof err);
    CHECK(s == GDW_PROJECT_OK, "read %s: %s", g_dir, err);
    return m;
}

static const char k_project4[] = "config_version=5\n[application]\nrun/main_scene=\"res://main.tscn\"\n";

static void test_md5(void) {
    /* RFC 1321 appendix A.5 */
    const char *in[] = {"", "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz",
                        "12345678901234567890123456789012345678901234567890123456789012345678901234567890"};
    const char *out[] = {"d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661", "900150983cd24fb0d6963f7d28e17f72",
                         "f96b697d7cb7938d525a2f31aaf161d0", "c3fcd3d76192e4007dfb496cca67e13b", "57edf4a22be3c955ac49da2e2107b67a"};
    for (size_t i = 0; i < 6; i++) {
        char hex[33];
        const char *one[1] = {in[i]};
        gdw_rpc_md5(one, 1, hex);
        CHECK(strcmp(hex, out[i]) == 0, "md5(\"%s\") = %s, RFC 1321 says %s", in[i], hex, out[i]);
    }
    /* the names are hashed concatenated, no separator (scene_rpc_interface.cpp:121-126) */
    const char *two[2] = {"abc", "defghijklmnopqrstuvwxyz"}, *whole[1] = {"abcdefghijklmnopqrstuvwxyz"};
    char h2[33], h1[33];
    gdw_rpc_md5(two, 2, h2);
    gdw_rpc_md5(whole, 1, h1);
    CHECK(strcmp(h1, h2) == 0, "concatenation");
}

static void test_annotations(void) {
    fresh("annotations");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://main.gd\" id=\"1\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n");
    put("main.gd",
        "extends Node\n"
        "@rpc\nfunc a_default(): pass\n"                                     /* defaults: parser.cpp:190 */
        "@rpc(\"unreliable_ordered\", \"call_local\", \"any_peer\", 7) func b_order(x: int, y := 2, z: Array[int] = []): pass\n"
        "@rpc(\"any_peer\")\n@warning_ignore(\"unused_parameter\")\nfunc c_two_lines(v: Vector2): pass\n"
        "func not_rpc(): pass\n"
        "class Inner:\n\t@rpc\n\tfunc inner_rpc(): pass\n"                  /* an inner class's own config */
        "@rpc(\"call_remote\",\n\t\"unreliable\")\nfunc d_multiline(): pass\n"
        "func e_lambda():\n\tvar f = func(): rpc_config(\"x\", {})\n");
    gdw_rpc_manifest *m = read_dir(NULL);
    if (!m) return;
    const gdw_rpc_node *n = node(m, "Main");
    CHECK(n && n->n_rpcs == 4, "Main: 4 RPCs (got %zu)", n ? n->n_rpcs : 0);
    const gdw_rpc_method *a = method(n, "a_default"), *b = method(n, "b_order"), *c = method(n, "c_two_lines"),
                         *d = method(n, "d_multiline");
    CHECK(a && a->mode == GDW_RPC_AUTHORITY && !a->call_local && a->transfer_mode == GDW_TRANSFER_RELIABLE && a->channel == 0,
          "@rpc defaults: authority, call_remote, reliable, 0 (gdscript_parser.cpp:190)");
    CHECK(b && b->mode == GDW_RPC_ANY_PEER && b->call_local && b->transfer_mode == GDW_TRANSFER_UNRELIABLE_ORDERED && b->channel == 7,
          "@rpc strings in any order, the channel fourth (gdscript_parser.cpp:5211-5239)");
    CHECK(b && b->n_args == 3 && strcmp(b->args[0].type, "int") == 0 && b->args[1].inferred && strcmp(b->args[1].type, "int") == 0 &&
              strcmp(b->args[2].type, "Array[int]") == 0,
          "b_order's parameters: x: int, y := (inferred), z: Array[int]");
    CHECK(b && !b->args[0].has_default && b->args[1].has_default && b->args[2].has_default && b->n_required == 1,
          "defaults: `y := 2`, `z: Array[int] = []` (gdscript_parser.cpp:1509 in 4.6.3): 1 required");
    CHECK(c && c->mode == GDW_RPC_ANY_PEER, "@rpc two annotations above");
    CHECK(d && d->transfer_mode == GDW_TRANSFER_UNRELIABLE && !d->call_local, "@rpc over two lines");
    CHECK(!method(n, "not_rpc") && !method(n, "inner_rpc"), "no @rpc, no RPC; inner classes apart");
    for (size_t i = 0; n && i + 1 < n->n_rpcs; i++) CHECK(strcmp(n->rpcs[i].name, n->rpcs[i + 1].name) < 0, "sorted");
    for (size_t i = 0; n && i < n->n_rpcs; i++) CHECK(n->rpcs[i].id == i, "id = position (scene_rpc_interface.cpp:96)");
    CHECK(n && n->dynamic, "rpc_config() in a lambda: dynamic");
    gdw_rpc_manifest_free(m);

    /* errors the engine's parser reports: the script would not compile (gdscript_parser.cpp:5198-5250) */
    put("main.gd", "extends Node\n@rpc(\"any_peer\", \"authority\")\nfunc twice(): pass\n@rpc(\"loud\")\nfunc bad(): pass\n"
                   "@rpc(1)\nfunc num(): pass\n@rpc\nvar not_a_func = 1\n@rpc\n@rpc\nfunc two(): pass\n");
    m = read_dir(NULL);
    if (!m) return;
    CHECK(problem_at(m, "res://main.gd", 2, "same setting"), "a setting twice: res://main.gd:2");
    CHECK(problem_at(m, "res://main.gd", 4, "invalid @rpc argument"), "an unknown word: res://main.gd:4");
    CHECK(problem_at(m, "res://main.gd", 6, "argument 1 should be \"String\""), "an int first: res://main.gd:6");
    CHECK(problem_at(m, "res://main.gd", 8, "only be applied to functions"), "@rpc on a var: res://main.gd:8");
    CHECK(problem_at(m, "res://main.gd", 11, "once per function"), "@rpc twice: res://main.gd:11");
    n = node(m, "Main");
    CHECK(n && n->dynamic, "a script that does not compile: its node is dynamic");
    gdw_rpc_manifest_free(m);

    /* Godot 4 refuses Godot 3's keywords (gdscript_parser.cpp:1182-1192) */
    put("main.gd", "extends Node\nremote func old(): pass\n");
    m = read_dir(NULL);
    if (m) CHECK(problem_at(m, "res://main.gd", 2, "removed in Godot 4"), "remote in Godot 4: res://main.gd:2");
    gdw_rpc_manifest_free(m);
}

static void test_godot3(void) {
    fresh("godot3");
    put("project.godot", "config_version=4\n[application]\nrun/main_scene=\"res://main.tscn\"\n");
    put("main.tscn", "[gd_scene load_steps=2 format=2]\n[ext_resource path=\"res://main.gd\" type=\"Script\" id=1]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource( 1 )\n");
    put("main.gd", "extends Node\nremote func r(): pass\nmaster func m(): pass\npuppet func p(): pass\nslave func s(): pass\n"
                   "remotesync func rs(): pass\nsync func sy(): pass\nmastersync func ms(): pass\npuppetsync func ps(): pass\n"
                   "remote var prop = 1\nfunc plain(): pass\n");
    gdw_rpc_manifest *m = read_dir(NULL);
    if (!m) return;
    CHECK(m->godot == 3, "config_version=4 is Godot 3");
    const gdw_rpc_node *n = node(m, "Main");
    CHECK(n && n->n_rpcs == 8 && !n->has_md5, "Godot 3: 8 RPCs, no checksum");
    /* core/io/multiplayer_api.h:119-127 in 3.6.2: slave = puppet, sync = remotesync */
    static const struct { const char *name; gdw_rpc_mode mode; bool local; } want[] = {
        {"r", GDW_RPC_REMOTE, false}, {"m", GDW_RPC_MASTER, false}, {"p", GDW_RPC_PUPPET, false}, {"s", GDW_RPC_PUPPET, false},
        {"rs", GDW_RPC_REMOTESYNC, true}, {"sy", GDW_RPC_REMOTESYNC, true}, {"ms", GDW_RPC_MASTERSYNC, true}, {"ps", GDW_RPC_PUPPETSYNC, true}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gdw_rpc_method *x = method(n, want[i].name);
        CHECK(x && x->mode == want[i].mode && x->call_local == want[i].local, "Godot 3 keyword for %s", want[i].name);
    }
    gdw_rpc_manifest_free(m);
}

static void test_hostile(void) {
    fresh("hostile");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n"
                     "[ext_resource type=\"Script\" path=\"res://loop_a.gd\" id=\"1\"]\n"
                     "[ext_resource type=\"Script\" path=\"res://orphan.gd\" id=\"2\"]\n"
                     "[ext_resource type=\"Script\" path=\"res://big.gd\" id=\"3\"]\n"
                     "[ext_resource type=\"Script\" path=\"res://deep.gd\" id=\"4\"]\n"
                     "[ext_resource type=\"PackedScene\" path=\"res://self.tscn\" id=\"5\"]\n"
                     "[ext_resource type=\"Script\" path=\"res://good.gd\" id=\"6\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\n"
                     "[node name=\"Loop\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"1\")\n"
                     "[node name=\"Orphan\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"2\")\n"
                     "[node name=\"Big\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"3\")\n"
                     "[node name=\"Deep\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"4\")\n"
                     "[node name=\"Self\" parent=\".\" instance=ExtResource(\"5\")]\n"
                     "[node name=\"Lost\" type=\"Node\" parent=\"Nowhere\"]\n"
                     "[node name=\"Good\" type=\"Node\" parent=\".\"]\nscript = ExtResource(\"6\")\n");
    put("loop_a.gd", "extends \"res://loop_b.gd\"\n@rpc\nfunc a(): pass\n");
    put("loop_b.gd", "extends \"loop_a.gd\"\n@rpc\nfunc b(): pass\n");
    put("orphan.gd", "extends \"res://missing.gd\"\n@rpc\nfunc o(): pass\n");
    put("self.tscn", "[gd_scene format=3]\n[ext_resource type=\"PackedScene\" path=\"res://self.tscn\" id=\"1\"]\n"
                     "[node name=\"S\" type=\"Node\"]\n[node name=\"Again\" parent=\".\" instance=ExtResource(\"1\")]\n");
    put("good.gd", "extends Node\n@rpc(\"any_peer\")\nfunc fine(): pass\n");
    /* a million open brackets, then a function */
    size_t depth = 1000000;
    char *deep = malloc(depth + 64);
    strcpy(deep, "extends Node\nvar x = ");
    memset(deep + strlen(deep), '(', depth);
    deep[strlen("extends Node\nvar x = ") + depth] = 0;
    put("deep.gd", deep);
    free(deep);
    /* a script larger than the cap this test sets */
    char *big = malloc(3u << 20);
    memset(big, '#', (3u << 20) - 1);
    big[(3u << 20) - 1] = 0;
    put("big.gd", big);
    free(big);
    char link[512];
    snprintf(link, sizeof link, "%s/loop", g_dir); /* a folder that holds itself */
    if (symlink(".", link) != 0) perror(link);
    gdw_project_limits lim = {0};
    lim.max_file_bytes = 2u << 20;
    clock_t t0 = clock();
    gdw_rpc_manifest *m = read_dir(&lim);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (!m) return;
    CHECK(secs < 5, "hostile project read in %.2f s", secs);
    /* links are followed (Bazel's runfiles are links); a folder that holds itself ends at the depth cap or at
     * the kernel's own limit on links in a path (40 on Linux), whichever comes first: bounded either way */
    size_t looped = 0;
    for (size_t i = 0; i < m->n_problems; i++)
        looped += m->problems[i].file && strncmp(m->problems[i].file, "res://loop/loop/", 16) == 0;
    CHECK(looped > 0 && looped < 64 * 8, "a folder that holds itself: walked, and ended (%zu problems inside it)", looped);
    CHECK(problem_at(m, "res://loop_a.gd", 1, "inheritance loop") || problem_at(m, "res://loop_b.gd", 1, "inheritance loop"),
          "inheritance loop reported at its extends line");
    CHECK(problem_at(m, "res://orphan.gd", 1, "no such script"), "missing base: res://orphan.gd:1");
    CHECK(problem_at(m, "res://big.gd", 0, "not read"), "a script over the cap: not read");
    CHECK(problem_at(m, "res://deep.gd", 0, "bracket is not closed"), "a million open brackets: reported");
    CHECK(problem_at(m, "res://self.tscn", 4, "deeper than"), "a scene instancing itself: res://self.tscn:4");
    CHECK(problem_at(m, "res://main.tscn", 18, "no such node"), "a parent that is not there: res://main.tscn:18");
    const gdw_rpc_node *good = node(m, "Main/Good");
    CHECK(good && good->n_rpcs == 1 && !good->dynamic, "the rest of the project is read");
    const gdw_rpc_node *orphan = node(m, "Main/Orphan");
    CHECK(orphan && orphan->dynamic && method(orphan, "o"), "a node over a missing base: its own RPCs, flagged dynamic");
    gdw_rpc_manifest_free(m);
}

static void test_csharp(void) {
    /* C# is out of scope (issue 59): each .cs file with [Rpc] is a problem "not read (C#)", attached or not,
     * and a node it is attached to is dynamic */
    fresh("csharp");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://Player.cs\" id=\"1\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n");
    put("Player.cs", "public partial class Player : Node {\n  [Rpc(MultiplayerApi.RpcMode.AnyPeer)]\n  public void Hit(int n) {}\n}\n");
    put("Unused.cs", "public partial class Unused : Node {\n  [Rpc]\n  public void Ping() {}\n}\n");
    put("Plain.cs", "public partial class Plain : Node {}\n");
    gdw_rpc_manifest *m = read_dir(NULL);
    if (!m) return;
    CHECK(problem_at(m, "res://Player.cs", 0, "not read (C#)") && problem_at(m, "res://Unused.cs", 0, "not read (C#)"), "each .cs with [Rpc]");
    CHECK(!problem_at(m, "res://Plain.cs", 0, "not read"), "a .cs without [Rpc] is no problem");
    const gdw_rpc_node *n = node(m, "Main");
    CHECK(n && n->dynamic && n->n_rpcs == 0, "its node: dynamic, no RPCs guessed");
    gdw_rpc_manifest_free(m);
}

static void test_spawn_loop(void) {
    /* a scene whose spawner spawns the scene itself, under itself: bounded by the path length and the node caps */
    fresh("spawnloop");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://r.gd\" id=\"1\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"
                     "[node name=\"Sp\" type=\"MultiplayerSpawner\" parent=\".\"]\n"
                     "_spawnable_scenes = PackedStringArray(\"res://main.tscn\")\nspawn_path = NodePath(\".\")\n");
    put("r.gd", "extends Node\n@rpc\nfunc r(): pass\n");
    clock_t t0 = clock();
    gdw_rpc_manifest *m = read_dir(NULL);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (!m) return;
    CHECK(secs < 5, "a spawner spawning its own scene: read in %.2f s", secs);
    CHECK(node(m, "Main") && node(m, "Main/Sp/*"), "the first levels are there");
    CHECK(problem_at(m, "res://main.tscn", 0, "past 4,096 bytes"), "and the loop is reported");
    gdw_rpc_manifest_free(m);
}

static void test_scan_alone(void) {
    /* the scanners straight on bytes: unterminated strings and headers, binary garbage */
    const char *inputs[] = {"@rpc(\"any_peer", "func f(\"\"\"", "[node name=\"x", "\xff\xfe\x00@rpc((((", "key = \"never closed\n",
                            "@rpc(\"any_peer\")\n", "\\\n\\\n@"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        pj_arena a = {0};
        pj_problems probs = {&a, PJ_VEC(gdw_project_problem), 100, 0};
        pj_script s;
        pj_gdscript_scan(inputs[i], strlen(inputs[i]) + (i == 3 ? 5 : 0), "res://x.gd", 4, &a, &probs, &s);
        pj_text_resource r;
        pj_text_resource_scan(inputs[i], strlen(inputs[i]), "res://x.tscn", &a, &probs, 1000, &r);
        CHECK(probs.list.n > 0 || i == 6, "input %zu: a problem reported", i);
        pj_vec_free(&probs.list);
        pj_arena_free(&a);
    }
}

/* `x := value`: typed as its value (GDScriptAnalyzer::resolve_assignable, gdscript_analyzer.cpp:2122-2130 in 4.6.3);
 * the literals' types the engine's dump confirms in conformance/projects/builtin4 (//project:engine_test); a constant
 * the reader cannot type stays inferred with no type, and the argument check does not judge it. */
static void test_inferred(void) {
    fresh("inferred");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://main.gd\" id=\"1\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n");
    put("main.gd", "extends Node\nconst MAX = 3\n@rpc\nfunc f(a := 2.0e3, b := MAX, c := PackedInt32Array([1]), d := 0x1e, e := Variant()): pass\n"
                   "@rpc\nfunc g(k: Kind, o: Other): pass\nenum Kind { A, B }\nclass Inner:\n\tenum Other { C }\n");
    gdw_rpc_manifest *m = read_dir(NULL);
    if (!m) return;
    const gdw_rpc_method *f = method(node(m, "Main"), "f");
    CHECK(f && f->n_args == 5 && strcmp(f->args[0].type, "float") == 0 && !f->args[1].type && f->args[1].inferred &&
              strcmp(f->args[2].type, "PackedInt32Array") == 0 && strcmp(f->args[3].type, "int") == 0 && !f->args[4].type,
          "inferred: 2.0e3 float, a constant unknown, a constructor its type, 0x1e int, Variant() none");
    const gdw_rpc_method *g = method(node(m, "Main"), "g");
    CHECK(g && g->n_args == 2 && strcmp(g->args[0].type, "int") == 0 && strcmp(g->args[1].type, "Other") == 0,
          "a parameter typed by the script's own enum (declared after it) is an int (gdscript_compiler.cpp:185-193; the "
          "engine's method list says int, out/typed4.manifest.json); an inner class's enum is not the script's");
    gdw_value s = {.type = GDW_STRING};
    const gdw_value *args[] = {&s, &s};
    gdw_rpc_fit r = f ? gdw_rpc_args_fit(f, args, 2) : (gdw_rpc_fit){0};
    CHECK(f && !r.fits && r.arg == 0, "a String for `a := 2.0e3` is refused");
    gdw_value flt = {.type = GDW_FLOAT, .width = 8};
    const gdw_value *two[] = {&flt, &s};
    r = f ? gdw_rpc_args_fit(f, two, 2) : (gdw_rpc_fit){0};
    CHECK(f && r.fits && !r.known, "a String for `b := MAX`: the manifest cannot tell");
    gdw_rpc_manifest_free(m);
}

/* A rest parameter (Godot 4.5+: `func f(a, ...more)`, gdscript_parser.cpp:1670-1702 in 4.6.3) is no argument of
 * its own: the function takes any number past the declared ones, into an untyped Array (gdscript_vm.cpp:556-562,
 * 628-636), and still refuses fewer than the required (Godot 4.6.3 did both, project/tests/engine/
 * rest_and_variant_containers.log). The manifest keeps its name, through JSON too. */
static void test_rest(void) {
    fresh("rest");
    put("project.godot", k_project4);
    put("main.tscn", "[gd_scene format=3]\n[ext_resource type=\"Script\" path=\"res://main.gd\" id=\"1\"]\n"
                     "[node name=\"Main\" type=\"Node\"]\nscript = ExtResource(\"1\")\n");
    put("main.gd", "extends Node\n@rpc(\"any_peer\")\nfunc v(a: int, ...more: Array) -> void: pass\n");
    gdw_rpc_manifest *m = read_dir(NULL);
    if (!m) return;
    const gdw_rpc_method *v = method(node(m, "Main"), "v");
    CHECK(v && v->n_args == 1 && v->rest && strcmp(v->rest, "more") == 0, "v(a: int, ...more): one argument and a rest");
    gdw_value i = {.type = GDW_INT}, s = {.type = GDW_STRING};
    const gdw_value *three[] = {&i, &s, &s}, *bad[] = {&s, &s};
    gdw_rpc_fit r = v ? gdw_rpc_args_fit(v, three, 3) : (gdw_rpc_fit){0};
    CHECK(v && r.fits && r.known, "three arguments to v(a: int, ...more) run: %s", r.reason ? r.reason : "");
    r = v ? gdw_rpc_args_fit(v, NULL, 0) : (gdw_rpc_fit){0};
    CHECK(v && !r.fits && r.reason && strcmp(r.reason, "expects at least 1 argument, got 0") == 0, "none: too few (%s)", r.reason ? r.reason : "");
    r = v ? gdw_rpc_args_fit(v, bad, 2) : (gdw_rpc_fit){0};
    CHECK(v && !r.fits && r.arg == 0, "a String for a: int is still refused");
    size_t len = 0;
    char *json = gdw_rpc_manifest_json(m, &len);
    gdw_rpc_manifest *back = NULL;
    char err[200] = "";
    CHECK(json && gdw_rpc_manifest_parse(json, len, &back, err, sizeof err) == GDW_PROJECT_OK, "JSON back: %s", err);
    const gdw_rpc_method *vb = back ? method(node(back, "Main"), "v") : NULL;
    CHECK(vb && vb->rest && strcmp(vb->rest, "more") == 0 && vb->n_args == 1, "the rest parameter kept through JSON");
    char *text = gdw_rpc_manifest_text(m, &len);
    CHECK(text && strstr(text, "v(a: int, ...more)"), "the text shows it");
    free(text);
    free(json);
    gdw_rpc_manifest_free(back);
    gdw_rpc_manifest_free(m);
}

/* gdw_rpc_args_fit on rules read in the engines' sources (the engine's own runs are //project:engine_test's). */
static void test_fit(void) {
    gdw_rpc_arg a2[] = {{"amount", "int", false, false}, {"why", "String", true, false}};
    gdw_rpc_method m = {.name = "hit", .args = a2, .n_args = 2, .args_known = true, .n_required = 1, .godot = 4};
    gdw_value i = {.type = GDW_INT}, f = {.type = GDW_FLOAT, .width = 8}, s = {.type = GDW_STRING},
              sn = {.type = GDW_STRING_NAME}, nil = {.type = GDW_NIL};
    const gdw_value *ok[] = {&f, &sn}, *bad[] = {&s}, *three[] = {&i, &s, &s}, *undecoded[] = {NULL};
    gdw_rpc_fit r = gdw_rpc_args_fit(&m, ok, 2);
    CHECK(r.fits && r.known, "float -> int, StringName -> String: can_convert_strict (variant.cpp:560-569 int, 582-589 String, in 4.6.3)");
    r = gdw_rpc_args_fit(&m, bad, 1);
    CHECK(!r.fits && r.arg == 0 && strcmp(r.reason, "argument 1 (amount): int expected, got String") == 0,
          "String -> int refused: %s", r.reason);
    r = gdw_rpc_args_fit(&m, three, 3);
    CHECK(!r.fits && r.arg == 3 && strcmp(r.reason, "expects 1 to 2 arguments, got 3") == 0, "too many (gdscript_vm.cpp:557-563): %s", r.reason);
    r = gdw_rpc_args_fit(&m, NULL, 0);
    CHECK(!r.fits && r.arg == 0, "too few (gdscript_vm.cpp:564-568)");
    r = gdw_rpc_args_fit(&m, undecoded, 1);
    CHECK(!r.fits && strstr(r.reason, "got Nil (it did not decode)"), "4: an undecoded argument is Nil (scene_rpc_interface.cpp:288): %s", r.reason);
    m.godot = 3;
    r = gdw_rpc_args_fit(&m, undecoded, 1);
    CHECK(!r.fits && strstr(r.reason, "does not decode"), "3: no call (multiplayer_api.cpp:308 in 3.6.2): %s", r.reason);
    gdw_rpc_arg t[] = {{"x", "Transform2D", false, false}};
    gdw_value t3 = {.type = GDW_TRANSFORM3D};
    const gdw_value *tv[] = {&t3};
    gdw_rpc_method mt = {.name = "t", .args = t, .n_args = 1, .args_known = true, .n_required = 1, .godot = 4};
    CHECK(gdw_rpc_args_fit(&mt, tv, 1).fits, "4: Transform3D -> Transform2D (variant.cpp:627-634, variant_construct.cpp:274)");
    mt.godot = 3;
    CHECK(gdw_rpc_args_fit(&mt, tv, 1).fits, "3: Transform -> Transform2D (variant.cpp:444-450 in 3.6.2)");
    gdw_value str = {.type = GDW_STRING};
    const gdw_value *sv[] = {&str};
    CHECK(!gdw_rpc_args_fit(&mt, sv, 1).fits, "3: String -> Transform2D refused");
    gdw_rpc_arg ta[] = {{"xs", "Array[int]", false, false}, {"n", "Node", false, false}};
    gdw_container ci = {.elem = {.kind = GDW_DESC_BUILTIN, .builtin = GDW_INT}};
    gdw_value untyped = {.type = GDW_ARRAY}, typed = {.type = GDW_ARRAY, .flags = GDW_VF_TYPED, .u.ext = &ci};
    gdw_rpc_method ma = {.name = "a", .args = ta, .n_args = 2, .args_known = true, .n_required = 2, .godot = 4};
    const gdw_value *av[] = {&untyped, &nil}, *tv2[] = {&typed, &i}, *tv3[] = {&typed, &s};
    r = gdw_rpc_args_fit(&ma, av, 2);
    CHECK(!r.fits && r.arg == 0, "an untyped Array for Array[int] (gdscript_function.h:90-92)");
    r = gdw_rpc_args_fit(&ma, tv2, 2);
    CHECK(!r.fits && r.known && r.arg == 1, "an int for Node, one of the engine's classes (classes/godot4.6.txt): refused");
    /* Array[Variant] and Dictionary[Variant, Variant] are no typed containers: the analyzer keeps no element type
       of kind VARIANT (gdscript_analyzer.cpp:763-780 in 4.6.3), so an untyped one is taken (Godot 4.6.3 ran both:
       project/tests/engine/rest_and_variant_containers.log) */
    gdw_rpc_arg tv_any[] = {{"xs", "Array[Variant]", false, false}, {"d", "Dictionary[Variant, Variant]", false, false}};
    gdw_value untyped_dict = {.type = GDW_DICTIONARY};
    const gdw_value *anyv[] = {&untyped, &untyped_dict};
    gdw_rpc_method many_any = {.name = "v", .args = tv_any, .n_args = 2, .args_known = true, .n_required = 2, .godot = 4};
    r = gdw_rpc_args_fit(&many_any, anyv, 2);
    CHECK(r.fits && r.known, "an untyped Array for Array[Variant], Dictionary for Dictionary[Variant, Variant]: %s", r.reason ? r.reason : "");
    ta[1].type = "Kind";
    r = gdw_rpc_args_fit(&ma, tv2, 2);
    CHECK(r.fits && !r.known, "an int for Kind, no engine class: a class_name refuses it, an enum takes it: unknown");
    ta[0].type = NULL, ta[1].type = "File";
    ma.godot = 3;
    const gdw_value *ts[] = {&untyped, &s};
    r = gdw_rpc_args_fit(&ma, ts, 2);
    CHECK(r.fits && r.known, "3: a String for File (_File, gdscript_function.h:88-94 in 3.6.2) runs with null");
    ma.godot = 4;
    ta[0].type = "Array[int]", ta[1].type = "Node";
    r = gdw_rpc_args_fit(&ma, tv3, 2);
    CHECK(!r.fits && r.arg == 1, "a String for Node: neither a class nor an enum takes it");
    m.args_known = false;
    r = gdw_rpc_args_fit(&m, bad, 1);
    CHECK(r.fits && !r.known, "arguments not known: fits, unknown");
    const gdw_value *many[256] = {0};
    CHECK(!gdw_rpc_args_fit(&m, many, 256).fits, "256 arguments (scene_rpc_interface.cpp:311)");

    gdw_rpc_method ms[] = {{.id = 0, .name = "a"}, {.id = 1, .name = "b"}};
    gdw_rpc_node nodes[] = {{.path = "Players/*", .has_md5 = true, .md5 = "11111111111111111111111111111111", .rpcs = ms, .n_rpcs = 2},
                            {.path = "Players/*", .has_md5 = true, .md5 = "22222222222222222222222222222222", .rpcs = ms, .n_rpcs = 1},
                            {.path = "Players/Bot", .has_md5 = true, .md5 = "33333333333333333333333333333333"}};
    gdw_rpc_manifest man = {.godot = 4, .nodes = nodes, .n_nodes = 3};
    CHECK(gdw_rpc_manifest_node(&man, "Players/2", 9, NULL) == &nodes[0], "a * path, the first");
    CHECK(gdw_rpc_manifest_node(&man, "Players/2", 9, "22222222222222222222222222222222") == &nodes[1], "the md5 tells apart");
    CHECK(gdw_rpc_manifest_node(&man, "Players/2", 9, "99999999999999999999999999999999") == &nodes[0], "no md5 matches: the first");
    CHECK(gdw_rpc_manifest_node(&man, "Players/Bot", 11, NULL) == &nodes[2], "the same text before a * path");
    CHECK(!gdw_rpc_manifest_node(&man, "Other", 5, NULL), "none");
    CHECK(gdw_rpc_node_method(&nodes[0], 1, NULL, 0) == &ms[1] && gdw_rpc_node_method(&nodes[0], 0, "b", 1) == &ms[1] &&
          !gdw_rpc_node_method(&nodes[1], 1, NULL, 0), "by id, by name");
}

/* An RPC whose argument count byte promises more Variants than the packet holds: Godot 4.6.3's
 * decode_and_decompress_variants stops at the first it cannot read (scene/main/multiplayer_api.cpp:261-268), the
 * rest stay Nil, and _process_rpc calls the method with all argc of them all the same
 * (modules/multiplayer/scene_rpc_interface.cpp:263-296). */
static void test_annotate_short_args(void) {
    static const char json[] = "{\"format\":\"gdwire-rpc-manifest\",\"godot\":4,\"nodes\":[{\"path\":\"Game\",\"rpcs\":["
                               "{\"id\":0,\"name\":\"hit\",\"mode\":\"any_peer\",\"args\":[{\"name\":\"a\",\"type\":null},"
                               "{\"name\":\"b\",\"type\":null},{\"name\":\"c\",\"type\":null}]},"
                               "{\"id\":1,\"name\":\"typed\",\"mode\":\"any_peer\",\"args\":[{\"name\":\"a\",\"type\":\"int\"},"
                               "{\"name\":\"b\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"int\"}]}]}]}";
    gdw_rpc_manifest *m = NULL;
    char err[200];
    CHECK(gdw_rpc_manifest_parse(json, sizeof json - 1, &m, err, sizeof err) == GDW_PROJECT_OK, "manifest: %s", err);
    if (!m) return;
    gdw_rpc_annotator *an = gdw_rpc_annotator_new(m);
    /* REMOTE_CALL, node id and method id 8 bits (scene_rpc_interface.cpp:161-220), cache id 1, method 0 or 1,
       argc 3, then one int (5) and nothing more */
    uint8_t pkt[] = {0x00, 0x01, 0x00, 0x03, 0x02, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00};
    for (int method = 0; method < 2; method++) {
        pkt[2] = (uint8_t)method;
        gdw_mp_parsed mp;
        gdw_error e;
        CHECK(gdw_mp_parse(pkt, sizeof pkt, gdw_dialect_find("godot4"), NULL, NULL, &mp, &e) == GDW_OK, "parse: %s", e.message);
        gdw_message msg = {.from = 2, .to = 1, .path = "Game", .mp = &mp, .bytes = pkt, .len = sizeof pkt};
        gdw_rpc_call c;
        CHECK(gdw_rpc_annotate(an, &msg, &c) && c.method, "the RPC annotated");
        if (method == 0)
            CHECK(c.fit.fits && c.fit.known, "untyped: the engine calls hit(5, null, null): %s", c.fit.reason ? c.fit.reason : "");
        else
            CHECK(!c.fit.fits && c.fit.arg == 1 && strstr(c.fit.reason, "got Nil"),
                  "typed: Nil for int refused at argument 2 (gdscript_vm.cpp:587-616): %s", c.fit.reason ? c.fit.reason : "");
        gdw_mp_parsed_free(&mp);
    }
    gdw_rpc_annotator_free(an);
    gdw_rpc_manifest_free(m);
}

int main(void) {
    test_annotate_short_args();
    test_md5();
    test_annotations();
    test_godot3();
    test_hostile();
    test_spawn_loop();
    test_csharp();
    test_scan_alone();
    test_fit();
    test_inferred();
    test_rest();
    return t_finish();
}
