//! The mnemonics of GCN3 (GFX8, *AMD GCN3 ISA* manual) and Vega (GFX9, *AMD Vega ISA*
//! manual), spelled as LLVM's AMDGPU assembler spells them (LLVM `AMDGPUAsmGFX8`/
//! `AMDGPUAsmGFX9` syntax pages), each with its encoding family, executing unit, role for
//! the analyses and a one-line description.
//!
//! What this table *is*: the list of names the GCN3 front end accepts without a warning,
//! and the facts the strict front end (module `strictness`) needs about them. Encoding
//! suffixes are accepted as variants of a base name: `_e32`, `_e64`, `_sdwa` and `_dpp` for
//! VOP1/VOP2/VOPC, `_e64` for VOP3 (GCN3 ISA §6 "Vector ALU Operations": the 32-bit VOP1/
//! VOP2/VOPC encodings, their VOP3 64-bit form, and the SDWA/DPP extensions).
//!
//! What it is *not*: an encoder, or a per-target validator — a GFX8-only name is accepted in
//! a GFX9 listing and vice versa ([`Targets`] says which); operand types are not checked.
//! Regular families (VOPC compares, atomics, DS/buffer/flat loads and stores, image
//! sampling) are generated from their parts rather than listed one by one.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::program::GcnUnit;

/// Microcode format (GCN3 ISA §12 "Microcode Formats").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smem,
    Vop2,
    Vop1,
    Vopc,
    Vop3,
    Vop3p,
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Global,
    Scratch,
    Mimg,
    Exp,
    /// The PWS `split`/`merge` instructions (Klashtorny et al., §4.1, Fig. 3).
    Pws,
}

impl Encoding {
    /// The family name as the manuals write it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Sop2 => "SOP2",
            Encoding::Sopk => "SOPK",
            Encoding::Sop1 => "SOP1",
            Encoding::Sopc => "SOPC",
            Encoding::Sopp => "SOPP",
            Encoding::Smem => "SMEM",
            Encoding::Vop2 => "VOP2",
            Encoding::Vop1 => "VOP1",
            Encoding::Vopc => "VOPC",
            Encoding::Vop3 => "VOP3",
            Encoding::Vop3p => "VOP3P",
            Encoding::Vintrp => "VINTRP",
            Encoding::Ds => "DS",
            Encoding::Mubuf => "MUBUF",
            Encoding::Mtbuf => "MTBUF",
            Encoding::Flat => "FLAT",
            Encoding::Global => "GLOBAL",
            Encoding::Scratch => "SCRATCH",
            Encoding::Mimg => "MIMG",
            Encoding::Exp => "EXP",
            Encoding::Pws => "PWS",
        }
    }

    /// Encoding suffixes LLVM accepts on names of this family.
    pub fn suffixes(self) -> &'static [&'static str] {
        match self {
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => &["_e32", "_e64", "_sdwa", "_dpp"],
            Encoding::Vop3 => &["_e64"],
            _ => &[],
        }
    }
}

/// Which targets have the mnemonic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    /// GFX8 and GFX9.
    Both,
    /// GCN3 only (removed or renamed in GFX9).
    Gfx8,
    /// Added in GFX9 (Vega); `gfx906`-only dot products and mixes included.
    Gfx9,
}

/// What the mnemonic means to the control-flow analyses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Neither control flow nor masks (its explicit operands may still name `exec`).
    Plain,
    /// Changes the program counter: branches, calls, returns, end of program, traps,
    /// fork/join.
    Control,
    /// Writes `exec` by definition: `*_saveexec_b64`, `*_wrexec_b64`, `v_cmpx_*`.
    ExecMask,
    /// Writes a branch condition by definition: `s_cmp*`/`s_bitcmp*` (SCC), `v_cmp_*`
    /// (VCC or an SGPR pair).
    Condition,
}

impl Role {
    /// Control, execute-mask and condition roles: a misspelling of such a name is an error.
    pub fn is_critical(self) -> bool {
        !matches!(self, Role::Plain)
    }
}

/// One mnemonic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsaEntry {
    /// Base name, lower case, without encoding suffix.
    pub name: String,
    pub encoding: Encoding,
    pub targets: Targets,
    pub unit: GcnUnit,
    pub role: Role,
    /// One line, for hovering.
    pub description: String,
}

/// A table hit: the entry and the encoding suffix the mnemonic carried (`""` if none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup<'a> {
    pub entry: &'a IsaEntry,
    pub suffix: &'static str,
}

struct Table {
    entries: Vec<IsaEntry>,
    index: HashMap<String, usize>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Every entry, in table order (grouped by encoding).
pub fn entries() -> &'static [IsaEntry] {
    &table().entries
}

/// The entry of `mnemonic` (lower case), with or without an encoding suffix its family
/// accepts. `v_add_f32_e32` finds `v_add_f32`; `s_mov_b32_e32` finds nothing.
pub fn lookup(mnemonic: &str) -> Option<Lookup<'static>> {
    let t = table();
    if let Some(&i) = t.index.get(mnemonic) {
        return Some(Lookup {
            entry: &t.entries[i],
            suffix: "",
        });
    }
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(base) = mnemonic.strip_suffix(suffix) {
            if let Some(&i) = t.index.get(base) {
                let e = &t.entries[i];
                if e.encoding.suffixes().contains(&suffix) {
                    return Some(Lookup { entry: e, suffix });
                }
            }
        }
    }
    None
}

/// The one-line description of `mnemonic`, with its family and suffix: what the page shows
/// on hover. `None` for names outside the table.
pub fn describe(mnemonic: &str) -> Option<String> {
    let l = lookup(&mnemonic.to_ascii_lowercase())?;
    let form = match l.suffix {
        "_e32" => " (32-bit encoding)",
        "_e64" => " (VOP3 encoding)",
        "_sdwa" => " (SDWA: sub-dword operand selection)",
        "_dpp" => " (DPP: data-parallel lane permutation)",
        _ => "",
    };
    let gfx = match l.entry.targets {
        Targets::Both => "",
        Targets::Gfx8 => " [GFX8]",
        Targets::Gfx9 => " [GFX9]",
    };
    Some(format!(
        "{}{}{gfx}: {}",
        l.entry.encoding.name(),
        form,
        l.entry.description
    ))
}

/// Unit of a table entry: by encoding, refined by name for the scalar program-control
/// instructions and the double-rate vector operations (the 64-bit rule the latency tables
/// of the `pws` crate and the simulator use: `_f64`, `_i64`, `_u64`, `_b64` in the name).
fn unit_of(name: &str, enc: Encoding, role: Role) -> GcnUnit {
    match enc {
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp => {
            match name {
                "s_waitcnt" => GcnUnit::Waitcnt,
                "s_barrier" => GcnUnit::Barrier,
                "s_nop" => GcnUnit::Other,
                _ if role == Role::Control && name != "s_trap" => GcnUnit::Branch,
                _ if name.starts_with("s_dcache_") => GcnUnit::ScalarMemory,
                _ => GcnUnit::Salu,
            }
        }
        Encoding::Smem => GcnUnit::ScalarMemory,
        Encoding::Vop1
        | Encoding::Vop2
        | Encoding::Vopc
        | Encoding::Vop3
        | Encoding::Vop3p
        | Encoding::Vintrp => {
            if ["_f64", "_u64", "_i64", "_b64"]
                .iter()
                .any(|p| name.contains(p))
            {
                GcnUnit::ValuF64
            } else {
                GcnUnit::Valu
            }
        }
        Encoding::Ds => GcnUnit::Lds,
        Encoding::Mubuf
        | Encoding::Mtbuf
        | Encoding::Flat
        | Encoding::Global
        | Encoding::Scratch
        | Encoding::Mimg
        | Encoding::Exp => GcnUnit::VectorMemory,
        Encoding::Pws => GcnUnit::Other,
    }
}

fn role_of(name: &str) -> Role {
    let control = name == "s_branch"
        || name.starts_with("s_cbranch_")
        || name.starts_with("s_endpgm")
        || matches!(
            name,
            "s_setpc_b64"
                | "s_swappc_b64"
                | "s_call_b64"
                | "s_rfe_b64"
                | "s_rfe_restore_b64"
                | "s_trap"
                | "split"
                | "merge"
        );
    if control {
        Role::Control
    } else if name.contains("_saveexec_")
        || name.contains("_wrexec_")
        || name.starts_with("v_cmpx_")
    {
        Role::ExecMask
    } else if name.starts_with("s_cmp")
        || name.starts_with("s_bitcmp")
        || name.starts_with("v_cmp_")
    {
        Role::Condition
    } else {
        Role::Plain
    }
}

struct Builder {
    entries: Vec<IsaEntry>,
}

impl Builder {
    fn add(&mut self, enc: Encoding, targets: Targets, name: &str, description: &str) {
        let role = role_of(name);
        self.entries.push(IsaEntry {
            name: name.to_string(),
            encoding: enc,
            targets,
            unit: unit_of(name, enc, role),
            role,
            description: description.to_string(),
        });
    }

    fn list(&mut self, enc: Encoding, targets: Targets, items: &[(&str, &str)]) {
        for (n, d) in items {
            self.add(enc, targets, n, d);
        }
    }
}

