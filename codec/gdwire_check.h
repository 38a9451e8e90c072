/* SPDX-License-Identifier: MIT */
/* gdwire_check.h — the tools' API of gdwire: what `gdwire check`, the Python and npm packages, the
 * page, the fuzz targets and the conformance runner use beside gdwire.h, and a server reading its
 * packets does not: one packet against every dialect (gdw_check, its threads and its sharing), the
 * ranking of the answers and their sentences, and the table's listings, evidence and fuzz numbers.
 *
 * TOOLS API: MAY CHANGE IN A MINOR RELEASE (docs/library.md "Stability"), unlike gdwire.h's.
 *
 * It includes gdwire.h, and is installed beside it; the same library exports both. gdwire.h's rules
 * hold here too: NULL arguments as its head says, thread-safety as it says, no state kept. And: the
 * dialect type look-ups (gdw_dialect_wire_type, gdw_dialect_type_id) give -1 for a NULL dialect;
 * gdw_real_text with out NULL writes nothing; gdw_check and gdw_check_threads with a NULL buf and
 * len > 0, or a NULL out and cap > 0, return 0, and with out NULL and cap 0 the rows they have.
 */
#ifndef GDWIRE_CHECK_H
#define GDWIRE_CHECK_H

#include "gdwire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * The table, for listings and tools (gdwire.h has the look-up: gdw_dialect_find, _count, _at,
 * _name, and the rules: gdw_dialect_rule).
 * ------------------------------------------------------------------------------------- */
/* gdw_release_count / gdw_release_at: the older engine releases that read a dialect's wire format
 * differently ("godot3@3.2"); each is used wherever a dialect is. */
GDW_API size_t gdw_release_count(void);
GDW_API const gdw_dialect *gdw_release_at(size_t i);
/* gdw_row_count / gdw_row_at: every row of the table, the dialects then the engine releases. */
GDW_API size_t gdw_row_count(void);
GDW_API const gdw_dialect *gdw_row_at(size_t i);
/* gdw_dialect_release: the engine release a row models ("3.6"), "" where unnamed. */
GDW_API const char *gdw_dialect_release(const gdw_dialect *d);
/* gdw_dialect_base: the dialect a release row belongs to; a dialect itself otherwise. */
GDW_API const gdw_dialect *gdw_dialect_base(const gdw_dialect *d);
/* gdw_dialect_type_count: number of wire type ids (VARIANT_MAX). */
GDW_API unsigned gdw_dialect_type_count(const gdw_dialect *d);
/* gdw_dialect_wire_type: logical type of wire id, or -1. */
GDW_API int gdw_dialect_wire_type(const gdw_dialect *d, unsigned wire_id);
/* gdw_dialect_type_id: wire id of a logical type, or -1 if the dialect lacks it. */
GDW_API int gdw_dialect_type_id(const gdw_dialect *d, gdw_type t);

/* What a row says about the engine it stands for: words for people and listings, the evidence
 * behind its expectations, and its rules. The strings are never NULL ("" where the row has none)
 * but for the two evidence lines, exactly one of which is NULL. A NULL row gives "" (NULL for the
 * evidence lines), false or 0. */
/* mole, godot3, pandemonium, godot4 */
GDW_API const char *gdw_dialect_family(const gdw_dialect *d);
GDW_API const char *gdw_dialect_summary(const gdw_dialect *d); /* one line */
/* the engine versions it speaks for */
GDW_API const char *gdw_dialect_engines(const gdw_dialect *d);
/* its other names, space separated */
GDW_API const char *gdw_dialect_aliases(const gdw_dialect *d);
/* "YYYY-MM" of its newest release; "" undated */
GDW_API const char *gdw_dialect_released(const gdw_dialect *d);
/* gdw_dialect_engine_evidence: the real engine that answered every conformance vector in the row,
 * or NULL; gdw_dialect_no_engine: then, in one line, why none has (NULL when one has). */
GDW_API const char *gdw_dialect_engine_evidence(const gdw_dialect *d);
GDW_API const char *gdw_dialect_no_engine(const gdw_dialect *d);
/* gdw_dialect_documented_only: the row describes documentation, not a released engine's wire. */
GDW_API bool gdw_dialect_documented_only(const gdw_dialect *d);
/* gdw_dialect_objects_by_default: the engine's script API decodes full Objects unless told not to
 * (3.0, 3.1): an API default, not a wire rule; the command follows it unless told. */
