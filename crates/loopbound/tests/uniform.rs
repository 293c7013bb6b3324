//! Block-uniform branches (`loopbound::uniform`): which branches every thread of a block
//! takes the same way, on hand-written SASS and on nvcc's reduction tree.

/// Whether the branch of the block ending at the instruction whose text contains `needle`
/// is block-uniform.
fn uniform(src: &str, needle: &str) -> bool {
    let parsed = isa::sass::parse(src, None, &isa::Limits::default());
    let k = parsed.kernel.expect("kernel");
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let i = k
        .instructions
        .iter()
        .position(|x| x.text.contains(needle))
        .unwrap_or_else(|| panic!("no `{needle}`"));
    let b = g.block_of(i).expect("block");
    assert_eq!(g.blocks[b].last, i, "`{needle}` ends no block");
    let a = loopbound::analyse(loopbound::sass::lower(&k, &g));
    a.uniformity().uniform_branch(b)
}

/// A loop `for (i = 0; i < LIMIT; i++)`; `pre` computes R5 (the limit) before it.
fn counted(pre: &str, limit: &str) -> String {
    format!(
        "S2R R0, SR_TID.X ;\nS2R R8, SR_CTAID.X ;\nMOV R2, c[0x0][0x140] ;\nMOV R3, c[0x0][0x144] ;\n\
         {pre}\nMOV R4, RZ ;\nLOOP:\nIADD R4, R4, 0x1 ;\n\
         ISETP.LT.AND P0, PT, R4, {limit}, PT ;\n@P0 BRA LOOP ;\nEXIT ;"
    )
}

#[test]
fn limits_of_parameters_block_ids_and_launch_dimensions_are_uniform() {
    for limit in ["c[0x0][0x148]", "R8", "c[0x0][0x0]", "0x20"] {
        assert!(uniform(&counted("", limit), "@P0 BRA"), "{limit}");
    }
    // Arithmetic on uniform values stays uniform: ctaid · ntid + n.
    let pre = "IMAD R5, R8, c[0x0][0x0], R8 ;\nIADD R5, R5, c[0x0][0x148] ;";
    assert!(uniform(&counted(pre, "R5"), "@P0 BRA"));
    // nvcc on sm_90 reads blockDim.x as `LDC R7, c[0x0][RZ]`: the word at 0, uniform; an
    // index register that holds `tid` makes it a per-thread read.
    assert!(uniform(&counted("LDC R5, c[0x0][RZ] ;", "R5"), "@P0 BRA"));
    assert!(!uniform(&counted("LDC R5, c[0x0][R0] ;", "R5"), "@P0 BRA"));
}

/// A 128-bit shared load in the body (`LDS.U.128 R16`: R16–R19, as `isa` lists them) does
/// not touch the counter R22 (sm_75's tiled `matrixMul` has this shape; widening each of the
/// four registers by four again clobbered R20–R22).
#[test]
fn a_wide_load_beside_the_counter_leaves_it_uniform() {
    let src = "S2R R0, SR_TID.X ;\nMOV R22, RZ ;\nLOOP:\nLDS.U.128 R16, [R0] ;\n\
               IADD R22, R22, 0x1 ;\nISETP.LT.AND P0, PT, R22, c[0x0][0x148], PT ;\n\
               @P0 BRA LOOP ;\nEXIT ;";
    assert!(uniform(src, "@P0 BRA"));
    // The load's own registers are per thread: a counter in R19 is not uniform.
    let src = src.replace("R22", "R19");
    assert!(!uniform(&src, "@P0 BRA"));
}

#[test]
fn thread_ids_loaded_data_and_votes_are_divergent() {
    assert!(!uniform(&counted("", "R0"), "@P0 BRA"), "tid");
    let load = "LDG.E R5, [R2] ;";
    assert!(!uniform(&counted(load, "R5"), "@P0 BRA"), "a load");
    let shared = "LDS R5, [RZ] ;";
    assert!(!uniform(&counted(shared, "R5"), "@P0 BRA"), "a shared word");
    // A vote is warp-uniform, not block-uniform; the lowering does not model it anyway.
    let vote = "ISETP.GE.AND P1, PT, R0, 0x20, PT ;\nVOTE.ALL R5, P2, P1 ;";
    assert!(!uniform(&counted(vote, "R5"), "@P0 BRA"), "a vote");
}

