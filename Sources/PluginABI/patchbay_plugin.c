// The ABI is header-only; this file exists so SwiftPM can build the target,
// and it pins the layout promises the header makes.
#include "patchbay_plugin.h"

_Static_assert(offsetof(pb_plugin_descriptor, magic) == 0, "magic leads the descriptor");
_Static_assert(offsetof(pb_plugin_descriptor, struct_size) == 8, "struct_size stays where old hosts read it");
_Static_assert(offsetof(pb_host_services, struct_size) == 0, "struct_size leads every struct");
_Static_assert(offsetof(pb_fetcher, struct_size) == 0, "struct_size leads every struct");
_Static_assert(offsetof(pb_fetch_result, struct_size) == 0, "struct_size leads every struct");
_Static_assert(PB_FETCHER_MIN_SIZE == offsetof(pb_fetcher, rank), "the rank follows the first revision's fetcher, with no gap");
_Static_assert(PB_PLUGIN_DESCRIPTOR_MIN_SIZE == offsetof(pb_plugin_descriptor, description),
               "the optional fields follow the first revision's descriptor, with no gap");
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
_Static_assert(PB_PLUGIN_DESCRIPTOR_MIN_SIZE == 40, "the first revision's descriptor is 40 bytes on 64-bit targets");
_Static_assert(sizeof(pb_plugin_descriptor) == 80, "the descriptor with its optional fields is 80 bytes on 64-bit targets");
_Static_assert(PB_FETCHER_MIN_SIZE == 40, "the first revision's fetcher is 40 bytes on 64-bit targets");
_Static_assert(sizeof(pb_fetcher) == 48, "the fetcher with its rank is 48 bytes on 64-bit targets");
#endif
