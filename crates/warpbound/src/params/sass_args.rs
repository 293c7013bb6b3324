//! A SASS kernel's parameters inferred from its listing, for an automatic launch (issue #26
//! item 2): a listing has no signature, only the constant-bank words it reads from the
//! parameter area (`c[0x0][0x140…]` up to Pascal, `0x160…` Volta to Ada, `0x210…` Hopper:
//! `sim::ConstantLayout`). How each word is used says what it holds:
//!
//! - a **pointer**: a word that flows (through any arithmetic, `MOV`, `IMAD.WIDE`, `LEA`, …)
//!   into the base register of a global load, store or atomic (not a shared or local one). With 64-bit addressing (`.E`,
//!   `[R2.64]`) the pointer is the 8-byte pair at an 8-aligned offset that is read as 64 bits
//!   (`IMAD.WIDE … c[0x0][o]`, `LDC.64`, `ULDC.64`) or whose high half is read by a carry-in
//!   sum (`IADD R2.CC, R0, c[0x0][o]` / `IADD.X R3, RZ, c[0x0][o+4]`) or only copied (`MOV R3,
//!   c[0x0][o+4]`): two 32-bit counts side by side, the second one computed with, are not a
//!   pointer; with 32-bit addressing (Fermi
//!   listings) the word itself. The k-th pointer gets the base address
//!   [`kernel_args::POINTER_BASE`] + k · [`kernel_args::POINTER_STRIDE`], as for PTX;
//! - a **float** scalar: a word a floating-point instruction (`F…`, `D…` opcodes, `MUFU`)
//!   reads directly: 1.0 ([`kernel_args::AUTO_FLOAT`]; a `D…` pair: the double 1.0);
//! - every other word read: an **integer** [`kernel_args::AUTO_INTEGER`] = 64. Words never
//!   read are 0.
//!
//! The flow is followed in program order, twice (so values carried around a loop are seen),
//! with each written register taking what its sources carry: an approximation that can call
//! an index parameter added to an address a pointer (it then points far away and the run
//! reports the access outside its arrays).

use super::kernel_args::{AUTO_FLOAT, AUTO_INTEGER, POINTER_BASE, POINTER_STRIDE};
use crate::report::{ArgumentKind, ArgumentSource, KernelArgument, KernelArguments};
use isa::{Instruction, Kernel, OperandKind, Register};
use std::collections::{BTreeMap, BTreeSet};

/// What a parameter word (or pair) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// An 8-byte address at this offset (two words).
    Pointer64,
    /// A 4-byte address (32-bit addressing).
    Pointer32,
    /// A 4-byte float.
    Float,
    /// An 8-byte double (two words).
    Double,
    /// A 4-byte integer.
    Integer,
    /// An 8-byte texture or surface object: the handle a texture or surface instruction
    /// names (`TEXS … 0x5a`: the pair at `c[0x0][0x5a × 4]`; Hopper: the uniform register
    /// a `ULDC` filled). In the simulator's texture model (`sim::texture`) it is the address
    /// of the texels, so it gets an address and a buffer like a pointer.
    Texture,
    /// A texture reference's 4-byte word (`texture<int2, 1> ref;` bound by the host): the
    /// driver places it after the parameters (`TLDS.LZ.P … 0x64, 1D, RG` reads
    /// `c[0x0][0x190]`; Parboil bfs names two, `0x190` and `0x194`). Read as one when the
    /// handle's offset is not 8-aligned or the next word is a handle too; it gets an
    /// address and a buffer as an object does (the model's binding: `sim::texture`).
    TextureRef,
}

/// How a kernel's texture instructions use one handle: whether only by 1D integer fetches
/// (`TLDS`/`TLD`), and the most 32-bit words a fetch's channel mask reaches (1, 2 or 4:
/// `R`, `RG`, `RGB`/`RGBA`), the automatic binding's texel size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureUse {
    pub one_d: bool,
    pub texel_words: u32,
}

/// The parameter area as the listing uses it: each slot by its byte offset from the first
/// parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Offset of the first parameter in constant bank 0.
    pub base: u32,
    /// Slots by offset from `base`, ascending; words not listed are unread.
    pub slots: BTreeMap<u32, Slot>,
    /// The texture handles' use, by the offset of their slot.
    pub textures: BTreeMap<u32, TextureUse>,
}

