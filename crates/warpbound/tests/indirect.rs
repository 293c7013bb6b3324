//! Indirect calls and branches in the `warp-cfg` mode (`indirect_targets`): bounds derived by
//! hand in the comments, on a corpus listing and on hand-written ones.

#[path = "../../isa/tests/corpus_walk/mod.rs"]
mod corpus_walk;

use isa::Dialect;
use std::collections::BTreeSet;
use warpbound::{analyze, Report, Request};

fn run(src: &str, targets: &str) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.params
        .insert("indirect_targets".into(), serde_json::json!(targets));
    analyze(&req)
}

fn wcet(r: &Report) -> u64 {
    assert!(!r.has_errors(), "{:?}", r.diagnostics);
    r.wcet.as_ref().expect("a WCET").cycles
}

/// Edges as (from block address, to block address, kind), exit edges excluded.
fn edges(r: &Report) -> BTreeSet<(u64, u64, String)> {
    let cfg = r.cfg.as_ref().expect("cfg");
    cfg.edges
        .iter()
        .filter(|e| cfg.nodes[e.to].kind == "block")
        .map(|e| {
            (
                cfg.nodes[e.from].start,
                cfg.nodes[e.to].start,
                e.kind.clone(),
            )
        })
        .collect()
}

const SOBEL_SM86: &str = "sass-modern/sm_86/FunctionPointers__SobelTex.sass";

/// The three `CALL.REL.NOINC` of FunctionPointers__SobelTex (sm_86), each with two opaque
/// candidates `cost:N|cost:N+1`, so a call costs `2N + 1` beyond its own instruction.
fn sobel_with_costs(n: u64) -> Report {
    let c = format!("cost:{n}|cost:{}", n + 1);
    run(
        &corpus_walk::read(SOBEL_SM86),
        &format!("0x03b0={c};0x0420={c};0x0760={c}"),
    )
}

/// How the bound grows with N. The kernel branches uniformly at 0x00f0 (on a kernel
/// parameter) into one of two grid-stride loops: the loop at 0x0120 holds the calls at 0x03b0
/// (ending block 0x0120–0x03b0) and 0x0420 (block 0x03c0–0x0420), the loop at 0x04d0 only the
/// call at 0x0760. Each loop exits on `tid + k·blockDim < n`, which threads may disagree on,
/// and the kernel has no convergence barrier, so (Fermi–Pascal stack order) the warp-level CFG
/// has three copies of each loop: nothing pending, the exited threads pending at the `EXIT`
/// (`NIL@0x04a0`), and that entry made cyclic (`NIL@0x04a0+`). The copies share the loop's
/// bound (default 10): one start, the entry, since the exited threads resume at the `EXIT`,
/// outside the loop (`warp_analysis/shared_loops.rs`). So on the worst path — the first
/// loop, with two calls per iteration against one — each of the two call blocks runs 10
/// times (30 before the copies shared their bound), and raising N by ΔN raises the bound by
/// 2 call sites × 10 executions × ΔN × 2 candidates = 40·ΔN.
#[test]
fn sobel_tex_sm86_bound_grows_with_the_opaque_cost() {
    let low = sobel_with_costs(100);
    let high = sobel_with_costs(150);
    assert_eq!(wcet(&high) - wcet(&low), 2 * 10 * 50 * 2);
    // The counts behind the 10: every copy of the block ending with the call at 0x03b0 (and
    // of the one ending with 0x0420) together run 10 times on the worst path; the second
    // loop's call block never.
    let cfg = low.cfg.as_ref().expect("cfg");
    let runs = |start: u64| -> u64 {
        cfg.nodes
            .iter()
            .filter(|n| n.kind == "block" && n.start == start)
            .map(|n| n.count.unwrap_or(0))
            .sum()
    };
    assert_eq!(runs(0x0120), 10);
    assert_eq!(runs(0x03c0), 10);
    assert_eq!(runs(0x04d0), 0);
    // The assumption is reported at each call.
    let notes: Vec<&str> = low
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("(assumed)"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(
        notes[0].contains("0x03b0: costs 201 cycles"),
        "{}",
        notes[0]
    );
}

/// A caller and its callee in two `Function :` sections of one listing.
///
/// Caller: 0x00–0x30 (4 instructions, the block ends with the call) and `EXIT` (1): 5 cycles.
/// Callee, entered with no register known to agree: B0 0x00–0x20 (3), B1 0x30–0x40 (2), B2
/// `RET` (1). `R5` is not agreed, so the branch at 0x20 may diverge: the taken part runs B2
/// and returns while the others wait at 0x30, then they run B1 and B2: 3 + 1 + 2 + 1 = 7 (more
/// than all taking it, 4, or none, 6). Bound: 5 + 7 = 12; with a second candidate `cost:5`,
/// 17.
const TWO_FUNCTIONS: &str = "
\tcode for sm_86
\t\tFunction : caller
\t.headerflags    @\"EF_CUDA_SM86 EF_CUDA_PTX_SM(EF_CUDA_SM86)\"
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDC.64 R2, c[0x2][0x0] ;
        /*0020*/                   MOV R20, 0x40 ;
        /*0030*/                   CALL.REL.NOINC R2 0x0 ;
        /*0040*/                   EXIT ;
\t\tFunction : callee
\t.headerflags    @\"EF_CUDA_SM86 EF_CUDA_PTX_SM(EF_CUDA_SM86)\"
        /*0000*/                   MOV R4, RZ ;
        /*0010*/                   ISETP.GE.AND P0, PT, R5, 0x10, PT ;
        /*0020*/               @P0 BRA 0x50 ;
        /*0030*/                   IADD3 R4, R4, 0x1, RZ ;
        /*0040*/                   IADD3 R4, R4, 0x2, RZ ;
        /*0050*/                   RET.REL.NODEC R20 0x0 ;
";

#[test]
fn indirect_call_of_another_function_of_the_listing() {
    let r = run(TWO_FUNCTIONS, "0x0030=callee");
    assert_eq!(wcet(&r), 5 + 7);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("0x0030: costs 7 cycles") && d.message.contains("`callee` 7")));
    let r = run(TWO_FUNCTIONS, "0x0030=callee|cost:5");
    assert_eq!(wcet(&r), 5 + 7 + 5);
    // The callee alone, as the warp-cfg mode sees a kernel: the same 7.
    let mut req = Request::new(TWO_FUNCTIONS, Dialect::Sass);
    req.mode = Some("warp-cfg".into());
    req.function = Some("callee".into());
    assert_eq!(wcet(&analyze(&req)), 7);
}

