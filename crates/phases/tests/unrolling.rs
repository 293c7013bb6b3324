//! DAG unrolling (§5.4), critical path (§5.5) and phase lists (§5.6) on small programs whose
//! expected shape is derived by hand from the annotations.

use isa::Limits;
use phases::{analyze_text, Config, EdgeKind, ErrorKind, Launch, Resource, SimdResult};

fn run(text: &str) -> Result<SimdResult, phases::Error> {
    analyze_text(
        text,
        &Limits::default(),
        &Launch::new(1024, 4, 32),
        &Config::default(),
    )
}

fn blocks_on_path(r: &SimdResult) -> Vec<usize> {
    r.sp_as_access
        .critical_path
        .iter()
        .map(|s| s.block)
        .collect()
}

/// Weight of the CFG edge `from → to` of kind `kind`, plus the cold cost of `from`: what a
/// DAG edge for it must weigh (§5.4).
fn dag_edge(r: &SimdResult, from: usize, to: usize, kind: EdgeKind) -> u64 {
    let e = r
        .edges
        .iter()
        .find(|e| e.from == from && e.to == to && e.kind == kind);
    r.blocks[from].cold_cycles + e.map_or(u64::MAX / 4, |e| e.cycles)
}

const DATA: &str = ".data\n 0 0x0 1024 4\n";

/// `#bound branchcycle 2 1 0` on a one-block loop's back branch: taken at positions 0 and 1,
/// not at 2, so the body runs 3 times. DAG: B0, 3×B1, B2, B3 = 6 nodes; critical path
/// 0,1,1,1,2,3. Phases: compute(depth + B0→B1), DRAM, compute(2·(B1→B1 jump) + B1→B2 +
/// B2→B3), DRAM — a request's own block (its out-edge) is compute before the request. The
/// compute phases are recomputed here from the CFG edge weights and block costs.
#[test]
fn one_block_loop_runs_as_annotated() {
    let text = format!("{DATA}.text\n ldglin v0, 0, 0, 0\nloop:\n add v0, v0, v0\n #bound branchcycle 2 1 0\n sicj.l loop, s0\n siadd s1, s1, 1\n stglin v0, 0, 0, 0\n exit\n");
    let r = run(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.dag.nodes, 6);
    assert_eq!(blocks_on_path(&r), vec![0, 1, 1, 1, 2, 3]);
    let p = &r.sp_as_access.phases;
    let res: Vec<Resource> = p.iter().map(|x| x.resource).collect();
    assert_eq!(
        res,
        vec![
            Resource::Compute,
            Resource::Dram,
            Resource::Compute,
            Resource::Dram
        ]
    );
    let depth = r.config.pipeline.depth();
    assert_eq!(
        p[0].cycles,
        depth + dag_edge(&r, 0, 1, EdgeKind::Fallthrough)
    );
    let body = 2 * dag_edge(&r, 1, 1, EdgeKind::Jump)
        + dag_edge(&r, 1, 2, EdgeKind::Fallthrough)
        + dag_edge(&r, 2, 3, EdgeKind::Fallthrough);
    assert_eq!(p[2].cycles, body);
    // A taken branch costs a pipeline flush: 1 decode + 3 execute stages.
    assert_eq!(
        r.edges
            .iter()
            .find(|e| e.kind == EdgeKind::Jump)
            .map(|e| e.cycles),
        Some(4)
    );
}

/// Nested loops: inner one-block loop (branchcycle 3 1 → 4 iterations) inside an outer loop
/// (branchcycle 1 1 → 2 iterations). Outer iteration = B1, 4×B2, B3 → 6 nodes, twice;
/// plus B0, B4, B5: 15 nodes; path 0,(1,2,2,2,2,3)×2,4,5.
#[test]
fn nested_loops_unroll_by_annotation() {
    let text = format!("{DATA}.text\n ldglin v0, 0, 0, 0\nouter:\n smov s1, 0\ninner:\n add v0, v0, v0\n #bound branchcycle 3 1 0\n sicj.l inner, s1\n #bound branchcycle 1 1 0\n sicj.l outer, s0\n stglin v0, 0, 0, 0\n exit\n");
    let r = run(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.loops.len(), 2);
    assert_eq!(r.dag.nodes, 15);
    assert_eq!(
        blocks_on_path(&r),
        vec![0, 1, 2, 2, 2, 2, 3, 1, 2, 2, 2, 2, 3, 4, 5]
    );
}

