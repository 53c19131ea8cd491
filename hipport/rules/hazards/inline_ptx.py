"""HIP101 inline-ptx: inline assembly in device code, which is PTX and does not assemble for AMD."""

from __future__ import annotations

import re

from hipport.catalogue import INLINE_PTX
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD, LITERAL
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

ASM_WORDS = frozenset({"asm", "__asm__", "__asm"})


ASM_QUALIFIERS = frozenset({"volatile", "__volatile__", "__volatile", "goto", "inline"})


# Text typical of PTX inside an asm string: special registers, typed instructions, .reg.
_PTX = re.compile(
    r"%%(?:laneid|warpid|smid|nsmid|clock|globaltimer|lanemask)|\.reg\b|\.pred\b|"
    r"\.[busf](?:8|16|32|64)\b|\b(?:ld|st|mov|cvt|shfl|vote|bar|membar|prmt|bfe|bfi|lop3|"
    r"setp|selp|mma|ldmatrix|cp|red|atom|fma|mad)\.[a-z]"
)


def check_inline_ptx(v: CodeIndex) -> list[Finding]:
    out: list[Finding] = []
    if b"asm" not in v.ctx.source:  # every word of ASM_WORDS holds it
        return out
    words = v.indices(ASM_WORDS, (KEYWORD, IDENTIFIER))
    if not words:
        return out
    defines = {k for name, a, b in v.directive_ranges if name == "define" for k in range(a, b)}
    for k in words:
        t = v.tokens[k]
        p = k + 1
        while v.tokens.text(p) in ASM_QUALIFIERS:
            p += 1
        if not v.tokens.punct(p, "("):
            continue
        close = v.tokens.match(p)
        if close is None:
            continue
        strings = " ".join(
            v.tokens[j].text
            for j in range(p, close)
            if v.tokens[j].kind == LITERAL and '"' in v.tokens[j].text
        )
        body = v.body_at(k)
        if not (
            _PTX.search(strings) or k in defines or (body is not None and v.is_device_body(body))
        ):
            continue
        out.append(
            v.finding(
                INLINE_PTX,
                k,
                close,
                f"inline assembly `{t.text}(...)` in device code is PTX, which does not assemble "
                "for AMD GPUs: replace it with a HIP device function or __builtin_amdgcn_* "
                "intrinsic, or guard it with #if defined(__HIP_PLATFORM_NVIDIA__)",
                api=t.text,
                hint=INLINE_PTX.fix,
            )
        )
    return out


# asm is a keyword (no identifier): its bytes, which every word of ASM_WORDS holds
RULE = HazardRule(INLINE_PTX, check_inline_ptx, Triggers(texts=(b"asm",)), ASM_WORDS)
