//! The `block` mode reduces to the makespan model on straight-line code (issue #27): with
//! `sm=makespan` (Berezovskyi et al.'s unit machine) its bound on a straight-line SASS kernel
//! equals the `makespan` mode's exact worst case of the kernel's L/C reduction, for 1–4 warps
//! on Fermi cc 2.0 and cc 2.1; with branches it stays a bound on the simulator's runs of the
//! same machine.

#[path = "common/report.rs"]
mod report;

use report::analyze_sass as run;

const STRAIGHT: &str = "\
S2R R0, SR_TID.X ;
MOV R2, c[0x0][0x140] ;
MOV R3, c[0x0][0x144] ;
LDG.E R5, [R2] ;
IADD R6, R5, R0 ;
LDG.E R7, [R2+0x4] ;
FADD R8, R7, R6 ;
STG.E [R2+0x8], R8 ;
EXIT ;";

fn gallery(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../www/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("gallery kernel")
}

#[test]
fn straight_line_code_gets_the_exact_makespan() {
    let overlap = gallery("block-overlap.sass");
    for src in [STRAIGHT, overlap.as_str()] {
        for (ls, cores) in [(16, 32), (16, 48)] {
            for warps in 1..=4u32 {
                let block = run(
                    src,
                    "block",
                    &[
                        ("sm", serde_json::json!("makespan")),
                        ("ls_units", serde_json::json!(ls)),
                        ("cores", serde_json::json!(cores)),
                        ("block", serde_json::json!(format!("{}", 32 * warps))),
                    ],
                );
                let ms = run(
                    src,
                    "makespan",
                    &[
                        ("warps", serde_json::json!(warps)),
                        ("ls_units", serde_json::json!(ls)),
                        ("cores", serde_json::json!(cores)),
                    ],
                );
                let exact = ms.makespan().and_then(|m| m.exact).expect("exact makespan");
                let b = block.block().expect("block details");
                assert_eq!(
                    b.wcet, exact,
                    "{warps} warps on ({ls}, {cores}): block {} vs makespan {exact}",
                    b.wcet
                );
                if warps > 1 {
                    assert_eq!(b.bound.rule, "exact_makespan");
                }
                // The growth plot's exact series holds the same value at this many warps.
                let row = &b.growth[warps as usize - 1];
                assert_eq!((row.warps, row.exact), (warps as usize, Some(exact)));
            }
        }
    }
}

#[test]
fn branching_code_is_bounded_on_the_unit_machine() {
    // Fig. 1's if-then-else on the thread index: not straight-line, so the closed form.
    let src = gallery("fig1-if-then-else.sass");
    let r = run(
        &src,
        "block",
        &[
            ("sm", serde_json::json!("makespan")),
            ("simulate", serde_json::json!(true)),
            ("memory", serde_json::json!("out@0x0 256 const 0")),
            ("block", serde_json::json!("128")),
        ],
    );
    let b = r.block().expect("block details");
    assert_eq!(b.bound.rule, "unit_response_time");
    assert!(!b.runs.is_empty(), "{:?}", r.diagnostics);
    for run in &b.runs {
        assert!(run.cycles <= b.wcet, "{} > {}", run.cycles, b.wcet);
    }
}
