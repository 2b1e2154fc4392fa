#include "setup.h"

// The program's cuDNN set-up lives here, not in main.cpp.
void configureBackends() { at::globalContext().setBenchmarkCuDNN(true); }
