//! Soundness harness (issue #7 item 7): random structured SASS kernels and random inputs,
//! simulated, against the bounds of two analyses:
//! (a) warp-level CFG (cfg::build) + IPET (ipet::solve) under unit cost, on one warp with
//!     the `unit-cost` preset: the simulated block sequence is a path of the warp CFG,
//!     observed ≤ bound, and observed = bound for straight-line code;
//! (b) the exact worst-case makespan (makespan::exact) of straight-line L/C kernels with W
//!     warps on the `makespan` preset: observed ≤ exact.
//!
//! The generator follows the spirit of the synthetic benchmark of the PWS paper (§7):
//! nesting depth, the fraction of divergent branches (conditions on `SR_TID.X` or on loaded
//! data, versus conditions on a kernel parameter, uniform over the warp), the fraction of
//! memory instructions, and loops with uniform trip counts (given to IPET as loop bounds).

mod common;
#[path = "../../cfg/tests/common/stack_match.rs"]
mod stack_match;

use common::generated::{cases, generate, ipet_bound, memory, single_warp, verdict, Shape};
use common::kernel;
use proptest::prelude::*;
use sim::{Budget, Launch, Machine, MemoryInit};
use stack_match::stack_matches;

/// The simulated warp's block entries (from the stepper) form a path of the warp-level CFG
/// from its entry to its exit: the simulator takes only transitions the analysis predicts
/// (the control semantics agree with `cfg`'s, Jeanmougin et al. §2).
fn path_in_warp_cfg(src: &str, steps: &[sim::Step]) -> Result<(), String> {
    let k = kernel(src);
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let w = cfg::build(&k, &g, &cfg::Options::default()).map_err(|d| d.to_string())?;
    let leader: std::collections::BTreeMap<usize, usize> =
        g.blocks.iter().map(|b| (b.first, b.id)).collect();
    let mut current: Option<std::collections::BTreeSet<usize>> = None;
    for st in steps {
        let Some(&b) = leader.get(&st.index) else {
            continue;
        };
        // Pending entries: all but the executing (top) one.
        let pending: Vec<(usize, cfg::Tag)> = st.stack[..st.stack.len().saturating_sub(1)]
            .iter()
            .map(|e| (e.pc, e.tag))
            .collect();
        let matching: std::collections::BTreeSet<usize> = w
            .nodes
            .iter()
            .filter(|n| n.block == Some(b) && stack_matches(&n.stack, &pending))
            .map(|n| n.id)
            .collect();
        let next: std::collections::BTreeSet<usize> = match &current {
            None => matching.intersection(&[w.entry].into()).copied().collect(),
            Some(cur) => w
                .edges
                .iter()
                .filter(|e| cur.contains(&e.from) && matching.contains(&e.to))
                .map(|e| e.to)
                .collect(),
        };
        if next.is_empty() {
            return Err(format!(
                "step at index {} (block {b}, pending {pending:?}) is not reachable in the warp CFG",
                st.index
            ));
        }
        current = Some(next);
    }
    let last = current.unwrap_or_default();
    if !w
        .edges
        .iter()
        .any(|e| last.contains(&e.from) && e.to == w.exit)
    {
        return Err("the last block has no exit edge in the warp CFG".into());
    }
    Ok(())
}

fn check_unit_cost(shape: &Shape, threads: u32, uniform: u32) -> Result<(u64, u64, u32), String> {
    let (src, loops, branches) = generate(shape);
    let k = kernel(&src);
    let s = sim::run(
        &k,
        &single_warp(threads, uniform),
        &common::preset("unit-cost"),
        &memory(shape.seed ^ 0x5eed),
        &Budget::default(),
    )
    .map_err(|e| format!("{e}\n{src}"))?;
    // Unit cost, one warp: cycles = issued warp-instructions.
    if s.cycles != s.issued || s.cycles != s.warps[0].issues.len() as u64 {
        return Err(format!("cycles {} but issued {}", s.cycles, s.issued));
    }
    path_in_warp_cfg(&src, &s.stepper.steps).map_err(|e| format!("{e}\n{src}"))?;
    let bound = ipet_bound(&src, &loops).map_err(|e| format!("{e}\n{src}"))?;
    if s.cycles > bound {
        return Err(format!("observed {} > bound {bound}\n{src}", s.cycles));
    }
    Ok((s.cycles, bound, branches + loops.len() as u32))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// (a) observed ≤ warp-CFG + IPET bound under unit cost, and equal for straight-line
    /// kernels (no branch, no loop: the only path is the one executed).
    #[test]
    fn unit_cost_never_exceeds_the_warp_cfg_bound((shape, threads, uniform) in cases()) {
        verdict(check_unit_cost(&shape, threads, uniform))?;
    }
}