fn build() -> Table {
    use Encoding::*;
    use Targets::*;
    let mut b = Builder {
        entries: Vec::with_capacity(2400),
    };
    // SOP2 (GCN3 ISA §5.1, Vega ISA §5.1).
    b.list(
        Sop2,
        Both,
        &[
            ("s_add_u32", "D = S0 + S1 (u32); SCC = carry out"),
            ("s_sub_u32", "D = S0 - S1 (u32); SCC = borrow"),
            ("s_add_i32", "D = S0 + S1 (i32); SCC = signed overflow"),
            ("s_sub_i32", "D = S0 - S1 (i32); SCC = signed overflow"),
            ("s_addc_u32", "D = S0 + S1 + SCC; SCC = carry out"),
            ("s_subb_u32", "D = S0 - S1 - SCC; SCC = borrow"),
            ("s_min_i32", "D = min(S0, S1) (i32); SCC = S0 < S1"),
            ("s_min_u32", "D = min(S0, S1) (u32); SCC = S0 < S1"),
            ("s_max_i32", "D = max(S0, S1) (i32); SCC = S0 > S1"),
            ("s_max_u32", "D = max(S0, S1) (u32); SCC = S0 > S1"),
            ("s_cselect_b32", "D = SCC ? S0 : S1"),
            ("s_cselect_b64", "D = SCC ? S0 : S1 (64-bit)"),
            ("s_and_b32", "D = S0 & S1; SCC = D != 0"),
            ("s_and_b64", "D = S0 & S1 (64-bit); SCC = D != 0"),
            ("s_or_b32", "D = S0 | S1; SCC = D != 0"),
            ("s_or_b64", "D = S0 | S1 (64-bit); SCC = D != 0"),
            ("s_xor_b32", "D = S0 ^ S1; SCC = D != 0"),
            ("s_xor_b64", "D = S0 ^ S1 (64-bit); SCC = D != 0"),
            ("s_andn2_b32", "D = S0 & ~S1; SCC = D != 0"),
            ("s_andn2_b64", "D = S0 & ~S1 (64-bit); SCC = D != 0"),
            ("s_orn2_b32", "D = S0 | ~S1; SCC = D != 0"),
            ("s_orn2_b64", "D = S0 | ~S1 (64-bit); SCC = D != 0"),
            ("s_nand_b32", "D = ~(S0 & S1); SCC = D != 0"),
            ("s_nand_b64", "D = ~(S0 & S1) (64-bit); SCC = D != 0"),
            ("s_nor_b32", "D = ~(S0 | S1); SCC = D != 0"),
            ("s_nor_b64", "D = ~(S0 | S1) (64-bit); SCC = D != 0"),
            ("s_xnor_b32", "D = ~(S0 ^ S1); SCC = D != 0"),
            ("s_xnor_b64", "D = ~(S0 ^ S1) (64-bit); SCC = D != 0"),
            ("s_lshl_b32", "D = S0 << S1[4:0]; SCC = D != 0"),
            ("s_lshl_b64", "D = S0 << S1[5:0] (64-bit); SCC = D != 0"),
            ("s_lshr_b32", "D = S0 >> S1[4:0] (logical); SCC = D != 0"),
            ("s_lshr_b64", "D = S0 >> S1[5:0] (64-bit, logical); SCC = D != 0"),
            ("s_ashr_i32", "D = S0 >> S1[4:0] (arithmetic); SCC = D != 0"),
            ("s_ashr_i64", "D = S0 >> S1[5:0] (64-bit, arithmetic); SCC = D != 0"),
            ("s_bfm_b32", "D = bit mask of S0[4:0] ones shifted left by S1[4:0]"),
            ("s_bfm_b64", "D = 64-bit mask of S0[5:0] ones shifted left by S1[5:0]"),
            ("s_mul_i32", "D = S0 * S1, low 32 bits"),
            ("s_bfe_u32", "D = bit field of S0 (offset S1[4:0], width S1[22:16]), zero-extended; SCC = D != 0"),
            ("s_bfe_i32", "D = bit field of S0 (offset S1[4:0], width S1[22:16]), sign-extended; SCC = D != 0"),
            ("s_bfe_u64", "D = bit field of S0 (64-bit), zero-extended; SCC = D != 0"),
            ("s_bfe_i64", "D = bit field of S0 (64-bit), sign-extended; SCC = D != 0"),
            ("s_cbranch_g_fork", "fork: push the mask of the path not taken on the control stack and branch (S0 mask, S1 target)"),
            ("s_absdiff_i32", "D = |S0 - S1|; SCC = D != 0"),
            ("s_rfe_restore_b64", "return from exception handler, restoring state"),
        ],
    );
    b.list(
        Sop2,
        Gfx9,
        &[
            ("s_mul_hi_u32", "D = (S0 * S1) >> 32 (u32)"),
            ("s_mul_hi_i32", "D = (S0 * S1) >> 32 (i32)"),
            ("s_lshl1_add_u32", "D = (S0 << 1) + S1; SCC = carry out"),
            ("s_lshl2_add_u32", "D = (S0 << 2) + S1; SCC = carry out"),
            ("s_lshl3_add_u32", "D = (S0 << 3) + S1; SCC = carry out"),
            ("s_lshl4_add_u32", "D = (S0 << 4) + S1; SCC = carry out"),
            ("s_pack_ll_b32_b16", "D = {S1[15:0], S0[15:0]}"),
            ("s_pack_lh_b32_b16", "D = {S1[31:16], S0[15:0]}"),
            ("s_pack_hh_b32_b16", "D = {S1[31:16], S0[31:16]}"),
        ],
    );
    // SOPK.
    b.list(
        Sopk,
        Both,
        &[
            ("s_movk_i32", "D = sign-extended 16-bit immediate"),
            ("s_cmovk_i32", "if SCC: D = sign-extended 16-bit immediate"),
            ("s_cmpk_eq_i32", "SCC = S0 == imm16 (i32)"),
            ("s_cmpk_lg_i32", "SCC = S0 != imm16 (i32)"),
            ("s_cmpk_gt_i32", "SCC = S0 > imm16 (i32)"),
            ("s_cmpk_ge_i32", "SCC = S0 >= imm16 (i32)"),
            ("s_cmpk_lt_i32", "SCC = S0 < imm16 (i32)"),
            ("s_cmpk_le_i32", "SCC = S0 <= imm16 (i32)"),
            ("s_cmpk_eq_u32", "SCC = S0 == imm16 (u32)"),
            ("s_cmpk_lg_u32", "SCC = S0 != imm16 (u32)"),
            ("s_cmpk_gt_u32", "SCC = S0 > imm16 (u32)"),
            ("s_cmpk_ge_u32", "SCC = S0 >= imm16 (u32)"),
            ("s_cmpk_lt_u32", "SCC = S0 < imm16 (u32)"),
            ("s_cmpk_le_u32", "SCC = S0 <= imm16 (u32)"),
            (
                "s_addk_i32",
                "D = D + sign-extended imm16; SCC = signed overflow",
            ),
            ("s_mulk_i32", "D = D * sign-extended imm16"),
            (
                "s_cbranch_i_fork",
                "fork with an immediate target: push the path not taken on the control stack",
            ),
            ("s_getreg_b32", "D = hardware register field (hwreg)"),
            ("s_setreg_b32", "hardware register field (hwreg) = S0"),
            (
                "s_setreg_imm32_b32",
                "hardware register field (hwreg) = 32-bit immediate",
            ),
        ],
    );
    b.add(
        Sopk,
        Gfx9,
        "s_call_b64",
        "call: D = address of the next instruction; jump to the label",
    );
    // SOP1.
    b.list(
        Sop1,
        Both,
        &[
            ("s_mov_b32", "D = S0"),
            ("s_mov_b64", "D = S0 (64-bit)"),
            ("s_cmov_b32", "if SCC: D = S0"),
            ("s_cmov_b64", "if SCC: D = S0 (64-bit)"),
            ("s_not_b32", "D = ~S0; SCC = D != 0"),
            ("s_not_b64", "D = ~S0 (64-bit); SCC = D != 0"),
            ("s_wqm_b32", "whole quad mode: each 4-bit group of D = any bit of S0's group; SCC = D != 0"),
            ("s_wqm_b64", "whole quad mode (64-bit): each 4-bit group of D = any bit of S0's group; SCC = D != 0"),
            ("s_brev_b32", "D = S0 bit-reversed"),
            ("s_brev_b64", "D = S0 bit-reversed (64-bit)"),
            ("s_bcnt0_i32_b32", "D = number of zero bits in S0; SCC = D != 0"),
            ("s_bcnt0_i32_b64", "D = number of zero bits in S0 (64-bit); SCC = D != 0"),
            ("s_bcnt1_i32_b32", "D = number of one bits in S0; SCC = D != 0"),
            ("s_bcnt1_i32_b64", "D = number of one bits in S0 (64-bit); SCC = D != 0"),
            ("s_ff0_i32_b32", "D = index of the first zero bit from the LSB, -1 if none"),
            ("s_ff0_i32_b64", "D = index of the first zero bit from the LSB (64-bit), -1 if none"),
            ("s_ff1_i32_b32", "D = index of the first one bit from the LSB, -1 if none"),
            ("s_ff1_i32_b64", "D = index of the first one bit from the LSB (64-bit), -1 if none"),
            ("s_flbit_i32_b32", "D = number of leading zeros from the MSB, -1 if S0 = 0"),
            ("s_flbit_i32_b64", "D = number of leading zeros from the MSB (64-bit), -1 if S0 = 0"),
            ("s_flbit_i32", "D = count of leading bits equal to the sign bit, -1 if all equal"),
            ("s_flbit_i32_i64", "D = count of leading bits equal to the sign bit (64-bit), -1 if all equal"),
            ("s_sext_i32_i8", "D = sign-extended S0[7:0]"),
            ("s_sext_i32_i16", "D = sign-extended S0[15:0]"),
            ("s_bitset0_b32", "D[S0[4:0]] = 0"),
            ("s_bitset0_b64", "D[S0[5:0]] = 0 (64-bit)"),
            ("s_bitset1_b32", "D[S0[4:0]] = 1"),
            ("s_bitset1_b64", "D[S0[5:0]] = 1 (64-bit)"),
            ("s_getpc_b64", "D = address of the next instruction"),
            ("s_setpc_b64", "jump to the address in S0 (returns and indirect jumps)"),
            ("s_swappc_b64", "call: D = address of the next instruction; jump to the address in S0"),
            ("s_rfe_b64", "return from exception handler to the address in S0"),
            ("s_and_saveexec_b64", "D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0"),
            ("s_or_saveexec_b64", "D = EXEC; EXEC = S0 | EXEC; SCC = EXEC != 0"),
            ("s_xor_saveexec_b64", "D = EXEC; EXEC = S0 ^ EXEC; SCC = EXEC != 0"),
            ("s_andn2_saveexec_b64", "D = EXEC; EXEC = S0 & ~EXEC; SCC = EXEC != 0"),
            ("s_orn2_saveexec_b64", "D = EXEC; EXEC = S0 | ~EXEC; SCC = EXEC != 0"),
            ("s_nand_saveexec_b64", "D = EXEC; EXEC = ~(S0 & EXEC); SCC = EXEC != 0"),
            ("s_nor_saveexec_b64", "D = EXEC; EXEC = ~(S0 | EXEC); SCC = EXEC != 0"),
            ("s_xnor_saveexec_b64", "D = EXEC; EXEC = ~(S0 ^ EXEC); SCC = EXEC != 0"),
            ("s_quadmask_b32", "D bit i = any bit of S0's 4-bit group i; SCC = D != 0"),
            ("s_quadmask_b64", "D bit i = any bit of S0's 4-bit group i (64-bit); SCC = D != 0"),
            ("s_movrels_b32", "D = SGPR[S0 + M0] (relative source)"),
            ("s_movrels_b64", "D = SGPR pair[S0 + M0] (relative source)"),
            ("s_movreld_b32", "SGPR[D + M0] = S0 (relative destination)"),
            ("s_movreld_b64", "SGPR pair[D + M0] = S0 (relative destination)"),
            ("s_cbranch_join", "join: pop the control stack and continue the saved path"),
            ("s_abs_i32", "D = |S0|; SCC = D != 0"),
            ("s_set_gpr_idx_idx", "M0[7:0] = S0[7:0] (VGPR index for GPR indexing mode)"),
        ],
    );
    b.list(
        Sop1,
        Gfx9,
        &[
            (
                "s_andn1_saveexec_b64",
                "D = EXEC; EXEC = ~S0 & EXEC; SCC = EXEC != 0",
            ),
            (
                "s_orn1_saveexec_b64",
                "D = EXEC; EXEC = ~S0 | EXEC; SCC = EXEC != 0",
            ),
            (
                "s_andn1_wrexec_b64",
                "EXEC = ~S0 & EXEC; D = EXEC; SCC = EXEC != 0",
            ),
            (
                "s_andn2_wrexec_b64",
                "EXEC = S0 & ~EXEC; D = EXEC; SCC = EXEC != 0",
            ),
            (
                "s_bitreplicate_b64_b32",
                "D = each bit of S0 replicated twice (32 → 64 bits)",
            ),
        ],
    );
    // SOPC.
    for (c, op) in [
        ("eq", "=="),
        ("lg", "!="),
        ("gt", ">"),
        ("ge", ">="),
        ("lt", "<"),
        ("le", "<="),
    ] {
        for ty in ["i32", "u32"] {
            b.add(
                Sopc,
                Both,
                &format!("s_cmp_{c}_{ty}"),
                &format!("SCC = S0 {op} S1 ({ty})"),
            );
        }
    }
    b.list(
        Sopc,
        Both,
        &[
            ("s_cmp_eq_u64", "SCC = S0 == S1 (64-bit)"),
            ("s_cmp_lg_u64", "SCC = S0 != S1 (64-bit)"),
            ("s_bitcmp0_b32", "SCC = S0[S1[4:0]] == 0"),
            ("s_bitcmp1_b32", "SCC = S0[S1[4:0]] == 1"),
            ("s_bitcmp0_b64", "SCC = S0[S1[5:0]] == 0 (64-bit)"),
            ("s_bitcmp1_b64", "SCC = S0[S1[5:0]] == 1 (64-bit)"),
            (
                "s_setvskip",
                "VSKIP = S0[S1[4:0]]: while set, vector instructions are skipped",
            ),
            (
                "s_set_gpr_idx_on",
                "enable GPR indexing mode: M0 = index S0, mode bits imm",
            ),
        ],
    );
    // SOPP.
    b.list(
        Sopp,
        Both,
        &[
            (
                "s_nop",
                "do nothing for imm + 1 wait states (GFX8: 1-8, GFX9: 1-16)",
            ),
            ("s_endpgm", "end of program: the wavefront terminates"),
            ("s_branch", "jump to the label"),
            (
                "s_wakeup",
                "wake the other wavefronts of the workgroup from s_sleep",
            ),
            (
                "s_cbranch_scc0",
                "branch to the label if SCC == 0 (uniform)",
            ),
            (
                "s_cbranch_scc1",
                "branch to the label if SCC == 1 (uniform)",
            ),
            (
                "s_cbranch_vccz",
                "branch to the label if VCC == 0 (uniform)",
            ),
            (
                "s_cbranch_vccnz",
                "branch to the label if VCC != 0 (uniform)",
            ),
            (
                "s_cbranch_execz",
                "branch to the label if EXEC == 0 (no work-item active)",
            ),
            (
                "s_cbranch_execnz",
                "branch to the label if EXEC != 0 (some work-item active)",
            ),
            (
                "s_barrier",
                "wait until every wavefront of the workgroup reaches the barrier",
            ),
            (
                "s_setkill",
                "set the kill bit (debug: terminate the wavefront)",
            ),
            (
                "s_waitcnt",
                "wait until the vmcnt/expcnt/lgkmcnt counters are at most the given values",
            ),
            ("s_sethalt", "halt (imm16[0] = 1) or resume the wavefront"),
            ("s_sleep", "sleep about 64 × imm16[2:0] cycles"),
            (
                "s_setprio",
                "set the wavefront's issue priority to imm16[1:0]",
            ),
            (
                "s_sendmsg",
                "send a message to the host or the graphics pipeline",
            ),
            ("s_sendmsghalt", "send a message, then halt the wavefront"),
            ("s_trap", "enter the trap handler with trap id imm16[7:0]"),
            ("s_icache_inv", "invalidate the instruction cache"),
            ("s_incperflevel", "increment the performance counter level"),
            ("s_decperflevel", "decrement the performance counter level"),
            ("s_ttracedata", "send M0 as thread-trace data"),
            (
                "s_cbranch_cdbgsys",
                "branch to the label if the system debug flag is set",
            ),
            (
                "s_cbranch_cdbguser",
                "branch to the label if the user debug flag is set",
            ),
            (
                "s_cbranch_cdbgsys_or_user",
                "branch to the label if either debug flag is set",
            ),
            (
                "s_cbranch_cdbgsys_and_user",
                "branch to the label if both debug flags are set",
            ),
            ("s_endpgm_saved", "end of program after a context save"),
            ("s_set_gpr_idx_off", "disable GPR indexing mode"),
            ("s_set_gpr_idx_mode", "set the GPR indexing mode bits"),
        ],
    );
    b.add(
        Sopp,
        Gfx9,
        "s_endpgm_ordered_ps_done",
        "end of program, signalling ordered pixel-shader completion",
    );
    // SMEM.
    for (n, w) in [
        ("", "one dword"),
        ("x2", "2 dwords"),
        ("x4", "4 dwords"),
        ("x8", "8 dwords"),
        ("x16", "16 dwords"),
    ] {
        b.add(
            Smem,
            Both,
            &format!("s_load_dword{n}"),
            &format!("scalar load of {w} from memory at base + offset"),
        );
        b.add(
            Smem,
            Both,
            &format!("s_buffer_load_dword{n}"),
            &format!("scalar load of {w} through a buffer resource"),
        );
    }
    for (n, w) in [("", "one dword"), ("x2", "2 dwords"), ("x4", "4 dwords")] {
        b.add(
            Smem,
            Both,
            &format!("s_store_dword{n}"),
            &format!("scalar store of {w} to memory"),
        );
        b.add(
            Smem,
            Both,
            &format!("s_buffer_store_dword{n}"),
            &format!("scalar store of {w} through a buffer resource"),
        );
        b.add(
            Smem,
            Gfx9,
            &format!("s_scratch_load_dword{n}"),
            &format!("scalar load of {w} from scratch memory"),
        );
        b.add(
            Smem,
            Gfx9,
            &format!("s_scratch_store_dword{n}"),
            &format!("scalar store of {w} to scratch memory"),
        );
    }
    b.list(
        Smem,
        Both,
        &[
            ("s_dcache_inv", "invalidate the scalar data cache"),
            ("s_dcache_wb", "write back the scalar data cache"),
            (
                "s_dcache_inv_vol",
                "invalidate volatile lines of the scalar data cache",
            ),
            (
                "s_dcache_wb_vol",
                "write back volatile lines of the scalar data cache",
            ),
            ("s_memtime", "D = 64-bit shader clock counter"),
            ("s_memrealtime", "D = 64-bit real-time clock counter"),
            ("s_atc_probe", "probe the address translation cache"),
            (
                "s_atc_probe_buffer",
                "probe the address translation cache for a buffer",
            ),
        ],
    );
    b.list(
        Smem,
        Gfx9,
        &[
            (
                "s_dcache_discard",
                "discard scalar data cache lines without write-back",
            ),
            (
                "s_dcache_discard_x2",
                "discard two scalar data cache lines without write-back",
            ),
        ],
    );
    for (a, what) in ATOMICS {
        for (x, w) in [("", "32-bit"), ("_x2", "64-bit")] {
            b.add(
                Smem,
                Gfx9,
                &format!("s_atomic_{a}{x}"),
                &format!("scalar {w} atomic {what} in memory"),
            );
            b.add(
                Smem,
                Gfx9,
                &format!("s_buffer_atomic_{a}{x}"),
                &format!("scalar {w} atomic {what} through a buffer resource"),
            );
        }
    }
    // VOP2 (GCN3 ISA §6.1, Vega ISA §6.1).
    b.list(
        Vop2,
        Both,
        &[
            ("v_cndmask_b32", "D = VCC/SDST lane bit ? S1 : S0"),
            ("v_add_f32", "D = S0 + S1 (f32)"),
            ("v_sub_f32", "D = S0 - S1 (f32)"),
            ("v_subrev_f32", "D = S1 - S0 (f32)"),
            ("v_mul_legacy_f32", "D = S0 * S1 (f32, 0 × anything = 0)"),
            ("v_mul_f32", "D = S0 * S1 (f32)"),
            (
                "v_mul_i32_i24",
                "D = S0[23:0] * S1[23:0] (i24), low 32 bits",
            ),
            (
                "v_mul_hi_i32_i24",
                "D = S0[23:0] * S1[23:0] (i24), high 32 bits",
            ),
            (
                "v_mul_u32_u24",
                "D = S0[23:0] * S1[23:0] (u24), low 32 bits",
            ),
            (
                "v_mul_hi_u32_u24",
                "D = S0[23:0] * S1[23:0] (u24), high 32 bits",
            ),
            ("v_min_f32", "D = min(S0, S1) (f32)"),
            ("v_max_f32", "D = max(S0, S1) (f32)"),
            ("v_min_i32", "D = min(S0, S1) (i32)"),
            ("v_max_i32", "D = max(S0, S1) (i32)"),
            ("v_min_u32", "D = min(S0, S1) (u32)"),
            ("v_max_u32", "D = max(S0, S1) (u32)"),
            ("v_lshrrev_b32", "D = S1 >> S0[4:0] (logical)"),
            ("v_ashrrev_i32", "D = S1 >> S0[4:0] (arithmetic)"),
            ("v_lshlrev_b32", "D = S1 << S0[4:0]"),
            ("v_and_b32", "D = S0 & S1"),
            ("v_or_b32", "D = S0 | S1"),
            ("v_xor_b32", "D = S0 ^ S1"),
            ("v_mac_f32", "D = S0 * S1 + D (f32)"),
            ("v_madmk_f32", "D = S0 * K + S1 (f32, K a literal)"),
            ("v_madak_f32", "D = S0 * S1 + K (f32, K a literal)"),
            (
                "v_add_u32",
                "D = S0 + S1 (u32); GFX8: carry out to VCC/SDST, GFX9: no carry",
            ),
            (
                "v_sub_u32",
                "D = S0 - S1 (u32); GFX8: borrow to VCC/SDST, GFX9: no borrow",
            ),
            (
                "v_subrev_u32",
                "D = S1 - S0 (u32); GFX8: borrow to VCC/SDST, GFX9: no borrow",
            ),
            ("v_add_f16", "D = S0 + S1 (f16)"),
            ("v_sub_f16", "D = S0 - S1 (f16)"),
            ("v_subrev_f16", "D = S1 - S0 (f16)"),
            ("v_mul_f16", "D = S0 * S1 (f16)"),
            ("v_mac_f16", "D = S0 * S1 + D (f16)"),
            ("v_madmk_f16", "D = S0 * K + S1 (f16, K a literal)"),
            ("v_madak_f16", "D = S0 * S1 + K (f16, K a literal)"),
            ("v_add_u16", "D = S0 + S1 (u16)"),
            ("v_sub_u16", "D = S0 - S1 (u16)"),
            ("v_subrev_u16", "D = S1 - S0 (u16)"),
            ("v_mul_lo_u16", "D = S0 * S1 (u16), low 16 bits"),
            ("v_lshlrev_b16", "D = S1 << S0[3:0] (16-bit)"),
            ("v_lshrrev_b16", "D = S1 >> S0[3:0] (16-bit, logical)"),
            ("v_ashrrev_i16", "D = S1 >> S0[3:0] (16-bit, arithmetic)"),
            ("v_max_f16", "D = max(S0, S1) (f16)"),
            ("v_min_f16", "D = min(S0, S1) (f16)"),
            ("v_max_u16", "D = max(S0, S1) (u16)"),
            ("v_max_i16", "D = max(S0, S1) (i16)"),
            ("v_min_u16", "D = min(S0, S1) (u16)"),
            ("v_min_i16", "D = min(S0, S1) (i16)"),
            ("v_ldexp_f16", "D = S0 * 2^S1 (f16)"),
        ],
    );
    b.list(
        Vop2,
        Gfx8,
        &[
            (
                "v_addc_u32",
                "D = S0 + S1 + carry-in lane bit; carry out to VCC/SDST",
            ),
            (
                "v_subb_u32",
                "D = S0 - S1 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            (
                "v_subbrev_u32",
                "D = S1 - S0 - borrow-in lane bit; borrow to VCC/SDST",
            ),
        ],
    );
    b.list(
        Vop2,
        Gfx9,
        &[
            ("v_add_co_u32", "D = S0 + S1 (u32); carry out to VCC/SDST"),
            ("v_sub_co_u32", "D = S0 - S1 (u32); borrow to VCC/SDST"),
            ("v_subrev_co_u32", "D = S1 - S0 (u32); borrow to VCC/SDST"),
            (
                "v_addc_co_u32",
                "D = S0 + S1 + carry-in lane bit; carry out to VCC/SDST",
            ),
            (
                "v_subb_co_u32",
                "D = S0 - S1 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            (
                "v_subbrev_co_u32",
                "D = S1 - S0 - borrow-in lane bit; borrow to VCC/SDST",
            ),
            ("v_fmac_f32", "D = fma(S0, S1, D) (f32, gfx906)"),
            ("v_xnor_b32", "D = ~(S0 ^ S1) (gfx906)"),
            (
                "v_pk_fmac_f16",
                "D = fma(S0, S1, D) on two packed f16 (gfx906)",
            ),
        ],
    );
    // VOP1.
    b.list(
        Vop1,
        Both,
        &[
            ("v_nop", "do nothing"),
            ("v_mov_b32", "D = S0"),
            (
                "v_readfirstlane_b32",
                "SGPR D = S0 of the first active lane",
            ),
            ("v_cvt_i32_f64", "D = (i32) S0 (f64)"),
            ("v_cvt_f64_i32", "D = (f64) S0 (i32)"),
            ("v_cvt_f32_i32", "D = (f32) S0 (i32)"),
            ("v_cvt_f32_u32", "D = (f32) S0 (u32)"),
            ("v_cvt_u32_f32", "D = (u32) S0 (f32)"),
            ("v_cvt_i32_f32", "D = (i32) S0 (f32)"),
            ("v_cvt_f16_f32", "D = (f16) S0 (f32)"),
            ("v_cvt_f32_f16", "D = (f32) S0 (f16)"),
            ("v_cvt_rpi_i32_f32", "D = (i32) floor(S0 + 0.5) (f32)"),
            ("v_cvt_flr_i32_f32", "D = (i32) floor(S0) (f32)"),
            ("v_cvt_off_f32_i4", "D = (f32) S0[3:0] (i4) / 16"),
            ("v_cvt_f32_f64", "D = (f32) S0 (f64)"),
            ("v_cvt_f64_f32", "D = (f64) S0 (f32)"),
            ("v_cvt_f32_ubyte0", "D = (f32) S0[7:0]"),
            ("v_cvt_f32_ubyte1", "D = (f32) S0[15:8]"),
            ("v_cvt_f32_ubyte2", "D = (f32) S0[23:16]"),
            ("v_cvt_f32_ubyte3", "D = (f32) S0[31:24]"),
            ("v_cvt_u32_f64", "D = (u32) S0 (f64)"),
            ("v_cvt_f64_u32", "D = (f64) S0 (u32)"),
            ("v_trunc_f64", "D = trunc(S0) (f64)"),
            ("v_ceil_f64", "D = ceil(S0) (f64)"),
            (
                "v_rndne_f64",
                "D = S0 rounded to nearest even integer (f64)",
            ),
            ("v_floor_f64", "D = floor(S0) (f64)"),
            ("v_fract_f32", "D = S0 - floor(S0) (f32)"),
            ("v_trunc_f32", "D = trunc(S0) (f32)"),
            ("v_ceil_f32", "D = ceil(S0) (f32)"),
            (
                "v_rndne_f32",
                "D = S0 rounded to nearest even integer (f32)",
            ),
            ("v_floor_f32", "D = floor(S0) (f32)"),
            ("v_exp_f32", "D = 2^S0 (f32)"),
            ("v_log_f32", "D = log2(S0) (f32)"),
            ("v_rcp_f32", "D = 1 / S0 (f32, approximate)"),
            (
                "v_rcp_iflag_f32",
                "D = 1 / S0 (f32), for integer division; no denormal flush",
            ),
            ("v_rsq_f32", "D = 1 / sqrt(S0) (f32, approximate)"),
            ("v_rcp_f64", "D = 1 / S0 (f64, approximate)"),
            ("v_rsq_f64", "D = 1 / sqrt(S0) (f64, approximate)"),
            ("v_sqrt_f32", "D = sqrt(S0) (f32)"),
            ("v_sqrt_f64", "D = sqrt(S0) (f64)"),
            ("v_sin_f32", "D = sin(S0 × 2π) (f32)"),
            ("v_cos_f32", "D = cos(S0 × 2π) (f32)"),
            ("v_not_b32", "D = ~S0"),
            ("v_bfrev_b32", "D = S0 bit-reversed"),
            (
                "v_ffbh_u32",
                "D = index of the first one bit from the MSB, -1 if none",
            ),
            (
                "v_ffbl_b32",
                "D = index of the first one bit from the LSB, -1 if none",
            ),
            (
                "v_ffbh_i32",
                "D = index of the first bit differing from the sign bit, from the MSB",
            ),
            (
                "v_frexp_exp_i32_f64",
                "D = exponent of S0 (f64) as in frexp",
            ),
            ("v_frexp_mant_f64", "D = mantissa of S0 (f64) as in frexp"),
            ("v_fract_f64", "D = S0 - floor(S0) (f64)"),
            (
                "v_frexp_exp_i32_f32",
                "D = exponent of S0 (f32) as in frexp",
            ),
            ("v_frexp_mant_f32", "D = mantissa of S0 (f32) as in frexp"),
            ("v_clrexcp", "clear the wavefront's exception state"),
            ("v_movreld_b32", "VGPR[D + M0] = S0 (relative destination)"),
            ("v_movrels_b32", "D = VGPR[S0 + M0] (relative source)"),
            ("v_movrelsd_b32", "VGPR[D + M0] = VGPR[S0 + M0]"),
            ("v_cvt_f16_u16", "D = (f16) S0 (u16)"),
            ("v_cvt_f16_i16", "D = (f16) S0 (i16)"),
            ("v_cvt_u16_f16", "D = (u16) S0 (f16)"),
            ("v_cvt_i16_f16", "D = (i16) S0 (f16)"),
            ("v_rcp_f16", "D = 1 / S0 (f16)"),
            ("v_sqrt_f16", "D = sqrt(S0) (f16)"),
            ("v_rsq_f16", "D = 1 / sqrt(S0) (f16)"),
            ("v_log_f16", "D = log2(S0) (f16)"),
            ("v_exp_f16", "D = 2^S0 (f16)"),
            ("v_frexp_mant_f16", "D = mantissa of S0 (f16) as in frexp"),
            (
                "v_frexp_exp_i16_f16",
                "D = exponent of S0 (f16) as in frexp",
            ),
            ("v_floor_f16", "D = floor(S0) (f16)"),
            ("v_ceil_f16", "D = ceil(S0) (f16)"),
            ("v_trunc_f16", "D = trunc(S0) (f16)"),
            (
                "v_rndne_f16",
                "D = S0 rounded to nearest even integer (f16)",
            ),
            ("v_fract_f16", "D = S0 - floor(S0) (f16)"),
            ("v_sin_f16", "D = sin(S0 × 2π) (f16)"),
            ("v_cos_f16", "D = cos(S0 × 2π) (f16)"),
            ("v_exp_legacy_f32", "D = 2^S0 (f32, legacy precision)"),
            ("v_log_legacy_f32", "D = log2(S0) (f32, legacy precision)"),
        ],
    );
    b.add(
        Vop1,
        Gfx8,
        "v_mov_fed_b32",
        "D = S0 with forced ECC error (debug)",
    );
    b.list(
        Vop1,
        Gfx9,
        &[
            ("v_cvt_norm_i16_f16", "D = (i16) normalized S0 (f16)"),
            ("v_cvt_norm_u16_f16", "D = (u16) normalized S0 (f16)"),
            (
                "v_sat_pk_u8_i16",
                "D = two i16 of S0 saturated to u8 and packed",
            ),
            ("v_swap_b32", "swap D and S0"),
            (
                "v_screen_partition_4se_b32",
                "D = screen partition mask for 4 shader engines",
            ),
        ],
    );
    // VOP3-only opcodes (GCN3 ISA §6.4 "VOP3").
    b.list(
        Vop3,
        Both,
        &[
            (
                "v_mad_legacy_f32",
                "D = S0 * S1 + S2 (f32, 0 × anything = 0)",
            ),
            ("v_mad_f32", "D = S0 * S1 + S2 (f32)"),
            (
                "v_mad_i32_i24",
                "D = S0[23:0] * S1[23:0] + S2 (i24 multiply)",
            ),
            (
                "v_mad_u32_u24",
                "D = S0[23:0] * S1[23:0] + S2 (u24 multiply)",
            ),
            (
                "v_cubeid_f32",
                "D = cube map face id of the vector (S0, S1, S2)",
            ),
            (
                "v_cubesc_f32",
                "D = cube map s coordinate of the vector (S0, S1, S2)",
            ),
            (
                "v_cubetc_f32",
                "D = cube map t coordinate of the vector (S0, S1, S2)",
            ),
            (
                "v_cubema_f32",
                "D = 2 × cube map major axis of the vector (S0, S1, S2)",
            ),
            (
                "v_bfe_u32",
                "D = bit field of S0 at offset S1, width S2, zero-extended",
            ),
            (
                "v_bfe_i32",
                "D = bit field of S0 at offset S1, width S2, sign-extended",
            ),
            ("v_bfi_b32", "D = (S0 & S1) | (~S0 & S2) (bit field insert)"),
            ("v_fma_f32", "D = fma(S0, S1, S2) (f32)"),
            ("v_fma_f64", "D = fma(S0, S1, S2) (f64)"),
            (
                "v_lerp_u8",
                "D = per-byte rounded average of S0 and S1 (rounding bits from S2)",
            ),
            ("v_alignbit_b32", "D = ({S0, S1} >> S2[4:0]) low 32 bits"),
            (
                "v_alignbyte_b32",
                "D = ({S0, S1} >> (8 × S2[1:0])) low 32 bits",
            ),
            ("v_min3_f32", "D = min(S0, S1, S2) (f32)"),
            ("v_min3_i32", "D = min(S0, S1, S2) (i32)"),
            ("v_min3_u32", "D = min(S0, S1, S2) (u32)"),
            ("v_max3_f32", "D = max(S0, S1, S2) (f32)"),
            ("v_max3_i32", "D = max(S0, S1, S2) (i32)"),
            ("v_max3_u32", "D = max(S0, S1, S2) (u32)"),
            ("v_med3_f32", "D = median(S0, S1, S2) (f32)"),
            ("v_med3_i32", "D = median(S0, S1, S2) (i32)"),
            ("v_med3_u32", "D = median(S0, S1, S2) (u32)"),
            (
                "v_sad_u8",
                "D = sum of absolute byte differences of S0 and S1, plus S2",
            ),
            (
                "v_sad_hi_u8",
                "D = (sum of absolute byte differences << 16) + S2",
            ),
            (
                "v_sad_u16",
                "D = sum of absolute u16 differences of S0 and S1, plus S2",
            ),
            ("v_sad_u32", "D = |S0 - S1| + S2 (u32)"),
            (
                "v_cvt_pk_u8_f32",
                "D = S2 with byte S1[1:0] replaced by (u8) S0 (f32)",
            ),
            (
                "v_div_fixup_f32",
                "D = f32 division S2 / S1 with quotient estimate S0, special cases fixed up",
            ),
            (
                "v_div_fixup_f64",
                "D = f64 division S2 / S1 with quotient estimate S0, special cases fixed up",
            ),
            (
                "v_div_scale_f32",
                "D = scaled operand of a f32 division; VCC/SDST = scale flag",
            ),
            (
                "v_div_scale_f64",
                "D = scaled operand of a f64 division; VCC/SDST = scale flag",
            ),
            (
                "v_div_fmas_f32",
                "D = fma(S0, S1, S2) (f32), result scaled if VCC",
            ),
            (
                "v_div_fmas_f64",
                "D = fma(S0, S1, S2) (f64), result scaled if VCC",
            ),
            (
                "v_msad_u8",
                "D = masked sum of absolute byte differences, plus S2",
            ),
            (
                "v_qsad_pk_u16_u8",
                "D = four shifted sums of absolute byte differences (u16 packed)",
            ),
            (
                "v_mqsad_pk_u16_u8",
                "D = four masked shifted sums of absolute byte differences (u16 packed)",
            ),
            (
                "v_mqsad_u32_u8",
                "D = four masked shifted sums of absolute byte differences (u32)",
            ),
            (
                "v_mad_u64_u32",
                "D = S0 * S1 + S2 (u32 × u32 + u64); carry out to SDST",
            ),
            (
                "v_mad_i64_i32",
                "D = S0 * S1 + S2 (i32 × i32 + i64); carry out to SDST",
            ),
            ("v_mad_f16", "D = S0 * S1 + S2 (f16)"),
            ("v_mad_u16", "D = S0 * S1 + S2 (u16)"),
            ("v_mad_i16", "D = S0 * S1 + S2 (i16)"),
            ("v_perm_b32", "D = bytes of {S0, S1} selected by S2"),
            ("v_fma_f16", "D = fma(S0, S1, S2) (f16)"),
            (
                "v_div_fixup_f16",
                "D = special-case fix-up of a f16 division",
            ),
            (
                "v_cvt_pkaccum_u8_f32",
                "D byte S1[1:0] = (u8) S0 (f32), other bytes kept",
            ),
            (
                "v_interp_p1ll_f16",
                "D = f16 attribute interpolation, first pass",
            ),
            (
                "v_interp_p1lv_f16",
                "D = f16 attribute interpolation, first pass (vector P0)",
            ),
            (
                "v_interp_p2_f16",
                "D = f16 attribute interpolation, second pass",
            ),
            ("v_add_f64", "D = S0 + S1 (f64)"),
            ("v_mul_f64", "D = S0 * S1 (f64)"),
            ("v_min_f64", "D = min(S0, S1) (f64)"),
            ("v_max_f64", "D = max(S0, S1) (f64)"),
            ("v_ldexp_f64", "D = S0 * 2^S1 (f64)"),
            ("v_mul_lo_u32", "D = S0 * S1, low 32 bits"),
            ("v_mul_hi_u32", "D = S0 * S1 (u32), high 32 bits"),
            ("v_mul_hi_i32", "D = S0 * S1 (i32), high 32 bits"),
            ("v_ldexp_f32", "D = S0 * 2^S1 (f32)"),
            ("v_readlane_b32", "SGPR D = S0 of lane S1"),
            ("v_writelane_b32", "lane S1 of D = SGPR S0"),
            ("v_bcnt_u32_b32", "D = number of one bits in S0, plus S1"),
            (
                "v_mbcnt_lo_u32_b32",
                "D = one bits of S0 below the lane (lanes 0-31), plus S1",
            ),
            (
                "v_mbcnt_hi_u32_b32",
                "D = one bits of S0 below the lane (lanes 32-63), plus S1",
            ),
            ("v_lshlrev_b64", "D = S1 << S0[5:0] (64-bit)"),
            ("v_lshrrev_b64", "D = S1 >> S0[5:0] (64-bit, logical)"),
            ("v_ashrrev_i64", "D = S1 >> S0[5:0] (64-bit, arithmetic)"),
            (
                "v_trig_preop_f64",
                "D = 53 bits of 2/π selected by S1, scaled for S0 (f64)",
            ),
            (
                "v_bfm_b32",
                "D = mask of S0[4:0] ones shifted left by S1[4:0]",
            ),
            (
                "v_cvt_pknorm_i16_f32",
                "D = two f32 converted to normalized i16, packed",
            ),
            (
                "v_cvt_pknorm_u16_f32",
                "D = two f32 converted to normalized u16, packed",
            ),
            (
                "v_cvt_pkrtz_f16_f32",
                "D = two f32 converted to f16 (round to zero), packed",
            ),
            ("v_cvt_pk_u16_u32", "D = {(u16) S1, (u16) S0}"),
            ("v_cvt_pk_i16_i32", "D = {(i16) S1, (i16) S0}"),
        ],
    );
    b.list(
        Vop3,
        Gfx9,
        &[
            (
                "v_mad_legacy_f16",
                "D = S0 * S1 + S2 (f16, GFX8 semantics of v_mad_f16)",
            ),
            (
                "v_mad_legacy_u16",
                "D = S0 * S1 + S2 (u16, GFX8 semantics of v_mad_u16)",
            ),
            (
                "v_mad_legacy_i16",
                "D = S0 * S1 + S2 (i16, GFX8 semantics of v_mad_i16)",
            ),
            (
                "v_fma_legacy_f16",
                "D = fma(S0, S1, S2) (f16, GFX8 semantics of v_fma_f16)",
            ),
            (
                "v_div_fixup_legacy_f16",
                "D = f16 division fix-up (GFX8 semantics of v_div_fixup_f16)",
            ),
            ("v_mad_u32_u16", "D = S0[15:0] * S1[15:0] + S2 (u32)"),
            ("v_mad_i32_i16", "D = S0[15:0] * S1[15:0] + S2 (i32)"),
            ("v_xad_u32", "D = (S0 ^ S1) + S2"),
            ("v_min3_f16", "D = min(S0, S1, S2) (f16)"),
            ("v_min3_i16", "D = min(S0, S1, S2) (i16)"),
            ("v_min3_u16", "D = min(S0, S1, S2) (u16)"),
            ("v_max3_f16", "D = max(S0, S1, S2) (f16)"),
            ("v_max3_i16", "D = max(S0, S1, S2) (i16)"),
            ("v_max3_u16", "D = max(S0, S1, S2) (u16)"),
            ("v_med3_f16", "D = median(S0, S1, S2) (f16)"),
            ("v_med3_i16", "D = median(S0, S1, S2) (i16)"),
            ("v_med3_u16", "D = median(S0, S1, S2) (u16)"),
            ("v_lshl_add_u32", "D = (S0 << S1[4:0]) + S2"),
            ("v_add_lshl_u32", "D = (S0 + S1) << S2[4:0]"),
            ("v_add3_u32", "D = S0 + S1 + S2"),
            ("v_lshl_or_b32", "D = (S0 << S1[4:0]) | S2"),
            ("v_and_or_b32", "D = (S0 & S1) | S2"),
            ("v_or3_b32", "D = S0 | S1 | S2"),
            ("v_pack_b32_f16", "D = {S1[15:0], S0[15:0]} (two f16)"),
            (
                "v_cvt_pknorm_i16_f16",
                "D = two f16 converted to normalized i16, packed",
            ),
            (
                "v_cvt_pknorm_u16_f16",
                "D = two f16 converted to normalized u16, packed",
            ),
            ("v_add_i32", "D = S0 + S1 (i32), optional clamp"),
            ("v_sub_i32", "D = S0 - S1 (i32), optional clamp"),
            ("v_add_i16", "D = S0 + S1 (i16), optional clamp"),
            ("v_sub_i16", "D = S0 - S1 (i16), optional clamp"),
            (
                "v_interp_p2_legacy_f16",
                "D = f16 attribute interpolation, second pass (GFX8 semantics)",
            ),
        ],
    );
    // VOP3P (Vega ISA §6.5 "VOP3P").
    b.list(
        Vop3p,
        Gfx9,
        &[
            ("v_pk_mad_i16", "D = S0 * S1 + S2 on two packed i16"),
            (
                "v_pk_mul_lo_u16",
                "D = S0 * S1 (low 16 bits) on two packed u16",
            ),
            ("v_pk_add_i16", "D = S0 + S1 on two packed i16"),
            ("v_pk_sub_i16", "D = S0 - S1 on two packed i16"),
            (
                "v_pk_lshlrev_b16",
                "D = S1 << S0 on two packed 16-bit values",
            ),
            (
                "v_pk_lshrrev_b16",
                "D = S1 >> S0 (logical) on two packed 16-bit values",
            ),
            (
                "v_pk_ashrrev_i16",
                "D = S1 >> S0 (arithmetic) on two packed i16",
            ),
            ("v_pk_max_i16", "D = max(S0, S1) on two packed i16"),
            ("v_pk_min_i16", "D = min(S0, S1) on two packed i16"),
            ("v_pk_mad_u16", "D = S0 * S1 + S2 on two packed u16"),
            ("v_pk_add_u16", "D = S0 + S1 on two packed u16"),
            ("v_pk_sub_u16", "D = S0 - S1 on two packed u16"),
            ("v_pk_max_u16", "D = max(S0, S1) on two packed u16"),
            ("v_pk_min_u16", "D = min(S0, S1) on two packed u16"),
            ("v_pk_fma_f16", "D = fma(S0, S1, S2) on two packed f16"),
            ("v_pk_add_f16", "D = S0 + S1 on two packed f16"),
            ("v_pk_mul_f16", "D = S0 * S1 on two packed f16"),
            ("v_pk_min_f16", "D = min(S0, S1) on two packed f16"),
            ("v_pk_max_f16", "D = max(S0, S1) on two packed f16"),
            (
                "v_mad_mix_f32",
                "D = S0 * S1 + S2 (f32, each source f32 or f16)",
            ),
            (
                "v_mad_mixlo_f16",
                "D[15:0] = S0 * S1 + S2 as f16 (mixed f32/f16 sources)",
            ),
            (
                "v_mad_mixhi_f16",
                "D[31:16] = S0 * S1 + S2 as f16 (mixed f32/f16 sources)",
            ),
            (
                "v_fma_mix_f32",
                "D = fma(S0, S1, S2) (f32, each source f32 or f16; gfx906)",
            ),
            (
                "v_fma_mixlo_f16",
                "D[15:0] = fma(S0, S1, S2) as f16 (gfx906)",
            ),
            (
                "v_fma_mixhi_f16",
                "D[31:16] = fma(S0, S1, S2) as f16 (gfx906)",
            ),
            (
                "v_dot2_f32_f16",
                "D = S0.x*S1.x + S0.y*S1.y + S2 (f16 pairs, f32 sum; gfx906)",
            ),
            (
                "v_dot2_i32_i16",
                "D = dot product of two i16 pairs + S2 (gfx906)",
            ),
            (
                "v_dot2_u32_u16",
                "D = dot product of two u16 pairs + S2 (gfx906)",
            ),
            ("v_dot4_i32_i8", "D = dot product of four i8 + S2 (gfx906)"),
            ("v_dot4_u32_u8", "D = dot product of four u8 + S2 (gfx906)"),
            ("v_dot8_i32_i4", "D = dot product of eight i4 + S2 (gfx906)"),
            ("v_dot8_u32_u4", "D = dot product of eight u4 + S2 (gfx906)"),
        ],
    );
    // VOPC (GCN3 ISA §6.3 "Vector compare operations").
    const FLOAT_CONDS: &[(&str, &str)] = &[
        ("f", "false"),
        ("lt", "S0 < S1"),
        ("eq", "S0 == S1"),
        ("le", "S0 <= S1"),
        ("gt", "S0 > S1"),
        ("lg", "S0 <> S1 (ordered, not equal)"),
        ("ge", "S0 >= S1"),
        ("o", "ordered (neither is NaN)"),
        ("u", "unordered (either is NaN)"),
        ("nge", "!(S0 >= S1)"),
        ("nlg", "!(S0 <> S1)"),
        ("ngt", "!(S0 > S1)"),
        ("nle", "!(S0 <= S1)"),
        ("neq", "!(S0 == S1)"),
        ("nlt", "!(S0 < S1)"),
        ("tru", "true"),
    ];
    const INT_CONDS: &[(&str, &str)] = &[
        ("f", "false"),
        ("lt", "S0 < S1"),
        ("eq", "S0 == S1"),
        ("le", "S0 <= S1"),
        ("gt", "S0 > S1"),
        ("ne", "S0 != S1"),
        ("ge", "S0 >= S1"),
        ("t", "true"),
    ];
    for (x, into) in [("", "VCC/SDST"), ("x", "VCC/SDST and EXEC")] {
        for ty in ["f16", "f32", "f64"] {
            b.add(
                Vopc,
                Both,
                &format!("v_cmp{x}_class_{ty}"),
                &format!("per lane: is S0's float class ({ty}) in the mask S1? result to {into}"),
            );
            for (c, what) in FLOAT_CONDS {
                b.add(
                    Vopc,
                    Both,
                    &format!("v_cmp{x}_{c}_{ty}"),
                    &format!("per lane: {what} ({ty}); result to {into}"),
                );
            }
        }
        for ty in ["i16", "u16", "i32", "u32", "i64", "u64"] {
            for (c, what) in INT_CONDS {
                b.add(
                    Vopc,
                    Both,
                    &format!("v_cmp{x}_{c}_{ty}"),
                    &format!("per lane: {what} ({ty}); result to {into}"),
                );
            }
        }
    }
    // VINTRP.
    b.list(
        Vintrp,
        Both,
        &[
            (
                "v_interp_p1_f32",
                "D = attribute interpolation, first pass (P0 + i × P10)",
            ),
            (
                "v_interp_p2_f32",
                "D = attribute interpolation, second pass (+ j × P20)",
            ),
            ("v_interp_mov_f32", "D = attribute parameter P0, P10 or P20"),
        ],
    );
    add_ds(&mut b);
    add_vector_memory(&mut b);
    // EXP and the PWS instructions.
    b.add(
        Exp,
        Both,
        "exp",
        "export up to four VGPRs to a render target, position or parameter",
    );
    b.add(
        Pws,
        Both,
        "split",
        "PWS: split the wavefront at the next divergent branch (mask in the two SGPRs)",
    );
    b.add(
        Pws,
        Both,
        "merge",
        "PWS: merge the two split wavefronts at the reconvergence point",
    );
    let mut index = HashMap::with_capacity(b.entries.len());
    for (i, e) in b.entries.iter().enumerate() {
        index.entry(e.name.clone()).or_insert(i);
    }
    Table {
        entries: b.entries,
        index,
    }
}

