/* SPDX-License-Identifier: MIT */
/* cli.h — shared by the files of the gdwire command: options, packet input, terminal output.
 *
 * Data flow: files / directories / stdin -> text decoding (--hex, --base64, --lines) -> framing
 * (--framing) -> packets -> a verb (check, decode, explain, convert) -> stdout; diagnostics on
 * stderr. Exit status: 0 every packet accepted, 1 some rejected, 2 usage or I/O error.
 */
#ifndef GDWIRE_CLI_H
#define GDWIRE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codec/gdwire_check.h"

#define EXIT_ACCEPTED 0
#define EXIT_REJECTED 1
#define EXIT_USAGE 2
#define EXIT_MIGRATE_LOSSY 3 /* migrate: every file converted, some with lossy places */

/* ---- options ------------------------------------------------------------------------------ */

typedef enum { ENC_RAW, ENC_HEX, ENC_BASE64, ENC_DUMP } text_encoding;
typedef enum { FRAME_NONE, FRAME_STREAM, FRAME_FILE, FRAME_PACKET_STREAM } framing;

/* capture's own options (capture.c) */
typedef struct capture_opts {
    const char *names;          /* --names FILE: method ids to names */
    const char *project;        /* --project DIR|MANIFEST: method ids to names from a project (rpc.c) */
    const char *interface;      /* -i, --interface IFACE: a live capture through libpcap */
    const char *filter;         /* --filter BPF: libpcap's filter of a live capture */
    double duration;            /* --duration S: a live capture stops after S seconds (0: at SIGINT or SIGTERM) */
    int64_t peers[16];          /* --peer ID (up to 16): a message from or to one of them */
    size_t n_peers;
    unsigned commands;          /* --command NAME[,NAME...]: bits of gdw_mp_command; 0 every one */
    const char *path;           /* --path TEXT: messages whose node path holds TEXT */
    double since, until;        /* --since / --until SECONDS from the first frame; until < 0: none */
    bool check;                 /* --check: every Variant checked against every dialect */
    bool no_summary;            /* --no-summary */
    /* --max-*: the session's caps (gdw_session_options; 0: the library's defaults) */
    size_t max_fragment_bytes, max_flow_fragment_bytes, max_packet, max_flows, max_paths;
    size_t max_window_bytes, max_flow_window_bytes, max_path_bytes, max_flow_path_bytes, max_ip_fragment_bytes;
} capture_opts;

/* guard's own options (guard.c) */
typedef struct guard_opts {
    const char *listen, *upstream; /* --listen, --upstream ADDR:PORT */
    const char *policy;            /* --policy FILE (YAML) */
    const char *project;           /* --project DIR|MANIFEST */
    const char *log;               /* --log FILE: the actions and counters (default stdout) */
    bool dry_run, no_checks, ws;   /* --dry-run, --no-checks (a plain relay), --ws */
    size_t max_clients;            /* --max-clients N */
    double idle, duration, drain;  /* --idle S, --duration S, --drain S */
} guard_opts;

typedef struct opts {
    const char *verb;
    const char **inputs;        /* files, directories, "-" */
    int n_inputs;
    const gdw_dialect *dialect; /* -d */
    bool auto_dialect;          /* -d auto: per packet, the dialect check ranks first */
    int objects_flag;           /* --allow-objects 1, --no-allow-objects 0, else -1 (the dialect's default) */
    const gdw_dialect *from, *to; /* convert */
    text_encoding enc;
    bool lines;                 /* every line of the text is a packet */
    framing frame;
    bool big_endian;            /* stream/file length prefixes */
    uint64_t max_frame;         /* --max-frame: longest framed packet read; 0 = the framing's default */
    gdw_decode_options dec;
    bool json, noout, wire, lossy, verbose, help;
    unsigned json_plain;        /* --json=plain: GDW_JSON_PLAIN (| GDW_JSON_BIG_INTS_AS_STRINGS); 0: the JSON form */
    bool resync;                /* --resync: with --framing, skip to the next offset where a frame and
                                   its value parse (a capture that starts mid-frame) */
    const char *select;         /* --select PATH: print only the value the error path names */
    bool pretty;                /* --pretty: values over several lines (decode; check --json) */
    bool unbuffered;            /* --unbuffered: stdout flushed after each packet's output */
    bool flush_each;            /* unbuffered, or stdout is a pipe or socket (main.c): a filter's
                                   reader gets each record when it is made, not at exit */
    int color;                  /* -1 auto, 0 off, 1 on */
    capture_opts cap;
    /* Godot's file containers (container.c): --password, --password-file, --key; --container; --max-plain */
    bool has_key;
    uint8_t key[32];
    const char *container;      /* convert, migrate: plain, compressed:MODE, encrypted */
    uint64_t max_plain;         /* the most plain bytes a container may hold; 0: the library's 256 MiB */
    const char *labels;         /* rpc-diff --labels A,B: what the sentences call the two builds */
    guard_opts guard;           /* guard (guard.c) */
} opts;