GDW_API bool gdw_dialect_objects_by_default(const gdw_dialect *d);
/* gdw_dialect_fuzz_id: the row's number, never changed or reused (byte 0 of a fuzz input names a
 * row by it, fuzzers/fuzz.h); 0 .. gdw_row_count() - 1. */
GDW_API unsigned gdw_dialect_fuzz_id(const gdw_dialect *d);
/* gdw_rule_name: a rule's name (gdw_rule, gdwire.h), as `gdwire dialects --json` prints it
 * ("real_mode"); "?" for an unknown rule. */
GDW_API const char *gdw_rule_name(gdw_rule r);

/* ---------------------------------------------------------------------------------------
 * A decode's events, for the tools: the digest of the tree it makes, and each node as it is made
 * (gdw_decode_options.events). gdwire check groups the rows that read a packet alike by them.
 * ------------------------------------------------------------------------------------- */
/* gdw_digest: a 128-bit digest of trees decoded from one packet, of what gdw_value_equal compares,
 * so that many trees can be grouped by value in one walk each instead of a walk of every pair
 * (gdwire check groups the dialects that read a packet alike so). gdw_digest_init starts one, with
 * a key (two random words: the digest is keyed so that no packet can be made to collide on purpose)
 * and the packet the trees were decoded from; gdw_digest_node adds one value's own content (type,
 * length, the flags equality compares, scalar bits, text and data), not its children;
 * gdw_digest_tree adds a whole tree in pre-order (node by node, so a caller's own walk can add it
 * up with other work: each node's length fixes how many children follow). Text and data that lie
 * inside the packet are taken by their place in it, not read: two zero-copy decodes of a packet
 * hold one string at one place, and a 64 MiB PackedByteArray costs one step (a node's head goes in
 * one step with its first word). Bytes elsewhere (a string an engine pass rewrote, a tree built by
 * hand) are read. gdw_decode_events.digest has a decode add the tree it makes, with no walk of its
 * own.
 * What it promises: equal digests (same key) mean equal trees, but for a chance of about 2^-128 (it
 * is not a cryptographic hash: keep the key secret). Different digests mean unequal trees only
 * where every byte string of both lies inside the packet or outside it alike; otherwise ask
 * gdw_value_equal. */
typedef struct gdw_digest {
    uint64_t h[2];
    uint64_t key[2];
    const uint8_t *packet;
    size_t packet_len;
} gdw_digest;
GDW_API void gdw_digest_init(gdw_digest *g, uint64_t key0, uint64_t key1, const uint8_t *packet,
                             size_t packet_len);
GDW_API void gdw_digest_node(gdw_digest *g, const gdw_value *v);
GDW_API bool gdw_digest_tree(gdw_digest *g, const gdw_value *root);
/* gdw_node_fn: one value of a tree a decode makes (gdw_decode_events.on_node), as it is made: its
 * own content is whole, its children are not made yet (do not read them: gdw_children may give
 * none), and it is valid only during the call. depth: 0 for the root. An Object's property names
 * are not values and are not passed. */
typedef void (*gdw_node_fn)(void *ctx, const gdw_value *v, unsigned depth);
struct gdw_decode_events { /* gdwire.h names it gdw_decode_events */
    /* if not NULL (gdw_digest_init'ed), gdw_decode adds the tree it returns to it, as
     * gdw_digest_tree would, in the decode's own walk (the nodes while they are made, not a second
     * walk of the tree); engine-exact mode, whose engine pass changes the tree after the walk, adds
     * the tree it returns. After a failed decode its state is unspecified; a validation leaves it
     * alone */
    gdw_digest *digest;
    /* if not NULL, called for each value of the tree a decode returns, in pre-order, as gdw_node_fn
     * says (engine-exact mode: once its engine pass has made the tree); a validation calls it for
     * none */
    gdw_node_fn on_node;
    void *on_node_ctx;
};
/* Defined where gdw_decode_options has events (0.2.0 on; before, the fields digest, on_node and
 * on_node_ctx were its own): for a program built against either. */
