#include "inline_knob.h"
int from_a(int n) { return count_every(n) + twice(n); }
