//! Hand-derived trip counts of small loops written directly in the inference's IR: each
//! case says the loop in C, its header runs counted by hand, and what the analysis must
//! answer (a number, or no bound with the reason's gist).

use loopbound::ir::{Block, CmpOp, Edge, FuncOp, Input, Op, Program, Term};
use loopbound::Interval;

/// `pre: i = init; header: <body>; i = update(i); if (i op limit) goto header; exit`
/// (a do-while, as compilers rotate loops): block 0 pre, 1 header (and latch), 2 exit.
fn do_while(width: u32, init: Term, update: Term, op: CmpOp, signed: bool, limit: Term) -> Program {
    let mut p = Program::default();
    let i = p.add_var("i", width);
    let c = p.add_var("p", 1);
    let v = |t: &Term| subst(t, i);
    p.blocks.push(Block {
        ops: vec![Op {
            dst: i,
            value: init,
            guard: None,
        }],
        edges: vec![Edge {
            to: 1,
            when: Term::Bool(true),
        }],
        key: "pre".into(),
        ..Block::default()
    });
    p.blocks.push(Block {
        ops: vec![
            Op {
                dst: i,
                value: v(&update),
                guard: None,
            },
            Op {
                dst: c,
                value: Term::cmp(op, signed, Term::Var(i), v(&limit)),
                guard: None,
            },
        ],
        edges: vec![
            Edge {
                to: 1,
                when: Term::Var(c),
            },
            Edge {
                to: 2,
                when: Term::not(Term::Var(c)),
            },
        ],
        key: "loop".into(),
        ..Block::default()
    });
    p.blocks.push(Block {
        key: "exit".into(),
        ..Block::default()
    });
    p.roots = vec![0];
    p
}

/// `X` in a term stands for the loop variable.
fn x() -> Term {
    Term::Var(u32::MAX)
}

fn subst(t: &Term, i: u32) -> Term {
    match t {
        Term::Var(v) if *v == u32::MAX => Term::Var(i),
        Term::Add(a, b) => Term::add(subst(a, i), subst(b, i)),
        Term::Sub(a, b) => Term::sub(subst(a, i), subst(b, i)),
        Term::Mul(a, b) => Term::mul(subst(a, i), subst(b, i)),
        Term::Func { op, width, args } => Term::Func {
            op: *op,
            width: *width,
            args: args.iter().map(|a| subst(a, i)).collect(),
        },
        other => other.clone(),
    }
}

fn k(v: i128) -> Term {
    Term::int(32, v)
}

fn n() -> Term {
    Term::Input {
        input: Input::Param {
            name: "n".into(),
            offset: 0,
            bytes: 4,
        },
        width: 32,
    }
}

fn tid() -> Term {
    Term::Input {
        input: Input::Tid(0),
        width: 32,
    }
}

/// The loop's bound with parameter `n` = `nv` and 32 threads.
fn bound(p: Program, nv: i128) -> (Option<u64>, String) {
    assert!(p.check().is_empty(), "{:?}", p.check());
    let a = loopbound::analyse(p);
    let env = move |i: &Input| match i {
        Input::Param { .. } => Some(Interval::point(nv)),
        Input::Tid(0) => Interval::new(0, 31),
        _ => None,
    };
    let b = a.evaluate(&env);
    assert_eq!(b.len(), 1, "one loop");
    (b[0].bound, b[0].reason.clone())
}

/// `i = 0; do { i++; } while (i < n)` runs its header n times (n ≥ 1), once for n ≤ 0.
#[test]
fn counted_up_to_a_parameter() {
    let p = |nv| {
        bound(
            do_while(32, k(0), Term::add(x(), k(1)), CmpOp::Lt, true, n()),
            nv,
        )
    };
    assert_eq!(p(10).0, Some(10));
    assert_eq!(p(1).0, Some(1));
    assert_eq!(p(-5).0, Some(1));
    assert!(p(10).1.contains("i += 1"), "{}", p(10).1);
}

/// `i = 0; do { i += 3; } while (i <= 10)`: i = 3, 6, 9, 12 → 4 runs; `< 10`: 3, 6, 9, 12 →
/// also 4 (9 < 10 goes on); `< 9`: 3, 6, 9 → 3.
#[test]
fn steps_larger_than_one() {
    let run = |op, lim| {
        bound(
            do_while(32, k(0), Term::add(x(), k(3)), op, true, k(lim)),
            0,
        )
        .0
    };
    assert_eq!(run(CmpOp::Le, 10), Some(4));
    assert_eq!(run(CmpOp::Lt, 10), Some(4));
    assert_eq!(run(CmpOp::Lt, 9), Some(3));
}

/// `i = n; do { i--; } while (i > 0)`: i = n−1 … 0 → n runs.
#[test]
fn counting_down() {
    let (b, _) = bound(
        do_while(32, n(), Term::sub(x(), k(1)), CmpOp::Gt, true, k(0)),
        17,
    );
    assert_eq!(b, Some(17));
}

