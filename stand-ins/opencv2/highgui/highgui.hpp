// torchlint stand-in for the legacy path of OpenCV's highgui module; see ../../README.md.
#pragma once
#include "opencv2/highgui.hpp"
