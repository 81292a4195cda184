#!/usr/bin/env python3
"""Builds the compound systems' passage collection and question splits from
the real NQ-open and Wikipedia files in ../shared/data (its README's recipe).

  corpus.py [--data DIR] --out DIR [--tuning N] [--validation-factor F | --validation N]
            [--evaluation N] [--tiny N] [--passages N] [--seed S]

Writes into DIR (each file written to a temporary name and renamed):
  passages.tsv           id <TAB> title <TAB> text, one passage a line
  questions-tiny.tsv     question <TAB> answer <TAB> answer ..., one question a line
  questions-tuning.tsv   N questions
  questions-evaluation.tsv  5 N questions (or --evaluation), disjoint from the
                         other splits: the test set deployed builds are timed on
  questions-validation.tsv  F N questions (default 3 N, or --validation), disjoint
                         from the other splits: the calibration set picks are
                         certified on
  gold.tsv               question <TAB> passage id <TAB> ... (its gold passages)
  corpus.json            counts, seed, input checksums

Gold layer: for every NQ-open dev question, its passages in the lost-in-the-
middle oracle file, the DPR-passage oracle file and QED dev. Distractors: the
QED train paragraphs, every SQuAD v1.1 paragraph, the 1,000 FlashRAG DPR
passages. Passages are deduplicated by normalised text (NFC, collapsed
whitespace, lower case, NQ tokenisation undone); the longest titled copy is
kept and gold links are merged. Questions are the NQ-open dev questions with
at least one gold passage, split by a seeded shuffle. --passages N keeps a
smaller collection: every gold passage of the split questions, then a seeded
sample of the others up to N passages (in their original order).
"""
import argparse
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data"))
# Validation questions per tuning question (--validation-factor): only the
# candidate picks run on them (compound.py), so a validation set larger than
# the tuning set costs minutes, and one as small as it rejected good picks
# (32-60 questions, one weighing 2-7 % of QoS, against a 9 % bound).
VALIDATION_FACTOR = 3

INPUTS = [
    "nq_open_dev.jsonl.gz",
    "nq_open_oracle_litm.jsonl.gz",
    "nq_open_oracle_dpr_doc_simonucl.jsonl.gz",
    "qed_nq_dev.jsonl.gz",
    "qed_nq_train_initial_shards.jsonl.gz",
    "squad_v1.1_dev_paragraphs.jsonl.gz",
    "squad_v1.1_train_paragraphs.jsonl.gz",
    "flashrag_wiki18_dpr_sample1000.jsonl.gz",
]


class DataError(Exception):
    pass


def read_jsonl(path):
    """Yields (line number, record); a malformed line is a located error."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise DataError(f"{path}:{n}: malformed JSON: {e.msg}") from None
                if not isinstance(rec, dict):
                    raise DataError(f"{path}:{n}: expected a JSON object")
                yield n, rec
    except (OSError, EOFError) as e:
        raise DataError(f"{path}: cannot read: {e}") from None


def field(path, n, rec, name, kind):
    if name not in rec or not isinstance(rec[name], kind):
        raise DataError(f"{path}:{n}: missing or mistyped field '{name}'")
    return rec[name]


_DETOK = [(re.compile(r" ([,.;:!?%)'])"), r"\1"), (re.compile(r"\( "), "("),
          (re.compile(r" -- "), "--"), (re.compile(r" 's\b"), "'s")]


def detokenize(text):
    """Undoes NQ tokenisation ("May 18 , 2018" -> "May 18, 2018")."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    for pattern, repl in _DETOK:
        text = pattern.sub(repl, text)
    return text


def dedup_key(text):
    return detokenize(text).lower()


def question_key(q):
    return " ".join(q.strip().lower().split())


def clean(s):
    return " ".join(s.replace("\t", " ").split())


class Corpus:
    def __init__(self):
        self.passages = {}  # key -> [title, text]
        self.order = []
        self.gold = {}  # question key -> set of passage keys

    def add(self, title, text, question=None):
        text = detokenize(text)
        title = clean(title)
        if len(text.split()) < 5:
            return
        key = text.lower()
        cur = self.passages.get(key)
        if cur is None:
            self.passages[key] = [title, text]
            self.order.append(key)
        elif (bool(title), len(text)) > (bool(cur[0]), len(cur[1])):
            self.passages[key] = [title, text]
        if question is not None:
            self.gold.setdefault(question, set()).add(key)


