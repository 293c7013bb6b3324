//! The WCET of a GPU thread block: W warps of one kernel, each on its own path through the
//! warp-level CFG, sharing one streaming multiprocessor.
//!
//! **Whose idea.** Jeanmougin, Carle and Rochange ("Bounding the WCET of a GPU Thread Block
//! with a Multi-Phase Representation of Warps Execution", ECRTS 2025) bound a block as the
//! worst-case *response time* of its warps: a warp's execution time in isolation plus an
//! interference term for the cycles other warps take from it, safe under the greedy
//! schedulers GTO and LRR. Only the paper's abstract was available to us, so the argument
//! below is our own, in that shape, and proved here for the two machines this crate models.
//! What this crate is not: a per-phase analysis (the paper separates execution phases from
//! latency phases inside a warp; here the whole path is one phase), and it does no IPET: the
//! per-warp numbers come from the warp-CFG analysis of the caller (crate `cfg` + `ipet`).
//! The one thing it reads from a listing is whether the barrier rule applies
//! ([`barrier_phases()`]: the thread-level block graph of `isa::blocks`, the block-uniform
//! branches of `loopbound`), so that the mode that uses the rule only translates.
//!
//! # The single-issue machine ([`response_time`])
//! One warp-instruction issues per cycle, warps issue in order, an instruction waits until
//! the registers it reads or writes are written back (per-class latencies) and for its
//! class's per-warp initiation interval — the `latency` cost model of the warp-CFG analysis
//! (`cfg::latency`), `unit` being all latencies 1. The scheduler is work-conserving: a cycle
//! in which some warp could issue is never left empty (GPGPU-Sim's `lrr` and `gto` are).
//!
//! **Theorem** (no barriers). Let `I_w` bound the warp-instructions warp `w` issues and
//! `C_w` its time in isolation. Every warp `c` finishes by `R_c = C_c + Σ_{w≠c} I_w`, and
//! the block by `max_c R_c`.
//!
//! *Proof.* Split the cycles until `c` finishes into those where `c` issues, those where it
//! is *blocked* (its next instruction waits for a latency or an interval of its own), and
//! those where it is *interfered* (its next instruction could issue, but the slot went to
//! another warp — with one slot and a work-conserving scheduler some other warp issued).
//! Interfered cycles number at most `Σ_{w≠c} I_w`. Now remove the interfered cycles: the
//! *virtual* time `v(t)` counts only issue and blocked cycles before `t`. Instruction `j`
//! of `c` issues at `a_j`; it is ready at `r_j = max(a_{j-1} + 1, a_p + lat_p, a_q + ii_q)`
//! over its producers `p` and its class's previous instruction `q`, and after `r_j` the warp
//! only waits for the slot (interfered), so `v(a_j) = max(v(a_{j-1}) + 1, v(r_j))` and, the
//! virtual clock never running faster than the real one, `v(a_p + lat_p) ≤ v(a_p) + lat_p`.
//! So `v(a_j) ≤ max(v(a_{j-1}) + 1, v(a_p) + lat_p, v(a_q) + ii_q)`, the recurrence of the
//! isolated schedule `a*_j`, and by induction `v(a_j) ≤ a*_j`: in virtual time the warp is
//! never later than alone. Its completion is then at most `C_c` in virtual time, and the
//! real time adds the interfered cycles: `R_c`. ∎
//!
//! With identical bounds for every warp (one kernel, the same analysis) the block bound is
//! `C + (W − 1)·I`: under cost `unit` (`C = I`) that is `W·I`, met exactly when every warp
//! takes the worst path, and under `latency` it is at most `W·C` (`I ≤ C`), the serialised
//! bound — the latencies of different warps overlap, only the issue slots add up.
//!
//! **Barriers.** A warp waiting at a barrier is neither blocked by its own latencies nor
//! interfered, so the theorem does not cover those cycles. The bound then falls back to the
//! serialised `Σ_w C_w`, safe by a separate argument: a cycle where nobody issues has some
//! unfinished warp blocked on a latency of its own (were all waiting at the barrier, the last
//! arrival would have released it), so the cycles are at most the issue cycles plus the
//! union of the warps' blocked cycles, `≤ Σ_w (I_w + blocked_w) ≤ Σ_w C_w` by the virtual-time
//! argument per warp.
//!
//! **Barriers every warp passes in the same order** ([`phased_response_time`]). Suppose
//! every warp of the block passes the same sequence of barrier *instances* `1 … P` — the
//! same barrier instructions in the same order, an instruction inside a loop once per
//! iteration —, each with all its threads (a warp arriving in parts would issue one
//! instance twice), and that every loop whose body holds a barrier runs the same iterations
//! in every warp. [`barrier_phases()`] checks a sufficient condition on the listing and
//! bounds `P` (its module doc lists the premises): barriers outside every branch and loop
//! (`__syncthreads()` at the top level: `P` barriers, once each), and, since issue #38,
//! barriers inside loops and branches whose conditions are *block-uniform* — the same in
//! every thread of the block: parameters, block ids, launch dimensions, never `tid`, loaded
//! data, votes or shuffles (`loopbound::uniform`) — such as a tiled multiply's loop over
//! tiles or a reduction tree's `s >>= 1`, while every branch that may split a warp closes
//! before the next barrier. Block-uniform, not warp-uniform: warps that run a barrier loop
//! different numbers of times (`tid / 32`, a vote) pass different sequences, and
//! `block_soundness`'s `VOTE.ALL` kernel (two paths with a barrier each in different places)
//! runs above the formula.
//!
//! The run then splits into *phases*: phase `p ≤ P` ends at `ρ_p`, the cycle the last warp
//! issues barrier instance `p` (the release; the waiting warps resume at `ρ_p + 1`), phase
//! `P + 1` when the last warp ends. Inside a phase no warp waits at a barrier before its own
//! arrival, so the theorem's decomposition holds there: for the warp `c` arriving last,
//! `ρ_p − ρ_{p−1} ≤ 1 + V_{c,p} + Σ_{w≠c} I_{w,p}`, where `V_{c,p}` is its virtual time in
//! the phase up to its issue of the barrier, `I_{w,p}` what the others issue in it (all of
//! which is phase `p` work), and the 1 the release cycle `ρ_{p−1} + 1` of the phase before
//! (none for the first phase).
//!
//! *What is left in flight.* At resumption warp `c` may still wait for its own work from
//! before barrier `p − 1`: a register not yet written back, or a unit inside its initiation
//! interval. On the issue model of `cfg::latency` an instruction issues only when the
//! registers it reads or writes are written back, so only results no later instruction
//! before the barrier waited for can be in flight; [`carry`] bounds their latencies and the
//! intervals by `λ_b` for the barrier `b` of that instance (at most the largest latency or
//! interval of the cost model, and mostly an ALU latency: a shared-memory store's value
//! has been waited for). They issued at least one cycle before the barrier, so they are
//! done `λ_b − 1` cycles after the resumption at the latest, and delaying the warp's
//! empty-pipeline schedule by that much covers them (issue times are monotone in the
//! readiness of registers and units): `V_{c,p} ≤ (λ_b − 1) + S_{c,p}`, `S_{c,p}` the
//! isolated time of its segment — its path from instance `p − 1` to the issue of instance
//! `p` — from an empty pipeline.
//!
//! *Summing over the phases.* A `BAR` ends its block in the thread CFG and the warp CFG
//! (`isa::ControlKind::Barrier` ends a block), so a segment is a sequence of whole blocks,
//! and its empty-pipeline time is at most the sum of their drained costs (`cfg::latency`:
//! each block's drained cost covers its real time from any start, the barrier's issue
//! before its block drains): no block is cut. The worst segment of each phase concatenated,
//! `Π`, is a path of the CFG (consecutive segments meet at the same barrier instruction,
//! entered with the same stack: the warps are whole there and have taken the same uniform
//! branches), and it respects every loop bound the warp bound `C` assumes — a loop without a
//! barrier is entered and left within one segment, so each of its runs in `Π` is a run of
//! some warp's path; a loop with a barrier runs the same iterations in every warp (its
//! header and the branches leaving it lie on the warps' common path), so `Π` runs it as
//! every warp does. So `Σ_p max_c S_{c,p} ≤ C`, and likewise `Σ_p max_w I_{w,p} ≤ I`.
//! Hence, with one release cycle and one carry-over per instance,
//! `max_c R_c ≤ C + (W − 1)·I + Σ_b P_b·λ_b` (`P_b` the instances of barrier `b`, `Σ_b P_b =
//! P`), still capped by the serialised bound. Any `P_b` at least the instances a warp
//! passes will do (the bound grows with it): the product of the bounds of the loops around
//! `b` — per entry, the bounds `C` itself rests on, so a run beyond them breaks `C` too;
//! the warps all run the same count, at most that. Under cost `unit` (`λ_b = 1`) it is
//! `C + (W − 1)·I + P`, never below the serialised `W·C` there.
//!
//! Before issue #38 the term was `P·(2λ − 1)` with `λ` the cost model's largest latency:
//! `λ − 1` for the carry-over without [`carry`], and `λ − 1` for cutting a block at the
//! barrier, which the block structure above makes unnecessary. The tests of
//! `block_soundness` check the bound against runs of generated kernels with barriers at
//! the top level and in loops counted by `blockDim.x / 32`, and of hand-written ones with
//! barriers in loops counted by a parameter or `blockDim` (the proptest,
//! `top_level_barriers_are_bounded_per_phase`,
//! `barriers_in_generated_uniform_loops_are_bounded_per_phase`,
//! `barriers_in_parameter_loops_are_bounded_per_phase`), and `block_corpus` against the
//! runs of every corpus kernel the simulator runs as a block (no run has needed the term so
//! far: all stayed within `C + (W − 1)·I`); the barrier forms and shapes
//! [`barrier_phases()`] does not accept keep the serialised bound, with the reason
//! ([`Serialised`]).
//!
//! # The unit machine of the makespan model ([`units_response_time`])
//! Berezovskyi, Bletsas and Andersson (ECRTS 2012, §2–3): memory instructions run on the
//! load/store units (`L`), the others on the CUDA cores (`C`); a warp-instruction occupies
//! one of the `σ_u` lanes of its unit for `k_u` cycles; any number of warps issue in a cycle
//! as long as lanes are free; latencies are one cycle. The same decomposition holds with
//! "interfered" meaning: the warp's next instruction is ready but every lane of its unit is
//! taken. At most `k_u − 1` of those lanes hold instructions of the warp itself (one issue
//! per cycle, each holding a lane `k_u` cycles), so such a cycle consumes at least
//! `d_u = max(1, σ_u − k_u + 1)` lane-cycles of other warps' work on `u`, and
//! `R_c = C_c + Σ_u ⌊Σ_{w≠c} work_w(u) / d_u⌋`, where `work_w(u)` is `k_u` times the
//! warp's instructions on `u`. On straight-line code the caller can do better and take the
//! exact worst-case makespan of the paper's search (crate `makespan`); this bound is then
//! its safe, closed-form companion (`tests` check it against the exact values).

