//! `block::barrier_phases` on hand-written SASS (values derived by hand in each test's doc)
//! and on nvcc's reduction tree: barriers inside loops whose exits are block-uniform are
//! accepted with `P` = Σ over barriers of the product of the loop bounds around each; a
//! barrier that threads of one block may pass different numbers of times keeps the
//! serialised bound, with the reason.

#[path = "common/barrier_kernels.rs"]
mod barrier_kernels;

use barrier_kernels::{reduction_tree, TILED};
use block::{barrier_phases, BarrierPhases, Serialised, Timing};

/// Parses `src` (function `function`, or the first) and checks it with every loop bounded
/// by `bound` (`None`: no bound).
fn check(
    src: &str,
    function: Option<&str>,
    bound: Option<u64>,
) -> (isa::Kernel, Result<BarrierPhases, Serialised>) {
    let parsed = isa::sass::parse(src, function, &isa::Limits::default());
    let k = parsed.kernel.expect("kernel");
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let r = barrier_phases(&k, &g, &|_| bound, &|_| Timing::UNIT);
    (k, r)
}

/// Pascal-like timing by opcode (the `pascal-gp102` figures): global loads 302, shared
/// memory 24, `MUFU` latency 20 with an initiation interval of 4 (here 30, to be seen),
/// everything else 6.
fn pascal(ins: &isa::Instruction) -> Timing {
    let (latency, interval) = match ins.opcode.name.as_str() {
        "LDG" | "STG" => (302, 1),
        "LDS" | "STS" => (24, 1),
        "MUFU" => (20, 30),
        _ => (6, 1),
    };
    Timing { latency, interval }
}

/// `λ_b` of each barrier of `src` (loops bounded by 4) under [`pascal`].
fn lambdas(src: &str) -> (Vec<u64>, u64) {
    let parsed = isa::sass::parse(src, None, &isa::Limits::default());
    let k = parsed.kernel.expect("kernel");
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let x = barrier_phases(&k, &g, &|_| Some(4), &pascal).expect("accepted");
    (x.barriers.iter().map(|b| b.lambda).collect(), x.carry)
}

