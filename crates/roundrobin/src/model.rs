//! The whole method end to end: kernel analyzer → coalescing and competing-SM estimates →
//! (optional) cache classification → code segments → round-robin schedule → WCET.

use crate::analyzer::{self, KernelAnalysis};
use crate::coalescing::{utilization, CoalescingStats};
use crate::code_segments::{
    self, class_of, instruction_latency, segment_latency, Estimates, InstClass, InstLatency,
};
use crate::competing::{self, partition_of};
use crate::config::{Config, Mode, Overrides};
use crate::control_flow;
use crate::launch::Launch;
use crate::report::{
    AccessEntry, CacheReport, EstimatesUsed, GanttRow, L1Summary, LlcSummary, RrResult, SegmentRow,
    TraceSummary, WarpTimes, Wcet,
};
use crate::schedule::{schedule, SegmentInstance, WarpProgram};
use caches::{
    access_level, bypass, l1_reorder, shared_llc, AccessKind, L1Estimate, LoadTransaction,
    LruCache, MemoryAccess, MemoryLevel, WarpAccesses,
};
use isa::ptx::Function;
use isa::{Diagnostic, Severity};
use std::collections::BTreeMap;

fn config_error(m: impl Into<String>) -> Diagnostic {
    Diagnostic::global(Severity::Error, m)
}

fn validate(config: &Config) -> Result<(), Diagnostic> {
    if config.warp_size == 0 || config.warp_size > 32 {
        return Err(config_error("warp_size must be between 1 and 32"));
    }
    if config.sms == 0 || config.memory_partitions == 0 {
        return Err(config_error("sms and memory_partitions must be positive"));
    }
    if config.segment_bytes == 0 || config.partition_interleave_bytes == 0 {
        return Err(config_error(
            "segment_bytes and partition_interleave_bytes must be positive",
        ));
    }
    if let Some(c) = &config.caches {
        c.l1.sets()?;
        c.l2.sets()?;
    }
    Ok(())
}

/// Per line of a warp access: L1 hit, and the index of its L2 access if it reached the L2.
type LineInfo = BTreeMap<(usize, usize), Vec<(bool, Option<usize>)>>;

/// Number of channels in the waves processed so far.
fn base_channel(waves: &[Vec<usize>]) -> usize {
    waves.iter().map(Vec::len).sum()
}

/// Per-access cache levels, keyed by (warp index, access index).
type Levels = BTreeMap<(usize, usize), MemoryLevel>;

