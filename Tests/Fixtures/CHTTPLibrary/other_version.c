// Stands in for a libHostHTTP.so built against another host_http.h, so that
// the host's version check can be tested. It must never be called.
#include "host_http.h"
#include <stdlib.h>

uint32_t host_http_abi_version(void) { return OTHER_VERSION; }

void host_http_get(const char *url, uint32_t timeout_ms, uint64_t max_body_bytes,
                   host_http_completion_fn completion, void *request_context) {
    (void)url; (void)timeout_ms; (void)max_body_bytes; (void)completion; (void)request_context;
    abort();
}