mod barrier_phases;
pub mod carry;

pub use barrier_phases::{barrier_phases, BarrierPhases, PhaseBarrier, Serialised};
pub use carry::Timing;

/// What is known of one warp: bounds from its own analysis, in cycles of the cost model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpProfile {
    /// Time in isolation (the warp-CFG WCET bound under the cost model).
    pub isolated: u64,
    /// Warp-instructions issued (the warp-CFG bound under cost `unit`): the issue slots the
    /// warp can take from the others.
    pub issues: u64,
}

/// Which argument the block bound comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Isolated time of the critical warp plus the issue slots of the others (the theorem).
    ResponseTime,
    /// The kernel synchronises at barriers: the serialised bound `Σ_w C_w` (module doc).
    Serialised,
    /// Barriers every warp passes the same number of times, in the same order: the theorem
    /// per barrier phase, `C + (W − 1)·I + Σ_b P_b·λ_b` (module doc).
    BarrierPhases,
    /// Unit machine: isolated time plus the others' work on each unit over its lanes.
    UnitResponseTime,
    /// Straight-line code on the unit machine: the exact worst-case makespan of the paper's
    /// search (crate `makespan`), at most the closed form.
    ExactMakespan,
}

/// One warp's share of the block bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpBound {
    /// Warp index in the block (dispatch order: 0 is the oldest).
    pub warp: usize,
    pub isolated: u64,
    /// Cycles other warps can take from it.
    pub interference: u64,
    /// `isolated + interference`: when it has finished at the latest.
    pub response: u64,
}

