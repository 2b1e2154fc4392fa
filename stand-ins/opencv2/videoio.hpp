// torchlint stand-in for OpenCV's videoio module; see ../README.md.
#pragma once
#include "opencv2/core.hpp"

namespace cv {

enum VideoCaptureProperties { CAP_PROP_POS_FRAMES = 1, CAP_PROP_FRAME_WIDTH = 3, CAP_PROP_FRAME_HEIGHT = 4,
                              CAP_PROP_FPS = 5, CAP_PROP_FRAME_COUNT = 7 };

class VideoCapture {
public:
  VideoCapture();
  explicit VideoCapture(const std::string &filename, int apiPreference = 0);
  explicit VideoCapture(int index, int apiPreference = 0);
  bool open(const std::string &filename, int apiPreference = 0);
  bool open(int index, int apiPreference = 0);
  bool isOpened() const;
  void release();
  bool read(OutputArray image);
  VideoCapture &operator>>(Mat &image);
  bool set(int propId, double value);
  double get(int propId) const;
};

class VideoWriter {
public:
  VideoWriter();
  VideoWriter(const std::string &filename, int fourcc, double fps, Size frameSize, bool isColor = true);
  bool isOpened() const;
  void write(InputArray image);
  VideoWriter &operator<<(const Mat &image);
  void release();
  static int fourcc(char c1, char c2, char c3, char c4);
};

} // namespace cv
