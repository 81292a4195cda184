/* The decimal-number parser of the kb kernel and the LLM + RAG (kb) system,
 * exact and reduced-precision (header only, plain C): the approximate
 * versions keep 3 or 2 fraction digits and skip the rest, the substitutes
 * of a `func_substitute callee=parse_number` knob. */
#ifndef APPROX_NUMBER_H
#define APPROX_NUMBER_H

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* The sign, integer digits and up to `keep` fraction digits at `*s` (moved
 * past them): the value is sign * v / scale; `*point` says whether there
 * was a decimal point. */
static double parse_fixed(const char **s, int keep, double *v, double *scale,
                          int *point) {
  const char *p = *s;
  double sign = 1;
  *v = 0;
  *scale = 1;
  if (*p == '-') {
    sign = -1;
    p++;
  }
  while (*p >= '0' && *p <= '9')
    *v = *v * 10 + (*p++ - '0');
  *point = *p == '.';
  if (*point) {
    p++;
    for (int k = 0; k < keep && *p >= '0' && *p <= '9'; k++) {
      *v = *v * 10 + (*p++ - '0');
      *scale *= 10;
    }
  }
  *s = p;
  return sign;
}

/* A decimal number: sign, digits, fraction, optional exponent. */
double parse_number(const char *s, const char **end) {
  double v, scale;
  int point;
  double sign = parse_fixed(&s, INT_MAX, &v, &scale, &point);
  if (*s == 'e' || *s == 'E') {
    int e = (int)strtol(s + 1, (char **)&s, 10);
    v *= pow(10, e);
  }
  *end = s;
  return sign * v / scale;
}

/* The same, keeping `keep` fraction digits and skipping the rest. */
static double parse_digits(const char *s, const char **end, int keep) {
  double v, scale;
  int point;
  double sign = parse_fixed(&s, keep, &v, &scale, &point);
  if (point)
    while ((*s >= '0' && *s <= '9') || *s == 'e' || *s == 'E' || *s == '-' ||
           *s == '+')
      s++;
  *end = s;
  return sign * v / scale;
}

double approx_parse_number_1(const char *s, const char **end) {
  return parse_digits(s, end, 3);
}
double approx_parse_number_2(const char *s, const char **end) {
  return parse_digits(s, end, 2);
}

#endif