#define GDW_HAS_DECODE_EVENTS 1

/* ---------------------------------------------------------------------------------------
 * For the command's other verbs: explain's field text, diff's walk, the byte dumps people paste.
 * ------------------------------------------------------------------------------------- */
/* gdw_trace_field_text: what a traced field's bytes say, as `gdwire explain` prints it beside them
 * ("Dictionary (type id 27) at [0]", "\"hp\"", "1.5, -2", "3 (bit 31 set: Godot 2's shared flag)").
 * input is the buffer the trace's offsets count from (NULL: numbers only, no string or component
 * text). Writes at most cap - 1 characters and a NUL (a longer text is cut; 640 holds every field)
 * and returns the length written. */
GDW_API size_t gdw_trace_field_text(const gdw_trace_event *ev, const uint8_t *input, char *out,
                                    size_t cap);
/* gdw_value_diff: the first place, depth first in wire order, where a and b differ as
 * gdw_value_equal sees them; false (and *out cleared) when they are equal. One walk of both
 * trees, however deep the difference. out->a and out->b are the two nodes there (the smallest
 * pair that differs: a scalar, or a container whose own type, length, flags or element type
 * differ); out->path is its error path from the top ("" for the top, docs/library.md "Error
 * paths"). a, b or out NULL: false, and out (when given) cleared. */
typedef struct gdw_difference {
    const gdw_value *a, *b;
    char path[GDW_PATH_MAX];
} gdw_difference;
GDW_API bool gdw_value_diff(const gdw_value *a, const gdw_value *b, gdw_difference *out);
/* gdw_path_push: append to path[0..*len) the step from parent to its child `slot` (gdw_children's
 * numbering: a Dictionary's key 2i, value 2i + 1), as errors write it; path holds GDW_PATH_MAX
 * bytes and stays NUL-terminated, cut there. For a program's own walk (gdwire diff). */
GDW_API void gdw_path_push(char *path, size_t *len, const gdw_value *parent, size_t slot);
/* gdw_real_text: a real of width 4 or 8 given by its bits, as the text form writes a component:
 * the shortest decimal that reads back to the same bits, inf, -inf, nan, -nan or nan(0x<bits>). */
GDW_API void gdw_real_text(char *out, size_t cap, uint64_t bits, unsigned width);
/* gdw_hex_digit: the value of one hex digit ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for any other c. */
GDW_API int gdw_hex_digit(int c);
/* gdw_dump_decode: byte values as people paste them, to bytes: Godot's print() of a PackedByteArray
 * ("[27, 0, 0, 0]"), lists of decimal 0-255 or 0xNN separated by spaces, commas, semicolons or
 * brackets, xxd lines, and hexdump -C or od -A x -t x1z lines (their offsets placing the bytes, a
 * "*" repeating the line before). out needs room for n bytes and may be in itself. GDW_ERR_SYNTAX
 * with *bad_at (if not NULL) the offset of the first character that is not part of a byte and *why
 * (if not NULL) a sentence saying what was expected there; GDW_ERR_INVALID_ARG as gdw_hex_decode.
 * */
GDW_API gdw_status gdw_dump_decode(const char *in, size_t n, uint8_t *out, size_t *out_len,
                                   size_t *bad_at, const char **why);

/* ---------------------------------------------------------------------------------------
 * One packet against every dialect (what `gdwire check` shows).
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_check_result {
    const gdw_dialect *dialect;
    gdw_status status; /* the decode verdict in this dialect */
    gdw_error err;     /* filled when status is not GDW_OK */
    size_t consumed;   /* bytes the value used, when accepted */
    /* accepted, and the dialect's encoder writes exactly the consumed bytes: strict mode accepts
     * them (it accepts exactly what the encoder writes) */
    bool reencodes_same;
    /* accepted but not reencodes_same: why strict mode rejects the bytes */
    gdw_error strict_err;
    /* the decoded tree if keep_docs, else NULL; free with gdw_doc_free */
    gdw_doc *doc;
    /* accepted, and engine-exact mode (the engine's own verdict) accepts buf too */
    bool engine_exact;
} gdw_check_result;

