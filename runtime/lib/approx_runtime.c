/*===- approx_runtime.c - the approx runtime knob table ------------------===*/
#include "approx_runtime.h"
#include "approx_runtime_internal.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

enum { kMaxSlots = APPROX_RT_MAX_PARAMS };

/* A registered name (its own copy: the module that registered it may be
 * unloaded), its compile-time default, its current value and the cells of
 * the loaded modules that read it. */
typedef struct {
  char *name;
  int32_t dflt;
  int32_t value;
  _Atomic int32_t **cells;
  size_t numCells, capCells;
} Slot;

static Slot slots[kMaxSlots];

/* The runtime's own allocations (not a configuration file's parsing, which
 * reports errors): running out of memory stops the program. */
static void *orDie(void *p) {
  if (!p) {
    fprintf(stderr, "approx runtime: out of memory\n");
    abort();
  }
  return p;
}

/* Gives `s` the value `value` and writes it into every cell registered for
 * it (a racing read sees the old or the new value). Call with `mu` held. */
static void publish(Slot *s, int32_t value) {
  s->value = value;
  for (size_t i = 0; i < s->numCells; ++i)
    atomic_store_explicit(s->cells[i], value, memory_order_relaxed);
}

typedef approx_rt_entry Override;

static size_t numRegistered; /* slots[0, numRegistered), registration order */
static Override *overrides;
static size_t numOverrides, capOverrides;
static int envLoaded;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char lastError[1024];

/* The slot of registered name `name`, or numRegistered when it has none
 * (names are registered once each). Call with `mu` held. */
static size_t findRegisteredLocked(const char *name) {
  size_t r = 0;
  while (r < numRegistered && strcmp(slots[r].name, name) != 0)
    ++r;
  return r;
}

static void setError(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(lastError, sizeof lastError, fmt, ap);
  va_end(ap);
}

const char *approx_rt_last_error(void) { return lastError; }

void approx_rt_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(lastError, sizeof lastError, fmt, ap);
  va_end(ap);
}

/*--- a flat JSON object of name -> integer -------------------------------*/

typedef struct {
  const char *p, *end, *path;
  int line;
} Parser;

static void skipSpace(Parser *ps) {
  while (ps->p < ps->end && isspace((unsigned char)*ps->p)) {
    if (*ps->p == '\n')
      ++ps->line;
    ++ps->p;
  }
}

static int fail(Parser *ps, const char *what) {
  setError("%s:%d: %s", ps->path, ps->line, what);
  return -1;
}

static int parseString(Parser *ps, char **out) {
  if (ps->p >= ps->end || *ps->p != '"')
    return fail(ps, "expected a quoted parameter name");
  ++ps->p;
  size_t cap = 32, len = 0;
  char *s = malloc(cap);
  if (!s)
    return fail(ps, "out of memory");
  while (ps->p < ps->end && *ps->p != '"') {
    char c = *ps->p++;
    if (c == '\n') {
      free(s);
      return fail(ps, "unterminated string");
    }
    if (c == '\\') {
      if (ps->p >= ps->end) {
        free(s);
        return fail(ps, "unterminated escape");
      }
      c = *ps->p++;
      if (c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f') {
        c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r'
          : c == 'b' ? '\b' : '\f';
      } else if (c == 'u') {
        unsigned code = 0;
        for (int k = 0; k < 4; ++k) {
          int d = ps->p < ps->end ? *ps->p++ : 0;
          int v = isdigit(d) ? d - '0'
                  : (d >= 'a' && d <= 'f') ? d - 'a' + 10
                  : (d >= 'A' && d <= 'F') ? d - 'A' + 10 : -1;
          if (v < 0) {
            free(s);
            return fail(ps, "expected four hex digits after \\u");
          }
          code = code * 16 + (unsigned)v;
        }
        if (code == 0 || code >= 0x80) {
          free(s);
          return fail(ps, "only \\u0001 to \\u007f are supported in parameter names");
        }
        c = (char)code;
      } else if (c != '"' && c != '\\' && c != '/') {
        free(s);
        return fail(ps, "unsupported escape in parameter name");
      }
    }
    if (len + 2 > cap) {
      char *bigger = realloc(s, cap *= 2);
      if (!bigger) {
        free(s);
        return fail(ps, "out of memory");
      }
      s = bigger;
    }
    s[len++] = c;
  }
  if (ps->p >= ps->end) {
    free(s);
    return fail(ps, "unterminated string");
  }
  ++ps->p;
  s[len] = '\0';
  *out = s;
  return 0;
}