/// Straight-line L/C kernel as SASS: `L` is a shared-memory load (load/store units), `C`
/// an integer add (CUDA cores); the final EXIT counts as a `C` (the makespan preset puts
/// control on the cores).
fn lc_kernel(units: &[makespan::Unit]) -> String {
    let mut s = String::new();
    for u in units {
        s.push_str(match u {
            makespan::Unit::L => "LDS R3, [RZ];\n",
            makespan::Unit::C => "IADD32I R4, R4, 0x1;\n",
        });
    }
    s.push_str("EXIT;\n");
    s
}

fn makespan_case(
    units: &[makespan::Unit],
    warps: u32,
    ls_units: u32,
    cores: u32,
) -> Result<(u64, u64), String> {
    let src = lc_kernel(units);
    let mut with_exit = units.to_vec();
    with_exit.push(makespan::Unit::C);
    let mm = makespan::Machine {
        ls_units,
        cores,
        warp_size: 32,
    };
    let t = makespan::transform(&with_exit, &mm).map_err(|e| e.to_string())?;
    let exact = makespan::exact(&t, warps, &makespan::Budget::default())
        .map_err(|e| e.to_string())?
        .makespan;
    let m = Machine {
        ls_units,
        cores,
        ..common::preset("makespan")
    };
    let launch = Launch {
        block: [32 * warps, 1, 1],
        shared_bytes: 4,
        ..Launch::default()
    };
    let s = sim::run(
        &kernel(&src),
        &launch,
        &m,
        &MemoryInit::default(),
        &Budget::default(),
    )
    .map_err(|e| e.to_string())?;
    Ok((s.cycles, exact))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// (b) observed ≤ exact worst-case makespan (Berezovskyi et al.) for W warps.
    #[test]
    fn makespan_preset_never_exceeds_the_exact_makespan(
        letters in prop::collection::vec(prop::bool::ANY, 1..6),
        warps in 1u32..=4,
        ls in prop::sample::select(vec![8u32, 16, 32]),
        cores in prop::sample::select(vec![16u32, 32, 48, 64]),
    ) {
        let units: Vec<makespan::Unit> = letters
            .iter()
            .map(|&l| if l { makespan::Unit::L } else { makespan::Unit::C })
            .collect();
        let (observed, exact) = makespan_case(&units, warps, ls, cores).map_err(TestCaseError::fail)?;
        prop_assert!(observed <= exact, "observed {} > exact {}", observed, exact);
        if warps == 1 {
            // One warp: no contention, the makespan is the transformed length, and so is
            // the observed time (every sub-warp instruction one cycle, back to back).
            prop_assert_eq!(observed, exact);
        }
    }
}

#[test]
fn fig2_setting_llcll_on_fermi() {
    // "LLCLL" on cc 2.0 (σ_L = 1 with 2 cycles per L, σ_C = 1), plus EXIT as C. One warp:
    // 4 L × 2 + 2 C = 10 cycles. Several warps: never above the exact worst case.
    let units = isa::lc::parse_kernel("LLCLL").unwrap_or_default();
    assert_eq!(makespan_case(&units, 1, 16, 32), Ok((10, 10)));
    for w in 2..=4 {
        let (observed, exact) = makespan_case(&units, w, 16, 32).unwrap_or((u64::MAX, 0));
        assert!(observed <= exact, "W = {w}: {observed} > {exact}");
        // The LSUs are the bottleneck: W warps need 8·W L-cycles at least.
        assert!(observed >= 8 * u64::from(w), "W = {w}: {observed}");
    }
}
