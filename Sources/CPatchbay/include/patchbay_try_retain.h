/*
 * patchbay_try_retain.h — a strong reference to an object unless its deinit
 * has begun, for Patchbay's ContainerLink.
 *
 * Swift's `weak` does this, but through a side table that slows every later
 * retain and release of the object. The runtime's own entry point is what a
 * weak load calls once it has found the object; Swift code may not name it,
 * so it is declared and called here.
 */
#ifndef PATCHBAY_TRY_RETAIN_H
#define PATCHBAY_TRY_RETAIN_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the Swift runtime (libswiftCore): returns `object`, retained,
 * or NULL once its deinit has begun. */
extern void *_Nullable swift_tryRetain(void *_Nonnull object);

/* Retains `object`, a Swift class instance, and returns true; or returns
 * false, retaining nothing, once its deinit has begun. */
static inline bool pb_try_retain(void *_Nonnull object) {
    return swift_tryRetain(object) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_TRY_RETAIN_H */
