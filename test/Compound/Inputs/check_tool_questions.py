#!/usr/bin/env python3
"""Checks generated tool questions against a facts file by hand-written
rules (which fact each question's wording asks for), independent of
tool_questions.py's own templates."""
import re
import sys

RULES = [  # (words in the question, tool, fact, kind)
    ("largest cluster of kmeans dataset", "kmeans", "largest", "number"),
    ("smallest cluster of kmeans dataset", "kmeans", "smallest", "number"),
    ("Which three nodes have the highest PageRank in graph", "pagerank", "top3", "set"),
    ("Which node has the highest PageRank in graph", "pagerank", "top1", "set"),
    ("total potential energy of particle system", "lavamd", "total", "number"),
    ("largest potential in particle system", "lavamd", "largest", "set"),
]
facts = {}
for line in open(sys.argv[2], encoding="utf-8"):
    tool, i, fact, value = line.rstrip("\n").split("\t")
    facts[(tool, int(i), fact)] = value
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
tools = [r for r in rows if r[1] != "text"]
bad = []
for r in tools:
    rule = next((x for x in RULES if x[0] in r[0]), None)
    i = int(re.search(r"\d+", r[0]).group())
    if rule is None or r[1] != rule[3] or " ".join(r[2:]) != facts[(rule[1], i, rule[2])]:
        bad.append(r)
print("tool questions", len(tools), "distinct", len({r[0] for r in tools}), "bad", bad)
