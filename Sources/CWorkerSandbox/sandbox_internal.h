/*
 * What worker_sandbox.c needs from the other files of this target; not part
 * of the target's interface.
 */
#ifndef PATCHBAY_SANDBOX_INTERNAL_H
#define PATCHBAY_SANDBOX_INTERNAL_H

#include "worker_sandbox.h"

/**
 * Installs the refused-call handler for SIGSYS, then the allow list
 * (seccomp_filter.c), synchronised to every thread. Sets
 * PB_SANDBOX_SECCOMP in `report->applied`, or `report->seccomp_errno`.
 *
 * @param own_pid The calling process's pid, the only one `kill` may name.
 */
void pb_sandbox_apply_seccomp(uint32_t own_pid, pb_sandbox_report *report);

/**
 * What `pb_sandbox_apply_seccomp` would get, without installing anything:
 * sets `seccomp_arch`, and PB_SANDBOX_SECCOMP in `report->applied` when the
 * kernel has seccomp filters, else `seccomp_errno`.
 */
void pb_sandbox_probe_seccomp(pb_sandbox_report *report);

#endif /* PATCHBAY_SANDBOX_INTERNAL_H */
