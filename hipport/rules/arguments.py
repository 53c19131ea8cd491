"""Argument rewrites from mappings/arguments.tsv: per CUDA call, an argument wrapped in
`HIP_SYMBOL(...)` or cast, removed, moved, replaced by a constant, a constant or a copied
argument added, on the hip path, with `--roc`, or where cuDNN goes to MIOpen.

A row holds while the call maps to the function it was written for (`hip_function`), so a
newer mapping to another function drops it: rewrites are versioned with the names. The
call's argument list is parsed from tokens (nested brackets, template arguments, comments,
line breaks); the new list is one composite edit whose kept arguments are copied as the
other rules translate them (edits.compose). Separators stay where they were: the n-th
argument keeps the n-th comma's spacing, line break or comment. A call that cannot be
parsed safely is left alone and reported with the reason; an argument dropped on purpose
(DataLoss) is reported too.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hipport.catalogue import ARGUMENTS_NOT_REWRITTEN, DATA_LOSS
from hipport.edits import Edit
from hipport.lexer import IDENTIFIER, LITERAL, PUNCTUATION, Token, Tokens
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.tokens import (
    close_of,
    is_member_or_qualified,
    is_punct,
    next_code,
)
from hipport.tables import Status
from hipport.tables.arguments import (
    KERNEL_CAST,
    SYMBOL_WRAPPER,
    ArgumentRewrite,
    describe,
    side_of,
)

if TYPE_CHECKING:
    from hipport.mappings import Mappings

_CASTS = ("reinterpret_cast", "static_cast", "const_cast", "(")
_SIDE_EFFECTS = frozenset({"++", "--", "=", "+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>="})


@dataclass
class _Slot:
    """One argument of the new list: a source span (start, end) with text around it, or
    literal text. `key` orders the slots (original index; moved and added ones between)."""

    key: tuple[float, int]
    span: tuple[int, int] | None = None
    text: str = ""
    before: str = ""
    after: str = ""


@dataclass
class _Call:
    name: str
    new_name: str
    spans: list[tuple[int, int]]  # byte spans of the arguments' code
    texts: list[str]  # their source text
    first_tokens: list[Token]
    token_ranges: list[tuple[int, int]]
    slots: dict[int, _Slot] = field(default_factory=dict)
    added: list[_Slot] = field(default_factory=list)
    removed: set[int] = field(default_factory=set)


class _Unsafe(Exception):
    """The call's arguments do not allow the rewrite; the message says why."""


class ArgumentsRule:
    name = "arguments"
    priority = 50
    codes = (DATA_LOSS.code, ARGUMENTS_NOT_REWRITTEN.code)
    triggers = Triggers(data=lambda m: m.arguments.calls.keys())

    def vocabulary(self, mappings: Mappings) -> Collection[str]:
        """The CUDA calls with rewrites (looked up in the shared code-token index)."""
        return mappings.arguments.calls.keys()

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        table = ctx.mappings.arguments
        if not table.calls or ctx.identifiers.isdisjoint(table.calls):
            return out  # no call of the table in the file: no code index, no Token needed
        texts = ctx.tokens.texts
        skip = ctx.options.disabled_mappings | ctx.user_declared
        user = ctx.options.user_renames
        code = ctx.code
        lists: list[frozenset[str]] = []  # the file's argument-list macros, on first need
        for k in code.indices(table.calls.keys()):
            i = code.tokens.to_all(k)
            name = texts[i]
            if name in skip or name in user:
                continue
            d = ctx.directive_at.get(i)
            if d is not None and d.name == "include":
                continue
            if is_member_or_qualified(ctx.tokens, i, ctx.directive_at):
                continue
            res = ctx.resolve(name)
            if res.status is not Status.MAPPED:
                continue  # the rename rule reports it; nothing is rewritten
            new_name = res.new_name or name
            rows = table.rewrites(name, side_of(res.library), new_name)
            if rows:
                self._call(ctx, i, new_name, rows, lists, out)
        return out

    def _call(
        self,
        ctx: Context,
        i: int,
        new_name: str,
        rows: list[ArgumentRewrite],
        lists: list[frozenset[str]],
        out: RuleResult,
    ) -> None:
        edits, findings = out.edits, out.findings
        tokens = ctx.tokens
        tok = tokens[i]
        lparen = next_code(tokens, i)
        if lparen is None or not is_punct(tokens, lparen, "("):
            return  # the name without a call (a function pointer, a #define alias)
        try:
            if not lists:
                lists.append(_argument_list_macros(ctx))
            call = _parse(ctx, i, lparen, new_name, lists[0])
            for row in sorted(rows, key=_order):
                _ACTIONS[row.action](ctx, call, row, findings, tok)
            _fit_arity(call, rows)
        except _Unsafe as why:
            findings.append(
                ctx.finding(
                    ARGUMENTS_NOT_REWRITTEN.code,
                    tok.start,
                    tok.end,
                    f"{tok.text} -> {new_name}: arguments not rewritten: {why}",
                    api=tok.text,
                    hip=new_name,
                    hint=_describe(rows),
                )
            )
            return
        if _changed(call):
            rparen = close_of(ctx.tokens, lparen)
            assert rparen is not None  # _parse checked it
            edits.append(_composite(ctx, call, tokens[lparen].end, tokens[rparen].start))


