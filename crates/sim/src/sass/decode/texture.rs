//! Decoding of the texture and surface instructions the model of [`crate::texture`] covers:
//! Pascal `TEXS`, Volta–Hopper `TEX` (2D), Pascal `TLDS` and Volta–Hopper `TLD` (1D integer
//! fetches at level 0), and `SULD.D.BA.2D` / `SUST.D.BA.2D`. Every other texture or surface
//! form is refused by name, never guessed.
//!
//! Destinations: a fetch writes its channels to two register pairs, the second operand
//! first: `TLDS.LZ.P R10, R8, R14, 0x54, 1D, RGBA` puts R, G in R8, R9 and B, A in R10,
//! R11; with at most two channels the first operand is `RZ` (`TEXS.T RZ, R5, …, R` puts R
//! in R5, `… 1D, RG` R and G in R8, R9). Reading: our `tests/kernels/src/tex1d_fetch.cu`
//! computes `q.x + 2 q.y + 4 q.z + 8 q.w` of a `float4` fetch and `p.x - p.y` of an `int2`
//! one, and nvcc 11.8 compiles it (sm_61) to `TLDS.LZ.T R10, R8, R8, 0x54, 1D, RGBA` then
//! `FFMA R9, R9, 2, R8`, `FFMA R9, R10, 4, R9`, `FFMA R9, R11, 8, R9`, and `TLDS.LZ.P RZ,
//! R6, R6, 0x57, 1D, RG` then `IADD R7, R6, -R7` (sm_90: `TLD.LZ R12, R10, …` then R10 +
//! 2·R11, 4·R12, 8·R13).
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
            "{why}; the texture model (sim::texture) covers 2D fetches (TEXS, TEX), 1D \
             integer fetches at level 0 (TLDS, TLD) and raw 2D surface loads and stores \
             (SULD.D.BA, SUST.D.BA)"
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

/// The channel mask of a fetch: letters (`R`, `RG`, `RGBA`: R is bit 0 … A bit 3) or a
/// number (`0x3`); none printed means all four.
fn channel_mask(op: Option<&Operand>) -> Option<u8> {
    let Some(o) = op else {
        return Some(0xf);
    };
    let t = o.text.trim();
    if let Some(v) = int_text(t) {
        return u8::try_from(v).ok().filter(|&v| (1..=0xf).contains(&v));
    }
    let mut mask = 0u8;
    for ch in t.chars() {
        let bit = "RGBA".find(ch.to_ascii_uppercase())?;
        mask |= 1 << bit;
    }
    (mask != 0).then_some(mask)
}

/// A fetch's destinations (`d2, d` are its first two operands: `d` receives the first two
/// channels of the mask, `d2` the next two) and its channel mask operand `mask`. A second
/// destination for at most two channels is refused: the reading of the operand order
/// would be in doubt.
fn destinations(c: &Ctx, mask: Option<&Operand>) -> DecodeResult<(u16, u16, u8)> {
    let ins = c.ins;
    let channels = channel_mask(mask)
        .ok_or_else(|| refusal(ins, "the channel mask is not one the model reads"))?;
    let d2 = c.dest(ins.operands.first())?;
    if d2 != RZ_DEST && channels.count_ones() <= 2 {
        return Err(refusal(
            ins,
            "a second destination for at most two channels",
        ));
    }
    Ok((c.dest(ins.operands.get(1))?, d2, channels))
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
            if !text_is(o(5), &["2D"]) {
                return Err(refusal(ins, "only the 2D shape is modelled"));
            }
            let x = register(c, o(2), "x coordinate")?;
            let y = register(c, o(3), "y coordinate")?;
            let (d, d2, channels) = destinations(c, o(6))?;
            Ok(Op::TexFetch {
                d,
                d2,
                channels,
                x: Src::reg(x),
                y: Src::reg(y),
                handle: indexed_handle(c, o(4))?,
                integer: false,
            })
        }
        "TEX" if c.volta => {
            m.take("SCR");
            let ll = m.take("LL");
            m.take("LZ");
            m.take("NODEP");
            let shape = (0..n).find(|&i| text_is(o(i), &["2D"]));
            let Some(s) = shape.filter(|&s| s + 2 == n || s + 1 == n) else {
                return Err(refusal(ins, "only the 2D shape is modelled"));
            };
            // Destinations, coordinates, [level of detail], then two handle operands.
            if s != 4 + usize::from(ll) + 1 {
                return Err(refusal(ins, "unexpected operands"));
            }
            let (d, d2, channels) = destinations(c, o(s + 1))?;
            let xy = register(c, o(2), "coordinate pair")?;
            let handle = pair_handle(c, o(s - 2), o(s - 1))?;
            Ok(Op::TexFetch {
                d,
                d2,
                channels,
                x: Src::reg(xy),
                y: Src::reg(xy + 1),
                handle,
                integer: false,
            })
        }
        // `TLDS.LZ.P RZ, R8, R2, 0x64, 1D, RG` (Pascal) and `TLD.SCR.LZ RZ, R14, R14, 0x0,
        // 0x6d, 1D, 0x3` / `TLD.LZ RZ, R2, R5, UR4, 0x0, 1D, 0x3` (Volta–Ada / Hopper): a
        // 1D fetch by integer index at level 0 (`tex1Dfetch`, Parboil bfs, Rodinia kmeans
        // and hybridsort): destinations, the index, the handle (an index into bank 0, or
        // the sm_70+ pair), the shape, the channel mask (none printed: RGBA).
        "TLDS" | "TLD" if (name == "TLDS") != c.volta => {
            for x in ["T", "P", "NODEP", "SCR"] {
                m.take(x);
            }
            if !m.take("LZ") {
                return Err(refusal(
                    ins,
                    "only level 0 (.LZ) integer fetches are modelled",
                ));
            }
            let s = if c.volta { 5 } else { 4 };
            if !(n == s + 1 || n == s + 2) || !text_is(o(s), &["1D"]) {
                return Err(refusal(ins, "only 1D integer fetches are modelled"));
            }
            let (d, d2, channels) = destinations(c, o(s + 1))?;
            let handle = if c.volta {
                pair_handle(c, o(3), o(4))?
            } else {
                indexed_handle(c, o(3))?
            };
            let x = register(c, o(2), "index")?;
            Ok(Op::TexFetch {
                d,
                d2,
                channels,
                x: Src::reg(x),
                y: zero(),
                handle,
                integer: true,
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
