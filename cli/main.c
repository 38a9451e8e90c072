/* SPDX-License-Identifier: MIT */
/* main.c — the gdwire command: verbs, options, help. See docs/gdwire.1 (also `gdwire help`).
 *
 * Exit status: 0 every packet accepted, 1 some packet rejected (or a value cannot be encoded),
 * 2 usage or I/O error.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* The manual page, docs/gdwire.1, built in (man_page.c, generated) and shown as plain text. */
extern const char gdwire_man_page[];
void man_render(FILE *f, const char *roff);

static const char k_input_help[] =
    "Input (FILE... are files, directories, read recursively in name order, or - for stdin;\n"
    "stdin when none is given):\n"
    "  --hex               the input is hex text (whitespace and a leading 0x ignored)\n"
    "  --base64            the input is base64 (Marshalls.variant_to_base64)\n"
    "  --dump              the input is byte values as people paste them: Godot's print() of a\n"
    "                      PackedByteArray ([27, 0, 0, 0]), decimal or 0x lists, xxd or hexdump -C\n"
    "  --lines             every non-empty line of the hex or base64 text is a packet, read as it\n"
    "                      arrives\n"
    "  --framing F         none (default: one packet per input), stream (StreamPeer.put_var),\n"
    "                      file (File.store_var), packet-stream (PacketPeerStream): a 4-byte\n"
    "                      length before each packet; a truncated last frame is an error\n"
    "  --big-endian        stream/file length prefixes are big-endian (StreamPeer.big_endian)\n"
    "  --max-frame N       the longest framed packet to read, in bytes (K, M, G suffixes): a longer\n"
    "                      one is a frame error that ends the input. Default: 65531 for\n"
    "                      packet-stream (the most a default PacketPeerStream delivers), 256M\n"
    "                      for stream and file\n"
    "  --resync            with --framing: where no frame parses (a capture that starts mid-frame,\n"
    "                      a damaged frame), skip to the next offset where a frame and its value\n"
    "                      do, and say how many bytes were skipped where\n"
    "  --unbuffered        write each packet's output as soon as it is made (the default when\n"
    "                      stdout is a pipe or socket: a long-lived filter's reader waits for\n"
    "                      nothing)\n";

static const char k_decode_opts_help[] =
    "  --mode M            compatible (default: what the engine accepts), strict (only what the\n"
    "                      dialect's encoder writes) or engine-exact (the engine's verdict, defects\n"
    "                      included)\n"
    "  --allow-objects     accept full Objects (class + properties), as allow_objects=true; the\n"
    "                      default only for Godot 3.0 and 3.1 (godot3.0, godot3@3.1), whose\n"
    "                      bytes2var and get_var decode objects; --no-allow-objects refuses them\n"
    "  --exact             engine-exact mode: reject (LOSSY, with the path) a packet holding a value\n"
    "                      the engine converts in a way gdwire does not compute, rather than print\n"
    "                      it as written with a note\n";

static const char k_secret_help[] =
    "Godot's file containers (with --framing file; docs/saves.md): a file FileAccess.open_compressed\n"
    "wrote (FastLZ, Deflate, Zstandard, gzip; Brotli) or open_encrypted / open_encrypted_with_pass\n"
    "wrote (Godot 3's or 4's layout) is opened first, found by its magic word\n"
    "  --password TEXT     the password given to open_encrypted_with_pass\n"
    "  --password-file F   the same, read from F (one line ending at its end is not part of it)\n"
    "  --key HEX           the 32-byte key given to open_encrypted, as 64 hex digits\n"
    "  --max-plain N       the most plain bytes a container may declare (K, M, G; default 256M):\n"
    "                      a bigger one is refused before anything is decompressed\n";

static const char k_exit_help[] = "Exit status: 0 every packet accepted, 1 some rejected, 2 usage or I/O error.\n";

typedef struct verb {
    const char *name;
    const char *summary; /* one line for 'gdwire --help' */
    unsigned opts;
    int (*run)(const opts *o);
    const char *synopsis;
    const char *about;
    const char *examples;
    const char *exit_status; /* what the exit status says for this verb */
} verb;

