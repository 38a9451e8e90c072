/* SPDX-License-Identifier: MIT
 * guard_bench — `gdwire guard` under load, side by side in one run (issue 61, docs/performance.md):
 *   direct    the clients talk to the sink itself
 *   plain     through `gdwire guard --no-checks` (the relay alone, the same program)
 *   full      through `gdwire guard` with the full policy (bench/guard_policy.yaml: the defaults, with the rate limits
 *             raised past the benchmark's load so that they are computed and never bite)
 * The load: libenet clients (Debian libenet-dev) sending real SceneMultiplayer RPCs (Godot 4's layout,
 * docs/multiplayer.md 1.2-1.4: a SIMPLIFY_PATH first, then RPCs by cache id) in a realistic mix: 60 % an unreliable
 * ordered movement RPC (a Vector2 and a compact int), 25 % a reliable action RPC (a String and an int), 10 % an
 * unreliable RPC with an Array of three floats, 5 % a reliable RPC with a 200-byte PackedByteArray; each carries its
 * send time (CLOCK_MONOTONIC nanoseconds, a compact int) as its last argument. The upstream is a libenet sink that
 * accepts, acknowledges (libenet does) and reads each RPC's send time.
 * Figures: packets/s the sink receives at saturation; p50 and p99 one-way latency at 10,000 packets/s offered;
 * the guard's RSS per client (VmRSS with the clients connected, less VmRSS before the first); and the guard process's
 * own CPU time (user and system, /proc) per message at saturation, which says what the guard costs when the load
 * generator, on the same two cores, cannot saturate it.
 *
 * Each figure is the median of --rounds rounds (3), the three modes taking turns in each round, so that a loaded
 * machine's noise falls on all three alike; the load average is printed beside them.
 *
 * usage: guard_bench GDWIRE POLICY [--clients N] [--seconds S] [--rate R] [--rss-clients N] [--rounds N] */
#define _GNU_SOURCE
#include <enet/enet.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the sink ------------------------------------------------------------------------------------------------ */

#define MAX_LAT 2000000
typedef struct sink {
    unsigned short port;
    atomic_int stop;
    atomic_ullong received;
    atomic_int measuring;
    uint64_t *lat;
    atomic_size_t n_lat;
    atomic_int ready;
} sink;

static void *sink_main(void *arg) {
    sink *s = arg;
    ENetAddress a = {.host = ENET_HOST_ANY, .port = s->port};
    enet_address_set_host(&a, "127.0.0.1");
    ENetHost *h = enet_host_create(&a, 512, 4, 0, 0);
    if (!h) { fprintf(stderr, "guard_bench: the sink cannot bind port %u\n", s->port); exit(2); }
    atomic_store(&s->ready, 1);
    ENetEvent ev;
    while (!atomic_load(&s->stop)) {
        while (enet_host_service(h, &ev, 1) > 0) {
            if (ev.type != ENET_EVENT_TYPE_RECEIVE) continue;
            const uint8_t *d = ev.packet->data;
            size_t n = ev.packet->dataLength;
            if (n > 9 && d[0] == 0x00 && d[n - 9] == 0xC2) { /* an RPC: its last argument is the send time */
                uint64_t t = 0;
                for (int i = 0; i < 8; i++) t |= (uint64_t)d[n - 8 + i] << (8 * i);
                atomic_fetch_add(&s->received, 1);
                if (atomic_load(&s->measuring)) {
                    size_t k = atomic_fetch_add(&s->n_lat, 1);
                    if (k < MAX_LAT) s->lat[k] = now_ns() - t;
                }
            }
            enet_packet_destroy(ev.packet);
            if (atomic_load(&s->stop)) break;
        }
    }
    enet_host_destroy(h);
    return NULL;
}

/* ---- the clients ---------------------------------------------------------------------------------------------- */

typedef struct client {
    ENetHost *h;
    ENetPeer *p;
    bool up;
} client;

static size_t put_le(uint8_t *b, uint64_t v, int n) {
    for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
    return (size_t)n;
}

