// For `node scripts/web/bench.mjs --cpu`: loaded before the native engine
// (LD_PRELOAD), it makes CLOCK_MONOTONIC read the process's CPU time, so the
// engine's own nodes per second count CPU seconds, as the WebAssembly side's
// do there. On a machine shared with other work the wall clock counts waits.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id == CLOCK_MONOTONIC ? CLOCK_PROCESS_CPUTIME_ID : id, ts);
}
