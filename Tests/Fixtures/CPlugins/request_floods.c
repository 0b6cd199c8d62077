/*
 * Plugins that ask too much of their worker or their host, one flood per
 * build. Each registers one symbol, floods inside `fetch`, and reports what
 * it got as the fetch's error, so a test reads the exact outcome:
 *
 *   FLOOD_THREADS    start 3,000 threads with 64 KiB stacks, all alive
 *                    at once, then let them end                    THREADS
 *   FLOOD_HTTP       20,000 http_get calls under the API base, waiting
 *                    for every answer                             HTTP
 *   FLOOD_HTTP_FRAMES 20,000 times the frame FLOOD_FRAME_HEX (an httpGet
 *                    the test encoded) written straight to the host
 *                    (fd 4), past the worker's own services: only
 *                    the host's count can stop these               FRAMES
 *   FLOOD_LOG        20,000 log lines of 2 KiB                    LOG
 *   FLOOD_OUTPUT     20,000 lines on stderr                       OUTPUT
 *   FLOOD_LONG_URL   one http_get of a 1 MiB URL under the API base URL
 *
 * Not built by `swift build`; the tests compile it.
 */
#define _GNU_SOURCE
#include "fixture_probe.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(FLOOD_THREADS)
#define FLOOD_SYMBOL "THREADS"
#elif defined(FLOOD_HTTP)
#define FLOOD_SYMBOL "HTTP"
#elif defined(FLOOD_HTTP_FRAMES)
#define FLOOD_SYMBOL "FRAMES"
#elif defined(FLOOD_LOG)
#define FLOOD_SYMBOL "LOG"
#elif defined(FLOOD_OUTPUT)
#define FLOOD_SYMBOL "OUTPUT"
#elif defined(FLOOD_LONG_URL)
#define FLOOD_SYMBOL "URL"
#else
#error "build with one FLOOD_* switch"
#endif

#define FLOOD_COUNT 20000

/* The host's table; valid for the life of the process once registered. */
static const pb_host_services *host;

#if defined(FLOOD_HTTP) || defined(FLOOD_LONG_URL)
/* "<base>/v2/prices/<symbol>-USD/spot", the URL every request asks for. */
static void price_url(char *url, size_t capacity) {
    const char *base = host->config_value(host->host_context, "api_base_url");
    snprintf(url, capacity, "%s/v2/prices/%s-USD/spot", base ? base : "", FLOOD_SYMBOL);
}
#endif

#if defined(FLOOD_THREADS)
static pthread_mutex_t parking = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;
static int release;

/* Waits until the flood is counted: every thread alive at once. */
static void *parked(void *argument) {
    (void)argument;
    pthread_mutex_lock(&parking);
    while (!release) pthread_cond_wait(&released, &parking);
    pthread_mutex_unlock(&parking);
    return NULL;
}

static void flood(char *message, size_t capacity) {
    static pthread_t threads[3000];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 << 10);
    int started = 0, error = 0;
    for (; started < 3000; started++) {
        if ((error = pthread_create(&threads[started], &attributes, parked, NULL)) != 0) break;
    }
    /* Let them go, so the worker has threads again to answer with. */
    pthread_mutex_lock(&parking);
    release = 1;
    pthread_cond_broadcast(&released);
    pthread_mutex_unlock(&parking);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    snprintf(message, capacity, "pthread_create: %d of 3000 started, then %s", started, error ? strerror(error) : "none refused");
}
#elif defined(FLOOD_HTTP) || defined(FLOOD_LONG_URL)
/* Counts answers from whatever threads the host calls back on. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_answered = PTHREAD_COND_INITIALIZER;
static int answered, succeeded;
static char first_error[2048];

static void on_response(void *request_context, const pb_http_response *response) {
    (void)request_context;
    pthread_mutex_lock(&lock);
    if (response->error) {
        if (!first_error[0]) snprintf(first_error, sizeof first_error, "%s", response->error);
    } else {
        succeeded++;
    }
    answered++;
    pthread_cond_signal(&all_answered);
    pthread_mutex_unlock(&lock);
}

/* Asks `count` times for `url`, then waits for every answer, 60 s at most. */
static void ask(const char *url, int count) {
    for (int i = 0; i < count; i++) host->http_get(host->host_context, url, 5000, on_response, NULL);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&lock);
    while (answered < count) {
        if (pthread_cond_timedwait(&all_answered, &lock, &deadline) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&lock);
}