/* SIMPLIFY_PATH: 01, the MD5 as 32 hex and a NUL, the cache id 1, "Game" and a NUL (scene_cache_interface.cpp). */
static size_t simplify_path(uint8_t *b) {
    size_t n = 0;
    b[n++] = 0x01;
    memcpy(b + n, "0123456789abcdef0123456789abcdef", 32), n += 32;
    b[n++] = 0;
    n += put_le(b + n, 1, 4);
    memcpy(b + n, "Game", 5), n += 5;
    return n;
}

/* One RPC of the mix (k: 0..99): its bytes in b, whether it is reliable. */
static size_t rpc(uint8_t *b, unsigned k, bool *reliable) {
    size_t n = 0;
    b[n++] = 0x00; /* RPC, u8 node id, u8 method id, an argument count */
    b[n++] = 1;
    if (k < 60) { /* move(Vector2, time) */
        *reliable = false;
        b[n++] = 0, b[n++] = 2;
        n += put_le(b + n, 5, 4);
        float xy[2] = {12.5f, -3.25f};
        memcpy(b + n, xy, 8), n += 8;
    } else if (k < 85) { /* act(String, int, time) */
        *reliable = true;
        b[n++] = 1, b[n++] = 3;
        n += put_le(b + n, 4, 4), n += put_le(b + n, 11, 4);
        memcpy(b + n, "fire_weapon\0", 12), n += 12;
        b[n++] = 0x02, b[n++] = 3;
    } else if (k < 95) { /* aim(Array[3 floats], time) */
        *reliable = false;
        b[n++] = 2, b[n++] = 2;
        n += put_le(b + n, 28, 4), n += put_le(b + n, 3, 4);
        for (int i = 0; i < 3; i++) {
            n += put_le(b + n, 3, 4);
            float f = 0.5f * (float)i;
            memcpy(b + n, &f, 4), n += 4;
        }
    } else { /* blob(PackedByteArray of 200, time) */
        *reliable = true;
        b[n++] = 3, b[n++] = 2;
        n += put_le(b + n, 29, 4), n += put_le(b + n, 200, 4);
        memset(b + n, 0xAB, 200), n += 200;
    }
    b[n++] = 0xC2;
    n += put_le(b + n, now_ns(), 8);
    return n;
}

static void send_one(client *c, unsigned k) {
    uint8_t b[512];
    bool reliable;
    size_t n = rpc(b, k, &reliable);
    ENetPacket *p = enet_packet_create(b, n, reliable ? ENET_PACKET_FLAG_RELIABLE : ENET_PACKET_FLAG_UNSEQUENCED);
    enet_peer_send(c->p, reliable ? 0 : 1, p);
}

static int connect_all(client *cs, unsigned n, unsigned short port) {
    ENetAddress a;
    enet_address_set_host(&a, "127.0.0.1");
    a.port = port;
    for (unsigned i = 0; i < n; i++) {
        cs[i].h = enet_host_create(NULL, 1, 4, 0, 0);
        cs[i].p = enet_host_connect(cs[i].h, &a, 4, 1000 + i);
        cs[i].up = false;
    }
    uint64_t t0 = now_ns();
    unsigned up = 0;
    while (up < n && now_ns() - t0 < 10000000000ull) {
        for (unsigned i = 0; i < n; i++) {
            ENetEvent ev;
            while (enet_host_service(cs[i].h, &ev, 0) > 0)
                if (ev.type == ENET_EVENT_TYPE_CONNECT && !cs[i].up) {
                    cs[i].up = true, up++;
                    uint8_t b[64];
                    size_t k = simplify_path(b);
                    enet_peer_send(cs[i].p, 0, enet_packet_create(b, k, ENET_PACKET_FLAG_RELIABLE));
                } else if (ev.type == ENET_EVENT_TYPE_RECEIVE)
                    enet_packet_destroy(ev.packet);
        }
        usleep(1000);
    }
    return up == n ? 0 : -1;
}

static void pump(client *cs, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        ENetEvent ev;
        while (enet_host_service(cs[i].h, &ev, 0) > 0)
            if (ev.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(ev.packet);
    }
}

static void disconnect_all(client *cs, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        enet_peer_disconnect_now(cs[i].p, 0);
        enet_host_flush(cs[i].h);
        enet_host_destroy(cs[i].h);
    }
}

/* ---- the guard's process ------------------------------------------------------------------------------------- */

static long rss_kb(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kb;
}

