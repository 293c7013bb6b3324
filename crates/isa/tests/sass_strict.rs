//! The strict SASS front end: typos that could lower a WCET bound are
//! errors, other unknown opcodes are warnings with a hint, gaps in addresses are warned about.
//!
//! Data-driven: each case is listing text and the exact warnings and errors it must produce
//! (severity, line, column, a fragment of the message); notes are not compared. Columns are
//! 1-based characters, worked out by hand in the comments.

use isa::sass::isa_table::{self, Role};
use isa::{sass, Limits, Severity};

struct Case {
    name: &'static str,
    text: &'static str,
    /// (severity, line, column, message fragment), in any order.
    expect: &'static [(Severity, u32, u32, &'static str)],
}

const E: Severity = Severity::Error;
const W: Severity = Severity::Warning;

fn run(case: &Case) {
    let out = sass::parse(case.text, None, &Limits::default());
    let got: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
        .collect();
    for &(sev, line, column, fragment) in case.expect {
        assert!(
            got.iter().any(|d| d.severity == sev
                && d.line == line
                && d.column == column
                && d.message.contains(fragment)),
            "{}: expected {sev:?} at {line}:{column} containing {fragment:?}; got {got:#?}",
            case.name
        );
    }
    assert_eq!(
        got.len(),
        case.expect.len(),
        "{}: unexpected diagnostics {got:#?}",
        case.name
    );
}

fn run_all(cases: &[Case]) {
    for case in cases {
        run(case);
    }
}

/// The typos of the issue, in the divergent if/else kernel whose bound they used to lower.
#[test]
fn typos_that_lowered_a_bound() {
    run_all(&[
        Case {
            name: "special register without SR_",
            // "S2R R0, " is 8 characters: CTAID.X starts at column 9.
            text: "S2R R0, CTAID.X ;\nISETP.GE.AND P0, PT, R0, 0x10, PT ;\nEXIT ;\n",
            expect: &[(E, 1, 9, "did you mean SR_CTAID.X?")],
        },
        Case {
            name: "doubled letter in an arithmetic opcode",
            text: "IADDD R1, R0, 0x1 ;\nEXIT ;\n",
            expect: &[(
                W,
                1,
                1,
                "unknown opcode `IADDD` (did you mean IADD?): read as an ALU instruction that \
                 writes its first operand and reads the rest",
            )],
        },
        Case {
            name: "memory operand cut short",
            // "ST " is 3 characters: the operand starts at column 4.
            text: "ST [R2 ;\nEXIT ;\n",
            expect: &[(E, 1, 4, "a `]` is missing")],
        },
        Case {
            name: "branch with a doubled letter",
            text: "BRAA 0x8 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "close to BRA, a control flow instruction")],
        },
        Case {
            name: "SSY with a wrong letter",
            text: "SSX 0x8 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "close to SSY, a SIMT stack instruction")],
        },
        Case {
            name: "unknown opcode writing a predicate",
            text: "QSETP.GE.AND P0, PT, R0, 0x10, PT ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "its first operand is a predicate")],
        },
        Case {
            name: "unknown opcode with a code address where the destination goes",
            text: "QWXYZ 0x8 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "names a code address")],
        },
        Case {
            name: "unknown opcode with a label operand",
            text: "QWXYZ R1, `(.L_x_1) ;\n.L_x_1:\nEXIT ;\n",
            expect: &[(E, 1, 1, "names a code address")],
        },
    ]);
}

/// One case per role of the table: a typo next to a control-like opcode is an error, next to
/// an ordinary, predicate-writing or special-register opcode a warning (unless its operands
/// say otherwise).
#[test]
fn unknown_opcodes_by_the_role_of_their_nearest_neighbour() {
    run_all(&[
        Case {
            name: "control flow: swapped letters of EXIT",
            text: "EXTI ;\n",
            expect: &[(E, 1, 1, "(did you mean EXIT?): it may change control flow")],
        },
        Case {
            name: "SIMT stack: SYNC misspelt",
            text: "SYNK ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "close to SYNC, a SIMT stack instruction")],
        },
        Case {
            name: "convergence barrier: BSYNC misspelt",
            text: "BSYNK B0 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "close to BSYNC, a convergence barrier instruction")],
        },
        Case {
            name: "barrier: BAR misspelt",
            text: "BARR.SYNC 0x0 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "close to BAR, a barrier instruction")],
        },
        Case {
            name: "predicate-writing neighbour, register destination: a warning",
            text: "VOTTE.ANY R0, PT, P0 ;\nEXIT ;\n",
            expect: &[(W, 1, 1, "did you mean VOTE?")],
        },
        Case {
            name: "special-register neighbour: a warning (the operand is still read)",
            text: "S2Q R0, SR_TID.X ;\nEXIT ;\n",
            expect: &[(W, 1, 1, "did you mean S2R?")],
        },
        Case {
            name: "nothing near: a warning without a hint",
            text: "ZYXWVU R1, R2 ;\nEXIT ;\n",
            expect: &[(
                W,
                1,
                1,
                "unknown opcode `ZYXWVU`: read as an ALU instruction",
            )],
        },
    ]);
}