static int parseInt(Parser *ps, int32_t *out) {
  const char *start = ps->p;
  if (ps->p < ps->end && *ps->p == '-')
    ++ps->p;
  if (ps->p >= ps->end || !isdigit((unsigned char)*ps->p))
    return fail(ps, "expected an integer value");
  long long v = 0;
  while (ps->p < ps->end && isdigit((unsigned char)*ps->p)) {
    v = v * 10 + (*ps->p++ - '0');
    if (v > 2147483648LL)
      return fail(ps, "value does not fit in 32 bits");
  }
  if (ps->p < ps->end && (*ps->p == '.' || *ps->p == 'e' || *ps->p == 'E'))
    return fail(ps, "values must be integers");
  if (*start == '-')
    v = -v;
  if (v > INT32_MAX)
    return fail(ps, "value does not fit in 32 bits");
  *out = (int32_t)v;
  return 0;
}

/* Parses `text` into arrays of names/values (caller frees). */
static int parseConfig(const char *path, const char *text, size_t size,
                       Override **outList, size_t *outCount) {
  Parser ps = {text, text + size, path, 1};
  Override *list = NULL;
  size_t n = 0, cap = 0;
  skipSpace(&ps);
  if (ps.p >= ps.end || *ps.p != '{')
    return fail(&ps, "a configuration must be a JSON object");
  ++ps.p;
  skipSpace(&ps);
  if (ps.p < ps.end && *ps.p == '}') {
    ++ps.p;
  } else {
    for (;;) {
      skipSpace(&ps);
      char *name = NULL;
      int32_t value = 0;
      if (parseString(&ps, &name))
        goto error;
      skipSpace(&ps);
      if (ps.p >= ps.end || *ps.p != ':') {
        free(name);
        fail(&ps, "expected ':' after the parameter name");
        goto error;
      }
      ++ps.p;
      skipSpace(&ps);
      if (parseInt(&ps, &value)) {
        free(name);
        goto error;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        Override *bigger = realloc(list, cap * sizeof *list);
        if (!bigger) {
          free(name);
          fail(&ps, "out of memory");
          goto error;
        }
        list = bigger;
      }
      list[n].name = name;
      list[n].value = value;
      ++n;
      skipSpace(&ps);
      if (ps.p < ps.end && *ps.p == ',') {
        ++ps.p;
        continue;
      }
      if (ps.p < ps.end && *ps.p == '}') {
        ++ps.p;
        break;
      }
      fail(&ps, "expected ',' or '}'");
      goto error;
    }
  }
  skipSpace(&ps);
  if (ps.p != ps.end) {
    fail(&ps, "trailing characters after the JSON object");
    goto error;
  }
  *outList = list;
  *outCount = n;
  return 0;
error:
  for (size_t i = 0; i < n; ++i)
    free(list[i].name);
  free(list);
  return -1;
}

char *approx_rt_read_file(const char *path, const char *what, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    setError("%s: cannot open %s: %s", path, what, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n > APPROX_RT_MAX_CONFIG_BYTES) {
      fclose(f);
      free(buf);
      setError("%s: larger than %d MiB, the limit of %s", path,
               APPROX_RT_MAX_CONFIG_BYTES >> 20, what);
      return NULL;
    }
    if (n == cap) {
      char *bigger = realloc(buf, (cap *= 2) + 1);
      if (!bigger)
        free(buf);
      buf = bigger;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    setError("%s: cannot read %s%s", path, what, buf ? "" : ": out of memory");
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  *size = n;
  return buf;
}

int approx_rt_read_config(const char *path, approx_rt_entry **list,
                          size_t *count) {
  size_t size;
  char *buf = approx_rt_read_file(path, "a configuration", &size);
  if (!buf)
    return -1;
  int rc = parseConfig(path, buf, size, list, count);
  free(buf);
  return rc;
}

void approx_rt_free_config(approx_rt_entry *entries, size_t count) {
  for (size_t i = 0; i < count; ++i)
    free(entries[i].name);
  free(entries);
}

/*--- the table (callers hold mu) -----------------------------------------*/

static void setLocked(const char *name, int32_t value) {
  size_t i = 0;
  while (i < numOverrides && strcmp(overrides[i].name, name) != 0)
    ++i;
  if (i == numOverrides) {
    if (numOverrides == capOverrides) {
      size_t cap = capOverrides ? 2 * capOverrides : 16;
      overrides = orDie(realloc(overrides, cap * sizeof *overrides));
      capOverrides = cap;
    }
    overrides[i].name = orDie(strdup(name));
    ++numOverrides;
  }
  overrides[i].value = value;
  size_t r = findRegisteredLocked(name);
  if (r < numRegistered)
    publish(&slots[r], value);
}

/* The names APPROX_CONFIG set, reported at exit when no module registered
 * them (modules register every knob when loaded): a misspelled name must
 * not silently leave its knob at the default. */
static char **envNames;
static size_t numEnvNames;
static const char *envPath;

static void reportUnknownEnvNames(void) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < numEnvNames; ++i) {
    if (findRegisteredLocked(envNames[i]) == numRegistered)
      fprintf(stderr,
              "approx runtime: warning: APPROX_CONFIG (%s) sets '%s', which is "
              "not a knob of this program (misspelled?)\n",
              envPath, envNames[i]);
  }
  pthread_mutex_unlock(&mu);
}