fn run_caches(
    ka: &KernelAnalysis,
    config: &Config,
    blocks_per_wave: u64,
) -> Result<Option<(CacheReport, Levels)>, Diagnostic> {
    let Some(cc) = &config.caches else {
        return Ok(None);
    };
    let budget = usize::try_from(config.budgets.max_cache_accesses).unwrap_or(usize::MAX);
    let sms = config.sms;
    let mut l1 = Vec::new();
    let mut bypasses = Vec::new();
    // Per SM: its L2 access sequence and, for each L2 access, where it came from.
    let mut cores: Vec<Vec<u64>> = Vec::new();
    let mut origin: Vec<Vec<(usize, usize, usize)>> = Vec::new(); // (warp, access, line slot)
                                                                  // (warp, access) → per line: (l1 hit, index into the SM's L2 sequence)
    let mut line_info = LineInfo::new();
    for sm in 0..sms {
        let members: Vec<usize> = (0..ka.warps.len())
            .filter(|&w| ka.warps[w].sm == sm)
            .collect();
        if members.is_empty() {
            continue;
        }
        // Waves of co-resident blocks reach the L1 one after the other; the L1 state
        // carries over from one wave to the next.
        let mut cache = LruCache::new(&cc.l1)?;
        let mut est = L1Estimate::default();
        let mut wave_members: Vec<Vec<usize>> = Vec::new();
        for wave in members.chunk_by(|&a, &b| {
            ka.warps[a].block_linear as u64 / (sms as u64 * blocks_per_wave)
                == ka.warps[b].block_linear as u64 / (sms as u64 * blocks_per_wave)
        }) {
            let channels: Vec<WarpAccesses> = wave
                .iter()
                .map(|&w| {
                    let t = &ka.warps[w];
                    WarpAccesses {
                        block: t.block_linear,
                        warp: t.warp,
                        accesses: t
                            .accesses
                            .iter()
                            .map(|a| {
                                let mut lines: Vec<u64> = a
                                    .segments
                                    .iter()
                                    .map(|s| cc.l1.line_of(s.address))
                                    .collect();
                                lines.dedup();
                                MemoryAccess {
                                    pc: a.pc,
                                    kind: a.kind,
                                    lines,
                                }
                            })
                            .collect(),
                    }
                })
                .collect();
            let e = l1_reorder::estimate_in(&mut cache, &channels, cc.stores, cc.order, budget)?;
            // Channels are numbered across waves, in the order of `members`.
            let base = base_channel(&wave_members);
            est.load_lines += e.load_lines;
            est.load_hits += e.load_hits;
            est.load_misses += e.load_misses;
            est.store_lines += e.store_lines;
            for mut o in e.order {
                o.channel += base;
                est.order.push(o);
            }
            wave_members.push(wave.to_vec());
        }
        est.set_load_miss_rate();
        let mut seq = Vec::new();
        let mut from = Vec::new();
        let mut loads = Vec::new();
        for o in &est.order {
            let w = members[o.channel];
            let acc = &ka.warps[w].accesses[o.index];
            let mut info = Vec::with_capacity(o.lines.len());
            for (slot, lo) in o.lines.iter().enumerate() {
                // L1 misses of loads and every store (write-through) go to the L2.
                let to_l2 = !lo.hit || o.kind == AccessKind::Store;
                let l2_index = if to_l2 {
                    seq.push(cc.l2.line_of(lo.line.saturating_mul(cc.l1.line_bytes)));
                    from.push((w, o.index, slot));
                    Some(seq.len() - 1)
                } else {
                    None
                };
                info.push((lo.hit && o.kind == AccessKind::Load, l2_index));
            }
            line_info.insert((w, o.index), info);
            if o.kind == AccessKind::Load {
                for s in &acc.segments {
                    loads.push(LoadTransaction {
                        line: cc.l1.line_of(s.address),
                        used_bytes: s.used_bytes,
                    });
                }
            }
        }
        bypasses.push(bypass::analyze_sm(
            sm,
            &loads,
            cc.l1.line_bytes,
            Some(&cc.l1),
        )?);
        l1.push(L1Summary {
            sm,
            load_lines: est.load_lines,
            load_hits: est.load_hits,
            load_misses: est.load_misses,
            store_lines: est.store_lines,
            load_miss_rate: est.load_miss_rate,
        });
        cores.push(seq);
        origin.push(from);
    }
    let llc = shared_llc::analyze(&cores, &cc.l2, cc.llc_method, budget)?;
    // L2 outcome per (warp, access, slot).
    let mut l2_hit: BTreeMap<(usize, usize, usize), bool> = BTreeMap::new();
    for (core, outs) in llc.cores.iter().enumerate() {
        for (i, o) in outs.iter().enumerate() {
            if let Some(&key) = origin.get(core).and_then(|v| v.get(i)) {
                l2_hit.insert(key, o.hit);
            }
        }
    }
    let mut levels = Levels::new();
    let (mut n1, mut n2, mut n3) = (0u64, 0u64, 0u64);
    for (&(w, a), info) in &line_info {
        let lines = info.iter().enumerate().map(|(slot, &(l1_hit, l2_idx))| {
            (
                l1_hit,
                l2_idx.map(|_| l2_hit.get(&(w, a, slot)).copied().unwrap_or(false)),
            )
        });
        let level = access_level(lines);
        match level {
            MemoryLevel::L1Hit => n1 += 1,
            MemoryLevel::L2Hit => n2 += 1,
            MemoryLevel::L2Miss => n3 += 1,
        }
        levels.insert((w, a), level);
    }
    Ok(Some((
        CacheReport {
            l1,
            llc: LlcSummary {
                method: llc.method,
                accesses: llc.accesses,
                misses: llc.misses,
                miss_rate: llc.miss_rate,
            },
            bypass: bypasses,
            l1_hit_accesses: n1,
            l2_hit_accesses: n2,
            l2_miss_accesses: n3,
        },
        levels,
    )))
}