#[test]
fn special_registers() {
    run_all(&[
        Case {
            name: "every accepted spelling",
            text: "S2R R0, SR_TID.X ;\nS2R R1, SR_Tid_X ;\nS2R R2, SR_CTAid_X ;\n\
                   S2R R3, SR_LANEID ;\nCS2R R4, SRZ ;\nS2R R5, SR_CgaCtaId ;\nEXIT ;\n",
            expect: &[],
        },
        Case {
            name: "misspelt special register",
            // "S2R R0, " is 8 characters.
            text: "S2R R0, SR_TIDX ;\nEXIT ;\n",
            expect: &[(
                E,
                1,
                9,
                "unknown special register `SR_TIDX`; did you mean SR_TID.X?",
            )],
        },
        Case {
            name: "S2R of a general register",
            text: "S2R R0, R5 ;\nEXIT ;\n",
            expect: &[(
                E,
                1,
                9,
                "`S2R` reads a special register, but `R5` is not one",
            )],
        },
        Case {
            name: "S2UR without its source",
            text: "S2UR UR4 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "`S2UR` needs a destination and a special register")],
        },
    ]);
}

#[test]
fn memory_operands() {
    run_all(&[
        Case {
            name: "every address shape of the corpus and of sm_90",
            text: "LDG.E R0, [R2] ;\nLDG.E R0, [R2+0x10] ;\nLDG.E R0, [R2.64+-0x4] ;\n\
                   LDS R0, [UR4] ;\nLDG.E R0, [R2.U32+UR4+0x8] ;\nLDS R0, [R8.X4+URZ] ;\n\
                   LDC R0, c[0x0][0x160] ;\nLDC R0, c[0x3][R2+0x4] ;\nMOV R1, c [0x1] [0x100] ;\n\
                   LDG.E R2, desc[UR4][R2.64] ;\nSTG.E desc[UR4][R6.64], R9 ;\nLDS R0, [0x10] ;\n\
                   EXIT ;\n",
            expect: &[],
        },
        Case {
            name: "constant bank cut short",
            // "LDC R0, " is 8 characters.
            text: "LDC R0, c[0x0][0x160 ;\nEXIT ;\n",
            expect: &[(E, 1, 9, "malformed memory operand `c[0x0][0x160`")],
        },
        Case {
            name: "store whose bracket swallowed the data operand",
            // "STG.E " is 6 characters.
            text: "STG.E [R2, R5 ;\nEXIT ;\n",
            expect: &[(E, 1, 7, "a `]` is missing")],
        },
        Case {
            name: "misspelt base register",
            // "LDG.E R0, " is 10 characters.
            text: "LDG.E R0, [Q2+0x4] ;\nEXIT ;\n",
            expect: &[(E, 1, 11, "did you mean R2?")],
        },
        Case {
            name: "two general registers in one address",
            text: "LDG.E R0, [R2+R4] ;\nEXIT ;\n",
            expect: &[(E, 1, 11, "at most one register")],
        },
    ]);
}

#[test]
fn registers_and_predicates() {
    run_all(&[
        Case {
            name: "misspelt register",
            // "IADD R1, " is 9 characters.
            text: "IADD R1, Q3, 0x1 ;\nEXIT ;\n",
            expect: &[(E, 1, 10, "`Q3` is not a register (R0..R255, RZ, UR0..UR63, URZ, P0..P6, PT, UP0..UP6, UPT); did you mean R3?")],
        },
        Case {
            name: "register out of range",
            text: "MOV R256, R1 ;\nMOV R1, UR64 ;\nEXIT ;\n",
            expect: &[
                (E, 1, 5, "`R256` does not exist"),
                (E, 2, 9, "`UR64` does not exist"),
            ],
        },
        Case {
            name: "guard out of range",
            text: "@P7 BRA 0x8 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "invalid guard: `P7` does not exist")],
        },
        Case {
            name: "missing comma",
            // "IADD R1, " is 9 characters.
            text: "IADD R1, R0 0x1 ;\nEXIT ;\n",
            expect: &[(E, 1, 10, "a comma is probably missing")],
        },
        Case {
            name: "compare writing a general register",
            // "ISETP.GE.AND " is 13 characters.
            text: "ISETP.GE.AND R0, PT, R1, 0x10, PT ;\nEXIT ;\n",
            expect: &[(E, 1, 14, "`ISETP` writes predicates here")],
        },
        Case {
            name: "predicate logic writing a general register",
            // "PSETP.AND.AND P0, " is 18 characters.
            text: "PSETP.AND.AND P0, R1, P1, PT, PT ;\nEXIT ;\n",
            expect: &[(E, 1, 19, "`PSETP` writes predicates here")],
        },
        Case {
            name: "uniform and lower-case predicates, negations, barrier and scoreboard names",
            text: "ISETP.GE.AND P0, pt, R5, R9, pt ;\nUISETP.NE.AND UP0, UPT, UR4, URZ, UPT ;\n\
                   PSETP.AND.AND P1, PT, !P0, PT, PT ;\nBSSY B0, 0x30 ;\nDEPBAR.LE SB0, 0x0 ;\n\
                   BSYNC B0 ;\nTEXS.T RZ, R5, R3, R16, 0x5a, 2D, R ;\nEXIT ;\n",
            expect: &[],
        },
    ]);
}