impl WarpBound {
    /// Warp `warp`, `isolated` cycles alone, finished by `response` at the latest: the
    /// interference is the difference (both bounds, [`response_time`] and
    /// [`units_response_time`], cap the response and read it back this way).
    fn new(warp: usize, isolated: u64, response: u64) -> Self {
        WarpBound {
            warp,
            isolated,
            interference: response.saturating_sub(isolated),
            response,
        }
    }
}

/// The block's bound and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockBound {
    /// Cycles until the last warp finishes, at most.
    pub cycles: u64,
    pub rule: Rule,
    pub warps: Vec<WarpBound>,
    /// The warp whose response time is the bound (ties: the youngest, which GTO serves
    /// last).
    pub critical: usize,
    /// `cycles` minus the critical warp's isolated time: what sharing the SM costs.
    pub contention: u64,
    /// `Σ_w C_w`: running the warps one after the other, always an upper bound.
    pub serialised: u64,
}

impl BlockBound {
    fn from_warps(warps: Vec<WarpBound>, rule: Rule, serialised: u64) -> Self {
        let critical = warps
            .iter()
            .enumerate()
            .max_by_key(|&(i, w)| (w.response, i))
            .map_or(0, |(i, _)| i);
        let (cycles, isolated) = warps
            .get(critical)
            .map_or((0, 0), |w| (w.response, w.isolated));
        BlockBound {
            cycles,
            rule,
            critical,
            contention: cycles.saturating_sub(isolated),
            serialised,
            warps,
        }
    }
}

