// Annotation near misses (near-misses.test).
// @APPROX:static_transform transform_type=loop_perforate knob_val=2
int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }

// @approx :static_transform transform_type=loop_perforate knob_val=2
int g(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }

/* @approx:static_transform transform_type=loop_perforate knob_val=2 */
int h(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }

int k(int n) { return n; } // @approx:static_transform transform_type=loop_perforate knob_val=2

// see @approx:loop_perforate in the docs

/*
 * @Approx: inside a block comment
 */

const char *address = "mail@approx: is a string, not a comment";

// @approx:static_transform transform_type=loop_perforate knob_val=2
int taken(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
