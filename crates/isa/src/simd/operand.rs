//! Sim-D operands: the four register files of §3.1 (vector `vN`, scalar `sN`, predicate `pN`,
//! special-purpose `vc.*` / `sc.*`), immediates and branch-target labels.

use crate::span::Span;

/// Vector special-purpose registers (`vc.*`), in register-file index order. Control masks,
/// work-item IDs, constants and the CAM index/data registers of snoopy indexed transfers
/// (Sim-D §3.1, §3.2.3).
pub const VECTOR_SPECIALS: [&str; 12] = [
    "ctrl_run",
    "ctrl_break",
    "ctrl_ret",
    "ctrl_exit",
    "tid_x",
    "tid_y",
    "lid_x",
    "lid_y",
    "zero",
    "one",
    "mem_idx",
    "mem_data",
];

/// Scalar special-purpose registers (`sc.*`), in register-file index order: NDRange
/// dimensions, work-group offset and width, and the custom stride descriptor
/// (`sd_words`, `sd_period`, `sd_period_cnt`) used by `ldgcidx`/`stgcidx`/`sldsp` (§5.3).
pub const SCALAR_SPECIALS: [&str; 8] = [
    "dim_x",
    "dim_y",
    "wg_off_x",
    "wg_off_y",
    "wg_width",
    "sd_words",
    "sd_period",
    "sd_period_cnt",
];

/// Index of `sc.sd_words`.
pub const SSP_SD_WORDS: u32 = 5;
/// Index of `sc.sd_period`.
pub const SSP_SD_PERIOD: u32 = 6;
/// Index of `sc.sd_period_cnt`.
pub const SSP_SD_PERIOD_CNT: u32 = 7;

/// Highest register index per file (64 vector, 32 scalar, 4 predicate registers).
pub const MAX_VGPR: u32 = 63;
pub const MAX_SGPR: u32 = 31;
pub const MAX_PRED: u32 = 3;

/// A register of one of the Sim-D register files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// `vN`: one 32-bit value per work-item.
    Vector(u32),
    /// `sN`: one value per work-group.
    Scalar(u32),
    /// `pN`: one bit per work-item.
    Predicate(u32),
    /// `vc.name`: vector special-purpose register (index into [`VECTOR_SPECIALS`]).
    VectorSpecial(u32),
    /// `sc.name`: scalar special-purpose register (index into [`SCALAR_SPECIALS`]).
    ScalarSpecial(u32),
}

impl Reg {
    /// True for registers that hold one value per work-item, which the pipeline processes
    /// per sub-vector (column): a RAW hazard only exists between equal columns (§5.3).
    pub fn is_per_lane(self) -> bool {
        matches!(
            self,
            Reg::Vector(_) | Reg::Predicate(_) | Reg::VectorSpecial(_)
        )
    }
}

impl std::fmt::Display for Reg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Reg::Vector(n) => write!(f, "v{n}"),
            Reg::Scalar(n) => write!(f, "s{n}"),
            Reg::Predicate(n) => write!(f, "p{n}"),
            Reg::VectorSpecial(n) => match VECTOR_SPECIALS.get(n as usize) {
                Some(name) => write!(f, "vc.{name}"),
                None => write!(f, "vc{n}"),
            },
            Reg::ScalarSpecial(n) => match SCALAR_SPECIALS.get(n as usize) {
                Some(name) => write!(f, "sc.{name}"),
                None => write!(f, "sc{n}"),
            },
        }
    }
}

/// What an operand denotes.
#[derive(Debug, Clone, PartialEq)]
pub enum OperandKind {
    Register {
        reg: Reg,
    },
    /// An immediate, as the 32-bit pattern the instruction encodes; `float` when written
    /// as a floating-point literal or float constant.
    Immediate {
        bits: u32,
        float: bool,
    },
    /// A branch target.
    Label {
        name: String,
    },
}

/// One operand with its place in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub text: String,
    pub span: Span,
}

impl Operand {
    pub fn register(&self) -> Option<Reg> {
        match self.kind {
            OperandKind::Register { reg } => Some(reg),
            _ => None,
        }
    }

