/*===- approx_files.h - reading and writing a user's files safely (plain C) ===*
 *
 * The file rules of the compiler's tools (tools/common/OutputFile.h,
 * include/approx/Support/BoundedRead.h) for the programs outside LLVM: the
 * LLM engine and approx-llm, and the compound systems' programs (rag.h).
 * Header only, C99 + POSIX.
 *
 * Reading: approx_read_file reads a whole file (a regular file, a pipe,
 * /dev/zero or "-" for stdin alike) up to a limit, so that no input makes
 * memory grow without bound; a directory or an oversize input is an error
 * that says so.
 *
 * Writing: an output is never one of the run's inputs (the same file under
 * any name is refused), an existing file that is not regular (/dev/null, a
 * pipe) is written in place and never replaced, and a regular file is
 * written to a fresh name beside it (unique per writer) and renamed into
 * place only by approx_output_commit. An output still staged when the
 * program exits (die(), exit(1)) or is ended by SIGINT, SIGTERM or SIGHUP is
 * removed, so a failed run leaves the previous file and no temporary.
 *
 * Errors: functions that can fail return NULL or -1 and write the reason,
 * naming the file, into `why` (APPROX_WHY_SIZE bytes).
 *===----------------------------------------------------------------------===*/
#ifndef APPROX_FILES_H
#define APPROX_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define APPROX_WHY_SIZE 1024

/* ---- Reading ------------------------------------------------------------ */

/* The whole of `path` ("-" is stdin), NUL-terminated, malloc'ed; its length
 * in *len (the text may hold NUL bytes: see approx_find_nul). NULL when it
 * cannot be read or holds more than `limit` bytes. */
static inline char *approx_read_file(const char *path, size_t limit, size_t *len, char *why) {
  int std_in = !strcmp(path, "-");
  struct stat st;
  if (!std_in && stat(path, &st) != 0) {
    snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  if (!std_in && S_ISDIR(st.st_mode)) {
    snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': it is a directory", path);
    return NULL;
  }
  if (!std_in && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit) {
    snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': larger than %zu bytes, the limit of this input",
             path, limit);
    return NULL;
  }
  int fd = std_in ? 0 : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = !std_in && S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 16, n = 0;
  char *buf = (char *)malloc(cap);
  for (;;) {
    if (!buf) {
      snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': out of memory", path);
      break;
    }
    if (n + 1 >= cap) {
      size_t bigger = cap * 2 > limit + 2 ? limit + 2 : cap * 2;
      char *grown = (char *)realloc(buf, bigger);
      if (!grown) {
        free(buf);
        buf = NULL;
        continue;
      }
      buf = grown;
      cap = bigger;
    }
    ssize_t got = read(fd, buf + n, cap - 1 - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      snprintf(why, APPROX_WHY_SIZE, "cannot read '%s': %s", path, strerror(errno));
      free(buf);
      buf = NULL;
      break;
    }
    if (got == 0)
      break;
    n += (size_t)got;
    if (n > limit) {
      snprintf(why, APPROX_WHY_SIZE,
               "cannot read '%s': larger than %zu bytes, the limit of this input", path, limit);
      free(buf);
      buf = NULL;
      break;
    }
  }
  if (!std_in)
    close(fd);
  if (!buf)
    return NULL;
  buf[n] = 0;
  *len = n;
  return buf;
}

/* The offset of the first NUL byte of buf[0, len), or -1. */
static inline long approx_find_nul(const char *buf, size_t len) {
  const char *z = (const char *)memchr(buf, 0, len);
  return z ? (long)(z - buf) : -1;
}

/* The 1-based line of byte `at` of `buf`. */
static inline long approx_line_of(const char *buf, size_t at) {
  long line = 1;
  for (size_t i = 0; i < at; i++)
    line += buf[i] == '\n';
  return line;
}

/* ---- Writing ------------------------------------------------------------ */

typedef struct {
  char *final;  /* the name asked for */
  char *staged; /* where it is written: `final` when in place */
  FILE *file;   /* open for writing; NULL after commit or discard */
} approx_output;

/* Outputs staged and not yet committed, removed at exit or on a signal. */
enum { APPROX_MAX_STAGED = 32 };
static char *approx_staged_[APPROX_MAX_STAGED];

static inline void approx_remove_staged_(void) {
  for (int i = 0; i < APPROX_MAX_STAGED; i++)
    if (approx_staged_[i])
      unlink(approx_staged_[i]); /* async-signal-safe */
}

static inline void approx_staged_signal_(int sig) {
  approx_remove_staged_();
  signal(sig, SIG_DFL);
  raise(sig);
}

