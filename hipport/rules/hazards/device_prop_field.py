"""HIP108 device-prop-field: cudaDeviceProp fields that the target's hipDeviceProp_t does
not have. The field lists per ROCm release come from mappings/ (hipport.facts). A field HIP
spells otherwise is HIP031's (rules.struct_fields), a read translate turns into a device
attribute query HIP032's (rules.device_props): neither is reported here."""

from __future__ import annotations

from hipport.catalogue import DEVICE_PROP_FIELD
from hipport.facts import DeviceProps, FieldAbsence
from hipport.findings import Finding, Severity
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.device_props import attribute_read, attribute_rewrite
from hipport.rules.hazards import HazardRule
from hipport.target import Version

DEVICE_PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})


def check_device_prop_field(v: CodeIndex) -> list[Finding]:
    if not v.mentions(DEVICE_PROP_TYPES):
        return []
    facts = v.ctx.mappings.device_props
    rocm = v.ctx.target.rocm or v.ctx.tables.newest_rocm  # the default: the newest known
    out = []
    renamed = v.ctx.mappings.struct_fields
    for k in v.indices(facts.cuda_fields):
        if not v.tokens.is_member(k):
            continue
        field = v.tokens[k].text
        if renamed.renamed("cudaDeviceProp", field, rocm) or attribute_rewrite(v, k):
            continue
        absence = facts.absence(field, rocm)
        if absence is not None:
            out.append(_finding(v, k, field, facts, absence, rocm))
    return out


def _finding(
    v: CodeIndex, k: int, field: str, facts: DeviceProps, absence: FieldAbsence, rocm: Version
) -> Finding:
    instead = facts.cuda_fields[field]
    tail = (
        f": use {instead}"
        if instead and not instead.startswith("hipDeviceAttribute")
        else _query(v, k, field, instead, rocm, absence)
        if instead
        else ": HIP has no equivalent; guard it with #if defined(__HIP_PLATFORM_NVIDIA__)"
    )
    if absence.certain:
        message = f"cudaDeviceProp field {field} does not exist in hipDeviceProp_t (ROCm "
        message += f"{absence.checked}){tail}"
    else:
        later = f" (ROCm {absence.present_from} has it)" if absence.present_from else ""
        message = f"cudaDeviceProp field {field} is not in hipDeviceProp_t of ROCm "
        message += f"{absence.checked}, and hipport has no field list for ROCm {rocm}{later}{tail}"
    finding = v.finding(
        DEVICE_PROP_FIELD,
        k,
        k,
        message,
        api=f"cudaDeviceProp::{field}",
        hip=instead,
        hint=DEVICE_PROP_FIELD.fix,
    )
    if not absence.certain:
        finding.severity = Severity.WARNING
    return finding


def _query(
    v: CodeIndex, k: int, field: str, instead: str, rocm: Version, absence: FieldAbsence
) -> str:
    """The exact hipDeviceGetAttribute call, with the device the struct was filled for when
    hipport can tell it, and whether the target's runtime answers it without the field."""
    read = attribute_read(v, k)
    device = read.device if read is not None and read.device else "device"
    said = f": query hipDeviceGetAttribute(&value, {instead}, {device})"
    attr = v.ctx.mappings.device_prop_attributes.get(field)
    if attr is None or not absence.certain or attr.answers(rocm):
        return said
    later = f"ROCm {absence.present_from}" if absence.present_from else "a later ROCm"
    return (
        f"{said}, but the runtime of ROCm {rocm} does not answer it while its "
        f"hipDeviceProp_t lacks the field (hipErrorInvalidValue; "
        f"mappings/device_prop_attributes.tsv): target {later}, whose struct has the field, "
        "or keep the read behind #if defined(__HIP_PLATFORM_NVIDIA__)"
    )


# The field names are indexed on demand: only in files that mention the struct, and the
# facts are read from mappings/ only then.
RULE = HazardRule(
    DEVICE_PROP_FIELD,
    check_device_prop_field,
    Triggers(names=DEVICE_PROP_TYPES),  # a field is read only in a file naming the type
    DEVICE_PROP_TYPES,
)