/// Memory atomics of SMEM (GFX9), MUBUF, FLAT/GLOBAL and MIMG: name part and meaning.
const ATOMICS: &[(&str, &str)] = &[
    ("swap", "swap"),
    ("cmpswap", "compare and swap"),
    ("add", "add"),
    ("sub", "subtract"),
    ("smin", "signed minimum"),
    ("umin", "unsigned minimum"),
    ("smax", "signed maximum"),
    ("umax", "unsigned maximum"),
    ("and", "and"),
    ("or", "or"),
    ("xor", "xor"),
    ("inc", "increment (wrapping at the operand)"),
    ("dec", "decrement (wrapping at the operand)"),
];

fn add_ds(b: &mut Builder) {
    use Encoding::Ds;
    use Targets::*;
    // LDS atomics with and without a returned value (GCN3 ISA §10 "Data Share Operations").
    const DS_ATOMIC_32: &[(&str, &str)] = &[
        ("add_u32", "add"),
        ("sub_u32", "subtract"),
        ("rsub_u32", "reverse subtract"),
        ("inc_u32", "increment (wrapping)"),
        ("dec_u32", "decrement (wrapping)"),
        ("min_i32", "signed minimum"),
        ("max_i32", "signed maximum"),
        ("min_u32", "unsigned minimum"),
        ("max_u32", "unsigned maximum"),
        ("and_b32", "and"),
        ("or_b32", "or"),
        ("xor_b32", "xor"),
        ("mskor_b32", "masked or"),
        ("cmpst_b32", "compare and store"),
        ("cmpst_f32", "compare and store (f32)"),
        ("min_f32", "minimum (f32)"),
        ("max_f32", "maximum (f32)"),
        ("add_f32", "add (f32)"),
    ];
    for (op, what) in DS_ATOMIC_32 {
        b.add(
            Ds,
            Both,
            &format!("ds_{op}"),
            &format!("LDS 32-bit atomic {what}"),
        );
        b.add(
            Ds,
            Both,
            &format!("ds_{}", op.replacen('_', "_rtn_", 1)),
            &format!("LDS 32-bit atomic {what}, returning the old value"),
        );
        if !op.starts_with("mskor") && !op.starts_with("cmpst") && *op != "rsub_u32" {
            b.add(
                Ds,
                Both,
                &format!("ds_{}", op.replacen('_', "_src2_", 1)),
                &format!("LDS 32-bit {what} of a second LDS location (src2 form)"),
            );
        }
    }
    for (op, what) in DS_ATOMIC_32 {
        if *op == "add_f32" {
            continue;
        }
        let op64 = op
            .replace("_u32", "_u64")
            .replace("_i32", "_i64")
            .replace("_b32", "_b64")
            .replace("_f32", "_f64");
        b.add(
            Ds,
            Both,
            &format!("ds_{op64}"),
            &format!("LDS 64-bit atomic {what}"),
        );
        b.add(
            Ds,
            Both,
            &format!("ds_{}", op64.replacen('_', "_rtn_", 1)),
            &format!("LDS 64-bit atomic {what}, returning the old value"),
        );
        if !op.starts_with("mskor") && !op.starts_with("cmpst") && *op != "rsub_u32" {
            b.add(
                Ds,
                Both,
                &format!("ds_{}", op64.replacen('_', "_src2_", 1)),
                &format!("LDS 64-bit {what} of a second LDS location (src2 form)"),
            );
        }
    }
    b.list(
        Ds,
        Both,
        &[
            ("ds_nop", "do nothing"),
            ("ds_write_b8", "LDS store of a byte"),
            ("ds_write_b16", "LDS store of 16 bits"),
            ("ds_write_b32", "LDS store of a dword"),
            (
                "ds_write2_b32",
                "LDS store of two dwords at two offsets (× 4 bytes)",
            ),
            (
                "ds_write2st64_b32",
                "LDS store of two dwords at two offsets (× 256 bytes)",
            ),
            ("ds_write_b64", "LDS store of 64 bits"),
            (
                "ds_write2_b64",
                "LDS store of two 64-bit values at two offsets (× 8 bytes)",
            ),
            (
                "ds_write2st64_b64",
                "LDS store of two 64-bit values at two offsets (× 512 bytes)",
            ),
            ("ds_write_b96", "LDS store of 96 bits"),
            ("ds_write_b128", "LDS store of 128 bits"),
            (
                "ds_write_src2_b32",
                "LDS copy of a dword from a second LDS location",
            ),
            (
                "ds_write_src2_b64",
                "LDS copy of 64 bits from a second LDS location",
            ),
            ("ds_read_b32", "LDS load of a dword"),
            (
                "ds_read2_b32",
                "LDS load of two dwords at two offsets (× 4 bytes)",
            ),
            (
                "ds_read2st64_b32",
                "LDS load of two dwords at two offsets (× 256 bytes)",
            ),
            ("ds_read_i8", "LDS load of a byte, sign-extended"),
            ("ds_read_u8", "LDS load of a byte, zero-extended"),
            ("ds_read_i16", "LDS load of 16 bits, sign-extended"),
            ("ds_read_u16", "LDS load of 16 bits, zero-extended"),
            ("ds_read_b64", "LDS load of 64 bits"),
            (
                "ds_read2_b64",
                "LDS load of two 64-bit values at two offsets (× 8 bytes)",
            ),
            (
                "ds_read2st64_b64",
                "LDS load of two 64-bit values at two offsets (× 512 bytes)",
            ),
            ("ds_read_b96", "LDS load of 96 bits"),
            ("ds_read_b128", "LDS load of 128 bits"),
            (
                "ds_wrxchg_rtn_b32",
                "LDS exchange of a dword, returning the old value",
            ),
            (
                "ds_wrxchg2_rtn_b32",
                "LDS exchange of two dwords, returning the old values",
            ),
            (
                "ds_wrxchg2st64_rtn_b32",
                "LDS exchange of two dwords (× 256-byte offsets)",
            ),
            (
                "ds_wrxchg_rtn_b64",
                "LDS exchange of 64 bits, returning the old value",
            ),
            (
                "ds_wrxchg2_rtn_b64",
                "LDS exchange of two 64-bit values, returning the old values",
            ),
            (
                "ds_wrxchg2st64_rtn_b64",
                "LDS exchange of two 64-bit values (× 512-byte offsets)",
            ),
            (
                "ds_wrap_rtn_b32",
                "LDS wrapping add/subtract, returning the old value",
            ),
            (
                "ds_condxchg32_rtn_b64",
                "LDS conditional exchange of two dwords",
            ),
            (
                "ds_swizzle_b32",
                "D = S0 of another lane of the wavefront (swizzle pattern)",
            ),
            (
                "ds_permute_b32",
                "forward permute: write S0 to the lane given by the address",
            ),
            (
                "ds_bpermute_b32",
                "backward permute: D = S0 of the lane given by the address",
            ),
            ("ds_gws_init", "initialise a global wave sync resource"),
            ("ds_gws_sema_v", "global wave sync semaphore V (release)"),
            ("ds_gws_sema_br", "global wave sync semaphore bulk release"),
            ("ds_gws_sema_p", "global wave sync semaphore P (acquire)"),
            ("ds_gws_barrier", "global wave sync barrier"),
            (
                "ds_consume",
                "atomically decrement a GDS/LDS counter by the active lane count",
            ),
            (
                "ds_append",
                "atomically increment a GDS/LDS counter by the active lane count",
            ),
            ("ds_ordered_count", "ordered GDS counter add"),
        ],
    );
    b.list(
        Ds,
        Gfx9,
        &[
            (
                "ds_read_u8_d16",
                "LDS load of a byte into D[15:0], zero-extended",
            ),
            (
                "ds_read_u8_d16_hi",
                "LDS load of a byte into D[31:16], zero-extended",
            ),
            (
                "ds_read_i8_d16",
                "LDS load of a byte into D[15:0], sign-extended",
            ),
            (
                "ds_read_i8_d16_hi",
                "LDS load of a byte into D[31:16], sign-extended",
            ),
            ("ds_read_u16_d16", "LDS load of 16 bits into D[15:0]"),
            ("ds_read_u16_d16_hi", "LDS load of 16 bits into D[31:16]"),
            ("ds_write_b8_d16_hi", "LDS store of the byte in D[23:16]"),
            ("ds_write_b16_d16_hi", "LDS store of D[31:16]"),
            (
                "ds_read_addtid_b32",
                "LDS load of a dword at offset + lane id × 4",
            ),
            (
                "ds_write_addtid_b32",
                "LDS store of a dword at offset + lane id × 4",
            ),
            (
                "ds_gws_sema_release_all",
                "global wave sync: release all waiting wavefronts",
            ),
        ],
    );
}

