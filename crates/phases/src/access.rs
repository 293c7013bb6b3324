//! Step 3, memory part (§5.3): the worst-case cost of every DRAM and scratchpad request.
//!
//! How each request kind is bounded:
//! * 1D/2D tile requests (`ldglin`/`stglin`, `ldgcidx`/`stgcidx` — snoopy indexed transfers,
//!   which stream a tile, §3.2.3 — and `ldg2sptile`/`stg2sptile`): as the reference tool
//!   (`DRAMSim.cpp`, `sim(sd, true)`), the largest least-issue delay of a cycle model of its
//!   memory controller over every 4-byte start offset of one bank-pair row segment
//!   ([`crate::controller`]). The stride sequencer's worst-alignment burst count `b`
//!   (§3.2.1) is still reported, for comparison with Eq. 15: for 1D transfers the simulation
//!   equals Eq. 15 + 2 (rare cases one below), for 2D tiles whose periods change bank pair it
//!   is higher (KFusion track: 1095 vs 960 DRAM cycles).
//! * `sldg` (scalar load of a few words): the same model, one run at the buffer's own
//!   address (`sim(sd, false)`).
//! * `ldgbidx`/`stgbidx` (index-indexed over a whole buffer): Eq. 15 on the bursts of the
//!   whole buffer, unaligned, plus the pipeline delay twice (as the reference tool does).
//! * `ldgidxit`/`stgidxit` (iterative indexed): Eq. 16 for one burst per work-item over the
//!   buffer, plus the pipeline delay.
//! * scratchpad requests: one cycle per scratchpad line in the worst alignment plus one
//!   front-end cycle (§5.3), at the DRAM clock (Table 3). Block-indexed and `sldsp` requests
//!   read the whole buffer/`sd_words` words; `ldsplin`/`stsplin` walk the work-group's tile
//!   with the stride sequencer of [`crate::stride::scratchpad_lines`].
//!
//! Stride-descriptor registers (`sc.sd_words`, `sc.sd_period`, `sc.sd_period_cnt`) are
//! tracked in program order from `smovssp` writes, as the reference tool does; a write from
//! a register needs a `#bound value` annotation.

use crate::config::Config;
use crate::controller::{simulate_stride, SimulatedLid, Sweep};
use crate::dram::DramTiming;
use crate::error::Error;
use crate::launch::Launch;
use crate::stride::{scratchpad_lines, Stride};
use isa::simd::operand::{SSP_SD_PERIOD, SSP_SD_PERIOD_CNT, SSP_SD_WORDS};
use isa::simd::{Buffer, Instruction, Op, Program, Reg};
use std::collections::BTreeMap;

/// The resource a phase occupies (Sim-D §4.1: COMPUTE, DRAM, SP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    Compute,
    Dram,
    Scratchpad,
}

/// Which bound was applied, with its inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessModel {
    /// The controller simulation over every start offset ([`crate::controller`]);
    /// `bursts`/`worst_offset` are the most bursts over word alignments (for Eq. 15
    /// comparisons), `simulated` the simulation's result (its `lid` is the cost).
    Tiled {
        stride: Stride,
        bursts: u64,
        worst_offset: u64,
        write: bool,
        simulated: SimulatedLid,
    },
    /// The controller simulation at the buffer's own address (`sldg`).
    Single {
        stride: Stride,
        bursts: u64,
        simulated: SimulatedLid,
    },
    /// Eq. 15 over the whole buffer, unaligned (`ldgbidx`/`stgbidx`).
    BlockIndexed {
        buffer_words: u64,
        bursts: u64,
        write: bool,
    },
    /// Eq. 16, one burst per work-item (`ldgidxit`/`stgidxit`).
    IndexIterative {
        buffer_words: u64,
        rows: u64,
        write: bool,
    },
    /// Scratchpad: `lines` bus transfers plus one front-end cycle.
    Scratchpad { words: u64, lines: u64 },
}

