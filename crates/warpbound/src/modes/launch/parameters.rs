//! The `launch` mode's catalogue entry and its own parameters: the `warp-cfg` parameters
//! ([`crate::warp_analysis`]) with the grid and the block in the main form, the GPU (a
//! preset of crate `launch`, or the listing's architecture), the SM count, the occupancy's
//! parameters and the schedulers of the runs.

use crate::catalog::{ModeInfo, ParamInfo};
use crate::kernel_occupancy::OccupancyParams;
use crate::params::Params;
use crate::simulator;
use crate::warp_analysis;
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

pub(super) fn describe() -> ModeInfo {
    let mut params: Vec<ParamInfo> = warp_analysis::params()
        .into_iter()
        .map(|mut p| {
            if p.name == "grid" {
                p.meaning = "grid dimensions X,Y,Z: the blocks of the launch whose WCET is \
                             bounded (and simulated with simulate=true)"
                    .into();
                p.default = serde_json::json!("256,1,1");
                p.group = String::new();
            } else if p.name == "block" {
                p.meaning = "thread block dimensions X,Y,Z (warps = threads / 32, rounded up; \
                             at most 1024 threads): with the kernel's registers and shared \
                             memory they give the blocks one SM holds (report.occupancy)"
                    .into();
                p.default = serde_json::json!("128,1,1");
                p.group = String::new();
            }
            p
        })
        .collect();
    let mut gpu = ParamInfo::choice(
        "gpu",
        "the GPU: its number of SMs (each preset cites NVIDIA's whitepaper or specification) \
         and its architecture, whose per-SM limits give the occupancy; auto: the product of \
         the listing's architecture (sm_61 GTX 1080 Ti, sm_70 V100, sm_75 RTX 2080 Ti, sm_80 \
         A100, sm_86 RTX 3090, sm_89 RTX 4090, sm_90 H100 SXM), that of occupancy_arch when \
         the listing names none with a preset, else the RTX 3090",
        &["auto"],
        "auto",
    );
    gpu.choices = std::iter::once("auto")
        .chain(launch::gpus::GPUS.iter().map(|g| g.name))
        .map(str::to_string)
        .collect();
    params.insert(0, gpu);
    params.insert(
        1,
        ParamInfo::number(
            "sms",
            "streaming multiprocessors the grid runs on (0: the GPU's)",
            "SMs",
            0.0,
            f64::from(sim::Gpu::MAX_SMS),
            0.0,
        ),
    );
    params.insert(
        2,
        ParamInfo::choice(
            "scheduler",
            "warp scheduler of every SM in the simulated launch (simulate=true): any = loose \
             round-robin (lrr), greedy-then-oldest (gto) and a random work-conserving \
             scheduler (seed 1); the bound holds for every work-conserving warp scheduler and \
             block dispatcher",
            &["any", "lrr", "gto", "random"],
            "any",
        ),
    );
    params.insert(
        3,
        ParamInfo::choice(
            "memory_contention",
            "cost latency or control: round-robin = every memory access (global, local, \
             texture, constant) waits for one access of each other active SM and its own, at \
             the GPU's peak DRAM bandwidth (Huangfu's competing SMs, thesis §5.3.3.3; the \
             latencies in C grow by that much); none = an access costs the cost model's \
             latency whatever the other SMs do (the simulator's model)",
            &["round-robin", "none"],
            "round-robin",
        ),
    );
    params.insert(
        4,
        ParamInfo::number(
            "sectors_per_access",
            "memory_contention=round-robin: 32-byte sectors one warp access touches at most \
             (32: nothing coalesces, the safe default; 4: 32 threads reading consecutive \
             4-byte words)",
            "sectors",
            1.0,
            32.0,
            32.0,
        ),
    );
    params.extend(crate::kernel_occupancy::params(true));
    ModeInfo {
        name: String::new(),
        aliases: Vec::new(),
        title: "Kernel-launch WCET (blocks in waves over the SMs)".into(),
        description: "Bounds a whole grid on a GPU: S SMs, each holding m blocks at once (the \
                      occupancy), blocks placed by any work-conserving dispatcher, each SM's \
                      warps sharing one issue slot. Until the last block is dispatched every \
                      SM is full, so that moment is bounded by the issues of the blocks the \
                      least loaded SM started plus one block's stall time per turn of a slot; \
                      after it, the last SM's fixed blocks finish within the thread-block \
                      response time of their warps (the block mode's theorem). Under cost \
                      latency or control every memory access waits for one access of each \
                      other active SM at the GPU's DRAM bandwidth (memory_contention)."
            .into(),
        dialects: vec!["sass".into()],
        params,
        presets: warp_analysis::presets(),
        default_presets: BTreeMap::new(),
    }
}

