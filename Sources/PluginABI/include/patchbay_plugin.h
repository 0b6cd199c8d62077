/*
 * patchbay_plugin.h — the one contract between the `host` executable and a
 * price-fetcher plugin.
 *
 * Only C crosses this boundary: plain structs, C strings, function pointers
 * and opaque context pointers. No Swift (or C++) type ever does, which is what
 * makes a separately built plugin safe to load and lets a plugin be written in
 * any language with a C FFI.
 *
 * Life of a plugin:
 *   1. The host `dlopen`s the shared library (RTLD_NOW | RTLD_LOCAL |
 *      RTLD_NODELETE) and never unloads it.
 *   2. It looks up `PB_PLUGIN_ENTRY_SYMBOL` and calls it to get the plugin's
 *      descriptor.
 *   3. It checks `magic`, `abi_version` and `struct_size` before touching
 *      anything else, and refuses the plugin on any mismatch.
 *   4. It calls `register_plugin` once with the host services table. The
 *      plugin registers its fetchers through `register_fetcher` before
 *      returning.
 *   5. Later, from any thread, the host calls a fetcher's `fetch` and the
 *      plugin answers exactly once through the completion callback.
 *
 * Versioning: every struct begins with a `struct_size` field that the writer
 * fills with `sizeof` of the struct it was compiled against. A reader only
 * touches fields that lie inside that size, so fields can be appended in a
 * later minor revision without breaking plugins or hosts built against an
 * older header. An incompatible change bumps `PB_PLUGIN_ABI_VERSION`.
 *
 * Threads: every callback in this file may be called from any thread. The
 * host's service functions are thread-safe; a plugin's `fetch` must be too.
 * No function here blocks waiting for another: asynchronous work completes
 * through callbacks.
 *
 * Shared rules: what both sides must agree on beyond the layout (the symbol
 * rule, how a duration becomes `timeout_ms`, how a `pb_http_response` is
 * built and read, the entry point's name) is written once, here, as
 * `static inline` functions and macros. The host, the Swift SDK and C
 * plugins compile these same lines, so the two sides cannot drift apart.
 * Why a header and not a small library: every plugin already compiles this
 * header, whatever its toolchain, so the rules reach it with nothing more to
 * link; and `static` keeps each side's copy private to its own binary, so
 * no plugin exports one that another could bind to. Nothing here crosses
 * the boundary at run time: each side runs its own copy. The helpers came
 * in a minor revision, without touching any struct's layout.
 */
#ifndef PATCHBAY_PLUGIN_H
#define PATCHBAY_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Old sources keep compiling. A positional initialiser written against an
 * earlier revision, such as `pb_fetcher f = {sizeof f, "ETH", "Ethereum",
 * NULL, fetch};`, leaves the fields appended since zero, and zero is each
 * appended field's default; but compilers warn about it
 * (-Wmissing-field-initializers, in -Wextra), which broke the -Werror
 * builds of plugins made by an earlier `host new-plugin`. So this header
 * turns that one warning off for the rest of the file that includes it.
 * To keep it, define PB_KEEP_MISSING_FIELD_INITIALIZERS before including
 * the header, and initialise by field name (`PB_FETCHER_INIT` and the
 * others below), as new code should anyway.
 */
#if !defined(PB_KEEP_MISSING_FIELD_INITIALIZERS) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

/** 'PBAY' in ASCII. Identifies a Patchbay plugin descriptor. */
#define PB_PLUGIN_MAGIC 0x50424159u

/** The ABI revision this header describes. Host and plugin must agree. */
#define PB_PLUGIN_ABI_VERSION 1u

/**
 * The symbol every plugin exports; its type is `pb_plugin_entry_fn`. The host
 * looks it up by this name; a C plugin exports it with `PB_PLUGIN_ENTRY`.
 */
#define PB_PLUGIN_ENTRY_SYMBOL "patchbay_plugin_entry"

