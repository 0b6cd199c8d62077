/*
 * host_http.h: the C contract between the `host` executable and
 * libHostHTTP.so, the library that holds its HTTP client.
 *
 * Why a separate library: AsyncHTTPClient brings SwiftNIO's HTTP/1, HTTP/2,
 * TLS and compression with it, which at start-up cost every command about a
 * millisecond and a half of relocations and protocol-conformance scans. Most
 * commands never touch the network, so the host loads this library with
 * dlopen on its first http(s) request instead of linking it.
 *
 * As between host and plugins, only C crosses: both sides are Swift, but
 * each has its own copy of any Swift module they share, so no Swift type may
 * pass from one to the other.
 */
#ifndef HOST_HTTP_H
#define HOST_HTTP_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Bumped on any incompatible change to this header.
 *
 * 2: the library answers with `host_http_response`, which carries a
 *    redirect's location, and never follows a redirect itself.
 */
#define HOST_HTTP_ABI_VERSION 2u

/** Returns the `HOST_HTTP_ABI_VERSION` the library was built with. */
typedef uint32_t (*host_http_abi_version_fn)(void);

/**
 * What came of one GET: a response, whatever its status, or the reason none
 * arrived. It and everything it points to belong to the library and are
 * valid only during the completion call.
 */
typedef struct host_http_response {
    /** sizeof(host_http_response) as the library was built; fields past it are absent. */
    uint32_t struct_size;
    /** The HTTP status; 0 when `error` is set. */
    int32_t status;
    /** The body, `body_length` bytes, not NUL-terminated; NULL when empty. */
    const uint8_t *body;
    /** The body's length in bytes. */
    size_t body_length;
    /**
     * For a 3xx status, the NUL-terminated `Location` header exactly as the
     * server sent it (possibly relative); NULL otherwise or when absent.
     */
    const char *location;
    /** NUL-terminated one-line reason no response arrived; NULL on a response. */
    const char *error;
} host_http_response;

/** Receives the outcome of a GET, with the `request_context` given to it. */
typedef void (*host_http_completion_fn)(void *request_context, const host_http_response *response);

/**
 * Starts a GET of `url` and returns at once.
 *
 * A redirect is never followed: it is answered like any other response,
 * with its `location`. The host decides, hop by hop, whether its URL policy
 * allows the next URL, and asks again.
 *
 * `completion` is called exactly once, on an arbitrary thread, possibly
 * before this function returns, with `request_context` untouched.
 *
 * @param url NUL-terminated absolute http or https URL; copied before return.
 * @param timeout_ms Deadline for the whole request, body included.
 * @param max_body_bytes A larger body fails the request.
 * @param completion Receives the response or the reason none arrived.
 * @param request_context Passed back to `completion`.
 */
typedef void (*host_http_get_fn)(const char *url, uint32_t timeout_ms, uint64_t max_body_bytes,
                                 host_http_completion_fn completion, void *request_context);

#ifdef __cplusplus
}
#endif

#endif /* HOST_HTTP_H */
