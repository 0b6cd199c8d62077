// Stands in for a libHostHTTP.so, so that the host's checks of its HTTP
// client can be tested:
//   OTHER_VERSION=N   reports HTTP ABI version N, as a library built against
//                     another host_http.h would; it must never be called.
//   NEVER_ANSWERS     reports this host's version and takes every request,
//                     but never calls its completion: the host's own
//                     deadline must answer for it.
#include "host_http.h"
#include <stdlib.h>

#ifdef NEVER_ANSWERS
uint32_t host_http_abi_version(void) { return HOST_HTTP_ABI_VERSION; }

void host_http_get(const host_http_request *request, host_http_completion_fn completion, void *request_context) {
    (void)request; (void)completion; (void)request_context;
}
#else
uint32_t host_http_abi_version(void) { return OTHER_VERSION; }

void host_http_get(const host_http_request *request, host_http_completion_fn completion, void *request_context) {
    (void)request; (void)completion; (void)request_context;
    abort();
}
#endif