/// The same constants joined after a branch: uniform when the branch is (on the block
/// id), divergent when a thread-dependent branch chose between them — the join's sync
/// dependence, not its operands, makes it divergent.
#[test]
fn a_join_is_divergent_when_a_divergent_branch_chose_its_value() {
    let join = |cond: &str| {
        counted(
            &format!(
                "ISETP.LT.AND P1, PT, {cond}, 0x10, PT ;\nMOV R5, 0x4 ;\n@P1 BRA JOIN ;\n\
                 MOV R5, 0x8 ;\nJOIN:"
            ),
            "R5",
        )
    };
    assert!(uniform(&join("R8"), "@P0 BRA"));
    assert!(uniform(&join("R8"), "@P1 BRA"));
    assert!(!uniform(&join("R0"), "@P1 BRA"));
    assert!(!uniform(&join("R0"), "@P0 BRA"));
}

/// A uniform counter with a thread-dependent break beside it: threads leave in different
/// iterations, so the counter's exit is not uniform either (temporal divergence).
#[test]
fn a_divergent_break_makes_the_loop_divergent() {
    let src = "S2R R0, SR_TID.X ;\nMOV R4, RZ ;\nLOOP:\nIADD R4, R4, 0x1 ;\n\
               ISETP.EQ.AND P1, PT, R4, R0, PT ;\n@P1 BRA OUT ;\n\
               ISETP.LT.AND P0, PT, R4, c[0x0][0x148], PT ;\n@P0 BRA LOOP ;\nOUT:\nEXIT ;";
    assert!(!uniform(src, "@P1 BRA"));
    assert!(!uniform(src, "@P0 BRA"));
    // With the break on the block id instead, both stay uniform.
    let src = src.replace("SR_TID.X", "SR_CTAID.X");
    assert!(uniform(&src, "@P1 BRA"));
    assert!(uniform(&src, "@P0 BRA"));
}

/// A divergent if inside a loop that reconverges before the latch does not touch the
/// counter: `for (s = n; s > 0; s >>= 1) { if (tid < s) …; }`.
#[test]
fn a_reconverging_divergent_if_leaves_the_counter_uniform() {
    let src = "S2R R0, SR_TID.X ;\nMOV R4, c[0x0][0x148] ;\nLOOP:\n\
               ISETP.GE.U32.AND P1, PT, R0, R4, PT ;\nSSY JOIN ;\n@P1 SYNC ;\n\
               LDS R6, [RZ] ;\nSTS [RZ], R6 ;\nSYNC ;\nJOIN:\nBAR.SYNC 0x0 ;\n\
               SHR.U32 R4, R4, 0x1 ;\nISETP.NE.AND P0, PT, R4, RZ, PT ;\n@P0 BRA LOOP ;\nEXIT ;";
    assert!(!uniform(src, "@P1 SYNC"));
    assert!(uniform(src, "@P0 BRA"));
}

/// Unknown conditions (`BRA.DIV`, taken on the warp's state) are not uniform.
#[test]
fn branches_the_lowering_cannot_state_are_divergent() {
    let src = "MOV R4, RZ ;\nLOOP:\nIADD R4, R4, 0x1 ;\nBRA.DIV LOOP ;\nEXIT ;";
    assert!(!uniform(src, "BRA.DIV"));
}

/// nvcc's reduction tree (`tests/kernels/src/counted_loops.cu`, `reduce_tree`): the guard
/// `blockDim.x / 2 > 0` and the loop's back edge `s >>= 1; s != 0` are uniform on every
/// architecture; the body's `threadIdx.x < s` is if-converted.
#[test]
fn reduction_tree_loop_is_uniform_on_every_architecture() {
    for arch in ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"] {
        let text = std::fs::read_to_string(format!(
            "../../tests/kernels/sass/{arch}/counted_loops.sass"
        ))
        .expect("listing");
        let parsed = isa::sass::parse(&text, Some("_Z11reduce_treePf"), &isa::Limits::default());
        let k = parsed.kernel.expect("function");
        let g = isa::blocks::build(&k, &isa::Limits::default());
        let a = loopbound::analyse(loopbound::sass::lower(&k, &g));
        let u = a.uniformity();
        let branches: Vec<usize> = (0..g.blocks.len())
            .filter(|&b| {
                let last = &k.instructions[g.blocks[b].last];
                g.blocks[b].reachable && last.guard.is_some() && last.opcode.name == "BRA"
            })
            .collect();
        assert_eq!(branches.len(), 2, "{arch}: guard and back edge");
        for b in branches {
            assert!(u.uniform_branch(b), "{arch}: block {b}");
        }
    }
}
