// torchlint stand-in for OpenCV's imgproc module; see ../README.md.
#pragma once
#include "opencv2/core.hpp"

// The C API's names (opencv2/imgproc/types_c.h; OpenCV 3's opencv.hpp brings them in),
// global as there.
enum {
  CV_BGR2BGRA = 0, CV_RGB2RGBA = 0, CV_BGRA2BGR = 1, CV_RGBA2RGB = 1, CV_BGR2RGBA = 2, CV_RGB2BGRA = 2,
  CV_RGBA2BGR = 3, CV_BGRA2RGB = 3, CV_BGR2RGB = 4, CV_RGB2BGR = 4, CV_BGRA2RGBA = 5, CV_RGBA2BGRA = 5,
  CV_BGR2GRAY = 6, CV_RGB2GRAY = 7, CV_GRAY2BGR = 8, CV_GRAY2RGB = 8, CV_GRAY2BGRA = 9, CV_GRAY2RGBA = 9,
  CV_BGRA2GRAY = 10, CV_RGBA2GRAY = 11, CV_BGR2HSV = 40, CV_RGB2HSV = 41, CV_HSV2BGR = 54, CV_HSV2RGB = 55
};

namespace cv {

enum InterpolationFlags {
  INTER_NEAREST = 0, INTER_LINEAR = 1, INTER_CUBIC = 2, INTER_AREA = 3, INTER_LANCZOS4 = 4, INTER_LINEAR_EXACT = 5,
  INTER_NEAREST_EXACT = 6, WARP_FILL_OUTLIERS = 8, WARP_INVERSE_MAP = 16
};
enum ColorConversionCodes {
  COLOR_BGR2BGRA = 0, COLOR_RGB2RGBA = 0, COLOR_BGRA2BGR = 1, COLOR_RGBA2RGB = 1, COLOR_BGR2RGBA = 2,
  COLOR_RGB2BGRA = 2, COLOR_RGBA2BGR = 3, COLOR_BGRA2RGB = 3, COLOR_BGR2RGB = 4, COLOR_RGB2BGR = 4,
  COLOR_BGRA2RGBA = 5, COLOR_RGBA2BGRA = 5, COLOR_BGR2GRAY = 6, COLOR_RGB2GRAY = 7, COLOR_GRAY2BGR = 8,
  COLOR_GRAY2RGB = 8, COLOR_GRAY2BGRA = 9, COLOR_GRAY2RGBA = 9, COLOR_BGRA2GRAY = 10, COLOR_RGBA2GRAY = 11,
  COLOR_BGR2HSV = 40, COLOR_RGB2HSV = 41, COLOR_BGR2Lab = 44, COLOR_RGB2Lab = 45, COLOR_HSV2BGR = 54,
  COLOR_HSV2RGB = 55, COLOR_Lab2BGR = 56, COLOR_Lab2RGB = 57, COLOR_BGR2YUV = 82, COLOR_YUV2BGR = 84
};
enum ThresholdTypes { THRESH_BINARY = 0, THRESH_BINARY_INV = 1, THRESH_TRUNC = 2, THRESH_TOZERO = 3, THRESH_OTSU = 8 };
enum LineTypes { FILLED = -1, LINE_4 = 4, LINE_8 = 8, LINE_AA = 16 };
enum HersheyFonts { FONT_HERSHEY_SIMPLEX = 0, FONT_HERSHEY_PLAIN = 1, FONT_HERSHEY_DUPLEX = 2 };

void resize(InputArray src, OutputArray dst, Size dsize, double fx = 0, double fy = 0,
            int interpolation = INTER_LINEAR);
void cvtColor(InputArray src, OutputArray dst, int code, int dstCn = 0);
void warpAffine(InputArray src, OutputArray dst, InputArray M, Size dsize, int flags = INTER_LINEAR,
                int borderMode = BORDER_CONSTANT, const Scalar &borderValue = Scalar());
void warpPerspective(InputArray src, OutputArray dst, InputArray M, Size dsize, int flags = INTER_LINEAR,
                     int borderMode = BORDER_CONSTANT, const Scalar &borderValue = Scalar());
Mat getRotationMatrix2D(Point2f center, double angle, double scale);
Mat getAffineTransform(const Point2f src[], const Point2f dst[]);
Mat getPerspectiveTransform(const Point2f src[], const Point2f dst[], int solveMethod = 0);
void GaussianBlur(InputArray src, OutputArray dst, Size ksize, double sigmaX, double sigmaY = 0,
                  int borderType = BORDER_DEFAULT);
void blur(InputArray src, OutputArray dst, Size ksize, Point anchor = Point(-1, -1), int borderType = BORDER_DEFAULT);
void medianBlur(InputArray src, OutputArray dst, int ksize);
double threshold(InputArray src, OutputArray dst, double thresh, double maxval, int type);
void equalizeHist(InputArray src, OutputArray dst);
void Canny(InputArray image, OutputArray edges, double threshold1, double threshold2, int apertureSize = 3,
           bool L2gradient = false);
void rectangle(InputOutputArray img, Point pt1, Point pt2, const Scalar &color, int thickness = 1,
               int lineType = LINE_8, int shift = 0);
void rectangle(InputOutputArray img, Rect rec, const Scalar &color, int thickness = 1, int lineType = LINE_8,
               int shift = 0);
void line(InputOutputArray img, Point pt1, Point pt2, const Scalar &color, int thickness = 1, int lineType = LINE_8,
          int shift = 0);
void circle(InputOutputArray img, Point center, int radius, const Scalar &color, int thickness = 1,
            int lineType = LINE_8, int shift = 0);
void putText(InputOutputArray img, const std::string &text, Point org, int fontFace, double fontScale, Scalar color,
             int thickness = 1, int lineType = LINE_8, bool bottomLeftOrigin = false);
void fillPoly(InputOutputArray img, InputArrayOfArrays pts, const Scalar &color, int lineType = LINE_8, int shift = 0,
              Point offset = Point());
void fillPoly(InputOutputArray img, const Point **pts, const int *npts, int ncontours, const Scalar &color,
              int lineType = LINE_8, int shift = 0, Point offset = Point());
void polylines(InputOutputArray img, InputArrayOfArrays pts, bool isClosed, const Scalar &color, int thickness = 1,
               int lineType = LINE_8, int shift = 0);
void findContours(InputArray image, OutputArrayOfArrays contours, int mode, int method, Point offset = Point());
void drawContours(InputOutputArray image, InputArrayOfArrays contours, int contourIdx, const Scalar &color,
                  int thickness = 1, int lineType = LINE_8);
Rect boundingRect(InputArray array);

} // namespace cv