#[test]
fn control_modifiers_and_targets() {
    run_all(&[
        Case {
            name: "known control modifiers and register targets",
            text: "BRA.U 0x8 ;\nBRA.DIV UR4, 0x10 ;\nCALL.REL.NOINC 0x18 ;\nVOTE.ALL P0, P1 ;\n\
                   WARPSYNC.ALL ;\nRET.REL.NODEC R20 0x0 ;\n",
            expect: &[],
        },
        Case {
            name: "misspelt branch modifier",
            text: "BRA.DIVV 0x8 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "`.DIVV` is not a modifier of BRA")],
        },
        Case {
            name: "misspelt vote modifier",
            text: "VOTE.AL R0, PT, P0 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "`.AL` is not a modifier of VOTE")],
        },
        Case {
            name: "branch target that is no instruction",
            // "BRA " is 4 characters.
            text: "BRA 0x28 ;\nEXIT ;\n",
            expect: &[(
                E,
                1,
                5,
                "target 0x0028 is not the address of an instruction",
            )],
        },
        Case {
            name: "reconvergence point of BSSY that is no instruction",
            // "BSSY B0, " is 9 characters.
            text: "BSSY B0, 0x48 ;\nBSYNC B0 ;\nEXIT ;\n",
            expect: &[(
                E,
                1,
                10,
                "target 0x0048 is not the address of an instruction",
            )],
        },
    ]);
}

#[test]
fn compare_modifiers() {
    // A compare's predicate decides branches: a misspelt modifier must not pass as some
    // other compare (issue #39: `ISETP.GE.ADN` analysed without a word).
    run_all(&[
        Case {
            name: "the compares and predicate logic nvcc writes",
            text: "ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\nISETP.NE.AND.EX P1, PT, R2, RZ, PT, P0 ;\n\
                   FSETP.GTU.FTZ.AND P0, PT, R1, R2, PT ;\nDSETP.MAX.AND P0, P1, R4, R6, PT ;\n\
                   PSETP.AND.OR P0, PT, P1, P2, PT ;\nPLOP3.LUT P0, PT, P1, P2, PT, 0x80, 0x0 ;\n\
                   UISETP.NE.U32.AND UP0, UPT, UR4, 0x1, UPT ;\nFCHK P0, R1, R2 ;\nEXIT ;\n",
            expect: &[],
        },
        Case {
            name: "misspelt boolean of an integer compare",
            text: "ISETP.GE.ADN P0, PT, R0, 0x10, PT ;\n@P0 BRA 0x10 ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "`.ADN` is not a modifier of ISETP (did you mean .AND?)")],
        },
        Case {
            name: "misspelt comparison of a float compare",
            text: "FSETP.GTT.AND P0, PT, R1, R2, PT ;\nEXIT ;\n",
            expect: &[(E, 1, 1, "`.GTT` is not a modifier of FSETP")],
        },
        Case {
            name: "misspelt predicate logic",
            text: "PLOP3.LTU P0, PT, P1, P2, PT, 0x80, 0x0 ;\nPSETP.ANDD P0, PT, P1, P2, PT ;\nEXIT ;\n",
            expect: &[
                (E, 1, 1, "`.LTU` is not a modifier of PLOP3 (did you mean .LUT?)"),
                (E, 2, 1, "`.ANDD` is not a modifier of PSETP"),
            ],
        },
        Case {
            name: "the Fermi/Kepler sync flag",
            text: "code for sm_35\n/*0008*/ ISETP.GE.AND.S P0, PT, R0, 0x10, PT ;\n/*0010*/ EXIT ;\n",
            expect: &[],
        },
    ]);
}

