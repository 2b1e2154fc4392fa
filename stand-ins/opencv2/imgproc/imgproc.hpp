// torchlint stand-in for the legacy path of OpenCV's imgproc module; see ../../README.md.
#pragma once
#include "opencv2/imgproc.hpp"