/// Early exit (§5.4): the loop B1..B2 is repeated by `j loop` and left by an annotated
/// `sicj` in B1 to the block after the loop. branchcycle 1 3 3 starts at position 3 (not
/// taken), then position 0 (taken): B1, B2, B1 and out. Path 0,1,2,1,3,4; from the early-exit
/// block only its jump is followed.
#[test]
fn early_exit_leaves_after_the_annotated_iteration() {
    let text = format!("{DATA}.text\n ldglin v0, 0, 0, 0\nloop:\n add v0, v0, v0\n #bound branchcycle 1 3 3\n sicj.ez done, s0\n add v1, v1, v1\n j loop\ndone:\n stglin v0, 0, 0, 0\n exit\n");
    let r = run(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(blocks_on_path(&r), vec![0, 1, 2, 1, 3, 4]);
    assert_eq!(r.dag.nodes, 6);
}

/// An unannotated conditional branch may go either way: the critical path takes the longer
/// arm (the one with the vector `rcp`, 32 issue slots, over a scalar add).
#[test]
fn unannotated_branch_takes_the_longer_arm() {
    let text = format!("{DATA}.text\n ldglin v0, 0, 0, 0\n sicj.ez short, s0\n rcp v1, v0\n rcp v2, v0\n j join\nshort:\n siadd s1, s1, 1\njoin:\n stglin v0, 0, 0, 0\n exit\n");
    let r = run(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(blocks_on_path(&r), vec![0, 1, 2, 4, 5]);
}

/// A loop that never exits (unconditional back jump, no exit branch) unrolls until the
/// `max_dag_nodes` budget stops it, with an error naming the budget.
#[test]
fn endless_loop_hits_the_dag_budget() {
    let text = format!("{DATA}.text\n ldglin v0, 0, 0, 0\nloop:\n add v0, v0, v0\n j loop\n stglin v0, 0, 0, 0\n exit\n");
    let mut config = Config::default();
    config.budget.max_dag_nodes = 1000;
    let e = analyze_text(
        &text,
        &Limits::default(),
        &Launch::new(1024, 4, 32),
        &config,
    )
    .err();
    let e = e.unwrap_or_else(|| panic!("expected a budget error"));
    assert_eq!(e.kind, ErrorKind::Budget);
    assert!(e.to_string().contains("max_dag_nodes"), "{e}");
}

/// Scratchpad as compute (§5.6): the scratchpad request's cost joins the compute phase
/// around it, so that list has two phases fewer and the same total.
#[test]
fn scratchpad_policies_differ_only_in_phase_boundaries() {
    let text = ".data\n 0 0x0 1024 4\n.sp_data\n 0 0x0 32 32\n.text\n ldglin v0, 0, 0, 0\n stsplin v0, 0\n ldsplin v1, 0\n add v0, v0, v1\n stglin v0, 0, 0, 0\n exit\n";
    let r = run(text).unwrap_or_else(|e| panic!("{e}"));
    let a = &r.sp_as_access;
    let c = &r.sp_as_compute;
    assert_eq!((a.phase_count, c.phase_count), (8, 4));
    assert_eq!(a.pair.c_1wg, c.pair.c_1wg);
    let sp: u64 = a
        .phases
        .iter()
        .filter(|p| p.resource == Resource::Scratchpad)
        .map(|p| p.cycles)
        .sum();
    let comp_a: u64 = a
        .phases
        .iter()
        .filter(|p| p.resource == Resource::Compute)
        .map(|p| p.cycles)
        .sum();
    let comp_c: u64 = c
        .phases
        .iter()
        .filter(|p| p.resource == Resource::Compute)
        .map(|p| p.cycles)
        .sum();
    assert_eq!(comp_c, comp_a + sp);
    // 32×32 scratchpad tile, work-group 32 wide: 1024 words on a 4-word bus = 256 lines + 1
    // front-end cycle = 257 DRAM cycles = ⌈257·1000/1600⌉ = 161 compute cycles.
    assert!(a
        .phases
        .iter()
        .filter(|p| p.resource == Resource::Scratchpad)
        .all(|p| p.cycles == 161));
}
