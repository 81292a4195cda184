// Code outside knobs simply compiles, and an exact build prints exactly what
// clang -O2 prints.
// RUN: approx-cc %s -std=gnu11 -O2 --approx-exact -o %t.exact -lm -L%S
// RUN: %t.exact > %t.exact.out
// RUN: %cc -O2 %s -o %t.ref -lpthread -lm
// RUN: %t.ref > %t.ref.out
// RUN: diff %t.ref.out %t.exact.out
// The annotated (approximate) build runs too and differs only in the knob.
// RUN: approx-cc %s -O2 -o %t.approx
// RUN: %t.approx | FileCheck %s

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point { double x, y; const char *name; };
static struct point points[] = {{3, 4, "a"}, {1, 1, "b"}, {0, 2, "c"}, {5, 0, "d"}};
static int calls;

static int by_norm(const void *a, const void *b) {
  const struct point *p = a, *q = b;
  double d = hypot(p->x, p->y) - hypot(q->x, q->y);
  return (d > 0) - (d < 0);
}

static void log_line(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  ++calls;
}

static char **split(const char *s, int *n) {
  char **out = malloc(16 * sizeof *out);
  *n = 0;
  const char *start = s;
  for (const char *c = s;; ++c) {
    if (*c == ',' || *c == '\0') {
      out[*n] = strndup(start, c - start);
      ++*n;
      start = c + 1;
      if (*c == '\0')
        break;
    }
  }
  return out;
}

struct job { int lo, hi; long sum; };
static void *work(void *arg) {
  struct job *j = arg;
  for (int i = j->lo; i < j->hi; ++i)
    j->sum += (long)i * i;
  return NULL;
}

// @approx:loop_perforate thresholds=[100] decisions=[0, 2]
long checksum(const int *a, int n, int state) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s = s * 31 + a[i];
  return s;
}

int main(void) {
  qsort(points, 4, sizeof points[0], by_norm);
  for (int i = 0; i < 4; ++i)
    log_line("%s %.3f\n", points[i].name, hypot(points[i].x, points[i].y));
  int n;
  char **parts = split("alpha,beta,,gamma", &n);
  for (int i = 0; i < n; ++i) {
    log_line("[%s] %zu\n", parts[i], strlen(parts[i]));
    free(parts[i]);
  }
  free(parts);
  pthread_t t[2];
  struct job jobs[2] = {{0, 500, 0}, {500, 1000, 0}};
  for (int i = 0; i < 2; ++i)
    pthread_create(&t[i], NULL, work, &jobs[i]);
  for (int i = 0; i < 2; ++i)
    pthread_join(t[i], NULL);
  log_line("threads %ld\n", jobs[0].sum + jobs[1].sum);
  int a[64];
  for (int i = 0; i < 64; ++i)
    a[i] = (i * 7919) % 113;
  log_line("checksum %ld %ld\n", checksum(a, 64, 5), checksum(a, 64, 500));
  printf("calls %d\n", calls);
  return 0;
}

// CHECK: threads 332833500
// CHECK: checksum [[EXACT:-?[0-9]+]] {{-?[0-9]+}}
// CHECK: calls 10