/** Status codes returned across the boundary. */
typedef enum pb_status {
    PB_OK = 0,
    /**
     * This plugin already registered the symbol; its first fetcher stays.
     * Another plugin's fetcher for the symbol is no obstacle: several
     * plugins may provide one symbol, and the host asks them by rank.
     */
    PB_ERR_DUPLICATE = 1,
    /**
     * An argument was NULL, empty, too small (`struct_size`) or malformed,
     * e.g. a fetcher symbol that is not 1 to 16 characters from A-Z and 0-9.
     */
    PB_ERR_INVALID_ARGUMENT = 2,
    /** Registration was attempted outside `register_plugin`. */
    PB_ERR_TOO_LATE = 3,
    /** The plugin could not set itself up; see the message it logged. */
    PB_ERR_PLUGIN_FAILED = 4
} pb_status;

/** Severity of a message passed to `pb_host_services.log`. */
typedef enum pb_log_level {
    PB_LOG_DEBUG = 0,
    PB_LOG_INFO = 1,
    PB_LOG_WARNING = 2,
    PB_LOG_ERROR = 3
} pb_log_level;

/* ------------------------------------------------------------------------ */
/* HTTP, performed by the host                                              */
/* ------------------------------------------------------------------------ */

/**
 * The outcome of `pb_host_services.http_get`.
 *
 * Ownership: the host owns the struct and everything it points to. All of it
 * is valid only for the duration of the completion call; copy what you keep.
 */
typedef struct pb_http_response {
    /** `sizeof(pb_http_response)` as the host compiled it. */
    uint32_t struct_size;
    /** The HTTP status code, or 0 when no response arrived (see `error`). */
    int32_t status;
    /** The response body, `body_length` bytes, not NUL-terminated. May be NULL when empty. */
    const uint8_t *body;
    /** Number of bytes at `body`. */
    size_t body_length;
    /**
     * NUL-terminated description of a transport failure (connection refused,
     * timed out, missing fixture file), or NULL when a response arrived.
     */
    const char *error;
} pb_http_response;

/**
 * Receives the result of an HTTP GET. Called exactly once per request, on an
 * arbitrary thread, possibly before `http_get` returns.
 *
 * @param request_context The pointer the plugin passed to `http_get`, untouched.
 * @param response Host-owned; valid only during this call.
 */
typedef void (*pb_http_completion_fn)(void *request_context,
                                      const pb_http_response *response);

/**
 * A response that arrived, as the host hands it to a `pb_http_completion_fn`:
 * `struct_size` filled in, no `error`.
 *
 * @param status The HTTP status code; positive.
 * @param body Borrowed, `body_length` bytes; NULL only when `body_length` is 0.
 * @param body_length Number of bytes at `body`.
 * @return The response, pointing at `body`: valid as long as `body` is.
 */
static inline pb_http_response pb_http_response_arrived(int32_t status, const uint8_t *body, size_t body_length) {
    pb_http_response response = {sizeof(pb_http_response), status, body, body_length, NULL};
    return response;
}

/**
 * The answer when no response arrived: status 0, no body, and why.
 *
 * @param error Borrowed, NUL-terminated, one line; never NULL.
 * @return The response, pointing at `error`: valid as long as `error` is.
 */
static inline pb_http_response pb_http_response_failed(const char *error) {
    pb_http_response response = {sizeof(pb_http_response), 0, NULL, 0, error};
    return response;
}

/** What a `pb_http_response` holds, as `pb_http_response_outcome` reads it. */
typedef enum pb_http_outcome {
    /** A response arrived: `status` is positive, and `body` holds `body_length` bytes (NULL only when empty). */
    PB_HTTP_ARRIVED = 0,
    /** No response arrived: `error` says why. */
    PB_HTTP_FAILED = 1,
    /** The response pointer is NULL. */
    PB_HTTP_MISSING = 2,
    /** `struct_size` is smaller than this header's `pb_http_response`: read no other field. */
    PB_HTTP_TRUNCATED = 3,
    /** Neither an `error` nor a positive `status`. */
    PB_HTTP_NO_STATUS = 4,
    /** `body_length` is positive but `body` is NULL. */
    PB_HTTP_NO_BODY = 5
} pb_http_outcome;

/**
 * Checks a response before a plugin reads it: only `PB_HTTP_ARRIVED` and
 * `PB_HTTP_FAILED` leave fields worth reading (`status` and `body`, or
 * `error`); the others are a broken host, to report rather than read.
 *
 * @param response As the completion received it; may be NULL.
 * @return What the response holds.
 */
