#pragma once
#include "torch_mini.h"

void configureBackends();
