// The knob-free main file of multi-file-config.test.
#include <stdio.h>
int count(int n);
int main(void) {
  printf("%d\n", count(10));
  return 0;
}
