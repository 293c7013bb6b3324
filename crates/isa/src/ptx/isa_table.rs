//! Every opcode of the PTX ISA 8.x (NVIDIA, "Parallel Thread Execution ISA", version 8.5,
//! chapter 9.7 "Instructions"), each with its class, the section that defines it, a one-line
//! description (for hover help) and the modifiers it accepts.
//!
//! What this module *is*: a lookup table written for this project (names and modifier
//! spellings are the ISA document's), plus the small edit distance the parser uses to say
//! "did you mean …?". What it is *not*: a validator of modifier *combinations* or operand
//! types — a modifier is accepted when the ISA lists it for the opcode in any form.
//!
//! Multi-word opcodes (`bar.warp.sync`, `cp.async.bulk.tensor`, `mbarrier.try_wait`) are
//! looked up by the longest dotted prefix of the mnemonic, so `cp.async.ca.shared.global`
//! is `cp.async` with modifiers `ca, shared, global`.

/// What an opcode does, at the grain the analyses cost and the strictness rules need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// Integer, floating-point, logic, comparison, selection, move and conversion.
    Alu,
    /// Special-function unit: approximate transcendentals, reciprocal, square root.
    Sfu,
    /// Loads, stores, atomics, reductions, prefetches; the space is in the modifiers
    /// ([`super::Instruction::state_space`]).
    Memory,
    /// Texture and surface instructions (§9.7 "Texture Instructions", "Surface Instructions").
    Texture,
    /// Changes the flow of control of a thread: `bra`, `brx.idx`, `call`, `ret`, `exit`,
    /// `trap`, `brkpt`.
    Control,
    /// Waits for, or arrives at, a barrier: `bar`, `barrier`, `bar.warp.sync`, `mbarrier.*`.
    Barrier,
    /// Orders memory accesses: `membar`, `fence`.
    Fence,
    /// Computes across the lanes of a warp: `shfl`, `vote`, `match`, `redux`, `activemask`,
    /// `elect`.
    WarpCollective,
    /// Warp- or warpgroup-level matrix instructions: `mma`, `wmma.*`, `ldmatrix`, `wgmma.*`.
    Tensor,
    /// Asynchronous copies and their completion mechanisms: `cp.async*`, `st.async`.
    Async,
    /// Everything else: `nanosleep`, `pmevent`, `setmaxnreg`, stack manipulation.
    Misc,
}

impl OpClass {
    /// True when an instruction of this class can change control flow, divergence or the
    /// agreement of lanes — a misspelling of such an opcode must not be read generically.
    pub fn steers_control(self) -> bool {
        matches!(
            self,
            OpClass::Control | OpClass::Barrier | OpClass::WarpCollective
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            OpClass::Alu => "alu",
            OpClass::Sfu => "sfu",
            OpClass::Memory => "memory",
            OpClass::Texture => "texture",
            OpClass::Control => "control",
            OpClass::Barrier => "barrier",
            OpClass::Fence => "fence",
            OpClass::WarpCollective => "warp-collective",
            OpClass::Tensor => "tensor",
            OpClass::Async => "async",
            OpClass::Misc => "misc",
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// The ISA's name, dotted for multi-word opcodes (`bar.warp.sync`).
    pub name: &'static str,
    pub class: OpClass,
    /// The section of chapter 9.7 of the PTX ISA document that defines it, by title.
    pub section: &'static str,
    /// One line for hover help.
    pub summary: &'static str,
    groups: u32,
    extra: &'static [&'static str],
}

impl OpInfo {
    /// True when `m` (without the dot) is a modifier the ISA lists for this opcode.
    pub fn allows(&self, m: &str) -> bool {
        if self.groups & LOOSE != 0 {
            return true;
        }
        if self.extra.contains(&m) {
            return true;
        }
        GROUPS
            .iter()
            .any(|(bit, words)| self.groups & bit != 0 && words.contains(&m))
            || (self.groups & SHAPE != 0 && is_shape(m))
    }

    /// False for the families whose modifiers are not checked (`wgmma`, `tcgen05`, …).
    pub fn checks_modifiers(&self) -> bool {
        self.groups & LOOSE == 0
    }