def _order(row: ArgumentRewrite) -> int:
    """Wraps and casts first (they edit an argument in place), then the rest in file order."""
    return 0 if row.action in ("HIP-SYMBOL", "reinterpret-cast", "reinterpret-cast-size-t") else 1


def _parse(ctx: Context, i: int, lparen: int, new_name: str, lists: frozenset[str]) -> _Call:
    tokens = ctx.tokens
    rparen = close_of(ctx.tokens, lparen)
    if rparen is None:
        raise _Unsafe("its parentheses do not balance (an #if or a macro inside the call?)")
    home = ctx.directive_at.get(i)
    for k in range(lparen, rparen):
        if ctx.directive_at.get(k) is not home:
            raise _Unsafe("a preprocessor line sits inside the argument list")
    code = tokens.code()
    args = code.arguments(code.from_all(lparen), code.from_all(rparen), templates=True)
    if args is None:
        raise _Unsafe("its brackets do not balance")
    ranges = []  # in all-token indices, from the first code token to the last
    for a, b in args:
        if a >= b:
            raise _Unsafe("an argument is empty")
        ranges.append((code.to_all(a), code.to_all(b - 1) + 1))
    for a, b in ranges:
        if any(tokens[k].text == "__VA_ARGS__" for k in range(a, b)):
            raise _Unsafe("__VA_ARGS__ is among the arguments, so their number is not known")
    for k, (a, b) in enumerate(ranges):
        if b - a == 1 and tokens[a].text in lists:
            raise _Unsafe(
                f"argument {k + 1} is the macro {tokens[a].text}, which expands to several "
                "arguments"
            )
    src = ctx.source
    spans = [(tokens[a].start, tokens[b - 1].end) for a, b in ranges]
    texts = [src[s:e].decode("utf-8", "surrogateescape") for s, e in spans]
    call = _Call(tokens[i].text, new_name, spans, texts, [tokens[a] for a, _ in ranges], ranges)
    for k, span in enumerate(spans):
        call.slots[k] = _Slot((float(k), 0), span)
    return call


def _argument_list_macros(ctx: Context) -> frozenset[str]:
    """Object-like macros of this file whose body holds a top-level comma: used as one
    argument, they pass several."""
    tokens = ctx.tokens
    out = set()
    for d in ctx.directives:
        if d.name != "define" or d.hash + 3 >= d.end:
            continue
        name, after = tokens[d.hash + 2], tokens[d.hash + 3]
        if after.text == "(" and after.start == name.end:
            continue  # function-like
        depth = 0
        for k in range(d.hash + 3, d.end):
            text = tokens[k].text
            if tokens[k].kind != PUNCTUATION:
                continue
            depth += text in ("(", "[", "{")
            depth -= text in (")", "]", "}")
            if text == "," and depth == 0:
                out.add(name.text)
                break
    return frozenset(out)


def _need(call: _Call, k: int | None, row: ArgumentRewrite, what: str) -> int:
    if k is None or k >= len(call.spans):
        count = len(call.spans)
        raise _Unsafe(
            f"{what} needs argument {(k or 0) + 1}, the call passes {count} "
            f"(an argument list built by a macro?)"
        )
    return k