impl Layout {
    /// The words of the area, up to the last one read.
    pub fn len_words(&self) -> usize {
        self.slots
            .iter()
            .map(|(&o, s)| {
                let n = if matches!(s, Slot::Pointer64 | Slot::Double | Slot::Texture) {
                    8
                } else {
                    4
                };
                (o + n) as usize / 4
            })
            .max()
            .unwrap_or(0)
    }
}

/// The constant-bank-0 word offsets an operand reads directly, as offsets into the area.
fn param_words(ins: &Instruction, base: u32) -> Vec<(u32, bool)> {
    let wide = ins.opcode.has_modifier("64")
        || (ins.opcode.name.starts_with("IMAD") && ins.opcode.has_modifier("WIDE"));
    ins.operands
        .iter()
        .filter_map(|op| match &op.kind {
            OperandKind::Constant { bank: 0, address } if address.base.is_none() => {
                let off = u32::try_from(address.offset).ok()?;
                Some((off.checked_sub(base)?, wide))
            }
            _ => None,
        })
        .collect()
}

/// The register after `r` (the high half of a 64-bit pair).
fn next(r: &Register) -> Option<Register> {
    match r {
        Register::Gpr(n) => Some(Register::Gpr(n + 1)),
        Register::Uniform(n) => Some(Register::Uniform(n + 1)),
        _ => None,
    }
}

/// Whether a memory operand of `ins` addresses with a 64-bit register pair.
fn wide_address(ins: &Instruction, suffixes: &[String]) -> bool {
    ins.opcode.has_modifier("E") || suffixes.iter().any(|s| s == "64")
}

