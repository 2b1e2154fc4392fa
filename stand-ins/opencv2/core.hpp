// torchlint stand-in for OpenCV's core module (https://docs.opencv.org): declarations of the
// commonly used interface only, used when OpenCV is not installed. See ../README.md.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>
// The standard headers above: real OpenCV's headers bring these in (cvstd.hpp, cvstd.inl.hpp,
// utility.hpp, persistence.hpp, flann's), and programs use std::ofstream, std::cout or
// std::stringstream after including only opencv2/opencv.hpp. Without them the stand-in would
// leave such code with compiler errors that a real build does not have.

// Global, as in OpenCV's cvdef.h and interface.h.
typedef unsigned char uchar;
typedef signed char schar;
typedef unsigned short ushort;
#define CV_8U 0
#define CV_8S 1
#define CV_16U 2
#define CV_16S 3
#define CV_32S 4
#define CV_32F 5
#define CV_64F 6
#define CV_16F 7
#define CV_MAKETYPE(depth, cn) ((depth) + (((cn) - 1) << 3))
#define CV_MAKE_TYPE CV_MAKETYPE
#define CV_8UC(n) CV_MAKETYPE(CV_8U, (n))
#define CV_32FC(n) CV_MAKETYPE(CV_32F, (n))
#define CV_8UC1 CV_MAKETYPE(CV_8U, 1)
#define CV_8UC2 CV_MAKETYPE(CV_8U, 2)
#define CV_8UC3 CV_MAKETYPE(CV_8U, 3)
#define CV_8UC4 CV_MAKETYPE(CV_8U, 4)
#define CV_16UC1 CV_MAKETYPE(CV_16U, 1)
#define CV_16SC1 CV_MAKETYPE(CV_16S, 1)
#define CV_32SC1 CV_MAKETYPE(CV_32S, 1)
#define CV_32FC1 CV_MAKETYPE(CV_32F, 1)
#define CV_32FC2 CV_MAKETYPE(CV_32F, 2)
#define CV_32FC3 CV_MAKETYPE(CV_32F, 3)
#define CV_32FC4 CV_MAKETYPE(CV_32F, 4)
#define CV_64FC1 CV_MAKETYPE(CV_64F, 1)
#define CV_64FC3 CV_MAKETYPE(CV_64F, 3)

namespace cv {

using ::schar;
using ::uchar;
using ::ushort;

enum BorderTypes {
  BORDER_CONSTANT = 0, BORDER_REPLICATE = 1, BORDER_REFLECT = 2, BORDER_WRAP = 3, BORDER_REFLECT_101 = 4,
  BORDER_TRANSPARENT = 5, BORDER_DEFAULT = BORDER_REFLECT_101
};
enum NormTypes { NORM_INF = 1, NORM_L1 = 2, NORM_L2 = 4, NORM_MINMAX = 32 };
enum RotateFlags { ROTATE_90_CLOCKWISE = 0, ROTATE_180 = 1, ROTATE_90_COUNTERCLOCKWISE = 2 };

template <typename T> class Size_ {
public:
  Size_();
  Size_(T width, T height);
  template <typename U> operator Size_<U>() const;
  T area() const;
  bool empty() const;
  T width, height;
};
typedef Size_<int> Size2i;
typedef Size_<float> Size2f;
typedef Size_<double> Size2d;
typedef Size2i Size;

template <typename T> class Point_ {
public:
  Point_();
  Point_(T x, T y);
  template <typename U> operator Point_<U>() const;
  T x, y;
};
typedef Point_<int> Point2i;
typedef Point_<float> Point2f;
typedef Point_<double> Point2d;
typedef Point2i Point;

template <typename T> class Rect_ {
public:
  Rect_();
  Rect_(T x, T y, T width, T height);
  Rect_(const Point_<T> &org, const Size_<T> &sz);
  Point_<T> tl() const;
  Point_<T> br() const;
  Size_<T> size() const;
  T area() const;
  T x, y, width, height;
};
typedef Rect_<int> Rect2i;
typedef Rect_<float> Rect2f;
typedef Rect2i Rect;

template <typename T, int N> class Vec {
public:
  Vec();
  template <typename... A> Vec(A... values);
  T &operator[](int i);
  const T &operator[](int i) const;
  T val[N];
};
typedef Vec<uchar, 3> Vec3b;
typedef Vec<uchar, 4> Vec4b;
typedef Vec<float, 2> Vec2f;
typedef Vec<float, 3> Vec3f;
typedef Vec<double, 3> Vec3d;

template <typename T> class Scalar_ : public Vec<T, 4> {
public:
  Scalar_();
  Scalar_(T v0);
  Scalar_(T v0, T v1, T v2 = 0, T v3 = 0);
  static Scalar_<T> all(T v0);
};
typedef Scalar_<double> Scalar;

class Range {
public:
  Range();
  Range(int start, int end);
  static Range all();
  int start, end;
};

class Mat;
class _InputArray {
public:
  _InputArray();
  template <typename T> _InputArray(const T &value);
  Mat getMat(int idx = -1) const;
};
class _OutputArray : public _InputArray {
public:
  _OutputArray();
  template <typename T> _OutputArray(T &&value);
};
typedef const _InputArray &InputArray;
typedef InputArray InputArrayOfArrays;
typedef const _OutputArray &OutputArray;
typedef OutputArray OutputArrayOfArrays;
typedef OutputArray InputOutputArray;
InputOutputArray noArray();

class MatSize {
public:
  Size operator()() const;
  const int &operator[](int i) const;
  int dims() const;
};
class MatStep {
public:
  std::size_t operator[](int i) const;
  operator std::size_t() const;
};

class Mat {
public:
  enum { AUTO_STEP = 0 };
  Mat();
  Mat(int rows, int cols, int type);
  Mat(Size size, int type);
  Mat(int rows, int cols, int type, const Scalar &s);
  Mat(Size size, int type, const Scalar &s);
  Mat(int ndims, const int *sizes, int type);
  Mat(const std::vector<int> &sizes, int type);
  Mat(int rows, int cols, int type, void *data, std::size_t step = AUTO_STEP);
  Mat(Size size, int type, void *data, std::size_t step = AUTO_STEP);
  Mat(int ndims, const int *sizes, int type, void *data, const std::size_t *steps = nullptr);
  Mat(const Mat &m, const Rect &roi);
  Mat(const Mat &m, const Range &rowRange, const Range &colRange = Range::all());
  template <typename T> explicit Mat(const std::vector<T> &vec, bool copyData = false);
  Mat(const Mat &m);
  Mat &operator=(const Mat &m);
  Mat &operator=(const Scalar &s);