/* Option letters a verb takes (see parse_opts in main.c). */
enum {
    O_DIALECT = 1 << 0, O_INPUT = 1 << 1, O_FRAMING = 1 << 2, O_MODE = 1 << 3, O_JSON = 1 << 4,
    O_NOOUT = 1 << 5, O_WIRE = 1 << 6, O_LOSSY = 1 << 7, O_FROMTO = 1 << 8, O_VERBOSE = 1 << 9,
    O_CAPTURE = 1 << 10, O_SECRET = 1 << 11, O_LABELS = 1 << 12,
    O_GUARD = 1 << 13, O_DIALECT_OPT = 1 << 14, /* -d taken, not required */
};

/* ---- Godot's file containers (container.c) ----------------------------------------------------------- */

/* --password, --password-file, --key, --container, --max-plain: argv[*i] taken with its value: 1; not one: 0;
 * a usage error, reported: -1. */
int container_option(opts *o, int argc, char **argv, int *i);
/* --framing file over the whole input p[0..n): a plain file's frames as before; a compressed or encrypted
 * one opened first (explain shows its header; convert writes the container around its output). */
/* The FileAccess generation (3 or 4) of a dialect's family, 0 for none known. */
unsigned container_generation(const gdw_dialect *d);
/* convert's output into the container being made, when one is. */
int sink_take(const uint8_t *pre, size_t np, const uint8_t *p, size_t n); /* 1 taken, 0 no container made, -1 out of memory */

/* capture's options (capture.c): argv[*i] taken, with its value, if it is one: 1; not one: 0;
 * a usage error, reported: -1. */
int capture_option(opts *o, int argc, char **argv, int *i);
/* guard's options (guard.c), as capture_option. */
int guard_option(opts *o, int argc, char **argv, int *i);

int usage_error(const char *verb, const char *fmt, const char *arg);

/* ---- the documents' memory (region.c) ------------------------------------------------------- */

/* The allocator for the documents of a packet of packet_len bytes: blocks of transparent huge
 * pages kept from packet to packet for large packets, NULL (the C library's) for small ones. Every
 * document made with it must be freed before region_reset, which empties the blocks for the next
 * packet. */
const gdw_allocator *region_for(size_t packet_len);
void region_reset(void);

/* ---- what a newcomer meant (suggest.c) ----------------------------------------------------- */

/* The name nearest typed among names, if one is close enough (case aside, or few letters off). */
const char *suggest_verb(const char *typed, const char *const *names, size_t n);
/* The dialect or release name or alias nearest typed, into out; false if none is close. */
bool suggest_dialect(const char *typed, char *out, size_t cap);
/* Raw input that is really text (hex, base64, an xxd dump): a sentence saying which and what flag
 * reads it; NULL otherwise. */
const char *raw_input_hint(const uint8_t *p, size_t n);
/* --dump: byte values as people paste them (input.c): Godot's print() of a PackedByteArray
 * "[27, 0, 0, 0]", decimal or 0x lists, xxd and hexdump -C dumps; p[0..*n) rewritten in place to
 * the bytes. NULL, or why not, with *bad_at the offset. */

/* ---- packets ------------------------------------------------------------------------------- */

typedef struct packet {
    const char *source;  /* file name, "-" for stdin */
    long frame;          /* 1-based frame or line number; 0 when the input is one packet */
    size_t offset;       /* where the packet's bytes start in the (decoded) input */
    const uint8_t *p;
    size_t n;
} packet;

/* A verb's handler: returns EXIT_ACCEPTED, EXIT_REJECTED, or EXIT_USAGE to stop the run. */
typedef int (*packet_fn)(void *ctx, const packet *pk);

typedef struct run_stats {
    size_t packets, accepted, rejected, bytes, frame_errors;
    size_t skipped, skips; /* --resync: bytes skipped, in how many runs */
} run_stats;

/* Every packet of every input, in order. Frame errors (a truncated last frame) are reported on
 * stderr and counted as rejected. Returns the worst exit status. */
int for_each_packet(const opts *o, packet_fn fn, void *ctx, run_stats *st);
/* The library's framing options for --framing, --big-endian and --max-frame (input.c). */
gdw_frame_options frame_options(const opts *o);
/* Whether full Objects are decoded in dialect d: --allow-objects / --no-allow-objects, else the
 * dialect's engine default (main.c). */
bool objects_allowed(const opts *o, const gdw_dialect *d);
/* -d auto (check.c): the dialect `check` names most likely for the packet; NULL when none accepts it. */
const gdw_dialect *best_dialect_for(const opts *o, const packet *pk);
/* A verb's options with -d auto resolved for this packet (decode.c): o itself when not auto; NULL
 * (reported on stderr) when no dialect accepts the packet. */