/// Infers the layout of `kernel`'s parameters (module doc).
pub fn infer(kernel: &Kernel) -> Layout {
    let base = sim::ConstantLayout::for_arch(kernel.arch.as_deref()).params;
    let mut read: BTreeSet<u32> = BTreeSet::new();
    let mut read64: BTreeSet<u32> = BTreeSet::new();
    let mut float: BTreeSet<u32> = BTreeSet::new();
    let mut double: BTreeSet<u32> = BTreeSet::new();
    let mut to_wide: BTreeSet<u32> = BTreeSet::new();
    let mut to_narrow: BTreeSet<u32> = BTreeSet::new();
    // Words read as the high half of a 64-bit sum (`IADD.X`, `IADD3.X`, `IMAD.X`,
    // `LEA.HI.X`: the carry-in forms), and words read other than by a plain copy.
    let mut read_x: BTreeSet<u32> = BTreeSet::new();
    let mut computed: BTreeSet<u32> = BTreeSet::new();
    let mut carries: BTreeMap<Register, BTreeSet<u32>> = BTreeMap::new();
    // Registers holding a plain copy of one parameter word (`LDC`, `ULDC`, `MOV`,
    // `IMAD.MOV`): a float instruction reading them makes that word a float (sm_90 loads
    // its float parameters with `LDC` first).
    let mut copies: BTreeMap<Register, u32> = BTreeMap::new();
    for pass in 0..2 {
        for ins in &kernel.instructions {
            let direct = param_words(ins, base);
            let mut from: BTreeSet<u32> = BTreeSet::new();
            for &(o, wide) in &direct {
                from.insert(o);
                if wide {
                    from.insert(o + 4);
                }
            }
            for r in &ins.reads {
                if let Some(c) = carries.get(r) {
                    from.extend(c.iter().copied());
                }
            }
            // Pointer parameters address global memory: shared and local accesses (whose
            // addresses may add a size or an index parameter) do not count.
            let global = !matches!(
                ins.opcode.name.as_str(),
                "LDS" | "STS" | "ATOMS" | "LDSM" | "REDS" | "LDL" | "STL"
            );
            for op in ins.operands.iter().filter(|_| global) {
                if let OperandKind::Memory { address } = &op.kind {
                    let Some(r) = &address.base else { continue };
                    let wide = wide_address(ins, &op.suffixes);
                    let regs = [Some(r.clone()), if wide { next(r) } else { None }];
                    let target = if wide { &mut to_wide } else { &mut to_narrow };
                    for reg in regs.iter().flatten() {
                        if let Some(c) = carries.get(reg) {
                            target.extend(c.iter().copied());
                        }
                    }
                }
            }
            let name = ins.opcode.name.as_str();
            let is_float = (name.starts_with('F') && name != "FLO") || name == "MUFU";
            if pass == 0 && is_float {
                for r in &ins.reads {
                    if let Some(&o) = copies.get(r) {
                        float.insert(o);
                    }
                }
            }
            let copy = matches!(name, "LDC" | "ULDC" | "MOV" | "UMOV")
                || (name == "IMAD" && ins.opcode.has_modifier("MOV"));
            if pass == 0 && !copy {
                // A word first copied to a register (sm_70+ `LDC R8, c[0x0][0x22c]`) and then
                // computed with (`SHF.L.U32 R16, R8, 0x5`) is a count, as if read directly;
                // carry-in and wide forms and addresses read a pointer's high word.
                let carry = ins.opcode.has_modifier("X")
                    || ins.opcode.has_modifier("WIDE")
                    || ins
                        .operands
                        .iter()
                        .any(|op| matches!(op.kind, OperandKind::Memory { .. }));
                for r in &ins.reads {
                    if let Some(&o) = copies.get(r) {
                        if carry {
                            read_x.insert(o);
                        } else {
                            computed.insert(o);
                        }
                    }
                }
            }
            for w in &ins.writes {
                carries.insert(w.clone(), from.clone());
                match (copy, direct.as_slice()) {
                    (true, [(o, false)]) => copies.insert(w.clone(), *o),
                    _ => copies.remove(w),
                };
            }
            if pass == 0 {
                for &(o, _) in &direct {
                    if ins.opcode.has_modifier("X") {
                        read_x.insert(o);
                    } else if !copy {
                        computed.insert(o);
                    }
                }
                for &(o, wide) in &direct {
                    read.insert(o);
                    if wide {
                        read64.insert(o);
                        read.insert(o + 4);
                    }
                    if name.starts_with('D') && name != "DEPBAR" {
                        double.insert(o & !7);
                    } else if is_float {
                        float.insert(o);
                    }
                }
            }
        }
    }
    let textures = texture_handles(kernel, base);
    let mut slots: BTreeMap<u32, Slot> = BTreeMap::new();
    let mut covered: BTreeSet<u32> = BTreeSet::new();
    for &o in textures.keys() {
        if o % 8 == 0 && !textures.contains_key(&(o + 4)) {
            slots.insert(o, Slot::Texture);
            covered.extend([o, o + 4]);
        } else {
            slots.insert(o, Slot::TextureRef);
            covered.insert(o);
        }
    }
    let texture_words = covered.clone();
    for &o in read
        .iter()
        .filter(|&&o| o % 8 == 0 && !texture_words.contains(&o))
    {
        let flows = to_wide.contains(&o) || to_wide.contains(&(o + 4));
        // The high word of a pointer is read as 64 bits with the low one, by a carry-in
        // sum, or only copied (`MOV R3, c[0x0][o+4]` to the address's high register); a
        // high word that is computed with (`IADD R4, -R2, c[0x0][0x174]`) is a count.
        let high = o + 4;
        let pair = read64.contains(&o)
            || read_x.contains(&high)
            || (read.contains(&high) && !computed.contains(&high));
        if flows && pair {
            slots.insert(o, Slot::Pointer64);
            covered.extend([o, o + 4]);
        } else if double.contains(&o) {
            slots.insert(o, Slot::Double);
            covered.extend([o, o + 4]);
        }
    }
    for &o in read.iter().filter(|o| !covered.contains(o)) {
        let slot = if to_narrow.contains(&o) && !to_wide.contains(&o) {
            Slot::Pointer32
        } else if float.contains(&o) {
            Slot::Float
        } else {
            Slot::Integer
        };
        slots.insert(o, slot);
    }
    Layout {
        base,
        slots,
        textures,
    }
}

