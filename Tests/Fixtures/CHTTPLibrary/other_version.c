// Stands in for a libHostHTTP.so built against another host_http.h, so that
// the host's version check can be tested. It must never be called.
#include "host_http.h"
#include <stdlib.h>

uint32_t host_http_abi_version(void) { return OTHER_VERSION; }

void host_http_get(const host_http_request *request, host_http_completion_fn completion, void *request_context) {
    (void)request; (void)completion; (void)request_context;
    abort();
}
