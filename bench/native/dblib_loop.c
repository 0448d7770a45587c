/*
 * The native client of the load-driver benchmark: FreeTDS db-lib calling one stored procedure over and over as an RPC
 * (dbrpcinit/dbrpcparam/dbrpcsend), one process per session, the way the Node clients call it.
 *
 *   dblib_loop HOST PORT USER PASSWORD DATABASE PROCEDURE SESSIONS WARMUP_MS MS
 *
 * Every session connects and warms up for WARMUP_MS; then READY is printed and one line is read from stdin; then
 * every session calls for MS and the totals are printed as one line:
 *   RESULT calls=N errors=N ms=ELAPSED cpu_us=CPU
 * where CPU is the sessions' own user+system time (getrusage) over the measured window only.
 * Procedure arguments: @key_base bigint, @offset bigint, @batch_size int (disk-insert's client-loop procedure).
 * Build: cc -O2 -o dblib_loop dblib_loop.c -lsybdb   (Debian: freetds-dev). Set TDSVER=7.4.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sybfront.h>
#include <sybdb.h>

struct slot {
    long long calls, errors, cpu_us;
    long long start_ns, end_ns;
};

struct shared {
    volatile int ready;
    volatile int go;
    volatile long long end_ns;
    struct slot s[1024];
};

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long cpu_us(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (long long)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000LL + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

static int err_handler(DBPROCESS *dbproc, int severity, int dberr, int oserr, char *dberrstr, char *oserrstr) {
    (void)dbproc; (void)severity; (void)oserr; (void)oserrstr;
    fprintf(stderr, "db-lib error %d: %s\n", dberr, dberrstr ? dberrstr : "");
    return INT_CANCEL;
}

static int msg_handler(DBPROCESS *dbproc, DBINT msgno, int msgstate, int severity, char *msgtext, char *srvname, char *procname, int line) {
    (void)dbproc; (void)msgstate; (void)srvname; (void)procname; (void)line;
    if (severity > 10) fprintf(stderr, "server message %d: %s\n", (int)msgno, msgtext ? msgtext : "");
    return 0;
}

/* One call: returns 0 on success. */
static int call(DBPROCESS *db, const char *proc, DBBIGINT key_base, DBBIGINT offset, DBINT batch) {
    if (dbrpcinit(db, (char *)proc, 0) == FAIL) return -1;
    if (dbrpcparam(db, "@key_base", 0, SYBINT8, -1, -1, (BYTE *)&key_base) == FAIL) return -1;
    if (dbrpcparam(db, "@offset", 0, SYBINT8, -1, -1, (BYTE *)&offset) == FAIL) return -1;
    if (dbrpcparam(db, "@batch_size", 0, SYBINT4, -1, -1, (BYTE *)&batch) == FAIL) return -1;
    if (dbrpcsend(db) == FAIL) return -1;
    if (dbsqlok(db) == FAIL) return -1;
    RETCODE rc;
    while ((rc = dbresults(db)) != NO_MORE_RESULTS) {
        if (rc == FAIL) return -1;
        while (dbnextrow(db) != NO_MORE_ROWS) { }
    }
    if (dbhasretstat(db) && dbretstatus(db) != 0) return -1;
    return 0;
}

static void session(struct shared *sh, int i, char **argv, int warmup_ms) {
    const char *host = argv[1], *port = argv[2], *user = argv[3], *pw = argv[4], *dbname = argv[5], *proc = argv[6];
    char server[256];
    snprintf(server, sizeof server, "%s:%s", host, port);
    if (dbinit() == FAIL) exit(2);
    dberrhandle(err_handler);
    dbmsghandle(msg_handler);
    LOGINREC *login = dblogin();
    DBSETLUSER(login, user);
    DBSETLPWD(login, pw);
    DBSETLAPP(login, "dblib_loop");
    dbsetlversion(login, DBVERSION_74);
    DBPROCESS *db = dbopen(login, server);
    if (!db) { fprintf(stderr, "session %d: dbopen %s failed\n", i, server); exit(3); }
    if (dbuse(db, (char *)dbname) == FAIL) { fprintf(stderr, "session %d: dbuse %s failed\n", i, dbname); exit(3); }
    DBBIGINT key_base = (DBBIGINT)(i + 1) * 10000000000LL, offset = 0;
    long long warm_end = now_ns() + (long long)warmup_ms * 1000000LL;
    while (now_ns() < warm_end) {
        if (call(db, proc, key_base, offset, 1) != 0) { fprintf(stderr, "session %d: warm-up call failed\n", i); exit(4); }
        offset++;
    }
    __sync_fetch_and_add(&sh->ready, 1);
    while (!sh->go) usleep(100);
    struct slot *s = &sh->s[i];
    long long end = sh->end_ns, c0 = cpu_us();
    s->start_ns = now_ns();
    while (now_ns() < end) {
        if (call(db, proc, key_base, offset, 1) != 0) { s->errors++; break; }
        offset++;
        s->calls++;
    }
    s->end_ns = now_ns();
    s->cpu_us = cpu_us() - c0;
    dbclose(db);
    dbexit();
    exit(0);
}

int main(int argc, char **argv) {
    if (argc != 10) {
        fprintf(stderr, "usage: %s HOST PORT USER PASSWORD DATABASE PROCEDURE SESSIONS WARMUP_MS MS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[7]), warmup_ms = atoi(argv[8]), ms = atoi(argv[9]);
    if (n < 1 || n > 1024) { fprintf(stderr, "SESSIONS must be 1..1024\n"); return 2; }
    struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) { perror("mmap"); return 1; }
    memset(sh, 0, sizeof *sh);
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0) { perror("fork"); return 1; }
        if (p == 0) session(sh, i, argv, warmup_ms);
    }
    int failed = 0;
    while (sh->ready < n) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) { failed = 1; break; } /* a session exited before it was ready */
        usleep(1000);
    }
    if (failed) {
        fprintf(stderr, "a session failed to connect or warm up\n");
        while (wait(NULL) > 0) { }
        return 1;
    }
    printf("READY\n");
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof line, stdin)) return 1;
    long long go = now_ns();
    sh->end_ns = go + (long long)ms * 1000000LL;
    __sync_synchronize();
    sh->go = 1;
    int status, bad = 0;
    while (wait(&status) > 0) if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) bad = 1;
    long long calls = 0, errors = 0, cpu = 0, last = go;
    for (int i = 0; i < n; i++) {
        calls += sh->s[i].calls;
        errors += sh->s[i].errors;
        cpu += sh->s[i].cpu_us;
        if (sh->s[i].end_ns > last) last = sh->s[i].end_ns;
    }
    printf("RESULT calls=%lld errors=%lld ms=%.1f cpu_us=%lld\n", calls, errors, (last - go) / 1e6, cpu);
    return bad;
}
