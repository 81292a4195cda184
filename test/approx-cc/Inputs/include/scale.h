#define SCALE 3
long scaled_sum(const int *a, int n, int state);
