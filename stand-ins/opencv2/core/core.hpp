// torchlint stand-in for the legacy path of OpenCV's core module; see ../../README.md.
#pragma once
#include "opencv2/core.hpp"