/// The worst-case cost of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessCost {
    /// Instruction index of the request.
    pub instruction: usize,
    pub op: Op,
    pub resource: Resource,
    pub model: AccessModel,
    /// LID in DRAM clock cycles (the scratchpad runs at the DRAM clock).
    pub dram_cycles: u64,
    /// The same in compute cycles (rounded up): the phase cost.
    pub cycles: u64,
}

/// Stride-descriptor values in force at each instruction (program order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StrideRegs {
    words: u64,
    period: u64,
    period_cnt: u64,
}

fn buffer<'a>(
    map: &'a std::collections::BTreeMap<u32, Buffer>,
    inst: &Instruction,
    slot: Option<usize>,
    what: &str,
) -> Result<&'a Buffer, Error> {
    let operand = match slot {
        Some(s) => inst.src(s),
        None => inst.dst.as_ref(),
    };
    let Some(o) = operand else {
        return Err(Error::at(
            inst.span,
            format!("`{}` needs a {what} buffer id", inst.mnemonic),
        ));
    };
    let id = o.int_value().filter(|v| *v >= 0).ok_or_else(|| {
        Error::at(
            o.span,
            format!("the {what} buffer must be given as an immediate id"),
        )
    })?;
    u32::try_from(id)
        .ok()
        .and_then(|id| map.get(&id))
        .ok_or_else(|| {
            Error::at(
                o.span,
                format!(
                    "{what} buffer {id} is not defined (.{})",
                    if what == "scratchpad" {
                        "sp_data"
                    } else {
                        "data"
                    }
                ),
            )
        })
}

/// Costs of every request instruction of the program, by instruction index.
pub fn request_costs(
    program: &Program,
    launch: &Launch,
    config: &Config,
) -> Result<Vec<Option<AccessCost>>, Error> {
    let dram = config.dram.timing();
    let mut regs = StrideRegs {
        words: 1,
        period: 1,
        period_cnt: 1,
    };
    let mut out = Vec::with_capacity(program.instructions.len());
    let mut sims = SimCache::new();
    for inst in &program.instructions {
        if inst.op == Some(Op::SMovSsp) {
            track_smovssp(inst, &mut regs)?;
        }
        let cost = match inst.op {
            Some(op)
                if inst
                    .op
                    .is_some_and(|o| o.is_dram_access() || o.is_scratchpad_access()) =>
            {
                Some(cost_of(
                    program, inst, op, &regs, launch, config, &dram, &mut sims,
                )?)
            }
            _ => None,
        };
        out.push(cost);
    }
    Ok(out)
}

fn track_smovssp(inst: &Instruction, regs: &mut StrideRegs) -> Result<(), Error> {
    let Some(Reg::ScalarSpecial(idx)) = inst.dst_reg() else {
        return Ok(());
    };
    if ![SSP_SD_WORDS, SSP_SD_PERIOD, SSP_SD_PERIOD_CNT].contains(&idx) {
        return Ok(());
    }
    let value = match inst.src(0).and_then(|o| o.int_value()) {
        Some(v) => u64::try_from(v).map_err(|_| Error::at(inst.span, "a stride descriptor register cannot be negative"))?,
        None => match inst.value_bound {
            Some(v) => v.value,
            None => {
                return Err(Error::at(
                    inst.span,
                    "cannot infer the value this smovssp writes into a stride descriptor register: annotate it with `#bound value V` on the line before (§5.3)",
                ))
            }
        },
    };
    match idx {
        SSP_SD_WORDS => regs.words = value,
        SSP_SD_PERIOD => regs.period = value,
        _ => regs.period_cnt = value,
    }
    Ok(())
}

/// Controller simulations already run in this program, by request (a kernel often repeats
/// the same request, e.g. in a loop): the sweep is the expensive part of the analysis.
type SimCache = BTreeMap<(u64, u64, u64, u64, bool, Sweep), SimulatedLid>;

