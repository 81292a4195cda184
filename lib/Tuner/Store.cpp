//===- Store.cpp - the results store (SQLite) -----------------------------===//
#include "approx/Tuner/Store.h"

#include <algorithm>
#include <cmath>
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <sys/utsname.h>
#include <thread>

namespace approx::tune {

std::string spaceFingerprint(const Space &space, bool dynamic) {
  // FNV-1a over a canonical description.
  std::string text = dynamic ? "dynamic;" : "static;";
  for (const TunableParam &p : space.params) {
    text += p.name + ":" + kindName(p.kind) + ":" + std::to_string(p.lower) +
            ":" + std::to_string(p.upper);
    for (int64_t v : p.values)
      text += "," + std::to_string(v);
    text += ";";
  }
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

std::string machineInfo() {
  std::string cpu;
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  utsname u{};
  uname(&u);
  std::string os;
  std::ifstream release("/etc/os-release");
  for (std::string line; std::getline(release, line);)
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      os = line.substr(12);
      if (os.size() >= 2 && os.front() == '"')
        os = os.substr(1, os.size() - 2);
    }
  return (cpu.empty() ? std::string(u.machine) : cpu) + ", " +
         std::to_string(std::thread::hardware_concurrency()) + " cores, " +
         (os.empty() ? std::string(u.sysname) : os) + ", " + u.nodename +
         ", kernel " + u.release;
}

std::string formatConfig(const Config &config) {
  std::string s;
  for (const auto &[name, value] : config)
    s += (s.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return s;
}

bool parseConfig(const std::string &text, Config &config) {
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return false;
    char *end = nullptr;
    long long v = std::strtoll(item.c_str() + eq + 1, &end, 10);
    if (end == item.c_str() + eq + 1 || *end)
      return false;
    config[item.substr(0, eq)] = v;
  }
  return true;
}

namespace {

const char *kSchema = R"sql(
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY, started TEXT, space TEXT, fingerprint TEXT,
  mode TEXT, seed INTEGER, qos_min REAL, workers INTEGER, command TEXT,
  machine TEXT);
CREATE TABLE IF NOT EXISTS evaluations(
  run INTEGER REFERENCES runs(id), seq INTEGER, input_set TEXT,
  technique TEXT, config TEXT, status TEXT, time REAL, qos REAL,
  samples TEXT, message TEXT, detail TEXT, clock REAL,
  PRIMARY KEY(run, input_set, seq));
)sql";

/// A prepared statement, finalised on scope exit.
struct Statement {
  sqlite3_stmt *stmt = nullptr;
  Statement(sqlite3 *db, const char *sql) {
    sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt); }
  explicit operator bool() const { return stmt; }
  void bind(int i, const std::string &s) {
    sqlite3_bind_text(stmt, i, s.c_str(), int(s.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, double v) { sqlite3_bind_double(stmt, i, v); }
  void bind(int i, long long v) { sqlite3_bind_int64(stmt, i, v); }
  std::string text(int i) {
    const unsigned char *t = sqlite3_column_text(stmt, i);
    return t ? reinterpret_cast<const char *>(t) : "";
  }
};

RunInfo readRun(Statement &s) {
  RunInfo r;
  r.id = long(sqlite3_column_int64(s.stmt, 0));
  r.started = s.text(1);
  r.space = s.text(2);
  r.fingerprint = s.text(3);
  r.mode = s.text(4);
  r.seed = uint64_t(sqlite3_column_int64(s.stmt, 5));
  r.qosMin = sqlite3_column_double(s.stmt, 6);
  r.workers = unsigned(sqlite3_column_int64(s.stmt, 7));
  r.command = s.text(8);
  r.machine = s.text(9);
  return r;
}

const char *kRunColumns = "id, started, space, fingerprint, mode, seed, "
                          "qos_min, workers, command, machine";

} // namespace

