//! Decoding of the texture and surface instructions the model of [`crate::texture`] covers:
//! Pascal `TEXS`, Volta–Hopper `TEX` (2D, channel R) and `SULD.D.BA.2D` / `SUST.D.BA.2D`.
//! Every other texture or surface form is refused by name, never guessed.
//!
//! Operand readings (checked against the listings of the corpus, where each fetch's result
//! is masked and each coordinate is computed in the lines before):
//! - `TEXS.T RZ, R5, R3, R16, 0x5a, 2D, R` (Pascal): the second destination, the first
//!   destination (R5 gets channel R), x, y, the handle's index (the handle is the word pair
//!   at `c[0x0][0x5a × 4]`), the shape and the channel mask. `.T` and `.P` (the last fetch
//!   of a group) read alike here: their difference is scheduling, which NVIDIA does not
//!   document.
//! - `TEX.SCR.LL RZ, R5, R12, R3, 0x0, 0x62, 2D, 0x1` (Volta–Ada): destinations, the
//!   coordinate pair R12 (x), R13 (y), the explicit level of detail R3 (`.LL`; `.LZ` has
//!   none), then `0x0` and the handle's index (with `.SCR` the handle is at
//!   `c[0x0][0x62 × 4]`), shape, mask.
//! - `TEX.LL RZ, R8, R8, R0, UR12, 0x0, 2D, 0x1` (Hopper): the same with the handle in a
//!   uniform register. `.SCR` does not change the reading: the handle is the uniform
//!   register when the first of the two operands is one, else the constant the second
//!   indexes.
//! - `SULD.D.BA.2D.TRAP R2, [R16], 0x58` / `SUST.D.BA.2D.TRAP [R16], R2, 0x59`: raw data
//!   (`.D`), byte-addressed x (`.BA`) in R16 and row y in R17, the handle's index; sm_70+
//!   prints the handle as the same operand pair as `TEX` (`0x0, 0x58` or `UR4, 0x0`) and
//!   adds `.STRONG.SM`. `.IGN` (nvcc's `cudaBoundaryModeZero`) reads zero and drops the
//!   store out of bounds, `.CLAMP` clamps, `.TRAP` stops the kernel.

use super::*;
use crate::texture::OutOfBounds;

/// Texture and surface opcodes: every one is decoded here (modelled or refused by name).
pub(super) const OPCODES: &[&str] = &[
    "TEX", "TEXS", "TLD", "TLDS", "TLD4", "TLD4S", "TXQ", "TXD", "TMML", "SULD", "SUST", "SURED",
    "SUATOM", "SUQ",
];