fn simulate_cached(
    cache: &mut SimCache,
    dram: &DramTiming,
    stride: &Stride,
    write: bool,
    sweep: Sweep,
    max_cycles: u64,
) -> Result<SimulatedLid, Error> {
    let key = (
        stride.addr,
        stride.words,
        stride.period,
        stride.period_count,
        write,
        sweep,
    );
    if let Some(s) = cache.get(&key) {
        return Ok(*s);
    }
    let s = simulate_stride(dram, stride, write, sweep, max_cycles)?;
    cache.insert(key, s);
    Ok(s)
}

#[allow(clippy::too_many_arguments)]
fn cost_of(
    program: &Program,
    inst: &Instruction,
    op: Op,
    regs: &StrideRegs,
    launch: &Launch,
    config: &Config,
    dram: &DramTiming,
    sims: &mut SimCache,
) -> Result<AccessCost, Error> {
    let budget = &config.budget;
    let bb = dram.burst_bytes();
    let pipe = config.dram_pipeline_cycles;
    let wg_width = launch.wg_width;
    let periods = launch.wg_height(config.work_items);
    let sp_cost = |words: u64, lines: u64| (AccessModel::Scratchpad { words, lines }, lines + 1);
    let read_lid = |b: u64| dram.tid_read(b, false) + pipe;
    let write_lid = |b: u64| dram.tid_write(b) + pipe;
    // Tile requests: the reference's controller simulation over every start offset
    // (`DRAMSim` → `sim_DRAM_stride(sd, true)`, see [`crate::controller`]); its LID already
    // includes the front-end pipeline, so no `pipe` is added.
    let mut tiled = |stride: Stride, write: bool| -> Result<(AccessModel, u64), Error> {
        let sim = simulate_cached(
            sims,
            dram,
            &stride,
            write,
            Sweep::AllOffsets,
            config.max_dram_sim_steps,
        )
        .map_err(|e| e.located(inst.span))?;
        let (bursts, worst_offset) = stride.worst_case_bursts(bb, budget.max_stride_periods)?;
        Ok((
            AccessModel::Tiled {
                stride,
                bursts,
                worst_offset,
                write,
                simulated: sim,
            },
            sim.lid,
        ))
    };
    let (model, dram_cycles) = match op {
        Op::LdgLin | Op::StgLin => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            let per_item = match inst.subop {
                Some(1) => 2,
                Some(2) => 4,
                _ => 1,
            };
            let words = (per_item * wg_width).min(b.dim_x);
            tiled(
                Stride {
                    addr: b.addr,
                    words,
                    period: b.dim_x,
                    period_count: periods,
                },
                op == Op::StgLin,
            )?
        }
        Op::LdgCIdx | Op::StgCIdx => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            tiled(
                Stride {
                    addr: b.addr,
                    words: regs.words,
                    period: regs.period,
                    period_count: regs.period_cnt,
                },
                op == Op::StgCIdx,
            )?
        }
        Op::Ldg2SpTile | Op::Stg2SpTile => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            let sp = buffer(&program.sp_buffers, inst, None, "scratchpad")?;
            tiled(
                Stride {
                    addr: b.addr,
                    words: sp.dim_x,
                    period: b.dim_x,
                    period_count: sp.dim_y,
                },
                op == Op::Stg2SpTile,
            )?
        }
        Op::Sldg => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            let words = match inst.src(1).and_then(|o| o.int_value()) {
                Some(w) => u64::try_from(w).unwrap_or(0),
                None => 1,
            };
            let stride = Stride {
                addr: b.addr,
                words,
                period: words,
                period_count: 1,
            };
            // `sim(sd, false)`: one controller run at the buffer's own address.
            let sim = simulate_cached(
                sims,
                dram,
                &stride,
                false,
                Sweep::OwnAddress,
                config.max_dram_sim_steps,
            )
            .map_err(|e| e.located(inst.span))?;
            (
                AccessModel::Single {
                    stride,
                    bursts: sim.bursts,
                    simulated: sim,
                },
                sim.lid,
            )
        }
        Op::LdgBIdx | Op::StgBIdx => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            let bursts = dram.bursts_for_bytes(b.words().saturating_mul(4), false);
            let write = op == Op::StgBIdx;
            let lid = if write {
                write_lid(bursts)
            } else {
                read_lid(bursts)
            };
            (
                AccessModel::BlockIndexed {
                    buffer_words: b.words(),
                    bursts,
                    write,
                },
                lid + pipe,
            )
        }
        Op::LdgIdxIt | Op::StgIdxIt => {
            let b = buffer(&program.buffers, inst, Some(0), "DRAM")?;
            let write = op == Op::StgIdxIt;
            let n = config.work_items;
            let lid = if write {
                dram.tiiid_write(n, b.words())
            } else {
                dram.tiiid_read(n, b.words())
            };
            (
                AccessModel::IndexIterative {
                    buffer_words: b.words(),
                    rows: dram.rows(b.words()),
                    write,
                },
                lid + pipe,
            )
        }
        Op::LdspBIdx | Op::StspBIdx => {
            let sp = buffer(&program.sp_buffers, inst, Some(0), "scratchpad")?;
            let words = sp.words();
            sp_cost(words, words.div_ceil(config.sp_bus_words))
        }
        Op::Sldsp => sp_cost(regs.words, regs.words.div_ceil(config.sp_bus_words)),
        Op::LdspLin | Op::StspLin => {
            let sp = buffer(&program.sp_buffers, inst, Some(0), "scratchpad")?;
            if wg_width > sp.dim_x {
                return Err(Error::at(inst.span, format!("the work-group ({wg_width} wide) is wider than scratchpad buffer {} ({} words)", sp.id, sp.dim_x)));
            }
            let lines = scratchpad_lines(
                wg_width,
                sp.dim_x,
                periods,
                config.sp_bus_words,
                budget.max_sp_stride_words,
            )?;
            sp_cost(wg_width.saturating_mul(periods), lines)
        }
        _ => {
            return Err(Error::at(
                inst.span,
                format!("`{}` is not a memory request", op.name()),
            ))
        }
    };
    let resource = if op.is_scratchpad_access() {
        Resource::Scratchpad
    } else {
        Resource::Dram
    };
    Ok(AccessCost {
        instruction: inst.index,
        op,
        resource,
        model,
        dram_cycles,
        cycles: dram.to_compute_cycles(dram_cycles, config.compute_clock_mhz),
    })
}

