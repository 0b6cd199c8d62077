// NB: SwiftPM wants a source file in every C target; the one function the
// header declares is libFuzzer's own.
#include "fuzzer_driver.h"
