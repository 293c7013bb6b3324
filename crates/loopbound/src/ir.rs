//! The dialect-neutral program the inference reads: one thread's control-flow graph, each
//! block a list of assignments to numbered variables, each edge with the condition under
//! which a thread takes it.
//!
//! Why a program of its own rather than the dialects' instructions: the three front ends
//! (SASS, PTX, GCN3) say once, in their lowering, what an instruction computes in the few
//! operations an induction variable is made of (ring arithmetic, shifts, comparisons,
//! predicate logic, loads of kernel parameters) and that everything else *writes something
//! unknown*. The analysis then never guesses an instruction's meaning: a write it does not
//! understand is an [`Term::Unknown`], and a variable nobody lowered correctly can only lose
//! a bound, never make a wrong one.
//!
//! Invariants the lowerings keep (and [`Program::check`] verifies in tests): every write of
//! the instruction to any register is an [`Op`] (over-approximating the registers a wide or
//! unknown instruction writes), ring operations combine terms of one width, and every edge
//! of the dialect's thread CFG is an [`Edge`] of its block.

/// A variable: one register of the dialect (a SASS `R7`, a PTX `%r12`, a GCN3 `s4`), or a
/// temporary of the lowering (the 64-bit value of a carry chain).
pub type Var = u32;

/// A value the launch fixes before the first instruction: kernel parameters, constant-bank
/// words, launch dimensions and thread coordinates. The same in every iteration of every
/// loop (per thread); [`crate::Env`] gives each an interval for a launch.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Input {
    /// SASS constant-bank word `c[bank][offset]` (bank 0 holds the launch dimensions and the
    /// kernel parameters: `sim::ConstantLayout`).
    ConstWord { bank: u32, offset: i64 },
    /// PTX `ld.param` of `bytes` bytes at `offset` into parameter `name`.
    Param {
        name: String,
        offset: i64,
        bytes: u32,
    },
    /// GCN3: a 32-bit word at byte `offset` of the kernarg segment.
    Kernarg { offset: i64 },
    /// GCN3: a 32-bit word at byte `offset` of the HSA dispatch packet.
    Dispatch { offset: i64 },
    /// GCN3: the 64-bit kernarg segment pointer the hardware puts in SGPRs.
    KernargPointer,
    /// GCN3: the 64-bit dispatch packet pointer.
    DispatchPointer,
    /// `threadIdx` along axis 0–2 (`SR_TID.X`, `%tid.x`, GCN3 `v0`).
    Tid(u8),
    /// `blockIdx` (`SR_CTAID.X`, `%ctaid.x`, GCN3 workgroup id SGPRs).
    Ctaid(u8),
    /// `blockDim` (`%ntid.x`; on SASS a constant-bank word).
    Ntid(u8),
    /// `gridDim` (`%nctaid.x`).
    Nctaid(u8),
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const AXES: [&str; 3] = ["x", "y", "z"];
        let axis = |a: &u8| AXES.get(usize::from(*a)).copied().unwrap_or("?");
        match self {
            Input::ConstWord { bank, offset } => write!(f, "c[{bank:#x}][{offset:#x}]"),
            Input::Param { name, offset, .. } if *offset == 0 => write!(f, "{name}"),
            Input::Param { name, offset, .. } => write!(f, "{name}+{offset}"),
            Input::Kernarg { offset } => write!(f, "kernarg[{offset:#x}]"),
            Input::Dispatch { offset } => write!(f, "dispatch[{offset:#x}]"),
            Input::KernargPointer => write!(f, "kernarg_ptr"),
            Input::DispatchPointer => write!(f, "dispatch_ptr"),
            Input::Tid(a) => write!(f, "tid.{}", axis(a)),
            Input::Ctaid(a) => write!(f, "ctaid.{}", axis(a)),
            Input::Ntid(a) => write!(f, "ntid.{}", axis(a)),
            Input::Nctaid(a) => write!(f, "nctaid.{}", axis(a)),
        }
    }
}

/// A comparison. Signedness is separate ([`Term::Cmp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    /// `!(a op b)` is `a op.negated() b` (integers: no unordered case).
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }

    /// `a op b` is `b op.swapped() a`.
    pub fn swapped(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }

    /// The operator as written in C: `<`, `≤`, …
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "≤",
            CmpOp::Gt => ">",
            CmpOp::Ge => "≥",
            CmpOp::Eq => "=",
            CmpOp::Ne => "≠",
        }
    }

    /// `a op b` for integers.
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// A function that is not a ring operation (its result modulo 2^w is not determined by its
/// operands modulo 2^w): kept as a node of its operands, evaluated on intervals when they
/// are known ([`crate::expr`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FuncOp {
    /// Logical shift right by the second operand.
    ShrU,
    /// Arithmetic shift right by the second operand.
    ShrS,
    And,
    Or,
    Xor,
    /// Bitwise not.
    Not,
    MinS,
    MaxS,
    MinU,
    MaxU,
    DivU,
    DivS,
    RemU,
    RemS,
    AbsS,
    /// Zero extension of the operand to the result width.
    Zext,
    /// Sign extension of the operand to the result width.
    Sext,
    /// `(hi, lo)`: the 2w-bit value `hi · 2^w + lo`.
    Concat,
    /// The upper half of the operand.
    Hi,
    /// The low (result width) bits of a wider operand that is not a polynomial of
    /// narrower values.
    Low,
    /// `(cond, a, b)`: `a` where `cond` holds, else `b`.
    Select,
    /// A ring operation whose polynomial grew past the store's limits (kept exact as a node).
    Add,
    Mul,
}