/// Program upload time (§5.7, Eq. 18's tID_R(b)): the binary, 8 bytes per instruction, read
/// as one burst-aligned request; in compute cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadCost {
    pub instructions: u64,
    pub bytes: u64,
    pub bursts: u64,
    pub dram_cycles: u64,
    pub cycles: u64,
}

pub fn program_upload(instructions: usize, config: &Config) -> UploadCost {
    let dram = config.dram.timing();
    let instructions = instructions as u64;
    let bytes = instructions * 8;
    let bursts = dram.bursts_for_bytes(bytes, true);
    let dram_cycles = dram.tid_read(bursts, true) + config.dram_pipeline_cycles;
    UploadCost {
        instructions,
        bytes,
        bursts,
        dram_cycles,
        cycles: dram.to_compute_cycles(dram_cycles, config.compute_clock_mhz),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Program upload for 36 instructions: 288 B = 5 aligned bursts; AC(5) = 2·9+22+8+4 = 52;
    /// tID_R(5, aligned) = max(52+12, 1·9+52) + 22 = 86; + 3 pipeline cycles = 89 DRAM cycles
    /// = ⌈89·1000/1600⌉ = 56 compute cycles.
    #[test]
    fn program_upload_by_hand() {
        let u = program_upload(36, &Config::default());
        assert_eq!(
            (u.bytes, u.bursts, u.dram_cycles, u.cycles),
            (288, 5, 89, 56)
        );
    }
}
