"""C/C++ comment annotations from Python: `parse_and_generate` turns the
`// @approx:` comments of a source text into annotation ops, and
`inject_annotations_text` adds them to the MLIR of that source.

    annotations = ar.parse_and_generate(cpp_source)
    annotated_mlir = ar.inject_annotations_text(base_mlir, annotations)

The comments are parsed by the compiler's own parser (the one approx-cc
uses), with its located errors and near-miss warnings. Each annotation
applies to the function definition that follows it; the function's name is
read from the text (the identifier before its parameter list), so the name
is the C symbol. For C++ (mangled symbols), loop annotations and whole
programs, use approx-cc, which attaches annotations with Clang.
"""

from __future__ import annotations

import re
import warnings
from typing import List, Sequence, Union

from . import _core
from ._annotation_text import annotation_ops

_IDENT = re.compile(r"[A-Za-z_]\w*")
_LOOP = re.compile(r"(for|while|do)\b")


class AnnotationError(ValueError):
    """An annotation that cannot be used; the message is located."""


def _code_after(lines: List[str], after: int) -> int:
    """Index (0-based) of the first line after line `after` (1-based) that
    holds code; -1 if none."""
    in_block = False
    for i in range(after, len(lines)):
        t = lines[i].strip()
        if in_block:
            if "*/" in t:
                in_block = False
            continue
        if not t or t.startswith("//"):
            continue
        if t.startswith("/*"):
            in_block = "*/" not in t
            continue
        return i
    return -1


def _function_name(lines: List[str], start: int) -> str:
    """The name of the function declared from line `start` on: the last
    identifier before the first '(' (the declarator), or ''."""
    text = ""
    for line in lines[start:start + 20]:
        text += " " + line.split("//")[0]
        if "(" in text:
            break
    head = text.split("(")[0] if "(" in text else ""
    if any(c in head for c in "{};="):
        return ""
    names = _IDENT.findall(head)
    return names[-1] if names else ""


def _check(kind: str, e: dict):
    """The first problem of an annotation's values (the dialect's rules)."""
    if kind == "decision_tree":
        return _core.check_decision_tree(
            e["transform_type"], e["thresholds"], e["decisions"],
            e.get("thresholds_lower"), e.get("thresholds_upper"),
            e.get("decision_values"))
    if kind == "static_transform":
        return _core.check_static(e["transform_type"], e["knob_val"],
                                  e.get("decision_values"))
    return None


def _widen(kind: str, e: dict, where: str) -> None:
    """Widens the bounds of `e` to its own values (approx-cc's
    --approx-widen-bounds, the dialect's rule), a located warning each."""
    if kind == "decision_tree":
        lowers, uppers, values, messages = _core.widen_fields(
            e["thresholds"], e["decisions"], e.get("thresholds_lower"),
            e.get("thresholds_upper"), e.get("decision_values"))
        for key, v in (("thresholds_lower", lowers), ("thresholds_upper", uppers),
                       ("decision_values", values)):
            if v is not None:
                e[key] = v
    elif kind == "static_transform":
        _, _, values, messages = _core.widen_fields(
            [], [e["knob_val"]], None, None, e.get("decision_values"))
        if values is not None:
            e["decision_values"] = values
    else:
        return
    for m in messages:
        warnings.warn(f"{where}: warning: {m.replace('--approx-widen-bounds', 'widen_bounds=True')}",
                      SyntaxWarning, stacklevel=3)


def parse_and_generate(cpp_source: str, *, filename: str = "<source>",
                       widen_bounds: bool = False) -> str:
    """The annotation ops (MLIR, one per line) for the `// @approx:`
    comments of `cpp_source`. Raises AnnotationError (located) for a
    malformed annotation or one not followed by a function definition;
    near misses (`// @APPROX:`, `/* @approx: */`, ...) are warnings.
    widen_bounds: accept values outside the annotation's own bounds (files
    written for the seed prototype) with a located warning each, widening
    the bounds or decision_values to hold them (approx-cc's
    --approx-widen-bounds); by default they are errors."""
    try:
        anns, near_misses = _core.parse_c_annotations(cpp_source, filename)
    except ValueError as e:
        raise AnnotationError(str(e)) from None
    for w in near_misses:
        warnings.warn(w, SyntaxWarning, stacklevel=2)
    lines = cpp_source.split("\n")
    ops = []
    for a in anns:
        where = f"{filename}:{a['line']}:{a['col']}"
        target = _code_after(lines, a["last_line"])
        if target < 0:
            raise AnnotationError(f"{where}: error: annotation is not followed "
                                  "by a function definition")
        if _LOOP.match(lines[target].strip()):
            raise AnnotationError(
                f"{where}: error: annotation of a loop: loops exist only once "
                "the source is compiled; use approx-cc (or approx-tune --space "
                "file.c), which attach loop annotations with Clang")
        name = _function_name(lines, target)
        if not name:
            raise AnnotationError(f"{where}: error: annotation is not followed "
                                  f"by a function definition (line "
                                  f"{target + 1})")
        entries = dict(a["entries"])
        if a["kind"] == "decision_tree" and "state_function" not in entries:
            raise AnnotationError(
                f"{where}: error: state_function is required here (approx-cc "
                "can default it to the last argument; text generation cannot "
                "see the signature)")
        if widen_bounds:
            _widen(a["kind"], entries, where)
        problem = _check(a["kind"], entries)
        if problem:
            raise AnnotationError(f"{where}: error: {problem}")
        ops.append(annotation_ops(name, {a["kind"]: entries}))
    return "\n".join(ops) + ("\n" if ops else "")


def inject_annotations_text(base_mlir: str,
                            annotations: Union[str, Sequence[str]], *,
                            filename: str = "<mlir>") -> str:
    """`base_mlir` with the annotation ops `annotations` (text, or a list of
    texts) added to its module, verified: an annotation naming a missing
    function, state function, checker or recover function is a located
    error (ValueError)."""
    if not isinstance(annotations, str):
        annotations = "\n".join(annotations)
    return _core.inject_ops(base_mlir, annotations, filename)


__all__ = ["parse_and_generate", "inject_annotations_text", "AnnotationError"]
