"""HIP105 texture-reference: legacy texture/surface references and the API that binds them
(the names: mappings/texture_reference.tsv, through ctx.mappings)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import TEXTURE_REFERENCE
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

if TYPE_CHECKING:
    from hipport.mappings import Mappings


def check_texture_reference(v: CodeIndex) -> list[Finding]:
    out = []
    refs: set[str] = set()
    facts = v.ctx.mappings.texture_reference  # mappings/texture_reference.tsv
    for k in v.indices(facts.templates | facts.apis):
        t = v.tokens[k]
        if v.tokens.is_member(k) or v.tokens.punct(k - 1, "::"):
            continue
        if t.text in facts.templates and v.tokens.punct(k + 1, "<"):
            obj = (
                "texture object (cudaTextureObject_t)"
                if t.text == "texture"
                else "surface object (cudaSurfaceObject_t)"
            )
            close = v.tokens.template_close(k + 1, min(len(v.tokens), k + 65))
            if close is None:
                continue
            j = close + 1
            while v.tokens.text(j) in ("&", "*", "const"):
                j += 1
            if j < len(v.tokens) and v.tokens[j].kind == IDENTIFIER:
                refs.add(v.tokens[j].text)
                out.append(
                    v.finding(
                        TEXTURE_REFERENCE,
                        k,
                        close,
                        f"{t.text} reference `{v.tokens[j].text}`: texture and surface references "
                        "were removed in CUDA 12 and are deprecated in HIP: use a "
                        f"{obj}",
                        api=f"{t.text}<>",
                        hint=TEXTURE_REFERENCE.fix,
                    )
                )
        elif t.text in facts.apis:
            out.append(
                v.finding(
                    TEXTURE_REFERENCE,
                    k,
                    k,
                    f"{t.text} belongs to the texture/surface reference API (removed in CUDA 12, "
                    "deprecated in HIP): use texture objects (cudaCreateTextureObject)",
                    api=t.text,
                    hint=TEXTURE_REFERENCE.fix,
                )
            )
    if not refs:
        return out
    for k in v.indices(facts.fetches):
        t = v.tokens[k]
        if not v.tokens.punct(k + 1, "(") or v.tokens.is_member(k):
            continue
        close = v.tokens.match(k + 1)
        args = v.tokens.arguments(k + 1, close) if close is not None else None
        for a, b in args or ():
            if b - a == 1 and v.tokens[a].text in refs:
                out.append(
                    v.finding(
                        TEXTURE_REFERENCE,
                        k,
                        close,
                        f"{t.text} through texture/surface reference `{v.tokens[a].text}`: pass a "
                        f"texture object instead and call {t.text}<T>(obj, ...)",
                        api=t.text,
                        hint=TEXTURE_REFERENCE.fix,
                    )
                )
                break
    return out


def _declared(mappings: Mappings) -> Collection[str]:
    """The names that declare or use a reference (a fetch is reported only through one)."""
    facts = mappings.texture_reference
    return facts.templates | facts.apis


def _vocabulary(mappings: Mappings) -> Collection[str]:
    return _declared(mappings) | mappings.texture_reference.fetches


RULE = HazardRule(TEXTURE_REFERENCE, check_texture_reference, Triggers(data=_declared), _vocabulary)