fn add_vector_memory(b: &mut Builder) {
    use Encoding::*;
    use Targets::*;
    const LOADS: &[(&str, &str)] = &[
        ("ubyte", "a byte, zero-extended"),
        ("sbyte", "a byte, sign-extended"),
        ("ushort", "16 bits, zero-extended"),
        ("sshort", "16 bits, sign-extended"),
        ("dword", "a dword"),
        ("dwordx2", "2 dwords"),
        ("dwordx3", "3 dwords"),
        ("dwordx4", "4 dwords"),
    ];
    const STORES: &[(&str, &str)] = &[
        ("byte", "a byte"),
        ("short", "16 bits"),
        ("dword", "a dword"),
        ("dwordx2", "2 dwords"),
        ("dwordx3", "3 dwords"),
        ("dwordx4", "4 dwords"),
    ];
    const D16_LOADS: &[(&str, &str)] = &[
        ("ubyte_d16", "a byte into D[15:0], zero-extended"),
        ("ubyte_d16_hi", "a byte into D[31:16], zero-extended"),
        ("sbyte_d16", "a byte into D[15:0], sign-extended"),
        ("sbyte_d16_hi", "a byte into D[31:16], sign-extended"),
        ("short_d16", "16 bits into D[15:0]"),
        ("short_d16_hi", "16 bits into D[31:16]"),
    ];
    const D16_STORES: &[(&str, &str)] = &[
        ("byte_d16_hi", "the byte in D[23:16]"),
        ("short_d16_hi", "D[31:16]"),
    ];
    const FORMATS: &[(&str, &str)] = &[
        ("x", "1 component"),
        ("xy", "2 components"),
        ("xyz", "3 components"),
        ("xyzw", "4 components"),
    ];
    // FLAT (GCN3 ISA §9), GLOBAL and SCRATCH (Vega ISA §9: the same opcodes by segment).
    for (enc, prefix, targets, space) in [
        (Flat, "flat", Both, "flat (generic) address"),
        (Global, "global", Gfx9, "global memory"),
        (Scratch, "scratch", Gfx9, "scratch (private) memory"),
    ] {
        for (n, w) in LOADS {
            b.add(
                enc,
                targets,
                &format!("{prefix}_load_{n}"),
                &format!("vector load of {w} per lane from {space}"),
            );
        }
        for (n, w) in STORES {
            b.add(
                enc,
                targets,
                &format!("{prefix}_store_{n}"),
                &format!("vector store of {w} per lane to {space}"),
            );
        }
        for (n, w) in D16_LOADS {
            b.add(
                enc,
                Gfx9,
                &format!("{prefix}_load_{n}"),
                &format!("vector load of {w} per lane from {space}"),
            );
        }
        for (n, w) in D16_STORES {
            b.add(
                enc,
                Gfx9,
                &format!("{prefix}_store_{n}"),
                &format!("vector store of {w} per lane to {space}"),
            );
        }
        if enc != Scratch {
            for (a, what) in ATOMICS {
                for (x, w) in [("", "32-bit"), ("_x2", "64-bit")] {
                    b.add(
                        enc,
                        targets,
                        &format!("{prefix}_atomic_{a}{x}"),
                        &format!("vector {w} atomic {what} per lane in {space}"),
                    );
                }
            }
        }
    }
    // MUBUF (GCN3 ISA §8 "Vector Memory Operations").
    for (n, w) in LOADS {
        b.add(
            Mubuf,
            Both,
            &format!("buffer_load_{n}"),
            &format!("buffer load of {w} per lane"),
        );
    }
    for (n, w) in STORES {
        b.add(
            Mubuf,
            Both,
            &format!("buffer_store_{n}"),
            &format!("buffer store of {w} per lane"),
        );
    }
    for (n, w) in D16_LOADS {
        b.add(
            Mubuf,
            Gfx9,
            &format!("buffer_load_{n}"),
            &format!("buffer load of {w} per lane"),
        );
    }
    for (n, w) in D16_STORES {
        b.add(
            Mubuf,
            Gfx9,
            &format!("buffer_store_{n}"),
            &format!("buffer store of {w} per lane"),
        );
    }
    for (f, c) in FORMATS {
        for (enc, prefix) in [(Mubuf, "buffer"), (Mtbuf, "tbuffer")] {
            let typed = if enc == Mtbuf {
                " with the instruction's format"
            } else {
                " with the resource's format"
            };
            b.add(
                enc,
                Both,
                &format!("{prefix}_load_format_{f}"),
                &format!("typed buffer load of {c}{typed}"),
            );
            b.add(
                enc,
                Both,
                &format!("{prefix}_store_format_{f}"),
                &format!("typed buffer store of {c}{typed}"),
            );
            b.add(
                enc,
                Both,
                &format!("{prefix}_load_format_d16_{f}"),
                &format!("typed buffer load of {c} as packed 16-bit values{typed}"),
            );
            b.add(
                enc,
                Both,
                &format!("{prefix}_store_format_d16_{f}"),
                &format!("typed buffer store of {c} from packed 16-bit values{typed}"),
            );
        }
    }
    b.list(
        Mubuf,
        Gfx9,
        &[
            (
                "buffer_load_format_d16_hi_x",
                "typed buffer load of 1 component into D[31:16]",
            ),
            (
                "buffer_store_format_d16_hi_x",
                "typed buffer store of 1 component from D[31:16]",
            ),
        ],
    );
    b.list(
        Mubuf,
        Both,
        &[
            (
                "buffer_store_lds_dword",
                "buffer store of a dword read from LDS",
            ),
            (
                "buffer_wbinvl1",
                "write back and invalidate the vector L1 cache",
            ),
            (
                "buffer_wbinvl1_vol",
                "write back and invalidate volatile lines of the vector L1 cache",
            ),
        ],
    );
    for (a, what) in ATOMICS {
        for (x, w) in [("", "32-bit"), ("_x2", "64-bit")] {
            b.add(
                Mubuf,
                Both,
                &format!("buffer_atomic_{a}{x}"),
                &format!("buffer {w} atomic {what} per lane"),
            );
        }
    }
    // MIMG (GCN3 ISA §8.2 "Image Instructions").
    b.list(
        Mimg,
        Both,
        &[
            ("image_load", "image load without sampler (mip level 0)"),
            (
                "image_load_mip",
                "image load without sampler at a given mip level",
            ),
            (
                "image_load_pck",
                "image load of packed data without format conversion",
            ),
            (
                "image_load_pck_sgn",
                "image load of packed data, sign-extended",
            ),
            (
                "image_load_mip_pck",
                "image load of packed data at a given mip level",
            ),
            (
                "image_load_mip_pck_sgn",
                "image load of packed data at a mip level, sign-extended",
            ),
            ("image_store", "image store without sampler"),
            ("image_store_mip", "image store at a given mip level"),
            (
                "image_store_pck",
                "image store of packed data without format conversion",
            ),
            (
                "image_store_mip_pck",
                "image store of packed data at a given mip level",
            ),
            (
                "image_get_resinfo",
                "image resource information (size, levels)",
            ),
            ("image_get_lod", "level of detail the sampler would use"),
        ],
    );
    for (a, what) in ATOMICS {
        b.add(
            Mimg,
            Both,
            &format!("image_atomic_{a}"),
            &format!("image atomic {what} per lane"),
        );
    }
    const SAMPLE: &[(&str, &str)] = &[
        ("", ""),
        ("_cl", ", LOD clamp"),
        ("_d", ", user derivatives"),
        ("_d_cl", ", user derivatives, LOD clamp"),
        ("_l", ", explicit LOD"),
        ("_b", ", LOD bias"),
        ("_b_cl", ", LOD bias and clamp"),
        ("_lz", ", LOD 0"),
        ("_cd", ", coarse user derivatives"),
        ("_cd_cl", ", coarse user derivatives, LOD clamp"),
    ];
    for (c, cw) in [("", ""), ("_c", " with depth compare")] {
        for (m, mw) in SAMPLE {
            for (o, ow) in [("", ""), ("_o", ", texel offset")] {
                b.add(
                    Mimg,
                    Both,
                    &format!("image_sample{c}{m}{o}"),
                    &format!("sampled image load{cw}{mw}{ow}"),
                );
                if !m.contains('d') {
                    b.add(
                        Mimg,
                        Both,
                        &format!("image_gather4{c}{m}{o}"),
                        &format!("gather of four texels of one component{cw}{mw}{ow}"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_lower_case_and_suffix_free() {
        let mut seen = std::collections::HashSet::new();
        for e in entries() {
            assert!(seen.insert(e.name.as_str()), "duplicate {}", e.name);
            assert_eq!(e.name, e.name.to_ascii_lowercase());
            for s in ["_e32", "_e64", "_sdwa", "_dpp"] {
                assert!(!e.name.ends_with(s), "{}", e.name);
            }
            assert!(
                !e.description.is_empty() && e.description.len() < 110,
                "{}",
                e.name
            );
        }
    }

    #[test]
    fn suffixes_follow_the_encoding() {
        assert_eq!(lookup("v_add_f32_e32").map(|l| l.suffix), Some("_e32"));
        assert_eq!(lookup("v_cmp_gt_i32_e64").map(|l| l.suffix), Some("_e64"));
        assert_eq!(lookup("v_mov_b32_sdwa").map(|l| l.suffix), Some("_sdwa"));
        assert_eq!(lookup("v_mov_b32_dpp").map(|l| l.suffix), Some("_dpp"));
        assert_eq!(lookup("v_fma_f32_e64").map(|l| l.suffix), Some("_e64"));
        assert!(lookup("v_fma_f32_e32").is_none());
        assert!(lookup("s_mov_b32_e32").is_none());
        assert!(lookup("s_cbranch_exez").is_none());
    }

    #[test]
    fn roles_and_units() {
        let role = |n: &str| lookup(n).map(|l| l.entry.role);
        assert_eq!(role("s_cbranch_execz"), Some(Role::Control));
        assert_eq!(role("s_swappc_b64"), Some(Role::Control));
        assert_eq!(role("s_and_saveexec_b64"), Some(Role::ExecMask));
        assert_eq!(role("v_cmpx_gt_u32"), Some(Role::ExecMask));
        assert_eq!(role("v_cmp_gt_u32"), Some(Role::Condition));
        assert_eq!(role("s_cmpk_eq_i32"), Some(Role::Condition));
        assert_eq!(role("v_add_f32"), Some(Role::Plain));
        let unit = |n: &str| lookup(n).map(|l| l.entry.unit);
        assert_eq!(unit("s_waitcnt"), Some(GcnUnit::Waitcnt));
        assert_eq!(unit("s_barrier"), Some(GcnUnit::Barrier));
        assert_eq!(unit("s_branch"), Some(GcnUnit::Branch));
        assert_eq!(unit("s_load_dwordx2"), Some(GcnUnit::ScalarMemory));
        assert_eq!(unit("v_fma_f64"), Some(GcnUnit::ValuF64));
        assert_eq!(unit("ds_read2_b32"), Some(GcnUnit::Lds));
        assert_eq!(unit("global_load_dword"), Some(GcnUnit::VectorMemory));
        assert!(describe("V_ADD_F32_E32").is_some_and(|d| d.contains("S0 + S1")));
    }
}
