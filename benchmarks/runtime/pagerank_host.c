/* The host side of the re-specialisation benchmark: pagerank's inputs
 * (benchmarks/pagerank/pagerank.h), generated natively. The kernel's own
 * functions are renamed here so that only the builds under test (the JIT's
 * and the AOT library's) define them. */
#define pull host_pull
#define update_node host_update_node
#define pagerank host_pagerank
#define pagerank_size_class host_pagerank_size_class
#include "../pagerank/pagerank.h"

pr_graph rs_generate(int size, int instance) { return pagerank_generate(size, instance); }
pr_state rs_state(int n) { return pagerank_state(n); }
void rs_state_free(pr_state *s) { pagerank_state_free(s); }
int rs_size_class(int n) { return host_pagerank_size_class(n); }
