"""HIP108 device-prop-field: cudaDeviceProp fields that hipDeviceProp_t does not have."""

from __future__ import annotations

from hipport.catalogue import DEVICE_PROP_FIELD
from hipport.findings import Finding, Severity
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context
from hipport.rules.hazards import HazardRule
from hipport.target import Version

DEVICE_PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})


# cudaDeviceProp fields (CUDA 13 driver_types.h, plus two removed in CUDA 13 that older code
# still reads) with no field of that name in HIP 5.2's hipDeviceProp_t
# (/usr/include/hip/hip_runtime_api.h, HIP_VERSION 5.2.21153), mapped to what HIP 5.2 offers
# instead: a hipDeviceAttribute_t for hipDeviceGetAttribute, another API, or None.
DEVICE_PROP_HIP_VERSION = "5.2"


DEVICE_PROP_MISSING: dict[str, str | None] = {
    "uuid": "hipDeviceGetUuid()",
    "luid": "hipDeviceAttributeLuid",
    "luidDeviceNodeMask": "hipDeviceAttributeLuidDeviceNodeMask",
    "maxTexture1DMipmap": "hipDeviceAttributeMaxTexture1DMipmap",
    "maxTexture2DMipmap": "hipDeviceAttributeMaxTexture2DMipmap",
    "maxTexture2DLinear": "hipDeviceAttributeMaxTexture2DLinear",
    "maxTexture2DGather": "hipDeviceAttributeMaxTexture2DGather",
    "maxTexture3DAlt": "hipDeviceAttributeMaxTexture3DAlt",
    "maxTextureCubemap": "hipDeviceAttributeMaxTextureCubemap",
    "maxTexture1DLayered": "hipDeviceAttributeMaxTexture1DLayered",
    "maxTexture2DLayered": "hipDeviceAttributeMaxTexture2DLayered",
    "maxTextureCubemapLayered": "hipDeviceAttributeMaxTextureCubemapLayered",
    "maxSurface1D": "hipDeviceAttributeMaxSurface1D",
    "maxSurface2D": "hipDeviceAttributeMaxSurface2D",
    "maxSurface3D": "hipDeviceAttributeMaxSurface3D",
    "maxSurface1DLayered": "hipDeviceAttributeMaxSurface1DLayered",
    "maxSurface2DLayered": "hipDeviceAttributeMaxSurface2DLayered",
    "maxSurfaceCubemap": "hipDeviceAttributeMaxSurfaceCubemap",
    "maxSurfaceCubemapLayered": "hipDeviceAttributeMaxSurfaceCubemapLayered",
    "surfaceAlignment": "hipDeviceAttributeSurfaceAlignment",
    "asyncEngineCount": "hipDeviceAttributeAsyncEngineCount",
    "unifiedAddressing": "hipDeviceAttributeUnifiedAddressing",
    "persistingL2CacheMaxSize": "hipDeviceAttributePersistingL2CacheMaxSize",
    "streamPrioritiesSupported": "hipDeviceAttributeStreamPrioritiesSupported",
    "globalL1CacheSupported": "hipDeviceAttributeGlobalL1CacheSupported",
    "localL1CacheSupported": "hipDeviceAttributeLocalL1CacheSupported",
    "sharedMemPerMultiprocessor": "the maxSharedMemoryPerMultiProcessor field",
    "regsPerMultiprocessor": "hipDeviceAttributeMaxRegistersPerMultiprocessor",
    "multiGpuBoardGroupID": "hipDeviceAttributeMultiGpuBoardGroupID",
    "hostNativeAtomicSupported": "hipDeviceAttributeHostNativeAtomicSupported",
    "computePreemptionSupported": "hipDeviceAttributeComputePreemptionSupported",
    "canUseHostPointerForRegisteredMem": "hipDeviceAttributeCanUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin": "hipDeviceAttributeSharedMemPerBlockOptin",
    "maxBlocksPerMultiProcessor": "hipDeviceAttributeMaxBlocksPerMultiProcessor",
    "accessPolicyMaxWindowSize": "hipDeviceAttributeAccessPolicyMaxWindowSize",
    "reservedSharedMemPerBlock": "hipDeviceAttributeReservedSharedMemPerBlock",
    "hostRegisterSupported": None,
    "sparseCudaArraySupported": None,
    "hostRegisterReadOnlySupported": None,
    "timelineSemaphoreInteropSupported": None,
    "memoryPoolsSupported": "hipDeviceAttributeMemoryPoolsSupported",
    "gpuDirectRDMASupported": None,
    "gpuDirectRDMAFlushWritesOptions": None,
    "gpuDirectRDMAWritesOrdering": None,
    "memoryPoolSupportedHandleTypes": None,
    "deferredMappingCudaArraySupported": None,
    "ipcEventSupported": None,
    "clusterLaunch": None,
    "unifiedFunctionPointers": None,
    "deviceNumaConfig": None,
    "deviceNumaId": None,
    "mpsEnabled": None,
    "hostNumaId": None,
    "gpuPciDeviceID": None,
    "gpuPciSubsystemID": None,
    "hostNumaMultinodeIpcSupported": None,
    # removed from cudaDeviceProp in CUDA 13, still read by older code
    "deviceOverlap": "hipDeviceAttributeDeviceOverlap (or asyncEngineCount > 0)",
    "singleToDoublePrecisionPerfRatio": "hipDeviceAttributeSingleToDoublePrecisionPerfRatio",
}


def check_device_prop_field(v: CodeIndex) -> list[Finding]:
    if not v.mentions(DEVICE_PROP_TYPES):
        return []
    out = []
    for k in v.indices(DEVICE_PROP_MISSING):
        t = v.toks[k]
        if not v.is_member(k):
            continue
        instead = DEVICE_PROP_MISSING[t.text]
        tail = (
            f": use {instead}"
            if instead and not instead.startswith("hipDeviceAttribute")
            else f": query hipDeviceGetAttribute(..., {instead}, dev)"
            if instead
            else ": HIP has no equivalent; guard it with #if defined(__HIP_PLATFORM_NVIDIA__)"
        )
        finding = v.finding(
            DEVICE_PROP_FIELD,
            k,
            k,
            f"cudaDeviceProp field {t.text} does not exist in hipDeviceProp_t (HIP "
            f"{DEVICE_PROP_HIP_VERSION}){tail}",
            api=f"cudaDeviceProp::{t.text}",
            hip=instead,
            hint=DEVICE_PROP_FIELD.fix,
        )
        if not _before_rocm6(v.ctx):
            finding.severity = Severity.WARNING
            finding.message += " (checked against HIP 5.2; ROCm 6.0 added many fields)"
        out.append(finding)
    return out


def _before_rocm6(ctx: Context) -> bool:
    rocm = ctx.target.rocm
    if rocm is None:  # the default target: the newest ROCm the tables know
        rocm = ctx.tables.newest_rocm
    return rocm < Version.parse("6.0")


RULE = HazardRule(
    DEVICE_PROP_FIELD, check_device_prop_field, DEVICE_PROP_TYPES | frozenset(DEVICE_PROP_MISSING)
)