/// An sm_61 jump table: `SSY` to the join, `BRX R5` to two cases that end in `SYNC`.
/// Blocks: B0 0x08–0x18 (3), case A 0x28–0x30 (2), case B 0x38–0x50 (3), join 0x58 (1).
/// `R5` is not agreed at the entry, so besides the two uniform outcomes (`taken` to each case)
/// the warp may split: case A runs first with its threads while those of case B wait at 0x38
/// (`divergence` 0x08→0x28); A's `SYNC` resumes them (`divergence` 0x28→0x38, into the same
/// state as the uniform B); B's `SYNC` pops the `SSY` entry (`reconvergence` to 0x58).
/// Worst case: 3 + 2 + 3 + 1 = 9 (uniform: at most 3 + 3 + 1 = 7).
const JUMP_TABLE_SM61: &str = "
\tcode for sm_61
\t\tFunction : k
        /*0008*/                   MOV R1, RZ ;
        /*0010*/                   SSY 0x58 ;
        /*0018*/                   BRX R5 -0x18 ;
        /*0028*/                   IADD R1, R1, 0x1 ;
        /*0030*/                   SYNC ;
        /*0038*/                   IADD R1, R1, 0x2 ;
        /*0048*/                   IADD R1, R1, 0x3 ;
        /*0050*/                   SYNC ;
        /*0058*/                   EXIT ;
";

