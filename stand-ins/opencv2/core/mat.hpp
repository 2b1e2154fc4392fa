// torchlint stand-in for <opencv2/core/mat.hpp>; see ../../README.md.
#pragma once
#include "opencv2/core.hpp"
