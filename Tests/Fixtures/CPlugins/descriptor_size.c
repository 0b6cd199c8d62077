/*
 * A plugin whose descriptor declares a struct_size other than
 * sizeof(pb_plugin_descriptor), as one built against another revision of
 * patchbay_plugin.h would. It answers every fetch with "4.00" in the
 * requested currency, without HTTP, so a run needs no network.
 *
 *   (no switch)                 struct_size = sizeof(pb_plugin_descriptor)
 *   FIXTURE_STRUCT_SIZE=n       struct_size = n, e.g. the offset of
 *                               register_plugin: an older, smaller descriptor
 *                               the host must refuse
 *   FIXTURE_FUTURE_DESCRIPTOR   the descriptor is the prefix of a larger
 *                               struct with fields a later minor revision
 *                               might append, and struct_size is that
 *                               struct's size: the host must still load it
 *   FIXTURE_FIRST_REVISION      the descriptor is the first revision's, which
 *                               ends at register_plugin, and struct_size is its
 *                               size; the memory after it holds pointers no
 *                               host may follow, where this header has the
 *                               optional text fields: the host must load it
 *                               and read none of them
 *   FIXTURE_METADATA            sets the optional description, author,
 *                               license and homepage
 *   FIXTURE_DESCRIPTION="..."   sets only the description
 *   FIXTURE_NAME="..."          descriptor name  (default "DescriptorSizePlugin")
 *   FIXTURE_SYMBOL="..."        the symbol       (default "SIZE")
 *
 * Either way the whole pb_plugin_descriptor is there in memory: only the
 * size it declares differs, so a host that skipped the check would load
 * the smaller one without a crash, and a test would notice.
 */
#include "patchbay_plugin.h"

#ifndef FIXTURE_NAME
#define FIXTURE_NAME "DescriptorSizePlugin"
#endif
#ifndef FIXTURE_SYMBOL
#define FIXTURE_SYMBOL "SIZE"
#endif

static void fetch(void *context, const pb_fetch_request *request,
                  pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
    pb_fetch_result result = {
        .struct_size = sizeof result,
        .base = FIXTURE_SYMBOL,
        .currency = request->currency,
        .amount = "4.00",
    };
    completion(completion_context, &result);
}

static pb_status register_plugin(const pb_host_services *services) {
    pb_fetcher fetcher = {
        .struct_size = sizeof fetcher,
        .symbol = FIXTURE_SYMBOL,
        .display_name = FIXTURE_NAME,
        .fetch = fetch,
    };
    return services->register_fetcher(services->host_context, &fetcher);
}

#define DESCRIPTOR_FIELDS(size)                \
    .magic = PB_PLUGIN_MAGIC,                  \
    .abi_version = PB_PLUGIN_ABI_VERSION,      \
    .struct_size = (size),                     \
    .name = FIXTURE_NAME,                      \
    .version = "0.1.0",                        \
    .register_plugin = register_plugin

#if defined(FIXTURE_METADATA)
#define METADATA_FIELDS ,                                           \
    .description = "Answers 4.00 for every fetch, for the tests.",  \
    .author = "Patchbay tests <tests@example.invalid>",             \
    .license = "MIT",                                               \
    .homepage = "https://example.invalid/size"
#elif defined(FIXTURE_DESCRIPTION)
#define METADATA_FIELDS , .description = FIXTURE_DESCRIPTION
#else
#define METADATA_FIELDS
#endif

#if defined(FIXTURE_FIRST_REVISION)
/* pb_plugin_descriptor as the first revision of patchbay_plugin.h declared
 * it, before the optional text fields were appended. */
typedef struct first_revision_descriptor {
    uint32_t magic;
    uint32_t abi_version;
    uint32_t struct_size;
    const char *name;
    const char *version;
    pb_register_plugin_fn register_plugin;
} first_revision_descriptor;

/* Where this header's descriptor has `description` and the rest, pointers
 * that fault when followed: a host that read past struct_size would crash
 * or refuse the plugin, and the test would see it. */
static const struct {
    first_revision_descriptor known;
    const char *trap[4];
} descriptor = {
    .known = {
        .magic = PB_PLUGIN_MAGIC,
        .abi_version = PB_PLUGIN_ABI_VERSION,
        .struct_size = sizeof(first_revision_descriptor),
        .name = FIXTURE_NAME,
        .version = "0.1.0",
        .register_plugin = register_plugin,
    },
    .trap = {(const char *)8, (const char *)16, (const char *)24, (const char *)32},
};

const pb_plugin_descriptor *patchbay_plugin_entry(void) {
    return (const pb_plugin_descriptor *)&descriptor.known;
}
#elif defined(FIXTURE_FUTURE_DESCRIPTOR)
/* What a later minor revision's descriptor could look like: the same
 * prefix, then fields this host does not know and must not read. */
typedef struct future_descriptor {
    pb_plugin_descriptor known;
    const char *homepage;
    uint64_t capabilities;
    void *reserved[4];
} future_descriptor;

static const future_descriptor descriptor = {
    .known = {DESCRIPTOR_FIELDS(sizeof(future_descriptor))},
    .homepage = "https://example.invalid/future",
    .capabilities = UINT64_MAX,
};

const pb_plugin_descriptor *patchbay_plugin_entry(void) {
    return &descriptor.known;
}
#else
#ifndef FIXTURE_STRUCT_SIZE
#define FIXTURE_STRUCT_SIZE sizeof(pb_plugin_descriptor)
#endif

static const pb_plugin_descriptor descriptor = {DESCRIPTOR_FIELDS(FIXTURE_STRUCT_SIZE) METADATA_FIELDS};

const pb_plugin_descriptor *patchbay_plugin_entry(void) {
    return &descriptor;
}
#endif
