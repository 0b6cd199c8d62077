/*
 * A plugin that asks the host's http_get for what it must not fetch, one
 * fetcher per attack. Each fetch reports what http_get answered: the
 * host's error as its own fetch error, a status other than 200 as
 * "HTTP <status>", and a spot price as a price, which would mean the host
 * fetched what it should have refused.
 *
 *   PASSWD    file:///etc/passwd
 *   DOTDOT    <api_base_url>/../outside/secret.json: `..` out of a file base
 *   SYMLINK   <api_base_url>/v2/prices/LINK-USD/spot: the test makes that a
 *             symbolic link to a file outside the base
 *   PORT      HTTP_ATTACKS_OTHER_URL, compiled in (-D: an isolated worker
 *             sees none of the test's environment): another port on
 *             127.0.0.1
 *   HOPPORT   <api_base_url>/v2/redirect-port: the test's server answers
 *             302 to another port
 *   HOPPATH   <api_base_url>/v2/redirect-path: the test's server answers
 *             302 to a path outside the base
 *
 * Not built by `swift build`; the tests compile it.
 */
#include "fixture_probe.h"
#include "fixture_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pb_host_services *host;

/* One fetch in flight. */
typedef struct attack_call {
    pb_fetch_completion_fn completion;
    void *completion_context;
    char symbol[16];
    char currency[16];
} attack_call;

static void finish(attack_call *call, const char *amount, const char *error) {
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
    attack_call *call = request_context;
    char message[1024];
    char amount[64];
    if (response->error) {
        finish(call, NULL, response->error);
    } else if (response->status != 200) {
        snprintf(message, sizeof message, "HTTP %d", (int)response->status);
        finish(call, NULL, message);
    } else if (!extract_amount(response->body, response->body_length, amount, sizeof amount)) {
        finish(call, NULL, "HTTP 200 without data.amount");
    } else {
        finish(call, amount, NULL);
    }
}

static void fetch(void *context, const pb_fetch_request *request,
                  pb_fetch_completion_fn completion, void *completion_context) {
    const char *symbol = context;
    attack_call *call = calloc(1, sizeof *call);
    if (!call) {
        pb_fetch_result result = {.struct_size = sizeof result, .error = "out of memory"};
        completion(completion_context, &result);
        return;
    }
    call->completion = completion;
    call->completion_context = completion_context;
    snprintf(call->symbol, sizeof call->symbol, "%s", symbol);
    snprintf(call->currency, sizeof call->currency, "%s", request->currency);

    const char *base = host->config_value(host->host_context, "api_base_url");
#ifdef HTTP_ATTACKS_OTHER_URL
    const char *other = HTTP_ATTACKS_OTHER_URL;
#else
    const char *other = NULL;
#endif
    char url[2048];
    if (strcmp(symbol, "PASSWD") == 0) {
        snprintf(url, sizeof url, "file:///etc/passwd");
    } else if (strcmp(symbol, "DOTDOT") == 0) {
        snprintf(url, sizeof url, "%s/../outside/secret.json", base ? base : "");
    } else if (strcmp(symbol, "SYMLINK") == 0) {
        snprintf(url, sizeof url, "%s/v2/prices/LINK-USD/spot", base ? base : "");
    } else if (strcmp(symbol, "PORT") == 0) {
        snprintf(url, sizeof url, "%s", other ? other : "HTTP_ATTACKS_OTHER_URL is not set");
    } else if (strcmp(symbol, "HOPPORT") == 0) {
        snprintf(url, sizeof url, "%s/v2/redirect-port", base ? base : "");
    } else {
        snprintf(url, sizeof url, "%s/v2/redirect-path", base ? base : "");
    }
    host->http_get(host->host_context, url, request->timeout_ms, on_response, call);
}

static pb_status register_plugin(const pb_host_services *services) {
    static const char *const symbols[] = {"PASSWD", "DOTDOT", "SYMLINK", "PORT", "HOPPORT", "HOPPATH"};
    host = services;
    return fixture_register_each(services, symbols, sizeof symbols / sizeof *symbols, fetch);
}

FIXTURE_PLUGIN("HTTPAttacksPlugin")