/// The `launch` mode's own parameters, decoded once.
pub(super) struct LaunchParams {
    pub(super) grid: [u32; 3],
    pub(super) block: [u32; 3],
    /// `gpu` when not `auto`.
    pub(super) gpu: Option<&'static launch::gpus::GpuPreset>,
    /// `sms` when not 0.
    pub(super) sms: Option<u32>,
    pub(super) scheduler: String,
    pub(super) occupancy: OccupancyParams,
    /// `memory_contention=round-robin`: the sectors of one warp access (`launch::contention`).
    pub(super) contention_sectors: Option<u64>,
}

impl LaunchParams {
    pub(super) fn decode(p: &Params) -> Result<Self, Vec<Diagnostic>> {
        let gpu = p.text("gpu").map_err(|d| vec![d]).and_then(|g| {
            if g == "auto" {
                return Ok(None);
            }
            launch::gpus::by_name(g).map(Some).ok_or_else(|| {
                vec![Diagnostic::global(
                    Severity::Error,
                    format!("parameter `gpu`: `{g}` is not a GPU preset"),
                )]
            })
        });
        match (
            simulator::dim3(p, "grid"),
            simulator::dim3(p, "block"),
            gpu,
            p.u32("sms"),
            p.text("scheduler"),
            OccupancyParams::decode(p, true),
            contention_sectors(p),
        ) {
            (Ok(grid), Ok(block), Ok(gpu), Ok(sms), Ok(s), Ok(occupancy), Ok(c)) => {
                Ok(LaunchParams {
                    grid,
                    block,
                    gpu,
                    sms: (sms > 0).then_some(sms),
                    scheduler: s.to_string(),
                    occupancy,
                    contention_sectors: c,
                })
            }
            (g, b, gpu, sms, s, o, c) => Err(g
                .err()
                .into_iter()
                .chain(b.err())
                .chain(gpu.err().into_iter().flatten())
                .chain(sms.err())
                .chain(s.err())
                .chain(o.err())
                .chain(c.err())
                .collect()),
        }
    }
}

/// `Some(k)` under `memory_contention=round-robin`, `None` under `none`.
fn contention_sectors(p: &Params) -> Result<Option<u64>, Diagnostic> {
    let sectors = p.u64("sectors_per_access")?;
    Ok(match p.text("memory_contention")? {
        "none" => None,
        _ => Some(sectors),
    })
}

/// The GPU of the launch and why (`parameter`, `listing`, `occupancy_arch`, `assumed`):
/// the `gpu` parameter, else the preset of the listing's architecture, else of
/// `occupancy_arch`, else the RTX 3090 (the occupancy's assumed sm_86) with a note.
pub(super) fn choose_gpu(
    p: &LaunchParams,
    listing_arch: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> (&'static launch::gpus::GpuPreset, &'static str) {
    if let Some(g) = p.gpu {
        return (g, "parameter");
    }
    if let Some(g) = listing_arch.and_then(launch::gpus::for_arch) {
        return (g, "listing");
    }
    if let Some(g) = p.occupancy.arch().and_then(launch::gpus::for_arch) {
        return (g, "occupancy_arch");
    }
    let g = &launch::gpus::GPUS[4];
    diags.push(Diagnostic::global(
        Severity::Note,
        format!(
            "launch: {}; the {} ({}, {} SMs) is assumed (`gpu` and `sms` choose another)",
            listing_arch.map_or_else(
                || "the listing names no architecture".to_string(),
                |a| format!("the listing's architecture {a} has no GPU preset (sm_61 … sm_90)")
            ),
            g.title,
            g.arch,
            g.sms
        ),
    ));
    (g, "assumed")
}
