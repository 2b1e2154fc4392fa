// torchlint stand-in for the legacy path of OpenCV's imgcodecs module; see ../../README.md.
#pragma once
#include "opencv2/imgcodecs.hpp"