static inline void approx_track_staged_(char *path, int track) {
  static int installed;
  if (!installed) {
    installed = 1;
    atexit(approx_remove_staged_);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
      struct sigaction old;
      if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        signal(sigs[i], approx_staged_signal_);
    }
  }
  for (int i = 0; i < APPROX_MAX_STAGED; i++)
    if (track ? !approx_staged_[i] : approx_staged_[i] == path) {
      approx_staged_[i] = track ? path : NULL;
      return;
    }
}

/* Whether `a` and `b` name the same existing file (links included). */
static inline int approx_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Whether `path` is written in place: stdout ("-") and existing files that
 * are not regular (renaming over /dev/null would replace the device). */
static inline int approx_written_in_place(const char *path) {
  struct stat st;
  return !strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

/* 0 when `out` is none of the `n` paths of `inputs` (NULL entries are
 * skipped); -1 with the reason otherwise. */
static inline int approx_check_not_an_input(const char *out, const char *const *inputs, int n,
                                     char *why) {
  if (approx_written_in_place(out))
    return 0;
  for (int i = 0; i < n; i++)
    if (inputs[i] && strcmp(inputs[i], "-") && approx_same_file(out, inputs[i])) {
      snprintf(why, APPROX_WHY_SIZE,
               "output '%s' is also an input ('%s'); refusing to overwrite it", out, inputs[i]);
      return -1;
    }
  return 0;
}

/* Opens `path` for writing as this header's rules say, after checking it
 * against `inputs` (n of them). 0, or -1 with the reason. With `file_too`
 * 0 the staged name is only created (for a library that opens it itself,
 * such as llama.cpp's quantizer): o->file stays NULL. */
static inline int approx_output_open_(approx_output *o, const char *path, const char *const *inputs,
                               int n, int file_too, char *why) {
  memset(o, 0, sizeof *o);
  if (approx_check_not_an_input(path, inputs, n, why) != 0)
    return -1;
  o->final = strdup(path);
  if (approx_written_in_place(path)) {
    o->staged = o->final;
    o->file = !strcmp(path, "-") ? stdout : file_too ? fopen(path, "wb") : NULL;
    if (file_too && !o->file) {
      snprintf(why, APPROX_WHY_SIZE, "cannot write '%s': %s", path, strerror(errno));
      free(o->final);
      return -1;
    }
    return 0;
  }
  size_t len = strlen(path) + 16;
  o->staged = (char *)malloc(len);
  snprintf(o->staged, len, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(o->staged);
  if (fd < 0) {
    snprintf(why, APPROX_WHY_SIZE, "cannot write '%s': %s", path, strerror(errno));
    free(o->staged);
    free(o->final);
    return -1;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* mkstemp makes 0600; a written file gets the usual mode */
  approx_track_staged_(o->staged, 1);
  if (file_too)
    o->file = fdopen(fd, "wb");
  else
    close(fd);
  if (file_too && !o->file) {
    snprintf(why, APPROX_WHY_SIZE, "cannot write '%s': %s", path, strerror(errno));
    approx_track_staged_(o->staged, 0);
    unlink(o->staged);
    free(o->staged);
    free(o->final);
    return -1;
  }
  return 0;
}

static inline int approx_output_open(approx_output *o, const char *path, const char *const *inputs,
                              int n, char *why) {
  return approx_output_open_(o, path, inputs, n, 1, why);
}

/* A staged name only (o->staged), for a writer that opens it itself. */
static inline int approx_output_stage(approx_output *o, const char *path, const char *const *inputs,
                               int n, char *why) {
  return approx_output_open_(o, path, inputs, n, 0, why);
}

static inline void approx_output_free_(approx_output *o) {
  if (o->staged != o->final)
    free(o->staged);
  free(o->final);
  memset(o, 0, sizeof *o);
}

/* Removes what was written (the previous file, if any, stays). */
static inline void approx_output_discard(approx_output *o) {
  if (!o->final)
    return;
  if (o->file && o->file != stdout)
    fclose(o->file);
  if (o->staged != o->final) {
    approx_track_staged_(o->staged, 0);
    unlink(o->staged);
  }
  approx_output_free_(o);
}

/* Closes the output and puts it in place. 0, or -1 with the reason (and the
 * staged file removed). */
static inline int approx_output_commit(approx_output *o, char *why) {
  int ok = 1;
  if (o->file == stdout)
    ok = fflush(stdout) == 0;
  else if (o->file)
    ok = fclose(o->file) == 0;
  o->file = NULL;
  if (!ok) {
    snprintf(why, APPROX_WHY_SIZE, "cannot write '%s': %s", o->final, strerror(errno));
    approx_output_discard(o);
    return -1;
  }
  if (o->staged != o->final) {
    if (rename(o->staged, o->final) != 0) {
      snprintf(why, APPROX_WHY_SIZE, "cannot write '%s': %s", o->final, strerror(errno));
      approx_output_discard(o);
      return -1;
    }
    approx_track_staged_(o->staged, 0);
  }
  approx_output_free_(o);
  return 0;
}

#endif /* APPROX_FILES_H */