std::unique_ptr<Store> Store::open(const std::string &path,
                                   std::string &error) {
  sqlite3 *db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                          SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    error = "cannot open the results store '" + path +
            "': " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_busy_timeout(db, 5000);
  // A damaged page is found now, before anything is read or written (a
  // resumed run once warned, re-measured everything and recorded nothing).
  // (The statement is finalised before the database is closed.)
  std::string damage, notAStore;
  {
    Statement check(db, "PRAGMA quick_check");
    int rc = SQLITE_ERROR;
    while (check && (rc = sqlite3_step(check.stmt)) == SQLITE_ROW) {
      std::string line = check.text(0);
      std::replace(line.begin(), line.end(), '\n', ' ');
      if (line != "ok" && damage.size() < 400)
        damage += (damage.empty() ? "" : "; ") + line;
    }
    if (!check || rc != SQLITE_DONE)
      (sqlite3_errcode(db) == SQLITE_CORRUPT ? damage : notAStore) =
          sqlite3_errmsg(db);
  }
  if (!notAStore.empty() || !damage.empty()) {
    error = !notAStore.empty()
                ? "'" + path + "' is not a usable results store: " + notAStore
                : "'" + path + "' is a damaged results store (" + damage +
                      "); it is left as it is: move it away to start a new "
                      "store, or restore a copy";
    sqlite3_close(db);
    return nullptr;
  }
  char *msg = nullptr;
  if (sqlite3_exec(db, kSchema, nullptr, nullptr, &msg) != SQLITE_OK) {
    error = "'" + path + "' is not a usable results store: " +
            (msg ? msg : "unknown error");
    sqlite3_free(msg);
    sqlite3_close(db);
    return nullptr;
  }
  // Stores written before per-input scores, or the search's clock, were
  // kept gain their columns (empty in the old rows).
  for (const char *column : {"detail TEXT", "clock REAL"}) {
    std::string name = std::string(column).substr(0, std::strcspn(column, " "));
    Statement probe(db, ("SELECT " + name + " FROM evaluations LIMIT 0").c_str());
    if (!probe)
      sqlite3_exec(db,
                   ("ALTER TABLE evaluations ADD COLUMN " + std::string(column))
                       .c_str(),
                   nullptr, nullptr, nullptr);
  }
  // A store whose tables lack a column the tuner writes (renamed,
  // dropped) would accept nothing: refuse it now, not after the search.
  for (const char *probe :
       {"SELECT id, started, space, fingerprint, mode, seed, qos_min, "
        "workers, command, machine FROM runs LIMIT 0",
        "SELECT run, seq, input_set, technique, config, status, time, qos, "
        "samples, message, detail, clock FROM evaluations LIMIT 0"}) {
    Statement s(db, probe);
    if (!s) {
      error = "'" + path + "' is not a usable results store: " +
              sqlite3_errmsg(db);
      sqlite3_close(db);
      return nullptr;
    }
  }
  return std::unique_ptr<Store>(new Store(db, path));
}

Store::~Store() { sqlite3_close(db); }

RunInfo newRunInfo(const Space &space, const TuneOptions &options,
                   const std::string &spaceName, const std::string &command) {
  RunInfo run;
  run.space = spaceName;
  run.fingerprint = spaceFingerprint(space, options.dynamic);
  run.mode = options.dynamic ? "dynamic" : "static";
  run.seed = options.seed;
  run.qosMin = options.qosMin;
  run.workers = options.workers;
  run.command = command;
  run.machine = machineInfo();
  return run;
}

std::string storedConfigProblem(const Space &space, const Config &config) {
  for (const TunableParam &p : space.params)
    if (!config.count(p.name))
      return "it does not name parameter '" + p.name + "'";
  std::vector<std::string> problems = space.validate(config);
  return problems.empty() ? "" : problems.front();
}

bool loadPrior(Store &store, const RunInfo &run, const Space &space,
               TuneOptions &options, size_t &next, std::string &error) {
  if (!store.evaluations(run.id, InputSet::Tuning, options.prior, error))
    return false;
  for (const Evaluation &e : options.prior)
    if (std::string why = storedConfigProblem(space, e.config); !why.empty()) {
      error = "results store '" + store.name() + "': run " +
              std::to_string(run.id) + ", tuning evaluation " +
              std::to_string(e.seq) + ": configuration '" +
              formatConfig(e.config) + "' is not a point of this space (" +
              why + ")";
      return false;
    }
  next = 0;
  for (const Evaluation &e : options.prior)
    next = std::max(next, e.seq + 1);
  return true;
}

bool Store::beginRun(RunInfo &run, std::string &error) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  run.started = stamp;
  Statement s(db, "INSERT INTO runs(started, space, fingerprint, mode, seed, "
                  "qos_min, workers, command, machine) "
                  "VALUES(?,?,?,?,?,?,?,?,?)");
  if (!s) {
    error = sqlite3_errmsg(db);
    return false;
  }
  s.bind(1, run.started);
  s.bind(2, run.space);
  s.bind(3, run.fingerprint);
  s.bind(4, run.mode);
  s.bind(5, (long long)run.seed);
  s.bind(6, run.qosMin);
  s.bind(7, (long long)run.workers);
  s.bind(8, run.command);
  s.bind(9, run.machine);
  if (sqlite3_step(s.stmt) != SQLITE_DONE) {
    error = sqlite3_errmsg(db);
    return false;
  }
  run.id = long(sqlite3_last_insert_rowid(db));
  return true;
}

bool Store::readFailed(std::string &error) {
  error = "cannot read the results store '" + path + "': " + sqlite3_errmsg(db);
  return false;
}

