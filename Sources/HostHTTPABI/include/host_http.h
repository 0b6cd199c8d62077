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
 * 3: a GET is a `host_http_request`, which names its proxy and its extra
 *    trust roots; a response says what kind of failure it is and carries
 *    `Retry-After`.
 */
#define HOST_HTTP_ABI_VERSION 3u

/** Returns the `HOST_HTTP_ABI_VERSION` the library was built with. */
typedef uint32_t (*host_http_abi_version_fn)(void);

/**
 * What kind of failure a response with `error` reports, so that the host can
 * word its advice and decide whether to ask again. The values never change
 * meaning; new ones may be added, and the host treats an unknown one as
 * `HOST_HTTP_FAILURE_OTHER`.
 */
enum {
    /** Not a failure: the response has a status. */
    HOST_HTTP_FAILURE_NONE = 0,
    /** Anything not listed below. */
    HOST_HTTP_FAILURE_OTHER = 1,
    /** The request's deadline passed. */
    HOST_HTTP_FAILURE_TIMEOUT = 2,
    /** The connection was reset or closed mid-request: asking again may work. */
    HOST_HTTP_FAILURE_CONNECTION_RESET = 3,
    /** The server's certificate chains to no trusted root. */
    HOST_HTTP_FAILURE_CERTIFICATE_UNTRUSTED = 4,
    /** The server's certificate has expired. */
    HOST_HTTP_FAILURE_CERTIFICATE_EXPIRED = 5,
    /** The server's certificate is not valid yet. */
    HOST_HTTP_FAILURE_CERTIFICATE_NOT_YET_VALID = 6,
    /** The server's certificate is for another name. */
    HOST_HTTP_FAILURE_CERTIFICATE_WRONG_NAME = 7,
    /** A CA file or directory in the request could not be read. */
    HOST_HTTP_FAILURE_TRUST_ROOTS = 8,
    /** The proxy refused or failed the tunnel. */
    HOST_HTTP_FAILURE_PROXY = 9,
    /** The server could not be reached: its name did not resolve, or no connection could be made. */
    HOST_HTTP_FAILURE_UNREACHABLE = 10,
};

/**
 * One GET, as the host asks for it. It and everything it points to belong to
 * the host and need live only until `host_http_get` returns: the library
 * copies what it keeps.
 */
typedef struct host_http_request {
    /** sizeof(host_http_request) as the host was built; fields past it are absent. */
    uint32_t struct_size;
    /** The deadline for the whole request, body included. */
    uint32_t timeout_ms;
    /** NUL-terminated absolute http or https URL. */
    const char *url;
    /** A larger body fails the request. */
    uint64_t max_body_bytes;
    /**
     * NUL-terminated host name or IP address of an HTTP proxy to tunnel
     * through with CONNECT, for http and https alike; NULL to connect
     * directly. The library resolves the proxy's name, never the URL's.
     */
    const char *proxy_host;
    /** The proxy's TCP port; ignored without `proxy_host`. */
    uint16_t proxy_port;
    /** Whether the system's trust roots are trusted; 0 trusts only `ca_paths`. */
    uint8_t trust_system_roots;
    /** NUL-terminated user name for the proxy's Basic authentication, decoded; NULL for none. */
    const char *proxy_username;
    /** NUL-terminated password for the proxy, decoded; NULL with no user name. */
    const char *proxy_password;
    /**
     * `ca_path_count` NUL-terminated paths of extra trust roots: a PEM file
     * of CA certificates, or a directory whose PEM files are read (files
     * that hold no certificate are skipped). NULL when the count is 0.
     */
    const char *const *ca_paths;
    /** The number of entries in `ca_paths`. */
    size_t ca_path_count;
} host_http_request;

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
    /**
     * NUL-terminated one-line reason no response arrived, naming no flag of
     * the host's (the host adds its own advice); NULL on a response.
     */
    const char *error;
    /** A `HOST_HTTP_FAILURE_*` value: `HOST_HTTP_FAILURE_NONE` on a response. */
    int32_t failure_kind;
    /**
     * For a 429 or a 5xx status, the NUL-terminated `Retry-After` header as
     * the server sent it (seconds or an HTTP date); NULL otherwise or when absent.
     */
    const char *retry_after;
} host_http_response;

/** Receives the outcome of a GET, with the `request_context` given to it. */
typedef void (*host_http_completion_fn)(void *request_context, const host_http_response *response);

/**
 * Starts the GET `request` describes and returns at once.
 *
 * A redirect is never followed: it is answered like any other response,
 * with its `location`. The host decides, hop by hop, whether its URL policy
 * allows the next URL, and asks again.
 *
 * `completion` is called exactly once, on an arbitrary thread, possibly
 * before this function returns, with `request_context` untouched.
 *
 * The library keeps one client per distinct proxy and set of trust roots, for
 * the life of the process, so connections are reused between requests that
 * agree on both.
 *
 * @param request The URL, deadline, proxy and trust roots; copied before return.
 * @param completion Receives the response or the reason none arrived.
 * @param request_context Passed back to `completion`.
 */
typedef void (*host_http_get_fn)(const host_http_request *request, host_http_completion_fn completion,
                                 void *request_context);

#ifdef __cplusplus
}
#endif

#endif /* HOST_HTTP_H */
