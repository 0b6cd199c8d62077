#include "patchbay_thread_state.h"

_Thread_local void *_Nullable pb_thread_state_slot = 0;