  Mat row(int y) const;
  Mat col(int x) const;
  Mat rowRange(int startrow, int endrow) const;
  Mat colRange(int startcol, int endcol) const;
  Mat clone() const;
  void copyTo(OutputArray m) const;
  void copyTo(OutputArray m, InputArray mask) const;
  void convertTo(OutputArray m, int rtype, double alpha = 1, double beta = 0) const;
  Mat &setTo(InputArray value, InputArray mask = noArray());
  Mat reshape(int cn, int rows = 0) const;
  Mat reshape(int cn, const std::vector<int> &newshape) const;
  Mat t() const;
  Mat inv(int method = 0) const;
  Mat mul(InputArray m, double scale = 1) const;
  double dot(InputArray m) const;
  void create(int rows, int cols, int type);
  void create(Size size, int type);
  void release();
  void push_back(const Mat &m);
  bool isContinuous() const;
  bool isSubmatrix() const;
  std::size_t elemSize() const;
  std::size_t elemSize1() const;
  int type() const;
  int depth() const;
  int channels() const;
  std::size_t total() const;
  bool empty() const;
  int checkVector(int elemChannels, int depth = -1, bool requireContinuous = true) const;
  uchar *ptr(int i0 = 0);
  const uchar *ptr(int i0 = 0) const;
  template <typename T> T *ptr(int i0 = 0);
  template <typename T> const T *ptr(int i0 = 0) const;
  template <typename T> T *ptr(int row, int col);
  template <typename T> const T *ptr(int row, int col) const;
  template <typename T> T &at(int i0 = 0);
  template <typename T> const T &at(int i0 = 0) const;
  template <typename T> T &at(int row, int col);
  template <typename T> const T &at(int row, int col) const;
  template <typename T> T &at(Point pt);
  template <typename T> const T &at(Point pt) const;
  Mat operator()(const Rect &roi) const;
  Mat operator()(Range rowRange, Range colRange) const;

  static Mat zeros(int rows, int cols, int type);
  static Mat zeros(Size size, int type);
  static Mat ones(int rows, int cols, int type);
  static Mat ones(Size size, int type);
  static Mat eye(int rows, int cols, int type);
  static Mat eye(Size size, int type);

