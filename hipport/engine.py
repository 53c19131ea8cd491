"""One source text in, translated text and findings out. Pure: no files, no processes.

CONTRACT (shared by the runner, the CLI, the checks and the benchmark; keep it stable):

    translate_source(source: bytes, path: str, target: Target,
                     options: EngineOptions | None = None) -> TranslationResult

`source` is the file's bytes exactly as read (any encoding, BOM, CRLF); `output` is bytes
too, and every byte outside `edits` is identical to the input. `path` is used for
locations and to pick the language (.cu/.cuh are CUDA; .hip passes through unchanged).
It never raises on bad input: a file it cannot lex gets `error` set and output == source.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field

from hipport.catalogue import SEMANTIC_PARSE_ERROR
from hipport.edits import Edit, OverlappingEdits, apply, compose, normalize
from hipport.findings import Finding, Use
from hipport.lexer import (
    IDENTIFIER,
    Columns,
    LexError,
    Token,
    lex,
    lex_columns,
    might_need_translation,
)
from hipport.options import EngineOptions
from hipport.rules import Context, Rule, RuleResult, all_rules, rule_for, vocabulary
from hipport.rules.gate_facts import macro_names
from hipport.rules.tokens import Directive
from hipport.rules.tokens import directives as find_directives
from hipport.semantic import analyze
from hipport.tables import load_tables
from hipport.target import Target

__all__ = [
    "EngineOptions",
    "TranslationResult",
    "Use",
    "defined_names",
    "names_defined_by",
    "run_rule",
    "translate_source",
]


@dataclass
class TranslationResult:
    path: str
    source: bytes
    output: bytes
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    defined_names: frozenset[str] = frozenset()  # names this file defines (project index)
    error: str | None = None  # set when the file could not be processed

    @property
    def changed(self) -> bool:
        return self.output != self.source


PASS_THROUGH_SUFFIXES = (".hip",)
# Debug switch for whole test runs (other suites, the corpus): check every translation.
_CHECK_ALWAYS = os.environ.get("HIPPORT_CHECK_INVARIANTS") == "1"


def translate_source(
    source: bytes, path: str, target: Target, options: EngineOptions | None = None
) -> TranslationResult:
    """Translate one source text (see the CONTRACT above). Never raises on bad input."""
    options = options or EngineOptions()
    result = _translate(source, path, target, options)
    if (options.check_invariants or _CHECK_ALWAYS) and result.error is None:
        _check_invariants(result, target, options)
    return result


def _translate(
    source: bytes, path: str, target: Target, options: EngineOptions
) -> TranslationResult:
    if path.endswith(PASS_THROUGH_SUFFIXES) or not might_need_translation(source):
        return TranslationResult(path, source, source, defined_names=_safe_defined(source, path))
    try:
        lexed = lex_columns(source, path)
    except LexError as exc:
        return TranslationResult(path, source, source, error=str(exc))
    return _translate_tokens(source, lexed, path, target, options)


def _translate_tokens(
    source: bytes, lexed: Columns, path: str, target: Target, options: EngineOptions
) -> TranslationResult:
    # The file's objects are freed by reference counting when it is done (Context.release
    # breaks the cycles among its lookups), so the cyclic collector is paused meanwhile:
    # otherwise it walks the file's tokens again and again while the rules allocate.
    collecting = gc.isenabled()
    gc.disable()
    ctx: Context | None = None
    try:
        ctx = _context(source, lexed, path, target, options)
        return _run_rules(source, ctx)
    finally:
        if ctx is not None:
            ctx.release()
        if collecting:
            gc.enable()


def _run_rules(source: bytes, ctx: Context) -> TranslationResult:
    options, path = ctx.options, ctx.path
    findings: list[Finding] = []
    if options.semantic or options.cuda_path or options.compile_args:
        findings.extend(_semantic(ctx))
    edits: list[Edit] = []
    for rule in all_rules():
        result = rule.run(ctx)
        edits.extend(result.edits)
        findings.extend(result.findings)
        # later rules read the uses found so far (includes: is anything CUDA's?)
        ctx.earlier_uses.extend(result.uses)
    edits = _drop_overlaps(compose(source, edits))
    output = apply(source, edits)
    _sort(findings)
    uses = list(ctx.earlier_uses)
    return TranslationResult(path, source, output, edits, findings, uses, ctx.defined)


def _context(
    source: bytes,
    lexed: Columns | list[Token],
    path: str,
    target: Target,
    options: EngineOptions,
) -> Context:
    tables = options.tables or load_tables()
    ctx = Context(source, lexed, path, target, tables, options, vocabulary=vocabulary())
    # the directive lines are found once per file, for this and for every rule
    ctx.defined = names_defined_by(ctx.tokens, source, ctx.directives)
    return ctx


def _sort(findings: list[Finding]) -> None:
    findings.sort(key=lambda f: (f.location.line, f.location.column, f.code))


def run_rule(
    rule: str | Rule,
    source: bytes,
    path: str = "input.cu",
    target: Target | None = None,
    options: EngineOptions | None = None,
) -> RuleResult:
    """Run one rule on one source as the engine would, without the other rules (for tests
    and exploration). `rule`: a code ("HIP101"), a rule name ("inline-ptx"), a rule module
    ("rules.hazards.inline_ptx") or a Rule object. Uses of earlier rules are not seen."""
    options = options or EngineOptions()
    target = target or Target()
    the_rule = rule_for(rule) if isinstance(rule, str) else rule
    ctx = _context(source, lex(source, path), path, target, options)
    result = the_rule.run(ctx)
    _sort(result.findings)
    return result


def _semantic(ctx: Context) -> list[Finding]:
    info = analyze(ctx.source, ctx.path, ctx.options.cuda_path, ctx.options.compile_args)
    if info.errors:
        return [
            ctx.finding(SEMANTIC_PARSE_ERROR.code, 0, 0, "semantic pass: " + "; ".join(info.errors))
        ]
    # Declared in this file and not by the toolkit: the user's own (never renamed/reported).
    ctx.user_declared = info.user_declared
    ctx.confirmed_launches = info.launches
    return []


def _drop_overlaps(edits: list[Edit]) -> list[Edit]:
    """Keep edits in rule order; an edit overlapping one kept earlier is dropped (the
    earlier rule wins). Zero-width inserts touching a replacement do not overlap."""
    try:
        return normalize(edits)
    except OverlappingEdits:
        pass
    kept: list[Edit] = []
    for edit in edits:
        if not any(_overlap(edit, k) for k in kept):
            kept.append(edit)
    return normalize(kept)


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end and b.start == b.end:
        return a.start == b.start and a.new != b.new
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def _check_invariants(result: TranslationResult, target: Target, options: EngineOptions) -> None:
    """Debug only: bytes outside edits are unchanged, and a second run changes nothing."""
    pos = 0
    out = 0
    for edit in sorted(result.edits, key=lambda e: (e.start, e.end)):
        gap = edit.start - pos
        assert result.source[pos : edit.start] == result.output[out : out + gap], "bytes changed"
        out += gap + len(edit.new)
        pos = edit.end
    assert result.source[pos:] == result.output[out:], "bytes changed after the last edit"
    again = _translate(result.output, result.path, target, options)
    assert again.output == result.output, f"{result.path}: a second translation changed it"


# --- the names a file defines (for unknown-name checks and the project index) ----------

_TYPE_KEYWORDS = frozenset(
    {
        "void",
        "int",
        "float",
        "double",
        "char",
        "bool",
        "long",
        "short",
        "unsigned",
        "signed",
        "auto",
        "const",
        "volatile",
        "size_t",
        "static",
        "inline",
        "extern",
        "constexpr",
        "__global__",
        "__device__",
        "__host__",
        "__forceinline__",
        "__inline__",
        "__shared__",
        "__constant__",
        "__managed__",
        "wchar_t",
        "char16_t",
        "char32_t",
        "char8_t",
    }
)
_NOT_TYPES = frozenset(
    {
        "return",
        "else",
        "case",
        "do",
        "throw",
        "goto",
        "new",
        "delete",
        "sizeof",
        "typeid",
        "co_return",
        "co_await",
        "co_yield",
        "decltype",
        "alignof",
        "noexcept",
        "operator",
        "define",
        "undef",
        "ifdef",
        "ifndef",
        "if",
        "elif",
        "defined",
        "include",
        "pragma",
        "while",
        "for",
        "switch",
        "catch",
        "static_assert",
        "using",
        "namespace",
        "template",
        "typename",
        "class",
        "struct",
        "union",
        "enum",
        "typedef",
        "public",
        "private",
        "protected",
        "friend",
        "virtual",
        "explicit",
        "asm",
        "__asm__",
    }
)
_AFTER_DECLARATOR = frozenset({"=", ";", ",", "[", "{", "(", ")", ":"})


def names_defined_by(
    tokens: list[Token], source: bytes = b"", directives: list[Directive] | None = None
) -> frozenset[str]:
    """Names the file itself defines: macros (and the configuration macros it only tests
    with #ifdef / #if), functions, types, variables (every declarator of a declaration),
    parameters, members, enumerators, template parameters, typedefs.

    A token heuristic (no preprocessor, no parser), in one pass over the code tokens: good
    enough to know that a `CUDA_CHECK` macro, a `cudaCheck` function or a `cuda_out_buf`
    variable is the project's own. `directives`: the file's directive lines when the caller
    has them already. nvcc's predefined macros (CUDART_VERSION, ...) tested in an #if are
    not the program's: they are left out.
    """
    if directives is None:
        directives = find_directives(source, tokens) if source else []
    names: set[str] = set()
    in_directive: set[int] = set()
    nvcc_macros: frozenset[str] | None = None  # loaded at the first #if
    for d in directives if source else ():
        in_directive.update(range(d.hash, d.end))
        if d.hash + 2 >= d.end or tokens[d.hash + 2].kind not in (IDENTIFIER, "keyword"):
            continue
        if d.name == "define":
            names.add(tokens[d.hash + 2].text)
        elif d.name in _TESTS:
            if nvcc_macros is None:
                nvcc_macros = macro_names()
            names.update(
                t.text
                for t in tokens[d.hash + 2 : d.end]
                if t.kind == IDENTIFIER and t.text != "defined" and t.text not in nvcc_macros
            )
    # Directive lines are left out: their tokens would glue onto the code around them.
    code = [t for i, t in enumerate(tokens) if t.kind != "comment" and i not in in_directive]
    n = len(code)
    enum_depth = -1
    depth = 0
    paren = 0
    # (brace depth, paren depth) of the declaration whose declarators are being read, so
    # that `int a = 0, b;` and `Buffer *x, *y;` give every name; None outside one
    declaring: tuple[int, int] | None = None
    for k, tok in enumerate(code):
        text = tok.text
        if tok.kind == "punctuation":
            if text == "(":
                paren += 1
            elif text == ")":
                paren -= 1
                if declaring is not None and paren < declaring[1]:
                    declaring = None
            elif text == ";":
                declaring = None
            elif text == "{":
                depth += 1
                declaring = None
            elif text == "}":
                depth -= 1
                declaring = None
                if depth < enum_depth:
                    enum_depth = -1
            continue
        if tok.kind != IDENTIFIER and tok.kind != "keyword":
            continue
        prev = code[k - 1] if k else None
        nxt = code[k + 1] if k + 1 < n else None
        if prev is None:
            continue
        if (
            text in ("define",)
            and prev.text == "#"
            and nxt is not None
            and nxt.kind in (IDENTIFIER, "keyword")
        ):
            names.add(nxt.text)
            continue
        if (
            prev.text in ("struct", "class", "union", "enum", "namespace", "concept", "typename")
            and tok.kind == IDENTIFIER
        ):
            names.add(text)
            if prev.text == "enum" or (k >= 2 and code[k - 2].text == "enum"):
                enum_depth = depth + 1
            continue
        if text == "enum" or text == "class" and prev.text == "enum":
            enum_depth = depth + 1
            continue
        if tok.kind != IDENTIFIER:
            continue
        if (
            enum_depth != -1
            and depth == enum_depth
            and prev.text in ("{", ",")
            and nxt is not None
            and nxt.text in ("=", ",", "}")
        ):
            names.add(text)
            continue
        if prev.text == "using" and nxt is not None and nxt.text == "=":
            names.add(text)
            continue
        if nxt is None:
            continue
        if nxt.text in (">", ">>") and (prev.text in _TYPE_KEYWORDS or prev.text == "typename"):
            names.add(text)  # a template parameter: template <int CUDA_N>
            continue
        if nxt.text not in _AFTER_DECLARATOR:
            continue
        if prev.text == "}" and nxt.text in (";", ","):
            names.add(text)  # struct {...} name; / typedef struct {...} name_t;
            declaring = (depth, paren)
            continue
        if nxt.text == ";" and k >= 2 and code[k - 2].text == "typedef":
            names.add(text)
            continue
        if declaring is not None and declaring == (depth, paren) and _after_comma(code, k):
            names.add(text)  # a further declarator: int a = 0, b; Buffer *x, *y;
            continue
        if prev.text == "[" and k >= 2 and code[k - 2].text in ("auto", "&", "&&"):
            # a structured binding: auto [cuda_key, cuda_value] = ...
            j = k
            while j < n and code[j].text != "]" and j - k < 64:
                if code[j].kind == IDENTIFIER:
                    names.add(code[j].text)
                j += 1
            continue
        if prev.text == "*" and nxt.text == ")" and k >= 2 and code[k - 2].text == "(":
            names.add(text)  # a function pointer: void (*callback)(int)
            continue
        if (
            prev.kind == IDENTIFIER
            and prev.text not in _NOT_TYPES
            or prev.text in _TYPE_KEYWORDS
            or prev.text in ("*", "&", "&&", ">", "**")
        ):
            if prev.text in ("*", "&", "&&", "**", ">") and not _looks_declaration(code, k):
                continue
            names.add(text)
            if nxt.text in ("=", ",", ";", "["):
                declaring = (depth, paren)
    return frozenset(names)


# Directives whose identifiers are configuration macros the program tests.
_TESTS = frozenset({"ifdef", "ifndef", "if", "elif", "elifdef", "elifndef"})


def _after_comma(code: list[Token], k: int) -> bool:
    """code[k] follows `,` (past `*`, `&`, `const` of its declarator)."""
    j = k - 1
    while j >= 0 and code[j].text in ("*", "&", "&&", "**", "const", "volatile", "__restrict__"):
        j -= 1
    return j >= 0 and code[j].text == ","


def _looks_declaration(code: list[Token], k: int) -> bool:
    """`T * name` / `T<X> name`: the token before the operator is a type-like word."""
    j = k - 1
    while j >= 0 and code[j].text in ("*", "&", "&&", "**", "const"):
        j -= 1
    if j < 0:
        return False
    if code[j].text == ">":
        return True
    return (
        code[j].kind in (IDENTIFIER, "keyword")
        and code[j].text not in _NOT_TYPES
        and (
            j == 0
            or code[j - 1].text in (";", "{", "}", "(", ",", ")", ">", "<", "::", "#")
            or code[j - 1].kind in (IDENTIFIER, "keyword")
            or code[j - 1].text in _TYPE_KEYWORDS
        )
    )


def defined_names(source: bytes, path: str) -> frozenset[str]:
    """The names `source` defines (macros, functions, types, variables), for the
    project-wide index; empty for a file that cannot be lexed."""
    return _safe_defined(source, path)


def _safe_defined(source: bytes, path: str) -> frozenset[str]:
    if not might_need_translation(source):
        return frozenset()
    try:
        return names_defined_by(lex(source, path), source)
    except LexError:
        return frozenset()
