/* kmeans benchmark: the kernel of kmeans.h on a generated input; writes the
 * final centroids and prints the kernel's time. */
#include "kmeans.h"

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  int n;
  double cent[K * D];
  double *pts = kmeans_generate(a.size, a.instance, &n, cent);
  int *label = calloc(n, sizeof(int));

  double t0 = bench_now();
  lloyd(pts, n, cent, label, kmeans_size_class(n));
  double t = bench_now() - t0;

  FILE *f = bench_open(a.output);
  for (int c = 0; c < K; c++)
    for (int j = 0; j < D; j++)
      fprintf(f, "%.17g%c", cent[c * D + j], j + 1 < D ? ' ' : '\n');
  fclose(f);
  printf("%.9f\n", t);
  free(pts);
  free(label);
  return 0;
}
