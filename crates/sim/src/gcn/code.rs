//! Code addresses of a linked GCN3 image ([`isa::gcn::link()`]), so that the instructions
//! LLVM uses to form call targets run with real values: `s_getpc_b64` (GCN3 ISA §5.1,
//! `S_GETPC_B64`: "D = PC + 4", the address of the next instruction) and the relocated
//! literals `sym@rel32@lo/hi`, `sym@gotpcrel32@lo/hi` and `sym@abs32@lo/hi` (ELF
//! relocations `R_AMDGPU_REL32_*`, `R_AMDGPU_GOTPCREL32_*`, `R_AMDGPU_ABS32_*`:
//! `S + A − P`, `G + A − P`, `S + A`).
//!
//! Layout model (the listing has no byte offsets): instruction `i` of the image is at
//! [`CODE_BASE`]` + 8·i` — every instruction is taken to be 8 bytes, the size of the
//! `s_add_u32`/`s_addc_u32` with a 32-bit literal that follow `s_getpc_b64`, which makes
//! LLVM's addends (`+4`, `+12`) land exactly on the symbol; a literal is at the
//! instruction's address + 4. A function's symbol is the address of its first instruction;
//! a symbol the listing does not define (an external function, a global variable) gets an
//! address of its own at [`UNDEFINED_BASE`]` + 0x1000·k`, where no memory is (an access
//! there fails). The GOT slot of the `k`-th symbol (the image's functions first) is at
//! [`GOT_BASE`]` + 8·k` and holds that address; scalar loads from the slot read it.
//!
//! The simulator's calls do not jump to the register value: their target is the statically
//! resolved callee, and a call writes the return address (the address of the next
//! instruction) to its destination pair, as `S_SWAPPC_B64` does.

use isa::gcn::{parse_reloc, GcnOperand, GcnOperandKind, Linked, RelocKind};

/// Where the image starts (below the dispatch packet and the kernel arguments).
pub const CODE_BASE: u64 = 0xfffd_0000_0000;
/// Where the GOT slots are.
pub const GOT_BASE: u64 = 0xfffc_0000_0000;
/// Where the symbols the listing does not define are.
pub const UNDEFINED_BASE: u64 = 0xfffb_0000_0000;

/// The code address of image instruction `i`.
pub fn address(i: usize) -> u64 {
    CODE_BASE.wrapping_add(8u64.wrapping_mul(i as u64))
}

/// The symbols of a linked image with their addresses: the image's functions, then every
/// other symbol its relocations name, in order of appearance. Slot `k` of the GOT holds
/// the address of symbol `k`.
pub fn symbols(linked: &Linked) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = linked
        .parts
        .iter()
        .map(|p| (p.name.clone(), address(p.start)))
        .collect();
    let mut undefined = 0u64;
    for ins in &linked.function.instructions {
        for o in &ins.operands {
            let GcnOperandKind::Expr { text } = &o.kind else {
                continue;
            };
            let Some(r) = parse_reloc(text) else { continue };
            if !out.iter().any(|(n, _)| *n == r.symbol) {
                out.push((r.symbol, UNDEFINED_BASE.wrapping_add(0x1000 * undefined)));
                undefined += 1;
            }
        }
    }
    out
}

/// The GOT: the address held by each slot, slot `k` at `GOT_BASE + 8·k`.
pub fn got(symbols: &[(String, u64)]) -> Vec<u64> {
    symbols.iter().map(|s| s.1).collect()
}

/// Replaces the relocated operands of the image by their values and gives every
/// `s_getpc_b64` its address operand (see the module documentation).
pub fn materialise(linked: &mut Linked, symbols: &[(String, u64)]) {
    let symbol = |name: &str| {
        symbols
            .iter()
            .enumerate()
            .find(|(_, (n, _))| n == name)
            .map(|(k, (_, a))| (*a, GOT_BASE.wrapping_add(8 * k as u64)))
    };
    for (i, ins) in linked.function.instructions.iter_mut().enumerate() {
        if ins.opcode == "s_getpc_b64" && ins.operands.len() == 1 {
            let value = address(i + 1) as i64;
            ins.operands.push(GcnOperand {
                kind: GcnOperandKind::Int { value },
                negated: false,
                absolute: false,
                sext: false,
                text: format!("{value:#x}"),
                span: ins.span,
            });
        }
        let p = address(i).wrapping_add(4);
        for o in &mut ins.operands {
            let GcnOperandKind::Expr { text } = &o.kind else {
                continue;
            };
            let Some(r) = parse_reloc(text) else { continue };
            let Some((s, g)) = symbol(&r.symbol) else {
                continue;
            };
            let v = match r.kind {
                RelocKind::Rel32 => s.wrapping_add(r.addend as u64).wrapping_sub(p),
                RelocKind::GotPcRel32 => g.wrapping_add(r.addend as u64).wrapping_sub(p),
                RelocKind::Abs32 => s.wrapping_add(r.addend as u64),
            };
            let half = if r.hi { v >> 32 } else { v & 0xffff_ffff };
            o.kind = GcnOperandKind::Int { value: half as i64 };
        }
    }
}
