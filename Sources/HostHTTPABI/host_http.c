// The contract is header-only; this file exists so SwiftPM can build the target.
#include "host_http.h"