static const verb k_verbs[] = {
    {"check", "check each packet against every dialect, and rank them", O_INPUT | O_FRAMING | O_SECRET | O_MODE | O_JSON | O_VERBOSE, cmd_check,
     "gdwire check [--json] [-v] [input options] [--mode M] [FILE...]",
     "Decodes each packet in every dialect. For one packet it prints the matrix (verdict, bytes\n"
     "consumed, trailing bytes, the engine's own verdict (engine-exact mode), whether the dialect's\n"
     "encoder writes exactly these bytes (strict mode accepts them), the value or the error), the\n"
     "meanings when dialects read the bytes differently, and a ranking of the dialects with the\n"
     "reason for each, most likely engine first, then what a script of that engine passes to read\n"
     "it (\"In the engine: bytes_to_var(bytes.slice(4))\"). For many packets it prints one line each\n"
     "(the matrix too with -v) and a summary.\n"
     "  --json              one JSON object per packet (docs/gdwire.schema.json, \"check\")\n"
     "  --json=plain        the same, each value as plain JSON: {\"hp\": 1} rather than typed objects\n"
     "  --big-ints-as-strings  with --json=plain: an int past 2^53 as a string (for JavaScript)\n"
     "  --pretty            with --json: each record over several lines, two spaces a level\n"
     "  -v, --verbose       the full matrix for every packet\n",
     "  gdwire check --hex cli/samples/godot3-game-state.hex\n"
     "  gdwire check --framing stream capture.bin\n"
     "  gdwire check --json corpus/ | jq -r 'select(.best != null) | .best'\n",
     "Exit status: 0 every packet accepted by some dialect, 1 some packet rejected by all (or a frame\ncut short), 2 usage or I/O error.\n"},
    {"decode", "print each packet's value in one dialect (text or JSON)", O_DIALECT | O_INPUT | O_FRAMING | O_SECRET | O_MODE | O_JSON | O_NOOUT | O_WIRE, cmd_decode,
     "gdwire decode -d DIALECT [--json | --noout | --wire] [input options] [--mode M] [FILE...]",
     "Decodes each packet in the dialect and prints its value in canonical text\n"
     "(docs/text-format.md), one line per packet (prefixed with the packet's name when there are\n"
     "several). Errors go to stderr with the packet, the byte offset and the path to the value.\n"
     "  -d, --dialect D     the dialect (see 'gdwire dialects'); auto: per packet, the one check\n"
     "                      names most likely\n"
     "  --json              one JSON object per packet (docs/gdwire.schema.json, \"decode\")\n"
     "  --json=plain        the same, the value as plain JSON (docs/json.md \"Plain JSON\"):\n"
     "                      gdwire decode -d godot4 --json=plain f.bin | jq .value.cmd\n"
     "  --big-ints-as-strings  with --json=plain: an int past 2^53 as a string (for JavaScript)\n"
     "  --pretty            values over several lines, two spaces a level (text and JSON)\n"
     "  --select PATH       only the value PATH names, in the syntax of error paths: [3] an item,\n"
     "                      {\"hp\"} under a key, {#2} under the third key, {#2 key} that key\n"
     "  --noout             read each packet whole, print no value: the answer is the exit status\n"
     "  --wire              an annotated hex dump instead (as 'gdwire explain')\n",
     "  gdwire decode -d godot3 --hex cli/samples/godot3-game-state.hex\n"
     "  gdwire decode -d godot4 --json packet.bin | jq .value\n"
     "  gdwire decode -d godot3 --noout --framing stream capture.bin && echo all good\n",
     "Exit status: 0 every packet accepted, 1 some rejected (or a frame cut short), 2 usage or I/O\nerror.\n"},
    {"explain", "an annotated hex dump of each packet: every field and its value", O_DIALECT | O_INPUT | O_FRAMING | O_SECRET | O_MODE | O_JSON, cmd_explain,
     "gdwire explain -d DIALECT [--json] [input options] [--mode M] [FILE...]",
     "Prints an annotated hex dump of each packet: offset, bytes, the field they are and its\n"
     "value, padding marked, nested values indented. Where the packet is rejected, the failing\n"
     "byte is marked with the error.\n"
     "  -d, --dialect D     the dialect to read the bytes as; auto: the one check names most likely\n",
     "  gdwire explain -d godot3 --hex cli/samples/godot3-game-state.hex\n"
     "  echo '1b000000 02000000 04000000' | gdwire explain -d godot4 --hex\n",
     "Exit status: 0 every packet accepted, 1 some rejected, 2 usage or I/O error.\n"},
    {"encode", "write the bytes a dialect's engine writes for a value", O_DIALECT | O_JSON | O_LOSSY | O_FRAMING | O_INPUT, cmd_encode,
     "gdwire encode -d DIALECT [--json] [--lossy] [--lines] [--hex | --base64] [--framing F] [FILE]",
     "Reads one value in canonical text (or JSON with --json) and writes the bytes the dialect's\n"
     "engine writes for it to stdout: raw, or hex / base64 text; --framing adds the length prefix.\n"
     "A value the dialect cannot hold exactly is an error naming the place; --lossy narrows it\n"
     "with a warning per place. With --lines every line is a value (JSON Lines with --json), each\n"
     "written as soon as its line arrives: one process answers a whole session (a line that does\n"
     "not parse is reported on stderr and skipped; exit status 1 at the end).\n"
     "  -d, --dialect D     the dialect to write\n"
     "  --json              the input is the JSON form (docs/gdwire.schema.json, \"value\")\n"
     "  --json=plain        the input is plain JSON: {\"hp\": 1, \"pos\": {\"$gdwire\": ...}}\n"
     "  --lossy             narrow what does not fit (f64 into f32, i64 into i32), warning per place\n"
     "  --hex, --base64     write text instead of raw bytes\n"
     "  --framing F         stream, file or packet-stream: write the length prefix too\n"
     "  --lines             every non-empty line is a value, answered as it arrives\n"
     "  --unbuffered        write each value's bytes at once (the default when stdout is a pipe)\n",
     "  echo '{\"hp\": 100, \"pos\": Vector2(1.5, -2)}' | gdwire encode -d godot3 --hex\n"
     "  server | gdwire encode -d godot4 --json --lines --framing stream | nc host 4242\n"
     "  echo '{\"type\":\"int\",\"value\":7}' | gdwire encode -d godot4 --json --base64\n",
     "Exit status: 0 every value written, 1 some value the dialect cannot hold (or, with --lines, a\nline that does not parse), 2 usage or I/O error, or text that does not parse.\n"},
    {"diff", "every place two packets' values differ, by path", O_DIALECT | O_INPUT | O_MODE, cmd_diff,
     "gdwire diff -d DIALECT [input options] [--mode M] A B",
     "Decodes packet A and packet B in one dialect (-d auto: each in the one check names most likely)\n"
     "and prints every place their values differ, by error path, depth first: a value changed\n"
     "(\"{\\\"hp\\\"}: 100 -> 90\"), an item or a key only on one side. Dictionaries are matched key by key\n"
     "(up to 4,096 pairs; larger ones place by place), Arrays item by item. The first 100 are printed,\n"
     "then how many there are.\n"
     "  -d, --dialect D     the dialect of both packets, or auto\n",
     "  gdwire diff -d godot4 --hex before.hex after.hex\n"
     "  gdwire diff -d auto --dump a.txt b.txt\n",
     "Exit status: 0 the same value, 1 they differ, 2 usage or I/O error, or a packet that does not decode.\n"},
    {"convert", "rewrite packets from one dialect as another dialect's engine would", O_FROMTO | O_INPUT | O_FRAMING | O_SECRET | O_MODE | O_LOSSY, cmd_convert,
     "gdwire convert --from A --to B [--lossy] [input options] [FILE...]",
     "Decodes each packet in dialect A and writes it as dialect B's engine would, in the input's\n"
     "encoding and framing (raw, hex or base64; one line per packet for text). A type B lacks or a\n"
     "value that does not fit (Vector2i into godot3, Image into godot4, a typed array into\n"
     "godot4.0, f64 into a single-precision field) is an error naming the place; --lossy uses\n"
     "the nearest counterpart (or null) with a warning per place. docs/convert.md has the table.\n"
     "  --from A, --to B    the dialects\n"
     "  --lossy             allow lossy changes, each warned about on stderr\n"
     "  --container C       with --framing file: write plain, compressed:MODE or encrypted (default:\n"
     "                      the input's container, in the target's generation; written whole or not\n"
     "                      at all)\n",
     "  gdwire convert --from godot3 --to godot4 --hex cli/samples/godot3-game-state.hex\n"
     "  gdwire convert --from godot3 --to godot4 --framing file --password-file pw save.dat > new.dat\n"
     "  gdwire convert --from godot4 --to godot3 --lossy --framing stream in.bin > out.bin\n",
     "Exit status: 0 every packet converted, 1 some packet not (rejected, or not convertible without\n--lossy), 2 usage or I/O error.\n"},
    {"migrate", "move a folder of Godot saves to another dialect, container and all", O_FROMTO | O_SECRET | O_MODE, cmd_migrate,
     "gdwire migrate --from A --to B [--password TEXT | --password-file F | --key HEX] [--container C] SRC_DIR DEST_DIR",
     "Reads every file under SRC_DIR (in name order; links are not followed) as a FileAccess file of\n"
     "store_var values in dialect A: plain, compressed or encrypted, opened as --framing file opens it.\n"
     "Converts every value to dialect B (lossy changes allowed, each named) and writes the same\n"
     "container in B's generation to the same name under DEST_DIR: the same compression mode, or\n"
     "encrypted with the same secret (under a fresh IV in Godot 4); --container chooses another. A file\n"
     "is written whole or not at all, never over an existing file, and DEST_DIR may not be SRC_DIR or\n"
     "inside it. One line per file on stdout: converted, lossy (with each place, as convert names it)\n"
     "or refused (why). docs/saves.md.\n"
     "  --from A, --to B    the dialects (godot3 and godot4 families)\n"
     "  --container C       plain, compressed:MODE (fastlz, deflate, zstd, gzip) or encrypted\n",
     "  gdwire migrate --from godot3 --to godot4 --password-file pw.txt old_saves/ new_saves/\n",
     "Exit status: 0 every file converted, 3 every file converted but some with lossy places, 1 some\nfile refused, 2 usage or I/O error.\n"},
    {"capture", "every message of a captured Godot multiplayer session, decoded", O_JSON | O_CAPTURE, cmd_capture,
     "gdwire capture [--json] [--names FILE] [--project P] [filters] [-d DIALECT] FILE.pcap|FILE.pcapng|-",
     "Reads a packet capture (pcap or pcapng, as tcpdump -w writes it; - for stdin), or a live\n"
     "interface (-i, through libpcap, with tcpdump's privileges: root or CAP_NET_RAW), of Godot\n"
     "multiplayer over ENet or WebSocket, Godot 4's SceneMultiplayer or Godot 3's MultiplayerAPI\n"
     "(detected per flow): finds the flows, decompresses (ENet's range coder, Godot 3.4+'s default, with\n"
     "libenet; FastLZ, zlib and zstd, found per flow), drops\n"
     "retransmits, reassembles fragments and TCP streams, maps ENet peers to Godot peer ids (the CONNECT command carries the\n"
     "client's), unwraps relays, keeps each peer's path cache, and prints one line per message in\n"
     "time order: time, flow, from -> to peer, channel and mode, command, node path, method (its id\n"
     "in Godot 4, its name in Godot 3), and each Variant in the canonical text form. Every problem\n"
     "(a cut frame, a command that is not ENet, a fragment that never completes, a Variant that does\n"
     "not decode) is one line on stderr with the frame number and byte offset; the rest of the\n"
     "capture is still read. docs/capture.md.\n"
     "Not read yet: Pandemonium and Godot 3.0-3.1 sessions; DTLS, WebRTC and\n"
     "wss:// are encrypted and cannot be read.\n"
     "  --json              one JSON object per message, problem and summary (docs/gdwire.schema.json, \"capture\")\n"
     "  -i, --interface IFACE  capture live on IFACE (lo, eth0) instead of reading a file: a line per\n"
     "                      message as it comes, until SIGINT or SIGTERM (Ctrl-C) or --duration\n"
     "  --filter BPF        a live capture's libpcap filter (tcpdump's syntax: 'udp port 7000')\n"
     "  --duration S        stop a live capture after S seconds\n"
     "  --names FILE        Godot 4's method names for its ids (docs/capture.md: a GDScript helper\n"
     "                      writes it)\n"
     "  --project P         the names from the game's project: its folder, or a manifest saved with\n"
     "                      gdwire rpc --json or written by the addon (docs/rpc-manifest.md); a\n"
     "                      SIMPLIFY_PATH whose MD5 is not the project's is marked NOT the project's;\n"
     "                      a call the engine would refuse (its arguments) is marked REFUSED\n"
     "  -d, --dialect D     every flow's dialect (default: detected, godot4 or godot3; godot4.3,\n"
     "                      godot4-double, godot3@3.2, ...)\n"
     "  --peer ID           only messages from or to this Godot peer id (repeatable)\n"
     "  --command LIST      only these commands: rpc, rset, simplify_path, confirm_path, raw, spawn,\n"
     "                      despawn, sync, delta, auth, add_peer, del_peer (comma-separated)\n"
     "  --path TEXT         only messages whose node path holds TEXT\n"
     "  --since S, --until S  only messages from S to S seconds after the first frame\n"
     "  --check             check each Variant's bytes against every dialect, as gdwire check\n"
     "  --no-summary        no summary at the end (messages per command and per peer, bytes)\n"
     "  --max-fragment-bytes N, --max-flow-fragment-bytes N\n"
     "                      what waits to become a message (ENet fragments, TCP streams, WebSocket\n"
     "                      messages), in all flows (64M) and in one flow (40M)\n"
     "  --max-window-bytes N, --max-flow-window-bytes N\n"
     "                      ENet retransmit windows, in all flows (16M) and in one (192K)\n"
     "  --max-path-bytes N, --max-flow-path-bytes N, --max-paths N\n"
     "                      the path caches: bytes in all flows (16M) and one (4M), entries (65536)\n"
     "  --max-packet N, --max-flows N\n"
     "                      one reassembled packet (32M), flows followed (4096)\n"
     "  --max-ip-fragment-bytes N\n"
     "                      IP datagrams being put back together from their fragments (16M)\n"
     "                      At a cap the oldest state of its kind is dropped, with a problem\n"
     "                      (docs/capture.md, \"Bounded memory\")\n",
     "  gdwire capture session.pcap\n"
     "  sudo gdwire capture -i lo --filter 'udp port 7000'\n"
     "  sudo tcpdump -i lo -w - udp port 7000 | gdwire capture --command rpc -\n"
     "  gdwire capture --json --names names.tsv session.pcap | jq 'select(.type == \"message\")'\n",
     "Exit status: 0 every frame read with no problem, 1 some problem (each on stderr), 2 usage or I/O error.\n"},
    {"rpc", "a Godot project's RPCs, ids and checksums, read from its files", O_JSON, cmd_rpc,
     "gdwire rpc [--json] PROJECT_DIR|MANIFEST.json",
     "Reads a Godot project statically (project.godot, text scenes, GDScript; nothing is run) and\n"
     "prints, for every node with RPCs in the main scene, the autoloads and the scenes a\n"
     "MultiplayerSpawner can spawn: its path as SIMPLIFY_PATH names it (a * segment is a name given\n"
     "at run time), its script, the MD5 the engine sends for it (Godot 4), and its RPCs in id order:\n"
     "id, name, arguments, mode, call_local, transfer mode, channel. Then each\n"
     "MultiplayerSynchronizer's replicated properties (their index in the spawn, sync and watch\n"
     "lists; the delta bit) and each spawner's scenes. A node whose RPCs a file cannot tell\n"
     "(rpc_config() at run time, a script set from code, a C# script, a script that does not\n"
     "compile) is flagged DYNAMIC with the reason. What could not be read is a problem with its\n"
     "file and line (also on stderr); reading goes on. docs/rpc-manifest.md.\n"
     "  --json              the manifest (docs/rpc-manifest.schema.json), which rpc-diff and the\n"
     "                      game addon's dump share\n",
     "  gdwire rpc ~/games/arena\n"
     "  gdwire rpc --json ~/games/arena > arena-1.4.json\n",
     "Exit status: 0 the project was read (problems and all), 2 usage or I/O error, or no project.godot.\n"},
    {"rpc-diff", "which RPCs two builds of a game disagree on, and what runs instead", O_LABELS, cmd_rpc_diff,
     "gdwire rpc-diff [--labels A,B] A B",
     "Compares two builds' RPCs (each a project folder or a manifest saved with gdwire rpc --json)\n"
     "node by node: each node whose checksum differs, the method added, removed or retyped that\n"
     "makes it differ, every method id that names another method on the other side (\"client calls\n"
     "`heal`, server runs `hit`\": Godot 4 sends ids, not names, and runs the call anyway), and the\n"
     "mode, channel, transfer mode and call_local changes the checksum does not see; then the\n"
     "synchronizers' properties and the spawners' scene ids.\n"
     "  --labels A,B        what the sentences call the two builds (default A,B)\n",
     "  gdwire rpc-diff --labels client,server client/ server-1.4.json\n",
     "Exit status: 0 the builds can talk, 1 they cannot (a checksum, an id, arguments, a mode, a node\nor a replicated property differs), 2 usage or I/O error.\n"},
    {"guard", "a filtering proxy before a Godot server: hostile packets stop there", O_DIALECT_OPT | O_JSON | O_GUARD, cmd_guard,
     "gdwire guard --listen ADDR:PORT --upstream ADDR:PORT [--ws] [--policy F]\n"
     "             [--project DIR|MANIFEST] [--json] [--log FILE] [--dry-run]",
     "Relays ENet over UDP between clients and a Godot server (one upstream socket\n"
     "per client address, so the server sees one peer per client), or with --ws\n"
     "WebSocket over TCP (one upstream connection per client, the HTTP upgrade\n"
     "passed through), in one epoll loop, and judges every client datagram before it\n"
     "goes on: ENet commands, decompression, fragments, Godot 3's header, each\n"
     "multiplayer packet (session/'s layers), each Variant through the validator\n"
     "with the policy's limits. A command that breaks a rule is removed from its\n"
     "datagram (unreliable), replaced by a harmless one of the same channel and\n"
     "sequence number (reliable), or its peer is cut off after actions.cut_after\n"
     "violations, with a DISCONNECT forged for the server. The server's replies go\n"
     "back untouched (with the policy's server.judge they are judged too: a guard in\n"
     "front of a client, against a hostile server). Each action is one line in\n"
     "capture's format (the client, peer, mode and channel, command, node, method,\n"
     "then the action, the rule and the byte). SIGUSR1 and the exit print the\n"
     "counters; SIGTERM drains (no new client, at most --drain seconds) and exits.\n"
     "guard/README.md has the policy's keys, the bounds and the actions' reasons.\n"
     "  --listen ADDR:PORT  where clients connect (127.0.0.1:7000, [::1]:7000)\n"
     "  --upstream ADDR:PORT  the Godot server\n"
     "  --ws                WebSocket over TCP instead: each whole binary message\n"
     "                      judged, forwarded as its frames came or dropped whole\n"
     "  --policy FILE       the policy (YAML; default: the safe defaults)\n"
     "  --project P         the game's RPCs (a folder or a manifest, as gdwire rpc\n"
     "                      reads them): argument counts and types per RPC\n"
     "  -d, --dialect D     the server's dialect (default the policy's, godot4;\n"
     "                      godot3, godot3@3.2)\n"
     "  --dry-run           log what it would do, forward everything byte for byte\n"
     "  --no-checks         a plain relay (the benchmark's baseline)\n"
     "  --json              one JSON object per action and per counters report\n"
     "  --log FILE          the actions and counters to FILE (appended; or stdout)\n"
     "  --max-clients N     client addresses followed at once (256)\n"
     "  --idle S            a client silent S seconds is forgotten (30); one that\n"
     "                      never finished its handshake, after 5\n"
     "  --drain S           after SIGTERM, relay at most S seconds (2)\n"
     "  --duration S        stop after S seconds\n",
     "  gdwire guard --listen 0.0.0.0:7000 --upstream 127.0.0.1:7001\n"
     "  gdwire guard --listen 0.0.0.0:7000 --upstream 127.0.0.1:7001 \\\n"
     "      --policy guard.yaml --json --log guard.log\n"
     "  kill -USR1 $(pidof gdwire)   # the counters\n",
     "Exit status: 0 after SIGTERM, SIGINT or --duration, 2 usage error (or an address\nthat does not bind).\n"},
    {"dialects", "list every dialect: family, type ids, engine versions, aliases", O_JSON, cmd_dialects,
     "gdwire dialects [--json]",
     "Lists every dialect: name, family, number of type ids, engine versions, aliases.\n"
     "  --json              a JSON array (docs/gdwire.schema.json, \"dialects\")\n",
     "  gdwire dialects\n"
     "  gdwire dialects --json | jq -r '.[].name'\n",
     "Exit status: 0, or 2 on a usage error.\n"},
};
#define N_VERBS (sizeof k_verbs / sizeof k_verbs[0])