static inline pb_http_outcome pb_http_response_outcome(const pb_http_response *response) {
    if (response == NULL) return PB_HTTP_MISSING;
    if (response->struct_size < sizeof(pb_http_response)) return PB_HTTP_TRUNCATED;
    if (response->error != NULL) return PB_HTTP_FAILED;
    if (response->status <= 0) return PB_HTTP_NO_STATUS;
    if (response->body_length > 0 && response->body == NULL) return PB_HTTP_NO_BODY;
    return PB_HTTP_ARRIVED;
}

/* ------------------------------------------------------------------------ */
/* Fetchers, provided by the plugin                                         */
/* ------------------------------------------------------------------------ */

/**
 * What the host asks a fetcher for.
 *
 * Ownership: host-owned; valid only during the `fetch` call. Copy `currency`
 * if the fetch outlives the call (it almost always does).
 */
typedef struct pb_fetch_request {
    /** `sizeof(pb_fetch_request)` as the host compiled it. */
    uint32_t struct_size;
    /** ISO 4217 code of the quote currency, e.g. "USD". Never NULL. */
    const char *currency;
    /**
     * How long the host will wait, in milliseconds; 0 means no limit. The
     * host rounds up (`pb_milliseconds_from_duration`), so a limit is never 0.
     */
    uint32_t timeout_ms;
} pb_fetch_request;

/**
 * A duration as a `timeout_ms` (of `pb_fetch_request` or `http_get`), the one
 * conversion both sides use: whole milliseconds, rounded up, so a positive
 * duration however short gives at least 1 and never 0, which both fields
 * read as something else (no limit; the host's default). 0.0004 s and
 * 0.001 s give 1; 1.5 ms gives 2. Saturates at UINT32_MAX (about 49.7 days).
 *
 * @param seconds Whole seconds of the duration.
 * @param attoseconds The rest, in 10^-18 s, with the sign of `seconds`
 *        (as Swift's `Duration.components` gives them; from a `timespec`,
 *        pass `tv_nsec * 1000000000`).
 * @return The milliseconds; 0 for a zero or negative duration.
 */
static inline uint32_t pb_milliseconds_from_duration(int64_t seconds, int64_t attoseconds) {
    if (seconds < 0 || attoseconds < 0 || (seconds == 0 && attoseconds == 0)) return 0;
    if ((uint64_t)seconds > UINT32_MAX / 1000u) return UINT32_MAX;
    /* At most 1000 from the attoseconds (they are below 10^18), so no overflow. */
    uint64_t milliseconds = (uint64_t)seconds * 1000u + ((uint64_t)attoseconds + 999999999999999u) / 1000000000000000u;
    return milliseconds > UINT32_MAX ? UINT32_MAX : (uint32_t)milliseconds;
}

/**
 * A fetcher's answer: either a price or an error message.
 *
 * Ownership: plugin-owned; valid only during the completion call. The host
 * copies every string before the call returns.
 *
 * Every rule the host applies to an answer, in this order (the host's
 * `PluginOutputRules`, the same in-process and in a worker). An answer that
 * breaks one shows no price: the symbol fails with a line naming the
 * plugin and the rule, and `fetch` asks the next source.
 *  1. `result` is not NULL and `struct_size` is at least
 *     `sizeof(pb_fetch_result)`.
 *  2. Every string is valid UTF-8: `base` and `currency` at most
 *     `PB_SYMBOL_MAX_LENGTH` bytes, `amount` at most
 *     `PB_AMOUNT_MAX_DIGITS` + 2, `error` at most 512.
 *  3. A non-NULL `error` is a failure, whatever the other fields say.
 *  4. Otherwise `amount` is set, not empty, and a plain decimal (below).
 *  5. `base`, when set, equals the symbol asked, which is the `symbol` the
 *     fetcher registered, byte for byte: a fetcher registered for "XBT"
 *     may not answer "BTC", nor "xbt". NULL means the symbol asked.
 *  6. `currency`, when set, equals the currency asked, byte for byte; NULL
 *     means the currency asked.
 */