/// The texture and surface opcodes on sm_70+ (`None`: not one of them).
pub(super) fn volta(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Option<Op>> {
    if OPCODES.contains(&name) {
        decode(c, name, m).map(Some)
    } else {
        Ok(None)
    }
}

/// The refusal of a texture or surface form outside the model.
pub(super) fn refusal(ins: &Instruction, why: &str) -> (Span, String) {
    cannot(
        ins,
        &format!(
            "{why}; the texture model (sim::texture) covers 2D fetches of channel R \
             (TEXS, TEX) and raw 2D surface loads and stores (SULD.D.BA, SUST.D.BA)"
        ),
    )
}

/// A handle given as an index into constant bank 0 (`0x5a` → the pair at `c[0x0][0x168]`).
fn indexed_handle(c: &Ctx, op: Option<&Operand>) -> DecodeResult<Src> {
    let ins = c.ins;
    let index = match op.map(|o| &o.kind) {
        Some(OperandKind::Immediate {
            value: Immediate::Int(v),
        }) if (0..0x4000).contains(v) => *v,
        _ => return Err(refusal(ins, "the handle index must be an immediate")),
    };
    let offset = index * 4;
    let lo = c.layout.read(c.launch, offset).ok_or_else(|| {
        cannot(
            ins,
            &format!(
                "the texture handle `c[0x0][{offset:#x}]` is not defined by the launch ({} parameter words from {:#x})",
                c.launch.params.len(),
                c.layout.params
            ),
        )
    })?;
    let hi = c.layout.read(c.launch, offset + 4);
    Ok(Src {
        kind: SrcKind::Value(lo, hi),
        neg: false,
        inv: false,
        abs: false,
        half: Half::Whole,
        float_imm: None,
    })
}

/// The register a source names (a coordinate or coordinate pair).
fn register(c: &Ctx, op: Option<&Operand>, what: &str) -> DecodeResult<u16> {
    match c.src(op)?.kind {
        SrcKind::Reg(r) => Ok(r),
        _ => Err(refusal(c.ins, &format!("the {what} must be a register"))),
    }
}

/// The handle of an sm_70+ operand pair `a, b`: the uniform register `a` (`UR4, 0x0`), or
/// else the index `b` (`0x0, 0x58`).
fn pair_handle(c: &Ctx, a: Option<&Operand>, b: Option<&Operand>) -> DecodeResult<Src> {
    match a.and_then(Operand::register) {
        Some(Register::Uniform(_)) => c.src(a),
        _ => indexed_handle(c, b),
    }
}

fn text_is(op: Option<&Operand>, texts: &[&str]) -> bool {
    op.is_some_and(|o| texts.iter().any(|t| o.text.eq_ignore_ascii_case(t)))
}

/// `TEXS`, `TEX`, `SULD`, `SUST` and the refused texture opcodes.
pub(super) fn decode(c: &Ctx, name: &str, m: &mut Mods) -> DecodeResult<Op> {
    let ins = c.ins;
    let o = |i: usize| ins.operands.get(i);
    let n = ins.operands.len();
    match name {
        "TEXS" if !c.volta => {
            operand_count(ins, 7)?;
            for x in ["T", "P", "NODEP", "LZ"] {
                m.take(x);
            }
            if !text_is(o(5), &["2D"]) || !text_is(o(6), &["R"]) {
                return Err(refusal(
                    ins,
                    "only the 2D shape with channel mask R is modelled",
                ));
            }
            if o(0).and_then(Operand::register) != Some(&Register::Zero) {
                return Err(refusal(ins, "a second destination (more channels)"));
            }
            let x = register(c, o(2), "x coordinate")?;
            let y = register(c, o(3), "y coordinate")?;
            Ok(Op::TexFetch {
                d: c.dest(o(1))?,
                x: Src::reg(x),
                y: Src::reg(y),
                handle: indexed_handle(c, o(4))?,
            })
        }
        "TEX" if c.volta => {
            m.take("SCR");
            let ll = m.take("LL");
            m.take("LZ");
            m.take("NODEP");
            let shape = (0..n).find(|&i| text_is(o(i), &["2D"]));
            let Some(s) = shape.filter(|&s| s + 2 == n) else {
                return Err(refusal(ins, "only the 2D shape is modelled"));
            };
            if !text_is(o(s + 1), &["0x1", "R"]) {
                return Err(refusal(ins, "only channel mask R (0x1) is modelled"));
            }
            // Destinations, coordinates, [level of detail], then two handle operands.
            if s != 4 + usize::from(ll) + 1 {
                return Err(refusal(ins, "unexpected operands"));
            }
            if o(0).and_then(Operand::register) != Some(&Register::Zero) {
                return Err(refusal(ins, "a second destination (more channels)"));
            }
            let xy = register(c, o(2), "coordinate pair")?;
            let handle = pair_handle(c, o(s - 2), o(s - 1))?;
            Ok(Op::TexFetch {
                d: c.dest(o(1))?,
                x: Src::reg(xy),
                y: Src::reg(xy + 1),
                handle,
            })
        }
        "SULD" | "SUST" => {
            if !(n == 3 || n == 4 && c.volta) {
                return Err(refusal(
                    ins,
                    &format!("expected 3 operands (4 on sm_70+), found {n}"),
                ));
            }
            if !(m.take("D") && m.take("BA") && m.take("2D")) {
                return Err(refusal(
                    ins,
                    "only raw (.D), byte-addressed (.BA) 2D accesses are modelled",
                ));
            }
            let oob = if m.take("CLAMP") {
                OutOfBounds::Clamp
            } else if m.take("IGN") || m.take("ZERO") {
                OutOfBounds::Zero
            } else {
                m.take("TRAP");
                OutOfBounds::Trap
            };
            for x in ["STRONG", "WEAK", "GPU", "CTA", "SM", "SYS", "CONSTANT"] {
                m.take(x);
            }
            let (bytes, signed) = size(m);
            if signed {
                return Err(refusal(ins, "signed narrow surface loads"));
            }
            let store = name == "SUST";
            let (a, r) = if store { (0, 1) } else { (1, 0) };
            let addr = c.addr(o(a), false)?;
            let xy = match addr {
                AddrSrc {
                    base: Some(b),
                    wide: false,
                    scale: 0,
                    uniform: None,
                    offset: 0,
                } => b,
                _ => return Err(refusal(ins, "the coordinates must be one register pair")),
            };
            let handle = if n == 4 {
                pair_handle(c, o(2), o(3))?
            } else {
                indexed_handle(c, o(2))?
            };
            Ok(Op::Surface {
                store,
                d: if store { RZ_DEST } else { c.dest(o(r))? },
                v: if store {
                    c.src(o(r))?
                } else {
                    Src::reg(RZ_DEST)
                },
                xy,
                handle,
                bytes,
                oob,
            })
        }
        _ => Err(refusal(ins, &format!("{name} is not modelled"))),
    }
}
