//! LP programs that made the previous LP solver (`minilp` 0.2.2) abort the process, kept as
//! regression tests of the LP seam (`ipet::lp`) and both branch and bounds on top of it.
//!
//! `mandelbrot_singular_basis` is the IPET integer program of the warp-level CFG of
//! `sass-modern/sm_61/Mandelbrot__Mandelbrot0_float.sass` (warp-cfg mode, `groups=false`),
//! cut down by delta debugging (rows, then variables) to 25 variables and 25 rows while
//! `minilp` still panicked on it: `solver.rs:1301: unwrap on Err(SingularMatrix)` inside
//! `ipet::branch_and_bound::maximize`. The same panic hit 21 (kernel, flag) pairs of the
//! modern SASS corpus in warp-cfg mode (`agreement=false`, `cyclic_stacks=false`,
//! `pending_agreement=false`, `groups=false` on bitonic/odd-even sort, warp-aggregated
//! atomics, binary partition and Mandelbrot kernels), which the CLI reported as exit 134.

use ipet::binary::{maximize_binary, BinaryLimits};
use ipet::branch_and_bound::{maximize, IntegerProgram, LinearConstraint, Relation};
use ipet::lp::{Lp, LpAnswer};

use Relation::{Eq, Le};

/// The cut-down program, as the IPET builder wrote it: flow rows of a chain of loop
/// headers, loop rows `count(h) <= 10 · entries(h)` that name the entry edge twice (once
/// as in-flow, once with `-10`), right-hand sides of `-0.0`, and one objective term.
///
/// Its only feasible point is 0: row 1 pins `x0 = 0`; each loop row then reads
/// `x_body <= 9 · x_entry = 0`, and the flow rows carry the zero down the chain
/// (`x2 = x0 + x1`, `x4 = x2 + x3`, …, `x21 = x19 + x20`, `x24 = x23 = x22 = x20`). A
/// dependent, highly degenerate system: every basis of the LP is degenerate at 0.
fn mandelbrot_singular_basis() -> IntegerProgram {
    type Row<'a> = (Relation, &'a [(usize, f64)], f64);
    let rows: &[Row] = &[
        (Eq, &[(0, 1.0), (1, 1.0), (2, -1.0)], -0.0),
        (Eq, &[(0, -1.0)], -0.0),
        (Eq, &[(2, 1.0), (3, 1.0), (4, -1.0)], -0.0),
        (Eq, &[(4, 1.0), (5, -1.0)], -0.0),
        (Eq, &[(5, 1.0), (6, 1.0), (7, -1.0)], -0.0),
        (Eq, &[(7, 1.0), (8, 1.0), (9, -1.0)], -0.0),
        (Eq, &[(9, 1.0), (10, 1.0), (11, -1.0)], -0.0),
        (Eq, &[(11, 1.0), (12, 1.0), (13, -1.0)], -0.0),
        (Eq, &[(14, 1.0), (15, 1.0), (16, -1.0)], -0.0),
        (Eq, &[(13, 1.0), (14, -1.0)], -0.0),
        (Eq, &[(16, 1.0), (17, 1.0), (18, -1.0)], -0.0),
        (Eq, &[(18, 1.0), (19, -1.0)], -0.0),
        (Eq, &[(19, 1.0), (20, 1.0), (21, -1.0)], -0.0),
        (Eq, &[(22, 1.0), (23, -1.0)], -0.0),
        (Eq, &[(23, 1.0), (24, -1.0)], -0.0),
        (Eq, &[(24, 1.0), (20, -1.0)], -0.0),
        (Le, &[(0, 1.0), (1, 1.0), (0, -10.0)], 0.0),
        (Le, &[(2, 1.0), (3, 1.0), (2, -10.0)], 0.0),
        (Le, &[(5, 1.0), (6, 1.0), (5, -10.0)], 0.0),
        (Le, &[(7, 1.0), (8, 1.0), (7, -10.0)], 0.0),
        (Le, &[(9, 1.0), (10, 1.0), (9, -10.0)], 0.0),
        (Le, &[(11, 1.0), (12, 1.0), (11, -10.0)], 0.0),
        (Le, &[(14, 1.0), (15, 1.0), (14, -10.0)], 0.0),
        (Le, &[(16, 1.0), (17, 1.0), (16, -10.0)], 0.0),
        (Le, &[(19, 1.0), (20, 1.0), (19, -10.0)], 0.0),
    ];
    let mut objective = vec![0.0; 25];
    objective[24] = 1.0;
    IntegerProgram {
        objective,
        constraints: rows
            .iter()
            .map(|&(relation, terms, rhs)| LinearConstraint {
                terms: terms.to_vec(),
                relation,
                rhs,
            })
            .collect(),
    }
}