const opts *resolve_auto(const opts *o, const packet *pk, opts *tmp);

/* One input that is one packet (no directory, framing or --lines): verbs print it plainly. */
bool single_packet_input(const opts *o);

/* A name (a file's, or a node path or name read off the wire) as text output shows it: control bytes,
 * backslashes and broken UTF-8 as \xHH, so it can neither drive the terminal nor forge a line (input.c). */
void shown_name(const char *name, char *out, size_t cap);

/* "file", "file frame 3", "file line 2": how messages name a packet. */
void packet_name(const packet *pk, char *out, size_t cap);

/* A rejected raw packet that is really text: say so on stderr, once a run (suggest.c). */
void hint_raw_text(const opts *o, const packet *pk);

/* Whether p[0..n) starts with a FileAccess container's magic word ("GCPF", "GDEC") (container.c). */
bool container_magic(const uint8_t *p, size_t n);
/* --framing file (container.c): the input's bytes, a container opened first. */
int container_source(const opts *o, const char *src, const uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st);
/* The frames of p[0..n) in memory, --resync or not (input.c). */
int split_frames_memory(const opts *o, const char *src, const uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st);
/* One value of o->from converted to o->to (encode.c): *out (free it); each lossy place to place(ctx, line), as
 * convert names it. false: why says it, *failed holds the error, *decoded whether the value decoded. */
bool convert_value(const opts *o, const uint8_t *p, size_t n, void (*place)(void *, const char *), void *ctx, uint8_t **out, size_t *out_n,
                   char *why, size_t why_cap, gdw_error *failed, bool *decoded);

/* Write out[0..n) in the input's encoding and framing (convert, encode). */
int write_packet(const opts *o, const uint8_t *p, size_t n);

/* ---- terminal ------------------------------------------------------------------------------- */

void term_setup(const opts *o);
const char *c_ok(void);    /* colour escapes, "" when colour is off */
/* the plural ending of a count's noun: "1 packet", "2 packets" (issue 56) */
static inline const char *plural(size_t n) { return n == 1 ? "" : "s"; }
const char *c_bad(void);
const char *c_dim(void);
const char *c_bold(void);
const char *c_off(void);
void progress(const run_stats *st, bool done);

/* ---- JSON output helpers --------------------------------------------------------------------- */

void json_string(FILE *f, const char *s);
void json_bytes_string(FILE *f, const uint8_t *p, size_t n);
/* p[0..n) as lowercase hex digits, two a byte, in writes of a few KiB (a printf a byte was most of
 * capture --json's time). */
void write_hex(FILE *f, const uint8_t *p, size_t n);
void json_error(FILE *f, const gdw_error *e);
/* A value as --json prints it: its JSON form, or plain JSON with --json=plain (free() it; NULL on OOM). */
char *json_value_alloc(const opts *o, const gdw_value *v);
/* --pretty: a stream that writes to stdout with every list and dictionary re-indented (NULL: OOM). */
FILE *pretty_stdout(void);
void json_packet_fields(FILE *f, const packet *pk);

/* ---- verbs ----------------------------------------------------------------------------------- */

int cmd_check(const opts *o);
int cmd_decode(const opts *o);
int cmd_explain(const opts *o);
int cmd_encode(const opts *o);
int cmd_convert(const opts *o);
int cmd_diff(const opts *o);
int cmd_dialects(const opts *o);
int cmd_capture(const opts *o);
int cmd_migrate(const opts *o);
int cmd_rpc(const opts *o);      /* rpc.c */
struct gdw_rpc_manifest;
/* A project folder or a saved manifest (rpc.c); errors said on stderr as "gdwire VERB: ...": EXIT_USAGE. */
int rpc_manifest_load(const char *verb, const char *what, struct gdw_rpc_manifest **m);
int cmd_rpc_diff(const opts *o); /* rpc.c */
int cmd_guard(const opts *o);    /* guard.c */

void print_decode_error(FILE *f, const packet *pk, const gdw_error *e);

/* engine_value_note (engine_note.c): when d's engine holds another value than the bytes spell
 * (engine-exact against compatible mode), or holds values gdwire does not compute
 * (gdw_doc_approximate), or converts by conversions its C++ leaves undefined
 * (gdw_doc_undefined_conversions), one line saying where and what into out; else false.
 * have_doc: the packet already decoded in dec->mode (compatible or engine-exact); held_doc: already
 * decoded in engine-exact mode, or NULL (`check` shares one among the rows that read it alike);
 * alloc: for the decodes the note makes (NULL: the library's default), freed before it returns. */
bool engine_value_note(const gdw_dialect *d, const packet *pk, const gdw_decode_options *dec, const gdw_doc *have_doc,
                       const gdw_doc *held_doc, const gdw_allocator *alloc, char *out, size_t cap);

#endif
