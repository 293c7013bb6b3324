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
//!
//! The names are listed in one submodule per encoding family (`scalar_alu`, `scalar_memory`,
//! `vector_alu`, `vop3`, `lds`, `vector_memory`); this module holds the entry type, the
//! rules that derive unit and role from a name, and the lookup.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::program::GcnUnit;

mod lds;
mod scalar_alu;
mod scalar_memory;
mod vector_alu;
mod vector_memory;
mod vop3;

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
    scalar_alu::add_sop2(&mut b);
    scalar_alu::add_sopk(&mut b);
    scalar_alu::add_sop1(&mut b);
    scalar_alu::add_sopc(&mut b);
    scalar_alu::add_sopp(&mut b);
    scalar_memory::add_smem(&mut b);
    vector_alu::add_vop2(&mut b);
    vector_alu::add_vop1(&mut b);
    vop3::add_vop3(&mut b);
    vop3::add_vop3p(&mut b);
    vector_alu::add_vopc(&mut b);
    vector_alu::add_vintrp(&mut b);
    lds::add_ds(&mut b);
    vector_memory::add_vector_memory(&mut b);
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
