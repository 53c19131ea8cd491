"""HIP108 device-prop-field: cudaDeviceProp fields that the target's hipDeviceProp_t does
not have. The field lists per ROCm release come from mappings/ (hipport.facts)."""

from __future__ import annotations

from hipport.catalogue import DEVICE_PROP_FIELD
from hipport.facts import DeviceProps, FieldAbsence
from hipport.findings import Finding, Severity
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.target import Version

DEVICE_PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})


def check_device_prop_field(v: CodeIndex) -> list[Finding]:
    if not v.mentions(DEVICE_PROP_TYPES):
        return []
    facts = v.ctx.mappings.device_props
    rocm = v.ctx.target.rocm or v.ctx.tables.newest_rocm  # the default: the newest known
    out = []
    for k in v.indices(facts.cuda_fields):
        if not v.tokens.is_member(k):
            continue
        field = v.tokens[k].text
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
        else f": query hipDeviceGetAttribute(..., {instead}, dev)"
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


# The field names are indexed on demand: only in files that mention the struct, and the
# facts are read from mappings/ only then.
RULE = HazardRule(
    DEVICE_PROP_FIELD,
    check_device_prop_field,
    Triggers(names=DEVICE_PROP_TYPES),  # a field is read only in a file naming the type
    DEVICE_PROP_TYPES,
)
