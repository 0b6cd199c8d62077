#ifndef PATCHBAY_FUZZER_DRIVER_H
#define PATCHBAY_FUZZER_DRIVER_H

/*
 * libFuzzer's driver, for a program that keeps its own `main`.
 *
 * SwiftPM renames an executable's `main` (and links `main` to the renamed
 * symbol), so PatchbayFuzz cannot take libFuzzer's `main`; its own calls
 * this instead. Only the fuzz build (`scripts/fuzz.sh`, which links
 * libFuzzer) calls it.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Runs libFuzzer with the program's arguments, calling `callback` with
 * each input. Returns when the run ends (a time limit, a run count);
 * exits the process itself on a finding.
 *
 * @param argc The program's argument count; libFuzzer may change it.
 * @param argv The program's arguments; libFuzzer may change them.
 * @param callback Runs one input (`data`, `size` bytes, owned by libFuzzer
 *        and valid only during the call); returns 0.
 */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#ifdef __cplusplus
}
#endif

#endif
