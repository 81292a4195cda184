/* lavaMD benchmark: the kernel of lavamd.h on a generated system; writes
 * every particle's potential and force and prints the kernel's time. */
#include "lavamd.h"

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  md_system s = lavamd_generate(a.size, a.instance);
  long n = (long)s.nb * s.nb * s.nb * s.np;
  vec4 *f = calloc(n, sizeof(vec4));

  double t0 = bench_now();
  lavamd(s.r, s.q, s.nb, s.np, f);
  double t = bench_now() - t0;

  FILE *out = bench_open(a.output);
  for (long i = 0; i < n; i++)
    fprintf(out, "%.17g %.17g %.17g %.17g\n", f[i].v, f[i].x, f[i].y, f[i].z);
  fclose(out);
  printf("%.9f\n", t);
  return 0;
}
