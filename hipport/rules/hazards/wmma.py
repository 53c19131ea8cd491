"""HIP104 wmma: NVIDIA tensor-core WMMA (nvcuda::wmma, <mma.h>)."""

from __future__ import annotations

from hipport.catalogue import WMMA
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule


def check_wmma(v: CodeIndex) -> list[Finding]:
    out = []
    # the header's name is spelled in the source (tokens.include_spelling)
    for header, a, b in v.includes if b"mma.h" in v.ctx.source else ():
        if header == "mma.h":
            out.append(
                v.finding(
                    WMMA,
                    a,
                    b,
                    "<mma.h> (NVIDIA WMMA) has no HIP counterpart: port to rocWMMA "
                    "(<rocwmma/rocwmma.hpp>) or a GEMM library",
                    api="mma.h",
                    hip="rocwmma/rocwmma.hpp",
                    hint=WMMA.fix,
                )
            )
    for k in v.indices(("nvcuda", "wmma")):
        t = v.tokens[k]
        if t.text == "nvcuda" and v.tokens.punct(k + 1, "::") and v.tokens.text(k + 2) == "wmma":
            out.append(
                v.finding(
                    WMMA,
                    k,
                    k + 2,
                    "nvcuda::wmma (tensor-core WMMA) does not exist in HIP: port "
                    "to rocWMMA (namespace rocwmma), checking the shapes and types the AMD GPU "
                    "supports",
                    api="nvcuda::wmma",
                    hip="rocwmma",
                    hint=WMMA.fix,
                )
            )
        elif (
            t.text == "wmma"
            and v.tokens.punct(k + 1, "::")
            and not (v.tokens.punct(k - 1, "::") and v.tokens.text(k - 2) == "nvcuda")
            and not v.tokens.is_member(k)
        ):
            api = f"wmma::{v.tokens.text(k + 2)}"
            out.append(
                v.finding(
                    WMMA,
                    k,
                    k + 2 if k + 2 < len(v.tokens) else k + 1,
                    f"{api} is NVIDIA WMMA, absent from HIP: port to rocWMMA (rocwmma::"
                    f"{v.tokens.text(k + 2)}) after checking AMD's supported fragment shapes",
                    api=api,
                    hip=f"rocwmma::{v.tokens.text(k + 2)}",
                    hint=WMMA.fix,
                )
            )
    return out


RULE = HazardRule(
    WMMA,
    check_wmma,
    Triggers(names=frozenset({"nvcuda", "wmma"}), texts=(b"mma.h",)),  # or <mma.h>
    frozenset({"nvcuda", "wmma"}),
)