static void usage_main(FILE *f) {
    fprintf(f, "usage: gdwire VERB [options] [FILE...]\n\nVerbs:\n");
    for (size_t i = 0; i < N_VERBS; i++) fprintf(f, "  %-9s %s\n", k_verbs[i].name, k_verbs[i].summary);
    fprintf(f, "  help      the manual page\n\n"
               "'gdwire VERB --help' for a verb's options and examples.\n--no-color turns colour off.\n%s"
               "gdwire " GDW_VERSION "\n", k_exit_help);
}

static void usage_verb(FILE *f, const verb *v) {
    fprintf(f, "usage: %s\n\n%s", v->synopsis, v->about);
    if (v->opts & O_INPUT) fprintf(f, "\n%s", v->run == cmd_encode ? "" : k_input_help);
    if (v->opts & O_MODE) fprintf(f, "%s", k_decode_opts_help);
    if (v->opts & O_SECRET) fprintf(f, "%s", k_secret_help);
    fprintf(f, "  --no-color          no colour (the default when stdout is not a terminal)\n\nExamples:\n%s\n%s", v->examples, v->exit_status);
}

int usage_error(const char *verb, const char *fmt, const char *arg) {
    fprintf(stderr, "gdwire %s: ", verb);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try 'gdwire %s --help')\n", verb);
    return EXIT_USAGE;
}