/// The address of the first instruction whose text contains `needle`.
fn at(k: &isa::Kernel, needle: &str) -> u64 {
    k.instructions
        .iter()
        .find(|x| x.text.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}`"))
        .address
}

/// The addresses of the instructions whose text contains `needle`, in order.
fn all(k: &isa::Kernel, needle: &str) -> Vec<u64> {
    k.instructions
        .iter()
        .filter(|x| x.text.contains(needle))
        .map(|x| x.address)
        .collect()
}

/// Both barriers lie in the loop over tiles, whose guard and back edge compare the counter
/// with the parameter `n` (the same in every thread): with the loop bounded by 4 tiles a
/// warp passes 2 × 4 = 8 barrier instances.
#[test]
fn tiled_loop_passes_each_barrier_once_per_tile() {
    let (k, r) = check(TILED, None, Some(4));
    let x = r.expect("accepted");
    let header = at(&k, "SHL R6");
    assert_eq!(x.instances, 8);
    assert_eq!(x.barriers.len(), 2);
    for b in &x.barriers {
        assert_eq!(b.loops, vec![header]);
        assert_eq!(b.instances, 4);
    }
    // Unbounded, the loop gives no `P`.
    let (_, r) = check(TILED, None, None);
    assert_eq!(
        r,
        Err(Serialised::Unbounded {
            barrier: at(&k, "BAR.SYNC"),
            header
        })
    );
}

/// The same loop counted by the thread index (`for (i = tid; i < n; i += 32)`): threads of
/// one block leave it in different iterations, so they pass the barrier different numbers
/// of times — serialised, naming the back edge and the barrier.
#[test]
fn thread_dependent_loop_around_a_barrier_stays_serialised() {
    let src = TILED
        .replace("MOV R4, RZ ;", "MOV R4, R0 ;")
        .replace("IADD R4, R4, 0x1 ;", "IADD R4, R4, 0x20 ;");
    let (k, r) = check(&src, None, Some(4));
    // The guard `tid ≥ n` is the first branch that may split the block.
    let why = r.expect_err("serialised");
    assert_eq!(
        why,
        Serialised::Split {
            branch: at(&k, "@P0 BRA DONE"),
            barrier: at(&k, "BAR.SYNC"),
        }
    );
    assert!(why.to_string().contains("thread ids"), "{why}");
    // With a uniform guard (`n ≤ 0`, as for the tiled loop) the back edge is the culprit.
    let src = src.replace(
        "ISETP.GE.AND P0, PT, R4, R5, PT ;\n@P0",
        "ISETP.GE.AND P0, PT, RZ, R5, PT ;\n@P0",
    );
    let (k, r) = check(&src, None, Some(4));
    assert_eq!(
        r,
        Err(Serialised::Split {
            branch: at(&k, "@P0 BRA LOOP"),
            barrier: at(&k, "BAR.SYNC"),
        })
    );
}

/// The reduction tree `buf[tid] = a[tid]; __syncthreads(); for (s = blockDim.x / 2; s > 0;
/// s >>= 1) { if (tid < s) buf[tid] += buf[tid + s]; __syncthreads(); }`: the `tid < s`
/// branch splits warps but its region (`SSY JOIN` … `SYNC`) closes before the barrier, and
/// `s` is computed from `blockDim.x` (`c[0x0][0x0]`) only. With 128 threads the loop runs 7
/// times (s = 64, 32, …, 1): P = 1 (before the loop) + 7 = 8.
#[test]
fn reduction_tree_is_per_phase() {
    let src = reduction_tree("", "c[0x0][0x0]");
    let (k, r) = check(&src, None, Some(7));
    let x = r.expect("accepted");
    assert_eq!(x.instances, 8);
    let loops: Vec<(u64, usize, u64)> = x
        .barriers
        .iter()
        .map(|b| (b.address, b.loops.len(), b.instances))
        .collect();
    let header = at(&k, "ISETP.GE.U32");
    let bars = all(&k, "BAR.SYNC");
    assert_eq!(loops, vec![(bars[0], 0, 1), (bars[1], 1, 7)]);
    assert_eq!(x.barriers[1].loops, vec![header]);
    // Without the `SSY`, the `tid < s` split is open at the barrier: serialised.
    let open = src
        .replace("SSY JOIN ;\n", "")
        .replace("@P1 SYNC", "@P1 BRA JOIN");
    let (k, r) = check(&open, None, Some(7));
    assert_eq!(
        r,
        Err(Serialised::Split {
            branch: at(&k, "@P1 BRA"),
            barrier: all(&k, "BAR.SYNC")[1],
        })
    );
}

/// Threads that end early (`if (tid >= n) return;` before a barrier) leave the others
/// waiting for them on a machine that counts only live threads, and pass fewer barriers.
#[test]
fn a_divergent_exit_before_a_barrier_is_serialised() {
    let src = "\
S2R R0, SR_TID.X ;
ISETP.GE.AND P0, PT, R0, c[0x0][0x148], PT ;
@P0 EXIT ;
BAR.SYNC 0x0 ;
EXIT ;";
    let (k, r) = check(src, None, Some(1));
    assert_eq!(
        r,
        Err(Serialised::Exit {
            exit: at(&k, "@P0 EXIT"),
            barrier: at(&k, "BAR.SYNC"),
        })
    );
    // The same exit on the block id ends whole blocks: accepted, one instance.
    let (_, r) = check(&src.replace("SR_TID.X", "SR_CTAID.X"), None, Some(1));
    assert_eq!(r.map(|x| x.instances), Ok(1));
    // After the barrier it splits nothing that matters.
    let after = "S2R R0, SR_TID.X ;\nBAR.SYNC 0x0 ;\n\
                 ISETP.GE.AND P0, PT, R0, c[0x0][0x148], PT ;\n@P0 EXIT ;\nEXIT ;";
    let (_, r) = check(after, None, Some(1));
    assert_eq!(r.map(|x| x.instances), Ok(1));
}

/// Barrier forms other than an unguarded `BAR.SYNC 0` (`BAR.ARV`, a guard, barrier 1) are
/// not the one every thread waits at: serialised.
#[test]
fn other_barrier_forms_are_serialised() {
    for bar in [
        "@P0 BAR.SYNC 0x0 ;",
        "BAR.SYNC 0x1 ;",
        "BAR.ARV 0x0, 0x40 ;",
    ] {
        let src = format!("S2R R0, SR_CTAID.X ;\nISETP.EQ.AND P0, PT, R0, RZ, PT ;\n{bar}\nEXIT ;");
        let (k, r) = check(&src, None, Some(1));
        assert_eq!(
            r,
            Err(Serialised::Form {
                address: at(&k, "BAR")
            }),
            "{bar}"
        );
    }
}

/// nvcc's reduction tree (`tests/kernels/src/counted_loops.cu`, `reduce_tree`) on five
/// architectures: one barrier before the loop and one in it, accepted; with the loop
/// bounded by 7, P = 8.
#[test]
fn nvcc_reduction_tree_is_per_phase_on_every_architecture() {
    for arch in ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"] {
        let text = std::fs::read_to_string(format!(
            "../../tests/kernels/sass/{arch}/counted_loops.sass"
        ))
        .expect("listing");
        let (_, r) = check(&text, Some("_Z11reduce_treePf"), Some(7));
        let x = r.unwrap_or_else(|why| panic!("{arch}: {why}"));
        let shape: Vec<(usize, u64)> = x
            .barriers
            .iter()
            .map(|b| (b.loops.len(), b.instances))
            .collect();
        assert_eq!(shape, vec![(0, 1), (1, 7)], "{arch}");
        assert_eq!(x.instances, 8, "{arch}");
    }
}

/// A call to a function of the listing after the last barrier (the warp reduction of
/// `reduce4` on sm_70+, `CALL.REL.NOINC` … `RET`) changes no warp's barriers: accepted.
/// Before a barrier the graph's call and return edges could pair any call with any
/// return, so it is refused; so is a call out of the listing anywhere (its barriers are
/// not in the graph).
#[test]
fn calls_after_the_last_barrier_are_harmless() {
    let after = "\
S2R R0, SR_TID.X ;
BAR.SYNC 0x0 ;
CAL FN ;
EXIT ;
FN:
IADD R1, R1, 0x1 ;
RET ;";
    let (_, r) = check(after, None, Some(1));
    assert_eq!(r.map(|x| x.instances), Ok(1));
    let before = after.replace("BAR.SYNC 0x0 ;\nCAL FN ;", "CAL FN ;\nBAR.SYNC 0x0 ;");
    let (k, r) = check(&before, None, Some(1));
    assert_eq!(
        r,
        Err(Serialised::Call {
            address: at(&k, "CAL FN")
        })
    );
    let external = "S2R R0, SR_TID.X ;\nBAR.SYNC 0x0 ;\nJCAL 0x0 ;\nEXIT ;";
    let (k, r) = check(external, None, Some(1));
    assert_eq!(
        r,
        Err(Serialised::Call {
            address: at(&k, "JCAL")
        })
    );
}

/// What may be in flight at a barrier (`block::carry`), by hand. In the tiled loop the
/// global load's value is stored to shared memory before the first barrier (the `STS`
/// waits for `R7`) and the shared loads are summed before the second (`FADD` waits for
/// `R8`); what no instruction waited for is the `FADD`'s `R9` (6 cycles; at the first
/// barrier it comes round the back edge): λ = 6 at both, and with 4 tiles the term is
/// 4·6 + 4·6 = 48 instead of P·(2·302 − 1) = 4832.
#[test]
fn carry_over_is_what_no_instruction_waited_for() {
    assert_eq!(lambdas(TILED), (vec![6, 6], 48));
    // The loaded value stored after the first barrier: the load (302) may be in flight.
    let late = TILED.replace(
        "STS [R6], R7 ;\nBAR.SYNC 0x0 ;",
        "BAR.SYNC 0x0 ;\nSTS [R6], R7 ;",
    );
    assert_eq!(lambdas(&late), (vec![302, 6], 4 * 302 + 4 * 6));
    // A guarded reader does not count as waiting (its guard may turn it off): the load
    // may be in flight at both barriers, nothing else reads `R7`.
    let guarded = TILED.replace("STS [R6], R7 ;", "@P0 STS [R6], R7 ;");
    assert_eq!(lambdas(&guarded).0, vec![302, 302]);
    // A unit's interval (30 here) is never assumed over, even when the result was used.
    let sfu = TILED.replace("STS [R6], R7 ;", "MUFU.RCP R10, R7 ;\nSTS [R6], R10 ;");
    assert_eq!(lambdas(&sfu), (vec![30, 30], 4 * 30 + 4 * 30));
}

/// `BRA P1, t` without a guard is taken only where `P1` holds (`isa::Instruction::
/// branch_predicates`): on the thread index it splits the block around the barrier; on the
/// block id it does not.
#[test]
fn a_branch_predicate_operand_may_split_the_block() {
    let src = "\
S2R R0, SR_TID.X ;
ISETP.GE.AND P1, PT, R0, 0x40, PT ;
BRA P1, SKIP ;
BAR.SYNC 0x0 ;
SKIP:
BAR.SYNC 0x0 ;
EXIT ;";
    let (k, r) = check(src, None, Some(1));
    assert_eq!(
        r,
        // The barrier named is one the split reaches (here the taken side's).
        Err(Serialised::Split {
            branch: at(&k, "BRA P1"),
            barrier: all(&k, "BAR.SYNC")[1],
        })
    );
    let (_, r) = check(&src.replace("SR_TID.X", "SR_CTAID.X"), None, Some(1));
    assert_eq!(r.map(|x| x.instances), Ok(2));
}
