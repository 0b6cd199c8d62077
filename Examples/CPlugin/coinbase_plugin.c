/*
 * A complete Patchbay plugin in C: one fetcher that asks a Coinbase-shaped
 * API for a spot price, through the host's http_get.
 *
 * What it shows:
 *   - the URL is built from config_value("api_base_url"), so
 *     `host --api-base-url file://...` serves fixtures and tests can point it
 *     at a local server;
 *   - the request goes through services->http_get: a plugin never opens a
 *     socket, and the host applies its URL policy and timeouts;
 *   - the amount is copied out of the JSON body exactly as sent ("0.1234"
 *     stays "0.1234"), never through a double;
 *   - an error body such as {"errors":[{"id":"not_found","message":"Invalid
 *     currency"}]} becomes one line: "Coinbase answered HTTP 404 for
 *     SOL-XYZ: Invalid currency (not_found)". The host's file:// 404 has
 *     the same shape.
 *
 * Build: make   (or: cc -std=c11 -shared -fPIC -I<dir of patchbay_plugin.h>
 *                      -o libSolanaCPlugin.so coinbase_plugin.c)
 * Run:   cp libSolanaCPlugin.so plugins/ && host fetch SOL --plugins-dir plugins
 */
#include "patchbay_plugin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `host new-plugin NAME --language c` rewrites these four lines. */
#define PLUGIN_NAME "SolanaCPlugin"
#define PLUGIN_VERSION "1.0.0"
#define FETCHER_SYMBOL "SOL"
#define FETCHER_DISPLAY_NAME "Solana"

/* Set once in register_plugin; both live for the life of the process. */
static const pb_host_services *host;
static char api_base_url[1024];

/* ------------------------------------------------------------------------ */
/* A tiny JSON reader: enough to find one string value by its path           */
/* ------------------------------------------------------------------------ */

/* A cursor over a body that is `end - at` bytes long and not NUL-terminated. */
typedef struct json_cursor {
    const char *at;
    const char *end;
} json_cursor;

static void json_skip_space(json_cursor *c) {
    while (c->at < c->end && (*c->at == ' ' || *c->at == '\t' || *c->at == '\n' || *c->at == '\r')) c->at++;
}

/* Skips a string, the cursor on its opening quote. Returns 0 on success. On
 * success *start and *length give the raw text between the quotes (escapes
 * left as they are; amounts and codes have none). */
static int json_string(json_cursor *c, const char **start, size_t *length) {
    if (c->at >= c->end || *c->at != '"') return -1;
    const char *begin = ++c->at;
    while (c->at < c->end && *c->at != '"') {
        if (*c->at == '\\') c->at++;
        c->at++;
    }
    if (c->at >= c->end) return -1;
    if (start) *start = begin;
    if (length) *length = (size_t)(c->at - begin);
    c->at++;
    return 0;
}

/* Skips any value. Returns 0 on success. `depth` bounds nesting, so a
 * hostile body cannot exhaust the stack. */
static int json_skip_value(json_cursor *c, int depth) {
    json_skip_space(c);
    if (c->at >= c->end || depth > 64) return -1;
    char open = *c->at;
    if (open == '"') return json_string(c, NULL, NULL);
    if (open == '{' || open == '[') {
        char close = open == '{' ? '}' : ']';
        c->at++;
        json_skip_space(c);
        if (c->at < c->end && *c->at == close) { c->at++; return 0; }
        for (;;) {
            if (open == '{') {
                json_skip_space(c);
                if (json_string(c, NULL, NULL) != 0) return -1;
                json_skip_space(c);
                if (c->at >= c->end || *c->at != ':') return -1;
                c->at++;
            }
            if (json_skip_value(c, depth + 1) != 0) return -1;
            json_skip_space(c);
            if (c->at < c->end && *c->at == ',') { c->at++; continue; }
            if (c->at < c->end && *c->at == close) { c->at++; return 0; }
            return -1;
        }
    }
    /* A number, true, false or null: up to the next delimiter. */
    const char *begin = c->at;
    while (c->at < c->end && !strchr(",}] \t\r\n", *c->at)) c->at++;
    return c->at > begin ? 0 : -1;
}

/* Finds the string at `path` (object keys, or "0", "1", ... for array
 * elements) and copies it, NUL-terminated, into `out`. Returns 0 when found
 * and it fits. */
