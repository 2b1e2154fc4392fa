#pragma once
// Only includes: the walk goes on in the file that included this one.
#include <torch/torch.h>