#[test]
fn opcodes_of_another_generation() {
    run_all(&[
        Case {
            name: "Volta call in a Pascal listing",
            text: "\tcode for sm_61\n/*0008*/ CALL.REL.NOINC 0x10 ;\n/*0010*/ EXIT ;\n",
            expect: &[(
                E,
                2,
                10,
                "`CALL` is not an instruction of sm_61 (Maxwell/Pascal): NVIDIA lists it for Volta to Hopper",
            )],
        },
        Case {
            name: "Hopper sync unit for SYNC in a Pascal listing",
            text: "\tcode for sm_61\n/*0008*/ SYNCS ;\n/*0010*/ EXIT ;\n",
            expect: &[(E, 2, 10, "`SYNCS` is not an instruction of sm_61")],
        },
        Case {
            name: "uniform datapath in a Pascal listing: a warning",
            text: "\tcode for sm_61\n/*0008*/ ULDC UR4, c[0x0][0x0] ;\n/*0010*/ EXIT ;\n",
            expect: &[(W, 2, 10, "`ULDC` is not an instruction of sm_61")],
        },
        Case {
            name: "Fermi/Kepler sync flag on any opcode",
            text: "\tcode for sm_35\n/*0008*/ IADD.S R0, R1, R2 ;\n/*0010*/ EXIT ;\n",
            expect: &[],
        },
    ]);
}

#[test]
fn address_gaps() {
    run_all(&[
        Case {
            name: "two missing 16-byte words on sm_90",
            text: "\tcode for sm_90\n\t\tFunction : k\n\
                   /*0000*/ MOV R1, c[0x0][0x28] ;\n/*0010*/ S2R R0, SR_TID.X ;\n\
                   /*0040*/ EXIT ;\n/*0050*/ BRA 0x50 ;\n",
            // Line 5, "/*0040*/ " is 9 characters.
            expect: &[(
                W,
                5,
                10,
                "32 bytes (2 instruction words) missing between 0x0010 and 0x0040",
            )],
        },
        Case {
            name: "Pascal control-word slots are no gap, a missing instruction is",
            text: "\tcode for sm_61\n/*0008*/ MOV R1, c[0x0][0x20] ;\n/*0010*/ NOP ;\n\
                   /*0018*/ NOP ;\n/*0028*/ NOP ;\n/*0038*/ EXIT ;\n",
            expect: &[(
                W,
                6,
                10,
                "8 bytes (1 instruction word) missing between 0x0028 and 0x0038",
            )],
        },
        Case {
            name: "hand-written listing without addresses",
            text: "MOV R1, R2 ;\nNOP ;\nEXIT ;\n",
            expect: &[],
        },
    ]);
}

#[test]
fn every_table_opcode_parses_without_an_unknown_opcode_diagnostic() {
    for o in isa_table::OPCODES {
        // Control instructions need targets or operands of their own; a bare name is enough
        // for the lookup.
        let text = format!("{} R1, R2 ;\n", o.name);
        let out = sass::parse(&text, None, &Limits::default());
        assert!(
            !out.diagnostics
                .iter()
                .any(|d| d.message.contains("unknown opcode")),
            "{}: {:?}",
            o.name,
            out.diagnostics
        );
        if o.role == Role::Ordinary {
            assert!(!out.has_errors(), "{}: {:?}", o.name, out.diagnostics);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// The strict checks see odd operands only after the line parsed: opcodes near real ones
    /// (or real ones) with operands built from bracket, register and non-ASCII pieces never
    /// panic, and every diagnostic points at a line of the text.
    #[test]
    fn strict_checks_never_panic(
        op in proptest::sample::select(vec!["S2R", "BRA", "BSSY", "ISETP", "LDG.E", "IADDD", "SSX", "CS2R", "CALL.REL"]),
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                "[", "]", "+", "-", ".", " ", "R2", "UR4", "URZ", "RZ", "P0", "!", "PT", "Q3",
                "SR_", "TID", ".X", "0x10", "c", "desc", "gdesc", "|", "é", "€", "𐊓", "B0", "_",
            ]),
            0..12,
        ),
        ops in 1usize..4,
    ) {
        let operand: String = pieces.concat();
        let operands = vec![operand; ops].join(", ");
        let text = format!("\tcode for sm_90\n/*0000*/ {op} {operands} ;\n/*0010*/ EXIT ;\n");
        let out = sass::parse(&text, None, &Limits::default());
        for d in &out.diagnostics {
            proptest::prop_assert!(d.line >= 1 && d.line <= 3, "{d:?}");
        }
    }
}