impl BlockBound {
    /// This bound with `exact`, the exact worst-case makespan of the same warps (straight-line
    /// code on the unit machine), when it is lower: the bound of every warp becomes it.
    pub fn capped_by_exact(mut self, exact: u64) -> Self {
        if exact < self.cycles {
            self.cycles = exact;
            self.rule = Rule::ExactMakespan;
            for w in &mut self.warps {
                w.response = w.response.min(exact);
                w.interference = w.response.saturating_sub(w.isolated);
            }
            let isolated = self.warps.get(self.critical).map_or(0, |w| w.isolated);
            self.contention = exact.saturating_sub(isolated);
        }
        self
    }
}

fn serialised(isolated: impl Iterator<Item = u64>) -> u64 {
    isolated.fold(0u64, u64::saturating_add)
}

/// The block bound on the single-issue machine (module doc, theorem); with `barriers` the
/// serialised bound. Every warp's response time is also capped by the serialised bound,
/// which holds for any work-conserving schedule.
pub fn response_time(profiles: &[WarpProfile], barriers: bool) -> BlockBound {
    if barriers {
        let all = serialised(profiles.iter().map(|p| p.isolated));
        return theorem(profiles, all, Rule::Serialised);
    }
    theorem(profiles, 0, Rule::ResponseTime)
}

/// The block bound on the single-issue machine when every warp passes the same sequence of
/// barrier instances, in the same order, whole (module doc; [`barrier_phases()`] checks it),
/// `carry` = `Σ_b P_b·λ_b` ([`BarrierPhases::carry`]): each warp's response time is the
/// theorem's plus `carry`, capped by the serialised bound.
pub fn phased_response_time(profiles: &[WarpProfile], carry: u64) -> BlockBound {
    let mut b = theorem(profiles, carry, Rule::BarrierPhases);
    if b.cycles >= b.serialised {
        b.rule = Rule::Serialised;
    }
    b
}

/// Every warp's response time `C_c + Σ_{w≠c} I_w + extra`, capped by the serialised bound.
fn theorem(profiles: &[WarpProfile], extra: u64, rule: Rule) -> BlockBound {
    let total_issues = serialised(profiles.iter().map(|p| p.issues));
    let all = serialised(profiles.iter().map(|p| p.isolated));
    let warps = profiles
        .iter()
        .enumerate()
        .map(|(warp, p)| {
            let others = total_issues.saturating_sub(p.issues);
            let response = p
                .isolated
                .saturating_add(others)
                .saturating_add(extra)
                .min(all);
            WarpBound::new(warp, p.isolated, response)
        })
        .collect();
    BlockBound::from_warps(warps, rule, all)
}

/// One unit kind of the makespan machine: `lanes` (σ) lanes, each warp-instruction holding
/// one for `cycles` (k) cycles (Berezovskyi et al. §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitKind {
    pub lanes: u32,
    pub cycles: u32,
}

impl UnitKind {
    /// Lane-cycles of other warps one interfered cycle consumes at least (module doc).
    pub fn divisor(self) -> u64 {
        u64::from(
            self.lanes
                .saturating_sub(self.cycles.saturating_sub(1))
                .max(1),
        )
    }
}

/// A warp on the unit machine: its isolated time and its work (lane-cycles) per unit kind,
/// in the order of the `units` slice given to [`units_response_time`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitProfile {
    pub isolated: u64,
    pub work: Vec<u64>,
}