def _symbol(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = _need(call, row.arg, row, f"{SYMBOL_WRAPPER}(...)")
    first = call.first_tokens[k]
    if first.text == SYMBOL_WRAPPER:
        return
    a, b = call.token_ranges[k]
    if first.kind == LITERAL and b - a == 1:
        raise _Unsafe(
            "the symbol is given by name (a string), which CUDA 5 removed; pass the symbol "
            f"itself, wrapped in {SYMBOL_WRAPPER}(...)"
        )
    _wrap(call, k, SYMBOL_WRAPPER + "(", ")")


def _cast(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    to = "size_t*" if row.action == "reinterpret-cast-size-t" else row.value or KERNEL_CAST
    k = _need(call, row.arg, row, f"the cast to {to}")
    a, b = call.token_ranges[k]
    tokens = ctx.tokens
    if to == KERNEL_CAST:
        # a kernel given by name is cast; a pointer expression (a cast, ...) is one already
        if not _plain_name(tokens, a, b):
            return
    elif tokens[a].text in _CASTS:
        return  # the code casts it itself
    _wrap(call, k, f"reinterpret_cast<{to}>(", ")")


def _remove(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = row.arg
    if k is None or k >= len(call.spans):
        return  # the call does not pass it (a defaulted parameter): nothing to drop
    call.removed.add(k)
    if row.data_loss:
        findings.append(
            ctx.finding(
                DATA_LOSS.code,
                call.spans[k][0],
                call.spans[k][1],
                f"{call.name} -> {call.new_name}: argument {k + 1} (`{call.texts[k]}`) is "
                f"dropped: {call.new_name} has no parameter for it",
                api=call.name,
                hip=call.new_name,
                hint="check that the call still does what the code needs",
            )
        )


def _move(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = _need(call, row.arg, row, "moving an argument")
    _need(call, k + row.count - 1, row, "moving an argument")
    to = row.move_to
    if to is None or to > len(call.spans):
        raise _Unsafe(f"an argument moves to position {to}, past the call's {len(call.spans)}")
    for j in range(row.count):
        call.slots[k + j].key = (to - 0.5, k + j)


def _replace(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = _need(call, row.arg, row, f"putting {row.value} in place")
    if call.texts[k] == row.value:
        return
    slot = call.slots[k]
    slot.span, slot.text, slot.before, slot.after = None, row.value, "", ""


def _add_const(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = row.arg if row.arg is not None else len(call.spans)
    values = [_filled(ctx, v) for v in row.values]
    n = len(call.spans)
    if k < n and call.texts[k : k + len(values)] == values:
        return  # already there
    for j, value in enumerate(values):
        key = (k - 0.5, j) if k < n else (float(n + k), j)
        call.added.append(_Slot(key, text=value))


def _filled(ctx: Context, value: str) -> str:
    """A value with the target's HIP version in place of `{hip_version}` (major * 100 +
    minor, as HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR counts it)."""
    if "{hip_version}" not in value:
        return value
    rocm = ctx.target.rocm or ctx.tables.newest_rocm
    major, minor = (rocm.parts + (0,))[:2]
    return value.replace("{hip_version}", str(major * 100 + minor))


def _add_var(ctx: Context, call: _Call, row: ArgumentRewrite, findings, tok) -> None:
    k = _need(call, row.arg, row, "copying an argument")
    to = row.move_to if row.move_to is not None else len(call.spans)
    a, b = call.token_ranges[k]
    tokens = ctx.tokens
    if any(tokens[j].kind == PUNCTUATION and tokens[j].text in _SIDE_EFFECTS for j in range(a, b)):
        raise _Unsafe(f"argument {k + 1} would be passed twice, and it has a side effect")
    key = (to - 0.5, 0) if to < len(call.spans) else (float(len(call.spans) + to), 0)
    call.added.append(_Slot(key, span=call.spans[k]))


_ACTIONS = {
    "HIP-SYMBOL": _symbol,
    "reinterpret-cast": _cast,
    "reinterpret-cast-size-t": _cast,
    "remove-argument": _remove,
    "move-argument": _move,
    "replace-argument-with-const": _replace,
    "add-const-argument": _add_const,
    "add-var-argument": _add_var,
}


def _wrap(call: _Call, k: int, before: str, after: str) -> None:
    slot = call.slots[k]
    slot.before = before + slot.before
    slot.after = slot.after + after


def _fit_arity(call: _Call, rows: list[ArgumentRewrite]) -> None:
    """An argument to add may be one the call passes already (CUDA's C++ overloads take it,
    a defaulted parameter given): never give the HIP function more arguments than its
    declaration has (where that is known), dropping the additions from the last."""
    arity = next((r.hip_arity for r in rows if r.hip_arity is not None), None)
    if arity is None:
        return
    n = len(call.spans) - len(call.removed)
    while call.added and n + len(call.added) > arity:
        call.added.remove(max(call.added, key=lambda s: s.key))


def _changed(call: _Call) -> bool:
    return bool(call.added or call.removed) or any(
        s.key != (float(k), 0) or s.span != call.spans[k] or s.before or s.after
        for k, s in call.slots.items()
    )


def _composite(ctx: Context, call: _Call, start: int, end: int) -> Edit:
    """The new argument list as one composite edit over the bytes between the parens.

    Every argument that stays keeps the separator before it (its comma, spacing, line
    break or comment); an argument dropped or moved away takes its own with it (the one
    after it when it was the first, or when its own holds a comment, which is kept); one
    moved or added before argument j takes j's separator and j gets `, ` (as if the text
    `x, ` were inserted before j); one added at the end gets `, `."""
    spans = call.spans
    n = len(spans)
    seps: list[tuple[int, int] | None] = [None] + [
        (spans[k - 1][1], spans[k][0]) for k in range(1, n)
    ]
    src = ctx.source
    gone = set(call.removed) | {k for k, s in call.slots.items() if s.key != (float(k), 0)}
    for k in sorted(gone):
        sep = seps[k]
        if k + 1 < n and (sep is None or _has_comment(src, sep)):
            seps[k + 1] = None if sep is None else seps[k + 1]
            if sep is not None:
                seps[k], seps[k + 1] = None, sep
        else:
            seps[k] = None
    kept = [s for k, s in call.slots.items() if k not in call.removed]
    order = sorted(kept + call.added, key=lambda s: s.key)
    index = {id(s): k for k, s in call.slots.items()}
    parts: list[bytes | tuple[int, int]] = [(start, spans[0][0]) if n else b""]
    for j, slot in enumerate(order):
        k = index.get(id(slot))
        if j:
            parts.append(_separator(slot, k, seps, n))
        parts += [slot.before.encode(), slot.span or slot.text.encode(), slot.after.encode()]
    parts.append((spans[-1][1], end) if n else (start, end))
    parts = [p for p in parts if p != b""]
    return Edit(start, end, b"", "arguments", ctx.source[start:end], tuple(parts))


def _separator(
    slot: _Slot, k: int | None, seps: list[tuple[int, int] | None], n: int
) -> bytes | tuple[int, int]:
    if k is not None and slot.key == (float(k), 0):
        sep = seps[k]
        seps[k] = None
        return sep if sep is not None else b", "
    j = int(slot.key[0] + 0.5)  # placed before original argument j
    if j < n and seps[j] is not None:
        sep = seps[j]
        seps[j] = None
        return sep
    return b", "


def _has_comment(src: bytes, span: tuple[int, int]) -> bool:
    text = src[span[0] : span[1]]
    return b"/*" in text or b"//" in text


def _plain_name(tokens: Tokens, a: int, b: int) -> bool:
    """`k`, `ns::k`, `&k`, `k<T, 4>`: a (qualified, template) name, maybe with `&`."""
    if tokens[a].text == "&":
        a += 1
    if a >= b or tokens[a].kind != IDENTIFIER or tokens[a].text in _CASTS:
        return False
    j = a + 1
    while j + 1 < b and tokens[j].text == "::" and tokens[j + 1].kind == IDENTIFIER:
        j += 2
    if j < b and tokens[j].text == "<" and tokens[b - 1].text in (">", ">>"):
        return True
    return j == b


def _describe(rows: list[ArgumentRewrite]) -> str:
    """What the rewrite would have done, for the finding's hint."""
    return "; ".join(describe(r) for r in rows)


RULE = ArgumentsRule()
