// torchlint stand-in for OpenCV's C API names of imgproc (CV_BGR2RGB, ...); see ../../README.md.
#pragma once
#include "opencv2/imgproc.hpp"
