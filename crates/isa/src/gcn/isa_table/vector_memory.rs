//! The vector memory encodings: FLAT with GLOBAL and SCRATCH (GCN3 ISA §9, Vega ISA §9),
//! MUBUF and MTBUF (GCN3 ISA §8) and MIMG (GCN3 ISA §8.2). Loads, stores and atomics are
//! generated from their parts, which the three families share.

use super::Builder;
use super::Encoding::*;
use super::Targets::*;
use super::ATOMICS;

/// FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF and MIMG.
pub(super) fn add_vector_memory(b: &mut Builder) {
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