/// `≠` exits: `i += 2; while (i != 10)` from 0: 2, 4, …, 10 → 5 runs; from 1 the counter
/// steps over 10 and wraps around: no bound. `i += 1; while (i != n)` from tid: n − tid
/// runs, worst for tid 0.
#[test]
fn not_equal_exits() {
    let run = |init, step, lim| {
        bound(
            do_while(
                32,
                k(init),
                Term::add(x(), k(step)),
                CmpOp::Ne,
                true,
                k(lim),
            ),
            0,
        )
    };
    assert_eq!(run(0, 2, 10).0, Some(5));
    let (b, why) = run(1, 2, 10);
    assert_eq!(b, None);
    assert!(why.contains("divide"), "{why}");
    let (b, _) = bound(
        do_while(32, tid(), Term::add(x(), k(1)), CmpOp::Ne, true, n()),
        40,
    );
    assert_eq!(b, Some(40));
    // From 5 towards 3 upwards: the counter wraps around before it gets there.
    assert_eq!(run(5, 1, 3).0, None);
}

/// Wrap-around: `i += 2; while (i < n)` signed with n = INT_MAX: the last values would be
/// INT_MAX − 1 + 2, past INT_MAX — a wrap, so no bound; unsigned `i <= UINT_MAX` never
/// fails without wrapping: no bound.
#[test]
fn counters_that_could_wrap_get_no_bound() {
    let (b, why) = bound(
        do_while(32, k(0), Term::add(x(), k(2)), CmpOp::Lt, true, n()),
        i128::from(i32::MAX),
    );
    assert_eq!(b, None);
    assert!(why.contains("wrap"), "{why}");
    let (b, _) = bound(
        do_while(
            32,
            k(0),
            Term::add(x(), k(1)),
            CmpOp::Le,
            false,
            k(0xffff_ffff),
        ),
        0,
    );
    assert_eq!(b, None);
}

/// A counter moving away from its limit, or with a step of unknown sign, gives no bound.
#[test]
fn wrong_direction_and_unknown_steps() {
    let (b, _) = bound(
        do_while(32, k(0), Term::sub(x(), k(1)), CmpOp::Lt, true, k(10)),
        0,
    );
    assert_eq!(b, None);
    let (b, _) = bound(
        do_while(32, k(0), Term::add(x(), n()), CmpOp::Lt, true, k(100)),
        -3,
    );
    assert_eq!(b, None);
    // The same with a positive parameter step: 0 → 7, 14, …, 98, 105: 15 runs.
    let (b, _) = bound(
        do_while(32, k(0), Term::add(x(), n()), CmpOp::Lt, true, k(100)),
        7,
    );
    assert_eq!(b, Some(15));
}

/// Halving and doubling: `s = 16; do { s >>= 1; } while (s != 0)`: 8, 4, 2, 1, 0 → 5
/// runs; `s = 1; do { s *= 2; } while (s < 1000)`: 2, 4, …, 512, 1024 → 10 runs.
#[test]
fn geometric_counters() {
    let half = Term::func(FuncOp::ShrU, 32, vec![x(), k(1)]);
    let (b, _) = bound(do_while(32, k(16), half, CmpOp::Ne, false, k(0)), 0);
    assert_eq!(b, Some(5));
    let (b, _) = bound(
        do_while(32, k(1), Term::mul(x(), k(2)), CmpOp::Lt, false, k(1000)),
        0,
    );
    assert_eq!(b, Some(10));
    // Doubling from 0 never moves: no bound.
    let (b, _) = bound(
        do_while(32, k(0), Term::mul(x(), k(2)), CmpOp::Lt, false, k(1000)),
        0,
    );
    assert_eq!(b, None);
}

/// A 64-bit counter (`long i = 0; do { i += 5; } while (i < n64)`) with a limit beyond
/// 32 bits: ⌈(2^33 + 7) / 5⌉ runs.
#[test]
fn sixty_four_bit_counter() {
    let n64 = Term::Input {
        input: Input::Param {
            name: "n".into(),
            offset: 0,
            bytes: 8,
        },
        width: 64,
    };
    let p = do_while(
        64,
        Term::int(64, 0),
        Term::add(x(), Term::int(64, 5)),
        CmpOp::Lt,
        true,
        n64,
    );
    let big = (1i128 << 33) + 7;
    let (b, _) = bound(p, big);
    assert_eq!(b, Some(((big + 4) / 5) as u64));
}

/// A guarded update (`if (p) i++`) has the steps {1, 0}: no bound.
#[test]
fn guarded_update_is_no_induction() {
    let mut p = do_while(32, k(0), Term::add(x(), k(1)), CmpOp::Lt, true, k(10));
    let unknown = Term::Unknown { width: 1 };
    p.blocks[1].ops[0].guard = Some(unknown);
    let (b, _) = bound(p, 0);
    assert_eq!(b, None);
}