    /// The value of an integer immediate (sign-extended from 32 bits).
    pub fn int_value(&self) -> Option<i64> {
        match self.kind {
            OperandKind::Immediate { bits, float: false } => Some(i64::from(bits as i32)),
            _ => None,
        }
    }

    pub fn label(&self) -> Option<&str> {
        match &self.kind {
            OperandKind::Label { name } => Some(name),
            _ => None,
        }
    }

    /// The operand-shape bit ([`super::opcode::shape`]) this operand has.
    pub fn shape(&self) -> u8 {
        use super::opcode::shape;
        match &self.kind {
            OperandKind::Register { reg } => match reg {
                Reg::Vector(_) => shape::VGPR,
                Reg::Scalar(_) => shape::SGPR,
                Reg::Predicate(_) => shape::PR,
                Reg::VectorSpecial(_) => shape::VSP,
                Reg::ScalarSpecial(_) => shape::SSP,
            },
            OperandKind::Immediate { .. } | OperandKind::Label { .. } => shape::IMM,
        }
    }
}

/// OpenCL constants the Sim-D assembler accepts as immediates (32-bit platform values).
const CONSTANTS: [(&str, u32, bool); 13] = [
    ("FLT_DIG", 6, false),
    ("FLT_MANT_DIG", 24, false),
    ("FLT_MAX_10_EXP", 38, false),
    ("FLT_MAX_EXP", 128, false),
    ("FLT_MIN_10_EXP", (-37i32) as u32, false),
    ("FLT_MIN_EXP", (-128i32) as u32, false),
    ("FLT_RADIX", 2, false),
    ("FLT_MAX", 0x7f7f_ffff, true),
    ("FLT_MIN", 0x0080_0000, true),
    ("FLT_EPSILON", 0x3400_0000, true),
    ("M_PI_F", 0x4049_0fdb, true),
    ("M_2PI_F", 0x40c9_0fdb, true),
    ("M_E_F", 0x402d_f854, true),
];

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_index(digits: &str, max: u32) -> Result<u32, String> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(String::new());
    }
    match digits.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "register index {digits} is out of range (at most {max})"
        )),
    }
}

fn parse_special(rest: &str, names: &[&str], file: &str) -> Result<u32, String> {
    if let Some(name) = rest.strip_prefix('.') {
        if let Some(i) = names.iter().position(|n| *n == name) {
            return Ok(i as u32);
        }
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            return parse_index(name, names.len() as u32 - 1);
        }
        return Err(format!(
            "unknown special register `{file}.{name}` (known: {})",
            names.join(", ")
        ));
    }
    parse_index(rest, names.len() as u32 - 1)
        .map_err(|_| format!("`{file}{rest}` is not a special register"))
}

/// Parses an integer or floating-point literal into its 32-bit pattern.
pub fn parse_immediate(tok: &str) -> Option<(u32, bool)> {
    let (neg, body) = match tok.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, tok),
    };
    if body.is_empty() {
        return None;
    }
    if let Some(&(_, bits, float)) = CONSTANTS.iter().find(|c| c.0 == body) {
        let bits = match (neg, float) {
            (false, _) => bits,
            (true, true) => bits ^ 0x8000_0000,
            (true, false) => (bits as i32).wrapping_neg() as u32,
        };
        return Some((bits, float));
    }
    if let Some(v) = crate::number::parse_uint(body) {
        if body.starts_with("0x") || body.starts_with("0X") {
            // A hex literal is a 32-bit pattern; `-` negates it in two's complement.
            let v = u32::try_from(v).ok()?;
            let bits = if neg {
                (v as i32).wrapping_neg() as u32
            } else {
                v
            };
            return Some((bits, false));
        }
        let v = i64::try_from(v).ok()?;
        let v = if neg { -v } else { v };
        if v < i64::from(i32::MIN) || v > i64::from(u32::MAX) {
            return None;
        }
        return Some((v as u32, false));
    }
    // Float: digits with one dot, optional trailing `f`.
    let f = body.strip_suffix('f').unwrap_or(body);
    let dots = f.bytes().filter(|&b| b == b'.').count();
    let digits = f.bytes().filter(|b| b.is_ascii_digit()).count();
    if dots <= 1
        && digits > 0
        && f.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && (dots == 1 || body.ends_with('f'))
    {
        let v: f32 = f.parse().ok()?;
        let v = if neg { -v } else { v };
        return Some((v.to_bits(), true));
    }
    None
}

