/*
 * A Patchbay plugin written in plain C, against patchbay_plugin.h alone.
 *
 * Built with defaults it is a working plugin: "DOGE" via the host's
 * http_get, reading the Coinbase spot-price shape. The tests compile it again
 * with -D switches to make each kind of broken plugin the host must survive:
 *
 *   FIXTURE_NAME="..."          descriptor name           (default "CDogecoinPlugin")
 *   FIXTURE_SYMBOL="..."        the symbol registered     (default "DOGE")
 *   FIXTURE_SYMBOL_COUNT=n      register n symbols S000, S001, … instead, each
 *                               fetched over HTTP as FIXTURE_SYMBOL is
 *   FIXTURE_ABI_VERSION=n       descriptor abi_version    (default PB_PLUGIN_ABI_VERSION)
 *   FIXTURE_MAGIC=n             descriptor magic          (default PB_PLUGIN_MAGIC)
 *   FIXTURE_NO_ENTRY            do not export patchbay_plugin_entry
 *   FIXTURE_REGISTER_FAILS      log an error and return PB_ERR_PLUGIN_FAILED
 *
 * A plugin among several sources of one symbol:
 *
 *   FIXTURE_RANK=n              declare rank n (has_rank true); default: none declared
 *   FIXTURE_LOG_WHILE_REGISTERING="text"  log text at warning level in register_plugin
 *   FIXTURE_OLD_FETCHER         register a pb_fetcher of the first revision's size,
 *                               with PB_RANK_PRIMARY in memory after it, unread
 *   FIXTURE_API_BASE="..."      declare this API base in the descriptor
 *   FIXTURE_FETCH_BASE="..."    fetch under this base, not config_value("api_base_url")
 *   FIXTURE_AMOUNT="..."        answer this amount at once, without HTTP
 *   FIXTURE_ANSWER_AFTER_MS=n   with FIXTURE_AMOUNT: answer from another thread, n ms later
 *   FIXTURE_FAILS="..."         answer this error message at once, without HTTP
 *
 * Plugins that misbehave in ways only --isolate survives:
 *
 *   FIXTURE_SEGV_IN_REGISTER    write through NULL inside register_plugin
 *   FIXTURE_HANG_IN_REGISTER    never return from register_plugin
 *   FIXTURE_ALLOCATE_MIB=n      allocate and touch n MiB in register_plugin, and hold them
 *   FIXTURE_ALLOCATE_UNTOUCHED  with FIXTURE_ALLOCATE_MIB: reserve the address space
 *                               only, without touching it (no resident pages, so
 *                               no time under memory pressure)
 *   FIXTURE_ABORT_IN_FETCH      abort() inside fetch
 *   FIXTURE_EXIT_IN_FETCH       exit(3) inside fetch
 *   FIXTURE_HANG_IN_FETCH       never return from fetch (blocks its thread)
 *
 * Plugins whose completion callback misbehaves, which the host must survive
 * in-process too (they answer without HTTP, with a fixed amount):
 *
 *   FIXTURE_NEVER_CALLS_BACK    return from fetch and never call completion
 *   FIXTURE_CALLS_BACK_TWICE    call completion with "1.00", then again with "666.00"
 *   FIXTURE_CALLS_BACK_LATE     call completion from another thread, 5 s
 *                               after the host's timeout_ms has passed, then
 *                               log "answered late" at debug level
 *   FIXTURE_SPAWNS_CHILD        start a background `sleep 20` with system(),
 *                               which inherits every descriptor not marked
 *                               close-on-exec, then answer "3.00"
 *
 * A plugin that is slow to load, for the registry cache's lazy loading:
 *
 *   FIXTURE_SLOW_CONSTRUCTOR=n  a constructor that appends "loaded" to the file
 *                               $FIXTURE_MARKER (when set, and writable: not in a
 *                               sandboxed worker), then sleeps n seconds
 *
 * None of these is built by `swift build`, so a normal run never sees them.
 */
