//! Texture and surface access (NVIDIA's "Texture Instructions" and "Surface
//! Instructions").

use super::Role::*;
use super::{op, OpcodeInfo};

/// Texture and surface access.
pub(super) const TEXTURE_AND_SURFACE: &[OpcodeInfo] = &[
    op("TEX", b"FKMVTAH", Ordinary, "Texture fetch"),
    op("TLD", b"FKMVTAH", Ordinary, "Texture load (texel fetch)"),
    op(
        "TLD4",
        b"FKMVTAH",
        Ordinary,
        "Texture gather of four texels",
    ),
    op("TXQ", b"FKMVTAH", Ordinary, "Texture query"),
    op("TMML", b"MVTAH", Ordinary, "Texture mip-map level"),
    op("TXD", b"MVTAH", Ordinary, "Texture fetch with derivatives"),
    op("TEXS", b"M", Ordinary, "Texture fetch, scalar form"),
    op("TLDS", b"M", Ordinary, "Texture load, scalar form"),
    op("TLD4S", b"M", Ordinary, "Texture gather, scalar form"),
    op(
        "SUATOM",
        b"KMVTAH",
        Ordinary,
        "Atomic operation on surface memory",
    ),
    op("SULD", b"FKMVTAH", Ordinary, "Surface load"),
    op("SURED", b"FMVTAH", Ordinary, "Reduction on surface memory"),
    op("SUST", b"FKMVTAH", Ordinary, "Surface store"),
    op("SULEA", b"F", Ordinary, "Surface effective address"),
    op("SUQ", b"F", Ordinary, "Surface query"),
    op("SUCLAMP", b"K", Ordinary, "Surface coordinate clamp"),
    op("SUBFM", b"K", Ordinary, "Surface bit-field merge"),
    op("SUEAU", b"K", Ordinary, "Surface effective address"),
    op(
        "SULDGA",
        b"K",
        Ordinary,
        "Surface load through a generic address",
    ),
    op(
        "SUSTGA",
        b"K",
        Ordinary,
        "Surface store through a generic address",
    ),
];
