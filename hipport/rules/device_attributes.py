"""HIP032 device-prop-attribute: a read of a cudaDeviceProp field that the target's
hipDeviceProp_t lacks, where the target's AMD runtime answers the matching device attribute
(mappings/device_prop_attributes.tsv, with the evidence: HIP 5.2 answers
hipDeviceAttributeMemoryPoolsSupported, and none of the attributes its header marks
"Cuda only").

translate reads the attribute instead: `prop.memoryPoolsSupported` ->
`hipport_device_attribute(hipDeviceAttributeMemoryPoolsSupported, device)`, converted to the
field's CUDA type, where `device` is the one cudaGetDeviceProperties(&prop, device) filled
`prop` for and is unchanged since (rules.device_props); the helper, which calls
hipDeviceGetAttribute, is defined once in the file (hipport.device_helpers). Any other read
of such a field stays HIP108's error, which names the exact call."""

from __future__ import annotations

from hipport.catalogue import DEVICE_PROP_ATTRIBUTE as INFO
from hipport.device_helpers import DEVICE_ATTRIBUTE
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.device_props import PROP_TYPES, attribute_rewrite
from hipport.rules.placement import definition_before


class DeviceAttributeRule:
    name = "device-attributes"
    priority = 41
    codes = (INFO.code,)
    triggers = Triggers(names=PROP_TYPES)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        v = ctx.code
        attributes = ctx.mappings.device_prop_attributes
        if not v.mentions(PROP_TYPES):
            return out
        first = None
        for k in v.indices(attributes.keys(), (IDENTIFIER,)):
            plan = attribute_rewrite(v, k)
            if plan is None or v.is_dead(k):
                continue
            read, attr, expression = plan
            first = read.obj if first is None else first
            start, end = v.tokens.start(read.obj), v.tokens.end(k)
            out.edits.append(ctx.edit(start, end, expression, self.name))
            out.findings.append(
                v.finding(
                    INFO,
                    read.obj,
                    k,
                    f"hipDeviceProp_t of ROCm {ctx.target.rocm or ctx.tables.newest_rocm} has "
                    f"no {attr.cuda_field}, and its runtime answers {attr.hip_attribute}: "
                    f"translate queries it for device {read.device}",
                    api=f"cudaDeviceProp::{attr.cuda_field}",
                    hip=attr.hip_attribute,
                )
            )
        if first is not None:
            out.edits.append(definition_before(ctx, first, DEVICE_ATTRIBUTE.text, self.name))
        return out


RULE = DeviceAttributeRule()