/* gdw_check: decode buf in every dialect (opts, NULL for the defaults) and, where accepted,
 * tell whether strict mode accepts the consumed bytes (whether the dialect's encoder writes exactly
 * them) and whether engine-exact mode accepts buf. In compatible mode one walk per dialect finds
 * all three; engine-exact mode walks again only where the engine reads the bytes otherwise (one of
 * its quirks is met). alloc (NULL: libc) holds the documents. out has room for cap results: the
 * rows 0 .. cap - 1 of gdw_dialect_at, in table order (the rows beyond cap are neither answered nor
 * written). Returns the number of rows, gdw_dialect_count(), as snprintf returns the length it
 * needs: out holds every row when cap is at least that (0 for NULL buf with len > 0, NULL out with
 * cap > 0). How many rows accept: count the results whose status is GDW_OK. Without keep_docs, on a
 * packet of GDW_CHECK_SHARE_MIN bytes or more, without a digest (opts->events), a row that reads
 * the packet as an earlier row did takes that row's answer without walking
 * (gdw_dialects_answer_alike, gdw_check_take_answer): the same answers, fewer walks. */
#define GDW_CHECK_SHARE_MIN 256u
/* gdw_check_shares: whether the rows of a check of len bytes under opts (NULL: the defaults) take
 * alike rows' answers: GDW_CHECK_SHARE_MIN bytes or more (below, a walk costs less than the
 * comparisons). gdw_check asks it, and so does `gdwire check`. */
GDW_API bool gdw_check_shares(size_t len, const gdw_decode_options *opts);
GDW_API size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                         const gdw_allocator *alloc, bool keep_docs, gdw_check_result *out,
                         size_t cap);
/* gdw_check_threads: gdw_check with the rows spread over at most `threads` threads, the calling
 * thread one of them (0 or 1: the calling thread alone, which is gdw_check; never more threads
 * than rows, nor more than GDW_CHECK_THREADS_MAX). The same answers in the same places, whatever
 * the threads and their timing (codec/tests/check_threads_test.c): where rows share answers, a
 * row that may read the packet as a row running on another thread does waits for it and then takes
 * its answer, and the thread does a later row meanwhile. alloc must then be safe to call from each
 * thread. With a trace or events (opts->events) set, one thread runs every row (each is one object
 * of the caller's). The library has threads on POSIX systems (Linux, the BSDs, macOS, WebAssembly
 * built with pthreads); elsewhere, or built with -DGDW_NO_THREADS, every row runs on the calling
 * thread. Returns as gdw_check. */
#define GDW_CHECK_THREADS_MAX 32u
GDW_API size_t gdw_check_threads(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                                 const gdw_allocator *alloc, bool keep_docs, unsigned threads,
                                 gdw_check_result *out, size_t cap);

/* gdw_check_run: the scheduler gdw_check_threads runs, with a program's own work for each row on
 * the thread that does the row (what `gdwire check` does: a digest and facts of each tree, its
 * output lines, its engine note). co (NULL: as gdw_check_threads with keep_docs false and one
 * thread) says what to keep and how to share. Rows are claimed in table order. Returns as
 * gdw_check. */
typedef struct gdw_check_run gdw_check_run;
typedef struct gdw_check_options {
    bool keep_docs;   /* each walked row's result keeps its document (r->doc) */
    unsigned threads; /* as gdw_check_threads */
    /* rows take an alike row's answer wherever gdw_check_shares says so, even with keep_docs or
     * a digest: a row that takes one has no document and adds nothing to a digest, and
     * after_row tells whose answer it took (gdw_check_threads: only without either) */
    bool take_answers;
    /* before_walk (NULL: none): row i is about to walk the packet, with *o (a copy of the check's
       options) the decode it runs; the hook may set what does not change its answer (its
       events, keep_nodes) */
    void (*before_walk)(void *ctx, size_t i, gdw_decode_options *o);
    /* after_row (NULL: none): out[i] holds row i's answer: walked when from == i, else the answer
       of row from (an earlier, walked row whose after_row has returned), taken. A row that may take
       row i's answer waits until after_row(i) returns, so what it leaves for row i's takers is
       there when they come. run is NULL for a row past the scheduler's 16 (none in today's table of
       13), each its own walk */
    void (*after_row)(void *ctx, gdw_check_run *run, size_t i, size_t from);
    void *ctx;
} gdw_check_options;
GDW_API size_t gdw_check_run_rows(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                                  const gdw_allocator *alloc, const gdw_check_options *co,
                                  gdw_check_result *out, size_t cap);