#include "patchbay_plugin.h"
#include "fixture_json.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef FIXTURE_NAME
#define FIXTURE_NAME "CDogecoinPlugin"
#endif
#ifndef FIXTURE_SYMBOL
#define FIXTURE_SYMBOL "DOGE"
#endif
#ifndef FIXTURE_ABI_VERSION
#define FIXTURE_ABI_VERSION PB_PLUGIN_ABI_VERSION
#endif
#ifndef FIXTURE_MAGIC
#define FIXTURE_MAGIC PB_PLUGIN_MAGIC
#endif

/* The host's table; valid for the life of the process once registered. */
static const pb_host_services *host;

/* One fetch in flight: what the HTTP completion needs to answer the host. */
typedef struct fetch_call {
    const char *symbol;
    pb_fetch_completion_fn completion;
    void *completion_context;
    char currency[16];
} fetch_call;

static void finish(fetch_call *call, const char *amount, const char *error) {
    pb_fetch_result result = {
        .struct_size = sizeof(pb_fetch_result),
        .base = error ? NULL : call->symbol,
        .currency = error ? NULL : call->currency,
        .amount = amount,
        .error = error,
    };
    call->completion(call->completion_context, &result);
    free(call);
}

static void on_response(void *request_context, const pb_http_response *response) {
    fetch_call *call = request_context;
    /* The host refuses an error message over 512 bytes. */
    char message[512];
    char amount[64];
    if (response->error) {
        snprintf(message, sizeof message, "request failed: %s", response->error);
        finish(call, NULL, message);
    } else if (response->status != 200) {
        snprintf(message, sizeof message, "HTTP %d", (int)response->status);
        finish(call, NULL, message);
    } else if (!extract_amount(response->body, response->body_length, amount, sizeof amount)) {
        finish(call, NULL, "the response could not be decoded: no data.amount");
    } else {
        finish(call, amount, NULL);
    }
}

#ifdef FIXTURE_CALLS_BACK_LATE
typedef struct late_call {
    pb_fetch_completion_fn completion;
    void *completion_context;
    uint32_t delay_ms;
} late_call;