static const gdw_dialect *dialect_arg(const char *verb, const char *name) {
    const gdw_dialect *d = gdw_dialect_find(name);
    char near[64];
    if (!d && suggest_dialect(name, near, sizeof near)) {
        fprintf(stderr, "gdwire %s: unknown dialect '%s'; did you mean '%s'? (see 'gdwire dialects')\n(try 'gdwire %s --help')\n", verb, name, near, verb);
    } else if (!d) {
        usage_error(verb, "unknown dialect '%s' (see 'gdwire dialects')", name);
    }
    return d;
}

/* "65536", "64K", "1M", "4G": 1 .. 4 GiB (a length prefix is 32 bits). */
static bool size_arg(const char *s, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > (1ull << 32)) return false;
    }
    unsigned shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' || *p == 'm' ? 20 : *p == 'G' || *p == 'g' ? 30 : 0;
    if (shift) p++;
    if (*p || v == 0 || v > ((1ull << 32) >> shift)) return false;
    *out = v << shift;
    return true;
}

static int parse_opts(const verb *v, int argc, char **argv, opts *o) {
    memset(o, 0, sizeof *o);
    o->verb = v->name;
    o->dec = gdw_decode_options_default();
    o->color = -1;
    o->cap.until = -1;
    o->inputs = calloc((size_t)argc + 1, sizeof *o->inputs);
    if (!o->inputs) return EXIT_USAGE;
    unsigned ok = v->opts;
    bool only_files = false;
    int objects = -1; /* --allow-objects / --no-allow-objects; else the dialect's engine default */
    int taken_secret = 0, taken_guard = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
#define TAKES(bit) ((ok & (bit)) != 0)
#define VALUE(what) \
    do { if (++i >= argc) return usage_error(v->name, "%s needs " what, a); } while (0)
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) { o->inputs[o->n_inputs++] = a; continue; }
        if (strcmp(a, "--") == 0) only_files = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { o->help = true; return 0; }
        else if (strcmp(a, "--no-color") == 0) o->color = 0;
        else if (strcmp(a, "--color") == 0) o->color = 1;
        else if ((strcmp(a, "-d") == 0 || strcmp(a, "--dialect") == 0) && (TAKES(O_DIALECT) || TAKES(O_DIALECT_OPT))) {
            VALUE("a dialect name");
            if (strcmp(argv[i], "auto") == 0 && v->run != cmd_encode) o->auto_dialect = true; /* per packet: check's best */
            else if (!(o->dialect = dialect_arg(v->name, argv[i]))) return EXIT_USAGE;
        } else if ((strcmp(a, "--from") == 0 || strcmp(a, "--to") == 0) && TAKES(O_FROMTO)) {
            VALUE("a dialect name");
            const gdw_dialect *d = dialect_arg(v->name, argv[i]);
            if (!d) return EXIT_USAGE;
            if (a[2] == 'f') o->from = d; else o->to = d;
        } else if (strcmp(a, "--hex") == 0 && TAKES(O_INPUT)) o->enc = ENC_HEX;
        else if (strcmp(a, "--base64") == 0 && TAKES(O_INPUT)) o->enc = ENC_BASE64;
        else if (strcmp(a, "--dump") == 0 && TAKES(O_INPUT) && v->run != cmd_encode) o->enc = ENC_DUMP;
        else if (strcmp(a, "--lines") == 0 && TAKES(O_INPUT)) o->lines = true;
        else if (strcmp(a, "--unbuffered") == 0) o->unbuffered = true;
        else if (strcmp(a, "--pretty") == 0 && (v->run == cmd_decode || v->run == cmd_check)) o->pretty = true;
        else if (strcmp(a, "--select") == 0 && v->run == cmd_decode) { VALUE("a path: [3], {\"hp\"}, {#2 key}, .\"name\"; as errors write them"); o->select = argv[i]; }
        else if (strcmp(a, "--resync") == 0 && TAKES(O_FRAMING) && v->run != cmd_encode) o->resync = true;
        else if (strcmp(a, "--framing") == 0 && TAKES(O_FRAMING)) {
            VALUE("none, stream, file or packet-stream");
            const char *f = argv[i];
            if (strcmp(f, "none") == 0) o->frame = FRAME_NONE;
            else if (strcmp(f, "stream") == 0) o->frame = FRAME_STREAM;
            else if (strcmp(f, "file") == 0) o->frame = FRAME_FILE;
            else if (strcmp(f, "packet-stream") == 0) o->frame = FRAME_PACKET_STREAM;
            else return usage_error(v->name, "unknown framing '%s' (none, stream, file, packet-stream)", f);
        } else if (strcmp(a, "--big-endian") == 0 && TAKES(O_FRAMING)) o->big_endian = true;
        else if (strcmp(a, "--max-frame") == 0 && TAKES(O_FRAMING) && v->run != cmd_encode) {
            VALUE("a size in bytes");
            if (!size_arg(argv[i], &o->max_frame)) return usage_error(v->name, "--max-frame '%s': want a size in bytes from 1 to 4G (K, M, G suffixes)", argv[i]);
        }
        else if (strcmp(a, "--mode") == 0 && TAKES(O_MODE)) {
            VALUE("a mode");
            int m = gdw_mode_from_name(argv[i]);
            if (m < 0) return usage_error(v->name, "unknown mode '%s' (compatible, strict, engine-exact)", argv[i]);
            o->dec.mode = (gdw_mode)m;
        } else if (strcmp(a, "--allow-objects") == 0 && TAKES(O_MODE)) objects = 1;
        else if (strcmp(a, "--no-allow-objects") == 0 && TAKES(O_MODE)) objects = 0;
        else if (strcmp(a, "--exact") == 0 && TAKES(O_MODE)) o->dec.fail_if_approximate = true;
        else if (strcmp(a, "--json") == 0 && TAKES(O_JSON)) o->json = true;
        else if (strncmp(a, "--json=", 7) == 0 && TAKES(O_JSON)) {
            if (strcmp(a + 7, "plain") == 0) o->json_plain |= GDW_JSON_PLAIN;
            else if (strcmp(a + 7, "form") != 0) return usage_error(v->name, "--json=%s: plain or form", a + 7);
            o->json = true;
        } else if (strcmp(a, "--big-ints-as-strings") == 0 && TAKES(O_JSON)) o->json_plain |= GDW_JSON_BIG_INTS_AS_STRINGS;
        else if (strcmp(a, "--noout") == 0 && TAKES(O_NOOUT)) o->noout = true;
        else if (strcmp(a, "--wire") == 0 && TAKES(O_WIRE)) o->wire = true;
        else if (strcmp(a, "--lossy") == 0 && TAKES(O_LOSSY)) o->lossy = true;
        else if ((strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) && TAKES(O_VERBOSE)) o->verbose = true;
        else if (strcmp(a, "--labels") == 0 && TAKES(O_LABELS)) { VALUE("two names, as client,server"); o->labels = argv[i]; }
        else if (TAKES(O_SECRET) && (taken_secret = container_option(o, argc, argv, &i)) != 0) {
            if (taken_secret < 0) return EXIT_USAGE;
        } else if (TAKES(O_GUARD) && (taken_guard = guard_option(o, argc, argv, &i)) != 0) {
            if (taken_guard < 0) return EXIT_USAGE;
        } else if (TAKES(O_CAPTURE)) {
            int taken = capture_option(o, argc, argv, &i);
            if (taken < 0) return EXIT_USAGE;
            if (!taken) return usage_error(v->name, "unknown option '%s'", a);
        }
        else return usage_error(v->name, "unknown option '%s'", a);