/// Texture and surface opcodes (their handle operands: see `sim::texture`).
const TEXTURE_OPS: &[&str] = &[
    "TEX", "TEXS", "TLD", "TLDS", "TLD4", "TLD4S", "TXQ", "TXD", "TMML", "SULD", "SUST", "SURED",
    "SUATOM", "SUQ",
];

/// The words a fetch's channel mask reaches (`R` 1, `RG` 2, `RGB`/`RGBA` 4; a mask like
/// `0x3` the same; none printed: all four), rounded to a CUDA format's 1, 2 or 4.
fn mask_words(ins: &Instruction) -> u32 {
    let last = ins
        .operands
        .last()
        .map(|o| o.text.trim().to_ascii_uppercase());
    let highest = match last.as_deref() {
        Some(t) if t.chars().all(|c| "RGBA".contains(c)) && !t.is_empty() => {
            t.chars().filter_map(|c| "RGBA".find(c)).max().unwrap_or(0)
        }
        Some(t) => match isa::number::parse_uint(t) {
            Some(v @ 1..=0xf) => 63 - v.leading_zeros() as usize,
            _ => 3,
        },
        None => 0,
    };
    [1, 2, 4, 4][highest.min(3)]
}

/// The parameter offsets (from `base`) of the texture and surface handles `kernel`'s
/// texture and surface instructions name, and how they are used: the word or pair an
/// immediate handle index points at (`0x5a` → `c[0x0][0x168]`; with the sm_70+ operand
/// pair `0x0, 0x62` the second), or the parameter a uniform-register handle was copied
/// from (`ULDC UR4, c[0x0][0x238]; UMOV UR12, UR4; TEX … UR12, 0x0`).
fn texture_handles(kernel: &Kernel, base: u32) -> BTreeMap<u32, TextureUse> {
    let mut copies: BTreeMap<Register, u32> = BTreeMap::new();
    let mut out: BTreeMap<u32, TextureUse> = BTreeMap::new();
    for ins in &kernel.instructions {
        let name = ins.opcode.name.as_str();
        if TEXTURE_OPS.contains(&name) {
            let mut handle = None;
            for op in &ins.operands {
                match &op.kind {
                    OperandKind::Register {
                        reg: r @ Register::Uniform(_),
                    } => handle = copies.get(r).copied().or(handle),
                    OperandKind::Immediate {
                        value: isa::Immediate::Int(v),
                    } if handle.is_none() && *v > 0 => {
                        let o = u32::try_from(*v * 4).ok().and_then(|o| o.checked_sub(base));
                        handle = o.or(handle);
                    }
                    _ => {}
                }
            }
            if let Some(o) = handle.filter(|o| o % 4 == 0) {
                let one_d = matches!(name, "TLD" | "TLDS")
                    && ins
                        .operands
                        .iter()
                        .any(|op| op.text.eq_ignore_ascii_case("1D"));
                let words = if name.starts_with("SU") {
                    1
                } else {
                    mask_words(ins)
                };
                let u = out.entry(o).or_insert(TextureUse {
                    one_d,
                    texel_words: words,
                });
                u.one_d &= one_d;
                u.texel_words = u.texel_words.max(words);
            }
        }
        let copy = matches!(name, "ULDC" | "UMOV" | "LDC" | "MOV");
        let source = ins.operands.get(1).and_then(|op| match &op.kind {
            OperandKind::Constant { bank: 0, address } if address.base.is_none() => {
                u32::try_from(address.offset).ok()?.checked_sub(base)
            }
            OperandKind::Register { reg } => copies.get(reg).copied(),
            _ => None,
        });
        for w in &ins.writes {
            match source.filter(|_| copy && ins.operands.len() == 2) {
                Some(o) => copies.insert(w.clone(), o),
                None => copies.remove(w),
            };
        }
    }
    out
}