static void *answer_late(void *argument) {
    late_call *late = argument;
    struct timespec pause = {.tv_sec = late->delay_ms / 1000, .tv_nsec = (long)(late->delay_ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0) {}
    pb_fetch_result result = {.struct_size = sizeof result, .base = FIXTURE_SYMBOL, .currency = "USD", .amount = "2.00"};
    late->completion(late->completion_context, &result);
    /* At debug level, so only a test that asks sees it: the host has now
     * handled the late answer (ignored it, if the fetch had ended). */
    host->log(host->host_context, PB_LOG_DEBUG, "answered late");
    free(late);
    return NULL;
}
#endif

#if defined(FIXTURE_AMOUNT) && defined(FIXTURE_ANSWER_AFTER_MS)
typedef struct slow_call {
    pb_fetch_completion_fn completion;
    void *completion_context;
    char currency[16];
} slow_call;

static void *answer_slowly(void *argument) {
    slow_call *slow = argument;
    struct timespec pause = {.tv_sec = FIXTURE_ANSWER_AFTER_MS / 1000, .tv_nsec = (long)(FIXTURE_ANSWER_AFTER_MS % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0) {}
    pb_fetch_result result = {.struct_size = sizeof result, .base = FIXTURE_SYMBOL, .currency = slow->currency, .amount = FIXTURE_AMOUNT};
    slow->completion(slow->completion_context, &result);
    free(slow);
    return NULL;
}
#endif

static void fetch(void *context, const pb_fetch_request *request,
                  pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
#if defined(FIXTURE_AMOUNT) && defined(FIXTURE_ANSWER_AFTER_MS)
    slow_call *slow = calloc(1, sizeof *slow);
    pthread_t answerer;
    if (!slow) abort();
    slow->completion = completion;
    slow->completion_context = completion_context;
    snprintf(slow->currency, sizeof slow->currency, "%s", request->currency);
    if (pthread_create(&answerer, NULL, answer_slowly, slow) != 0) abort();
    pthread_detach(answerer);
    return;
#elif defined(FIXTURE_AMOUNT)
    pb_fetch_result fixed = {.struct_size = sizeof fixed, .base = FIXTURE_SYMBOL, .currency = request->currency, .amount = FIXTURE_AMOUNT};
    completion(completion_context, &fixed);
    return;
#elif defined(FIXTURE_FAILS)
    (void)request;
    pb_fetch_result failed = {.struct_size = sizeof failed, .error = FIXTURE_FAILS};
    completion(completion_context, &failed);
    return;
#endif
#if defined(FIXTURE_ABORT_IN_FETCH)
    abort();
#elif defined(FIXTURE_EXIT_IN_FETCH)
    exit(3);
#elif defined(FIXTURE_HANG_IN_FETCH)
    (void)request, (void)completion, (void)completion_context;
    for (;;) pause();
#elif defined(FIXTURE_NEVER_CALLS_BACK)
    (void)request, (void)completion, (void)completion_context;
    return;
#elif defined(FIXTURE_CALLS_BACK_TWICE)
    pb_fetch_result first = {.struct_size = sizeof first, .base = FIXTURE_SYMBOL, .currency = request->currency, .amount = "1.00"};
    completion(completion_context, &first);
    pb_fetch_result second = {.struct_size = sizeof second, .base = FIXTURE_SYMBOL, .currency = request->currency, .amount = "666.00"};
    completion(completion_context, &second);
    return;
#elif defined(FIXTURE_SPAWNS_CHILD)
    /* Its own stdio goes nowhere, so only descriptors it inherits matter. */
    if (system("sleep 20 </dev/null >/dev/null 2>&1 &") != 0) abort();
    pb_fetch_result spawned = {.struct_size = sizeof spawned, .base = FIXTURE_SYMBOL, .currency = request->currency, .amount = "3.00"};
    completion(completion_context, &spawned);
    return;
#elif defined(FIXTURE_CALLS_BACK_LATE)
    late_call *late = malloc(sizeof *late);
    pthread_t thread;
    if (!late) abort();
    late->completion = completion;
    late->completion_context = completion_context;
    /* Late by far more than a loaded test machine holds back the host's
     * timer (1 s was not: the in-process test saw the answer win 4 rounds
     * of 4 at load 45). */
    late->delay_ms = request->timeout_ms + 5000;
    if (pthread_create(&thread, NULL, answer_late, late) != 0) abort();
    pthread_detach(thread);
    return;
#endif
    fetch_call *call = calloc(1, sizeof *call);
    if (!call) {
        pb_fetch_result result = {.struct_size = sizeof result, .error = "out of memory"};
        completion(completion_context, &result);
        return;
    }
    /* A fetcher's context is its symbol when the plugin registers several. */
    call->symbol = context ? context : FIXTURE_SYMBOL;
    call->completion = completion;
    call->completion_context = completion_context;
    snprintf(call->currency, sizeof call->currency, "%s", request->currency);

#ifdef FIXTURE_FETCH_BASE
    const char *base = FIXTURE_FETCH_BASE;
#else
    const char *base = host->config_value(host->host_context, "api_base_url");
#endif
    char url[1024];
    snprintf(url, sizeof url, "%s/v2/prices/%s-%s/spot", base ? base : "", call->symbol, call->currency);
    host->http_get(host->host_context, url, request->timeout_ms, on_response, call);
}

#ifdef FIXTURE_SLOW_CONSTRUCTOR
#include <fcntl.h>
__attribute__((constructor)) static void slow_constructor(void) {
    const char *marker = getenv("FIXTURE_MARKER");
    if (marker) {
        int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            (void)!write(fd, "loaded\n", 7);
            close(fd);
        }
    }
    sleep(FIXTURE_SLOW_CONSTRUCTOR);
}
#endif

#ifdef FIXTURE_ALLOCATE_MIB
/* Held until the worker ends, so that its pages count for as long as it runs. */
static volatile char *held;
#endif

static pb_status register_plugin(const pb_host_services *services) {
    host = services;
#ifdef FIXTURE_ALLOCATE_MIB
    {
        size_t size = (size_t)FIXTURE_ALLOCATE_MIB << 20;
        char *bytes = malloc(size);
        if (!bytes) {
            services->log(services->host_context, PB_LOG_ERROR, "cannot allocate the fixture's memory");
            return PB_ERR_PLUGIN_FAILED;
        }
#ifndef FIXTURE_ALLOCATE_UNTOUCHED
        /* Touched, page by page: resident, not only reserved. */
        memset(bytes, 1, size);
#endif
        held = bytes;
    }
#endif
#if defined(FIXTURE_SEGV_IN_REGISTER)
    *(volatile int *)(uintptr_t)0 = 1;
#elif defined(FIXTURE_HANG_IN_REGISTER)
    for (;;) pause();
#endif
#ifdef FIXTURE_LOG_WHILE_REGISTERING
    services->log(services->host_context, PB_LOG_WARNING, FIXTURE_LOG_WHILE_REGISTERING);
#endif
#ifdef FIXTURE_REGISTER_FAILS
    (void)fetch;
    services->log(services->host_context, PB_LOG_ERROR, "cannot start: the fixture is built to fail registration");
    return PB_ERR_PLUGIN_FAILED;
#else
    pb_fetcher fetcher = {
        .struct_size = sizeof fetcher,
        .symbol = FIXTURE_SYMBOL,
        .display_name = "Dogecoin (C)",
        .context = NULL,
        .fetch = fetch,
#ifdef FIXTURE_RANK
        .rank = FIXTURE_RANK,
        .has_rank = true,
#endif
    };
#ifdef FIXTURE_SYMBOL_COUNT
    static char symbols[FIXTURE_SYMBOL_COUNT][8];
    for (int index = 0; index < FIXTURE_SYMBOL_COUNT; index++) {
        snprintf(symbols[index], sizeof symbols[index], "S%03d", index);
        fetcher.symbol = symbols[index];
        fetcher.context = symbols[index];
        if (services->register_fetcher(services->host_context, &fetcher) != PB_OK) return PB_ERR_PLUGIN_FAILED;
    }
    return PB_OK;
#endif
#ifdef FIXTURE_OLD_FETCHER
    /* What a plugin built before ranks passes: its struct ends at `fetch`. */
    fetcher.struct_size = offsetof(pb_fetcher, rank);
    fetcher.rank = PB_RANK_PRIMARY;
    fetcher.has_rank = true;
#endif
    pb_status status = services->register_fetcher(services->host_context, &fetcher);
    if (status == PB_ERR_DUPLICATE) {
        services->log(services->host_context, PB_LOG_WARNING, FIXTURE_SYMBOL " is already registered by another plugin");
    }
    return PB_OK;
#endif
}

static const pb_plugin_descriptor descriptor = {
    .magic = FIXTURE_MAGIC,
    .abi_version = FIXTURE_ABI_VERSION,
    .struct_size = sizeof(pb_plugin_descriptor),
    .name = FIXTURE_NAME,
    .version = "0.1.0",
    .register_plugin = register_plugin,
#ifdef FIXTURE_API_BASE
    .api_base_url = FIXTURE_API_BASE,
#endif
};

#ifndef FIXTURE_NO_ENTRY
const pb_plugin_descriptor *patchbay_plugin_entry(void) {
    return &descriptor;
}
#else
/* Exports something, so the file is a valid library that just isn't a plugin. */
const pb_plugin_descriptor *not_the_entry_point(void) {
    return &descriptor;
}
#endif