def build(data, corpus):
    p = lambda name: os.path.join(data, name)
    questions = {}
    for n, rec in read_jsonl(p("nq_open_dev.jsonl.gz")):
        q = field(p("nq_open_dev.jsonl.gz"), n, rec, "question", str)
        answers = field(p("nq_open_dev.jsonl.gz"), n, rec, "answer", list)
        if not answers or not all(isinstance(a, str) for a in answers):
            raise DataError(f"{p('nq_open_dev.jsonl.gz')}:{n}: 'answer' must be a list of strings")
        questions.setdefault(question_key(q), (clean(q), [clean(a) for a in answers]))
    # Gold layer.
    for name in ("nq_open_oracle_litm.jsonl.gz", "nq_open_oracle_dpr_doc_simonucl.jsonl.gz"):
        for n, rec in read_jsonl(p(name)):
            q = question_key(field(p(name), n, rec, "question", str))
            for ctx in field(p(name), n, rec, "ctxs", list):
                if not isinstance(ctx, dict) or not isinstance(ctx.get("text"), str):
                    raise DataError(f"{p(name)}:{n}: a ctxs entry has no text")
                corpus.add(ctx.get("title") or "", ctx["text"], q if q in questions else None)
    name = "qed_nq_dev.jsonl.gz"
    for n, rec in read_jsonl(p(name)):
        q = question_key(field(p(name), n, rec, "question_text", str))
        corpus.add(field(p(name), n, rec, "title_text", str),
                   field(p(name), n, rec, "paragraph_text", str), q if q in questions else None)
    # Distractors.
    name = "qed_nq_train_initial_shards.jsonl.gz"
    for n, rec in read_jsonl(p(name)):
        corpus.add(field(p(name), n, rec, "title_text", str),
                   field(p(name), n, rec, "paragraph_text", str))
    for name in ("squad_v1.1_dev_paragraphs.jsonl.gz", "squad_v1.1_train_paragraphs.jsonl.gz"):
        for n, rec in read_jsonl(p(name)):
            corpus.add(field(p(name), n, rec, "title", str).replace("_", " "),
                       field(p(name), n, rec, "context", str))
    name = "flashrag_wiki18_dpr_sample1000.jsonl.gz"
    for n, rec in read_jsonl(p(name)):
        contents = field(p(name), n, rec, "contents", str)
        title, _, text = contents.partition("\n")
        corpus.add(title.strip().strip('"'), text)
    return questions


def keep_subset(corpus, questions, n, seed):
    """Keeps the gold passages of `questions` and a seeded sample of the
    other passages, `n` in all (at least the gold ones), in corpus order."""
    gold = {g for q in questions for g in corpus.gold[q]}
    others = [k for k in corpus.order if k not in gold]
    random.Random(seed + 1).shuffle(others)
    keep = gold | set(others[:max(0, n - len(gold))])
    corpus.order = [k for k in corpus.order if k in keep]


