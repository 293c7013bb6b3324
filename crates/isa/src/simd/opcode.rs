//! The Sim-D instruction set: one [`Op`] per mnemonic and its [`OpSpec`] (category, operand
//! shapes, vector/scalar, control-stack behaviour).
//!
//! These are ISA facts of Sim-D (Spliet & Mullins, §3.1: scalar and vector instructions,
//! four register files, CSTACK), written down from the instruction list of the public Sim-D
//! reference implementation (`src/isa/model/Instruction.cpp`, its `op_validate` table): which
//! operands each instruction takes, whether it is a vector instruction (issued once per
//! 128-lane sub-vector) and whether it pushes onto the control stack.

/// Instruction class. The timing model (Sim-D §5.3) charges by class: vector instructions of
/// [`Category::Rcp`] occupy the RCP-units (32 sub-vector issues instead of 8), load/store
/// instructions end a basic block and start an access phase (§5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// Floating-point arithmetic on the SP-units (and `nop`).
    Fp,
    /// Reciprocal, reciprocal square root, sine, cosine: the RCP-units (one per 4 SP-units).
    Rcp,
    /// Integer and boolean arithmetic, vector or scalar.
    Int,
    /// Copies, conversions, buffer queries.
    DataCopy,
    /// DRAM and scratchpad transfers.
    LoadStore,
    /// Branches, calls, control-stack manipulation, exit.
    ControlFlow,
    /// Predicate tests and boolean combination.
    Predicate,
    /// Debug printing (no effect on timing beyond its issue slot).
    Debug,
}

/// Operand-shape bits: which kinds of operand a source or destination slot accepts.
pub mod shape {
    /// The operand may be omitted.
    pub const OMIT: u8 = 1;
    /// Vector register `vN`.
    pub const VGPR: u8 = 2;
    /// Scalar register `sN`.
    pub const SGPR: u8 = 4;
    /// Predicate register `pN`.
    pub const PR: u8 = 8;
    /// Immediate value or branch-target label.
    pub const IMM: u8 = 16;
    /// Vector special-purpose register `vc.*`.
    pub const VSP: u8 = 32;
    /// Scalar special-purpose register `sc.*`.
    pub const SSP: u8 = 64;
}

use shape::{IMM, OMIT, PR, SGPR, SSP, VGPR, VSP};

/// What the assembler needs to know about one mnemonic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpSpec {
    pub name: &'static str,
    pub category: Category,
    /// Sub-operation names (`.ez`, `.if`, `.vec2`, ...). Empty when the op takes none.
    pub subops: &'static [&'static str],
    /// Whether the sub-operation may be left out (the first entry of `subops` is then the
    /// default, as for `mad` and `ldglin`).
    pub subop_optional: bool,
    /// Accepted shapes of each source operand slot.
    pub srcs: &'static [u8],
    /// Accepted shapes of the destination; `OMIT` means the instruction writes no named
    /// destination and the text lists only sources.
    pub dst: u8,
    /// Vector instruction: issued once per sub-vector (Sim-D §5.3).
    pub vector: bool,
    /// Must wait until pending scalar special-register writes (stride descriptors) finish.
    pub blocks_on_ssp_writes: bool,
    /// Pushes an entry onto the control stack (CSTACK, Sim-D §3.1).
    pub pushes_cstack: bool,
}

const TEST: &[&str] = &["ez", "nz", "g", "ge", "l", "le"];
const PBOOL: &[&str] = &["and", "or", "nand", "nor"];
const CPUSH: &[&str] = &["if", "brk", "jc"];
const CVT: &[&str] = &["i2f", "f2i"];
const LIN: &[&str] = &["", "vec2", "vec4"];
const FPU: &[&str] = &["", "neg"];
const PRINTCMASK: &[&str] = &["if", "brk", "jc", "exit"];
const BUFQUERY: &[&str] = &["dim_x", "dim_y"];

macro_rules! ops {
    ($( $variant:ident => ($name:literal, $cat:ident, $subops:expr, $opt:expr, [$($src:expr),*], $dst:expr, $vec:expr, $bssp:expr, $cpush:expr) ),* $(,)?) => {
        /// A known Sim-D mnemonic.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op { $($variant),* }

        impl Op {
            /// Every known op, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];

            /// The assembler facts for this op.
            pub fn spec(self) -> OpSpec {
                match self {
                    $(Op::$variant => OpSpec {
                        name: $name,
                        category: Category::$cat,
                        subops: $subops,
                        subop_optional: $opt,
                        srcs: &[$($src),*],
                        dst: $dst,
                        vector: $vec,
                        blocks_on_ssp_writes: $bssp,
                        pushes_cstack: $cpush,
                    }),*
                }
            }
        }
    };
}

