//! Which operands a SASS instruction writes and which it reads, for the opcodes with more than
//! one destination or with predicates next to their destination. The agreement domain of the
//! warp-level CFG trusts these lists: a source read as a destination can make a divergent
//! branch look uniform (a bound too low), a destination read as a source leaves a stale
//! agreement behind. Each case is hand-read from the SASS operand order.

use isa::{sass, Limits, Register};

fn flow(line: &str) -> (Vec<Register>, Vec<Register>) {
    let out = sass::parse(&format!("{line} ;\nEXIT ;"), None, &Limits::default());
    assert!(!out.has_errors(), "{line}: {:?}", out.diagnostics);
    let k = out.kernel.expect("kernel");
    let i = &k.instructions[0];
    (i.writes.clone(), i.reads.clone())
}

fn r(n: u32) -> Register {
    Register::Gpr(n)
}

fn p(n: u32) -> Register {
    Register::Pred(n)
}

#[test]
fn lop3_writes_its_register_only_unless_a_predicate_comes_first() {
    // Found by compiling `if (x & 1)` for sm_86: R4 was read as a second destination.
    let (w, rd) = flow("LOP3.LUT R0, R4, 0x1, RZ, 0xc0, !PT");
    assert_eq!(w, vec![r(0)]);
    assert_eq!(rd, vec![r(4)]);
    let (w, rd) = flow("LOP3.LUT P0, RZ, R4, 0x1, RZ, 0xc0, !PT");
    assert_eq!(w, vec![p(0)]);
    assert_eq!(rd, vec![r(4)]);
}

#[test]
fn carries_after_the_destination_are_written_carry_ins_at_the_end_are_read() {
    let (w, rd) = flow("IADD3 R6, P0, P1, R2, c[0x0][0x160], R25");
    assert_eq!(w, vec![r(6), p(0), p(1)]);
    assert_eq!(rd, vec![r(2), r(25)]);
    let (w, rd) = flow("IADD3.X R7, RZ, R3, RZ, P0, !PT");
    assert_eq!(w, vec![r(7)]);
    assert_eq!(rd, vec![r(3), p(0), Register::CarryFlag]);
    let (w, rd) = flow("LEA.HI.X P0, R9, R4, RZ, R5");
    assert_eq!(w, vec![p(0), r(9)]);
    assert_eq!(rd, vec![r(4), r(5), Register::CarryFlag]);
}

#[test]
fn vote_writes_the_ballot_and_its_predicate_or_only_the_predicate() {
    let (w, rd) = flow("VOTE.ANY R0, PT, P0");
    assert_eq!(w, vec![r(0)]);
    assert_eq!(rd, vec![p(0)]);
    // `VOTE.ALL P2, P0`: P0 is the voted source, not a second destination.
    let (w, rd) = flow("VOTE.ALL P2, P0");
    assert_eq!(w, vec![p(2)]);
    assert_eq!(rd, vec![p(0)]);
}

#[test]
fn shuffles_and_set_predicates_keep_their_two_destinations() {
    let (w, rd) = flow("SHFL.IDX PT, R3, R0, R5, R6");
    assert_eq!(w, vec![r(3)]);
    assert_eq!(rd, vec![r(0), r(5), r(6)]);
    let (w, rd) = flow("ISETP.GE.AND P0, P1, R5, R9, PT");
    assert_eq!(w, vec![p(0), p(1)]);
    assert_eq!(rd, vec![r(5), r(9)]);
}
