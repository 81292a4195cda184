"""Stress test of approx-tune: an evaluation command that crashes, hangs and
prints garbage for some configurations, and runs killed at seeded random
points (SIGKILL or SIGTERM) then continued with --resume until they finish.
Checks that every resumed run ends with exactly the evaluations and the
best configuration of the uninterrupted run (nothing measured is lost or
recorded twice), and that a SIGTERM leaves no evaluation running.

usage: stress_resume.py APPROX_BIN SPACE EVAL_COMMAND WORKDIR [ROUNDS]
"""
import os
import random
import signal
import subprocess
import sys
import time

approx_bin, space, evaluate, work = sys.argv[1:5]
rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 4
tune = os.path.join(approx_bin, "approx-tune")
common = ["--space", space, "--eval", evaluate, "--seed", "4", "--max-evals", "60",
          "--repetitions", "1", "--timeout", "1", "--quiet"]


def history(out):
    rows = subprocess.run([tune, "--space", space, "--out", out, "--history"],
                          check=True, capture_output=True, text=True).stdout.splitlines()[1:]
    # run id aside: seq, input set, technique, status, time, qos, config, message
    return [r.split(",", 1)[1] for r in rows]


def best(out):
    with open(os.path.join(out, "best_config.json")) as f:
        return f.read()


ref = os.path.join(work, "ref")
start = time.time()
subprocess.run([tune] + common + ["--out", ref], check=True, stdout=subprocess.DEVNULL)
duration = time.time() - start
ref_history, ref_best = history(ref), best(ref)

rng = random.Random(7)
for r in range(rounds):
    out = os.path.join(work, f"run{r}")
    args = [tune] + common + ["--out", out]
    kills = 0
    while True:
        mark = f"{out}#{kills}"  # inherited by this process's evaluations
        env = dict(os.environ, STRESS_MARK=mark)
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, env=env)
        sig = signal.SIGKILL if (r + kills) % 2 == 0 else signal.SIGTERM
        try:
            p.wait(timeout=rng.uniform(0.2, duration) if kills < 3 else None)
        except subprocess.TimeoutExpired:
            p.send_signal(sig)
            err = p.communicate()[1]
            if p.returncode == 0:
                break  # the run ended between the timeout and the signal
            kills += 1
            if sig == signal.SIGTERM:
                if p.returncode != 130 or "interrupted" not in err:
                    sys.exit(f"round {r}: SIGTERM gave exit {p.returncode}: {err}")
                time.sleep(0.2)
                mine = []
                for pid in filter(str.isdigit, os.listdir("/proc")):
                    try:
                        with open(f"/proc/{pid}/environ", "rb") as f:
                            if b"STRESS_MARK=" + mark.encode() + b"\0" in f.read():
                                mine.append(pid)
                    except OSError:
                        pass
                if mine:
                    sys.exit(f"round {r}: evaluations still running after SIGTERM: {mine}")
            if "--resume" not in args and os.path.exists(os.path.join(out, "tune.db")):
                args = args + ["--resume"]
            continue
        err = p.stderr.read()
        if p.returncode != 0 and "--resume: no" in err:
            args.remove("--resume")  # killed before its run was recorded
            continue
        if p.returncode != 0:
            sys.exit(f"round {r}: approx-tune failed ({p.returncode}): {err}")
        break
    got = history(out)
    if got != ref_history:
        missing = [x for x in ref_history if x not in got]
        extra = [x for x in got if x not in ref_history]
        sys.exit(f"round {r} ({kills} kills): history differs from the uninterrupted run\n"
                 f"missing: {missing[:3]}\nextra: {extra[:3]}")
    if best(out) != ref_best:
        sys.exit(f"round {r}: best configuration differs:\n{best(out)}\nvs\n{ref_best}")
    print(f"round {r}: {kills} kills, {len(got)} evaluations, same as uninterrupted")
print(f"stress: {rounds} rounds resumed to the uninterrupted result")
