//! The local data share encoding DS (GCN3 ISA §10 "Data Share Operations"): LDS reads,
//! writes and atomics, the two-address forms, swizzles and permutes, and the GWS operations.

use super::Builder;
use super::Encoding::Ds;
use super::Targets::*;

/// DS: every LDS and GWS operation.
pub(super) fn add_ds(b: &mut Builder) {
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