/* APPROX_CONFIG is applied once, before any explicit setting, so that
 * approx_rt_set() and approx_rt_load_config() take priority over it. A bad
 * file stops the program: running with a configuration other than the one
 * asked for would make every measurement wrong. */
static void loadEnvLocked(void) {
  if (envLoaded)
    return;
  envLoaded = 1;
  const char *path = getenv("APPROX_CONFIG");
  if (!path || !*path)
    return;
  Override *list;
  size_t n;
  if (approx_rt_read_config(path, &list, &n)) {
    fprintf(stderr, "approx runtime: APPROX_CONFIG: %s\n", lastError);
    /* exit() runs the modules' destructors, which take `mu` to release
     * their cells: holding it would deadlock. */
    pthread_mutex_unlock(&mu);
    exit(2);
  }
  envNames = malloc((n ? n : 1) * sizeof *envNames);
  for (size_t i = 0; i < n; ++i) {
    setLocked(list[i].name, list[i].value);
    if (envNames)
      envNames[numEnvNames++] = list[i].name;
    else
      free(list[i].name);
  }
  free(list);
  envPath = path;
  atexit(reportUnknownEnvNames);
}

int32_t approx_rt_param(int32_t *cell, int32_t dflt, const char *name) {
  _Atomic int32_t *ref = (_Atomic int32_t *)cell;
  pthread_mutex_lock(&mu);
  loadEnvLocked();
  size_t r = findRegisteredLocked(name);
  if (r == numRegistered) {
    if (numRegistered == kMaxSlots) {
      fprintf(stderr, "approx runtime: more than %d distinct parameters in "
                      "one process ('%s')\n", kMaxSlots, name);
      abort();
    }
    slots[r].name = orDie(strdup(name));
    slots[r].dflt = dflt;
    slots[r].value = dflt;
    for (size_t i = 0; i < numOverrides; ++i)
      if (strcmp(overrides[i].name, name) == 0)
        slots[r].value = overrides[i].value;
    ++numRegistered;
  }
  Slot *s = &slots[r];
  size_t i = 0;
  while (i < s->numCells && s->cells[i] != ref)
    ++i;
  if (i == s->numCells) {
    if (s->numCells == s->capCells) {
      s->capCells = s->capCells ? 2 * s->capCells : 4;
      s->cells = orDie(realloc(s->cells, s->capCells * sizeof *s->cells));
    }
    s->cells[s->numCells++] = ref;
  }
  atomic_store_explicit(ref, s->value, memory_order_relaxed);
  int32_t value = s->value;
  pthread_mutex_unlock(&mu);
  return value;
}

void approx_rt_release(int32_t *begin, int32_t *end) {
  uintptr_t lo = (uintptr_t)begin, hi = (uintptr_t)end;
  pthread_mutex_lock(&mu);
  for (size_t r = 0; r < numRegistered; ++r) {
    Slot *s = &slots[r];
    size_t kept = 0;
    for (size_t i = 0; i < s->numCells; ++i) {
      uintptr_t cell = (uintptr_t)s->cells[i];
      if (cell < lo || cell >= hi)
        s->cells[kept++] = s->cells[i];
    }
    s->numCells = kept;
  }
  pthread_mutex_unlock(&mu);
}

int approx_rt_set(const char *name, int32_t value) {
  pthread_mutex_lock(&mu);
  loadEnvLocked();
  setLocked(name, value);
  pthread_mutex_unlock(&mu);
  return 0;
}

void approx_rt_reset(void) {
  pthread_mutex_lock(&mu);
  envLoaded = 1;
  for (size_t i = 0; i < numOverrides; ++i)
    free(overrides[i].name);
  numOverrides = 0;
  for (size_t r = 0; r < numRegistered; ++r)
    publish(&slots[r], slots[r].dflt);
  pthread_mutex_unlock(&mu);
}

int approx_rt_load_config(const char *path) {
  Override *list;
  size_t n;
  if (approx_rt_read_config(path, &list, &n))
    return -1;
  pthread_mutex_lock(&mu);
  loadEnvLocked();
  for (size_t i = 0; i < n; ++i) {
    setLocked(list[i].name, list[i].value);
    free(list[i].name);
  }
  pthread_mutex_unlock(&mu);
  free(list);
  return 0;
}

