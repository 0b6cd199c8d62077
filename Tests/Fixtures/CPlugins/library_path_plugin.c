/*
 * A plugin that needs a library of its own (library_path_dependency.c),
 * linked without a run path, so the dynamic linker finds it only through
 * LD_LIBRARY_PATH. Its one symbol, LIBPATH, fails with the library's
 * greeting: a test reads from `host fetch` that the library loaded.
 */
#include "fixture_probe.h"

#include <stddef.h>

const char *library_path_dependency_greeting(void);

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
    (void)request;
    pb_fetch_result result = {.struct_size = sizeof result, .error = library_path_dependency_greeting()};
    completion(completion_context, &result);
}

static pb_status register_plugin(const pb_host_services *services) {
    pb_fetcher fetcher = {.struct_size = sizeof fetcher, .symbol = "LIBPATH", .display_name = "Library path", .fetch = fetch};
    return services->register_fetcher(services->host_context, &fetcher) == PB_OK ? PB_OK : PB_ERR_PLUGIN_FAILED;
}

FIXTURE_PLUGIN("LibraryPathPlugin")