typedef struct pb_fetch_result {
    /** `sizeof(pb_fetch_result)` as the plugin compiled it. */
    uint32_t struct_size;
    /**
     * On success, the base asset, e.g. "BTC": the symbol asked, or NULL for
     * it. NULL on failure.
     */
    const char *base;
    /**
     * On success, the quote currency, e.g. "USD": the currency asked, or
     * NULL for it. NULL on failure.
     */
    const char *currency;
    /**
     * On success, the decimal amount exactly as the API sent it, e.g.
     * "15840.01". Never converted through a binary floating-point type.
     * It must be a plain decimal: an optional '-', digits, and optionally
     * '.' followed by digits (`-?[0-9]+(\.[0-9]+)?`), with at most
     * `PB_AMOUNT_MAX_DIGITS` digits on both sides of the point together.
     * No exponent, no '+', no spaces or thousands separators. The host
     * refuses any other amount, naming the plugin, and shows no price.
     */
    const char *amount;
    /** On failure, a one-line message for the user; NULL on success. */
    const char *error;
} pb_fetch_result;

/**
 * A `pb_fetch_result` initialiser by field name, as `PB_FETCHER_INIT`:
 *
 *     pb_fetch_result result = PB_FETCH_RESULT_INIT(.error = "Could not fetch SOL: out of memory");
 */
#define PB_FETCH_RESULT_INIT(...) {.struct_size = sizeof(pb_fetch_result), __VA_ARGS__}

/**
 * Delivers a fetch result to the host. The plugin must call it exactly once
 * per `fetch`, from any thread, possibly before `fetch` returns.
 *
 * The host tolerates a plugin that calls late, twice or never: a late or
 * second call is ignored (and logged), and a missing call ends in a timeout.
 *
 * @param completion_context The value the host passed to `fetch`. It is an
 *        opaque token, not necessarily a pointer; pass it back untouched.
 * @param result Plugin-owned; only read during this call.
 */
typedef void (*pb_fetch_completion_fn)(void *completion_context,
                                       const pb_fetch_result *result);

/**
 * Starts fetching one price. Must not block: start the work and return.
 *
 * @param fetcher_context The `context` from the registered `pb_fetcher`.
 * @param request Host-owned; valid only during this call.
 * @param completion Called exactly once with the outcome.
 * @param completion_context Passed back to `completion` untouched.
 */
typedef void (*pb_fetch_fn)(void *fetcher_context,
                            const pb_fetch_request *request,
                            pb_fetch_completion_fn completion,
                            void *completion_context);

/**
 * How strongly a fetcher asks to be the one `host fetch` asks first, the
 * way GStreamer ranks its plugin features. When several plugins provide a
 * symbol, the host asks them highest rank first, and in search order among
 * equal ranks; the next is asked only when the one before fails. The user
 * overrides any plugin's rank (`HOST_RANKS=PLUGIN:RANK,...`). These name
 * the usual steps; any `uint32_t` is a rank, e.g. `PB_RANK_PRIMARY + 1`.
 */
typedef enum pb_rank {
    /** Never asked unless the user names the plugin (`host fetch --source`). */
    PB_RANK_NONE = 0,
    /** Asked after every better source. */
    PB_RANK_MARGINAL = 64,
    /** The rank of a fetcher that declares none, and of a plugin built before ranks. */
    PB_RANK_SECONDARY = 128,
    /** The source to ask first. */
    PB_RANK_PRIMARY = 256
} pb_rank;

/**
 * One price fetcher, registered through `pb_host_services.register_fetcher`.
 *
 * The fields up to `fetch` are required, and `struct_size` must cover them
 * (`PB_FETCHER_MIN_SIZE`). `rank` and `has_rank` were appended in a minor
 * revision: the host reads them only when `struct_size` covers both, so a
 * plugin built against the earlier, smaller struct still registers, with
 * `PB_RANK_SECONDARY` (`pb_fetcher_rank`). Initialise it by field name,
 * with `PB_FETCHER_INIT`, so that fields appended later stay zero.
 *
 * Ownership: the host copies `symbol` and `display_name` during the
 * registration call, so the struct and its strings may be temporary.
 * `context` is plugin-owned and must stay valid for the life of the process,
 * because plugins are never unloaded.
 */