def first_questions(path, n, work, name="questions.tsv"):
    """A file `name` in `work` with the first n questions of `path` (a
    split is a seeded draw, so they are a seeded subsample of it); its
    path."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()[:n]
    out = os.path.join(work, name)
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)
    return out


def split_sizes(tiny, tuning, validation_factor, validation=0, evaluation=0):
    """The splits' sizes in the order they are drawn from the shuffled
    questions: the validation split last, so that the others are the same as
    before it existed (0 = the default size: evaluation 5x tuning, validation
    validation_factor x tuning)."""
    return {"tiny": tiny, "tuning": tuning, "evaluation": evaluation or 5 * tuning,
            "validation": validation or validation_factor * tuning}


# Issue 38's splits, large enough to certify: a tuning set, a calibration
# (validation) set and a test (evaluation) set.
CERTIFY_SIZES = {"tuning": 150, "validation": 500, "evaluation": 500}


def folder(cache, tuning, validation=0, evaluation=0, seed=1, passages=0,
           validation_factor=VALIDATION_FACTOR):
    """The corpus folder under `cache` for these splits (sizes as
    split_sizes gives them), built by this script when it has no corpus.json
    yet; the one naming of corpus folders the benchmarks share."""
    sizes = split_sizes(0, tuning, validation_factor, validation, evaluation)
    path = os.path.join(cache, f"compound-data-{tuning}-{seed}"
                        + (f"-p{passages}" if passages else "")
                        + f"-v{sizes['validation']}-e{sizes['evaluation']}")
    if not os.path.isfile(os.path.join(path, "corpus.json")):
        print(f"corpus.py: building the corpus and question splits into {path}",
              file=sys.stderr, flush=True)
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", path,
                            "--tuning", str(tuning), "--seed", str(seed),
                            "--validation", str(sizes["validation"]),
                            "--evaluation", str(sizes["evaluation"]),
                            "--passages", str(passages)])
        if r.returncode != 0:
            sys.exit(r.returncode)  # corpus.py said why
    return path


# SQuAD's explanatory questions: why, and how other than how many/much/long...
EXPLANATORY = re.compile(r"^(why|how(?! (many|much|long|old|far|large|big|tall|often|high|fast|"
                         r"deep|wide|early|late|soon|frequently|heavy|small|hot|cold|close|"
                         r"common)\b))\b")


def squad_questions(data, n, seed=1, explanatory=False, min_answer_words=0):
    """A seeded sample of n SQuAD v1.1 dev questions (with `explanatory`,
    of its why and how questions only: EXPLANATORY; with
    `min_answer_words`, of those whose every gold answer has at least that
    many words) as question-file lines
    (question <TAB> answer ...), written as NQ-open writes its queries
    (lower case, no question mark): question distributions other than
    NQ-open's over the same collection, whose SQuAD paragraphs are among
    the distractors (benchmarks/runtime/drift.py shifts a stream to them)."""
    name = os.path.join(data, "squad_v1.1_dev_paragraphs.jsonl.gz")
    pool = []
    for n_line, rec in read_jsonl(name):
        for qa in field(name, n_line, rec, "qas", list):
            q, answers = qa.get("question"), qa.get("answers")
            if not isinstance(q, str) or not isinstance(answers, list) or not answers:
                raise DataError(f"{name}:{n_line}: a qas entry without a question or answers")
            q = clean(q).lower().rstrip("?").strip()
            unique = list(dict.fromkeys(clean(a) for a in answers if isinstance(a, str)))
            if (q and unique and (not explanatory or EXPLANATORY.match(q))
                    and min(len(a.split()) for a in unique) >= min_answer_words):
                pool.append("\t".join([q] + unique))
    if n > len(pool):
        raise DataError(f"{name}: {len(pool)} questions, fewer than the {n} asked for")
    return random.Random(seed).sample(pool, n)


def atomic_write(path, lines):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")
    os.replace(tmp, path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA, help="the shared data folder (default: %(default)s)")
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--tuning", type=int, default=60,
                    help="tuning questions; the evaluation set is 5x as many (default: %(default)s)")
    ap.add_argument("--validation-factor", type=int, default=VALIDATION_FACTOR,
                    help="validation questions per tuning question (default: %(default)s)")
    ap.add_argument("--validation", type=int, default=0,
                    help="validation (calibration) questions, instead of --validation-factor")
    ap.add_argument("--evaluation", type=int, default=0,
                    help="evaluation (test) questions (default: 5x --tuning)")
    ap.add_argument("--tiny", type=int, default=6, help="questions of the test split (default: %(default)s)")
    ap.add_argument("--passages", type=int, default=0,
                    help="keep at most N passages: the split questions' gold passages and a "
                         "seeded sample of the rest (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if (args.tuning < 1 or args.tiny < 1 or args.validation_factor < 1 or args.passages < 0
            or args.validation < 0 or args.evaluation < 0):
        ap.error("--tuning, --validation-factor and --tiny must be at least 1, --passages, "
                 "--validation and --evaluation not negative")
    sizes = split_sizes(args.tiny, args.tuning, args.validation_factor, args.validation,
                        args.evaluation)
    for name in INPUTS:
        if not os.path.isfile(os.path.join(args.data, name)):
            sys.exit(f"corpus.py: error: {os.path.join(args.data, name)}: missing input file")
    corpus = Corpus()
    try:
        questions = build(args.data, corpus)
    except DataError as e:
        sys.exit(f"corpus.py: error: {e}")
    covered = sorted(q for q in questions if corpus.gold.get(q))
    need = sum(sizes.values())
    if need > len(covered):
        sys.exit(f"corpus.py: error: {need} questions asked for, {len(covered)} have a gold passage")
    random.Random(args.seed).shuffle(covered)
    splits, at = {}, 0
    for split, n in sizes.items():
        splits[split] = covered[at:at + n]
        at += n
    if args.passages:
        keep_subset(corpus, [k for keys in splits.values() for k in keys], args.passages,
                    args.seed)
    os.makedirs(args.out, exist_ok=True)
    ids = {key: i for i, key in enumerate(corpus.order)}
    atomic_write(os.path.join(args.out, "passages.tsv"),
                 (f"{ids[k]}\t{corpus.passages[k][0]}\t{corpus.passages[k][1]}"
                  for k in corpus.order))
    for split, keys in splits.items():
        atomic_write(os.path.join(args.out, f"questions-{split}.tsv"),
                     ("\t".join([questions[k][0], *questions[k][1]]) for k in keys))
    atomic_write(os.path.join(args.out, "gold.tsv"),
                 ("\t".join([questions[k][0], *(str(ids[g]) for g in sorted(
                     (g for g in corpus.gold[k] if g in ids), key=ids.get))])
                  for k in covered if any(g in ids for g in corpus.gold[k])))
    words = sum(len(corpus.passages[k][1].split()) for k in corpus.order)
    meta = {"passages": len(corpus.order), "words": words, "covered_questions": len(covered),
            "splits": {s: len(k) for s, k in splits.items()}, "seed": args.seed,
            "inputs": {name: sha256(os.path.join(args.data, name)) for name in INPUTS}}
    atomic_write(os.path.join(args.out, "corpus.json"), [json.dumps(meta, indent=2)])
    print(f"corpus.py: {len(corpus.order)} passages ({words / 1e6:.2f} M words), "
          f"{len(covered)} questions with a gold passage; splits "
          + ", ".join(f"{s} {len(k)}" for s, k in splits.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