static int json_find_string(const char *body, size_t length, const char *const *path, size_t depth,
                            char *out, size_t out_size) {
    json_cursor c = {body, body + length};
    for (size_t level = 0; level < depth; level++) {
        json_skip_space(&c);
        if (c.at >= c.end) return -1;
        int found = 0;
        if (*c.at == '{') {
            c.at++;
            for (;;) {
                const char *key;
                size_t key_length;
                json_skip_space(&c);
                if (json_string(&c, &key, &key_length) != 0) return -1;
                json_skip_space(&c);
                if (c.at >= c.end || *c.at != ':') return -1;
                c.at++;
                if (key_length == strlen(path[level]) && memcmp(key, path[level], key_length) == 0) { found = 1; break; }
                if (json_skip_value(&c, 0) != 0) return -1;
                json_skip_space(&c);
                if (c.at >= c.end || *c.at != ',') return -1;
                c.at++;
            }
        } else if (*c.at == '[') {
            char *rest;
            long index = strtol(path[level], &rest, 10);
            if (*rest != '\0' || index < 0) return -1;
            c.at++;
            for (long i = 0; i < index; i++) {
                if (json_skip_value(&c, 0) != 0) return -1;
                json_skip_space(&c);
                if (c.at >= c.end || *c.at != ',') return -1;
                c.at++;
            }
            json_skip_space(&c);
            if (c.at < c.end && *c.at == ']') return -1;
            found = 1;
        }
        if (!found) return -1;
    }
    json_skip_space(&c);
    const char *value;
    size_t value_length;
    if (json_string(&c, &value, &value_length) != 0 || value_length + 1 > out_size) return -1;
    memcpy(out, value, value_length);
    out[value_length] = '\0';
    return 0;
}

/* -?[0-9]+(\.[0-9]+)? : what the host accepts as an amount. */
static int is_plain_decimal(const char *text) {
    if (*text == '-') text++;
    if (*text < '0' || *text > '9') return 0;
    while (*text >= '0' && *text <= '9') text++;
    if (*text == '.') {
        text++;
        if (*text < '0' || *text > '9') return 0;
        while (*text >= '0' && *text <= '9') text++;
    }
    return *text == '\0';
}

/* ------------------------------------------------------------------------ */
/* The fetcher                                                               */
/* ------------------------------------------------------------------------ */

/* One fetch in flight: what the HTTP completion needs to answer the host. */
typedef struct pending_fetch {
    pb_fetch_completion_fn completion;
    void *completion_context;
    char currency[17];
    char url[1200];
} pending_fetch;

/* Answers the host with a one-line error. The host refuses messages over
 * 512 bytes, so a longer one is cut. */
