/*===- approx_runtime_internal.h - shared by the runtime's own files -----===*/
#ifndef APPROX_RUNTIME_INTERNAL_H
#define APPROX_RUNTIME_INTERNAL_H

/* Sets this thread's approx_rt_last_error() message (printf format). */
void approx_rt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