#[test]
fn sm61_brx_to_two_addresses_is_a_two_way_divergent_branch() {
    let r = run(JUMP_TABLE_SM61, "0x18=0x28|0x38");
    assert_eq!(wcet(&r), 9);
    let e = |a: u64, b: u64, k: &str| (a, b, k.to_string());
    assert_eq!(
        edges(&r),
        BTreeSet::from([
            e(0x08, 0x28, "taken"),
            e(0x08, 0x38, "taken"),
            e(0x08, 0x28, "divergence"),
            e(0x28, 0x38, "divergence"),
            e(0x28, 0x58, "reconvergence"),
            e(0x38, 0x58, "reconvergence"),
        ])
    );
    // Four block states and the exit: the divergent case A has the case B path pending.
    let cfg = r.cfg.as_ref().expect("cfg");
    assert_eq!(cfg.nodes.len(), 6);
    // nvdisasm's own annotation gives the same graph without the parameter.
    let annotated = JUMP_TABLE_SM61.replace(
        "BRX R5 -0x18 ;",
        "BRX R5 -0x18 (*\"BRANCH_TARGETS .L_a,.L_b\"*) ;",
    );
    let annotated = annotated
        .replace("        /*0028*/", ".L_a:\n        /*0028*/")
        .replace("        /*0038*/", ".L_b:\n        /*0038*/");
    let r2 = run(&annotated, "");
    assert_eq!(wcet(&r2), 9);
    assert_eq!(edges(&r2), edges(&r));
}

/// A `BRX` after `PRET` whose candidate is a function: an opaque call that returns to the
/// `PRET` point. Blocks: 0x08–0x18 (3, `PRET`, `BRX`), 0x28 `EXIT` (1); the callee `callee`
/// of the same listing costs 2 (`IADD`, `RET`): 3 + 2 + 1 = 6.
#[test]
fn sm61_brx_after_pret_calls_a_function() {
    let src = "
\tcode for sm_61
\t\tFunction : k
        /*0008*/                   MOV R1, RZ ;
        /*0010*/                   PRET 0x28 ;
        /*0018*/                   BRX R5 -0x18 ;
        /*0028*/                   EXIT ;
\t\tFunction : callee
        /*0008*/                   IADD R1, R1, 0x1 ;
        /*0010*/                   RET ;
";
    let r = run(src, "0x18=callee");
    assert_eq!(wcet(&r), 6);
    // Without `PRET` the same candidate is refused.
    let r = run(&src.replace("PRET 0x28", "MOV R2, RZ"), "0x18=callee");
    assert!(r.wcet.is_none());
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.message.contains("without `PRET`")));
}

/// Without targets: a located error at the call that names its address and the parameter,
/// with the syntax to give them.
#[test]
fn without_targets_the_error_says_how_to_give_them() {
    let r = run(&corpus_walk::read(SOBEL_SM86), "");
    assert!(r.wcet.is_none());
    let e = r
        .diagnostics
        .iter()
        .find(|d| d.is_error() && d.line == 123)
        .expect("an error at the first CALL.REL.NOINC (line 123)");
    assert!(
        e.message
            .contains("`CALL.REL.NOINC R14 0x0` at 0x03b0 is an indirect call"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("--set indirect_targets=0x03b0=NAME|0xADDRESS|cost:N"),
        "{}",
        e.message
    );
    // A candidate that is not in the listing is an error too, as is a malformed parameter.
    let r = run(
        &corpus_walk::read(SOBEL_SM86),
        "0x03b0=nosuch;0x0760=cost:1",
    );
    assert!(r.diagnostics.iter().any(|d| d.is_error()
        && d.message
            .contains("`nosuch` is not a function of this listing")));
    let r = run(&corpus_walk::read(SOBEL_SM86), "0x03b0");
    assert!(r.diagnostics.iter().any(|d| d.is_error()
        && d.message
            .starts_with("indirect_targets: `0x03b0` has no `=`")));
}

/// The callee code embedded in the sm_86 listing itself (after the kernel's `EXIT`): each
/// candidate address starts a subroutine ending in `RET`, bounded as its own warp-level CFG:
/// 0x07f0–0x09d0 and 0x09e0–0x0bc0 are straight lines of 31 instructions, 0x0bd0–0x0c20 of 6,
/// so each call costs 31 + 31 + 6 = 68 beyond itself.
#[test]
fn sobel_tex_sm86_with_the_embedded_callees() {
    let c = "0x07f0|0x09e0|0x0bd0";
    let r = run(
        &corpus_walk::read(SOBEL_SM86),
        &format!("0x03b0={c};0x0420={c};0x0760={c}"),
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("0x03b0: costs 68 cycles")));
    // The same as three opaque candidates of 31, 31 and 6 cycles.
    let opaque = run(
        &corpus_walk::read(SOBEL_SM86),
        "0x03b0=cost:31|cost:30|cost:7;0x0420=cost:31|cost:30|cost:7;0x0760=cost:31|cost:30|cost:7",
    );
    assert_eq!(wcet(&r), wcet(&opaque));
}
