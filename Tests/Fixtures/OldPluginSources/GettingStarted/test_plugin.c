#include "patchbay_plugin.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pb_host_services *host;   /* valid for the life of the process */
static char base_url[512];

typedef struct pending { pb_fetch_completion_fn completion; void *context; char currency[17]; } pending;

/* Copies the string value of the first "key" in the body; the bodies read
 * here have each key once. Returns 0 when found. */
static int find_string(const uint8_t *body, size_t length, const char *key, char *out, size_t size) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    size_t n = strlen(pattern);
    for (size_t i = 0; i + n <= length; i++) {
        if (memcmp(body + i, pattern, n) != 0) continue;
        size_t start = i + n, end = start;
        while (end < length && body[end] != '"') end++;
        if (end == length || end - start >= size) return -1;
        memcpy(out, body + start, end - start);
        out[end - start] = '\0';
        return 0;
    }
    return -1;
}

static void on_response(void *request_context, const pb_http_response *response) {
    pending *p = request_context;
    char amount[64], message[256], id[64], error[512];
    pb_fetch_result result = { sizeof(pb_fetch_result), NULL, NULL, NULL, NULL };
    pb_http_outcome outcome = pb_http_response_outcome(response);   /* checked before any field is read */
    if (outcome == PB_HTTP_FAILED) {             /* no response: refused, timed out, blocked */
        snprintf(error, sizeof error, "Could not reach the API: %s", response->error);
        result.error = error;
    } else if (outcome != PB_HTTP_ARRIVED) {     /* a broken host: NULL, too small, no status */
        result.error = "Could not reach the API: the host sent an unreadable response";
    } else if (response->status != 200) {        /* {"errors":[{"id":…,"message":…}]} */
        if (find_string(response->body, response->body_length, "message", message, sizeof message) == 0
            && find_string(response->body, response->body_length, "id", id, sizeof id) == 0) {
            snprintf(error, sizeof error, "Coinbase answered HTTP %d for TEST-%s: %s (%s)",
                     (int)response->status, p->currency, message, id);
        } else {
            snprintf(error, sizeof error, "Coinbase answered HTTP %d for TEST-%s", (int)response->status, p->currency);
        }
        result.error = error;
    } else if (find_string(response->body, response->body_length, "amount", amount, sizeof amount) != 0) {
        result.error = "Could not decode the Coinbase response: the key \"data.amount\" is missing";
    } else {                                     /* the decimal text exactly as sent */
        result.base = "TEST";
        result.currency = p->currency;
        result.amount = amount;
    }
    p->completion(p->context, &result);          /* exactly once; strings only need to live during this call */
    free(p);
}

static void fetch(void *fetcher_context, const pb_fetch_request *request,
                  pb_fetch_completion_fn completion, void *completion_context) {
    (void)fetcher_context;
    pending *p = malloc(sizeof *p);
    if (p == NULL) {
        pb_fetch_result result = { sizeof(pb_fetch_result), NULL, NULL, NULL, "Could not fetch TEST: out of memory" };
        completion(completion_context, &result);
        return;
    }
    p->completion = completion;
    p->context = completion_context;
    snprintf(p->currency, sizeof p->currency, "%s", request->currency);   /* the request dies with this call */
    char url[600];
    snprintf(url, sizeof url, "%s/v2/prices/TEST-%s/spot", base_url, p->currency);
    host->http_get(host->host_context, url, request->timeout_ms, on_response, p);
}

static pb_status register_plugin(const pb_host_services *services) {
    if (services == NULL || services->struct_size < sizeof(pb_host_services)
        || services->abi_version != PB_PLUGIN_ABI_VERSION) {
        return PB_ERR_INVALID_ARGUMENT;
    }
    host = services;
    const char *base = services->config_value(services->host_context, "api_base_url");
    if (base == NULL || strlen(base) >= sizeof base_url) {
        services->log(services->host_context, PB_LOG_ERROR, "TestPlugin needs api_base_url");
        return PB_ERR_PLUGIN_FAILED;
    }
    strcpy(base_url, base);
    pb_fetcher fetcher = { sizeof(pb_fetcher), "TEST", "Test coin", NULL, fetch };
    pb_status status = services->register_fetcher(services->host_context, &fetcher);
    if (status == PB_ERR_DUPLICATE) {
        services->log(services->host_context, PB_LOG_WARNING, "TEST is already registered; skipping it");
    } else if (status != PB_OK) {
        services->log(services->host_context, PB_LOG_ERROR, "could not register TEST");
        return PB_ERR_PLUGIN_FAILED;
    }
    return PB_OK;
}

static const pb_plugin_descriptor descriptor = {
    .magic = PB_PLUGIN_MAGIC, .abi_version = PB_PLUGIN_ABI_VERSION, .struct_size = sizeof(pb_plugin_descriptor),
    .name = "TestPlugin", .version = "1.0.0", .register_plugin = register_plugin,
    .description = "Spot prices of TEST from a Coinbase-compatible API.", .license = "MIT",
};

PB_PLUGIN_ENTRY(test_plugin_entry) { return &descriptor; }   /* exported as PB_PLUGIN_ENTRY_SYMBOL */
