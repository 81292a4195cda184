"""StableHLO -> linalg on tensors, as MLIR text our LLVM 22 tools parse.

JAX lowers a function to a StableHLO module (``jax.jit(f).lower(...)``); this
importer walks that module with jaxlib's own MLIR bindings (so parsing is
JAX's, whatever its MLIR version) and writes the same computation in upstream
dialects only: ``linalg`` (named ``matmul`` / ``batch_matmul`` for every
``dot_general``, ``reduce``, ``transpose``, ``fill`` and elementwise
``generic`` ops), ``tensor``, ``arith``, ``math`` and ``func``. The ML
transforms of approx-opt (decode_quantize, precision_reduce, loop_perforate
of reductions) act on exactly these ops.

Covered: the elementwise arithmetic, comparison, selection and conversion
ops, ``chlo.erf``/``erfc``, ``broadcast_in_dim``, ``reshape``, ``transpose``,
``dot_general`` (any batch/contracting dims), ``reduce`` (one operand with an
add/mul/max/min/and/or body as ``linalg.reduce``; several operands or a longer
body, as argmax/argmin, with the body translated to scalar arith),
``convolution`` (any layout and spatial rank, strides, kernel dilation,
padding; im2col and one ``linalg.matmul``), ``reduce_window`` (pooling:
windows, strides, dilation, padding), ``iota``, ``slice``, ``concatenate``,
``gather`` of rows (embedding lookups), ``func.call``. Anything else is an
``UnsupportedOp`` error naming the op and its location; the decision is
recorded in docs/decisions.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class UnsupportedOp(Exception):
    """An op (or a form of it) the importer does not translate."""


# --------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class TType:
    """A ranked tensor type: static shape and element type (our spelling)."""

    shape: tuple
    elem: str

    def __str__(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tensor<{dims}{self.elem}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_float(self) -> bool:
        return self.elem in ("f16", "bf16", "f32", "f64")


def _elem(s: str) -> str:
    # StableHLO's unsigned integers become signless (we do not support
    # unsigned arithmetic beyond what signless ops express).
    if s.startswith("ui"):
        return "i" + s[2:]
    if s not in ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"):
        raise UnsupportedOp(f"element type {s}")
    return s


def ttype(t) -> TType:
    from jaxlib.mlir import ir

    rt = ir.RankedTensorType(t)
    if not rt.has_static_shape:
        raise UnsupportedOp(f"dynamic shape {t}")
    return TType(tuple(rt.shape), _elem(str(rt.element_type)))


def _map(rank: int, exprs) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(exprs)})>"


def _prod(xs) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def _identity(rank: int) -> str:
    return _map(rank, [f"d{i}" for i in range(rank)])


# --------------------------------------------------------------------------
# Scalar payloads
# --------------------------------------------------------------------------

_FLOAT_BIN = {
    "stablehlo.add": "arith.addf", "stablehlo.subtract": "arith.subf",
    "stablehlo.multiply": "arith.mulf", "stablehlo.divide": "arith.divf",
    "stablehlo.maximum": "arith.maximumf", "stablehlo.minimum": "arith.minimumf",
    "stablehlo.power": "math.powf", "stablehlo.remainder": "arith.remf",
    "stablehlo.atan2": "math.atan2",
}
_INT_BIN = {
    "stablehlo.add": "arith.addi", "stablehlo.subtract": "arith.subi",
    "stablehlo.multiply": "arith.muli", "stablehlo.divide": "arith.divsi",
    "stablehlo.maximum": "arith.maxsi", "stablehlo.minimum": "arith.minsi",
    "stablehlo.remainder": "arith.remsi", "stablehlo.and": "arith.andi",
    "stablehlo.or": "arith.ori", "stablehlo.xor": "arith.xori",
    "stablehlo.shift_left": "arith.shli",
    "stablehlo.shift_right_arithmetic": "arith.shrsi",
    "stablehlo.shift_right_logical": "arith.shrui",
}
_FLOAT_UN = {
    "stablehlo.exponential": "math.exp", "stablehlo.log": "math.log",
    "stablehlo.tanh": "math.tanh", "stablehlo.rsqrt": "math.rsqrt",
    "stablehlo.sqrt": "math.sqrt", "stablehlo.abs": "math.absf",
    "stablehlo.negate": "arith.negf", "stablehlo.floor": "math.floor",
    "stablehlo.ceil": "math.ceil", "stablehlo.sine": "math.sin",
    "stablehlo.cosine": "math.cos", "stablehlo.log_plus_one": "math.log1p",
    "stablehlo.exponential_minus_one": "math.expm1",
    "stablehlo.round_nearest_even": "math.roundeven",
    "stablehlo.round_nearest_afz": "math.round", "stablehlo.cbrt": "math.cbrt",
    "stablehlo.tan": "math.tan", "chlo.erf": "math.erf",
    "chlo.erfc": "math.erfc",
}
_CMP_F = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt",
          "GE": "oge"}
_CMP_I = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt",
          "GE": "sge"}
_CMP_U = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt",
          "GE": "uge"}
_WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "f16": 16,
          "bf16": 16, "f32": 32, "f64": 64}


def _convert(src: str, dst: str, x: str, out: list) -> str:
    """Scalar conversion src -> dst of the value named x."""
    if src == dst:
        return x
    fs, fd = src.startswith(("f", "bf")), dst.startswith(("f", "bf"))
    r = f"%c{len(out)}"
    if fs and fd:
        op = "arith.extf" if _WIDTH[dst] > _WIDTH[src] or (
            src == "bf16" and dst == "f16") else "arith.truncf"
        if {src, dst} == {"bf16", "f16"}:
            mid = f"%c{len(out)}m"
            out.append(f"{mid} = arith.extf {x} : {src} to f32")
            out.append(f"{r} = arith.truncf {mid} : f32 to {dst}")
            return r
        out.append(f"{r} = {op} {x} : {src} to {dst}")
    elif not fs and fd:
        op = "arith.uitofp" if src == "i1" else "arith.sitofp"
        out.append(f"{r} = {op} {x} : {src} to {dst}")
    elif fs and not fd:
        if dst == "i1":
            zero = f"%c{len(out)}z"
            out.append(f"{zero} = arith.constant 0.0 : {src}")
            out.append(f"{r} = arith.cmpf une, {x}, {zero} : {src}")
        else:
            out.append(f"{r} = arith.fptosi {x} : {src} to {dst}")
    else:
        if dst == "i1":
            zero = f"%c{len(out)}z"
            out.append(f"{zero} = arith.constant 0 : {src}")
            out.append(f"{r} = arith.cmpi ne, {x}, {zero} : {src}")
        elif _WIDTH[dst] > _WIDTH[src]:
            op = "arith.extui" if src == "i1" else "arith.extsi"
            out.append(f"{r} = {op} {x} : {src} to {dst}")
        else:
            out.append(f"{r} = arith.trunci {x} : {src} to {dst}")
    return r


# --------------------------------------------------------------------------
# The emitter
# --------------------------------------------------------------------------

@dataclass
class _Func:
    lines: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    counter: int = 0


class Importer:
    """Translates one StableHLO module; `emit()` returns the MLIR text."""

    def __init__(self, module, *, rename: dict | None = None,
                 scalar_args: dict | None = None,
                 scalar_results: set | None = None, c_interface: bool = True):
        self.module = module
        self.rename = rename or {}
        # function name -> indices of tensor<iN> arguments that become iN
        # scalars (the state arguments of decision trees).
        self.scalar_args = scalar_args or {}
        # functions whose 0-d results are returned as scalars (state
        # functions: (i32...) -> i32).
        self.scalar_results = scalar_results or set()
        self.c_interface = c_interface
        self.fn: _Func | None = None
        self.current = ""

    # -- naming ---------------------------------------------------------
    def fresh(self, hint: str = "v") -> str:
        self.fn.counter += 1
        return f"%{hint}{self.fn.counter}"

    def name(self, value) -> str:
        try:
            return self.fn.names[value]
        except KeyError as e:
            raise UnsupportedOp("a value defined outside the function") from e

    def emit_line(self, text: str) -> None:
        self.fn.lines.append("    " + text)

    # -- helpers --------------------------------------------------------
    def empty(self, t: TType) -> str:
        v = self.fresh("e")
        self.emit_line(f"{v} = tensor.empty() : {t}")
        return v

    def scalar_const(self, value: str, elem: str) -> str:
        v = self.fresh("k")
        self.emit_line(f"{v} = arith.constant {value} : {elem}")
        return v

    def generic(self, ins: list, maps: list, out_t: TType, body) -> str:
        """An elementwise linalg.generic over out_t's dims (inputs read
        through `maps`); `body(args, lines)` appends the payload to `lines`
        and returns the yielded scalar, given the payload's argument names."""
        rank = out_t.rank
        init = self.empty(out_t)
        args = [f"%a{i}" for i in range(len(ins))]
        block_args = ", ".join(
            [f"%a{i}: {t.elem}" for i, (_, t) in enumerate(ins)] +
            [f"%o: {out_t.elem}"])
        lines: list = []
        result = body(args + ["%o"], lines)
        v = self.fresh()
        its = ", ".join(['"parallel"'] * rank)
        ins_text = ""
        if ins:
            ins_text = (f"ins({', '.join(n for n, _ in ins)} : "
                        f"{', '.join(str(t) for _, t in ins)}) ")
        all_maps = ", ".join(maps + [_identity(rank)])
        self.emit_line(
            f"{v} = linalg.generic {{indexing_maps = [{all_maps}], "
            f"iterator_types = [{its}]}} {ins_text}outs({init} : {out_t}) {{")
        self.emit_line(f"^bb0({block_args}):")
        for line in lines:
            self.emit_line("  " + line)
        self.emit_line(f"  linalg.yield {result} : {out_t.elem}")
        self.emit_line(f"}} -> {out_t}")
        return v

    def elementwise(self, operands: list, out_t: TType, body) -> str:
        rank = out_t.rank
        ins = [(self.name(o), ttype(o.type)) for o in operands]
        maps = [_identity(rank)] * len(ins)
        return self.generic(ins, maps, out_t, body)

    def reshape(self, x: str, src: TType, dst: TType) -> str:
        if src.shape == dst.shape:
            return x
        if src.rank == 0 or dst.rank == 0:
            # tensor<T> <-> tensor<1x..x1xT>
            v = self.fresh()
            if src.rank == 0:
                shape = ", ".join(str(d) for d in dst.shape)
                self.emit_line(f"{v} = tensor.expand_shape {x} [] output_shape "
                               f"[{shape}] : {src} into {dst}")
            else:
                self.emit_line(f"{v} = tensor.collapse_shape {x} [] : "
                               f"{src} into {dst}")
            return v
        n = 1
        for d in src.shape:
            n *= d
        flat = TType((n,), src.elem)
        cur = x
        if src.rank != 1:
            cur = self.fresh()
            grp = ", ".join(str(i) for i in range(src.rank))
            self.emit_line(f"{cur} = tensor.collapse_shape {x} [[{grp}]] : "
                           f"{src} into {flat}")
        if dst.rank == 1:
            return cur
        v = self.fresh()
        grp = ", ".join(str(i) for i in range(dst.rank))
        shape = ", ".join(str(d) for d in dst.shape)
        self.emit_line(f"{v} = tensor.expand_shape {cur} [[{grp}]] output_shape "
                       f"[{shape}] : {flat} into {dst}")
        return v

    def transpose(self, x: str, src: TType, perm: list) -> tuple:
        if list(perm) == list(range(src.rank)):
            return x, src
        dst = TType(tuple(src.shape[p] for p in perm), src.elem)
        e = self.empty(dst)
        v = self.fresh()
        self.emit_line(f"{v} = linalg.transpose ins({x} : {src}) outs({e} : {dst}) "
                       f"permutation = [{', '.join(str(p) for p in perm)}]")
        return v, dst

    def filled(self, t: TType, scalar: str) -> str:
        """A tensor of type t holding the scalar named `scalar` everywhere."""
        e = self.empty(t)
        v = self.fresh()
        self.emit_line(f"{v} = linalg.fill ins({scalar} : {t.elem}) outs({e} : {t}) -> {t}")
        return v

    def fill(self, t: TType, value: str) -> str:
        """A tensor of type t holding the constant `value` everywhere."""
        return self.filled(t, self.scalar_const(value, t.elem))

    def scalar_of(self, x) -> str:
        """The element of a 0-d tensor value (a reduction's init)."""
        s = self.fresh("s")
        self.emit_line(f"{s} = tensor.extract {self.name(x)}[] : {ttype(x.type)}")
        return s

    # -- ops ------------------------------------------------------------
    def op(self, o) -> None:
        from jaxlib.mlir import ir
        from jaxlib.mlir.dialects import stablehlo

        op = o.operation
        kind = op.name
        results = list(op.results)
        operands = list(op.operands)
        attrs = op.attributes

        def out_t(i=0):
            return ttype(results[i].type)

        def set_result(v, i=0):
            self.fn.names[results[i]] = v

        if kind in ("func.return", "stablehlo.return"):
            vals, types = [], []
            for x in operands:
                xt = ttype(x.type)
                if self.current in self.scalar_results:
                    v = self.fresh("r")
                    self.emit_line(f"{v} = tensor.extract {self.name(x)}[] : {xt}")
                    vals.append(v)
                    types.append(xt.elem)
                else:
                    vals.append(self.name(x))
                    types.append(str(xt))
            vals, types = ", ".join(vals), ", ".join(types)
            self.emit_line(f"return {vals} : {types}" if operands else "return")
            return
        if kind == "func.call":
            callee = ir.FlatSymbolRefAttr(attrs["callee"]).value
            args = ", ".join(self.name(x) for x in operands)
            in_t = ", ".join(str(ttype(x.type)) for x in operands)
            outs = [str(ttype(r.type)) for r in results]
            names = [self.fresh() for _ in results]
            lhs = (", ".join(names) + " = ") if names else ""
            self.emit_line(f"{lhs}func.call @{self.rename.get(callee, callee)}"
                           f"({args}) : ({in_t}) -> ({', '.join(outs)})")
            for i, n in enumerate(names):
                set_result(n, i)
            return
        if kind == "stablehlo.constant":
            v = self.fresh("cst")
            self.emit_line(f"{v} = arith.constant {attrs['value']}")
            set_result(v)
            return
        t = out_t() if results else None
        if kind in _FLOAT_BIN or kind in _INT_BIN:
            table = _FLOAT_BIN if ttype(operands[0].type).is_float else _INT_BIN
            if kind not in table:
                raise UnsupportedOp(f"{kind} on {ttype(operands[0].type).elem}")
            e = ttype(operands[0].type).elem
            fn = table[kind]

            def body(a, lines, fn=fn, e=e):
                lines.append(f"%r = {fn} {a[0]}, {a[1]} : {e}")
                return "%r"
            set_result(self.elementwise(operands, t, body))
            return
        if kind in _FLOAT_UN or kind in ("stablehlo.logistic", "stablehlo.not",
                                         "stablehlo.sign"):
            e = ttype(operands[0].type).elem

            def body(a, lines, kind=kind, e=e):
                if kind == "stablehlo.logistic":
                    lines += [f"%n = arith.negf {a[0]} : {e}",
                              f"%x = math.exp %n : {e}",
                              f"%one = arith.constant 1.0 : {e}",
                              f"%d = arith.addf %one, %x : {e}",
                              f"%r = arith.divf %one, %d : {e}"]
                elif kind == "stablehlo.not":
                    lines += [f"%t = arith.constant -1 : {e}",
                              f"%r = arith.xori {a[0]}, %t : {e}"]
                elif kind == "stablehlo.sign" and e.startswith(("f", "bf")):
                    lines += [f"%one = arith.constant 1.0 : {e}",
                              f"%c = math.copysign %one, {a[0]} : {e}",
                              f"%z = arith.constant 0.0 : {e}",
                              f"%isz = arith.cmpf oeq, {a[0]}, %z : {e}",
                              f"%r = arith.select %isz, {a[0]}, %c : {e}"]
                elif not e.startswith(("f", "bf")):
                    if kind == "stablehlo.negate":
                        lines += [f"%z = arith.constant 0 : {e}",
                                  f"%r = arith.subi %z, {a[0]} : {e}"]
                    elif kind == "stablehlo.abs":
                        lines.append(f"%r = math.absi {a[0]} : {e}")
                    else:
                        raise UnsupportedOp(f"{kind} on {e}")
                else:
                    lines.append(f"%r = {_FLOAT_UN[kind]} {a[0]} : {e}")
                return "%r"
            set_result(self.elementwise(operands, t, body))
            return
        if kind == "stablehlo.compare":
            direction = stablehlo.ComparisonDirectionAttr(
                attrs["comparison_direction"]).value
            src = ttype(operands[0].type)
            cmp_type = ""
            if "compare_type" in attrs:
                cmp_type = stablehlo.ComparisonTypeAttr(attrs["compare_type"]).value
            if src.is_float:
                pred, op_name = _CMP_F[direction], "arith.cmpf"
            else:
                pred = (_CMP_U if cmp_type == "UNSIGNED" or src.elem == "i1"
                        else _CMP_I)[direction]
                op_name = "arith.cmpi"

            def body(a, lines, pred=pred, op_name=op_name, e=src.elem):
                lines.append(f"%r = {op_name} {pred}, {a[0]}, {a[1]} : {e}")
                return "%r"
            set_result(self.elementwise(operands, t, body))
            return
        if kind == "stablehlo.select":
            e = t.elem
            pred_t = ttype(operands[0].type)
            if pred_t.rank == 0 and t.rank > 0:
                raise UnsupportedOp("select with a scalar predicate")

            def body(a, lines, e=e):
                lines.append(f"%r = arith.select {a[0]}, {a[1]}, {a[2]} : {e}")
                return "%r"
            set_result(self.elementwise(operands, t, body))
            return
        if kind == "stablehlo.clamp":
            x_t = ttype(operands[1].type)
            if any(ttype(x.type).rank != x_t.rank for x in operands):
                raise UnsupportedOp("clamp with scalar bounds")
            fmax, fmin = (("arith.maximumf", "arith.minimumf") if x_t.is_float
                          else ("arith.maxsi", "arith.minsi"))

            def body(a, lines, e=x_t.elem):
                lines += [f"%m = {fmax} {a[1]}, {a[0]} : {e}",
                          f"%r = {fmin} %m, {a[2]} : {e}"]
                return "%r"
            set_result(self.elementwise(operands, t, body))
            return
        if kind == "stablehlo.convert":
            src = ttype(operands[0].type)

            def body(a, lines, src=src.elem, dst=t.elem):
                return _convert(src, dst, a[0], lines)
            set_result(self.elementwise(operands, t, body))
            return
        if kind == "stablehlo.broadcast_in_dim":
            src = ttype(operands[0].type)
            dims = list(attrs["broadcast_dimensions"])
            exprs = []
            for i, d in enumerate(dims):
                exprs.append("0" if src.shape[i] == 1 and t.shape[d] != 1
                             else f"d{d}")
            ins = [(self.name(operands[0]), src)]
            set_result(self.generic(ins, [_map(t.rank, exprs)], t,
                                    lambda a, lines: a[0]))
            return
        if kind == "stablehlo.reshape":
            set_result(self.reshape(self.name(operands[0]),
                                    ttype(operands[0].type), t))
            return
        if kind == "stablehlo.transpose":
            perm = list(attrs["permutation"])
            v, _ = self.transpose(self.name(operands[0]), ttype(operands[0].type),
                                  perm)
            set_result(v)
            return
        if kind == "stablehlo.dot_general":
            set_result(self.dot_general(operands, attrs, t))
            return
        if kind == "stablehlo.reduce":
            for i, v in enumerate(self.reduce(op, operands, attrs,
                                              [ttype(r.type) for r in results])):
                set_result(v, i)
            return
        if kind == "stablehlo.reduce_window":
            set_result(self.reduce_window(op, operands, attrs, t))
            return
        if kind == "stablehlo.convolution":
            set_result(self.convolution(operands, attrs, t))
            return
        if kind == "stablehlo.iota":
            dim = ir.IntegerAttr(attrs["iota_dimension"]).value

            def body(a, lines, dim=dim, e=t.elem):
                lines += [f"%i = linalg.index {dim} : index",
                          f"%n = arith.index_cast %i : index to i64"]
                if e.startswith(("f", "bf")):
                    lines.append(f"%r = arith.sitofp %n : i64 to {e}")
                elif e == "i64":
                    return "%n"
                else:
                    lines.append(f"%r = arith.trunci %n : i64 to {e}")
                return "%r"
            set_result(self.generic([], [], t, body))
            return
        if kind == "stablehlo.slice":
            src = ttype(operands[0].type)
            start = list(attrs["start_indices"])
            strides = list(attrs["strides"])
            v = self.fresh()
            self.emit_line(
                f"{v} = tensor.extract_slice {self.name(operands[0])}"
                f"[{', '.join(map(str, start))}] [{', '.join(map(str, t.shape))}] "
                f"[{', '.join(map(str, strides))}] : {src} to {t}")
            set_result(v)
            return
        if kind == "stablehlo.concatenate":
            dim = ir.IntegerAttr(attrs["dimension"]).value
            cur = self.empty(t)
            offset = 0
            for x in operands:
                xt = ttype(x.type)
                offs = ["0"] * t.rank
                offs[dim] = str(offset)
                v = self.fresh()
                self.emit_line(
                    f"{v} = tensor.insert_slice {self.name(x)} into {cur}"
                    f"[{', '.join(offs)}] [{', '.join(map(str, xt.shape))}] "
                    f"[{', '.join(['1'] * t.rank)}] : {xt} into {t}")
                cur = v
                offset += xt.shape[dim]
            set_result(cur)
            return
        if kind == "stablehlo.gather":
            set_result(self.gather(operands, attrs, t))
            return
        raise UnsupportedOp(kind)

    def dot_general(self, operands, attrs, out: TType) -> str:
        from jaxlib.mlir.dialects import stablehlo

        d = stablehlo.DotDimensionNumbers(attrs["dot_dimension_numbers"])
        lhs, rhs = operands
        lt, rt = ttype(lhs.type), ttype(rhs.type)
        if not (lt.is_float and lt.elem == rt.elem == out.elem):
            raise UnsupportedOp(f"dot_general of {lt.elem} x {rt.elem} -> {out.elem}")
        lb, lc = list(d.lhs_batching_dimensions), list(d.lhs_contracting_dimensions)
        rb, rc = list(d.rhs_batching_dimensions), list(d.rhs_contracting_dimensions)
        lf = [i for i in range(lt.rank) if i not in lb + lc]
        rf = [i for i in range(rt.rank) if i not in rb + rc]
        B, M, K = (_prod(lt.shape[i] for i in dims) for dims in (lb, lf, lc))
        N = _prod(rt.shape[i] for i in rf)
        lhs_v, lhs_t = self.transpose(self.name(lhs), lt, lb + lf + lc)
        rhs_v, rhs_t = self.transpose(self.name(rhs), rt, rb + rc + rf)
        if lb:
            a_t, b_t, c_t = (TType((B, M, K), lt.elem), TType((B, K, N), lt.elem),
                             TType((B, M, N), lt.elem))
            op = "linalg.batch_matmul"
        else:
            a_t, b_t, c_t = (TType((M, K), lt.elem), TType((K, N), lt.elem),
                             TType((M, N), lt.elem))
            op = "linalg.matmul"
        a = self.reshape(lhs_v, lhs_t, a_t)
        b = self.reshape(rhs_v, rhs_t, b_t)
        init = self.fill(c_t, "0.0")
        v = self.fresh("mm")
        self.emit_line(f"{v} = {op} ins({a}, {b} : {a_t}, {b_t}) outs({init} : {c_t}) -> {c_t}")
        return self.reshape(v, c_t, out)

    @staticmethod
    def _combiner(op, xt: TType):
        """The arith op of a reduction body that is one add/mul/max/min/
        and/or of its two arguments (then a return), else None."""
        body_ops = [b.operation.name for b in op.regions[0].blocks[0].operations]
        table = _FLOAT_BIN if xt.is_float else _INT_BIN
        if len(body_ops) != 2 or body_ops[0] not in (
                "stablehlo.add", "stablehlo.multiply", "stablehlo.maximum",
                "stablehlo.minimum", "stablehlo.and", "stablehlo.or") or \
                body_ops[0] not in table:
            return None
        return table[body_ops[0]]

    def reduce(self, op, operands, attrs, outs: list) -> list:
        """A reduce: linalg.reduce with the body's one combiner, or, for
        several operands (argmax: values and their iota) or a longer body,
        with the body translated op by op into scalars."""
        n = len(operands) // 2
        xs, inits = operands[:n], operands[n:]
        xts = [ttype(x.type) for x in xs]
        dims = ", ".join(map(str, attrs["dimensions"]))
        filled = [self.filled(out, self.scalar_of(init)) for init, out in zip(inits, outs)]
        comb = self._combiner(op, xts[0]) if n == 1 else None
        lines, block = [], op.regions[0].blocks[0]
        if comb:
            lines.append(f"%r = {comb} %in0, %acc0 : {xts[0].elem}")
            yields = ["%r"]
        else:
            # The body's arguments: the accumulators, then the elements.
            args = list(block.arguments)
            names = {args[i]: f"%acc{i}" for i in range(n)}
            names.update({args[n + i]: f"%in{i}" for i in range(n)})
            yields = self.scalar_region(block, names, lines)
        v = self.fresh("red")
        self.emit_line(
            f"{v}{f':{n}' if n > 1 else ''} = linalg.reduce "
            f"ins({', '.join(self.name(x) for x in xs)} : {', '.join(map(str, xts))}) "
            f"outs({', '.join(filled)} : {', '.join(map(str, outs))}) dimensions = [{dims}]")
        self.emit_line("  (" + ", ".join([f"%in{i}: {t.elem}" for i, t in enumerate(xts)] +
                                         [f"%acc{i}: {t.elem}" for i, t in enumerate(outs)])
                       + ") {")
        for line in lines:
            self.emit_line("    " + line)
        self.emit_line(f"    linalg.yield {', '.join(yields)} : "
                       f"{', '.join(t.elem for t in outs)}")
        self.emit_line("  }")
        return [f"{v}#{i}" for i in range(n)] if n > 1 else [v]

    def scalar_region(self, block, names: dict, lines: list) -> list:
        """The ops of a reduction body (0-d tensors) as scalar arith lines
        appended to `lines`; `names` maps the block's arguments to scalar
        names. Returns the names the body returns."""
        from jaxlib.mlir.dialects import stablehlo

        for o in block.operations:
            op = o.operation
            kind, ops = op.name, list(op.operands)
            a = [names[x] for x in ops]
            if kind == "stablehlo.return":
                return a
            e = ttype(ops[0].type).elem if ops else ttype(op.results[0].type).elem
            r = f"%b{len(lines)}"
            if kind == "stablehlo.constant":
                ct = ttype(op.results[0].type)
                lines += [f"{r}t = arith.constant {op.attributes['value']}",
                          f"{r} = tensor.extract {r}t[] : {ct}"]
            elif kind == "stablehlo.compare":
                direction = stablehlo.ComparisonDirectionAttr(
                    op.attributes["comparison_direction"]).value
                if e.startswith(("f", "bf")):
                    lines.append(f"{r} = arith.cmpf {_CMP_F[direction]}, {a[0]}, {a[1]} : {e}")
                else:
                    lines.append(f"{r} = arith.cmpi {_CMP_I[direction]}, {a[0]}, {a[1]} : {e}")
            elif kind == "stablehlo.select":
                e = ttype(ops[1].type).elem
                lines.append(f"{r} = arith.select {a[0]}, {a[1]}, {a[2]} : {e}")
            elif kind == "stablehlo.not" and e == "i1":
                lines += [f"{r}t = arith.constant true", f"{r} = arith.xori {a[0]}, {r}t : i1"]
            elif kind in (_FLOAT_BIN if e.startswith(("f", "bf")) else _INT_BIN):
                fn = (_FLOAT_BIN if e.startswith(("f", "bf")) else _INT_BIN)[kind]
                lines.append(f"{r} = {fn} {a[0]}, {a[1]} : {e}")
            else:
                raise UnsupportedOp(f"{kind} in a reduction body")
            names[op.results[0]] = r
        raise UnsupportedOp("a reduction body without a return")

    # -- windows: convolution, reduce_window --------------------------------
    @staticmethod
    def _ints(attrs, key, default):
        """An i64 array attribute (or a bool array) as ints; `default` when
        the op leaves it out."""
        if key not in attrs:
            return list(default)
        return [int(x) for x in attrs[key]]

    @staticmethod
    def _padding(attrs, rank):
        """The (low, high) padding of each of `rank` dims."""
        import numpy as np
        from jaxlib.mlir import ir

        if "padding" not in attrs:
            return [(0, 0)] * rank
        pad = np.asarray(ir.DenseIntElementsAttr(attrs["padding"])).reshape(rank, 2)
        if (pad < 0).any():
            raise UnsupportedOp("negative padding")
        return [(int(lo), int(hi)) for lo, hi in pad]

    def pad(self, x: str, src: TType, pads, value: str) -> tuple:
        """`x` padded by `pads` ((low, high) per dim) with the scalar
        `value`: a filled tensor with `x` inserted."""
        if not any(lo or hi for lo, hi in pads):
            return x, src
        dst = TType(tuple(d + lo + hi for d, (lo, hi) in zip(src.shape, pads)), src.elem)
        v = self.fresh("pad")
        self.emit_line(
            f"{v} = tensor.insert_slice {x} into {self.filled(dst, value)}"
            f"[{', '.join(str(lo) for lo, _ in pads)}] [{', '.join(map(str, src.shape))}] "
            f"[{', '.join(['1'] * src.rank)}] : {src} into {dst}")
        return v, dst

    def convolution(self, operands, attrs, out: TType) -> str:
        """A convolution as im2col and one matmul: the (padded) input's
        windows gathered into a [batch x output positions, window x
        features] matrix times the kernel as [window x features, output
        features], so the register-blocked matmul does the work."""
        from jaxlib.mlir import ir
        from jaxlib.mlir.dialects import stablehlo

        lhs, rhs = operands
        lt, rt = ttype(lhs.type), ttype(rhs.type)
        if not (lt.is_float and lt.elem == rt.elem == out.elem):
            raise UnsupportedOp(f"convolution of {lt.elem} x {rt.elem} -> {out.elem}")
        d = stablehlo.ConvDimensionNumbers(attrs["dimension_numbers"])
        k = len(d.input_spatial_dimensions)
        for key in ("feature_group_count", "batch_group_count"):
            if key in attrs and ir.IntegerAttr(attrs[key]).value != 1:
                raise UnsupportedOp(f"convolution with {key} "
                                    f"{ir.IntegerAttr(attrs[key]).value}")
        strides = self._ints(attrs, "window_strides", [1] * k)
        dilation = self._ints(attrs, "rhs_dilation", [1] * k)
        if any(x != 1 for x in self._ints(attrs, "lhs_dilation", [1] * k)):
            raise UnsupportedOp("convolution with an input dilation (transposed)")
        if any(self._ints(attrs, "window_reversal", [0] * k)):
            raise UnsupportedOp("convolution with window reversal")
        pads = self._padding(attrs, k)
        # The input as [N, spatial..., C], padded with zeros; the kernel as
        # [window..., C, F].
        x, xt = self.transpose(self.name(lhs), lt, [d.input_batch_dimension,
                                                    *d.input_spatial_dimensions,
                                                    d.input_feature_dimension])
        x, xt = self.pad(x, xt, [(0, 0), *pads, (0, 0)], self.scalar_const("0.0", lt.elem))
        w, wt = self.transpose(self.name(rhs), rt, [*d.kernel_spatial_dimensions,
                                                    d.kernel_input_feature_dimension,
                                                    d.kernel_output_feature_dimension])
        n, c, f = xt.shape[0], xt.shape[-1], wt.shape[-1]
        window = wt.shape[:k]
        positions = tuple(out.shape[i] for i in d.output_spatial_dimensions)
        pt = TType((n, *positions, *window, c), lt.elem)
        rank = pt.rank
        exprs = ["d0"] + [f"d{1 + i} * {strides[i]} + d{1 + k + i} * {dilation[i]}"
                          for i in range(k)] + [f"d{rank - 1}"]
        patches = self.generic([(x, xt)], [_map(rank, exprs)], pt, lambda a, lines: a[0])
        m = n * _prod(positions)
        a_t = TType((m, _prod(window) * c), lt.elem)
        b_t = TType((_prod(window) * c, f), lt.elem)
        c_t = TType((m, f), lt.elem)
        a, b = self.reshape(patches, pt, a_t), self.reshape(w, wt, b_t)
        init = self.fill(c_t, "0.0")
        mm = self.fresh("mm")
        self.emit_line(f"{mm} = linalg.matmul ins({a}, {b} : {a_t}, {b_t}) "
                       f"outs({init} : {c_t}) -> {c_t}")
        ours = TType((n, *positions, f), lt.elem)
        perm = [0] * (k + 2)
        perm[d.output_batch_dimension] = 0
        for i, sd in enumerate(d.output_spatial_dimensions):
            perm[sd] = 1 + i
        perm[d.output_feature_dimension] = k + 1
        v, _ = self.transpose(self.reshape(mm, c_t, ours), ours, perm)
        return v

    def reduce_window(self, op, operands, attrs, out: TType) -> str:
        """Pooling: a linalg.generic over the output's dims (parallel) and
        the window's dims (reduction) reading the input padded with the
        init value."""
        if len(operands) != 2:
            raise UnsupportedOp("reduce_window of several operands")
        x, init = operands
        xt = ttype(x.type)
        comb = self._combiner(op, xt)
        if comb is None:
            raise UnsupportedOp("reduce_window with a body other than one "
                                "add/mul/max/min/and/or")
        r = xt.rank
        win = self._ints(attrs, "window_dimensions", [])
        strides = self._ints(attrs, "window_strides", [1] * r)
        dilation = self._ints(attrs, "window_dilations", [1] * r)
        if any(b != 1 for b in self._ints(attrs, "base_dilations", [1] * r)):
            raise UnsupportedOp("reduce_window with base dilations")
        s = self.scalar_of(init)
        xv, pt = self.pad(self.name(x), xt, self._padding(attrs, r), s)
        wdims = [i for i in range(r) if win[i] > 1]
        dom = r + len(wdims)
        # The loops: the output's dims, then the window's (reductions); but
        # when the innermost dim has no window (channels last: NHWC
        # pooling), it stays innermost, after the window, so that the loop
        # the vectorizer sees runs along contiguous channels.
        inner = r > 1 and (r - 1) not in wdims
        out_dims = [f"d{i}" for i in range(r)]
        win_dims = [f"d{r + j}" for j in range(len(wdims))]
        its = ['"parallel"'] * r + ['"reduction"'] * len(wdims)
        if inner:
            out_dims[r - 1] = f"d{dom - 1}"
            win_dims = [f"d{r - 1 + j}" for j in range(len(wdims))]
            its = ['"parallel"'] * (r - 1) + ['"reduction"'] * len(wdims) + ['"parallel"']
        exprs = []
        for i in range(r):
            e = f"{out_dims[i]} * {strides[i]}"
            if i in wdims:
                e += f" + {win_dims[wdims.index(i)]} * {dilation[i]}"
            exprs.append(e)
        filled = self.filled(out, s)
        ins, maps, args = [(xv, pt)], [_map(dom, exprs)], [f"%in: {xt.elem}"]
        if wdims:
            # The window's extents, for the loop bounds (as linalg's pooling
            # ops take them): never read.
            wt = TType(tuple(win[i] for i in wdims), xt.elem)
            ins.append((self.empty(wt), wt))
            maps.append(_map(dom, win_dims))
            args.append(f"%w: {xt.elem}")
        maps.append(_map(dom, out_dims))
        its = ", ".join(its)
        v = self.fresh("pool")
        self.emit_line(
            f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{its}]}} ins({', '.join(n for n, _ in ins)} : "
            f"{', '.join(str(t) for _, t in ins)}) outs({filled} : {out}) {{")
        self.emit_line(f"^bb0({', '.join(args)}, %acc: {out.elem}):")
        self.emit_line(f"  %r = {comb} %in, %acc : {out.elem}")
        self.emit_line(f"  linalg.yield %r : {out.elem}")
        self.emit_line(f"}} -> {out}")
        return v

    def gather(self, operands, attrs, out: TType) -> str:
        """Rows of a table: operand [R, D...], indices [..., 1] -> [..., D...]."""
        from jaxlib.mlir.dialects import stablehlo

        table, idx = operands
        tt, it = ttype(table.type), ttype(idx.type)
        g = stablehlo.GatherDimensionNumbers(attrs["dimension_numbers"])
        sizes = list(attrs["slice_sizes"])
        batch_rank = it.rank - 1
        if not (list(g.collapsed_slice_dims) == [0] and list(g.start_index_map) == [0]
                and g.index_vector_dim == it.rank - 1 and it.shape[-1] == 1
                and sizes == [1] + list(tt.shape[1:])
                and list(g.offset_dims) == list(range(batch_rank, out.rank))):
            raise UnsupportedOp("gather other than a lookup of whole rows")
        rank = out.rank
        idx_map = _map(rank, [f"d{i}" for i in range(batch_rank)] + ["0"])
        ins = [(self.name(idx), it)]

        def body(a, lines, tt=tt, it=it, batch_rank=batch_rank, rank=rank):
            lines.append(f"%row = arith.index_cast {a[0]} : {it.elem} to index")
            cols = [f"%j{k}" for k in range(rank - batch_rank)]
            for k, c in enumerate(cols):
                lines.append(f"{c} = linalg.index {batch_rank + k} : index")
            lines.append(f"%r = tensor.extract {self.name(table)}[%row"
                         f"{''.join(', ' + c for c in cols)}] : {tt}")
            return "%r"
        return self.generic(ins, [idx_map], out, body)

    # -- functions ------------------------------------------------------
    def function(self, fop) -> list:
        from jaxlib.mlir import ir

        name = ir.StringAttr(fop.attributes["sym_name"]).value
        new_name = self.rename.get(name, name)
        block = fop.regions[0].blocks[0]
        ftype = ir.FunctionType(ir.TypeAttr(fop.attributes["function_type"]).value)
        self.fn = _Func()
        self.current = name
        scalars = set(self.scalar_args.get(name, ()))
        params = []
        for i, arg in enumerate(block.arguments):
            t = ttype(arg.type)
            if i in scalars:
                if t.rank != 0 or t.is_float:
                    raise UnsupportedOp(f"argument {i} of {name} is {t}, not an "
                                        "integer scalar")
                params.append(f"%arg{i}: {t.elem}")
                v = self.fresh("st")
                self.emit_line(f"{v} = tensor.from_elements %arg{i} : {t}")
                self.fn.names[arg] = v
            else:
                # Inputs are read-only: the caller's arrays are never written.
                params.append(f"%arg{i}: {t} {{bufferization.writable = false}}")
                self.fn.names[arg] = f"%arg{i}"
        for o in block.operations:
            try:
                self.op(o)
            except UnsupportedOp as e:
                loc = str(o.operation.location)
                raise UnsupportedOp(f"{e} ({o.operation.name} in @{new_name}, {loc})") \
                    from None
        result_types = [ttype(t) for t in ftype.results]
        if name in self.scalar_results:
            result_types = [t.elem for t in result_types]
        results = ", ".join(str(t) for t in result_types)
        visibility = "" if "sym_visibility" not in fop.attributes or \
            ir.StringAttr(fop.attributes["sym_visibility"]).value == "public" \
            else "private "
        attr = " attributes {llvm.emit_c_interface}" \
            if self.c_interface and not visibility else ""
        head = (f"  func.func {visibility}@{new_name}({', '.join(params)}) -> "
                f"({results}){attr} {{")
        return [head] + self.fn.lines + ["  }"]

    def emit(self) -> str:
        from jaxlib.mlir import ir

        funcs = list(self.module.body.operations)
        for fop in funcs:
            if fop.operation.name != "func.func":
                raise UnsupportedOp(f"top-level {fop.operation.name}")
        # JAX's private helpers (jnp.argmax's is @argmax) keep their names
        # unless one is a name given to another function: then it is renamed.
        names = [ir.StringAttr(f.attributes["sym_name"]).value for f in funcs]
        taken = set(names) | set(self.rename.values())
        for n in names:
            if n not in self.rename and n in self.rename.values():
                k = 1
                while f"{n}_{k}" in taken:
                    k += 1
                self.rename[n] = f"{n}_{k}"
                taken.add(f"{n}_{k}")
        out = ["module {"]
        for fop in funcs:
            out += self.function(fop)
        out.append("}")
        return "\n".join(out) + "\n"


def stablehlo_to_linalg(module, **kwargs) -> str:
    """The linalg-on-tensors text of a StableHLO module (jaxlib ir.Module)."""
    return Importer(module, **kwargs).emit()