const NONE: &[&str] = &[];

ops! {
    Nop => ("nop", Fp, NONE, false, [], OMIT, false, false, false),
    Test => ("test", Predicate, TEST, false, [VGPR], PR, true, false, false),
    ITest => ("itest", Predicate, TEST, false, [VGPR], PR, true, false, false),
    PBool => ("pbool", Predicate, PBOOL, false, [PR, PR], PR, true, false, false),
    J => ("j", ControlFlow, NONE, false, [IMM], OMIT, false, false, false),
    Sicj => ("sicj", ControlFlow, TEST, false, [IMM, SGPR], OMIT, false, false, false),
    Bra => ("bra", ControlFlow, NONE, false, [IMM, PR], OMIT | VSP, true, false, true),
    Call => ("call", ControlFlow, NONE, false, [IMM, PR | VSP | OMIT], OMIT | VSP, true, false, true),
    CPush => ("cpush", ControlFlow, CPUSH, false, [IMM, PR | OMIT], OMIT, true, false, true),
    CMask => ("cmask", ControlFlow, NONE, false, [PR], OMIT | VSP, true, false, false),
    CPop => ("cpop", ControlFlow, NONE, false, [], OMIT, true, false, false),
    Ret => ("ret", ControlFlow, NONE, false, [PR], OMIT | VSP, true, false, false),
    Brk => ("brk", ControlFlow, NONE, false, [PR], OMIT | VSP, true, false, false),
    Exit => ("exit", ControlFlow, NONE, false, [PR | VSP | OMIT], OMIT | VSP, true, false, false),
    Mad => ("mad", Fp, FPU, true, [VGPR, VGPR | SGPR | IMM, VGPR], VGPR, true, false, false),
    Mul => ("mul", Fp, FPU, true, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Add => ("add", Fp, FPU, true, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Min => ("min", Fp, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Max => ("max", Fp, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Abs => ("abs", Fp, NONE, false, [VGPR], VGPR, true, false, false),
    Mov => ("mov", DataCopy, NONE, false, [IMM | VSP], VGPR, true, false, false),
    MovVsp => ("movvsp", DataCopy, NONE, false, [IMM | VGPR], VSP, true, false, false),
    SMovSsp => ("smovssp", DataCopy, NONE, false, [IMM | SGPR], SSP, false, false, false),
    Cvt => ("cvt", DataCopy, CVT, false, [VSP | SSP | VGPR], VGPR, true, false, false),
    SCvt => ("scvt", DataCopy, CVT, false, [SGPR | SSP], SGPR, false, false, false),
    BufQuery => ("bufquery", DataCopy, BUFQUERY, false, [IMM], SGPR, false, false, false),
    IAdd => ("iadd", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    ISub => ("isub", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    IMul => ("imul", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    IMad => ("imad", Int, NONE, false, [VGPR, VGPR | SGPR | IMM, VGPR], VGPR, true, false, false),
    IMin => ("imin", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    IMax => ("imax", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Shl => ("shl", Int, NONE, false, [VGPR, SGPR | IMM], VGPR, true, false, false),
    Shr => ("shr", Int, NONE, false, [VGPR, SGPR | IMM], VGPR, true, false, false),
    And => ("and", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Or => ("or", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Xor => ("xor", Int, NONE, false, [VGPR, VGPR | SGPR | IMM], VGPR, true, false, false),
    Not => ("not", Int, NONE, false, [VGPR], VGPR, true, false, false),
    SMov => ("smov", DataCopy, NONE, false, [SSP | IMM], SGPR, false, false, false),
    SIAdd => ("siadd", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SISub => ("sisub", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SIMul => ("simul", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SIMad => ("simad", Int, NONE, false, [SGPR, SGPR | IMM, SGPR], SGPR, false, false, false),
    SIMin => ("simin", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SIMax => ("simax", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SINeg => ("sineg", Int, NONE, false, [SGPR], SGPR, false, false, false),
    SIBFind => ("sibfind", Int, NONE, false, [SGPR], SGPR, false, false, false),
    SShl => ("sshl", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SShr => ("sshr", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SIDiv => ("sidiv", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SIMod => ("simod", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SAnd => ("sand", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SOr => ("sor", Int, NONE, false, [SGPR, SGPR | IMM], SGPR, false, false, false),
    SNot => ("snot", Int, NONE, false, [SGPR], SGPR, false, false, false),
    Rcp => ("rcp", Rcp, NONE, false, [VGPR], VGPR, true, false, false),
    Rsqrt => ("rsqrt", Rcp, NONE, false, [VGPR], VGPR, true, false, false),
    Sin => ("sin", Rcp, NONE, false, [VGPR], VGPR, true, false, false),
    Cos => ("cos", Rcp, NONE, false, [VGPR], VGPR, true, false, false),
    LdgLin => ("ldglin", LoadStore, LIN, true, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], VGPR | VSP, false, false, false),
    StgLin => ("stglin", LoadStore, LIN, true, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], VGPR | VSP, false, false, false),
    LdgBIdx => ("ldgbidx", LoadStore, NONE, false, [IMM], VSP | OMIT, false, false, false),
    StgBIdx => ("stgbidx", LoadStore, NONE, false, [IMM], VSP | OMIT, false, false, false),
    LdgCIdx => ("ldgcidx", LoadStore, NONE, false, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], VSP | OMIT, false, true, false),
    StgCIdx => ("stgcidx", LoadStore, NONE, false, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], VSP | OMIT, false, true, false),
    LdgIdxIt => ("ldgidxit", LoadStore, NONE, false, [IMM], VGPR, false, false, false),
    StgIdxIt => ("stgidxit", LoadStore, NONE, false, [IMM], VGPR, false, false, false),
    Ldg2SpTile => ("ldg2sptile", LoadStore, NONE, false, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], IMM, false, false, false),
    Stg2SpTile => ("stg2sptile", LoadStore, NONE, false, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], IMM, false, false, false),
    Sldg => ("sldg", LoadStore, NONE, false, [IMM, IMM | OMIT], SGPR, false, false, false),
    Sldsp => ("sldsp", LoadStore, NONE, false, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], SGPR, false, true, false),
    LdspLin => ("ldsplin", LoadStore, LIN, true, [IMM, IMM | SGPR | OMIT, IMM | SGPR | OMIT], VGPR | VSP, false, false, false),
    StspLin => ("stsplin", LoadStore, LIN, true, [IMM, IMM | OMIT, IMM | SGPR | OMIT], VGPR | VSP, false, false, false),
    LdspBIdx => ("ldspbidx", LoadStore, NONE, false, [IMM], VSP | OMIT, false, false, false),
    StspBIdx => ("stspbidx", LoadStore, NONE, false, [IMM], VSP | OMIT, false, false, false),
    PrintSgpr => ("printsgpr", Debug, NONE, false, [SGPR], OMIT, false, false, false),
    PrintVgpr => ("printvgpr", Debug, NONE, false, [VGPR, IMM], OMIT, false, false, false),
    PrintPr => ("printpr", Debug, NONE, false, [PR], OMIT, true, false, false),
    PrintCmask => ("printcmask", Debug, PRINTCMASK, false, [], OMIT, true, false, false),
    PrintTrace => ("printtrace", Debug, NONE, false, [IMM], OMIT, false, false, false),
}

impl Op {
    /// Looks a mnemonic (without sub-operation) up.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.iter().copied().find(|op| op.spec().name == name)
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn category(self) -> Category {
        self.spec().category
    }

    /// Global (DRAM) transfers: the access phases on the DRAM resource (Sim-D §4.1).
    pub fn is_dram_access(self) -> bool {
        self.category() == Category::LoadStore && !self.is_scratchpad_access()
    }

    /// Scratchpad ↔ register-file transfers: access phases on the SP resource, or compute,
    /// depending on the scheduling policy (Sim-D §4.2, §5.6).
    pub fn is_scratchpad_access(self) -> bool {
        matches!(
            self,
            Op::LdspBIdx | Op::LdspLin | Op::StspBIdx | Op::StspLin | Op::Sldsp
        )
    }

    /// Stores to DRAM (the final phase of a work-group, Sim-D §4.1).
    pub fn is_global_store(self) -> bool {
        matches!(
            self,
            Op::Stg2SpTile | Op::StgBIdx | Op::StgCIdx | Op::StgLin | Op::StgIdxIt
        )
    }

    /// Scalar integer division/modulo: the non-pipelined 8-cycle radix-16 divider (§3.1).
    pub fn is_divide(self) -> bool {
        matches!(self, Op::SIDiv | Op::SIMod)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for &op in Op::ALL {
            assert_eq!(Op::from_name(op.name()), Some(op));
        }
        assert_eq!(Op::ALL.len(), 79);
    }

    #[test]
    fn access_classes_partition_load_store() {
        let dram = Op::ALL.iter().filter(|o| o.is_dram_access()).count();
        let sp = Op::ALL.iter().filter(|o| o.is_scratchpad_access()).count();
        let ldst = Op::ALL
            .iter()
            .filter(|o| o.category() == Category::LoadStore)
            .count();
        assert_eq!((dram, sp, ldst), (11, 5, 16));
    }
}
