//! GCN3 operands resolved to register-file slots and immediates, and the per-wavefront
//! scalar register file they index.
//!
//! The scalar file of one (split-)wavefront holds `s0`–`s103` and, after them, the named
//! 32-bit halves `vcc_lo/hi`, `exec_lo/hi`, `m0`, `scc` and `flat_scratch_lo/hi` (GCN3 ISA
//! §3.1 "Scalar registers", §3.3 "EXEC", §3.4 "VCC", §3.5 "SCC"), so that a 64-bit
//! operand such as `vcc` or `s[4:5]` is two consecutive slots.

use isa::gcn::{GcnOperand, GcnOperandKind};

/// Addressable SGPRs `s0`–`s103`.
pub const SGPRS: u32 = 104;
pub const VCC_LO: u32 = SGPRS;
pub const VCC_HI: u32 = SGPRS + 1;
pub const EXEC_LO: u32 = SGPRS + 2;
pub const EXEC_HI: u32 = SGPRS + 3;
pub const M0: u32 = SGPRS + 4;
pub const SCC: u32 = SGPRS + 5;
pub const FLAT_SCRATCH_LO: u32 = SGPRS + 6;
pub const FLAT_SCRATCH_HI: u32 = SGPRS + 7;
/// Slots in a scalar file.
pub const SCALAR_SLOTS: usize = (SGPRS + 8) as usize;

/// Where an operand's value lives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Loc {
    /// Scalar-file slot (SGPR or named register half).
    S(u32),
    /// VGPR number.
    V(u32),
    /// Integer constant (inline or literal), sign-extended to 64 bits for 64-bit operands.
    Int(i64),
    /// Floating-point constant; read as `f32` bits by 32-bit operations, `f64` by 64-bit ones.
    Float(f64),
}

/// A source or destination operand: location, register count, and source modifiers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Opnd {
    pub loc: Loc,
    pub count: u32,
    pub neg: bool,
    pub abs: bool,
    /// `sext(vN)`: an SDWA source's selected part is sign-extended ([`super::sdwa`]).
    pub sext: bool,
}

impl Opnd {
    pub fn is_vgpr(&self) -> bool {
        matches!(self.loc, Loc::V(_))
    }

    /// The scalar-file slot of a scalar register operand.
    pub fn sreg(&self) -> Option<u32> {
        match self.loc {
            Loc::S(s) => Some(s),
            _ => None,
        }
    }

    /// Slots (scalar) or VGPRs (vector) this operand touches, for the scoreboard.
    pub fn slots(&self) -> impl Iterator<Item = Loc> + '_ {
        let (loc, n) = (self.loc, self.count);
        (0..n).filter_map(move |i| match loc {
            Loc::S(s) => Some(Loc::S(s + i)),
            Loc::V(v) => Some(Loc::V(v + i)),
            _ => None,
        })
    }
}

/// Resolves one parsed operand; `Err` names what cannot be simulated.
pub fn resolve(op: &GcnOperand) -> Result<Opnd, String> {
    let (loc, count) = match &op.kind {
        GcnOperandKind::Sgpr { first, count } => {
            if first.saturating_add(*count) > SGPRS {
                return Err(format!(
                    "`{}` is beyond s{} (GCN3 has s0–s{})",
                    op.text,
                    SGPRS - 1,
                    SGPRS - 1
                ));
            }
            (Loc::S(*first), *count)
        }
        GcnOperandKind::Vgpr { first, count } => {
            if first.saturating_add(*count) > 256 {
                return Err(format!("`{}` is beyond v255", op.text));
            }
            (Loc::V(*first), *count)
        }
        GcnOperandKind::Special { name } => match name.as_str() {
            "vcc" => (Loc::S(VCC_LO), 2),
            "vcc_lo" => (Loc::S(VCC_LO), 1),
            "vcc_hi" => (Loc::S(VCC_HI), 1),
            "exec" => (Loc::S(EXEC_LO), 2),
            "exec_lo" => (Loc::S(EXEC_LO), 1),
            "exec_hi" => (Loc::S(EXEC_HI), 1),
            "m0" => (Loc::S(M0), 1),
            "scc" => (Loc::S(SCC), 1),
            "flat_scratch" => (Loc::S(FLAT_SCRATCH_LO), 2),
            "flat_scratch_lo" => (Loc::S(FLAT_SCRATCH_LO), 1),
            "flat_scratch_hi" => (Loc::S(FLAT_SCRATCH_HI), 1),
            other => return Err(format!("register `{other}` is not simulated")),
        },
        GcnOperandKind::Int { value } => (Loc::Int(*value), 1),
        GcnOperandKind::Float { value } => (Loc::Float(*value), 1),
        _ => return Err(format!("operand `{}` is not simulated", op.text)),
    };
    Ok(Opnd {
        loc,
        count,
        neg: op.negated,
        abs: op.absolute,
        sext: op.sext,
    })
}

