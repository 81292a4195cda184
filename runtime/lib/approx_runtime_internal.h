/*===- approx_runtime_internal.h - shared by the runtime's own files -----===*/
#ifndef APPROX_RUNTIME_INTERNAL_H
#define APPROX_RUNTIME_INTERNAL_H

/* Sets this thread's approx_rt_last_error() message (printf format). */
void approx_rt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole of the file `path`, NUL-terminated, its length in `*size`; at
 * most APPROX_RT_MAX_CONFIG_BYTES. NULL on failure, with
 * approx_rt_last_error() naming the file and `what` it is ("a
 * configuration", "a frontier"). The caller frees it. */
char *approx_rt_read_file(const char *path, const char *what, size_t *size);

#endif