/// Parses one operand token (no commas or blanks inside).
pub fn parse_operand(tok: &str, span: Span) -> Result<Operand, String> {
    let make = |kind| Operand {
        kind,
        text: tok.to_string(),
        span,
    };
    if let Some((bits, float)) = parse_immediate(tok) {
        return Ok(make(OperandKind::Immediate { bits, float }));
    }
    let reg = |reg| Ok(make(OperandKind::Register { reg }));
    if let Some(rest) = tok.strip_prefix("vc") {
        if rest.starts_with('.') || (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())) {
            return parse_special(rest, &VECTOR_SPECIALS, "vc")
                .and_then(|i| reg(Reg::VectorSpecial(i)));
        }
    }
    if let Some(rest) = tok.strip_prefix("sc") {
        if rest.starts_with('.') || (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())) {
            return parse_special(rest, &SCALAR_SPECIALS, "sc")
                .and_then(|i| reg(Reg::ScalarSpecial(i)));
        }
    }
    type Ctor = fn(u32) -> Reg;
    let files: [(char, u32, Ctor); 3] = [
        ('v', MAX_VGPR, Reg::Vector),
        ('s', MAX_SGPR, Reg::Scalar),
        ('p', MAX_PRED, Reg::Predicate),
    ];
    for (prefix, max, ctor) in files {
        if let Some(rest) = tok.strip_prefix(prefix) {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                return parse_index(rest, max).and_then(|i| reg(ctor(i)));
            }
        }
    }
    if is_ident(tok) {
        return Ok(make(OperandKind::Label {
            name: tok.to_string(),
        }));
    }
    Err(format!("cannot read operand `{tok}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(tok: &str) -> OperandKind {
        match parse_operand(tok, Span::default()) {
            Ok(o) => o.kind,
            Err(e) => panic!("{tok}: {e}"),
        }
    }

    #[test]
    fn registers_of_every_file() {
        assert_eq!(
            kind("v63"),
            OperandKind::Register {
                reg: Reg::Vector(63)
            }
        );
        assert_eq!(
            kind("s4"),
            OperandKind::Register {
                reg: Reg::Scalar(4)
            }
        );
        assert_eq!(
            kind("p3"),
            OperandKind::Register {
                reg: Reg::Predicate(3)
            }
        );
        assert_eq!(
            kind("vc.mem_data"),
            OperandKind::Register {
                reg: Reg::VectorSpecial(11)
            }
        );
        assert_eq!(
            kind("sc.sd_period_cnt"),
            OperandKind::Register {
                reg: Reg::ScalarSpecial(SSP_SD_PERIOD_CNT)
            }
        );
        assert!(parse_operand("v64", Span::default()).is_err());
        assert!(parse_operand("vc.nope", Span::default()).is_err());
    }

    #[test]
    fn immediates_ints_hex_floats_constants() {
        assert_eq!(
            kind("-6"),
            OperandKind::Immediate {
                bits: (-6i32) as u32,
                float: false
            }
        );
        assert_eq!(
            kind("0x400000"),
            OperandKind::Immediate {
                bits: 0x40_0000,
                float: false
            }
        );
        assert_eq!(
            kind("0.5"),
            OperandKind::Immediate {
                bits: 0.5f32.to_bits(),
                float: true
            }
        );
        assert_eq!(
            kind("2.f"),
            OperandKind::Immediate {
                bits: 2.0f32.to_bits(),
                float: true
            }
        );
        assert_eq!(
            kind("-M_PI_F"),
            OperandKind::Immediate {
                bits: 0xc049_0fdb,
                float: true
            }
        );
        assert_eq!(
            kind("loop_end"),
            OperandKind::Label {
                name: "loop_end".into()
            }
        );
    }
}
