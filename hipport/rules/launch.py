"""Kernel launches: `<<<...>>>` is kept by default (HIP accepts it). With
`Target.launch_syntax == "hip"`, `k<<<g, b[, shm[, s]]>>>(args)` becomes
`hipLaunchKernelGGL(k, dim3(g), dim3(b), shm, s, args)`; a kernel that is not a plain
identifier (template arguments, a qualified name, a macro) is wrapped in
`HIP_KERNEL_NAME(...)`, and a configuration argument that is already a `dim3(...)`
expression is kept as written. Launches in macro bodies and in every #if arm
are rewritten the same way (tokens see all arms). Only the bytes between the pieces
change, so renames inside the configuration or the arguments still apply, and comments and
line breaks survive."""

from __future__ import annotations

from bisect import bisect_left

from hipport.catalogue import NEEDS_HUMAN
from hipport.edits import Edit
from hipport.findings import Finding
from hipport.lexer import COMMENT, IDENTIFIER, PUNCTUATION, Tokens
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.tokens import (
    close_of,
    is_launch_close,
    is_launch_open,
    is_punct,
    next_code,
    prev_code,
    template_open,
)


class LaunchRule:
    name = "launch"
    priority = 40
    triggers = Triggers(texts=(b"<<<",))  # a launch's `<<` `<` touch: the source spells <<<

    codes = (NEEDS_HUMAN.code,)

    def run(self, ctx: Context) -> RuleResult:
        if ctx.target.launch_syntax != "hip":
            return RuleResult()
        edits: list[Edit] = []
        findings: list[Finding] = []
        tokens = ctx.tokens
        code = ctx.code
        for k in code.indices(("<<",), (PUNCTUATION,)):
            i = code.tokens.to_all(k)
            if is_launch_open(tokens, i):
                self._launch(ctx, i, edits, findings)
        return RuleResult(edits, findings)

    def _launch(self, ctx: Context, i: int, edits: list[Edit], findings: list[Finding]) -> None:
        tokens = ctx.tokens
        parts = _parse(ctx, i)
        if isinstance(parts, str):
            findings.append(
                ctx.finding(
                    NEEDS_HUMAN.code,
                    tokens[i].start,
                    tokens[i + 1].end,
                    f"kernel launch not rewritten to hipLaunchKernelGGL: {parts}",
                    api="<<<>>>",
                    hint="rewrite it by hand as hipLaunchKernelGGL(kernel, "
                    "dim3(grid), dim3(block), shmem, stream, args...)",
                )
            )
            return
        name_start, name_end, wrap, config, lparen, rparen = parts
        if not _confirmed(ctx, i, tokens[name_start].start, tokens[i].start):
            findings.append(
                ctx.finding(
                    NEEDS_HUMAN.code,
                    tokens[name_start].start,
                    tokens[i + 1].end,
                    "kernel launch not rewritten: the semantic pass (full parse) did not see a "
                    "kernel launch here",
                    api="<<<>>>",
                    hint="check the kernel name and the include paths (-p, --cuda-path); "
                    "rewrite it by hand if it is a launch",
                )
            )
            return
        src = ctx.source
        new: list[tuple[int, int, str]] = []
        head = "hipLaunchKernelGGL(" + ("HIP_KERNEL_NAME(" if wrap else "")
        new.append((tokens[name_start].start, tokens[name_start].start, head))
        pieces = [", dim3(", "), dim3(", "), ", ", "]
        prev_end = tokens[name_end - 1].end
        close_tail = ")" if wrap else ""
        closes_dim3 = False
        for k, (a, b) in enumerate(config):
            piece = pieces[k]
            if k < 2 and _is_dim3(tokens, a, b):
                piece = piece.replace("dim3(", "")  # already a dim3: do not wrap it again
            if closes_dim3:
                piece = piece[1:]
            gap_text = (close_tail if k == 0 else "") + piece
            new.extend(_gap(src, tokens, prev_end, tokens[a].start, gap_text))
            prev_end = tokens[b - 1].end
            closes_dim3 = k < 2 and _is_dim3(tokens, a, b)
        tail = ")" if len(config) == 2 and not closes_dim3 else ""
        tail += ", 0" * (4 - len(config))
        first_arg = next_code(tokens, lparen)
        if first_arg is not None and first_arg < rparen:
            new.extend(_gap(src, tokens, prev_end, tokens[first_arg].start, tail + ", "))
        else:
            new.extend(_gap(src, tokens, prev_end, tokens[rparen].start, tail))
        for start, end, text in new:
            edits.append(ctx.edit(start, end, text, self.name))


def _confirmed(ctx: Context, i: int, name_start: int, open_start: int) -> bool:
    """In semantic mode, a launch outside a #define must be one the AST saw (a call whose
    callee starts at the kernel name); launches written in macro bodies are checked where
    the macro expands, so they are not second-guessed here. Without semantic info: yes."""
    confirmed = ctx.confirmed_launches
    if confirmed is None or i in ctx.directive_at:
        return True
    return any(name_start <= offset <= open_start for offset in confirmed)


def _is_dim3(tokens: Tokens, a: int, b: int) -> bool:
    """The argument is exactly `dim3(...)` (an explicit dim3 needs no second wrapper).
    Not `dim3{...}`: braces do not protect its commas inside hipLaunchKernelGGL(...), a
    macro, so it is wrapped in dim3(...) like any other expression."""
    if tokens[a].text != "dim3" or b - a < 3 or not is_punct(tokens, a + 1, "("):
        return False
    return close_of(tokens, a + 1) == b - 1


