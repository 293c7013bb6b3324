//! The scalar memory encoding SMEM (GCN3 ISA §7 "Scalar Memory Operations"): constant and
//! buffer loads through the scalar data cache, GFX9 stores and atomics, cache control.

use super::Builder;
use super::Encoding::*;
use super::Targets::*;
use super::ATOMICS;

/// SMEM: scalar loads, stores, atomics and cache control.
pub(super) fn add_smem(b: &mut Builder) {
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
}
