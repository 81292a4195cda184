#!/usr/bin/env python3
"""Counts the tuning questions of a corpus folder whose gold passages (gold.tsv)
contain one of the question's answers, case-insensitively."""
import sys

d = sys.argv[1]
text = {}
for line in open(f"{d}/passages.tsv", encoding="utf-8"):
    pid, title, body = line.rstrip("\n").split("\t")
    text[pid] = (title + " " + body).lower()
gold = {}
for line in open(f"{d}/gold.tsv", encoding="utf-8"):
    q, *ids = line.rstrip("\n").split("\t")
    gold[q] = ids
n = ok = 0
for line in open(f"{d}/questions-tuning.tsv", encoding="utf-8"):
    q, *answers = line.rstrip("\n").split("\t")
    n += 1
    ok += any(a.lower() in text[i] for i in gold.get(q, []) for a in answers)
print(f"questions with a gold passage: {ok} of {n}")
