// What the source says of a function beyond its parameters reaches LLVM:
// the instruction set of `__attribute__((target))` (the raising to
// func.func dropped it, so an AVX2 path was compiled for SSE2), the
// inlining directives always_inline and noinline, and a declaration's
// `const` or `pure` (without them a loop called the function on every
// iteration, where clang hoists the call: glibc's isalpha and tolower go
// through such a function). The program prints what clang -O2's build
// prints, the calls counted in another file included, in every kind of
// build.
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-cc %s -emit=llvm | FileCheck %s
// RUN: %cc -O2 -c %S/Inputs/const-helpers.c -o %t/helpers.o
// RUN: %cc -O2 %s %t/helpers.o -o %t/ref && %t/ref > %t/ref.txt
// RUN: approx-cc -O2 %s %t/helpers.o --approx-exact -o %t/exact && %t/exact | diff - %t/ref.txt
// RUN: approx-cc -O2 %s %t/helpers.o --approx-runtime-table -o %t/table && %t/table | diff - %t/ref.txt
#include <immintrin.h>
#include <stdio.h>

// CHECK-DAG: define internal void @reverse8(ptr noundef %0) #[[AVX2:[0-9]+]]
__attribute__((target("avx2"))) static void reverse8(int *a) {
  __m256i v = _mm256_loadu_si256((const __m256i *)a);
  __m256i idx = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  _mm256_storeu_si256((__m256i *)a, _mm256_permutevar8x32_epi32(v, idx));
}

// CHECK-DAG: define internal i32 @square(i32 noundef %0) #[[ALWAYS:[0-9]+]]
__attribute__((always_inline)) static inline int square(int x) { return x * x; }

// CHECK-DAG: define internal i32 @rarely(i32 noundef %0) #[[NEVER:[0-9]+]]
__attribute__((noinline)) static int rarely(int x) { return x + 1; }

// CHECK-DAG: declare {{.*}}double @scale(double noundef) #[[CONST:[0-9]+]]
// CHECK-DAG: declare {{.*}}i64 @length(ptr noundef) #[[PURE:[0-9]+]]
double scale(double) __attribute__((const));
unsigned long length(const char *) __attribute__((pure));
extern int scale_calls, length_calls;

double scaled(const double *x, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * scale(c);
  return s;
}

int letters(const char *p) {
  int k = 0;
  for (unsigned long i = 0; i < length(p); i++)
    k += p[i] != ' ';
  return k;
}

int total(const int *a, int n) {
  int s = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=1
  for (int i = 0; i < n; i++)
    s += square(a[i]);
  return s;
}

int main(void) {
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  if (__builtin_cpu_supports("avx2"))
    reverse8(a);
  else
    for (int i = 0; i < 4; i++) {
      int t = a[i];
      a[i] = a[7 - i];
      a[7 - i] = t;
    }
  printf("%d %d %d %d\n", a[0], a[7], total(a, 8), rarely(4));
  double x[100];
  for (int i = 0; i < 100; i++)
    x[i] = i;
  printf("%g %d calls: %d %d\n", scaled(x, 100, 0.5), letters("a b c d e f"),
         scale_calls, length_calls);
  return 0;
}

// CHECK-DAG: attributes #[[AVX2]] = { {{.*}}"target-features"="{{[^"]*}}+avx2
// CHECK-DAG: attributes #[[ALWAYS]] = { alwaysinline
// CHECK-DAG: attributes #[[NEVER]] = { noinline
// CHECK-DAG: attributes #[[CONST]] = { nounwind willreturn memory(none)
// CHECK-DAG: attributes #[[PURE]] = { nounwind willreturn memory(read)
