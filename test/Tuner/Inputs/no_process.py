"""Exit 1 if a running process's command line is exactly the given words
(a portable `! pgrep -fx`, also safe under the sanitized test run, where a
preloaded sanitizer runtime deadlocks pgrep)."""
import os
import sys

want = sys.argv[1:]
for pid in os.listdir("/proc"):
    if not pid.isdigit() or int(pid) == os.getpid():
        continue
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().split(b"\0")[:-1]
    except OSError:  # gone meanwhile
        continue
    if [w.decode(errors="replace") for w in words] == want:
        print(f"process {pid} still runs: {' '.join(want)}")
        sys.exit(1)
