#include "patchbay_thread_state.h"

__attribute__((visibility("hidden"))) _Thread_local void *_Nullable pb_thread_state_slot = 0;
