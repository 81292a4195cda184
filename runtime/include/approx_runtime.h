/*===- approx_runtime.h - the approx runtime knob table (C ABI) ----------===*
 *
 * Programs built with `config-approx mode=runtime` read every tunable
 * parameter (thresholds, decisions, static knob values) through
 * approx_rt_param(), so one binary evaluates any configuration without
 * recompiling. Values come, in increasing priority, from the defaults baked
 * into the program, the JSON file named by the environment variable
 * APPROX_CONFIG (read once, when the first module registers its
 * parameters), and approx_rt_set() / approx_rt_load_config() calls. An
 * APPROX_CONFIG entry that is no parameter of the program's loaded modules
 * is reported on stderr at exit (a misspelled name would otherwise leave
 * that knob at its default without a word).
 *
 * Parameter names are the seed's: <knob>_threshold_<i>, <knob>_decision_<j>,
 * <knob>_knob_val. The configuration file is a flat JSON object of
 * name -> integer, the format approx-tune writes.
 *
 * Thread safety: all functions may be called from any thread.
 *===----------------------------------------------------------------------===*/
#ifndef APPROX_RUNTIME_H
#define APPROX_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI between generated code and the runtime; the compiler's lowering
 * of approx.runtime_param (lower-approx-runtime) takes it from here.
 *
 * The runtime keeps one value per parameter name in the process. Each
 * module keeps a private array of cells, one per parameter name it reads,
 * initialised with the compile-time defaults (modules compiled apart never
 * share a cell, and a knob read by two modules has one value by name). The
 * module's constructor (a global constructor, run when the module is
 * loaded: program start, dlopen, the JIT's initialisation) calls
 * approx_rt_param() for each cell, which registers the name and the cell
 * and writes the current value into it; from then on the runtime writes
 * every new value of the name into every cell registered for it. The
 * module's destructor (run at exit, dlclose, the JIT's deinitialisation)
 * calls approx_rt_release() for its array, after which the runtime never
 * writes it again, so modules may be unloaded at any time. A read is then
 * one unordered load from an address fixed at link time, with an alias tag
 * of its own: the optimiser may hoist it out of a loop, or execute it
 * unconditionally (turning a branch on a decision into a select); a value
 * changed while a loop runs takes effect at the loop's next entry at the
 * latest. */
#define APPROX_RT_PARAM_FN "approx_rt_param"     /* the functions below */
#define APPROX_RT_RELEASE_FN "approx_rt_release"
#define APPROX_RT_MAX_PARAMS 16384               /* distinct names per process */
#define APPROX_RT_CELLS "__approx_rt_cells"      /* int32_t[n], per module */
#define APPROX_RT_REGISTER_FN "__approx_rt_register"     /* per module, internal */
#define APPROX_RT_UNREGISTER_FN "__approx_rt_unregister" /* per module, internal */
#define APPROX_RT_REGISTER_PRIORITY 101 /* before default-priority ctors */

/* Called by a module's constructor for each of its cells: registers `name`
 * (with `dflt`, the value configured at compile time) if needed, registers
 * `cell` for it (once, however often it is called), stores the name's
 * current value in *cell and returns it. */
int32_t approx_rt_param(int32_t *cell, int32_t dflt, const char *name);

/* Called by a module's destructor: forgets every cell registered in
 * [begin, end), which the runtime never writes again. The names stay
 * registered with their values. */
void approx_rt_release(int32_t *begin, int32_t *end);

/* Sets parameter `name` to `value` for all later reads. Names not yet
 * registered (their module not loaded yet) are remembered and applied when
 * they register. Returns 0. */
int approx_rt_set(const char *name, int32_t value);

/* Forgets every value set by approx_rt_set/approx_rt_load_config/
 * APPROX_CONFIG: parameters read their compile-time defaults again. */
void approx_rt_reset(void);

/* Loads a flat JSON object {"name": int, ...} and sets every entry.
 * Returns 0 on success; otherwise -1, and approx_rt_last_error() says
 * why (with the file name and line). Nothing is set on failure. */
int approx_rt_load_config(const char *path);

/* The largest configuration file read (an endless special file such as
 * /dev/zero must not grow memory without bound). */
#define APPROX_RT_MAX_CONFIG_BYTES (64 << 20)

/* One entry of a configuration file. */
typedef struct {
  char *name;
  int32_t value;
} approx_rt_entry;

/* Reads a flat JSON configuration {"name": int, ...} without applying it:
 * on success returns 0 and an array of *count entries in *entries (free it
 * with approx_rt_free_config); otherwise -1, and approx_rt_last_error()
 * names the file and line. Shared with the tuner so that one parser decides
 * what a configuration file is. */
int approx_rt_read_config(const char *path, approx_rt_entry **entries,
                          size_t *count);
void approx_rt_free_config(approx_rt_entry *entries, size_t count);

/* The current value of `name` in *value: returns 0 when the program has
 * read it at least once or it was set explicitly, -1 otherwise. */
int approx_rt_get(const char *name, int32_t *value);

/* Number of parameters the program has read so far, and their names. */
size_t approx_rt_num_params(void);
const char *approx_rt_param_name(size_t index);

/* The message of the last failed call in this thread, or "". */
const char *approx_rt_last_error(void);

/* ---- Buffers of compiled tensor code -------------------------------------
 * The pipeline lowers memref allocation to these (MLIR's generic allocation
 * functions). A freed buffer is kept for the next allocation of the same
 * size and alignment, up to APPROX_RT_BUFFER_CACHE_BYTES in all: an ML
 * function called again reuses its buffers instead of taking fresh pages
 * from the kernel (page faults and zeroing) on every call. Thread-safe. */
#define APPROX_RT_ALLOC_FN "_mlir_memref_to_llvm_alloc"
#define APPROX_RT_ALIGNED_ALLOC_FN "_mlir_memref_to_llvm_aligned_alloc"
#define APPROX_RT_FREE_FN "_mlir_memref_to_llvm_free"
#define APPROX_RT_BUFFER_CACHE_BYTES ((size_t)1 << 30)
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

/* ---- AMX tiles ------------------------------------------------------------
 * Tensor code whose int8 / bf16 matmuls run on Intel AMX tiles calls this on
 * entry to each function that uses them: Linux gives a process the tiles'
 * state only when asked (arch_prctl ARCH_REQ_XCOMP_PERM), and an AMX
 * instruction without it is SIGILL. Asked once per process; a refusal ends
 * the process with a message (the code cannot run without the tiles, and the
 * compiler used them only because its own process was granted them). */
#define APPROX_RT_AMX_FN "approx_rt_amx_permit"
void approx_rt_amx_permit(void);

/* The request itself: 0 when this process may use the AMX tiles (asked of
 * the kernel once; a grant is kept), -1 with errno set otherwise. The
 * compiler asks before it chooses the tiles. */
int approx_rt_amx_request(void);

#ifdef __cplusplus
}
#endif

#endif /* APPROX_RUNTIME_H */
