"""Reads of cudaDeviceProp fields that the target's hipDeviceProp_t lacks, shared by the
rewrite that queries the device attribute instead (rules.device_attributes, HIP032) and the
check that reports the field (rules.hazards.device_prop_field, HIP108): which device the
struct was filled for, and whether a read can become hipDeviceGetAttribute with its meaning
kept (mappings/device_prop_attributes.tsv says which attributes the target's AMD runtime
answers while the struct lacks the field)."""

from __future__ import annotations

from dataclasses import dataclass

from hipport.facts import DevicePropAttribute
from hipport.lexer import IDENTIFIER, LITERAL
from hipport.rules.code_index import CodeIndex
from hipport.rules.lane_masks import declared_type

PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})
GET_PROPERTIES = frozenset({"cudaGetDeviceProperties", "hipGetDeviceProperties"})
# what makes a read of `prop.field` or of `device` something else: a write, its address
_WRITES = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"})


@dataclass(frozen=True)
class AttributeRead:
    """`prop.field` (code tokens obj..field) that reads the field of the struct
    cudaGetDeviceProperties(&prop, device) filled."""

    obj: int
    field: int
    device: str | None  # the device argument's text, None when hipport cannot tell it


def attribute_read(v: CodeIndex, k: int) -> AttributeRead | None:
    """The read at field token k, if it is `prop.field` on a cudaDeviceProp variable of the
    function; its device is known when one cudaGetDeviceProperties(&prop, device) call of
    the function precedes it in the same block, `device` is a literal or a variable the
    function never changes after the call (nor before it in that block), and `prop` is
    used for nothing but that call and field reads."""
    t = v.tokens
    obj = k - 2
    if obj < 0 or t.text(k - 1) != "." or t.kinds[obj] != IDENTIFIER:
        return None
    if t.text(obj - 1) in (".", "->", "::", "&", "++", "--") or t.text(k + 1) in _WRITES:
        return None
    words = declared_type(v, obj)
    if words is None or PROP_TYPES.isdisjoint(words) or "*" in words:
        return None
    return AttributeRead(obj, k, _device(v, obj))


def _device(v: CodeIndex, obj: int) -> str | None:
    body = v.body_at(obj)
    if body is None:
        return None
    t = v.tokens
    name = t.texts[obj]
    calls = []
    for j in range(body.open, body.close):
        if t.texts[j] != name or t.kinds[j] != IDENTIFIER or t.text(j - 1) in (".", "->"):
            continue
        if t.text(j + 1) == ".":
            continue  # a field read
        if t.text(j - 1) == "&" and t.text(j - 3) in GET_PROPERTIES and t.text(j - 2) == "(":
            calls.append(j)
            continue
        if t.text(j + 1) in (";", ",", "=", "[", "{", ")") and t.text(j - 1) in PROP_TYPES:
            continue  # its declaration
        return None  # passed, copied or assigned: not only the call's
    if len(calls) != 1 or calls[0] > obj:
        return None
    at = calls[0]
    if t.text(at + 1) != "," or t.text(at + 3) != ")":
        return None
    device = at + 2
    if t.kinds[device] == LITERAL:
        return t.texts[device]
    if t.kinds[device] != IDENTIFIER:
        return None
    block = _block(v, at)
    if block is None or not block[0] < obj < block[1]:
        return None
    dev = t.texts[device]
    for j in range(body.head, body.close):
        if t.texts[j] != dev or j == device or t.text(j - 1) in (".", "->", "::"):
            continue
        written = t.text(j + 1) in _WRITES or t.text(j - 1) in ("&", "++", "--")
        if written and (j > at or block[0] < j):
            return None
    return dev


def _block(v: CodeIndex, k: int) -> tuple[int, int] | None:
    """The innermost braces around code token k."""
    t = v.tokens
    depth = 0
    for j in range(k - 1, -1, -1):
        text = t.texts[j]
        if text == "}":
            depth += 1
        elif text == "{":
            if depth == 0:
                close = t.match(j)
                return (j, close) if close is not None else None
            depth -= 1
    return None


def queried(attr: DevicePropAttribute, device: str) -> str:
    """The expression that reads the attribute with the field's CUDA type."""
    call = f"hipport_device_attribute({attr.hip_attribute}, {device})"
    return call if attr.cuda_type == "int" else f"({attr.cuda_type}){call}"


def attribute_rewrite(
    v: CodeIndex, k: int
) -> tuple[AttributeRead, DevicePropAttribute, str] | None:
    """The rewrite of field read k into a device-attribute query, when it keeps the meaning:
    the target's hipDeviceProp_t certainly lacks the field, its AMD runtime answers the
    attribute, and the read's device is known."""
    ctx = v.ctx
    attr = ctx.mappings.device_prop_attributes.get(v.tokens.texts[k])
    if attr is None or v.in_directive_at(k):
        return None
    rocm = ctx.target.rocm or ctx.tables.newest_rocm
    absence = ctx.mappings.device_props.absence(attr.cuda_field, rocm)
    if absence is None or not absence.certain or not attr.answers(rocm):
        return None
    read = attribute_read(v, k)
    if read is None or read.device is None:
        return None
    return read, attr, queried(attr, read.device)