bool Store::lastRun(const std::string &fingerprint, std::optional<RunInfo> &out,
                    std::string &error) {
  out.reset();
  std::string sql = std::string("SELECT ") + kRunColumns +
                    " FROM runs WHERE fingerprint = ? ORDER BY id DESC LIMIT 1";
  Statement s(db, sql.c_str());
  if (!s)
    return readFailed(error);
  s.bind(1, fingerprint);
  int rc = sqlite3_step(s.stmt);
  if (rc == SQLITE_ROW)
    out = readRun(s);
  else if (rc != SQLITE_DONE)
    return readFailed(error);
  return true;
}

bool Store::runs(std::vector<RunInfo> &out, std::string &error) {
  out.clear();
  std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id";
  Statement s(db, sql.c_str());
  if (!s)
    return readFailed(error);
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW)
    out.push_back(readRun(s));
  return rc == SQLITE_DONE || readFailed(error);
}

bool Store::add(long run, InputSet set, const Evaluation &e,
                std::string &error) {
  Statement s(db, "INSERT OR REPLACE INTO evaluations(run, seq, input_set, "
                  "technique, config, status, time, qos, samples, message, "
                  "detail, clock) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) {
    error = sqlite3_errmsg(db);
    return false;
  }
  std::string samples;
  for (double t : e.result.samples) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", t);
    samples += (samples.empty() ? "" : ",") + std::string(buf);
  }
  s.bind(1, (long long)run);
  s.bind(2, (long long)e.seq);
  s.bind(3, std::string(inputSetName(set)));
  s.bind(4, e.technique);
  s.bind(5, formatConfig(e.config));
  s.bind(6, std::string(statusName(e.result.status)));
  s.bind(7, e.result.time);
  s.bind(8, e.result.qos);
  s.bind(9, samples);
  s.bind(10, e.result.message);
  s.bind(11, formatQosDetail(e.result.detail));
  s.bind(12, e.clock);
  if (sqlite3_step(s.stmt) != SQLITE_DONE) {
    error = sqlite3_errmsg(db);
    return false;
  }
  return true;
}

bool decodeEvaluation(const StoredRow &row, Evaluation &e, std::string &error) {
  e = Evaluation{};
  if (row.seq < 0) {
    error = "sequence number " + std::to_string(row.seq) + " is negative";
    return false;
  }
  e.seq = size_t(row.seq);
  e.technique = row.technique;
  if (!parseConfig(row.config, e.config) || e.config.empty()) {
    error = "configuration '" + row.config + "' is not name=value,...";
    return false;
  }
  if (!parseStatus(row.status, e.result.status)) {
    error = "unknown status '" + row.status + "'";
    return false;
  }
  if (!std::isfinite(row.time) || row.time < 0 || !std::isfinite(row.qos)) {
    error = "time " + std::to_string(row.time) + " or QoS " +
            std::to_string(row.qos) + " is not a finite number";
    return false;
  }
  e.result.time = row.time;
  e.result.qos = row.qos;
  std::stringstream samples(row.samples);
  for (std::string t; std::getline(samples, t, ',');) {
    char *end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end || !std::isfinite(v) || v < 0) {
      error = "time sample '" + t + "' is not a finite number";
      return false;
    }
    e.result.samples.push_back(v);
  }
  e.result.message = row.message;
  if (!std::isfinite(row.clock) || row.clock < 0) {
    error = "clock " + std::to_string(row.clock) + " is not a finite number";
    return false;
  }
  e.clock = row.clock;
  if (!row.detail.empty() &&
      !parseQosDetail(row.detail, "detail", e.result.detail, error))
    return false;
  return true;
}

bool Store::evaluations(long run, InputSet set, std::vector<Evaluation> &out,
                        std::string &error) {
  out.clear();
  Statement s(db, "SELECT seq, technique, config, status, time, qos, samples, "
                  "message, detail, clock FROM evaluations WHERE run = ? AND "
                  "input_set = ? ORDER BY seq");
  if (!s)
    return readFailed(error);
  s.bind(1, (long long)run);
  s.bind(2, std::string(inputSetName(set)));
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW) {
    StoredRow row;
    row.seq = sqlite3_column_int64(s.stmt, 0);
    row.technique = s.text(1);
    row.config = s.text(2);
    row.status = s.text(3);
    row.time = sqlite3_column_double(s.stmt, 4);
    row.qos = sqlite3_column_double(s.stmt, 5);
    row.samples = s.text(6);
    row.message = s.text(7);
    row.detail = s.text(8);
    row.clock = sqlite3_column_double(s.stmt, 9);
    Evaluation e;
    if (!decodeEvaluation(row, e, error)) {
      error = "results store '" + path + "': run " + std::to_string(run) +
              ", " + inputSetName(set) + " evaluation " +
              std::to_string(row.seq) + ": " + error +
              " (a damaged store; it is left as it is)";
      return false;
    }
    out.push_back(std::move(e));
  }
  return rc == SQLITE_DONE || readFailed(error);
}

} // namespace approx::tune