#[test]
fn mandelbrot_singular_basis_branch_and_bound() {
    let p = mandelbrot_singular_basis();
    let out = maximize(&p, 2_000).expect("the program is feasible and bounded");
    assert!(out.complete);
    assert_eq!(out.values, Some(vec![0.0; 25]));
    assert_eq!(out.objective, Some(0.0));
    assert!(out.lp_bound.abs() < 1e-9, "LP bound {}", out.lp_bound);
}

#[test]
fn mandelbrot_singular_basis_lp_seam() {
    let p = mandelbrot_singular_basis();
    let mut lp = Lp::new();
    for &c in &p.objective {
        lp.add_var(c, 0.0, f64::INFINITY).expect("finite");
    }
    for con in &p.constraints {
        lp.add_row(&con.terms, con.relation, con.rhs)
            .expect("valid row");
    }
    let LpAnswer::Optimal(opt) = lp.solve().expect("the solver copes") else {
        panic!("the LP has the single feasible point 0");
    };
    assert!(opt.objective().abs() < 1e-9);
    assert!(
        opt.values().iter().all(|x| x.abs() < 1e-9),
        "{:?}",
        opt.values()
    );
    // The warm-started restriction the branch and bound would make next.
    match opt
        .restrict(24, Relation::Ge, 1.0)
        .expect("the solver copes")
    {
        LpAnswer::Infeasible => {}
        other => panic!("x24 >= 1 contradicts x24 = 0: {other:?}"),
    }
}

#[test]
fn mandelbrot_singular_basis_binary_with_root_lp() {
    let p = mandelbrot_singular_basis();
    for root_lp in [true, false] {
        let limits = BinaryLimits {
            root_lp,
            ..BinaryLimits::default()
        };
        let out = maximize_binary(&p, &[], &limits).expect("feasible");
        assert_eq!(out.objective, 0);
        assert_eq!(out.values, vec![false; 25]);
        assert_eq!(out.lp_bound.is_some(), root_lp);
    }
}

/// A row whose repeated terms cancel: `-0.03·x + 0.01·x + 0.02·x <= 0` is `0 <= 0`, but the
/// floating-point sum of the coefficients is `3.5e-18`. Summed naively, the row became
/// `3.5e-18·x <= 0` and branch and bound answered 0 for `max x, x <= 1` (the proptest of
/// `lp_degenerate` found it in CI); the optimum is 1, through both the seam and the search.
#[test]
fn cancelling_repeated_terms_are_zero() {
    let cancelling = [(0, -0.03), (0, 0.01), (0, 0.02)];
    assert_ne!(-0.03 + 0.01 + 0.02, 0.0, "the sum must not cancel exactly");
    let program = IntegerProgram {
        objective: vec![1.0],
        constraints: vec![
            LinearConstraint {
                terms: vec![(0, 1.0)],
                relation: Le,
                rhs: 1.0,
            },
            LinearConstraint {
                terms: cancelling.to_vec(),
                relation: Le,
                rhs: 0.0,
            },
        ],
    };
    let out = maximize(&program, 100).expect("feasible and bounded");
    assert_eq!(out.objective, Some(1.0));
    let mut lp = Lp::new();
    lp.add_var(1.0, 0.0, 1.0).expect("finite");
    lp.add_row(&cancelling, Le, 0.0).expect("in range");
    match lp.solve().expect("solves") {
        LpAnswer::Optimal(o) => assert_eq!(o.objective(), 1.0),
        other => panic!("{other:?}"),
    }
}