/// The block bound on the unit machine of the makespan model (module doc).
pub fn units_response_time(profiles: &[UnitProfile], units: &[UnitKind]) -> BlockBound {
    let all = serialised(profiles.iter().map(|p| p.isolated));
    let totals: Vec<u64> = (0..units.len())
        .map(|u| serialised(profiles.iter().map(|p| p.work.get(u).copied().unwrap_or(0))))
        .collect();
    let warps = profiles
        .iter()
        .enumerate()
        .map(|(warp, p)| {
            let interference = units
                .iter()
                .zip(&totals)
                .enumerate()
                .map(|(u, (kind, &total))| {
                    let own = p.work.get(u).copied().unwrap_or(0);
                    total.saturating_sub(own) / kind.divisor()
                })
                .fold(0u64, u64::saturating_add);
            let response = p.isolated.saturating_add(interference).min(all);
            WarpBound::new(warp, p.isolated, response)
        })
        .collect();
    BlockBound::from_warps(warps, Rule::UnitResponseTime, all)
}

/// The bound for `1..=max_warps` identical warps of `profile` (the page's plot of how the
/// bound grows with the block): `(warps, bound, serialised)`.
pub fn growth(profile: WarpProfile, barriers: bool, max_warps: usize) -> Vec<(usize, u64, u64)> {
    (1..=max_warps)
        .map(|w| {
            let b = response_time(&vec![profile; w], barriers);
            (w, b.cycles, b.serialised)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(isolated: u64, issues: u64) -> WarpProfile {
        WarpProfile { isolated, issues }
    }

    fn same(w: usize, isolated: u64, issues: u64) -> Vec<WarpProfile> {
        vec![warp(isolated, issues); w]
    }

    fn unit(lanes: u32, cycles: u32) -> UnitKind {
        UnitKind { lanes, cycles }
    }

    #[test]
    fn unit_cost_warps_add_up_exactly() {
        // Cost unit: C = I = 10, four warps: 10 + 3·10 = 40 = the serialised bound.
        let b = response_time(&same(4, 10, 10), false);
        assert_eq!(b.cycles, 40);
        assert_eq!(b.serialised, 40);
        assert_eq!(b.contention, 30);
        assert_eq!(b.rule, Rule::ResponseTime);
    }

    #[test]
    fn latencies_of_different_warps_overlap() {
        // A warp of 6 instructions that takes 300 cycles alone (a global load's latency):
        // four of them take at most 300 + 3·6 = 318, not 1200.
        let b = response_time(&same(4, 300, 6), false);
        assert_eq!(b.cycles, 318);
        assert_eq!(b.serialised, 1200);
        assert_eq!(b.contention, 18);
        // Ties go to the youngest warp.
        assert_eq!(b.critical, 3);
    }

    #[test]
    fn barriers_fall_back_to_serialising() {
        let b = response_time(&same(4, 300, 6), true);
        assert_eq!(b.cycles, 1200);
        assert_eq!(b.rule, Rule::Serialised);
    }

    #[test]
    fn the_critical_warp_is_the_one_with_the_latest_response() {
        // Warp 1 is long alone (100) but issues little; warp 0 issues much (50 of 60).
        let b = response_time(&[warp(60, 50), warp(100, 5)], false);
        // R0 = 60 + 5 = 65; R1 = 100 + 50 = 150.
        assert_eq!(b.critical, 1);
        assert_eq!(b.cycles, 150);
        assert_eq!(b.warps[0].response, 65);
    }

    #[test]
    fn never_above_the_serialised_bound() {
        // Issues above the isolated time cannot happen for a real warp, but the cap keeps
        // the bound at Σ C even then.
        let b = response_time(&same(3, 5, 9), false);
        assert_eq!(b.cycles, 15);
    }

    #[test]
    fn unit_divisors() {
        // Fermi cc 2.0: L σ=1 k=2 → 1; C σ=1 k=1 → 1. cc 2.1: C σ=3 k=2 → 2.
        assert_eq!(unit(1, 2).divisor(), 1);
        assert_eq!(unit(1, 1).divisor(), 1);
        assert_eq!(unit(3, 2).divisor(), 2);
    }

    #[test]
    fn unit_machine_adds_the_others_work_per_unit() {
        // Two warps of "LC" on Fermi cc 2.0: each takes 2 (L) + 1 (C) = 3 alone; the other
        // warp's work is 2 on L and 1 on C: R = 3 + 2 + 1 = 6.
        let units = [unit(1, 2), unit(1, 1)];
        let p = UnitProfile {
            isolated: 3,
            work: vec![2, 1],
        };
        let b = units_response_time(&[p.clone(), p], &units);
        assert_eq!(b.cycles, 6);
        assert_eq!(b.rule, Rule::UnitResponseTime);
    }

    #[test]
    fn growth_is_linear_in_the_issues() {
        let g = growth(warp(300, 6), false, 3);
        assert_eq!(g, vec![(1, 300, 300), (2, 306, 600), (3, 312, 900)]);
    }
}
