//===- Distributed.cpp - a tuning run's evaluations over MPI --------------===//
#include "approx/Tuner/Distributed.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#ifdef APPROX_HAVE_MPI
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#endif

namespace approx::tune::distributed {

namespace {

// Messages are text: a request is the command options, the input set and
// the configuration; a result is a measurement.
std::string encodeRequest(const CommandOptions &o, InputSet set,
                          const Config &c) {
  std::ostringstream os;
  os.precision(17);
  os << o.repetitions << ' ' << o.timeoutSeconds << ' ' << o.timeTolerance
     << ' ' << int(set) << ' ' << c.size() << ' '
     << o.command.size() << '\n'
     << o.command;
  for (const auto &[name, value] : c)
    os << '\n' << name << ' ' << value;
  return os.str();
}

bool decodeRequest(const std::string &text, CommandOptions &o, InputSet &set,
                   Config &c) {
  std::istringstream is(text);
  int inputSet = 0;
  size_t entries = 0, commandSize = 0;
  if (!(is >> o.repetitions >> o.timeoutSeconds >> o.timeTolerance >>
        inputSet >> entries >> commandSize) ||
      is.get() != '\n')
    return false;
  o.command.resize(commandSize);
  if (!is.read(o.command.data(), std::streamsize(commandSize)))
    return false;
  if (inputSet < int(InputSet::Tuning) || inputSet > int(InputSet::Screen))
    return false;
  set = InputSet(inputSet);
  for (size_t i = 0; i < entries; ++i) {
    std::string name;
    int64_t value;
    if (!(is >> name >> value))
      return false;
    c[name] = value;
  }
  return true;
}

std::string encodeMeasurement(const Measurement &m) {
  std::ostringstream os;
  os.precision(17);
  os << statusName(m.status) << ' ' << m.time << ' ' << m.qos << ' '
     << m.samples.size();
  for (double s : m.samples)
    os << ' ' << s;
  os << ' ' << m.detail.size();
  for (const InputScore &d : m.detail)
    os << ' ' << d.id << ' ' << d.score;
  os << '\n' << m.message;
  return os.str();
}

Measurement decodeMeasurement(const std::string &text) {
  std::istringstream is(text);
  Measurement m;
  std::string status;
  size_t n = 0;
  if (!(is >> status) || !parseStatus(status, m.status) ||
      !(is >> m.time >> m.qos >> n)) {
    m.status = EvalStatus::Failed;
    m.message = "malformed result from a worker";
    return m;
  }
  m.samples.resize(n);
  for (double &s : m.samples)
    is >> s;
  size_t scores = 0;
  if (!(is >> scores) || scores > (size_t(1) << 24))
    is.setstate(std::ios::failbit);
  m.detail.resize(is ? scores : 0);
  for (InputScore &d : m.detail)
    is >> d.id >> d.score;
  if (!is) {
    m = Measurement();
    m.status = EvalStatus::Failed;
    m.message = "malformed result from a worker";
    return m;
  }
  is.get();
  std::getline(is, m.message, '\0');
  return m;
}

} // namespace

#ifdef APPROX_HAVE_MPI

namespace {
enum Tag { Request = 1, Result = 2, Heartbeat = 3, Stop = 4, Ping = 5 };
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void send(const std::string &s, int to, Tag tag) {
  MPI_Send(s.data(), int(s.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

/// The next message, if one is waiting: its source, tag and bytes.
bool receive(int from, int &source, int &tag, std::string &bytes) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  if (!flag)
    return false;
  int count = 0;
  MPI_Get_count(&st, MPI_CHAR, &count);
  bytes.assign(size_t(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  source = st.MPI_SOURCE;
  tag = st.MPI_TAG;
  return true;
}
} // namespace

bool available() { return true; }

World init(int &argc, char **&argv) {
  // Rank 0 calls MPI from its dispatching thread, then finalizes from the
  // main one: serialized.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  // A lost worker must not end the job through an error in a call.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  return w;
}

void finalize() { MPI_Finalize(); }

void abortJob(int code) {
  std::fflush(nullptr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

int serveWorker() {
  constexpr double kCoordinatorSilence = 30;
  Clock::time_point heard = Clock::now();
  while (true) {
    int source, tag;
    std::string bytes;
    if (!receive(0, source, tag, bytes)) {
      if (since(heard) > kCoordinatorSilence) {
        std::fprintf(stderr, "approx-tune worker: no word from the "
                             "coordinator for %.0f s; exiting\n",
                     kCoordinatorSilence);
        return 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    heard = Clock::now();
    if (tag == Stop)
      return 0;
    if (tag != Request)
      continue; // a ping
    CommandOptions options;
    InputSet set;
    Config config;
    Measurement m;
    if (!decodeRequest(bytes, options, set, config)) {
      m.status = EvalStatus::Failed;
      m.message = "malformed request from the coordinator";
    } else {
      // Measured on a thread of its own; this one (MPI's) says it is alive.
      auto running = std::async(std::launch::async, [&] {
        return commandEvaluator(options)(config, set);
      });
      while (running.wait_for(std::chrono::seconds(1)) !=
             std::future_status::ready)
        send("", 0, Heartbeat);
      m = running.get();
    }
    send(encodeMeasurement(m), 0, Result);
    heard = Clock::now();
  }
}

struct Coordinator::Impl {
  struct Job {
    std::string request;
    std::promise<Measurement> result;
    unsigned tries = 0;
  };
  struct Worker {
    int rank;
    bool alive = true;
    std::shared_ptr<Job> job;
    Clock::time_point heard = Clock::now();
  };

  Options options;
  std::vector<Worker> workers;
  std::mutex mutex;
  std::deque<std::shared_ptr<Job>> queue;
  std::atomic<bool> stopping{false};
  bool allLostTold = false;
  std::atomic<unsigned> alive{0};
  std::thread dispatcher;

  void run() {
    Clock::time_point lastPing = Clock::now();
    while (true) {
      bool busy = false, idle = false;
      {
        std::lock_guard<std::mutex> lock(mutex);
        for (Worker &w : workers) {
          if (w.alive && !w.job && !queue.empty()) {
            w.job = queue.front();
            queue.pop_front();
            w.heard = Clock::now();
            send(w.job->request, w.rank, Request);
          }
          busy |= w.job != nullptr;
        }
        idle = !busy && queue.empty();
      }
      if (idle && stopping)
        break;
      int source, tag;
      std::string bytes;
      bool got = receive(MPI_ANY_SOURCE, source, tag, bytes);
      std::lock_guard<std::mutex> lock(mutex);
      if (got && source >= 1 && size_t(source) <= workers.size()) {
        Worker &w = workers[size_t(source - 1)];
        w.heard = Clock::now();
        if (tag == Result && w.job) {
          w.job->result.set_value(decodeMeasurement(bytes));
          w.job = nullptr;
        }
      }
      for (Worker &w : workers)
        if (w.alive && w.job && since(w.heard) > options.lostAfterSeconds)
          lose(w);
      if (alive == 0 && !allLostTold) {
        allLostTold = true;
        Measurement m;
        m.status = EvalStatus::Failed;
        m.message = "no worker left";
        for (auto &job : queue)
          job->result.set_value(m);
        queue.clear();
        if (options.onAllLost)
          options.onAllLost();
      }
      if (since(lastPing) > 5) {
        for (Worker &w : workers)
          if (w.alive && !w.job)
            send("", w.rank, Ping);
        lastPing = Clock::now();
      }
      if (!got)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (Worker &w : workers)
      if (w.alive)
        send("", w.rank, Stop);
  }

  /// A silent worker: its evaluation goes back to the front of the queue
  /// (or fails after 3 tries).
  void lose(Worker &w) {
    w.alive = false;
    --alive;
    std::shared_ptr<Job> job = std::move(w.job);
    if (options.onWorkerLost)
      options.onWorkerLost(w.rank, job->request);
    if (++job->tries >= 3) {
      Measurement m;
      m.status = EvalStatus::Failed;
      m.message = "3 workers were lost while measuring it";
      job->result.set_value(m);
      return;
    }
    queue.push_front(std::move(job));
  }
};

Coordinator::Coordinator(World world, Options options)
    : impl(std::make_unique<Impl>()) {
  impl->options = std::move(options);
  for (int r = 1; r < world.size; ++r)
    impl->workers.push_back({r});
  impl->alive = unsigned(impl->workers.size());
  impl->dispatcher = std::thread([this] { impl->run(); });
}

Coordinator::~Coordinator() {
  impl->stopping = true;
  impl->dispatcher.join();
}

unsigned Coordinator::liveWorkers() const { return impl->alive; }

EvaluateFn Coordinator::evaluator(const CommandOptions &command) {
  return [this, command](const Config &c, InputSet set) {
    auto job = std::make_shared<Impl::Job>();
    job->request = encodeRequest(command, set, c);
    std::future<Measurement> result = job->result.get_future();
    {
      std::lock_guard<std::mutex> lock(impl->mutex);
      if (impl->alive == 0) {
        Measurement m;
        m.status = EvalStatus::Failed;
        m.message = "no worker left";
        return m;
      }
      impl->queue.push_back(job);
    }
    return result.get();
  };
}

#else // !APPROX_HAVE_MPI

bool available() { return false; }
World init(int &, char **&) { return {}; }
void finalize() {}
void abortJob(int code) { std::_Exit(code); }
int serveWorker() { return 1; }
struct Coordinator::Impl {};
Coordinator::Coordinator(World, Options) {}
Coordinator::~Coordinator() = default;
unsigned Coordinator::liveWorkers() const { return 0; }
EvaluateFn Coordinator::evaluator(const CommandOptions &command) {
  return commandEvaluator(command);
}

#endif

} // namespace approx::tune::distributed