  int flags;
  int dims;
  int rows, cols;
  uchar *data;
  MatSize size;
  MatStep step;
};

template <typename T> class Mat_ : public Mat {
public:
  Mat_();
  Mat_(int rows, int cols);
  Mat_(int rows, int cols, const T &value);
  Mat_(Size size);
  Mat_(const Mat &m);
  T &operator()(int row, int col);
  const T &operator()(int row, int col) const;
};
typedef Mat_<uchar> Mat1b;
typedef Mat_<float> Mat1f;
typedef Mat_<Vec3b> Mat3b;
typedef Mat_<Vec3f> Mat3f;

typedef Mat MatExpr;
Mat operator+(const Mat &a, const Mat &b);
Mat operator+(const Mat &a, const Scalar &s);
Mat operator-(const Mat &a, const Mat &b);
Mat operator-(const Mat &a, const Scalar &s);
Mat operator-(const Mat &m);
Mat operator*(const Mat &a, const Mat &b);
Mat operator*(const Mat &a, double s);
Mat operator*(double s, const Mat &a);
Mat operator/(const Mat &a, const Mat &b);
Mat operator/(const Mat &a, double s);
Mat operator/(double s, const Mat &a);
Mat &operator+=(Mat &a, const Mat &b);
Mat &operator-=(Mat &a, const Mat &b);
Mat &operator*=(Mat &a, double s);
Mat &operator/=(Mat &a, double s);

void add(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1);
void subtract(InputArray src1, InputArray src2, OutputArray dst, InputArray mask = noArray(), int dtype = -1);
void multiply(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1);
void divide(InputArray src1, InputArray src2, OutputArray dst, double scale = 1, int dtype = -1);
void absdiff(InputArray src1, InputArray src2, OutputArray dst);
void addWeighted(InputArray src1, double alpha, InputArray src2, double beta, double gamma, OutputArray dst,
                 int dtype = -1);
void split(const Mat &src, Mat *mvbegin);
void split(InputArray m, OutputArrayOfArrays mv);
void merge(const Mat *mv, std::size_t count, OutputArray dst);
void merge(InputArrayOfArrays mv, OutputArray dst);
void hconcat(InputArray src1, InputArray src2, OutputArray dst);
void hconcat(InputArrayOfArrays src, OutputArray dst);
void vconcat(InputArray src1, InputArray src2, OutputArray dst);
void vconcat(InputArrayOfArrays src, OutputArray dst);
void flip(InputArray src, OutputArray dst, int flipCode);
void rotate(InputArray src, OutputArray dst, int rotateCode);
void transpose(InputArray src, OutputArray dst);
void normalize(InputArray src, InputOutputArray dst, double alpha = 1, double beta = 0, int norm_type = NORM_L2,
               int dtype = -1, InputArray mask = noArray());
void minMaxLoc(InputArray src, double *minVal, double *maxVal = nullptr, Point *minLoc = nullptr,
               Point *maxLoc = nullptr, InputArray mask = noArray());
Scalar mean(InputArray src, InputArray mask = noArray());
void meanStdDev(InputArray src, OutputArray mean, OutputArray stddev, InputArray mask = noArray());
Scalar sum(InputArray src);
int countNonZero(InputArray src);
void copyMakeBorder(InputArray src, OutputArray dst, int top, int bottom, int left, int right, int borderType,
                    const Scalar &value = Scalar());
void exp(InputArray src, OutputArray dst);
void log(InputArray src, OutputArray dst);
void pow(InputArray src, double power, OutputArray dst);
void sqrt(InputArray src, OutputArray dst);

template <typename T> std::ostream &operator<<(std::ostream &out, const Size_<T> &size);
template <typename T> std::ostream &operator<<(std::ostream &out, const Point_<T> &point);
template <typename T> std::ostream &operator<<(std::ostream &out, const Rect_<T> &rect);
template <typename T, int N> std::ostream &operator<<(std::ostream &out, const Vec<T, N> &vec);
std::ostream &operator<<(std::ostream &out, const Mat &mat);

class Exception : public std::exception {
public:
  const char *what() const noexcept override;
  std::string msg;
  int code;
};

class RNG {
public:
  RNG();
  RNG(std::uint64_t state);
  int uniform(int a, int b);
  float uniform(float a, float b);
  double uniform(double a, double b);
  double gaussian(double sigma);
  operator int();
  operator float();
};
RNG &theRNG();
void setNumThreads(int nthreads);
int getNumThreads();

typedef std::string String;
typedef std::int64_t int64;
typedef std::uint64_t uint64;

// core/utility.hpp: timing, and the command-line parser programs' main() reads its options with.
int64 getTickCount();
double getTickFrequency();

class CommandLineParser {
public:
  CommandLineParser(int argc, const char *const argv[], const String &keys);
  CommandLineParser(const CommandLineParser &parser);
  CommandLineParser &operator=(const CommandLineParser &parser);
  ~CommandLineParser();
  String getPathToApplication() const;
  template <typename T> T get(const String &name, bool space_delete = true) const;
  template <typename T> T get(int index, bool space_delete = true) const;
  bool has(const String &name) const;
  bool check() const;
  void about(const String &message);
  void printMessage() const;
  void printErrors() const;
};

} // namespace cv