/// The bindings an automatic launch gives the texture parameters of `layout` (`words`: the
/// parameter words): each handle's buffer read as [`AUTO_TEXTURE_SIDE`]² texels — one row of
/// that many when only 1D integer fetches use it — of as many words as its fetches' channel
/// masks reach.
pub fn auto_textures(layout: &Layout, words: &[u32]) -> Vec<sim::TextureBinding> {
    layout
        .slots
        .iter()
        .filter(|(_, &s)| matches!(s, Slot::Texture | Slot::TextureRef))
        .map(|(&o, &s)| {
            let i = o as usize / 4;
            let w = |k: usize| u64::from(words.get(k).copied().unwrap_or(0));
            let handle = if s == Slot::Texture {
                w(i) | w(i + 1) << 32
            } else {
                w(i)
            };
            let u = layout.textures.get(&o).copied().unwrap_or(TextureUse {
                one_d: false,
                texel_words: 1,
            });
            let (width, height) = if u.one_d {
                (AUTO_TEXTURE_SIDE * AUTO_TEXTURE_SIDE, 1)
            } else {
                (AUTO_TEXTURE_SIDE, AUTO_TEXTURE_SIDE)
            };
            sim::TextureBinding {
                handle,
                width,
                height,
                texel_words: u.texel_words,
            }
        })
        .collect()
}

/// Width and height of an automatic texture binding: 64 texels, the automatic integer
/// parameter (so a kernel that reads its image size from the parameters sees the same).
pub const AUTO_TEXTURE_SIDE: u32 = AUTO_INTEGER as u32;

/// Shared memory an automatic launch gives a kernel that accesses shared memory when the
/// request gives none: 48 KiB, the most a block may declare statically on every architecture
/// from Fermi to Hopper (CUDA C++ Programming Guide, "Technical Specifications per Compute
/// Capability": "Maximum amount of shared memory per thread block" without opt-in). A listing
/// does not say how much its block declares.
pub const AUTO_SHARED_BYTES: u32 = 48 * 1024;

/// Whether `kernel` reads or writes shared memory (`LDS`, `STS`, `ATOMS`, `LDSM`, Fermi's
/// `LD.S`/`ST.S` spelled as `LDS`/`STS` too).
pub fn uses_shared(kernel: &Kernel) -> bool {
    kernel.instructions.iter().any(|i| {
        let n = i.opcode.name.as_str();
        matches!(n, "LDS" | "STS" | "ATOMS" | "LDSM" | "REDS")
    })
}

/// The architecture an automatic launch takes for a listing without a `code for sm_XX` line:
/// `sm_20` when it reads `c[0x1][0x100]`, where Fermi keeps the stack pointer (the
/// `FERMI_sm20_mgpu_*` listings of the corpus start with `MOV R1, c [0x1] [0x100]`; Kepler
/// and later read it from bank 0), so that its parameters are found at Fermi's `0x20`
/// (`sim::ConstantLayout`). `None`: keep the listing's (or the default Pascal layout).
pub fn arch_guess(kernel: &Kernel) -> Option<&'static str> {
    if kernel.arch.is_some() {
        return None;
    }
    let fermi_stack = kernel.instructions.iter().any(|i| {
        i.operands.iter().any(|op| {
            matches!(&op.kind, OperandKind::Constant { bank: 1, address }
                if address.base.is_none() && address.offset == 0x100)
        })
    });
    fermi_stack.then_some("sm_20")
}

/// The constant-bank 1–3 words `kernel` reads, in order and once each: what an automatic
/// launch reads as zero (`sim::Launch::unknown_banks_zero`). Fixed offsets are listed as
/// they are (`c[0x2][0x10]`); reads indexed by a register (`LDC R5, c[0x3][R9+0x10]`, a
/// table looked up by a computed index) once per bank and register, with the range of
/// offsets added to it (`c[0x3][R9+0x0…0x4c]`): the index's values are the run's, not the
/// listing's. Fermi's stack pointer `c[0x1][0x100]` is not one: the simulator gives it the
/// top of the local window (`sim::ConstantLayout::fermi_stack`).
pub fn unknown_bank_reads(kernel: &Kernel) -> Vec<String> {
    let fermi_stack = sim::ConstantLayout::for_arch(kernel.arch.as_deref()).fermi_stack;
    let mut seen = BTreeSet::new();
    // (bank, index register) → (first position in `out`, lowest and highest offset).
    let mut indexed: BTreeMap<(u32, String), (usize, i64, i64)> = BTreeMap::new();
    let mut out = Vec::new();
    for ins in &kernel.instructions {
        for op in &ins.operands {
            if let OperandKind::Constant { bank, address } = &op.kind {
                let stack =
                    fermi_stack && (*bank, address.offset) == sim::launch::FERMI_STACK_POINTER;
                if !(1..=3).contains(bank) || stack {
                    continue;
                }
                match &address.base {
                    None | Some(Register::Zero) => {
                        let text = format!("c[{bank:#x}][{:#x}]", address.offset);
                        if seen.insert(text.clone()) {
                            out.push(text);
                        }
                    }
                    Some(r) => {
                        let at = address.offset;
                        let e = indexed.entry((*bank, r.to_string())).or_insert_with(|| {
                            out.push(String::new());
                            (out.len() - 1, at, at)
                        });
                        e.1 = e.1.min(at);
                        e.2 = e.2.max(at);
                    }
                }
            }
        }
    }
    for ((bank, reg), (i, lo, hi)) in indexed {
        let hex = |v: i64| {
            if v < 0 {
                format!("-{:#x}", v.unsigned_abs())
            } else {
                format!("{v:#x}")
            }
        };
        let range = if lo == hi {
            hex(lo)
        } else {
            format!("{}…{}", hex(lo), hex(hi))
        };
        out[i] = format!("c[{bank:#x}][{reg}+{range}] (indexed)");
    }
    out
}

