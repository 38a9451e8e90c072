/* SPDX-License-Identifier: MIT */
/* gdwire_project.h — a Godot project's RPCs and replicated properties, read statically from its
 * files (project.godot, text scenes, GDScript), as the manifest of docs/rpc-manifest.md.
 *
 * Nothing is executed. Every reader is bounded (gdw_project_limits); what it cannot read is a
 * problem with its file and line, and reading goes on with the rest of the project. */
#ifndef GDWIRE_PROJECT_H
#define GDWIRE_PROJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h" /* GDW_API */

#ifdef __cplusplus
extern "C" {
#endif

/* RPC modes: Godot 4's MultiplayerAPI::RPCMode (scene/main/multiplayer_api.h:47-51) and Godot 3's
 * keywords (core/io/multiplayer_api.h:119-127 in 3.6.2), one list: the manifest's names. */
typedef enum {
    GDW_RPC_DISABLED, GDW_RPC_ANY_PEER, GDW_RPC_AUTHORITY,
    GDW_RPC_REMOTE, GDW_RPC_MASTER, GDW_RPC_PUPPET, GDW_RPC_REMOTESYNC, GDW_RPC_MASTERSYNC, GDW_RPC_PUPPETSYNC,
    GDW_RPC_MODE_COUNT
} gdw_rpc_mode;
/* MultiplayerPeer::TransferMode (scene/main/multiplayer_peer.h:43-47). */
typedef enum { GDW_TRANSFER_UNRELIABLE, GDW_TRANSFER_UNRELIABLE_ORDERED, GDW_TRANSFER_RELIABLE } gdw_transfer_mode;
/* SceneReplicationConfig::ReplicationMode. */
typedef enum { GDW_REPLICATE_NEVER, GDW_REPLICATE_ALWAYS, GDW_REPLICATE_ON_CHANGE } gdw_replication_mode;

GDW_API const char *gdw_rpc_mode_name(gdw_rpc_mode m);
GDW_API const char *gdw_transfer_mode_name(gdw_transfer_mode t);
GDW_API const char *gdw_replication_mode_name(gdw_replication_mode m);

typedef struct gdw_rpc_arg {
    const char *name;
    const char *type; /* as declared ("int", "Array[int]"), or inferred from a literal default (`x := 0`: "int");
                         NULL when untyped, or inferred from what the reader cannot type (see inferred) */
    bool has_default; /* declared with a default value (`x: int = 0`, `x := 0`): the caller may leave it out */
    bool inferred;    /* declared `x := value`: typed as its value (with type NULL, a type the manifest cannot tell) */
} gdw_rpc_arg;

typedef struct gdw_rpc_method {
    uint16_t id;           /* the method id on the wire; bit 15 for a node-config RPC */
    bool from_node;        /* from Node.rpc_config rather than the script */
    const char *name;
    gdw_rpc_mode mode;
    bool call_local;
    gdw_transfer_mode transfer_mode;
    int channel;
    const gdw_rpc_arg *args;
    size_t n_args;
    bool args_known;       /* false in an engine dump that gave no arguments */
    const char *declared_at; /* "res://x.gd:12", or NULL */
    size_t n_required;     /* the arguments a call must give: those before the first with a default */
    int godot;             /* 3 or 4, the manifest's: which engine's rules gdw_rpc_args_fit applies */
    const char *rest;      /* the rest parameter's name (`func f(a, ...more)`, Godot 4.5+): the method takes any number
                              of arguments past args, untyped (gdscript_vm.cpp:556-562, 628-636 in 4.6.3); NULL: none */
} gdw_rpc_method;

typedef struct gdw_rpc_node {
    const char *path;       /* as SIMPLIFY_PATH carries it; a "*" segment is a run-time name */
    const char *origin;     /* "main_scene", "autoload", "spawnable", "runtime" */
    const char *scene, *script, *class_name; /* or NULL */
    bool has_md5;
    char md5[33];
    bool dynamic;
    const char *const *dynamic_reasons;
    size_t n_dynamic_reasons;
    const gdw_rpc_method *rpcs; /* in id order */
    size_t n_rpcs;
} gdw_rpc_node;

typedef struct gdw_replicated_property {
    const char *path;       /* ".:position" */
    bool spawn;
    gdw_replication_mode mode;
    int spawn_index, sync_index, watch_index; /* -1: not in that list */
} gdw_replicated_property;

typedef struct gdw_rpc_synchronizer {
    const char *path, *root_path, *scene;
    const gdw_replicated_property *properties;
    size_t n_properties;
} gdw_rpc_synchronizer;

typedef struct gdw_rpc_spawner {
    const char *path, *spawn_path, *scene;
    const char *const *scenes; /* index = the SPAWN packet's scene id */
    size_t n_scenes;
} gdw_rpc_spawner;

typedef struct gdw_project_problem {
    const char *file; /* "res://x.gd", or NULL */
    unsigned line;    /* 1-based; 0: none */
    const char *message;
} gdw_project_problem;

typedef struct gdw_rpc_manifest {
    int godot;                 /* 3 or 4 */
    bool from_engine;          /* "source": "engine" */
    const char *generator, *name, *main_scene, *dir;
    const gdw_rpc_node *nodes; size_t n_nodes;
    const gdw_rpc_synchronizer *synchronizers; size_t n_synchronizers;
    const gdw_rpc_spawner *spawners; size_t n_spawners;
    const gdw_project_problem *problems; size_t n_problems;
} gdw_rpc_manifest;

/* The caps. Zero members take the defaults (gdw_project_limits_default). */
typedef struct gdw_project_limits {
    size_t max_file_bytes;     /* a file larger is a problem, not read (default 16 MiB) */
    size_t max_total_bytes;    /* all files together (default 1 GiB) */
    size_t max_files;          /* files walked (default 200,000) */
    size_t max_dir_depth;      /* folders deep (default 64) */
    size_t max_nodes;          /* nodes of one scene after instancing (default 200,000) */
    size_t max_instance_depth; /* scenes inside scenes (default 32) */
    size_t max_inheritance;    /* scripts extending scripts (default 64) */
    size_t max_total_nodes;    /* nodes of every scene tree together: the main scene, autoloads, every spawnable
                                  scene at every spawner (default 2,000,000) */
} gdw_project_limits;
GDW_API void gdw_project_limits_default(gdw_project_limits *l);

typedef enum { GDW_PROJECT_OK, GDW_PROJECT_NOT_A_PROJECT, GDW_PROJECT_NOMEM, GDW_PROJECT_IO, GDW_PROJECT_SYNTAX } gdw_project_status;

/* Read the project in dir (the folder holding project.godot). limits NULL: the defaults.
 * On success *out is a manifest to free with gdw_rpc_manifest_free. On failure *out is NULL and
 * err (if not NULL) says why in at most err_cap bytes. */
GDW_API gdw_project_status gdw_project_read(const char *dir, const gdw_project_limits *limits, gdw_rpc_manifest **out,
                                    char *err, size_t err_cap);

/* Read a manifest saved as JSON (gdwire rpc --json, or the game addon). */
GDW_API gdw_project_status gdw_rpc_manifest_parse(const char *json, size_t len, gdw_rpc_manifest **out, char *err, size_t err_cap);

/* The manifest as JSON (docs/rpc-manifest.schema.json), NUL-terminated, malloc'd; NULL on no memory. */
GDW_API char *gdw_rpc_manifest_json(const gdw_rpc_manifest *m, size_t *len);
/* The manifest as text, one block a node, malloc'd; NULL on no memory. */
GDW_API char *gdw_rpc_manifest_text(const gdw_rpc_manifest *m, size_t *len);

GDW_API void gdw_rpc_manifest_free(gdw_rpc_manifest *m);

/* What differs between two builds' manifests, as text lines (malloc'd in *text), and whether they
 * can still talk: false when a node's checksum differs, a method id names another method, a
 * method's arguments differ, or a node with RPCs is on one side only. label_a/label_b name the
 * sides in the sentences ("client", "server"). Returns false also on no memory (*text NULL). */
GDW_API bool gdw_rpc_manifest_diff(const gdw_rpc_manifest *a, const gdw_rpc_manifest *b, const char *label_a,
                           const char *label_b, char **text, size_t *len, bool *compatible);

/* The Godot 4 checksum of a list of RPC names in id order (node config first, then the script's):
 * md5 of their concatenation (modules/multiplayer/scene_rpc_interface.cpp:118-127 in 4.6.3). */
GDW_API void gdw_rpc_md5(const char *const *names, size_t n, char out[33]);

/* Whether a manifest path (with "*" segments) names a concrete node path. */
GDW_API bool gdw_rpc_path_match(const char *pattern, const char *path);

/* The manifest's node for a concrete node path ("*" segments match one name); md5 (33 bytes, or NULL)
   tells apart nodes one "*" path names. NULL: none.
   A node whose path is the same text comes before one a "*" path names. With md5, the node the path names
   whose MD5 it is; when none has it, the first the path names (its md5 then differs from the one given:
   the engine's "The rpc node checksum failed"). */
GDW_API const gdw_rpc_node *gdw_rpc_manifest_node(const gdw_rpc_manifest *m, const char *path, size_t path_len, const char *md5);
/* A node's method by wire id (Godot 4; name NULL) or by name (Godot 3: id ignored). NULL: none. */
GDW_API const gdw_rpc_method *gdw_rpc_node_method(const gdw_rpc_node *n, int id, const char *name, size_t name_len);

typedef struct gdw_rpc_fit {
    bool fits;          /* the engine would run the method with these arguments */
    bool known;         /* false: the manifest cannot tell (args_known false, dynamic node): treat as fitting */
    size_t arg;         /* when !fits: the index of the first argument refused, or n_args for a count mismatch */
    const char *reason; /* static text: "expects 2 to 3 arguments, got 4", "argument 1 (amount): int expected, got String" */
} gdw_rpc_fit;
/* Whether the engine would call m with these decoded arguments (NULL entries: a value that did not decode).
   The rules are the engine's (docs/rpc-manifest.md "Which calls the engine runs", with citations), one row
   per engine generation (m->godot), with SceneMultiplayer's allow_object_decoding false (its default).
   reason is static text, valid until the next call from the same thread (it names the argument); NULL when
   the call fits and the manifest knows. */
GDW_API gdw_rpc_fit gdw_rpc_args_fit(const gdw_rpc_method *m, const gdw_value *const *args, size_t n_args);

/* One RPC of a session read against a manifest: its node, its method, whether the engine would run it. What
   capture --project, the Python and the JS session show (one function, so that they say the same). */
typedef struct gdw_rpc_call {
    const gdw_rpc_node *node;     /* NULL: no node of the manifest at that path */
    const gdw_rpc_method *method; /* NULL: the node has no such method (or no node) */
    bool md5_differs;             /* the MD5 its SIMPLIFY_PATH announced is not the node's ("checksum failed") */
    gdw_rpc_fit fit;              /* known false when there is no method, the node is dynamic, or its MD5 differs */
} gdw_rpc_call;
/* path: the node path as the session resolved it (NUL-terminated); md5: the one announced for it, or NULL; the
   method by id (Godot 4, name NULL) or by name (Godot 3); args as gdw_rpc_args_fit takes them. */
GDW_API gdw_rpc_call gdw_rpc_manifest_call(const gdw_rpc_manifest *m, const char *path, const char *md5, int id,
                                           const char *name, size_t name_len, const gdw_value *const *args, size_t n_args);

/* A session's messages read against a manifest, in the session's order (project/annotate.c): the one reading
   capture --project, gdwire.Session(project=...) in Python and the JS Session({project}) share. The manifest
   must outlive the annotator. It keeps each peer's announced MD5 per node path (at most 4,096). */
struct gdw_message;
typedef struct gdw_rpc_annotator gdw_rpc_annotator;
GDW_API gdw_rpc_annotator *gdw_rpc_annotator_new(const gdw_rpc_manifest *m); /* NULL: no memory */
GDW_API void gdw_rpc_annotator_free(gdw_rpc_annotator *a);
/* Every message, in order. An RPC (true): *out its node, its method (NULL when the manifest names none) and
   whether the engine that receives it runs it: the receiver runs its own build's method, so the call is judged
   when the MD5 the receiver announced for the node (else the sender's) is the manifest's. A SIMPLIFY_PATH of a
   node the manifest has (true): out->node, and out->md5_differs when the MD5 it announces is that of no node of
   the manifest at that path (the engine prints "The rpc node checksum failed"). Any other message: false. */
GDW_API bool gdw_rpc_annotate(gdw_rpc_annotator *a, const struct gdw_message *msg, gdw_rpc_call *out);

#ifdef __cplusplus
}
#endif
#endif
