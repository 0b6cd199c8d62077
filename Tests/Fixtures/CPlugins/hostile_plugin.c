/*
 * hostile_plugin.c — plugins that attack the host or the other plugins
 * through the ABI, one attack per switch, for the containment tests.
 *
 *   HOSTILE_NAME="..."        descriptor name             (default "HostilePlugin")
 *   HOSTILE_VERSION="..."     descriptor version          (default "1.0.0")
 *   HOSTILE_SYMBOL="..."      the symbol registered       (default "EVIL")
 *   HOSTILE_DISPLAY="..."     its display name            (default "Evil")
 *   HOSTILE_AMOUNT="..."      the amount fetch answers    (default "1.00")
 *   HOSTILE_ERROR="..."       answer this error instead of an amount
 *   HOSTILE_LOG="..."         log this warning from register_plugin
 *   HOSTILE_FORGE_TOKENS      while its own fetch runs, call the completion
 *                             for 1.5 s with contexts it was never given
 *                             (1 to 64, and its own token's neighbours),
 *                             answering "666.66", then answer its own
 *   HOSTILE_SHOW_TOKENS       register eight fetchers, TOK1 to TOK8, each
 *                             answering with the completion context it was
 *                             given, as a decimal amount: the tokens a plugin sees
 *   HOSTILE_BLOCK_FETCH       block the thread that calls fetch for 10 minutes
 *   HOSTILE_LATE_REGISTER     keep the services table and register a second
 *                             fetcher, LATE, from its first fetch
 *   HOSTILE_FORGE_FRAME       in a worker, write the frame given in hex in
 *                             $HOSTILE_FRAME_HEX to descriptor 4 (the
 *                             worker's pipe to the host) before registering;
 *                             from the environment, because the worker's
 *                             sandbox lets it open no file of the test's
 */
#define _POSIX_C_SOURCE 200809L
#include "patchbay_plugin.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef HOSTILE_NAME
#define HOSTILE_NAME "HostilePlugin"
#endif
#ifndef HOSTILE_VERSION
#define HOSTILE_VERSION "1.0.0"
#endif
#ifndef HOSTILE_SYMBOL
#define HOSTILE_SYMBOL "EVIL"
#endif
#ifndef HOSTILE_DISPLAY
#define HOSTILE_DISPLAY "Evil"
#endif
#ifndef HOSTILE_AMOUNT
#define HOSTILE_AMOUNT "1.00"
#endif

static const pb_host_services *kept_services;

__attribute__((unused)) static void answer(pb_fetch_completion_fn completion, void *context, const char *currency) {
#ifdef HOSTILE_ERROR
    (void)currency;
    pb_fetch_result result = {.struct_size = sizeof result, .error = HOSTILE_ERROR};
#else
    pb_fetch_result result = {.struct_size = sizeof result, .base = HOSTILE_SYMBOL, .currency = currency, .amount = HOSTILE_AMOUNT};
#endif
    completion(context, &result);
}

__attribute__((unused)) static void sleep_ms(long ms) {
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

#ifdef HOSTILE_FORGE_TOKENS
struct forgery {
    pb_fetch_completion_fn completion;
    void *own;
    char currency[8];
};

static void *forge(void *argument) {
    struct forgery *job = argument;
    pb_fetch_result forged = {.struct_size = sizeof forged, .base = "ETH", .currency = "USD", .amount = "666.66"};
    for (int round = 0; round < 150; round++) {
        for (uintptr_t token = 1; token <= 64; token++) job->completion((void *)token, &forged);
        uintptr_t own = (uintptr_t)job->own;
        void *neighbours[] = {(void *)(own + 1), (void *)(own - 1), (void *)(own + 2), (void *)(own ^ 1)};
        for (size_t i = 0; i < sizeof neighbours / sizeof *neighbours; i++) job->completion(neighbours[i], &forged);
        sleep_ms(10);
    }
    answer(job->completion, job->own, job->currency);
    free(job);
    return NULL;
}
#endif

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
#if defined(HOSTILE_FORGE_TOKENS)
    struct forgery *job = calloc(1, sizeof *job);
    job->completion = completion;
    job->own = completion_context;
    strncpy(job->currency, request->currency, sizeof job->currency - 1);
    pthread_t thread;
    pthread_create(&thread, NULL, forge, job);
    pthread_detach(thread);
#elif defined(HOSTILE_SHOW_TOKENS)
    char amount[24];
    snprintf(amount, sizeof amount, "%llu", (unsigned long long)(uintptr_t)completion_context);
    pb_fetch_result result = {.struct_size = sizeof result, .currency = request->currency, .amount = amount};
    completion(completion_context, &result);
#elif defined(HOSTILE_BLOCK_FETCH)
    sleep_ms(600000);
    answer(completion, completion_context, request->currency);
#elif defined(HOSTILE_LATE_REGISTER)
    pb_fetcher late = {.struct_size = sizeof late, .symbol = "LATE", .display_name = "Late", .fetch = fetch};
    kept_services->register_fetcher(kept_services->host_context, &late);
    answer(completion, completion_context, request->currency);
#else
    answer(completion, completion_context, request->currency);
#endif
}

#ifdef HOSTILE_FORGE_FRAME
static void write_forged_frame(void) {
    /* Compiled in: a worker sees none of the test's environment. */
    const char *hex = HOSTILE_FRAME_HEX;
    struct stat facts;
    // Only ever into a worker's frame pipe: in-process, descriptor 4 is the host's business.
    if (hex == NULL || fstat(4, &facts) != 0 || !S_ISFIFO(facts.st_mode)) return;
    unsigned char frame[4096];
    size_t length = 0;
    for (; hex[0] && hex[1] && length < sizeof frame; hex += 2) {
        unsigned int byte;
        if (sscanf(hex, "%2x", &byte) != 1) return;
        frame[length++] = (unsigned char)byte;
    }
    if (length > 0) (void)!write(4, frame, length);
}
#endif

static pb_status register_plugin(const pb_host_services *services) {
    kept_services = services;
#ifdef HOSTILE_FORGE_FRAME
    write_forged_frame();
#endif
#ifdef HOSTILE_LOG
    services->log(services->host_context, PB_LOG_WARNING, HOSTILE_LOG);
#endif
#ifdef HOSTILE_SHOW_TOKENS
    static const char *const symbols[] = {"TOK1", "TOK2", "TOK3", "TOK4", "TOK5", "TOK6", "TOK7", "TOK8"};
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        pb_fetcher fetcher = {.struct_size = sizeof fetcher, .symbol = symbols[i], .display_name = symbols[i], .fetch = fetch};
        (void)services->register_fetcher(services->host_context, &fetcher);
    }
#else
    pb_fetcher fetcher = {.struct_size = sizeof fetcher, .symbol = HOSTILE_SYMBOL, .display_name = HOSTILE_DISPLAY, .fetch = fetch};
    (void)services->register_fetcher(services->host_context, &fetcher);
#endif
    return PB_OK;
}

static const pb_plugin_descriptor descriptor = {
    .magic = PB_PLUGIN_MAGIC,
    .abi_version = PB_PLUGIN_ABI_VERSION,
    .struct_size = sizeof descriptor,
    .name = HOSTILE_NAME,
    .version = HOSTILE_VERSION,
    .register_plugin = register_plugin,
};

const pb_plugin_descriptor *patchbay_plugin_entry(void) { return &descriptor; }
