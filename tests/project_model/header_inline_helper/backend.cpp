#include "metrics.h"

void enable_cudnn_benchmark() { at::globalContext().setBenchmarkCuDNN(true); }
