/* pagerank benchmark: the kernel of pagerank.h on a generated graph; writes
 * the top-1000 nodes and prints the kernel's time. */
#include "pagerank.h"

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  pr_graph g = pagerank_generate(a.size, a.instance);
  pr_state s = pagerank_state(g.n);

  double t0 = bench_now();
  pagerank_run(&g, &s);
  double t = bench_now() - t0;

  int top[PR_TOP];
  bench_top_k(s.rank, g.n, PR_TOP, top);
  FILE *f = bench_open(a.output);
  for (int i = 0; i < PR_TOP && top[i] >= 0; i++)
    fprintf(f, "%d\n", top[i]);
  fclose(f);
  printf("%.9f\n", t);
  return 0;
}