/* gdw_check_engine_tree: inside after_row, the value row i's engine holds (an engine-exact decode
 * of the packet under the check's options, zero-copy and whole), decoded once for the rows that
 * read the packet alike in that mode (gdw_decode_read, gdw_dialects_read_alike: on a Godot 3 packed
 * array of Vector3, three Pandemonium rows read a Dictionary of a million null keys, which each
 * would merge again); thread-safe. Freed when the check returns. NULL where that decode fails, and
 * for NULL run. */
GDW_API const gdw_doc *gdw_check_engine_tree(gdw_check_run *run, size_t i);
/* gdw_check_dialect: gdw_check's work for one dialect d, into *r: true when d accepts buf.
 * gdw_check is this for every dialect in table order; the rows are independent, so a program may
 * spread them over threads (the allocator must then be safe to call from each). False, with
 * r->status an error, for NULL d or buf; false and nothing written for NULL r. */
GDW_API bool gdw_check_dialect(const gdw_dialect *d, const uint8_t *buf, size_t len,
                               const gdw_decode_options *opts, const gdw_allocator *alloc,
                               bool keep_docs, gdw_check_result *r);

/* What a row's answer rests on: the rules of the row (gdw_rule) its walks read, bit r for rule r,
 * and the entries of its type table they read, bit w for wire id w (whether the table has it, and
 * its type; bit 63 for every id from 63 up). The decoder, and engine-exact mode's engine pass, read
 * the row only through accessors that note the read, so two rows that agree on all of these walk a
 * packet alike. */
typedef struct gdw_rules_read {
    uint64_t rules;
    uint64_t type_ids;
    /* rules a compatible walk read only to find where strict mode would refuse (its strict verdict:
     * reencodes_same, strict_err), not for its own answer; in the other modes every rule read is in
     * `rules` */
    uint64_t strict_rules;
} gdw_rules_read;
/* gdw_check_dialect, and what its answer rests on added to *read (NULL: not asked; clear it first).
 * In engine-exact mode the engine pass (gdw_decode's) notes the rules it reads too, each where a
 * value makes it matter. */
GDW_API bool gdw_check_dialect_read(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                    const gdw_decode_options *opts, const gdw_allocator *alloc,
                                    bool keep_docs, gdw_check_result *r, gdw_rules_read *read);
/* gdw_dialects_read_alike: b agrees with a on every rule and type table entry in *read (what a's
 * answer to a packet rests on: gdw_check_dialect_read). Then b's answer to the same packet and
 * options is a's, field for field (the dialect aside), its decode's tree equal to a's and its
 * digest (gdw_decode_events.digest) the same: gdw_check gives b a's answer without walking again.
 * False for a NULL argument. */
GDW_API bool gdw_dialects_read_alike(const gdw_dialect *a, const gdw_dialect *b,
                                     const gdw_rules_read *read);
/* gdw_dialects_answer_alike: as gdw_dialects_read_alike, but for read->strict_rules: b's answer is
 * a's but maybe for its strict verdict (reencodes_same and strict_err), which gdw_check_take_answer
 * finds. */
GDW_API bool gdw_dialects_answer_alike(const gdw_dialect *a, const gdw_dialect *b,
                                       const gdw_rules_read *read);
/* gdw_decode_read: gdw_decode, and what its answer rests on added to *read (NULL: not asked; clear
 * it first): the rules and type table entries its walk (and in engine-exact mode its engine pass)
 * read, as gdw_check_dialect_read counts them (in compatible mode the walk also finds where strict
 * mode would refuse, the rules it reads for that in read->strict_rules). A row b with
 * gdw_dialects_read_alike(d, b, read) decodes buf under the same options to the same status, error,
 * length and an equal tree: a program decoding one packet in several rows (engine-exact mode's
 * value in each, say) may decode it once for those. */
GDW_API gdw_status gdw_decode_read(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                   const gdw_decode_options *opts, const gdw_allocator *alloc,
                                   gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                                   gdw_rules_read *read);
