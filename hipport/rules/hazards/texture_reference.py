"""HIP105 texture-reference: legacy texture/surface references and the API that binds them."""

from __future__ import annotations

from hipport.catalogue import TEXTURE_REFERENCE
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

TEXTURE_TEMPLATES = frozenset({"texture", "surface"})


TEXTURE_REFERENCE_APIS = frozenset(
    {
        "cudaBindTexture",
        "cudaBindTexture2D",
        "cudaBindTextureToArray",
        "cudaBindTextureToMipmappedArray",
        "cudaUnbindTexture",
        "cudaGetTextureAlignmentOffset",
        "cudaGetTextureReference",
        "cudaBindSurfaceToArray",
        "cudaGetSurfaceReference",
        "textureReference",
        "surfaceReference",
    }
)


TEXTURE_FETCHES = frozenset(
    {
        "tex1Dfetch",
        "tex1D",
        "tex2D",
        "tex3D",
        "tex1DLayered",
        "tex2DLayered",
        "texCubemap",
        "texCubemapLayered",
        "tex2Dgather",
        "tex1DLod",
        "tex2DLod",
        "tex3DLod",
        "tex1DGrad",
        "tex2DGrad",
        "tex3DGrad",
        "surf1Dread",
        "surf2Dread",
        "surf3Dread",
        "surf1Dwrite",
        "surf2Dwrite",
        "surf3Dwrite",
        "surf1DLayeredread",
        "surf2DLayeredread",
        "surf1DLayeredwrite",
        "surf2DLayeredwrite",
    }
)


def check_texture_reference(v: CodeIndex) -> list[Finding]:
    out = []
    refs: set[str] = set()
    for k in v.indices(TEXTURE_TEMPLATES | TEXTURE_REFERENCE_APIS):
        t = v.tokens[k]
        if v.tokens.is_member(k) or v.tokens.punct(k - 1, "::"):
            continue
        if t.text in TEXTURE_TEMPLATES and v.tokens.punct(k + 1, "<"):
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
        elif t.text in TEXTURE_REFERENCE_APIS:
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
    for k in v.indices(TEXTURE_FETCHES):
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


RULE = HazardRule(
    TEXTURE_REFERENCE,
    check_texture_reference,
    # a fetch is reported only through a reference the file declares
    Triggers(names=TEXTURE_TEMPLATES | TEXTURE_REFERENCE_APIS),
    TEXTURE_TEMPLATES | TEXTURE_REFERENCE_APIS | TEXTURE_FETCHES,
)