    /// Every modifier this opcode accepts (for "did you mean").
    pub fn modifiers(&self) -> impl Iterator<Item = &'static str> + '_ {
        let groups = self.groups;
        self.extra.iter().copied().chain(
            GROUPS
                .iter()
                .filter(move |(bit, _)| groups & bit != 0)
                .flat_map(|(_, w)| w.iter().copied()),
        )
    }
}

// Modifier groups shared by many opcodes (§9.4 "Type Information", §9.7.*).
const TYPE: u32 = 1 << 0;
const ROUND: u32 = 1 << 1;
const CMP: u32 = 1 << 2;
const INT: u32 = 1 << 3;
const SPACE: u32 = 1 << 4;
const SEM: u32 = 1 << 5;
const CACHE: u32 = 1 << 6;
const ATOM: u32 = 1 << 7;
const SYNC: u32 = 1 << 8;
const GEOM: u32 = 1 << 9;
const SHAPE: u32 = 1 << 10;
/// Modifiers are not checked (families whose modifier grammar is large and rarely typed by
/// hand: `wgmma`, `tcgen05`, `multimem`, tensor copies, video instructions).
const LOOSE: u32 = 1 << 31;

const GROUPS: &[(u32, &[&str])] = &[
    (
        TYPE,
        &[
            "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "b8", "b16", "b32", "b64",
            "b128", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32", "e4m3", "e5m2",
            "e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2", "e3m2x2", "ue8m0x2", "pred", "s4", "u4", "b1",
            "f32x2",
        ],
    ),
    (
        ROUND,
        &[
            "rn",
            "rz",
            "rm",
            "rp",
            "rna",
            "rni",
            "rzi",
            "rmi",
            "rpi",
            "rs",
            "ftz",
            "sat",
            "satfinite",
            "approx",
            "full",
            "relu",
            "NaN",
            "xorsign",
            "abs",
            "oob",
        ],
    ),
    (
        CMP,
        &[
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
            "gtu", "geu", "num", "nan", "and", "or", "xor", "ftz",
        ],
    ),
    (INT, &["lo", "hi", "wide", "cc", "sat"]),
    (
        SPACE,
        &[
            "global",
            "shared",
            "local",
            "param",
            "const",
            "shared::cta",
            "shared::cluster",
            "param::entry",
            "param::func",
        ],
    ),
    (
        SEM,
        &[
            "weak", "relaxed", "acquire", "release", "acq_rel", "volatile", "mmio", "sc", "cta",
            "cluster", "gpu", "sys",
        ],
    ),
    (
        CACHE,
        &[
            "ca",
            "cg",
            "cs",
            "lu",
            "cv",
            "wb",
            "wt",
            "nc",
            "unified",
            "v2",
            "v4",
            "v8",
            "L1::evict_normal",
            "L1::evict_unchanged",
            "L1::evict_first",
            "L1::evict_last",
            "L1::no_allocate",
            "L2::evict_normal",
            "L2::evict_first",
            "L2::evict_last",
            "L2::cache_hint",
            "L2::64B",
            "L2::128B",
            "L2::256B",
        ],
    ),
    (
        ATOM,
        &[
            "and",
            "or",
            "xor",
            "cas",
            "exch",
            "add",
            "inc",
            "dec",
            "min",
            "max",
            "noftz",
            "v2",
            "v4",
            "v8",
            "L2::cache_hint",
        ],
    ),
    (SYNC, &["sync", "aligned"]),
    (
        GEOM,
        &[
            "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms", "v2", "v4", "base",
            "level", "grad",
        ],
    ),
    (
        SHAPE,
        &[
            "row",
            "col",
            "a",
            "b",
            "c",
            "d",
            "sp",
            "sp::ordered_metadata",
            "satfinite",
            "x1",
            "x2",
            "x4",
            "trans",
            "m8n8",
            "m16n16",
            "m8n16",
            "global",
            "shared",
            "shared::cta",
            "block_scale",
            "kind::f8f6f4",
        ],
    ),
];

/// `m16n8k16`, `m64n128k16`: a matrix shape.
fn is_shape(m: &str) -> bool {
    let mut rest = m;
    for letter in ['m', 'n', 'k'] {
        let Some(r) = rest.strip_prefix(letter) else {
            return false;
        };
        let digits = r.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 3 {
            return false;
        }
        rest = &r[digits..];
    }
    rest.is_empty()
}

const fn op(
    name: &'static str,
    class: OpClass,
    section: &'static str,
    summary: &'static str,
    groups: u32,
    extra: &'static [&'static str],
) -> OpInfo {
    OpInfo {
        name,
        class,
        section,
        summary,
        groups,
        extra,
    }
}

use OpClass::WarpCollective as Warp;
use OpClass::{Alu, Async, Barrier, Control, Fence, Memory, Misc, Sfu, Tensor, Texture};

const S_INT: &str = "Integer Arithmetic Instructions";
const S_EXT: &str = "Extended-Precision Integer Arithmetic Instructions";
const S_FLT: &str = "Floating-Point Instructions";
const S_CMP: &str = "Comparison and Selection Instructions";
const S_LOGIC: &str = "Logic and Shift Instructions";
const S_MOVE: &str = "Data Movement and Conversion Instructions";
const S_TEX: &str = "Texture Instructions";
const S_SURF: &str = "Surface Instructions";
const S_CTRL: &str = "Control Flow Instructions";
const S_SYNC: &str = "Parallel Synchronization and Communication Instructions";
const S_MMA: &str = "Warp Level Matrix Multiply-Accumulate Instructions";
const S_WGMMA: &str = "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions";
const S_TCGEN05: &str = "TensorCore 5th Generation Family Instructions";
const S_STACK: &str = "Stack Manipulation Instructions";
const S_VIDEO: &str = "Video Instructions";
const S_MISC: &str = "Miscellaneous Instructions";

