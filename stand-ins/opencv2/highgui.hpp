// torchlint stand-in for OpenCV's highgui module; see ../README.md.
#pragma once
#include "opencv2/core.hpp"
#include "opencv2/imgcodecs.hpp"
#include "opencv2/videoio.hpp"

namespace cv {

enum WindowFlags { WINDOW_NORMAL = 0, WINDOW_AUTOSIZE = 1 };

void namedWindow(const std::string &winname, int flags = WINDOW_AUTOSIZE);
void imshow(const std::string &winname, InputArray mat);
int waitKey(int delay = 0);
void destroyWindow(const std::string &winname);
void destroyAllWindows();

} // namespace cv