#undef TAKES
#undef VALUE
    }
    if ((ok & O_DIALECT) && !o->dialect && !o->auto_dialect) return usage_error(v->name, "%s", "no dialect given (-d NAME; see 'gdwire dialects')");
    const gdw_dialect *reader = o->dialect ? o->dialect : o->from;
    o->objects_flag = objects;
    o->dec.allow_objects = objects_allowed(o, reader);
    if (v->run == cmd_migrate) o->lossy = true; /* migrate names each lossy place rather than refusing the file */
    if ((ok & O_FROMTO) && (!o->from || !o->to)) return usage_error(v->name, "%s", "needs --from A and --to B (see 'gdwire dialects')");
    if (o->lines && o->enc == ENC_RAW && v->run != cmd_encode) return usage_error(v->name, "%s", "--lines needs --hex, --base64 or --dump");
    if (o->lines && o->frame != FRAME_NONE && v->run != cmd_encode) return usage_error(v->name, "%s", "--lines and --framing do not go together");
    if ((o->has_key || o->max_plain) && o->frame != FRAME_FILE && v->run != cmd_migrate)
        return usage_error(v->name, "%s", "--password, --password-file, --key and --max-plain need --framing file (a FileAccess file)");
    if (o->container && o->frame != FRAME_FILE && v->run != cmd_migrate) return usage_error(v->name, "%s", "--container needs --framing file");
    if (o->container && o->enc != ENC_RAW) return usage_error(v->name, "%s", "--container writes raw bytes: not with --hex, --base64 or --dump");
    if (v->run == cmd_migrate && o->n_inputs != 2) return usage_error(v->name, "%s", "two directories: SRC_DIR DEST_DIR");
    if (o->resync && o->frame == FRAME_NONE) return usage_error(v->name, "%s", "--resync needs --framing stream, file or packet-stream");
    if (o->max_frame && o->frame == FRAME_NONE) return usage_error(v->name, "%s", "--max-frame needs --framing stream, file or packet-stream");
    if (o->big_endian && o->frame != FRAME_STREAM && o->frame != FRAME_FILE)
        return usage_error(v->name, "%s", "--big-endian needs --framing stream or file (PacketPeerStream is always little-endian)");
    if ((o->json_plain & GDW_JSON_BIG_INTS_AS_STRINGS) && !(o->json_plain & GDW_JSON_PLAIN))
        return usage_error(v->name, "%s", "--big-ints-as-strings needs --json=plain");
    if ((o->json_plain & GDW_JSON_BIG_INTS_AS_STRINGS) && v->run == cmd_encode)
        return usage_error(v->name, "%s", "--big-ints-as-strings is for output: encode reads a quoted int as a String");
    if (o->pretty && v->run == cmd_check && !o->json) return usage_error(v->name, "%s", "--pretty needs --json here (the check table stays a table)");
    if (o->select && (o->noout || o->wire)) return usage_error(v->name, "%s", "--select is for the value: not with --noout or --wire");
    if (o->pretty && (o->noout || o->wire)) return usage_error(v->name, "%s", "--pretty is for values: not with --noout or --wire");
    if (o->json + o->noout + o->wire > 1) return usage_error(v->name, "%s", "choose one of --json, --noout and --wire");
    if (v->run == cmd_encode && o->n_inputs > 1) return usage_error(v->name, "%s", "one input only: a value");
    if (v->run == cmd_dialects && o->n_inputs) return usage_error(v->name, "unexpected argument '%s'", o->inputs[0]);
    if (o->n_inputs == 0 && v->run != cmd_dialects && v->run != cmd_guard && !o->cap.interface) { /* (capture -i reads an interface) */
        if (isatty(STDIN_FILENO)) return usage_error(v->name, "%s", "no input given (FILE..., or - for stdin)");
        o->inputs[o->n_inputs++] = "-";
    }
    return 0;
}