/* gdw_check_take_answer: row d's answer to buf, into *r, from the answer of a row it is
 * gdw_dialects_answer_alike with (from, whose walk read *from_read; opts as then): the same answer
 * but for d's dialect, no document, and, where the rows differ in what the strict verdict read, d's
 * own strict verdict from a strict validation of the consumed bytes (which stops at its first
 * refusal). */
GDW_API void gdw_check_take_answer(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                   const gdw_decode_options *opts, const gdw_check_result *from,
                                   const gdw_rules_read *from_read, gdw_check_result *r);

/* What a row makes of a packet (gdw_check_reading): the value, every byte; the start of a value
 * that runs out of bytes (a cut packet of the dialect: gdw_error.short_by says how many more it
 * needs at least, and no more than a few times the bytes there are); a value and bytes left after
 * it; nothing (a rejection before the end, or a cut that would need far more bytes than a cut
 * packet misses: a length misread). */
typedef enum gdw_reading {
    GDW_READING_WHOLE,
    GDW_READING_CUT,
    GDW_READING_PREFIX,
    GDW_READING_REJECTED
} gdw_reading;
GDW_API gdw_reading gdw_check_reading(const gdw_check_result *r, size_t len);


/* One row of a ranked check: gdw_check's answer, and what the ranking makes of it. */
typedef struct gdw_check_row {
    gdw_check_result result; /* in */
    /* in: rows with the same number >= 0 read the same value (a caller that knows it, by digests
     * say); -1: unknown, asked of the documents (or decoded) where it matters */
    int meaning;
    /* in and out: reals that look misread; SIZE_MAX: count them from result.doc */
    size_t misread;
    gdw_reading reading; /* out: gdw_check_reading */
    int rank;            /* out: 1-based; equal scores share a rank */
    /* out: the named first choice, or a row as likely that reads the same value (or runs out at the
     * same place after reading alike): its "equally" */
    bool first;
    char reason[256]; /* out, when asked: why the row ranks where it does, one line */
} gdw_check_row;

/* A reason that names the type id two rows read as different types looks at the first choice's
 * first this many values (its document's, where the row has one: a caller that keeps trees cut,
 * gdw_decode_options.keep_nodes, keeps at least this many). */
#define GDW_CHECK_REASON_NODES 256u
/* gdw_check_rank_rows: which dialect most likely wrote the packet buf[0..len) that gdw_check
 * answered in rows[0..n) (result), the one ranking `gdwire check`, the Python and npm packages and
 * the page print. By the reading first (gdw_check_reading): a whole reading beats a cut one, a cut
 * one a prefix, a prefix a rejection. Then, for whole readings and prefixes: a value without reals
 * that look misread (gdw_value_misread_reals: the marks of integers or text read as floats); for a
 * prefix, how many bytes it reads; its encoder writing back exactly these bytes; the engine itself
 * accepting them (engine_exact); an engine's row before one only documentation describes. A cut
 * reading is ranked, where no row reads the packet whole, by the value it reads where the missing
 * bytes are zeros (no misread-looking reals, written back by its encoder), then by an engine's row
 * and how far it read before it ran out; rejections by how far they read. Fills each row's reading,
 * rank (1-based; equal scores share a rank) and first (the best and its equals: the same score and
 * the same value, or for cut readings the same walk of the bytes there are), and with reasons each
 * row's reason. Returns the best's index: among equals, the newest engine release
 * (gdw_dialect_released); 0 for NULL rows or n == 0. */
GDW_API size_t gdw_check_rank_rows(gdw_check_row *rows, size_t n, const uint8_t *buf, size_t len,
                                   const gdw_decode_options *opts, bool reasons);

/* gdw_check_find_skip: where no row of at0 (gdw_check's answer to buf[0..len)) reads every byte,
 * the bytes in front of a value that one reads whole: a 4-byte length prefix that gives the rest's
 * length (put_var, store_var, PacketPeerStream), else the fewest of 1 to 8 (an opcode, a header).
 * 0: none (or a row reads the bytes whole).
 * gdw_check_framing_text says what the skipped bytes are: "a 4-byte length prefix (put_var's,
 * store_var's)", "1 byte in front"; "" for skip 0. */