/// The automatic values of `layout` as parameter words (the k-th pointer at
/// `POINTER_BASE + k · POINTER_STRIDE`).
pub fn auto_words(layout: &Layout) -> Vec<u32> {
    let mut words = vec![0u32; layout.len_words()];
    let mut pointers = 0u64;
    for (&o, &slot) in &layout.slots {
        let i = o as usize / 4;
        match slot {
            Slot::Pointer64 | Slot::Pointer32 | Slot::Texture | Slot::TextureRef => {
                let a = POINTER_BASE.saturating_add(pointers.saturating_mul(POINTER_STRIDE));
                pointers += 1;
                words[i] = a as u32;
                if !matches!(slot, Slot::Pointer32 | Slot::TextureRef) {
                    words[i + 1] = (a >> 32) as u32;
                }
            }
            Slot::Float => words[i] = (AUTO_FLOAT as f32).to_bits(),
            Slot::Double => {
                let b = AUTO_FLOAT.to_bits();
                words[i] = b as u32;
                words[i + 1] = (b >> 32) as u32;
            }
            Slot::Integer => words[i] = AUTO_INTEGER as u32,
        }
    }
    words
}

/// The name the report and the automatic memory give the parameter at `offset` (`p0x160`:
/// its constant-bank address, which is how the listing names it).
fn name(layout: &Layout, offset: u32) -> String {
    format!("p{:#x}", layout.base + offset)
}

