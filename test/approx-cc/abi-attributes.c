// A function's parameter and result attributes are its ABI and what the
// source promises LLVM; the raising to func.func kept none of them, so a
// structure passed by value (byval) was read as a pointer, a returned one
// lost its sret, narrow integers their extensions, and values their noundef
// (which cost jmeint 1.36x against clang++ -O3: the SLP vectorizer chose
// worse). Called from gcc -O2's code, the program crashed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-cc %s -emit=llvm | FileCheck %s
// RUN: gcc -O2 %s %S/Inputs/abi-caller.c -o %t/ref && %t/ref > %t/ref.txt
// RUN: gcc -O2 -c %S/Inputs/abi-caller.c -o %t/caller.o
// RUN: approx-cc -c %s --approx-exact -o %t/exact.o && gcc %t/caller.o %t/exact.o -o %t/exact && %t/exact | diff - %t/ref.txt
// The approximate build perforates the loop (every other element): the same
// values but the last; the runtime-table build, at the annotation's
// configuration, prints what it prints.
// RUN: approx-cc -c %s -o %t/approx.o && gcc %t/caller.o %t/approx.o -o %t/approx && %t/approx > %t/approx.txt
// RUN: FileCheck %s --check-prefix=RUN-APPROX < %t/approx.txt
// RUN: approx-cc -c %s --approx-runtime-table -o %t/table.o && gcc %t/caller.o %t/table.o -o %t/table -L%approx_bin/../lib -lapprox_runtime -lpthread -lm && %t/table | diff - %t/approx.txt

struct big { double a, b, c, d; };

// CHECK-LABEL: define {{.*}}double @sum(ptr noundef byval(%struct.big) align 8 %0)
double sum(struct big s) { return s.a + s.b + s.c + s.d; }

// CHECK-LABEL: define {{.*}}double @scaled_total(ptr noundef byval(%struct.big) align 8 %0, i16 noundef signext %1, ptr noundef %2, i32 noundef %3)
double scaled_total(struct big s, short k, const double *x, int n) {
  double t = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=2
  for (int i = 0; i < n; i++)
    t += x[i];
  return t * k * sum(s);
}

// CHECK-LABEL: define {{.*}}zeroext i1 @positive(i16 noundef signext %0)
_Bool positive(short x) { return x > 0; }

// CHECK-LABEL: define {{.*}}signext i8 @clamp8(i32 noundef %0)
signed char clamp8(int v) { return v > 127 ? 127 : v < -128 ? -128 : v; }

// CHECK-LABEL: define {{.*}}void @make(ptr {{.*}}sret(%struct.big) align 8 %0, double noundef %1)
struct big make(double v) {
  struct big s = {v, v, v, v};
  return s;
}

// RUN-APPROX: 10 1 0 127 -128 2.5 -2940{{$}}