def _gap(src: bytes, tokens: Tokens, start: int, end: int, text: str) -> list[tuple[int, int, str]]:
    """Replace the bytes between two pieces. When they hold a line break or a comment, only
    the punctuation tokens are replaced (the first run by `text`, later ones by nothing),
    so backslash continuations in macros and comments survive."""
    between = src[start:end]
    if b"\n" not in between and b"/*" not in between and b"//" not in between:
        return [(start, end, text)]
    ends, kinds = tokens.ends, tokens.kinds
    j = bisect_left(tokens.starts, start)
    inside = []
    while j < len(ends) and ends[j] <= end:
        if kinds[j] != COMMENT:
            inside.append(tokens[j])
        j += 1
    if not inside:
        return [(end, end, text)]
    out: list[tuple[int, int, str]] = []
    run_start, run_end = inside[0].start, inside[0].end
    for t in inside[1:]:
        if t.start == run_end:
            run_end = t.end
            continue
        out.append((run_start, _spaces_after(src, run_end, end), "" if out else text))
        run_start, run_end = t.start, t.end
    out.append((run_start, _spaces_after(src, run_end, end), "" if out else text))
    return out


def _spaces_after(src: bytes, pos: int, limit: int) -> int:
    """Extend pos over spaces and tabs (never a line break) up to limit."""
    while pos < limit and src[pos] in b" \t":
        pos += 1
    return pos


def _parse(ctx: Context, i: int):  # a tuple or the reason, str
    """(name_start, name_end, wrap, config ranges, lparen, rparen) or why not. `wrap`: the
    kernel is not a plain identifier (template arguments, a qualified name, a macro), so
    it goes into HIP_KERNEL_NAME(...): hipLaunchKernelGGL is a macro, and a comma or a
    macro in its first argument must not split it."""
    tokens = ctx.tokens
    p = prev_code(tokens, i)
    if p is None:
        return "no kernel name before <<<"
    wrap = False
    name_end = p + 1
    if tokens[p].text in (">", ">>"):
        q = template_open(tokens, p)
        if q is None:
            return "unbalanced template arguments before <<<"
        wrap = True
        p = prev_code(tokens, q)
        if p is None or tokens[p].kind != IDENTIFIER:
            return "the kernel is not a plain (template) name"
    elif tokens[p].text == ")":
        q = _macro_call_open(ctx, p)
        if q is None:
            return "the kernel is an expression, not a plain name"
        wrap = True
        p = q
    elif tokens[p].kind != IDENTIFIER:
        return "the kernel is an expression, not a plain name"
    elif tokens[p].text in _macro_names(ctx):
        wrap = True  # an object-like macro: it may expand to a template-id
    name_start = p
    while True:
        q = prev_code(tokens, name_start)
        if q is not None and is_punct(tokens, q, "::"):
            wrap = True
            r = prev_code(tokens, q)
            if r is not None and tokens[r].kind == IDENTIFIER:
                name_start = r
                continue
            name_start = q
        break
    before = prev_code(tokens, name_start)
    if before is not None and tokens[before].text in (".", "->"):
        return "the kernel is a member expression"
    close = _config_close(tokens, i + 2)
    if close is None:
        return "no matching >>>"
    code = tokens.code()
    ranges = code.arguments(code.from_all(i + 1), code.from_all(close))
    if ranges is None or not 2 <= len(ranges) <= 4:
        return "the configuration does not have 2 to 4 arguments"
    config = []  # in all-token indices, from the first code token to the last
    for a, b in ranges:
        if a >= b:
            return "an empty configuration argument"
        config.append((code.to_all(a), code.to_all(b - 1) + 1))
    lparen = next_code(tokens, close + 1)
    if lparen is None or not is_punct(tokens, lparen, "("):
        return "no argument list after >>>"
    rparen = close_of(tokens, lparen)
    if rparen is None:
        return "unbalanced kernel arguments"
    return name_start, name_end, wrap, config, lparen, rparen


def _macro_names(ctx: Context) -> frozenset[str]:
    return frozenset(d.name for d in ctx.code.defines if not d.function_like)


def _macro_call_open(ctx: Context, p: int) -> int | None:
    """For a kernel written as a function-like macro call (`KERNEL(float)<<<...>>>`, the
    `)` at p): the index of the macro's name; None for any other expression."""
    tokens = ctx.tokens
    texts, kinds = tokens.texts, tokens.kinds
    depth = 0
    j = p
    while j >= 0:
        text = texts[j]
        if kinds[j] == PUNCTUATION and text in (")", "("):
            depth += 1 if text == ")" else -1
            if depth == 0:
                break
        j -= 1
    q = prev_code(tokens, j) if j > 0 else None
    if q is None or tokens[q].kind != IDENTIFIER:
        return None
    name = tokens[q].text
    function_like = {d.name for d in ctx.code.defines if d.function_like}
    return q if name in function_like or (name.isupper() and len(name) > 1) else None


def _config_close(tokens: Tokens, j: int) -> int | None:
    """Index of the `>>` of the `>>>` closing the configuration opened before j.
    The returned index is that of `>>`: the arguments then run from `<` (i + 1) to it."""
    texts, kinds = tokens.texts, tokens.kinds
    depth = 0
    n = len(texts)
    while j < n:
        if kinds[j] != COMMENT:
            text = texts[j]
            if text in ("(", "[", "{"):
                depth += 1
            elif text in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    return None
            elif depth == 0 and text == ">>" and is_launch_close(tokens, j):
                return j
            elif text == ";":
                return None
        j += 1
    return None


RULE = LaunchRule()
