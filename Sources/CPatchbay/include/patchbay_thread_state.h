/*
 * patchbay_thread_state.h — one thread-local pointer for Patchbay's
 * resolution engine.
 *
 * Swift has no thread-local storage of its own. pthread_getspecific behind a
 * lazily created key costs a call and a `swift_once` check on every resolve,
 * while a C11 `_Thread_local` read is a single load from the thread pointer
 * when Patchbay is linked into the executable (inside a shared library it is
 * a call to __tls_get_addr, still cheaper). The engine keeps a pthread key
 * only to free the state when the thread exits.
 */
#ifndef PATCHBAY_THREAD_STATE_H
#define PATCHBAY_THREAD_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The calling thread's slot; defined in patchbay_thread_state.c. Hidden, so
 * that two images that each link Patchbay never share one slot. */
extern _Thread_local void *_Nullable pb_thread_state_slot
    __attribute__((visibility("hidden")));

/* The calling thread's resolution state, or NULL before its first resolve. */
static inline void *_Nullable pb_thread_state(void) {
    return pb_thread_state_slot;
}

/* Sets the calling thread's resolution state; NULL once it is freed. */
static inline void pb_set_thread_state(void *_Nullable state) {
    pb_thread_state_slot = state;
}

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_THREAD_STATE_H */
