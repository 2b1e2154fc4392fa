int main( {
  for (;;) torch::zeros({1}).cuda(