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
#include "patchbay_plugin.h" /* pb_http_response, pb_http_completion_fn */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Bumped on any incompatible change to this header, including to
 * `pb_http_response`, which it borrows from the plugin ABI.
 */
#define HOST_HTTP_ABI_VERSION 1u

/** Returns the `HOST_HTTP_ABI_VERSION` the library was built with. */
typedef uint32_t (*host_http_abi_version_fn)(void);

/**
 * Starts a GET of `url` and returns at once.
 *
 * `completion` is called exactly once, on an arbitrary thread, possibly
 * before this function returns, with `request_context` untouched. The
 * response and everything it points to belong to the library and are valid
 * only during that call, as for plugins.
 *
 * @param url NUL-terminated absolute http or https URL; copied before return.
 * @param timeout_ms Deadline for the whole request, body included.
 * @param max_body_bytes A larger body fails the request.
 * @param completion Receives the response or the reason none arrived.
 * @param request_context Passed back to `completion`.
 */
typedef void (*host_http_get_fn)(const char *url, uint32_t timeout_ms, uint64_t max_body_bytes,
                                 pb_http_completion_fn completion, void *request_context);

#ifdef __cplusplus
}
#endif

#endif /* HOST_HTTP_H */
