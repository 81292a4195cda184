#!/usr/bin/env python3
"""The LLM + tools system's question sets: real NQ-open questions mixed with
tool questions generated, seeded, from the kernels' inputs (the paper's
augmented NQ).

  tool_questions.py --data DIR --facts FILE [--seed S]
  tool_questions.py --data DIR --inputs-needed

Reads DIR/questions-{tiny,tuning,evaluation,validation}.tsv (corpus.py) and the facts
of the kernels' inputs (`llm_tools --facts N` of the exact build: the
exact kernels' answers), and writes DIR/tools-<split>.tsv with as many
questions as the NQ split: half of them (rounded down) its first NQ
questions (kind text), the rest tool questions, in a seeded order. Lines are
question<TAB>kind<TAB>answer... with kind text (answer containment), number
(numeric closeness) or set (set overlap; the answers are the ids), scored by
`approx-qos graded-accuracy`. Tool questions come from six templates over
inputs 0..N-1 and are disjoint across splits (the evaluation set is 5x the
tuning set as for NQ; the validation set is as large as corpus.py made it,
and its inputs come after the others', which are the same as before it
existed). They are balanced: the splits take consecutive turns of one cycle
through the templates that alternates the kernels, so in every split
the three kernels' counts differ by at most one (a tuning set with two kmeans
questions among sixteen left Lloyd's perforation unchecked); each template's
inputs are used in a seeded order. --inputs-needed prints N for DIR's splits.
"""
import argparse
import itertools
import math
import os
import random
import sys

SPLITS = ("tiny", "tuning", "evaluation", "validation")
# (tool, fact, question, kind)
TEMPLATES = [
    ("kmeans", "largest", "How many points are in the largest cluster of kmeans dataset {i}?",
     "number"),
    ("kmeans", "smallest", "How many points are in the smallest cluster of kmeans dataset {i}?",
     "number"),
    ("pagerank", "top1", "Which node has the highest PageRank in graph {i}?", "set"),
    ("pagerank", "top3", "Which three nodes have the highest PageRank in graph {i}?", "set"),
    ("lavamd", "total", "What is the total potential energy of particle system {i}?", "number"),
    ("lavamd", "largest", "Which particle has the largest potential in particle system {i}?",
     "set"),
]


def template_cycle():
    """TEMPLATES' indices in turns that alternate the kernels: each kernel's
    first template, then each kernel's second."""
    kernels = list(dict.fromkeys(tool for tool, *_ in TEMPLATES))
    per_kernel = [[t for t, (tool, *_) in enumerate(TEMPLATES) if tool == k] for k in kernels]
    # zip_longest: a kernel with more templates than the others keeps them all.
    return [t for turn in itertools.zip_longest(*per_kernel) for t in turn if t is not None]


def fail(msg):
    sys.exit(f"tool-questions: error: {msg}")


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")


def split_sizes(data):
    """NQ questions per split, and tool questions (half, rounded up)."""
    sizes = {}
    for s in SPLITS:
        n = len(read_lines(os.path.join(data, f"questions-{s}.tsv")))
        sizes[s] = (n // 2, n - n // 2)
    return sizes


def tool_total(sizes):
    return sum(tool for _, tool in sizes.values())


def inputs_needed(sizes):
    return math.ceil(tool_total(sizes) / len(TEMPLATES))


def read_facts(path):
    facts = {}
    for n, line in enumerate(read_lines(path), 1):
        fields = line.split("\t")
        if len(fields) != 4 or not fields[1].isdigit():
            fail(f"{path}:{n}: expected tool<TAB>input<TAB>fact<TAB>value")
        facts[(fields[0], int(fields[1]), fields[2])] = fields[3]
    return facts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="corpus folder (corpus.py)")
    ap.add_argument("--facts", help="llm_tools --facts output")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inputs-needed", action="store_true",
                    help="print the number of kernel inputs the splits need")
    args = ap.parse_args()
    sizes = split_sizes(args.data)
    n_inputs = inputs_needed(sizes)
    if args.inputs_needed:
        print(n_inputs)
        return
    if not args.facts:
        ap.error("--facts is required (or --inputs-needed)")
    facts = read_facts(args.facts)
    # Turn p asks the cycle's template p % 6 of its (p // 6)-th input in that
    # template's seeded order.
    cycle = template_cycle()
    # The inputs of the splits before the validation one are shuffled as
    # they were before it existed; the validation split's come after them.
    before = inputs_needed({s: n for s, n in sizes.items() if s != "validation"})
    orders = []
    for tool, fact, _, _ in TEMPLATES:
        order, later = list(range(before)), list(range(before, n_inputs))
        random.Random(f"{args.seed}-{tool}-{fact}").shuffle(order)
        random.Random(f"{args.seed}-{tool}-{fact}-validation").shuffle(later)
        orders.append(order + later)
    pool = []
    for p in range(tool_total(sizes)):
        t = cycle[p % len(cycle)]
        pool.append((TEMPLATES[t], orders[t][p // len(cycle)]))
    at = 0
    for split in SPLITS:
        n_nq, n_tool = sizes[split]
        nq = read_lines(os.path.join(args.data, f"questions-{split}.tsv"))[:n_nq]
        lines = []
        for line in nq:
            question, *answers = line.split("\t")
            lines.append("\t".join([question, "text", *answers]))
        for (tool, fact, text, kind), i in pool[at:at + n_tool]:
            value = facts.get((tool, i, fact))
            if value is None:
                fail(f"{args.facts}: no fact '{fact}' of {tool} input {i} "
                     f"(run llm_tools --facts {n_inputs})")
            lines.append("\t".join([text.format(i=i), kind, *value.split()]))
        at += n_tool
        random.Random(f"{args.seed}-{split}").shuffle(lines)
        path = os.path.join(args.data, f"tools-{split}.tsv")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write("".join(l + "\n" for l in lines))
        os.replace(path + ".tmp", path)
    print(f"tool-questions: " + ", ".join(
        f"{s} {sum(sizes[s])} ({sizes[s][1]} tool)" for s in SPLITS) +
          f" from {n_inputs} inputs per kernel", file=sys.stderr)


if __name__ == "__main__":
    main()