/* The process's CPU time so far (user and system), seconds. */
static double cpu_s(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* after the command's name: state, then fields 4.. */
    unsigned long long ut = 0, st = 0;
    if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
        return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
    return 0;
}

static pid_t start_guard(const char *gdwire, const char *mode, const char *policy, unsigned short listen, unsigned short up) {
    char l[32], u[32];
    snprintf(l, sizeof l, "127.0.0.1:%u", listen);
    snprintf(u, sizeof u, "127.0.0.1:%u", up);
    pid_t pid = fork();
    if (pid == 0) {
        if (strcmp(mode, "plain") == 0) /* the same policy file (the relay's own rules), every check off */
            execl(gdwire, gdwire, "guard", "--listen", l, "--upstream", u, "--policy", policy, "--no-checks", "--log", "/dev/null", "--max-clients", "1024",
                  (char *)NULL);
        else execl(gdwire, gdwire, "guard", "--listen", l, "--upstream", u, "--policy", policy, "--log", "/dev/null", "--max-clients", "1024", (char *)NULL);
        _exit(127);
    }
    usleep(300000);
    return pid;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct result {
    double pps, p50_us, p99_us, loss, rss_per_client_kb, cpu_us_per_msg;
} result;

static result run_mode(const char *gdwire, const char *policy, const char *mode, unsigned n_clients, double seconds, double rate, unsigned rss_clients,
                       unsigned short base) {
    result r = {0};
    sink s = {0};
    s.port = base;
    s.lat = malloc(sizeof(uint64_t) * MAX_LAT);
    pthread_t th;
    pthread_create(&th, NULL, sink_main, &s);
    while (!atomic_load(&s.ready)) usleep(1000);
    pid_t guard = 0;
    unsigned short target = base;
    if (strcmp(mode, "direct") != 0) guard = start_guard(gdwire, mode, policy, base + 1, base), target = base + 1;
    long rss0 = guard ? rss_kb(guard) : 0;
    client *cs = calloc(n_clients + rss_clients, sizeof *cs);
    if (connect_all(cs, n_clients, target) != 0) { fprintf(stderr, "guard_bench %s: the clients did not connect\n", mode); exit(1); }
    /* saturation: every client sends as fast as the loop goes, for `seconds` */
    unsigned k = 0;
    uint64_t t0 = now_ns(), end = t0 + (uint64_t)(seconds * 1e9);
    unsigned long long before = atomic_load(&s.received), sent = 0;
    double cpu0 = guard ? cpu_s(guard) : 0;
    while (now_ns() < end) {
        for (unsigned i = 0; i < n_clients; i++)
            for (int b = 0; b < 8; b++) send_one(&cs[i], (k++ * 37) % 100), sent++;
        pump(cs, n_clients);
    }
    double dt = (double)(now_ns() - t0) / 1e9;
    r.pps = (double)(atomic_load(&s.received) - before) / dt;
    if (guard && r.pps > 0) r.cpu_us_per_msg = (cpu_s(guard) - cpu0) * 1e6 / (r.pps * dt); /* the guard's own cost per message */
    for (int i = 0; i < 200; i++) pump(cs, n_clients), usleep(2000); /* the backlog out */
    /* latency at `rate` packets a second, paced */
    atomic_store(&s.n_lat, 0);
    atomic_store(&s.measuring, 1);
    before = atomic_load(&s.received);
    t0 = now_ns();
    end = t0 + (uint64_t)(seconds * 1e9);
    unsigned long long offered = 0;
    while (now_ns() < end) {
        double due = (double)(now_ns() - t0) / 1e9 * rate;
        while ((double)offered < due) send_one(&cs[offered % n_clients], (unsigned)((offered * 37) % 100)), offered++;
        pump(cs, n_clients);
    }
    for (int i = 0; i < 100; i++) pump(cs, n_clients), usleep(2000);
    atomic_store(&s.measuring, 0);
    size_t nl = atomic_load(&s.n_lat);
    if (nl > MAX_LAT) nl = MAX_LAT;
    qsort(s.lat, nl, sizeof *s.lat, cmp_u64);
    r.p50_us = nl ? (double)s.lat[nl / 2] / 1e3 : 0;
    r.p99_us = nl ? (double)s.lat[nl * 99 / 100] / 1e3 : 0;
    r.loss = offered ? 1.0 - (double)nl / (double)offered : 0;
    /* RSS per client: rss_clients more clients, each with its SIMPLIFY_PATH and a few RPCs */
    if (guard && rss_clients) {
        if (connect_all(cs + n_clients, rss_clients, target) != 0) fprintf(stderr, "guard_bench %s: the RSS clients did not all connect\n", mode);
        else {
            for (unsigned i = 0; i < rss_clients; i++)
                for (unsigned m = 0; m < 20; m++) send_one(&cs[n_clients + i], m * 5);
            for (int i = 0; i < 100; i++) pump(cs, n_clients + rss_clients), usleep(2000);
            long rss1 = rss_kb(guard);
            r.rss_per_client_kb = (double)(rss1 - rss0) / (double)(n_clients + rss_clients);
        }
        disconnect_all(cs + n_clients, rss_clients);
    }
    disconnect_all(cs, n_clients);
    if (guard) {
        kill(guard, SIGTERM);
        waitpid(guard, NULL, 0);
    }
    atomic_store(&s.stop, 1);
    pthread_join(th, NULL);
    free(s.lat);
    free(cs);
    return r;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: guard_bench GDWIRE POLICY [--clients N] [--seconds S] [--rate R] [--rss-clients N]\n");
        return 2;
    }
    unsigned clients = 8, rss_clients = 200, rounds = 3;
    double seconds = 3, rate = 10000;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--clients") == 0) clients = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seconds") == 0) seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--rate") == 0) rate = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--rss-clients") == 0) rss_clients = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rounds") == 0) rounds = (unsigned)atoi(argv[i + 1]);
    }
    if (enet_initialize() != 0) return 2;
    srand((unsigned)getpid());
    unsigned short base = (unsigned short)(30000 + rand() % 20000);
    const char *modes[3] = {"direct", "plain", "full"};
    if (rounds < 1 || rounds > 15) rounds = 3;
    result all[3][15], rs[3];
    for (unsigned k = 0; k < rounds; k++)
        for (int m = 0; m < 3; m++)
            all[m][k] = run_mode(argv[1], argv[2], modes[m], clients, seconds, rate, m && k == 0 ? rss_clients : 0, (unsigned short)(base + 30 * k + 10 * m));
    for (int m = 0; m < 3; m++) { /* the median of each figure */
        double v[15];
        double *fields[5] = {&rs[m].pps, &rs[m].p50_us, &rs[m].p99_us, &rs[m].loss, &rs[m].cpu_us_per_msg};
        for (int f = 0; f < 5; f++) {
            for (unsigned k = 0; k < rounds; k++) v[k] = *(&all[m][k].pps + (fields[f] - &rs[m].pps)); /* the same field of round k */
            qsort(v, rounds, sizeof *v, cmp_double);
            *fields[f] = v[rounds / 2];
        }
        rs[m].rss_per_client_kb = all[m][0].rss_per_client_kb;
    }
    char load[64] = "?";
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (!fgets(load, sizeof load, lf)) load[0] = 0;
        fclose(lf);
        load[strcspn(load, "\n")] = 0;
    }
    printf("guard_bench: %u clients, %.0f s a phase, latency at %.0f packets/s offered, RSS with %u clients more; the medians of %u rounds "
           "(load average %s)\n", clients, seconds, rate, rss_clients, rounds, load);
    printf("%-8s %14s %10s %10s %10s %16s %18s\n", "mode", "packets/s", "p50 us", "p99 us", "lost", "RSS/client KiB", "guard CPU us/msg");
    for (int m = 0; m < 3; m++)
        printf("%-8s %14.0f %10.1f %10.1f %9.2f%% %16.1f %18.3f\n", modes[m], rs[m].pps, rs[m].p50_us, rs[m].p99_us, rs[m].loss * 100,
               rs[m].rss_per_client_kb, rs[m].cpu_us_per_msg);
    printf("full / plain packets/s: %.1f %% (goal >= 80 %%); p99 added by the full policy over direct: %.1f us (goal <= 100 us)\n",
           rs[1].pps > 0 ? 100.0 * rs[2].pps / rs[1].pps : 0, rs[2].p99_us - rs[0].p99_us);
    enet_deinitialize();
    return 0;
}