/// Runs Huangfu's analyzer and pure round-robin timing model on kernel `f` launched with
/// `launch`, under `config` and the what-if `overrides`. Errors are located diagnostics
/// (line 0 for errors about the configuration or a budget).
pub fn analyze(
    f: &Function,
    launch: &Launch,
    config: &Config,
    overrides: &Overrides,
) -> Result<RrResult, Diagnostic> {
    analyze_observed(f, launch, config, overrides, &isa::progress::silent)
}

/// [`analyze`], telling `observer` every few ten thousand warp instructions how many the
/// analyzer has executed (of `max_warp_steps`; [`isa::Task::RoundRobinAnalyzer`]). The
/// result does not depend on the observer.
pub fn analyze_observed(
    f: &Function,
    launch: &Launch,
    config: &Config,
    overrides: &Overrides,
    observer: isa::Observer,
) -> Result<RrResult, Diagnostic> {
    validate(config)?;
    let cf = control_flow::build(f)?;
    let ka = analyzer::analyze_observed(f, &cf, launch, config, observer)?;
    let warp_size = config.warp_size;
    let warps_per_block = launch.warps_per_block(warp_size);

    // Coalescing (Alg. 5, §5.3.3.2) and competing SMs (Alg. 6).
    let coalescing = CoalescingStats::of(
        ka.warps
            .iter()
            .flat_map(|w| w.accesses.iter())
            .map(|a| a.transactions()),
    );
    let mut vectors: BTreeMap<u64, BTreeMap<u32, Vec<u64>>> = BTreeMap::new();
    for w in &ka.warps {
        for a in &w.accesses {
            let v = vectors
                .entry(a.pc)
                .or_default()
                .entry(w.sm)
                .or_insert_with(|| vec![0; config.memory_partitions as usize]);
            for s in &a.segments {
                let p = partition_of(
                    s.address,
                    config.partition_interleave_bytes,
                    config.memory_partitions,
                );
                if let Some(x) = v.get_mut(p) {
                    *x += 1;
                }
            }
        }
    }
    let blocks = launch.blocks();
    let active_sms = blocks.min(config.sms as u64) as u32;
    let competing = competing::estimate(
        &vectors,
        active_sms,
        config.sms,
        config.t_competing_sm,
        config.t_d2center,
    );

    // N: the warps resident on the busiest SM in one wave.
    let blocks_per_wave = (config.max_blocks_per_sm as u64)
        .min(config.max_warps_per_sm as u64 / warps_per_block.max(1))
        .max(1);
    let busiest = blocks.div_ceil(config.sms as u64);
    let resident = (blocks_per_wave.min(busiest) * warps_per_block).min(u32::MAX as u64) as u32;
    let estimates = Estimates {
        active_warps: overrides.active_warps.unwrap_or(resident),
        n_coal: overrides.n_coal.unwrap_or(match config.mode {
            Mode::Max => coalescing.max,
            Mode::Avg => coalescing.avg,
        }),
        competing_sms: overrides.competing_sms.unwrap_or(match config.mode {
            Mode::Max => competing.max,
            Mode::Avg => competing.avg,
        }),
    };

    // An access to an unknown address may evict any line: the cache analyses, which
    // follow concrete lines, do not apply, and every access costs an L2 miss.
    let unknown_addresses = ka
        .warps
        .iter()
        .any(|w| w.accesses.iter().any(|a| a.unknown_transactions > 0));
    let mut notes = ka.notes.clone();
    let cache = if unknown_addresses && config.caches.is_some() {
        notes.push(Diagnostic::global(
            Severity::Warning,
            "caches: some global addresses are unknown and may evict any line, so the cache \
             analyses are not applied; every global access is costed as an L2 miss",
        ));
        let all_misses: Levels = ka
            .warps
            .iter()
            .enumerate()
            .flat_map(|(w, t)| (0..t.accesses.len()).map(move |k| ((w, k), MemoryLevel::L2Miss)))
            .collect();
        Some((None, all_misses))
    } else {
        run_caches(&ka, config, blocks_per_wave)?.map(|(r, l)| (Some(r), l))
    };

    // Code segments and their static latencies (Eq. 5.4–5.7 with L_base).
    let t = &config.timing;
    let (segs, seg_of) = code_segments::cut(f, &cf, config.segmentation);
    let inst_lat: Vec<InstLatency> = f
        .instructions
        .iter()
        .map(|ins| instruction_latency(class_of(ins), t, &estimates, t.l_base))
        .collect();
    let seg_lat: Vec<(u64, u64)> = segs
        .iter()
        .map(|s| segment_latency(&inst_lat[s.start..s.end]))
        .collect();

    // Per-warp programs: trace steps grouped into segment instances.
    let mut total_instances = 0u64;
    let mut programs: Vec<WarpProgram> = Vec::with_capacity(ka.warps.len());
    for (wi, w) in ka.warps.iter().enumerate() {
        let access_at: BTreeMap<usize, usize> = w
            .accesses
            .iter()
            .enumerate()
            .map(|(k, a)| (a.step, k))
            .collect();
        let mut instances: Vec<SegmentInstance> = Vec::new();
        let mut current: Option<usize> = None;
        for (si, st) in w.steps.iter().enumerate() {
            let s = seg_of[st.inst];
            let starts_new = current != Some(s) || segs[s].start == st.inst;
            if starts_new {
                total_instances += 1;
                if total_instances > config.budgets.max_segments {
                    return Err(config_error(format!(
                        "more than {} code-segment executions to schedule (raise max_segments)",
                        config.budgets.max_segments
                    )));
                }
                instances.push(SegmentInstance {
                    segment: s,
                    li: seg_lat[s].0,
                    le: 0,
                    barrier: segs[s].barrier,
                });
                current = Some(s);
            }
            // LE: the longest instruction of the instance; a global access served from a
            // cache level uses that level's latency instead of L_base (§6.5).
            let mut le = inst_lat[st.inst].le_inst;
            if let (Some((_, levels)), Some(&k)) = (&cache, access_at.get(&si)) {
                if let (Some(level), Some(cc)) = (levels.get(&(wi, k)), &config.caches) {
                    let lat = instruction_latency(
                        InstClass::GlobalMemory,
                        t,
                        &estimates,
                        cc.latencies.of(*level),
                    );
                    le = lat.le_inst;
                }
            }
            if let Some(last) = instances.last_mut() {
                last.le = last.le.max(le);
            }
        }
        programs.push(WarpProgram {
            group: w.block_linear,
            instances,
        });
    }

    // Schedule per SM, wave after wave of co-resident blocks.
    let sms = config.sms as u64;
    let mut per_sm = vec![0u64; config.sms as usize];
    let mut gantt: Vec<Option<GanttRow>> = vec![None; ka.warps.len()];
    for sm in 0..sms {
        let sm_blocks: Vec<u64> = (0..blocks).filter(|b| b % sms == sm).collect();
        let mut time = 0u64;
        for (wave, chunk) in sm_blocks.chunks(blocks_per_wave as usize).enumerate() {
            // Warps are listed block by block, `warps_per_block` each (Alg. 1).
            let members: Vec<usize> = chunk
                .iter()
                .flat_map(|&b| b * warps_per_block..(b + 1) * warps_per_block)
                .map(|w| w as usize)
                .filter(|&w| w < ka.warps.len())
                .collect();
            let progs: Vec<WarpProgram> = members.iter().map(|&w| programs[w].clone()).collect();
            let s = schedule(&progs, time)?;
            for (k, &w) in members.iter().enumerate() {
                let tr = &ka.warps[w];
                gantt[w] = Some(GanttRow {
                    block: tr.block_linear,
                    warp: tr.warp,
                    sm: tr.sm,
                    wave: wave as u32,
                    intervals: s.warps[k].intervals.clone(),
                    end: s.warps[k].end,
                });
            }
            time = s.makespan;
        }
        per_sm[sm as usize] = time;
    }
    let gantt: Vec<GanttRow> = gantt.into_iter().flatten().collect();
    let cycles = per_sm.iter().copied().max().unwrap_or(0);

    // The segments table with T per warp.
    let mut rows: Vec<SegmentRow> = segs
        .iter()
        .zip(&seg_lat)
        .map(|(s, &(li, le))| {
            let lat = &inst_lat[s.start..s.end];
            SegmentRow {
                id: s.id,
                opcode: s.opcode.clone(),
                line: s.line,
                start: s.start,
                end: s.end,
                classes: f.instructions[s.start..s.end]
                    .iter()
                    .map(class_of)
                    .collect(),
                li_inst: lat.iter().map(|x| x.li_inst).sum(),
                le_inst: lat.iter().map(|x| x.le_inst).max().unwrap_or(0),
                li,
                le,
                t: Vec::new(),
            }
        })
        .collect();
    for (w, g) in gantt.iter().enumerate() {
        for iv in &g.intervals {
            if let Some(r) = rows.get_mut(iv.segment) {
                match r.t.last_mut() {
                    Some(x) if x.warp == w => x.times.push(iv.start),
                    _ => r.t.push(WarpTimes {
                        warp: w,
                        times: vec![iv.start],
                    }),
                }
            }
        }
    }

    let levels = cache.as_ref().map(|(_, l)| l);
    let mut accesses = Vec::new();
    for (wi, w) in ka.warps.iter().enumerate() {
        for (k, a) in w.accesses.iter().enumerate() {
            accesses.push(AccessEntry {
                block: w.block_linear,
                block_index: w.block,
                warp: w.warp,
                sm: w.sm,
                pc: a.pc,
                line: a.line,
                kind: a.kind,
                segments: a.segments.iter().map(|s| s.address).collect(),
                unknown_transactions: a.unknown_transactions,
                used_bytes: a.segments.iter().map(|s| s.used_bytes).collect(),
                utilization: utilization(&a.segments, config.segment_bytes),
                level: levels.and_then(|l| l.get(&(wi, k)).copied()),
            });
        }
    }
    let traces = ka
        .warps
        .iter()
        .map(|w| TraceSummary {
            block: w.block_linear,
            block_index: w.block,
            warp: w.warp,
            sm: w.sm,
            threads: w.threads,
            basic_blocks: w.basic_blocks.iter().map(|v| v.block).collect(),
            steps: w.steps.iter().map(|s| s.inst).collect(),
            active: w.steps.iter().map(|s| s.mask.count_ones()).collect(),
        })
        .collect();
    let overridden = overrides.n_coal.is_some()
        || overrides.competing_sms.is_some()
        || overrides.active_warps.is_some();
    Ok(RrResult {
        mode: config.mode,
        mode_label: config.mode.label().to_string(),
        grid: launch.grid,
        block: launch.block,
        warps_per_block,
        pc_address: ka.pc_address.clone(),
        accesses,
        coalescing,
        competing_sms: competing,
        estimates: EstimatesUsed {
            values: estimates,
            n_coal_overridden: overrides.n_coal.is_some(),
            competing_sms_overridden: overrides.competing_sms.is_some(),
            active_warps_overridden: overrides.active_warps.is_some(),
        },
        segments: rows,
        caches: cache.and_then(|(r, _)| r),
        wcet: Wcet {
            cycles,
            per_sm,
            safe: config.mode == Mode::Max && !overridden,
            caveat: (resident > 1 && !(ka.assumptions.is_empty() && ka.loop_bounds.is_empty()))
                .then(|| {
                    format!(
                        "unknown data is paid for in the worst case per warp (both sides, \
                         bounded loops, uncoalesced addresses), but {resident} warps share an \
                         SM and strict round robin has scheduling anomalies (a warp that \
                         executes less can make the others wait longer), so the bound is \
                         not guaranteed for every input; it is for one warp per SM"
                    )
                }),
        },
        gantt,
        traces,
        notes,
        assumptions: ka.assumptions,
        loop_bounds: ka.loop_bounds,
    })
}
