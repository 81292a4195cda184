#include <stdio.h>
int last(int lb, int ub);
static int reference(int lb, int ub) {
  int i = lb, n = 0;
  while (i < ub) { ++n; i += 3; }
  return i * 1000 + n;
}
int main(void) {
  int cases[][2] = {{0, 10}, {0, 9}, {5, 5}, {7, 2}, {-4, 4}, {-10, -3}, {1, 2}};
  int failed = 0;
  for (int c = 0; c < 7; ++c) {
    int got = last(cases[c][0], cases[c][1]), want = reference(cases[c][0], cases[c][1]);
    if (got != want) {
      printf("FAIL last(%d, %d) = %d, want %d\n", cases[c][0], cases[c][1], got, want);
      ++failed;
    }
  }
  if (failed) return 1;
  printf("exit_value: all 7 checks passed\n");
  return 0;
}