GDW_API size_t gdw_check_find_skip(const gdw_check_result *at0, size_t n, const uint8_t *buf,
                                   size_t len, const gdw_decode_options *opts);
GDW_API size_t gdw_check_framing_text(const uint8_t *buf, size_t len, size_t skip, char *out,
                                      size_t cap);

/* gdw_check_summary: the one sentence of the answer for the rows gdw_check_rank_rows ranked (they
 * read buf[skip..len)): "Most likely: godot4 (equally: ...; they read it alike, so the newest
 * engine release is named).", "Most likely: a cut godot4 packet: the value needs at least 2 more
 * bytes (...)", "Most likely: a 4-byte length prefix (...), then a godot4 Dictionary.", "No dialect
 * reads this packet; ...". Returns its length. */
GDW_API size_t gdw_check_summary(const gdw_check_row *rows, size_t n, size_t best,
                                 const uint8_t *buf, size_t len, size_t skip, char *out,
                                 size_t cap);

/* gdw_check_script_text: what a script of the first choice's engines passes to read the value, for
 * the rows gdw_check_rank_rows ranked (they read buf[skip..len)): "bytes_to_var(bytes) reads it.",
 * "StreamPeer.get_var() or the file's get_var() reads it as put_var or store_var wrote it (the
 * length, then the value); from a byte array, bytes_to_var(bytes.slice(4)).", "bytes2var(bytes)
 * reads the value in the first 12 bytes and ignores the other 4.", "bytes_to_var(bytes) fails on
 * these bytes: the value needs at least 2 more. ..."; the calls of the engines of the rows as
 * likely that differ, " (in Godot 3, Pandemonium: bytes2var(bytes))"; the Objects-allowing call
 * with allow_objects, where the engine has one. "" where no row reads the packet. The calls are the
 * dialect table's (gdw_script_facts, from the engines' sources). Returns its length. */
GDW_API size_t gdw_check_script_text(const gdw_check_row *rows, size_t n, size_t best,
                                     const uint8_t *buf, size_t len, size_t skip,
                                     bool allow_objects, char *out, size_t cap);

/* gdw_check_report_make: the whole answer for one packet, as the bindings and the page give it:
 * gdw_check with documents (opts, NULL for the defaults; alloc, NULL: libc, holds the report and
 * the documents), the bytes in front looked past where that explains more (gdw_check_find_skip),
 * the rows ranked with reasons and the summary.
 * NULL: out of memory, or NULL buf with len > 0. Free with gdw_check_report_free (NULL is a no-op).
 * */
typedef struct gdw_check_report {
    size_t n;   /* rows: one a dialect, in table order */
    size_t len; /* the packet's length */
    /* bytes in front of the value the rows read (gdw_check_find_skip); the rows read buf[skip..len)
     * */
    size_t skip;
    size_t best;     /* the named first choice: an index into rows */
    size_t accepted; /* rows that accept the bytes they read */
    gdw_check_row *rows;
    char summary[640];           /* gdw_check_summary */
    char script[384];            /* gdw_check_script_text */
    const gdw_allocator *alloc_; /* private */
} gdw_check_report;
GDW_API gdw_check_report *gdw_check_report_make(const uint8_t *buf, size_t len,
                                                const gdw_decode_options *opts,
                                                const gdw_allocator *alloc);
GDW_API void gdw_check_report_free(gdw_check_report *rep);
/* gdw_value_misread_reals: the reals in a tree that look misread: NaN, nonzero below 1e-30 or
 * beyond 1e30 in magnitude (what integers, text or other fields read as floats look like):
 * gdw_value_misread_own summed over the values down to GDW_MISREAD_DEPTH levels (a walk of one's
 * own can add it up with other work). 0 for NULL.
 * gdw_value_misread_own: those of v's own components (a float, a math value, a packed array of
 * reals; its first 4096 components), not its children's. */
#define GDW_MISREAD_DEPTH 64u
GDW_API size_t gdw_value_misread_reals(const gdw_value *root);
GDW_API size_t gdw_value_misread_own(const gdw_value *v);

#ifdef __cplusplus
}
#endif
#endif /* GDWIRE_CHECK_H */
