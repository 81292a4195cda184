#!/usr/bin/env python3
"""Reads the --trace files of the compound systems for the lit tests.

  trace.py tokens TRACE                 total prompt tokens
  trace.py fewer TRACE_A TRACE_B [FIELD]
                                        'fewer: yes' if every question of B has
                                        a smaller FIELD (default prompt_tokens)
                                        than in A
  trace.py gold TRACE QUESTIONS GOLD    'gold passage at the top: k of n' (the
                                        top passage is one of the question's
                                        gold passages, gold.tsv)
  trace.py tools TRACE QUESTIONS        'routed to their tool: k of n' (LLM +
                                        tools: text questions to search, the
                                        others to their kernel's tool)
  trace.py route TRACE T LOW HIGH       checks model selection by state: model
                                        HIGH where confidence >= T, else LOW
  trace.py cascade TRACE T NEED EXACT_MODEL EXACT_ANSWERS ANSWERS
                                        checks the cascade: every answer checked,
                                        escalated exactly where its first-token
                                        probability is below T (or, NEED = 1, it
                                        is not in the passages), escalated ones
                                        answered by EXACT_MODEL with the exact
                                        build's answers, the others kept
  trace.py capped TRACE CAP ANSWERS EXACT_ANSWERS
                                        checks the capped field: CAP tokens
                                        generated where capped=1, fewer where
                                        0, and every answer that ended before
                                        the cap is the exact build's
"""
import sys


def read(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        kv = dict(f.split("=", 1) for f in fields[1:] if "=" in f)
        rows.append(kv)
    return rows


cmd = sys.argv[1]
if cmd == "tokens":
    print("prompt tokens:", sum(int(r["prompt_tokens"]) for r in read(sys.argv[2])))
elif cmd == "fewer":
    a, b = read(sys.argv[2]), read(sys.argv[3])
    key = sys.argv[4] if len(sys.argv) > 4 else "prompt_tokens"
    ok = len(a) == len(b) and all(int(y[key]) < int(x[key]) for x, y in zip(a, b))
    print("fewer:", "yes" if ok else "no")
elif cmd == "gold":
    rows = read(sys.argv[2])
    questions = [l.split("\t")[0] for l in open(sys.argv[3], encoding="utf-8")]
    gold = {}
    for line in open(sys.argv[4], encoding="utf-8"):
        q, *ids = line.rstrip("\n").split("\t")
        gold[q] = set(ids)
    hits = sum(r["top"] in gold.get(q, ()) for r, q in zip(rows, questions))
    print(f"gold passage at the top: {hits} of {len(rows)}")
elif cmd == "tools":
    rows = read(sys.argv[2])
    want = []
    for line in open(sys.argv[3], encoding="utf-8"):
        q, kind = line.split("\t")[:2]
        want.append("search" if kind == "text" else "kmeans" if "kmeans" in q
                    else "graph" if "graph" in q else "particles")
    hits = sum(r["tool"] == w for r, w in zip(rows, want))
    print(f"routed to their tool: {hits} of {len(rows)}")
elif cmd == "route":
    t, low, high = int(sys.argv[3]), sys.argv[4], sys.argv[5]
    rows = read(sys.argv[2])
    bad = [r for r in rows if r["model"] != (high if int(r["confidence"]) >= t else low)]
    used = sorted({r["model"] for r in rows})
    print("routed by state:", "yes" if not bad else f"no {bad}")
    print("models used:", " ".join(used))
elif cmd == "capped":
    rows, cap = read(sys.argv[2]), int(sys.argv[3])
    answers = open(sys.argv[4], encoding="utf-8").read().splitlines()
    exact = open(sys.argv[5], encoding="utf-8").read().splitlines()
    capped = [r["capped"] == "1" for r in rows]
    counts = all((int(r["generated"]) == cap) == c for r, c in zip(rows, capped))
    same = all(a == e for a, e, c in zip(answers, exact, capped) if not c)
    print(f"capped: {sum(capped)} of {len(rows)}; generated tokens",
          "match" if counts else f"do not match {rows}")
    print("uncapped answers:", "the exact ones" if same and len(answers) == len(exact)
          else f"differ {answers} {exact}")
elif cmd == "cascade":
    rows = read(sys.argv[2])
    t, need, exact_model = float(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
    exact = open(sys.argv[6], encoding="utf-8").read().splitlines()
    answers = open(sys.argv[7], encoding="utf-8").read().splitlines()
    checked = [r for r in rows if "checked" in r]
    want = [float(r["checked_p1"]) < t or (need and r["checked_in_passages"] == "0")
            for r in checked]
    rule = all((r["escalated"] == "1") == w for r, w in zip(checked, want))
    escalated = [i for i, r in enumerate(rows) if r.get("escalated") == "1"]
    exact_ok = all(rows[i]["model"] == exact_model and answers[i] == exact[i] for i in escalated)
    kept_ok = all(rows[i]["model"] == rows[i]["checked"] for i, r in enumerate(rows)
                  if r.get("escalated") == "0")
    print(f"cascade: {len(checked)} of {len(rows)} checked, {len(escalated)} escalated; "
          f"as the rule says: {'yes' if rule else 'no'}; escalated answers are the exact "
          f"model's: {'yes' if exact_ok else 'no'}; accepted answers kept: "
          f"{'yes' if kept_ok else 'no'}")