typedef struct pb_fetcher {
    /** `sizeof(pb_fetcher)` as the plugin compiled it. */
    uint32_t struct_size;
    /**
     * Ticker the fetcher answers for, e.g. "ETH": 1 to 16 characters from
     * A-Z and 0-9 (`pb_symbol_is_valid`). Other plugins may provide the
     * same symbol; `rank` says which the host asks first.
     */
    const char *symbol;
    /** Human-readable name, e.g. "Ethereum". */
    const char *display_name;
    /** Opaque plugin state handed back to `fetch`. May be NULL. */
    void *context;
    /** Starts a fetch. Never NULL. */
    pb_fetch_fn fetch;

    /* Appended after the first revision: read only when `struct_size`
     * covers them. */

    /**
     * The fetcher's rank (`pb_rank`), e.g. `PB_RANK_PRIMARY`; read only when
     * `has_rank` is true. The host believes a plugin nobody vouched for up
     * to `PB_RANK_SECONDARY`; the user's `HOST_RANKS` can set any rank.
     */
    uint32_t rank;
    /**
     * Whether `rank` holds the plugin's choice. A zero-initialised
     * `pb_fetcher` leaves it false and so gets `PB_RANK_SECONDARY`, not
     * `PB_RANK_NONE`: an older plugin rebuilt against this header keeps
     * being asked. The host logs a warning when `rank` is set without it.
     */
    bool has_rank;
} pb_fetcher;

/**
 * A `pb_fetcher` initialiser by field name: `struct_size` filled in, and
 * every field not named zero, which is each appended field's default. A
 * source written with it keeps compiling, warning-free, when a later
 * revision appends fields. C99 designated initialisers (in C++20, name the
 * fields in declaration order).
 *
 *     pb_fetcher fetcher = PB_FETCHER_INIT(.symbol = "ETH", .display_name = "Ethereum", .fetch = fetch,
 *                                          .rank = PB_RANK_PRIMARY, .has_rank = true);
 */
#define PB_FETCHER_INIT(...) {.struct_size = sizeof(pb_fetcher), __VA_ARGS__}

/**
 * The smallest `struct_size` a host accepts: the fetcher of the first
 * revision, which ends at `fetch`.
 */
#define PB_FETCHER_MIN_SIZE (offsetof(pb_fetcher, fetch) + sizeof(pb_fetch_fn))

/**
 * The rank a fetcher declares, read as the host reads it: `rank` when
 * `struct_size` covers `rank` and `has_rank` and `has_rank` is true, else
 * `PB_RANK_SECONDARY`.
 *
 * @param fetcher Its `struct_size` at least `PB_FETCHER_MIN_SIZE`; never NULL.
 * @return The declared rank, before the host's cap and the user's overrides.
 */
static inline uint32_t pb_fetcher_rank(const pb_fetcher *fetcher) {
    if (fetcher->struct_size < offsetof(pb_fetcher, has_rank) + sizeof(bool) || !fetcher->has_rank) return PB_RANK_SECONDARY;
    return fetcher->rank;
}

/** The longest `pb_fetcher.symbol`, in bytes. */
#define PB_SYMBOL_MAX_LENGTH 16

/** The most digits `pb_fetch_result.amount` may have, both sides of the point together. */
#define PB_AMOUNT_MAX_DIGITS 40

/**
 * The symbol rule: 1 to `PB_SYMBOL_MAX_LENGTH` characters from A-Z and 0-9.
 * The host refuses a fetcher whose symbol breaks it with
 * `PB_ERR_INVALID_ARGUMENT`, and the SDK never registers one.
 *
 * @param symbol `length` bytes, NUL-terminated or not; may be NULL when `length` is 0.
 * @param length Number of bytes at `symbol`, e.g. `strlen(symbol)`.
 * @return Whether the symbol is valid.
 */