const ARITH: u32 = TYPE | ROUND | INT;
const MEM: u32 = TYPE | SPACE | SEM | CACHE;

/// The table (PTX ISA 8.5, §9.7; the `tcgen05` names from 8.6). Sorted by name.
#[rustfmt::skip]
pub static OPCODES: &[OpInfo] = &[
    op("abs", Alu, S_INT, "absolute value", ARITH, &[]),
    op("activemask", Warp, S_SYNC, "mask of the currently active lanes of the warp", TYPE, &[]),
    op("add", Alu, S_INT, "addition (integer, floating point, half, packed)", ARITH, &[]),
    op("addc", Alu, S_EXT, "addition with carry-in", ARITH, &[]),
    op("alloca", Misc, S_STACK, "allocate memory on the stack (local space)", TYPE | SPACE, &[]),
    op("and", Alu, S_LOGIC, "bitwise AND", TYPE, &[]),
    op("applypriority", Memory, S_MOVE, "apply an L2 eviction priority to a line", MEM, &["L2::evict_normal"]),
    op("atom", Memory, S_SYNC, "atomic read-modify-write on global or shared memory", MEM | ATOM, &[]),
    op("bar", Barrier, S_SYNC, "CTA barrier: wait (sync), arrive, or reduce (red) across the CTA", TYPE | SYNC, &["arrive", "red", "popc", "and", "or", "cta"]),
    op("bar.warp.sync", Barrier, S_SYNC, "wait until the lanes named by the mask reach the barrier", 0, &[]),
    op("barrier", Barrier, S_SYNC, "CTA barrier (non-aligned form of bar)", TYPE | SYNC, &["arrive", "red", "popc", "and", "or", "cta"]),
    op("barrier.cluster", Barrier, S_SYNC, "cluster-wide barrier: arrive or wait", SYNC, &["arrive", "wait", "relaxed", "release", "acquire"]),
    op("bfe", Alu, S_INT, "bit-field extract", TYPE, &[]),
    op("bfi", Alu, S_INT, "bit-field insert", TYPE, &[]),
    op("bfind", Alu, S_INT, "position of the most significant non-sign bit", TYPE, &["shiftamt"]),
    op("bmsk", Alu, S_INT, "bit mask of a given position and width", TYPE, &["clamp", "wrap"]),
    op("bra", Control, S_CTRL, "branch to a label (divergent unless .uni)", 0, &["uni"]),
    op("brev", Alu, S_INT, "bit reverse", TYPE, &[]),
    op("brkpt", Control, S_MISC, "suspend execution (breakpoint)", 0, &[]),
    op("brx.idx", Control, S_CTRL, "indirect branch to the i-th label of a .branchtargets list", 0, &["uni"]),
    op("call", Control, S_CTRL, "call a function (direct, or indirect through a register)", 0, &["uni"]),
    op("clusterlaunchcontrol.query_cancel", Misc, S_MISC, "decode the response of a cluster launch cancellation", LOOSE, &[]),
    op("clusterlaunchcontrol.try_cancel", Async, S_MISC, "request cancellation of a cluster not yet launched", LOOSE, &[]),
    op("clz", Alu, S_INT, "count leading zeros", TYPE, &[]),
    op("cnot", Alu, S_LOGIC, "C-style logical negation", TYPE, &[]),
    op("copysign", Alu, S_FLT, "copy the sign of one operand to another", TYPE, &[]),
    op("cos", Sfu, S_FLT, "approximate cosine", TYPE | ROUND, &[]),
    op("cp.async", Async, S_MOVE, "asynchronous copy from global to shared memory", MEM, &[]),
    op("cp.async.bulk", Async, S_MOVE, "bulk asynchronous copy between global and shared memory", LOOSE, &[]),
    op("cp.async.bulk.commit_group", Async, S_MOVE, "commit the pending bulk copies as a bulk async-group", 0, &[]),
    op("cp.async.bulk.prefetch", Async, S_MOVE, "bulk prefetch of global memory into L2", LOOSE, &[]),
    op("cp.async.bulk.prefetch.tensor", Async, S_MOVE, "bulk prefetch of a tensor into L2", LOOSE, &[]),
    op("cp.async.bulk.tensor", Async, S_MOVE, "bulk asynchronous copy of a tensor tile", LOOSE, &[]),
    op("cp.async.bulk.wait_group", Async, S_MOVE, "wait for bulk async-groups to complete", 0, &["read"]),
    op("cp.async.commit_group", Async, S_MOVE, "commit the pending cp.async copies as a group", 0, &[]),
    op("cp.async.mbarrier.arrive", Async, S_MOVE, "arrive on an mbarrier when the thread's cp.async copies complete", SPACE | TYPE, &["noinc"]),
    op("cp.async.wait_all", Async, S_MOVE, "wait for every cp.async group to complete", 0, &[]),
    op("cp.async.wait_group", Async, S_MOVE, "wait until at most N cp.async groups are pending", 0, &[]),
    op("cp.reduce.async.bulk", Async, S_MOVE, "bulk asynchronous reduction into global or shared memory", LOOSE, &[]),
    op("cp.reduce.async.bulk.tensor", Async, S_MOVE, "bulk asynchronous reduction of a tensor tile", LOOSE, &[]),
    op("createpolicy", Memory, S_MOVE, "create a cache eviction policy for L2 hints", TYPE | CACHE, &["fractional", "range"]),
    op("cvt", Alu, S_MOVE, "convert between types", TYPE | ROUND, &["pack", "relu", "satfinite"]),
    op("cvta", Alu, S_MOVE, "convert between generic and state-space addresses", TYPE | SPACE, &["to"]),
    op("discard", Memory, S_MOVE, "discard an L2 line without writing it back", MEM, &["L2"]),
    op("div", Alu, S_INT, "division (integer, or floating point)", ARITH, &[]),
    op("dp2a", Alu, S_INT, "two-way dot product with accumulate", TYPE, &["lo", "hi"]),
    op("dp4a", Alu, S_INT, "four-way dot product with accumulate", TYPE, &[]),
    op("elect", Warp, S_SYNC, "elect one leader lane among the lanes of a mask", SYNC, &[]),
    op("ex2", Sfu, S_FLT, "approximate base-2 exponential", TYPE | ROUND, &[]),
    op("exit", Control, S_CTRL, "terminate the thread", 0, &[]),
    op("fence", Fence, S_SYNC, "memory fence with the given semantics and scope", SEM | SPACE, &["proxy", "alias", "async", "async::generic", "tensormap::generic", "mbarrier_init", "op_restrict", "sync_restrict::shared::cta", "sync_restrict::shared::cluster"]),
    op("fma", Alu, S_FLT, "fused multiply-add", ARITH, &[]),
    op("fns", Alu, S_INT, "find the n-th set bit", TYPE, &[]),
    op("getctarank", Alu, S_MOVE, "CTA rank of a shared::cluster address", TYPE | SPACE, &[]),
    op("griddepcontrol", Barrier, S_MISC, "programmatic dependent launch: launch dependents, or wait for prerequisite grids", 0, &["launch_dependents", "wait"]),
    op("isspacep", Alu, S_MOVE, "does a generic address fall in the given state space", SPACE, &[]),
    op("istypep", Texture, S_TEX, "is the operand a texref, samplerref or surfref", 0, &["texref", "samplerref", "surfref"]),
    op("ld", Memory, S_MOVE, "load from a state space", MEM, &["L2::prefetch"]),
    op("ldmatrix", Tensor, S_MMA, "load matrix fragments from shared memory", TYPE | SYNC | SHAPE | SPACE, &["b8x16", "b6x16_p32", "b4x16_p64", "m16n16", "m8n16"]),
    op("ldu", Memory, S_MOVE, "load a value uniform across the warp (read-only)", MEM, &[]),
    op("lg2", Sfu, S_FLT, "approximate base-2 logarithm", TYPE | ROUND, &[]),
    op("lop3", Alu, S_LOGIC, "arbitrary three-input logic operation", TYPE, &[]),
    op("mad", Alu, S_INT, "multiply-add", ARITH, &[]),
    op("mad24", Alu, S_INT, "24-bit multiply-add", ARITH, &[]),
    op("madc", Alu, S_EXT, "multiply-add with carry-in", ARITH, &[]),
    op("mapa", Alu, S_MOVE, "map a shared address to another CTA of the cluster", TYPE | SPACE, &[]),
    op("match", Warp, S_SYNC, "find lanes of the warp holding the same value", TYPE | SYNC, &["any", "all"]),
    op("max", Alu, S_INT, "maximum", ARITH, &[]),
    op("mbarrier.arrive", Barrier, S_SYNC, "arrive on an mbarrier object", TYPE | SPACE | SEM, &["noComplete", "expect_tx", "shared::cta", "shared::cluster"]),
    op("mbarrier.arrive_drop", Barrier, S_SYNC, "arrive on an mbarrier and leave its expected count", TYPE | SPACE | SEM, &["noComplete", "expect_tx"]),
    op("mbarrier.complete_tx", Barrier, S_SYNC, "complete transactions on an mbarrier", TYPE | SPACE | SEM, &[]),
    op("mbarrier.expect_tx", Barrier, S_SYNC, "expect transactions on an mbarrier", TYPE | SPACE | SEM, &[]),
    op("mbarrier.init", Barrier, S_SYNC, "initialise an mbarrier object", TYPE | SPACE, &[]),
    op("mbarrier.inval", Barrier, S_SYNC, "invalidate an mbarrier object", TYPE | SPACE, &[]),
    op("mbarrier.pending_count", Barrier, S_SYNC, "pending count of an mbarrier state", TYPE, &[]),
    op("mbarrier.test_wait", Barrier, S_SYNC, "test (without blocking) whether an mbarrier phase completed", TYPE | SPACE | SEM, &["parity"]),
    op("mbarrier.try_wait", Barrier, S_SYNC, "wait (bounded) for an mbarrier phase to complete", TYPE | SPACE | SEM, &["parity"]),
    op("membar", Fence, S_SYNC, "memory barrier at CTA, GPU (gl) or system level", 0, &["cta", "gl", "sys", "proxy", "alias"]),
    op("min", Alu, S_INT, "minimum", ARITH, &[]),
    op("mma", Tensor, S_MMA, "warp-level matrix multiply-accumulate", TYPE | ROUND | SYNC | SHAPE, &["xor", "and", "popc", "kind::f8f6f4", "kind::mxf4", "kind::mxf8f6f4", "scale_vec::1X", "scale_vec::2X", "scale_vec::4X"]),
    op("mov", Alu, S_MOVE, "move a register, immediate, address or special register", TYPE, &[]),
    op("movmatrix", Tensor, S_MMA, "transpose a matrix in registers across the warp", TYPE | SYNC | SHAPE, &[]),
    op("mul", Alu, S_INT, "multiplication", ARITH, &[]),
    op("mul24", Alu, S_INT, "24-bit multiplication", ARITH, &[]),
    op("multimem.ld_reduce", Memory, S_MOVE, "load and reduce across a multimem address", LOOSE, &[]),
    op("multimem.red", Memory, S_MOVE, "reduction on every memory of a multimem address", LOOSE, &[]),
    op("multimem.st", Memory, S_MOVE, "store to every memory of a multimem address", LOOSE, &[]),
    op("nanosleep", Misc, S_MISC, "suspend the thread for about the given number of nanoseconds", TYPE, &[]),
    op("neg", Alu, S_INT, "arithmetic negation", ARITH, &[]),
    op("not", Alu, S_LOGIC, "bitwise negation", TYPE, &[]),
    op("or", Alu, S_LOGIC, "bitwise OR", TYPE, &[]),
    op("pmevent", Misc, S_MISC, "trigger a performance-monitor event", 0, &["mask"]),
    op("popc", Alu, S_INT, "population count", TYPE, &[]),
    op("prefetch", Memory, S_MOVE, "prefetch a line into a cache level", MEM, &["L1", "L2", "L2::evict_last", "L2::evict_normal", "tensormap"]),
    op("prefetchu", Memory, S_MOVE, "prefetch into the uniform cache", MEM, &["L1"]),
    op("prmt", Alu, S_LOGIC, "permute bytes of two registers", TYPE, &["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]),
    op("rcp", Sfu, S_FLT, "reciprocal", TYPE | ROUND, &[]),
    op("red", Memory, S_SYNC, "reduction on global or shared memory (no result)", MEM | ATOM, &[]),
    op("red.async", Async, S_SYNC, "asynchronous reduction on distributed shared memory", LOOSE, &[]),
    op("redux", Warp, S_SYNC, "reduction across the lanes of a mask", TYPE | SYNC, &["add", "min", "max", "and", "or", "xor", "abs", "NaN"]),
    op("rem", Alu, S_INT, "remainder", ARITH, &[]),
    op("ret", Control, S_CTRL, "return from a function", 0, &["uni"]),
    op("rsqrt", Sfu, S_FLT, "reciprocal square root", TYPE | ROUND, &[]),
    op("sad", Alu, S_INT, "sum of absolute differences", TYPE, &[]),
    op("selp", Alu, S_CMP, "select one of two values by a predicate", TYPE, &[]),
    op("set", Alu, S_CMP, "compare and write a boolean value", TYPE | CMP, &[]),
    op("setmaxnreg", Misc, S_MISC, "raise or lower the warpgroup's register budget", TYPE | SYNC, &["inc", "dec"]),
    op("setp", Alu, S_CMP, "compare and write predicates", TYPE | CMP, &[]),
    op("shf", Alu, S_LOGIC, "funnel shift", TYPE, &["l", "r", "wrap", "clamp"]),
    op("shfl", Warp, S_MOVE, "exchange registers between the lanes of a warp", TYPE | SYNC, &["up", "down", "bfly", "idx"]),
    op("shl", Alu, S_LOGIC, "shift left", TYPE, &[]),
    op("shr", Alu, S_LOGIC, "shift right", TYPE, &[]),
    op("sin", Sfu, S_FLT, "approximate sine", TYPE | ROUND, &[]),
    op("slct", Alu, S_CMP, "select by the sign of a third operand", TYPE | ROUND, &[]),
    op("sqrt", Sfu, S_FLT, "square root", TYPE | ROUND, &[]),
    op("st", Memory, S_MOVE, "store to a state space", MEM, &[]),
    op("st.async", Async, S_MOVE, "asynchronous store to distributed shared memory, signalling an mbarrier", LOOSE, &[]),
    op("st.bulk", Async, S_MOVE, "bulk initialisation of shared memory", LOOSE, &[]),
    op("stackrestore", Misc, S_STACK, "restore the stack pointer", TYPE, &[]),
    op("stacksave", Misc, S_STACK, "save the stack pointer", TYPE, &[]),
    op("stmatrix", Tensor, S_MMA, "store matrix fragments to shared memory", TYPE | SYNC | SHAPE | SPACE, &["m16n8"]),
    op("sub", Alu, S_INT, "subtraction", ARITH, &[]),
    op("subc", Alu, S_EXT, "subtraction with borrow-in", ARITH, &[]),
    op("suld", Texture, S_SURF, "load from a surface", TYPE | GEOM | CACHE, &["b", "p", "trap", "clamp", "zero"]),
    op("suq", Texture, S_SURF, "query a surface attribute", TYPE, &["width", "height", "depth", "channel_data_type", "channel_order", "array_size", "memory_layout"]),
    op("sured", Texture, S_SURF, "reduction on a surface", TYPE | GEOM | ATOM, &["b", "p", "trap", "clamp", "zero"]),
    op("sust", Texture, S_SURF, "store to a surface", TYPE | GEOM | CACHE, &["b", "p", "trap", "clamp", "zero"]),
    op("szext", Alu, S_INT, "sign- or zero-extend a bit field", TYPE, &["clamp", "wrap"]),
    op("tanh", Sfu, S_FLT, "approximate hyperbolic tangent", TYPE | ROUND, &[]),
    op("tcgen05.alloc", Tensor, S_TCGEN05, "allocate tensor memory", LOOSE, &[]),
    op("tcgen05.commit", Tensor, S_TCGEN05, "make an mbarrier track prior tcgen05 operations", LOOSE, &[]),
    op("tcgen05.cp", Tensor, S_TCGEN05, "copy from shared to tensor memory", LOOSE, &[]),
    op("tcgen05.dealloc", Tensor, S_TCGEN05, "free tensor memory", LOOSE, &[]),
    op("tcgen05.fence", Tensor, S_TCGEN05, "order tcgen05 operations around a thread synchronisation", LOOSE, &[]),
    op("tcgen05.ld", Tensor, S_TCGEN05, "load from tensor memory to registers", LOOSE, &[]),
    op("tcgen05.mma", Tensor, S_TCGEN05, "matrix multiply-accumulate in tensor memory", LOOSE, &[]),
    op("tcgen05.relinquish_alloc_permit", Tensor, S_TCGEN05, "give up the right to allocate tensor memory", LOOSE, &[]),
    op("tcgen05.shift", Tensor, S_TCGEN05, "shift rows of tensor memory", LOOSE, &[]),
    op("tcgen05.st", Tensor, S_TCGEN05, "store from registers to tensor memory", LOOSE, &[]),
    op("tcgen05.wait", Tensor, S_TCGEN05, "wait for tcgen05 loads or stores", LOOSE, &[]),
    op("tensormap.cp_fenceproxy", Fence, S_SYNC, "copy a tensor map and fence the tensormap proxy", LOOSE, &[]),
    op("tensormap.replace", Async, S_MOVE, "replace a field of a tensor map", LOOSE, &[]),
    op("testp", Alu, S_FLT, "test a floating-point property", TYPE, &["finite", "infinite", "number", "notanumber", "normal", "subnormal"]),
    op("tex", Texture, S_TEX, "texture fetch", TYPE | GEOM, &[]),
    op("tld4", Texture, S_TEX, "texture gather of four texels", TYPE | GEOM, &["r", "g", "b", "a"]),
    op("trap", Control, S_MISC, "abort execution with an error", 0, &[]),
    op("txq", Texture, S_TEX, "query a texture or sampler attribute", TYPE, &["width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords", "array_size", "num_mipmap_levels", "num_samples", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "force_unnormalized_coords", "level"]),
    op("vabsdiff", Alu, S_VIDEO, "video: absolute difference", LOOSE, &[]),
    op("vabsdiff2", Alu, S_VIDEO, "SIMD video: absolute difference of half-words", LOOSE, &[]),
    op("vabsdiff4", Alu, S_VIDEO, "SIMD video: absolute difference of bytes", LOOSE, &[]),
    op("vadd", Alu, S_VIDEO, "video: addition", LOOSE, &[]),
    op("vadd2", Alu, S_VIDEO, "SIMD video: addition of half-words", LOOSE, &[]),
    op("vadd4", Alu, S_VIDEO, "SIMD video: addition of bytes", LOOSE, &[]),
    op("vavrg2", Alu, S_VIDEO, "SIMD video: average of half-words", LOOSE, &[]),
    op("vavrg4", Alu, S_VIDEO, "SIMD video: average of bytes", LOOSE, &[]),
    op("vmad", Alu, S_VIDEO, "video: multiply-add", LOOSE, &[]),
    op("vmax", Alu, S_VIDEO, "video: maximum", LOOSE, &[]),
    op("vmax2", Alu, S_VIDEO, "SIMD video: maximum of half-words", LOOSE, &[]),
    op("vmax4", Alu, S_VIDEO, "SIMD video: maximum of bytes", LOOSE, &[]),
    op("vmin", Alu, S_VIDEO, "video: minimum", LOOSE, &[]),
    op("vmin2", Alu, S_VIDEO, "SIMD video: minimum of half-words", LOOSE, &[]),
    op("vmin4", Alu, S_VIDEO, "SIMD video: minimum of bytes", LOOSE, &[]),
    op("vote", Warp, S_SYNC, "vote across the lanes of a warp (all, any, uni, ballot)", TYPE | SYNC, &["all", "any", "uni", "ballot"]),
    op("vset", Alu, S_VIDEO, "video: compare", LOOSE, &[]),
    op("vset2", Alu, S_VIDEO, "SIMD video: compare half-words", LOOSE, &[]),
    op("vset4", Alu, S_VIDEO, "SIMD video: compare bytes", LOOSE, &[]),
    op("vshl", Alu, S_VIDEO, "video: shift left", LOOSE, &[]),
    op("vshr", Alu, S_VIDEO, "video: shift right", LOOSE, &[]),
    op("vsub", Alu, S_VIDEO, "video: subtraction", LOOSE, &[]),
    op("vsub2", Alu, S_VIDEO, "SIMD video: subtraction of half-words", LOOSE, &[]),
    op("vsub4", Alu, S_VIDEO, "SIMD video: subtraction of bytes", LOOSE, &[]),
    op("wgmma.commit_group", Tensor, S_WGMMA, "commit the pending wgmma operations as a group", SYNC, &[]),
    op("wgmma.fence", Tensor, S_WGMMA, "order register accesses before wgmma.mma_async", SYNC, &[]),
    op("wgmma.mma_async", Tensor, S_WGMMA, "warpgroup-level asynchronous matrix multiply-accumulate", LOOSE, &[]),
    op("wgmma.wait_group", Tensor, S_WGMMA, "wait for wgmma groups to complete", SYNC, &[]),
    op("wmma.load", Tensor, S_MMA, "load a matrix fragment (WMMA)", TYPE | SYNC | SHAPE | SPACE, &[]),
    op("wmma.mma", Tensor, S_MMA, "warp-level matrix multiply-accumulate (WMMA)", TYPE | ROUND | SYNC | SHAPE, &["xor", "and", "popc"]),
    op("wmma.store", Tensor, S_MMA, "store a matrix fragment (WMMA)", TYPE | SYNC | SHAPE | SPACE, &[]),
    op("xor", Alu, S_LOGIC, "bitwise exclusive OR", TYPE, &[]),
];

/// The row for `name` exactly (`bar.warp.sync`, `ld`).
pub fn get(name: &str) -> Option<&'static OpInfo> {
    OPCODES
        .binary_search_by(|o| o.name.cmp(name))
        .ok()
        .and_then(|i| OPCODES.get(i))
}

/// The row for an instruction written `opcode.m1.m2…`: the longest dotted prefix that names
/// a row, and how many modifiers that prefix took (`cp` + `[async, ca]` → `cp.async`, 1).
pub fn lookup(opcode: &str, modifiers: &[String]) -> Option<(&'static OpInfo, usize)> {
    // Only these opcodes start a multi-word row; the others need no string building.
    const MULTI: &[&str] = &[
        "bar",
        "barrier",
        "brx",
        "clusterlaunchcontrol",
        "cp",
        "mbarrier",
        "multimem",
        "red",
        "st",
        "tcgen05",
        "tensormap",
        "wgmma",
        "wmma",
    ];
    if !MULTI.contains(&opcode) {
        return get(opcode).map(|o| (o, 0));
    }
    let mut name = String::with_capacity(32);
    name.push_str(opcode);
    let mut best = get(&name).map(|o| (o, 0));
    // The longest names have four words (`cp.reduce.async.bulk.tensor`).
    for (k, m) in modifiers.iter().take(4).enumerate() {
        name.push('.');
        name.push_str(m);
        if let Some(o) = get(&name) {
            best = Some((o, k + 1));
        }
    }
    best
}

/// The table row nearest to `word` (an unknown opcode, possibly with its modifiers) within
/// edit distance `limit`, with its distance; ties go to the first row in table order.
pub fn nearest(word: &str, limit: usize) -> Option<(&'static OpInfo, usize)> {
    OPCODES
        .iter()
        .filter(|o| o.name.len().abs_diff(word.len()) <= limit)
        .map(|o| (o, edit_distance(word, o.name)))
        .filter(|(_, d)| *d <= limit)
        .min_by_key(|(_, d)| *d)
}

/// The spelling distance of `a` and `b` ([`crate::spelling::distance`]), uncapped.
pub fn edit_distance(a: &str, b: &str) -> usize {
    crate::spelling::distance(a, b, usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in OPCODES.windows(2) {
            assert!(w[0].name < w[1].name, "{} !< {}", w[0].name, w[1].name);
        }
    }

    #[test]
    fn longest_prefix_wins() {
        let mods = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let (o, k) = lookup("bar", &mods(&["warp", "sync"])).expect("bar.warp.sync");
        assert_eq!((o.name, k), ("bar.warp.sync", 2));
        let (o, k) = lookup("bar", &mods(&["sync"])).expect("bar");
        assert_eq!((o.name, k), ("bar", 0));
        let (o, _) = lookup("cp", &mods(&["async", "ca", "shared", "global"])).expect("cp");
        assert_eq!(o.name, "cp.async");
        let (o, _) = lookup("st", &mods(&["async", "b32"])).expect("st.async");
        assert_eq!(o.class, OpClass::Async);
        assert!(lookup("cp", &mods(&["asink"])).is_none());
        assert!(lookup("frobnicate", &[]).is_none());
    }

    #[test]
    fn every_multi_word_row_starts_with_a_listed_word() {
        for o in OPCODES.iter().filter(|o| o.name.contains('.')) {
            let first = o.name.split('.').next().unwrap_or_default();
            let mods: Vec<String> = o.name.split('.').skip(1).map(str::to_string).collect();
            assert_eq!(lookup(first, &mods).map(|(r, _)| r.name), Some(o.name));
        }
    }

    #[test]
    fn classes_of_the_brief() {
        for (name, class) in [
            ("shfl", OpClass::WarpCollective),
            ("vote", OpClass::WarpCollective),
            ("match", OpClass::WarpCollective),
            ("redux", OpClass::WarpCollective),
            ("activemask", OpClass::WarpCollective),
            ("elect", OpClass::WarpCollective),
            ("bar.warp.sync", OpClass::Barrier),
            ("barrier", OpClass::Barrier),
            ("mma", OpClass::Tensor),
            ("ldmatrix", OpClass::Tensor),
            ("cp.async", OpClass::Async),
            ("membar", OpClass::Fence),
            ("atom", OpClass::Memory),
            ("tex", OpClass::Texture),
            ("brx.idx", OpClass::Control),
            ("sin", OpClass::Sfu),
        ] {
            assert_eq!(get(name).map(|o| o.class), Some(class), "{name}");
        }
    }

    #[test]
    fn modifiers_by_group() {
        let ld = get("ld").expect("ld");
        for m in [
            "global",
            "nc",
            "v4",
            "f32",
            "L1::evict_last",
            "relaxed",
            "gpu",
        ] {
            assert!(ld.allows(m), "{m}");
        }
        assert!(!ld.allows("globl"));
        let mma = get("mma").expect("mma");
        assert!(mma.allows("m16n8k16") && mma.allows("row") && !mma.allows("m16n8"));
        assert!(!get("bar").expect("bar").allows("uni"));
        assert!(get("bra").expect("bra").allows("uni"));
    }

    #[test]
    fn osa_distance() {
        assert_eq!(edit_distance("bra", "bar"), 1);
        assert_eq!(edit_distance("snyc", "sync"), 1);
        assert_eq!(edit_distance("shfl", "shfl"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            nearest("membr", 2).map(|(o, d)| (o.name, d)),
            Some(("membar", 1))
        );
        assert_eq!(nearest("zzzzzzzz", 2), None);
        assert_eq!(edit_distance("ca", "abc"), 3);
        let long = "x".repeat(10_000);
        assert_eq!(edit_distance(&long, "x"), 63);
    }
}