int approx_rt_get(const char *name, int32_t *value) {
  int rc = -1;
  pthread_mutex_lock(&mu);
  loadEnvLocked();
  size_t r = findRegisteredLocked(name);
  if (r < numRegistered) {
    *value = slots[r].value;
    rc = 0;
  }
  for (size_t i = 0; i < numOverrides && rc; ++i)
    if (strcmp(overrides[i].name, name) == 0) {
      *value = overrides[i].value;
      rc = 0;
    }
  pthread_mutex_unlock(&mu);
  if (rc)
    setError("parameter '%s' has not been read or set", name);
  return rc;
}

size_t approx_rt_num_params(void) {
  pthread_mutex_lock(&mu);
  size_t n = numRegistered;
  pthread_mutex_unlock(&mu);
  return n;
}

const char *approx_rt_param_name(size_t index) {
  pthread_mutex_lock(&mu);
  const char *name = index < numRegistered ? slots[index].name : NULL;
  pthread_mutex_unlock(&mu);
  return name;
}

/* ---- Buffers of compiled tensor code ---------------------------------- */

/* Every buffer carries a header just below the pointer handed out; the
 * block itself starts `align` bytes below it (align >= the header). A freed
 * buffer goes on the free list of its (size, align) class, linked through
 * its first bytes. */
typedef struct {
  size_t size, align;
} BufferHeader;
typedef struct {
  size_t size, align;
  void *free; /* the class's free buffers */
} BufferClass;
enum { kBufferAlign = 64, kMaxBufferClasses = 512 };
static BufferClass bufferClasses[kMaxBufferClasses];
static size_t numBufferClasses, cachedBytes;
static pthread_mutex_t bufferMu = PTHREAD_MUTEX_INITIALIZER;

static BufferHeader *headerOf(void *p) { return (BufferHeader *)p - 1; }

/* The class of (size, align), created if there is room; NULL otherwise.
 * Call with bufferMu held. */
static BufferClass *bufferClassLocked(size_t size, size_t align, int create) {
  for (size_t i = 0; i < numBufferClasses; ++i)
    if (bufferClasses[i].size == size && bufferClasses[i].align == align)
      return &bufferClasses[i];
  if (!create || numBufferClasses == kMaxBufferClasses)
    return NULL;
  BufferClass *c = &bufferClasses[numBufferClasses++];
  c->size = size;
  c->align = align;
  c->free = NULL;
  return c;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  size_t align = alignment > kBufferAlign ? alignment : kBufferAlign;
  if (size < sizeof(void *)) /* room for the free list's link */
    size = sizeof(void *);
  pthread_mutex_lock(&bufferMu);
  BufferClass *c = bufferClassLocked(size, align, 0);
  void *p = c ? c->free : NULL;
  if (p) {
    memcpy(&c->free, p, sizeof(void *));
    cachedBytes -= size;
  }
  pthread_mutex_unlock(&bufferMu);
  if (p)
    return p;
  void *block = NULL;
  if (size > SIZE_MAX - align || posix_memalign(&block, align, align + size))
    orDie(NULL);
  p = (char *)block + align;
  headerOf(p)->size = size;
  headerOf(p)->align = align;
  return p;
}

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(kBufferAlign, size);
}

int approx_rt_amx_request(void) {
  static atomic_int granted;
  if (atomic_load_explicit(&granted, memory_order_acquire))
    return 0;
#if defined(__linux__) && defined(__x86_64__)
  /* ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA (asm/prctl.h). */
  if (syscall(SYS_arch_prctl, 0x1023, 18) == 0) {
    atomic_store_explicit(&granted, 1, memory_order_release);
    return 0;
  }
#else
  errno = ENOSYS;
#endif
  return -1;
}

void approx_rt_amx_permit(void) {
  if (approx_rt_amx_request() == 0)
    return;
#if defined(__linux__) && defined(__x86_64__)
  fprintf(stderr,
          "approx runtime: the kernel refused this process the AMX tile "
          "state (arch_prctl: %s); this code's int8/bf16 matmuls were "
          "compiled for AMX tiles (rebuild it with --approx-dot-product=avx512 "
          "or loops)\n",
          strerror(errno));
#else
  fprintf(stderr, "approx runtime: this code uses AMX tiles, which need "
                  "Linux on x86-64\n");
#endif
  abort();
}

void _mlir_memref_to_llvm_free(void *p) {
  if (!p)
    return;
  size_t size = headerOf(p)->size, align = headerOf(p)->align;
  pthread_mutex_lock(&bufferMu);
  BufferClass *c = cachedBytes + size <= APPROX_RT_BUFFER_CACHE_BYTES
                       ? bufferClassLocked(size, align, 1)
                       : NULL;
  if (c) {
    memcpy(p, &c->free, sizeof(void *));
    c->free = p;
    cachedBytes += size;
  }
  pthread_mutex_unlock(&bufferMu);
  if (!c)
    free((char *)p - align);
}