__attribute__((format(printf, 2, 3)))
static void fail(pending_fetch *pending, const char *format, ...) {
    char message[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    for (char *p = message; *p; p++) if (*p == '\n' || *p == '\r') *p = ' ';
    pb_fetch_result result = PB_FETCH_RESULT_INIT(.error = message);
    pending->completion(pending->completion_context, &result);
}

/* The answer to http_get: called exactly once, on any thread. The header's
 * pb_http_response_outcome checks the response before any field is read. */
static void on_response(void *request_context, const pb_http_response *response) {
    pending_fetch *pending = request_context;
    pb_http_outcome outcome = pb_http_response_outcome(response);

    if (outcome == PB_HTTP_FAILED) {
        fail(pending, "Could not reach %s: %s", pending->url, response->error);
    } else if (outcome != PB_HTTP_ARRIVED) {
        fail(pending, "Could not reach %s: the host sent an unreadable response (pb_http_outcome %d)", pending->url, (int)outcome);
    } else if (response->status != 200) {
        /* Coinbase, and the host's file:// 404, answer
         * {"errors":[{"id":"not_found","message":"..."}]}. */
        const char *body = response->body != NULL ? (const char *)response->body : "";
        char text[256], id[64];
        static const char *const message_path[] = {"errors", "0", "message"};
        static const char *const id_path[] = {"errors", "0", "id"};
        int has_text = json_find_string(body, response->body_length, message_path, 3, text, sizeof text) == 0;
        int has_id = json_find_string(body, response->body_length, id_path, 3, id, sizeof id) == 0;
        if (has_text && has_id) {
            fail(pending, "Coinbase answered HTTP %d for %s-%s: %s (%s)", (int)response->status,
                     FETCHER_SYMBOL, pending->currency, text, id);
        } else if (has_text || has_id) {
            fail(pending, "Coinbase answered HTTP %d for %s-%s: %s", (int)response->status,
                     FETCHER_SYMBOL, pending->currency, has_text ? text : id);
        } else {
            fail(pending, "Coinbase answered HTTP %d for %s-%s", (int)response->status,
                     FETCHER_SYMBOL, pending->currency);
        }
    } else {
        const char *body = response->body != NULL ? (const char *)response->body : "";
        char amount[64];
        static const char *const amount_path[] = {"data", "amount"};
        if (json_find_string(body, response->body_length, amount_path, 2, amount, sizeof amount) != 0) {
            fail(pending, "Could not decode the Coinbase response for %s-%s: the key \"data.amount\" is missing or not a string",
                     FETCHER_SYMBOL, pending->currency);
        } else if (!is_plain_decimal(amount)) {
            fail(pending, "Could not decode the Coinbase response for %s-%s: \"%s\" is not a decimal amount",
                     FETCHER_SYMBOL, pending->currency, amount);
        } else {
            pb_fetch_result result = PB_FETCH_RESULT_INIT(.base = FETCHER_SYMBOL, .currency = pending->currency, .amount = amount);
            pending->completion(pending->completion_context, &result);
        }
    }
    free(pending);
}

/* Starts one fetch; never blocks. */
static void fetch(void *fetcher_context, const pb_fetch_request *request, pb_fetch_completion_fn completion,
                  void *completion_context) {
    (void)fetcher_context;
    pending_fetch *pending = calloc(1, sizeof *pending);
    if (pending == NULL) {
        pb_fetch_result result = PB_FETCH_RESULT_INIT(.error = "Could not fetch " FETCHER_SYMBOL ": out of memory");
        completion(completion_context, &result);
        return;
    }
    pending->completion = completion;
    pending->completion_context = completion_context;
    /* The request is only valid during this call: copy what the completion needs. */
    snprintf(pending->currency, sizeof pending->currency, "%s", request->currency);
    snprintf(pending->url, sizeof pending->url, "%s/v2/prices/%s-%s/spot", api_base_url, FETCHER_SYMBOL, pending->currency);
    host->http_get(host->host_context, pending->url, request->timeout_ms, on_response, pending);
}

/* ------------------------------------------------------------------------ */
/* Registration                                                              */
/* ------------------------------------------------------------------------ */

static pb_status register_plugin(const pb_host_services *services) {
    if (services == NULL || services->struct_size < sizeof(pb_host_services) ||
        services->abi_version != PB_PLUGIN_ABI_VERSION) {
        return PB_ERR_INVALID_ARGUMENT;
    }
    host = services;
    const char *base = services->config_value(services->host_context, "api_base_url");
    if (base == NULL || *base == '\0' || strlen(base) >= sizeof api_base_url) {
        services->log(services->host_context, PB_LOG_ERROR,
                      PLUGIN_NAME " needs api_base_url, the API root such as https://api.coinbase.com, and the host did not set it");
        return PB_ERR_PLUGIN_FAILED;
    }
    snprintf(api_base_url, sizeof api_base_url, "%s", base);

    /* By field name, so fields a later header appends stay zero, their
     * default, and this keeps compiling. rank: how early `host fetch` asks
     * this plugin when others provide the symbol too; has_rank says it is
     * set (a zeroed one means the default). */
    pb_fetcher fetcher = PB_FETCHER_INIT(
        .symbol = FETCHER_SYMBOL,
        .display_name = FETCHER_DISPLAY_NAME,
        .context = NULL,
        .fetch = fetch,
        .rank = PB_RANK_SECONDARY,
        .has_rank = true,
    );
    pb_status status = services->register_fetcher(services->host_context, &fetcher);
    if (status == PB_ERR_DUPLICATE) {
        services->log(services->host_context, PB_LOG_WARNING, FETCHER_SYMBOL " is registered twice; the first fetcher stays");
    } else if (status != PB_OK) {
        services->log(services->host_context, PB_LOG_ERROR, "the host refused the " FETCHER_SYMBOL " fetcher");
        return PB_ERR_PLUGIN_FAILED;
    }
    return PB_OK;
}

static const pb_plugin_descriptor descriptor = PB_PLUGIN_DESCRIPTOR_INIT(
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .register_plugin = register_plugin,
    .description = "Spot prices of " FETCHER_DISPLAY_NAME " from a Coinbase-compatible API.",
    .license = "MIT",
    /* .api_base_url left NULL: the host's default API, https://api.coinbase.com,
     * unless the user names another with --api-base-url. */
);

/* Exported as PB_PLUGIN_ENTRY_SYMBOL, the name the host looks up. */
PB_PLUGIN_ENTRY(coinbase_plugin_entry) {
    return &descriptor;
}
