# drift.test's bounds on drift_sim's summary: FILE MAX_FALSE_ALARM_RATE
# MAX_MEDIAN_DELAY MAX_UNDETECTED.
import re
import sys

text = open(sys.argv[1]).read()
rate = float(re.search(r"false alarms \d+ \(([0-9.]+)\)", text).group(1))
median, undetected = map(int, re.search(r"median (\d+) units, 90th percentile \d+, undetected (\d+)", text).groups())
problems = []
if rate > float(sys.argv[2]):
    problems.append(f"false-alarm rate {rate} > {sys.argv[2]}")
if median > int(sys.argv[3]):
    problems.append(f"median detection {median} units > {sys.argv[3]}")
if undetected > int(sys.argv[4]):
    problems.append(f"{undetected} streams undetected > {sys.argv[4]}")
if problems:
    sys.exit(f"{sys.argv[1]}: " + "; ".join(problems) + "\n" + text)
print("ok")