/// An expression over variables, evaluated in the state before the op.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Term {
    Var(Var),
    /// A `width`-bit integer constant (any representative modulo 2^width).
    Const {
        width: u32,
        value: i128,
    },
    /// A truth value.
    Bool(bool),
    /// A launch input read as a `width`-bit integer.
    Input {
        input: Input,
        width: u32,
    },
    Add(Box<Term>, Box<Term>),
    Sub(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
    Neg(Box<Term>),
    /// The low `width` bits of the operand (a ring operation).
    Trunc {
        width: u32,
        term: Box<Term>,
    },
    /// A non-ring function; `width` is the result's.
    Func {
        op: FuncOp,
        width: u32,
        args: Vec<Term>,
    },
    /// A comparison of two integers of one width: a truth value.
    Cmp {
        op: CmpOp,
        signed: bool,
        a: Box<Term>,
        b: Box<Term>,
    },
    Not(Box<Term>),
    And(Box<Term>, Box<Term>),
    Or(Box<Term>, Box<Term>),
    Xor(Box<Term>, Box<Term>),
    /// A `width`-bit load from read-only memory at the address `base + offset` (GCN3 scalar
    /// loads from the kernarg segment and the dispatch packet): a launch input when `base`
    /// is one of the launch's pointers, otherwise unknown.
    Load {
        base: Box<Term>,
        offset: i64,
        width: u32,
    },
    /// A value the lowering does not model, different at each execution (a load, a float,
    /// a clock); `width` 1 is a truth value.
    Unknown {
        width: u32,
    },
}

/// Constructors of the node they name (`Term::add` builds an `Add` node; it computes
/// nothing), hence the names of the arithmetic traits.
#[allow(clippy::should_implement_trait)]
impl Term {
    pub fn var(v: Var) -> Term {
        Term::Var(v)
    }

    pub fn int(width: u32, value: i128) -> Term {
        Term::Const { width, value }
    }

    pub fn add(a: Term, b: Term) -> Term {
        Term::Add(Box::new(a), Box::new(b))
    }

    pub fn sub(a: Term, b: Term) -> Term {
        Term::Sub(Box::new(a), Box::new(b))
    }

    pub fn mul(a: Term, b: Term) -> Term {
        Term::Mul(Box::new(a), Box::new(b))
    }

    pub fn neg(a: Term) -> Term {
        Term::Neg(Box::new(a))
    }

    pub fn func(op: FuncOp, width: u32, args: Vec<Term>) -> Term {
        Term::Func { op, width, args }
    }

    pub fn cmp(op: CmpOp, signed: bool, a: Term, b: Term) -> Term {
        Term::Cmp {
            op,
            signed,
            a: Box::new(a),
            b: Box::new(b),
        }
    }

    pub fn not(a: Term) -> Term {
        Term::Not(Box::new(a))
    }

    pub fn and(a: Term, b: Term) -> Term {
        Term::And(Box::new(a), Box::new(b))
    }

    pub fn or(a: Term, b: Term) -> Term {
        Term::Or(Box::new(a), Box::new(b))
    }

    pub fn xor(a: Term, b: Term) -> Term {
        Term::Xor(Box::new(a), Box::new(b))
    }
}

/// `dst := value`, only in threads where `guard` holds (the others keep `dst`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub dst: Var,
    pub value: Term,
    pub guard: Option<Term>,
}

/// An edge of the thread CFG, taken by a thread when `when` holds (after the block's ops).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub to: usize,
    pub when: Term,
}

/// A basic block of the dialect's thread CFG.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    pub ops: Vec<Op>,
    pub edges: Vec<Edge>,
    /// After the ops, every variable is unknown (a call into code the lowering does not
    /// follow: its callee may write any register).
    pub clobbers_all: bool,
    /// The dialect's name of the block's first instruction: what `loop_bounds` keys a loop
    /// header on (SASS byte address, PTX label or program counter, GCN3 label).
    pub key: String,
    /// The source line of the block's first instruction.
    pub line: u32,
    /// The index (in the dialect's instruction list) of the block's first instruction.
    pub first: usize,
    /// The lowering could not state when a thread takes which of this block's edges (a
    /// SASS `BRA.DIV`, a condition-code test, an indirect jump): each edge's condition is
    /// `true`, a necessary condition only. [`crate::uniform`] reads such a block as a branch
    /// threads may leave different ways.
    pub unknown_conditions: bool,
}

/// One variable's name and width in bits (1: a predicate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarInfo {
    pub name: String,
    pub width: u32,
}

