/*
 * fixture_probe.h: what the probe and attack fixtures share, written once
 * for all of them (each compiles its own copy; nothing is linked):
 *
 *   FIXTURE_PLUGIN(NAME)         the descriptor, named NAME, and the entry
 *                                point; the file defines register_plugin first
 *   fixture_register_each(...)   one fetcher per symbol, each the fetcher's
 *                                context and display name
 *   fixture_outcome(...)         "<call>: <strerror(errno)>" when it failed,
 *                                else "<call>: succeeded"
 *   fixture_await_answer(host)   one http_get made and its answer awaited:
 *                                the worker's pipe to the host then works
 */
#ifndef FIXTURE_PROBE_H
#define FIXTURE_PROBE_H

#include "patchbay_plugin.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* "<call>: <strerror(errno)>" when `failed`, else "<call>: succeeded". */
static inline void fixture_outcome(char *message, size_t capacity, const char *call, int failed) {
    snprintf(message, capacity, "%s: %s", call, failed ? strerror(errno) : "succeeded");
}

/* Registers `fetch` once per symbol, the symbol its context and display name. */
static inline pb_status fixture_register_each(const pb_host_services *services, const char *const *symbols, size_t count, pb_fetch_fn fetch) {
    for (size_t i = 0; i < count; i++) {
        pb_fetcher fetcher = {
            .struct_size = sizeof fetcher,
            .symbol = symbols[i],
            .display_name = symbols[i],
            .context = (void *)symbols[i],
            .fetch = fetch,
        };
        if (services->register_fetcher(services->host_context, &fetcher) != PB_OK) return PB_ERR_PLUGIN_FAILED;
    }
    return PB_OK;
}

/* The one answer fixture_await_answer waits for. */
static pthread_mutex_t fixture_awaited __attribute__((unused)) = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fixture_answer __attribute__((unused)) = PTHREAD_COND_INITIALIZER;
static int fixture_answered __attribute__((unused));

/* Any answer will do: it only has to come back over the host's pipe. */
static inline void fixture_on_answer(void *context, const pb_http_response *response) {
    (void)context;
    (void)response;
    pthread_mutex_lock(&fixture_awaited);
    fixture_answered = 1;
    pthread_cond_signal(&fixture_answer);
    pthread_mutex_unlock(&fixture_awaited);
}

/* Asks `host` for file:/// and waits for its answer, whatever it is. */
static inline void fixture_await_answer(const pb_host_services *host) {
    pthread_mutex_lock(&fixture_awaited);
    host->http_get(host->host_context, "file:///", 1000, fixture_on_answer, NULL);
    while (!fixture_answered) pthread_cond_wait(&fixture_answer, &fixture_awaited);
    pthread_mutex_unlock(&fixture_awaited);
}

/* The plugin's descriptor, named NAME (a string literal), and its entry point. */
#define FIXTURE_PLUGIN(NAME)                                  \
    static const pb_plugin_descriptor descriptor = {          \
        .magic = PB_PLUGIN_MAGIC,                             \
        .abi_version = PB_PLUGIN_ABI_VERSION,                 \
        .struct_size = sizeof(pb_plugin_descriptor),          \
        .name = NAME,                                         \
        .version = "0.1.0",                                   \
        .register_plugin = register_plugin,                   \
    };                                                        \
    const pb_plugin_descriptor *patchbay_plugin_entry(void) { \
        return &descriptor;                                   \
    }

#endif /* FIXTURE_PROBE_H */
