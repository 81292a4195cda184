/* A header of the program's own with an annotated function: approx-cc reads
 * its annotations as it reads the main file's. */
#ifndef KNOBBED_H
#define KNOBBED_H

// @approx:decision_tree {
//   transform_type: loop_perforate
//   thresholds: [50]
//   thresholds_lower: [1]
//   thresholds_upper: [100]
//   decisions: [0, 2]
//   decision_values: [0, 2, 4]
// }
long header_sum(const int *a, int n, int state) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

#endif