/// One (split-)wavefront's scalar state.
#[derive(Debug, Clone)]
pub struct ScalarFile {
    pub s: Vec<u32>,
}

impl ScalarFile {
    pub fn new() -> Self {
        ScalarFile {
            s: vec![0; SCALAR_SLOTS],
        }
    }

    pub fn get(&self, slot: u32) -> u32 {
        self.s.get(slot as usize).copied().unwrap_or(0)
    }

    pub fn set(&mut self, slot: u32, v: u32) {
        if let Some(x) = self.s.get_mut(slot as usize) {
            *x = v;
        }
    }

    pub fn get64(&self, slot: u32) -> u64 {
        u64::from(self.get(slot)) | (u64::from(self.get(slot + 1)) << 32)
    }

    pub fn set64(&mut self, slot: u32, v: u64) {
        self.set(slot, v as u32);
        self.set(slot + 1, (v >> 32) as u32);
    }

    pub fn exec(&self) -> u64 {
        self.get64(EXEC_LO)
    }

    pub fn set_exec(&mut self, v: u64) {
        self.set64(EXEC_LO, v);
    }

    pub fn scc(&self) -> bool {
        self.get(SCC) != 0
    }

    pub fn set_scc(&mut self, b: bool) {
        self.set(SCC, u32::from(b));
    }

    pub fn vcc(&self) -> u64 {
        self.get64(VCC_LO)
    }

    /// A 32-bit scalar read of `o` (SGPR, named half, or constant as its low 32 bits /
    /// `f32` bits).
    pub fn read32(&self, o: &Opnd) -> u32 {
        match o.loc {
            Loc::S(s) => self.get(s),
            Loc::Int(i) => i as u32,
            Loc::Float(f) => (f as f32).to_bits(),
            Loc::V(_) => 0,
        }
    }

    /// A 64-bit scalar read (register pair, or sign-extended integer / `f64` bits).
    pub fn read64(&self, o: &Opnd) -> u64 {
        match o.loc {
            Loc::S(s) => self.get64(s),
            Loc::Int(i) => i as u64,
            Loc::Float(f) => f.to_bits(),
            Loc::V(_) => 0,
        }
    }
}

impl Default for ScalarFile {
    fn default() -> Self {
        ScalarFile::new()
    }
}

/// The vector register file of one wavefront (shared by its split-wavefronts, PWS §4.1):
/// `vgprs × lanes` words.
#[derive(Debug, Clone)]
pub struct VectorFile {
    pub lanes: usize,
    pub v: Vec<u32>,
}

impl VectorFile {
    pub fn new(vgprs: usize, lanes: usize) -> Self {
        VectorFile {
            lanes,
            v: vec![0; vgprs * lanes],
        }
    }

    pub fn get(&self, reg: u32, lane: usize) -> u32 {
        self.v
            .get(reg as usize * self.lanes + lane)
            .copied()
            .unwrap_or(0)
    }

    pub fn set(&mut self, reg: u32, lane: usize, val: u32) {
        if let Some(x) = self.v.get_mut(reg as usize * self.lanes + lane) {
            *x = val;
        }
    }
}

/// A 32-bit per-lane read of `o`: VGPR of the lane, else the scalar value.
pub fn lane32(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, lane: usize) -> u32 {
    match o.loc {
        Loc::V(v) => vf.get(v, lane),
        _ => sf.read32(o),
    }
}

/// A 64-bit per-lane read of `o` (VGPR pair, SGPR pair or constant).
pub fn lane64(sf: &ScalarFile, vf: &VectorFile, o: &Opnd, lane: usize) -> u64 {
    match o.loc {
        Loc::V(v) => u64::from(vf.get(v, lane)) | (u64::from(vf.get(v + 1, lane)) << 32),
        _ => sf.read64(o),
    }
}
