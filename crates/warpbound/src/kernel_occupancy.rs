//! A kernel's occupancy as the modes that take a block size report it (`block` on SASS,
//! `pws` on GCN3; issue #41): the figures read from the kernel text, each with where it came
//! from, the request's overrides, the `occupancy` crate's arithmetic on the preset of the
//! kernel's architecture, and the report's view of it.
//!
//! Registers per thread: the `registers` parameter, else a whole `nvdisasm` dump's
//! `EIATTR_REGCOUNT` (`isa::FunctionResources`), else the estimate from a listing's
//! instructions (`isa::sass::register_estimate`, labelled as one, with a note). Static shared
//! memory: the dump's `.nv.shared.NAME`, else 0 with a note (a `cuobjdump -sass` listing
//! does not say it). The request's `shared_bytes` (the launch's dynamic shared memory) is
//! added. On sm_90 the dump's figure already holds the 1 KiB the SM reserves per block
//! (ptxas of CUDA 11.8 puts it at the start of `.nv.shared.NAME`, measured on every kernel:
//! the kernel's own shared memory starts at 0x400), so it is not added twice. GCN3: the code object metadata's `.vgpr_count`/`.sgpr_count`, else the descriptor's
//! `.amdhsa_next_free_vgpr`/`_sgpr` (SGPRs plus VCC's two), and the LDS of
//! `.group_segment_fixed_size`.

use crate::catalog::ParamInfo;
use crate::params::Params;
use crate::views::occupancy::{OccupancyView, Provenance, Source};
use isa::{Diagnostic, Kernel, Severity};
use occupancy::{Machine, SmLimits, Usage};

/// The architecture when neither the listing nor the request names one.
const ASSUMED_ARCH: &str = "sm_86";

/// SGPRs the GCN3 descriptor's `.amdhsa_next_free_sgpr` leaves out that every kernel here
/// has: VCC (LLVM AMDGPU Usage, `.amdhsa_next_free_sgpr`: "not including VCC, FLAT_SCRATCH
/// and XNACK_MASK"); the metadata's `.sgpr_count` includes them all.
const VCC_SGPRS: u32 = 2;

/// The parameters of the occupancy a SASS mode adds (`occupancy_arch` only for SASS).
pub(crate) fn params(sass: bool) -> Vec<ParamInfo> {
    let mut v = vec![ParamInfo::number(
        "registers",
        if sass {
            "registers per thread for the occupancy (0: the kernel's — an nvdisasm dump's \
             EIATTR_REGCOUNT, else estimated from the listing as its highest register + 1 (+ 2 \
             reserved from sm_70 on)); the static shared memory comes from the dump and `shared_bytes` adds \
             the launch's dynamic shared memory"
        } else {
            "VGPRs per work-item for the occupancy (0: the kernel's — the code object \
             metadata's .vgpr_count, else the descriptor's .amdhsa_next_free_vgpr); the LDS \
             is the kernel's .group_segment_fixed_size"
        },
        "registers",
        0.0,
        if sass { 255.0 } else { 256.0 },
        0.0,
    )
    .in_group("occupancy")];
    if sass {
        let mut arch = ParamInfo::text(
            "occupancy_arch",
            "the SM whose limits the occupancy uses (compute capability sm_61, sm_70, sm_75, \
             sm_80, sm_86, sm_89, sm_90: CUDA C++ Programming Guide, Technical \
             Specifications per Compute Capability; shared memory at the architecture's \
             largest carve-out); auto: the listing's architecture, sm_86 when it names none",
            "auto",
        )
        .in_group("occupancy");
        arch.choices = std::iter::once("auto")
            .chain(occupancy::nvidia::PRESETS.iter().map(|p| p.name))
            .map(str::to_string)
            .collect();
        v.push(arch);
    }
    v
}

/// The occupancy parameters of a request, decoded once.
pub(crate) struct OccupancyParams {
    /// `registers` when not 0.
    registers: Option<u32>,
    /// `occupancy_arch` when not `auto` (SASS), or the architecture a mode chose.
    arch: Option<String>,
    /// Why `arch` (the report's `machine_from`): `parameter`, or what a mode said.
    arch_from: &'static str,
    /// `shared_bytes`: the launch's dynamic shared memory (LDS) per block.
    dynamic_shared: u64,
}