/// The report's `arguments` for `words` laid out as `layout` says.
pub fn report(layout: &Layout, words: &[u32], source: ArgumentSource) -> KernelArguments {
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let values = layout
        .slots
        .iter()
        .map(|(&o, &slot)| {
            let i = o as usize / 4;
            let pair = u64::from(word(i)) | u64::from(word(i + 1)) << 32;
            let (ty, kind, value, text) = match slot {
                Slot::Pointer64 => (
                    "64-bit pointer",
                    ArgumentKind::Pointer,
                    serde_json::json!(pair),
                    format!("{pair:#x}"),
                ),
                Slot::Texture => (
                    "texture object (an address in the texture model)",
                    ArgumentKind::Pointer,
                    serde_json::json!(pair),
                    format!("{pair:#x}"),
                ),
                Slot::TextureRef => (
                    "texture reference (an address in the texture model)",
                    ArgumentKind::Pointer,
                    serde_json::json!(word(i)),
                    format!("{:#x}", word(i)),
                ),
                Slot::Pointer32 => (
                    "32-bit pointer",
                    ArgumentKind::Pointer,
                    serde_json::json!(word(i)),
                    format!("{:#x}", word(i)),
                ),
                Slot::Float => {
                    let x = f32::from_bits(word(i));
                    (
                        "32-bit float",
                        ArgumentKind::Float,
                        serde_json::json!(x),
                        x.to_string(),
                    )
                }
                Slot::Double => {
                    let x = f64::from_bits(pair);
                    (
                        "64-bit float",
                        ArgumentKind::Float,
                        serde_json::json!(x),
                        x.to_string(),
                    )
                }
                Slot::Integer => (
                    "32-bit word",
                    ArgumentKind::Integer,
                    serde_json::json!(word(i) as i32),
                    (word(i) as i32).to_string(),
                ),
            };
            KernelArgument {
                name: name(layout, o),
                ty: ty.into(),
                kind,
                value,
                text,
                source,
            }
        })
        .collect();
    KernelArguments {
        values,
        params: words
            .iter()
            .map(|w| format!("{w:#x}"))
            .collect::<Vec<_>>()
            .join(","),
        memory: String::new(),
        textures: String::new(),
        outside: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str) -> Kernel {
        let out = isa::sass::parse(src, None, &isa::Limits::default());
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        out.kernel.expect("kernel")
    }

    /// sm_86 `data_if_else(const float *x, float *y, float lo, float hi, int n)` as nvcc lays
    /// it out (see `sim::ConstantLayout`): x through `IMAD.WIDE`, y as the store's base, lo
    /// and hi compared as floats, n as an integer.
    #[test]
    fn volta_pointers_floats_and_integers() {
        let k = kernel(
            "code for sm_86
/*0000*/ S2R R4, SR_TID.X ;
/*0010*/ ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT ;
/*0020*/ @P0 EXIT ;
/*0030*/ IMAD.MOV.U32 R5, RZ, RZ, 0x4 ;
/*0040*/ IMAD.WIDE R2, R4, R5, c[0x0][0x160] ;
/*0050*/ LDG.E R0, [R2.64] ;
/*0060*/ FSETP.GT.AND P0, PT, R0, c[0x0][0x170], PT ;
/*0070*/ FSETP.LT.AND P1, PT, R0, c[0x0][0x174], PT ;
/*0080*/ IMAD.WIDE R6, R4, R5, c[0x0][0x168] ;
/*0090*/ STG.E [R6.64], R0 ;
/*00a0*/ EXIT ;
",
        );
        let l = infer(&k);
        assert_eq!(l.base, 0x160);
        use Slot::*;
        assert_eq!(
            l.slots.iter().map(|(&o, &s)| (o, s)).collect::<Vec<_>>(),
            vec![
                (0, Pointer64),
                (8, Pointer64),
                (0x10, Float),
                (0x14, Float),
                (0x18, Integer)
            ]
        );
        let words = auto_words(&l);
        assert_eq!(
            words,
            vec![0x10_0000, 0, 0x20_0000, 0, 0x3f80_0000, 0x3f80_0000, 64]
        );
        let r = report(&l, &words, ArgumentSource::Auto);
        assert_eq!(
            r.values.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
            ["p0x160", "p0x168", "p0x170", "p0x174", "p0x178"]
        );
        assert_eq!(r.values[1].text, "0x200000");
        assert_eq!(r.values[2].text, "1");
        assert_eq!(r.values[4].text, "64");
    }

    /// Pascal: the pointer's halves read by an `IADD`/`IADD.X` carry chain, then a `.E`
    /// load; a scalar added to the index (not to the pointer's high half) stays an integer.
    #[test]
    fn pascal_carry_chains_make_pointers_and_index_scalars_stay_integers() {
        let k = kernel(
            "code for sm_61
/*0008*/ S2R R0, SR_TID.X ;
/*0010*/ IADD R0, R0, c[0x0][0x148] ;
/*0018*/ SHL R2, R0, 0x2 ;
/*0020*/ IADD R2.CC, R2, c[0x0][0x140] ;
/*0028*/ IADD.X R3, RZ, c[0x0][0x144] ;
/*0030*/ LDG.E R4, [R2] ;
/*0038*/ EXIT ;
",
        );
        let l = infer(&k);
        assert_eq!(l.base, 0x140);
        // 0x148 flows into R2 (the low half) too, but its pair word 0x14c is never read.
        assert_eq!(
            l.slots.iter().map(|(&o, &s)| (o, s)).collect::<Vec<_>>(),
            vec![(0, Slot::Pointer64), (8, Slot::Integer)]
        );
        assert_eq!(auto_words(&l), vec![0x10_0000, 0, 64]);
    }

    /// Two counts side by side (`mergeElementaryIntervals`, sm_61: a stride at 0x170 added
    /// to an index, a length at 0x174 subtracted from): both read, the first flows into an
    /// address, but the second is computed with, so neither is a pointer.
    #[test]
    fn adjacent_counts_are_not_a_pointer() {
        let k = kernel(
            "code for sm_61
/*0008*/ S2R R0, SR_TID.X ;
/*0010*/ IADD R4, -R0, c[0x0][0x174] ;
/*0018*/ IADD R6, R0, c[0x0][0x170] ;
/*0020*/ SHR R9, R6, 0x1e ;
/*0028*/ ISCADD R6, R6, RZ, 0x2 ;
/*0030*/ IADD R2.CC, R6, c[0x0][0x140] ;
/*0038*/ IADD.X R3, R9, c[0x0][0x144] ;
/*0040*/ STG.E [R2], R4 ;
/*0048*/ EXIT ;
",
        );
        let l = infer(&k);
        assert_eq!(
            l.slots.iter().map(|(&o, &s)| (o, s)).collect::<Vec<_>>(),
            vec![
                (0, Slot::Pointer64),
                (0x30, Slot::Integer),
                (0x34, Slot::Integer)
            ]
        );
    }

    /// Hopper's `matrixMul` loads its two counts `wA` (0x228) and `wB` (0x22c) with 32-bit
    /// `LDC`s and computes with them: `wA` flows into an address (`IMAD.WIDE` of an index),
    /// but `wB` is shifted, so the pair is two integers, not a pointer; the pointer pair at
    /// 0x210 read by `LDC.64` stays one (its high register summed by `IMAD.WIDE`).
    #[test]
    fn counts_copied_then_computed_are_not_a_pointer() {
        let k = kernel(
            "code for sm_90
/*0000*/ LDC R4, c[0x0][0x228] ;
/*0010*/ S2R R2, SR_TID.X ;
/*0020*/ LDC R8, c[0x0][0x22c] ;
/*0030*/ LDC.64 R18, c[0x0][0x210] ;
/*0040*/ SHF.L.U32 R16, R8, 0x5, RZ ;
/*0050*/ IMAD R3, R2, R4, R16 ;
/*0060*/ IMAD.WIDE R18, R3, 0x4, R18 ;
/*0070*/ STG.E [R18.64], R2 ;
/*0080*/ EXIT ;
",
        );
        let l = infer(&k);
        assert_eq!(
            l.slots.iter().map(|(&o, &s)| (o, s)).collect::<Vec<_>>(),
            vec![
                (0, Slot::Pointer64),
                (0x18, Slot::Integer),
                (0x1c, Slot::Integer)
            ]
        );
    }

    /// The words of banks 1–3 an automatic launch reads as 0, as its warning lists them:
    /// fixed offsets as they are, indexed reads once per bank and index register with the
    /// range of offsets added to it, in the order of their first read.
    #[test]
    fn unknown_bank_reads_list_indexed_reads_with_their_offsets() {
        let k = kernel(
            "code for sm_86
/*0000*/ LDC R5, c[0x3][R9+0x10] ;
/*0010*/ LDC R7, c[0x2][0x8] ;
/*0020*/ LDC R6, c[0x3][R9+0x4c] ;
/*0030*/ ULDC UR6, c[0x3][UR4+-0x4] ;
/*0040*/ LDC R8, c[0x3][R9] ;
/*0050*/ LDC R7, c[0x2][0x8] ;
/*0060*/ EXIT ;
",
        );
        assert_eq!(
            unknown_bank_reads(&k),
            [
                "c[0x3][R9+0x0…0x4c] (indexed)",
                "c[0x2][0x8]",
                "c[0x3][UR4+-0x4] (indexed)"
            ]
        );
    }

    /// A kernel that reads no parameter has an empty area.
    #[test]
    fn no_parameters() {
        let k = kernel("code for sm_86\n/*0000*/ S2R R0, SR_TID.X ;\n/*0010*/ EXIT ;\n");
        let l = infer(&k);
        assert!(l.slots.is_empty());
        assert_eq!(auto_words(&l), Vec::<u32>::new());
    }
}