static inline bool pb_symbol_is_valid(const char *symbol, size_t length) {
    if (symbol == NULL || length == 0 || length > PB_SYMBOL_MAX_LENGTH) return false;
    for (size_t index = 0; index < length; index++) {
        char character = symbol[index];
        if (!((character >= 'A' && character <= 'Z') || (character >= '0' && character <= '9'))) return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Host services, provided by the host                                      */
/* ------------------------------------------------------------------------ */

/**
 * The table of services the host offers a plugin.
 *
 * Ownership: host-owned. The table and `host_context` stay valid for the
 * life of the process, so a plugin may keep the pointer it receives in
 * `register_plugin` and use it from any thread later.
 */
typedef struct pb_host_services {
    /** `sizeof(pb_host_services)` as the host compiled it. */
    uint32_t struct_size;
    /** The host's `PB_PLUGIN_ABI_VERSION`. */
    uint32_t abi_version;
    /** Opaque host state; pass it as the first argument of every service. */
    void *host_context;

    /**
     * Registers a fetcher. Only valid during `register_plugin`.
     *
     * @return PB_OK; PB_ERR_DUPLICATE when this plugin already registered
     *         the symbol (its first fetcher stays); PB_ERR_INVALID_ARGUMENT for a
     *         NULL, empty or undersized fetcher, a NULL `fetch`, or a symbol
     *         or display name that breaks its rule (the host logs which);
     *         PB_ERR_TOO_LATE after `register_plugin` has returned.
     */
    pb_status (*register_fetcher)(void *host_context, const pb_fetcher *fetcher);

    /**
     * Writes one line to the host's log, attributed to the plugin.
     * `message` is plugin-owned and only read during the call.
     */
    void (*log)(void *host_context, pb_log_level level, const char *message);

    /**
     * Reads a configuration value. The host sets "api_base_url" (the API the
     * plugin talks to, without a trailing slash) and "host_abi_version".
     *
     * @param key Plugin-owned; only read during the call.
     * @return A host-owned NUL-terminated string that lives as long as the
     *         process, or NULL when the key is not set. Do not free it.
     */
    const char *(*config_value)(void *host_context, const char *key);

    /**
     * Performs an HTTP GET with the host's networking and calls `completion`
     * exactly once, even when the request times out, so the plugin may free
     * `request_context` in the completion. Never blocks. Supports http://, https:// and file:// URLs;
     * for file:// the host reads the named file (or the same path with
     * ".json" appended; a trailing "/" is dropped first) and answers with
     * status 200, or 404 when neither exists.
     *
     * @param url Plugin-owned; only read during the call.
     * @param timeout_ms Upper bound for the whole request; 0 uses the host's
     *        default (unlike `pb_fetch_request.timeout_ms`, where 0 means no limit).
     *        `pb_milliseconds_from_duration` gives it from a duration.
     * @param completion Receives the response; see `pb_http_completion_fn`.
     * @param request_context Passed back to `completion` untouched.
     */
    void (*http_get)(void *host_context, const char *url, uint32_t timeout_ms,
                     pb_http_completion_fn completion, void *request_context);
} pb_host_services;

/* ------------------------------------------------------------------------ */
/* The plugin's descriptor and entry point                                  */
/* ------------------------------------------------------------------------ */

/**
 * Called once by the host, right after the descriptor passed its checks.
 * Register every fetcher through `services->register_fetcher` before
 * returning.
 *
 * @param services Host-owned; valid for the life of the process.
 * @return PB_OK; PB_ERR_INVALID_ARGUMENT when the services table is unusable
 *         (NULL, too small, another ABI); PB_ERR_PLUGIN_FAILED after logging
 *         why. The host treats any status but PB_OK as a failed plugin and
 *         drops every fetcher it registered.
 */
typedef pb_status (*pb_register_plugin_fn)(const pb_host_services *services);

/**
 * Describes a plugin. The host checks `magic`, `abi_version` and
 * `struct_size` before reading any other field.
 *
 * The fields up to `register_plugin` are required, and `struct_size` must
 * cover them (`PB_PLUGIN_DESCRIPTOR_MIN_SIZE`). The text fields after it were
 * appended in a minor revision: each is optional (NULL when unset), and the
 * host reads one only when `struct_size` covers it, so a plugin built
 * against the earlier, smaller descriptor still loads. Every string is
 * UTF-8; the host refuses the plugin when one is longer than its limit.
 * `host inspect` and `host list-plugins` show them.
 *
 * Ownership: plugin-owned, and must live for the life of the process
 * (static storage is the natural choice), strings included.
 */
typedef struct pb_plugin_descriptor {
    /** Always `PB_PLUGIN_MAGIC`. */
    uint32_t magic;
    /** The `PB_PLUGIN_ABI_VERSION` the plugin was built against. */
    uint32_t abi_version;
    /** `sizeof(pb_plugin_descriptor)` as the plugin compiled it. */
    uint32_t struct_size;
    /** The plugin's name, e.g. "EthereumPlugin". */
    const char *name;
    /** The plugin's own version, e.g. "1.0.0". */
    const char *version;
    /** Registers the plugin's fetchers. Never NULL. */
    pb_register_plugin_fn register_plugin;

    /* Optional, appended after the first revision: read only when
     * `struct_size` covers them. */

    /** One sentence on what the plugin fetches; at most 512 bytes. May be NULL. */
    const char *description;
    /** Who wrote it, e.g. "Jane Doe <jane@example.com>"; at most 128 bytes. May be NULL. */
    const char *author;
    /** Its licence, as an SPDX identifier such as "MIT"; at most 128 bytes. May be NULL. */
    const char *license;
    /** Where to read about it, e.g. "https://example.com/doge"; at most 128 bytes. May be NULL. */
    const char *homepage;
    /**
     * The API the plugin talks to unless the user says otherwise, e.g.
     * "https://www.bitstamp.net": an http, https or file URL with no query
     * and no trailing slash; at most 512 bytes. May be NULL: the plugin then
     * gets the host's default, https://api.coinbase.com. Whatever the base,
     * the plugin reads it as `config_value("api_base_url")`, and the host
     * fetches for it only under it and the user's grants. Declaring a base
     * grants nothing by itself; the host fetches under it for a plugin only
     * when one of these grants it:
     * - the user names it for the plugin, `--api-base-url PLUGIN=URL` (or a
     *   bare `--api-base-url URL` for every plugin), on each command;
     * - the user granted it to the plugin's file, `host allow FILE` (or
     *   `--url URL`), which keeps the plugin in its sandboxed worker and
     *   holds while the file's SHA-256 is the one allowed;
     * - someone vouched for the plugin: it is bundled with the host, or the
     *   user trusted it (`host trust`) or named it in `--allowlist`, which
     *   also runs it in-process.
     * A `plugins.lock` beside the plugin only pins its digest: it grants no
     * base. For any other plugin the host refuses, naming the grants.
     */
    const char *api_base_url;
} pb_plugin_descriptor;

/**
 * The smallest `struct_size` a host accepts: the descriptor of the first
 * revision, which ends at `register_plugin`.
 */
#define PB_PLUGIN_DESCRIPTOR_MIN_SIZE (offsetof(pb_plugin_descriptor, register_plugin) + sizeof(pb_register_plugin_fn))

/**
 * A `pb_plugin_descriptor` initialiser by field name, as `PB_FETCHER_INIT`,
 * with `magic`, `abi_version` and `struct_size` filled in:
 *
 *     static const pb_plugin_descriptor descriptor = PB_PLUGIN_DESCRIPTOR_INIT(
 *         .name = "SolanaCPlugin", .version = "1.0.0", .register_plugin = register_plugin);
 */
#define PB_PLUGIN_DESCRIPTOR_INIT(...) \
    {.magic = PB_PLUGIN_MAGIC, .abi_version = PB_PLUGIN_ABI_VERSION, .struct_size = sizeof(pb_plugin_descriptor), __VA_ARGS__}

/**
 * The type of the exported `PB_PLUGIN_ENTRY_SYMBOL` function. It must be
 * cheap, side-effect free and callable more than once, and return a pointer
 * to a descriptor with static lifetime.
 */
typedef const pb_plugin_descriptor *(*pb_plugin_entry_fn)(void);

/** NB: Mach-O prefixes C names with an underscore; ELF does not. */
#if defined(__APPLE__)
#define PB_PLUGIN_SYMBOL_PREFIX "_"
#else
#define PB_PLUGIN_SYMBOL_PREFIX ""
#endif

/**
 * Defines a C plugin's entry point: the function is exported under
 * `PB_PLUGIN_ENTRY_SYMBOL` whatever it is called, so the name the host looks
 * up is written only in this header. GCC and Clang (it uses an asm label).
 *
 *     PB_PLUGIN_ENTRY(coinbase_plugin_entry) { return &descriptor; }
 *
 * @param function The C name of the function, private to the plugin's source.
 */
#define PB_PLUGIN_ENTRY(function)                                                   \
    __attribute__((visibility("default"))) const pb_plugin_descriptor *function(void) \
        __asm__(PB_PLUGIN_SYMBOL_PREFIX PB_PLUGIN_ENTRY_SYMBOL);                    \
    const pb_plugin_descriptor *function(void)

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_PLUGIN_H */
