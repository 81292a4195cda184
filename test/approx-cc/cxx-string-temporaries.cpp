// C++ with std::string temporaries whose cleanups merge (issue 43, defect 1):
// two or more temporaries in one function, an exception path through each,
// made approx-cc fail at every -O level with "llvm.lifetime.start/end can
// only be used on alloca or poison" (the merged cleanup block received the
// allocas as a block argument, and its lifetime markers named that). The
// program builds at every level, with a loop knob beside the strings, and
// prints what clang++ -O3's build prints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cxx -O3 %s -o %t/ref && %t/ref one two > %t/ref.txt
// RUN: for O in 0 1 2 3; do approx-cc %s -std=c++17 -O$O -o %t/o$O || exit 1; %t/o$O one two | diff - %t/ref.txt || exit 1; done
// RUN: approx-cc %s -std=c++17 -O2 --approx-runtime-table -o %t/table && %t/table one two | diff - %t/ref.txt
#include <cstdio>
#include <fstream>
#include <string>

static void use(const std::string &s) { std::printf("%zu\n", s.size()); }

int words(const char *p, int n) {
  use(std::string(p) + "x");
  use(std::string(p) + std::to_string(n));
  if (std::string(p) == std::string("abc"))
    return 1;
  std::ifstream in(std::string(p) + ".txt");
  std::string line;
  while (std::getline(in, line))
    n += (int)line.size();
  return n;
}

int total(int n) {
  int s = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}

int main(int argc, char **argv) {
  std::printf("%d %d\n", words(argv[1], argc), words(argv[2], 1));
  std::printf("%d\n", total(10));
  return 0;
}