/// A lowered function: blocks, variables, and what variables hold on entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    pub vars: Vec<VarInfo>,
    pub blocks: Vec<Block>,
    /// Blocks where threads start: the kernel's entry, then the entries of subroutines the
    /// lowering analyses on their own (SASS `CAL` targets). Variables not in `initial` are
    /// unknown there.
    pub roots: Vec<usize>,
    /// Values of variables at the first root (GCN3: the kernarg pointer, the work-item ids).
    pub initial: Vec<(Var, Term)>,
    /// The scratch variables of [`Program::temp`], by position and width.
    temps: Vec<((usize, u32), Var)>,
}

impl Program {
    /// Adds a variable; its number.
    pub fn add_var(&mut self, name: impl Into<String>, width: u32) -> Var {
        self.vars.push(VarInfo {
            name: name.into(),
            width,
        });
        (self.vars.len() - 1) as Var
    }

    /// Scratch variable number `i` of width `width`, the same one each time it is asked for:
    /// what a lowering writes an instruction's results to before it assigns them, so that
    /// every source is read before any destination is written. Shared by every instruction
    /// (a scratch value never lives past its instruction), so the variables stay few: one
    /// fresh variable per instruction made a 92 000-line GCN3 kernel 9 000 variables and
    /// the symbolic pass (blocks × variables) 800 MB.
    pub fn temp(&mut self, i: usize, width: u32) -> Var {
        if let Some(&(_, v)) = self.temps.iter().find(|(k, _)| *k == (i, width)) {
            return v;
        }
        let v = self.add_var(format!("t{i}.{width}"), width);
        self.temps.push(((i, width), v));
        v
    }

    /// An instruction's writes `(destination, value)` made simultaneous: with more than one,
    /// each value goes first into its [`Program::temp`] (ops appended to `ops`) and the
    /// writes returned assign the temporaries, so that every source is read before any
    /// destination is written; one write is returned as it is.
    pub fn read_before_write(
        &mut self,
        writes: Vec<(Var, Term)>,
        ops: &mut Vec<Op>,
    ) -> Vec<(Var, Term)> {
        if writes.len() <= 1 {
            return writes;
        }
        let mut temps = Vec::with_capacity(writes.len());
        for (i, (v, t)) in writes.into_iter().enumerate() {
            let tmp = self.temp(i, self.width(v));
            ops.push(Op {
                dst: tmp,
                value: t,
                guard: None,
            });
            temps.push((v, Term::Var(tmp)));
        }
        temps
    }

    /// The width of `v` (32 for a variable out of range).
    pub fn width(&self, v: Var) -> u32 {
        self.vars.get(v as usize).map_or(32, |i| i.width)
    }

    /// Inconsistencies of a lowering (edges or variables out of range, ring operations on
    /// mismatched widths): a lowering bug, listed for tests.
    pub fn check(&self) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.blocks.len();
        for (b, block) in self.blocks.iter().enumerate() {
            for e in &block.edges {
                if e.to >= n {
                    out.push(format!("block {b}: edge to {} out of range", e.to));
                }
                if let Err(m) = self.width_of(&e.when) {
                    out.push(format!("block {b}: edge condition: {m}"));
                }
            }
            for (i, op) in block.ops.iter().enumerate() {
                if op.dst as usize >= self.vars.len() {
                    out.push(format!(
                        "block {b} op {i}: variable {} out of range",
                        op.dst
                    ));
                    continue;
                }
                match self.width_of(&op.value) {
                    Ok(w) if w != self.width(op.dst) => out.push(format!(
                        "block {b} op {i}: {}-bit value into {} ({} bits)",
                        w,
                        self.vars[op.dst as usize].name,
                        self.width(op.dst)
                    )),
                    Err(m) => out.push(format!("block {b} op {i}: {m}")),
                    _ => {}
                }
            }
        }
        for &r in &self.roots {
            if r >= n {
                out.push(format!("root {r} out of range"));
            }
        }
        out
    }

    /// The width of `t`, or why it has none.
    pub fn width_of(&self, t: &Term) -> Result<u32, String> {
        let same = |a: &Term, b: &Term| -> Result<u32, String> {
            let (x, y) = (self.width_of(a)?, self.width_of(b)?);
            if x == y {
                Ok(x)
            } else {
                Err(format!("{x}-bit and {y}-bit operands in {t:?}"))
            }
        };
        match t {
            Term::Var(v) => Ok(self.width(*v)),
            Term::Const { width, .. }
            | Term::Input { width, .. }
            | Term::Trunc { width, .. }
            | Term::Func { width, .. }
            | Term::Load { width, .. }
            | Term::Unknown { width } => Ok(*width),
            Term::Bool(_) => Ok(1),
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => same(a, b),
            Term::Neg(a) => self.width_of(a),
            Term::Cmp { a, b, .. } => same(a, b).map(|_| 1),
            Term::Not(a) => self.width_of(a).map(|_| 1),
            Term::And(a, b) | Term::Or(a, b) | Term::Xor(a, b) => same(a, b),
        }
    }
}
