#include "net.h"

void search(int trials);

int main() {
  Net net;
  fit(net, 20);
  search(5);
}