bool objects_allowed(const opts *o, const gdw_dialect *d) {
    return o->objects_flag >= 0 ? o->objects_flag == 1 : d && gdw_dialect_objects_by_default(d);
}

int main(int argc, char **argv) {
    if (argc < 2) { usage_main(stderr); return EXIT_USAGE; }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc > 2) {
            for (size_t i = 0; i < N_VERBS; i++)
                if (strcmp(argv[2], k_verbs[i].name) == 0) { usage_verb(stdout, &k_verbs[i]); return 0; }
            fprintf(stderr, "gdwire: no help for '%s'\n", argv[2]);
            return EXIT_USAGE;
        }
        if (strcmp(name, "help") == 0) man_render(stdout, gdwire_man_page);
        else usage_main(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("gdwire " GDW_VERSION " (%zu dialects)\n", gdw_dialect_count());
        return 0;
    }
    for (size_t i = 0; i < N_VERBS; i++) {
        if (strcmp(name, k_verbs[i].name) != 0) continue;
        opts o;
        int rc = parse_opts(&k_verbs[i], argc - 2, argv + 2, &o);
        if (!rc && o.help) usage_verb(stdout, &k_verbs[i]);
        else if (!rc) {
            struct stat sb;
            o.flush_each = o.unbuffered || (fstat(STDOUT_FILENO, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)));
            term_setup(&o);
            FILE *real_stdout = stdout, *pf = o.pretty ? pretty_stdout() : NULL;
            if (pf) stdout = pf; /* every write of the verb goes through the re-indenter */
            rc = k_verbs[i].run(&o);
            if (pf) { /* its last bytes out, its state freed */
                if (fclose(pf) != 0 && rc != EXIT_USAGE) { fprintf(stderr, "gdwire: write error on stdout\n"); rc = EXIT_USAGE; }
                stdout = real_stdout;
            }
        }
        free(o.inputs);
        if (fflush(stdout) != 0 && rc != EXIT_USAGE) { fprintf(stderr, "gdwire: write error on stdout\n"); rc = EXIT_USAGE; }
        return rc;
    }
    const char *names[N_VERBS + 2];
    for (size_t i = 0; i < N_VERBS; i++) names[i] = k_verbs[i].name;
    names[N_VERBS] = "help";
    names[N_VERBS + 1] = "version";
    const char *near = suggest_verb(name, names, N_VERBS + 2);
    if (near) fprintf(stderr, "gdwire: unknown verb '%s'; did you mean '%s'?\n\n", name, near);
    else fprintf(stderr, "gdwire: unknown verb '%s'\n\n", name);
    usage_main(stderr);
    return EXIT_USAGE;
}