impl OccupancyParams {
    pub(crate) fn decode(p: &Params, sass: bool) -> Result<Self, Diagnostic> {
        let registers = p.u32("registers")?;
        let arch = if sass {
            let a = p.text("occupancy_arch")?.trim();
            if a != "auto" && !a.is_empty() && SmLimits::preset(a).is_none() {
                return Err(Diagnostic::global(
                    Severity::Error,
                    format!(
                        "parameter `occupancy_arch`: `{a}` is none of auto, {}",
                        occupancy::nvidia::PRESETS.map(|p| p.name).join(", ")
                    ),
                ));
            }
            (a != "auto" && !a.is_empty()).then(|| a.to_string())
        } else {
            None
        };
        Ok(OccupancyParams {
            registers: (registers > 0).then_some(registers),
            arch,
            arch_from: "parameter",
            dynamic_shared: p.u64("shared_bytes")?,
        })
    }

    /// The architecture `occupancy_arch` names, if it names one.
    pub(crate) fn arch(&self) -> Option<&str> {
        self.arch.as_deref()
    }

    /// With `occupancy_arch=auto`, the architecture `arch` for the reason `from` (the
    /// `launch` mode: the GPU's); a request's `occupancy_arch` stays.
    pub(crate) fn or_arch(mut self, arch: &str, from: &'static str) -> Self {
        if self.arch.is_none() {
            self.arch = Some(arch.to_string());
            self.arch_from = from;
        }
        self
    }
}

/// The occupancy of the SASS `kernel` in blocks of `threads`, with its notes.
pub(crate) fn sass(
    kernel: &Kernel,
    threads: u64,
    p: &OccupancyParams,
    diags: &mut Vec<Diagnostic>,
) -> Option<OccupancyView> {
    let (limits, machine_from) = match (&p.arch, &kernel.arch) {
        (Some(a), _) => (SmLimits::preset(a)?, p.arch_from),
        (None, Some(a)) => match SmLimits::preset(a) {
            Some(l) => (l, "listing"),
            None => {
                diags.push(note(format!(
                    "occupancy: the listing's architecture {a} has no preset (sm_61, sm_70, \
                     sm_75, sm_80, sm_86, sm_89, sm_90); set `occupancy_arch` to see one"
                )));
                return None;
            }
        },
        (None, None) => {
            diags.push(note(format!(
                "occupancy: the listing names no architecture; {ASSUMED_ARCH}'s limits are \
                 used (`occupancy_arch` chooses another)"
            )));
            (SmLimits::preset(ASSUMED_ARCH)?, "assumed")
        }
    };
    let resources = kernel.resources.as_ref();
    let (registers, registers_source) = match (p.registers, resources.and_then(|r| r.registers)) {
        (Some(r), _) => (r, Source::Parameter),
        (None, Some(r)) => (r, Source::Dump),
        (None, None) => {
            let e = isa::sass::register_estimate::estimate_registers(kernel);
            diags.push(note(format!(
                "occupancy: {} registers per thread estimated from the listing (highest \
                 register {} + 1 + {} that ptxas reserves; a listing does not say the count, \
                 an nvdisasm dump of the cubin does, and `registers` sets it; \
                 docs/occupancy.md measures the estimate's error)",
                e.registers,
                e.highest
                    .map_or_else(|| "none".to_string(), |h| format!("R{h}")),
                e.reserved
            )));
            (e.registers, Source::Listing)
        }
    };
    let (static_shared, shared_source) = match resources.and_then(|r| r.shared_bytes) {
        Some(s) => (s, Source::Dump),
        None => {
            diags.push(note(
                "occupancy: a cuobjdump listing does not say the kernel's static shared \
                 memory; 0 is assumed (an nvdisasm dump of the cubin gives it, `shared_bytes` \
                 adds shared memory)",
            ));
            (0, Source::Listing)
        }
    };
    // The part of the dump's figure that is the SM's own reservation, which the machine adds.
    let in_section = if shared_source == Source::Dump && limits.compute_capability.0 >= 9 {
        limits.reserved_shared_per_block.min(static_shared)
    } else {
        0
    };
    if in_section > 0 {
        diags.push(note(format!(
            "occupancy: on {} ptxas lays the {in_section} bytes reserved per block into the \
             kernel's .nv.shared section (its own shared memory starts at {in_section:#x}); \
             they are counted once, as the reservation",
            limits.name
        )));
    }
    let provenance = Provenance {
        machine: limits.name.into(),
        machine_from,
        registers_source,
        scalar_registers_source: None,
        static_shared_bytes: static_shared,
        dynamic_shared_bytes: p.dynamic_shared,
        shared_source,
        reservation_in_static: in_section,
    };
    let usage = Usage {
        threads: u32::try_from(threads).unwrap_or(u32::MAX),
        registers,
        scalar_registers: 0,
        shared_bytes: (static_shared - in_section).saturating_add(p.dynamic_shared),
    };
    view(&Machine::Nvidia(limits), &usage, provenance, diags)
}

