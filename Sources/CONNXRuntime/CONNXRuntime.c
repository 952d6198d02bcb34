// The declarations in include/CONNXRuntime.h are all this target provides; compiling this file
// makes the slot-offset assertions in that header run as part of every build.
#include "CONNXRuntime.h"