static void flood(char *message, size_t capacity) {
#if defined(FLOOD_HTTP)
    char url[1024];
    price_url(url, sizeof url);
    ask(url, FLOOD_COUNT);
    pthread_mutex_lock(&lock);
    snprintf(message, capacity, "http_get: %d asked, %d answered, %d succeeded; the first error: %s", FLOOD_COUNT, answered, succeeded, first_error);
    pthread_mutex_unlock(&lock);
#else
    size_t length = 1 << 20;
    char *url = malloc(length + 1);
    if (!url) {
        snprintf(message, capacity, "out of memory");
        return;
    }
    price_url(url, 1024);
    size_t used = strlen(url);
    memset(url + used, 'a', length - used);
    url[length] = '\0';
    ask(url, 1);
    free(url);
    pthread_mutex_lock(&lock);
    snprintf(message, capacity, "%s", first_error[0] ? first_error : "the 1 MiB URL was fetched");
    pthread_mutex_unlock(&lock);
#endif
}
#elif defined(FLOOD_HTTP_FRAMES)
static void flood(char *message, size_t capacity) {
    struct stat facts;
    /* Only into a worker's frame pipe: in-process, descriptor 4 is the host's business. */
    if (fstat(4, &facts) != 0 || !S_ISFIFO(facts.st_mode)) {
        snprintf(message, capacity, "not in a worker");
        return;
    }
    static unsigned char frame[4096];
    size_t length = 0;
    for (const char *hex = FLOOD_FRAME_HEX; hex[0] && hex[1] && length < sizeof frame; hex += 2) {
        unsigned int byte;
        if (sscanf(hex, "%2x", &byte) != 1) break;
        frame[length++] = (unsigned char)byte;
    }
    /* The worker's pipe is non-blocking: wait for room rather than give up. */
    int written = 0;
    for (size_t done = 0; written < FLOOD_COUNT;) {
        ssize_t result = write(4, frame + done, length - done);
        if (result < 0 && errno == EAGAIN) {
            struct pollfd room = {.fd = 4, .events = POLLOUT};
            poll(&room, 1, 1000);
            continue;
        }
        if (result <= 0) break;
        done += (size_t)result;
        if (done == length) {
            done = 0;
            written++;
        }
    }
    snprintf(message, capacity, "wrote %d httpGet frames", written);
}
#elif defined(FLOOD_LOG)
static void flood(char *message, size_t capacity) {
    static char line[2048];
    for (int i = 0; i < FLOOD_COUNT; i++) {
        int used = snprintf(line, sizeof line, "line %d ", i);
        memset(line + used, 'x', sizeof line - (size_t)used - 1);
        line[sizeof line - 1] = '\0';
        host->log(host->host_context, PB_LOG_WARNING, line);
    }
    snprintf(message, capacity, "logged %d lines", FLOOD_COUNT);
}
#elif defined(FLOOD_OUTPUT)
static void flood(char *message, size_t capacity) {
    for (int i = 0; i < FLOOD_COUNT; i++) dprintf(2, "output line %d\n", i);
    snprintf(message, capacity, "wrote %d lines", FLOOD_COUNT);
}
#endif

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
    (void)request;
    char message[4096];
    flood(message, sizeof message);
    pb_fetch_result result = {.struct_size = sizeof result, .error = message};
    completion(completion_context, &result);
}

static pb_status register_plugin(const pb_host_services *services) {
    host = services;
    pb_fetcher fetcher = {
        .struct_size = sizeof fetcher,
        .symbol = FLOOD_SYMBOL,
        .display_name = "Flood " FLOOD_SYMBOL,
        .fetch = fetch,
    };
    return services->register_fetcher(services->host_context, &fetcher) == PB_OK ? PB_OK : PB_ERR_PLUGIN_FAILED;
}

FIXTURE_PLUGIN("Flood" FLOOD_SYMBOL)