/// The occupancy of the GCN3 kernel `f` of `source` in work-groups of `threads`.
pub(crate) fn gcn(
    source: &str,
    f: &isa::gcn::GcnFunction,
    threads: u64,
    p: &OccupancyParams,
    diags: &mut Vec<Diagnostic>,
) -> Option<OccupancyView> {
    let metadata = isa::gcn::metadata::kernels(source);
    let meta = metadata.get(&f.name);
    let d = |key: &str| f.descriptor.get(key).copied();
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let (vgprs, vgpr_source) = match (
        p.registers,
        meta.and_then(|m| m.vgpr_count),
        d(".amdhsa_next_free_vgpr"),
    ) {
        (Some(r), _, _) => (r, Source::Parameter),
        (None, Some(v), _) => (small(v), Source::Metadata),
        (None, None, Some(v)) => (small(v), Source::Descriptor),
        (None, None, None) => {
            diags.push(note(
                "occupancy: the listing gives no VGPR count (no metadata .vgpr_count, no \
                 .amdhsa_next_free_vgpr); set `registers` to see the occupancy",
            ));
            return None;
        }
    };
    let (sgprs, sgpr_source) = match (meta.and_then(|m| m.sgpr_count), d(".amdhsa_next_free_sgpr"))
    {
        (Some(s), _) => (small(s), Some(Source::Metadata)),
        (None, Some(s)) => (small(s).saturating_add(VCC_SGPRS), Some(Source::Descriptor)),
        (None, None) => (0, None),
    };
    let (lds, lds_source) = match (
        meta.and_then(|m| m.group_segment_fixed_size),
        d(".amdhsa_group_segment_fixed_size"),
    ) {
        (Some(l), _) => (l, Source::Metadata),
        (None, Some(l)) => (l, Source::Descriptor),
        (None, None) => (0, Source::Listing),
    };
    let provenance = Provenance {
        machine: occupancy::gcn::GCN3.name.into(),
        machine_from: "listing",
        registers_source: vgpr_source,
        scalar_registers_source: sgpr_source,
        static_shared_bytes: lds,
        dynamic_shared_bytes: p.dynamic_shared,
        shared_source: lds_source,
        reservation_in_static: 0,
    };
    let usage = Usage {
        threads: u32::try_from(threads).unwrap_or(u32::MAX),
        registers: vgprs,
        scalar_registers: sgprs,
        shared_bytes: lds.saturating_add(p.dynamic_shared),
    };
    view(
        &Machine::Gcn3(occupancy::gcn::GCN3),
        &usage,
        provenance,
        diags,
    )
}

fn view(
    machine: &Machine,
    usage: &Usage,
    provenance: Provenance,
    diags: &mut Vec<Diagnostic>,
) -> Option<OccupancyView> {
    match occupancy::analyse(machine, usage) {
        Ok(a) => Some(OccupancyView::new(&a, provenance)),
        Err(e) => {
            diags.push(Diagnostic::global(
                Severity::Warning,
                format!("occupancy: {e}"),
            ));
            None
        }
    }
}

fn note(text: impl Into<String>) -> Diagnostic {
    Diagnostic::global(Severity::Note, text)
}
