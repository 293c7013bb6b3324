//! The simulator's texture and surface model (issue #26 item 1, `sim::texture`) on our own
//! nvcc listings (`tests/kernels/src/tex_fetch.cu`, `surface_rw.cu`; sm_61 to sm_90): the
//! values a run moves, derived by hand from the model's rules (nearest-point, clamped
//! coordinates; surface `.TRAP`/`.IGN`), the automatic launch's texture parameters, and the
//! simulator's time for a fetch against the analysis's.

#[path = "common/corpus.rs"]
mod corpus;

#[path = "common/report.rs"]
mod report;

use isa::Dialect;
use report::{array, errors};
use warpbound::{analyze, Report, Request};

const ARCHS: [&str; 5] = ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"];

fn listing(arch: &str, name: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/sass");
    match std::fs::read_to_string(format!("{root}/{arch}/{name}.sass")) {
        Ok(s) => s,
        Err(e) => panic!("{arch}/{name}: {e}"),
    }
}

fn request(src: &str, mode: &str, params: &[(&str, &str)]) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some(mode.into());
    for (k, v) in params {
        let v = match *k {
            "simulate" => serde_json::json!(*v == "true"),
            _ => serde_json::json!(v),
        };
        req.params.insert((*k).into(), v);
    }
    analyze(&req)
}

/// `tex_fetch(out, t, w = 32)`, 4 blocks of 32, the texture an 8 × 4 array of iota texels
/// (texel (i, j) holds 8j + i). Thread x of block y fetches at (x − 1.5, y + 1.25): column
/// ⌊x − 1.5⌋ clamped to 0..7 = min(max(x − 2, 0), 7), row ⌊y + 1.25⌋ clamped to 0..3 =
/// min(y + 1, 3). So out[32y + x] = 8·min(y + 1, 3) + min(max(x − 2, 0), 7).
#[test]
fn fetches_read_the_nearest_clamped_texel() {
    for arch in ARCHS {
        let r = request(
            &listing(arch, "tex_fetch"),
            "simulate",
            &[
                ("grid", "4,1,1"),
                ("params", "0x100000,0,0x200000,0,32"),
                (
                    "memory",
                    "out@0x100000 128 const 7; tex@0x200000 32 iota 0 1",
                ),
                ("textures", "0x200000 8x4"),
            ],
        );
        assert!(errors(&r).is_empty(), "{arch}: {:?}", errors(&r));
        let out = array(&r, "out");
        for y in 0..4u32 {
            for x in 0..32u32 {
                let want = 8 * (y + 1).min(3) + x.saturating_sub(2).min(7);
                assert_eq!(
                    out[(32 * y + x) as usize],
                    want,
                    "{arch}: block {y} thread {x}"
                );
            }
        }
        let traced = &r.simulation.as_ref().map(|s| &s.run.transactions);
        let texture = traced.map_or(0, |t| t.iter().filter(|t| t.space == "texture").count());
        assert_eq!(texture, 4, "{arch}: one texture access per warp");
    }
}

/// `surface_rw(s, w = 32)`, 2 blocks of 32, an 32 × 2 surface of iota words (element x of
/// row y holds 32y + x). Each thread adds its right neighbour, read with
/// `cudaBoundaryModeZero` (`.IGN`): thread 31's neighbour is past the edge and reads 0. All
/// reads of a warp precede its store, so element x becomes (32y + x) + (32y + x + 1) for
/// x < 31 and stays 32y + 31 for x = 31.
#[test]
fn surfaces_read_and_write_in_place_with_zero_outside() {
    for arch in ARCHS {
        let r = request(
            &listing(arch, "surface_rw"),
            "simulate",
            &[
                ("grid", "2,1,1"),
                ("params", "0x200000,0,32"),
                ("memory", "s@0x200000 64 iota 0 1"),
                ("textures", "0x200000 32x2"),
            ],
        );
        assert!(errors(&r).is_empty(), "{arch}: {:?}", errors(&r));
        let s = array(&r, "s");
        for y in 0..2u32 {
            for x in 0..32u32 {
                let own = 32 * y + x;
                let want = if x < 31 { own + own + 1 } else { own };
                assert_eq!(s[own as usize], want, "{arch}: row {y} element {x}");
            }
        }
        // A 16-wide surface: the first read of thread 16 (`.TRAP`) is outside it.
        let r = request(
            &listing(arch, "surface_rw"),
            "simulate",
            &[
                ("params", "0x200000,0,32"),
                ("memory", "s@0x200000 64 iota 0 1"),
                ("textures", "0x200000 16x2"),
            ],
        );
        let e = errors(&r);
        assert!(
            e.iter().any(
                |m| m.contains("byte 64 of row 0 is outside the 16 × 2 surface")
                    && m.contains(".TRAP")
            ),
            "{arch}: {e:?}"
        );
    }
}

/// Without `params`, `memory` and `textures`, the texture parameter is found from the fetch's
/// handle (`TEXS … 0x52` → `c[0x0][0x148]`; sm_70+ `0x0, 0x5a` → 0x168; sm_90 `UR4` ←
/// `c[0x0][0x218]`): the second pointer-like argument (0x200000), bound as 64 × 64 texels.
/// One block: row ⌊0 + 1.25⌋ = 1, so out[x] = texel 64 + max(x − 2, 0) of the buffer.
#[test]
fn an_automatic_launch_binds_each_texture_parameter() {
    for (arch, base) in [
        ("sm_61", 0x140),
        ("sm_70", 0x160),
        ("sm_75", 0x160),
        ("sm_86", 0x160),
        ("sm_90", 0x210),
    ] {
        let r = request(&listing(arch, "tex_fetch"), "simulate", &[]);
        assert!(errors(&r).is_empty(), "{arch}: {:?}", errors(&r));
        let Some(args) = r.arguments.as_ref() else {
            panic!("{arch}: no arguments");
        };
        let tex = args
            .values
            .iter()
            .find(|a| a.name == format!("p{:#x}", base + 8));
        assert!(
            tex.is_some_and(|a| a.ty.starts_with("texture object") && a.text == "0x200000"),
            "{arch}: {:?}",
            args.values
        );
        assert_eq!(args.textures, "0x200000 64x64", "{arch}");
        let out = array(&r, &format!("p{base:#x}"));
        let texels = array(&r, &format!("p{:#x}", base + 8));
        for x in 0..32 {
            assert_eq!(
                out[x],
                texels[64 + x.saturating_sub(2)],
                "{arch}: thread {x}"
            );
        }
    }
}

/// A handle without a binding stops the run at the fetch and says how to give one.
#[test]
fn an_unbound_handle_is_a_located_error() {
    let r = request(
        &listing("sm_86", "tex_fetch"),
        "simulate",
        &[
            ("params", "0x100000,0,0x200000,0,32"),
            (
                "memory",
                "out@0x100000 32 const 0; tex@0x200000 32 iota 0 1",
            ),
        ],
    );
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("has no binding"));
    assert!(
        d.is_some_and(|d| d.message.contains("textures = 0x200000 WIDTHxHEIGHT") && d.line > 1),
        "{:?}",
        r.diagnostics
    );
}

/// Forms outside the model are refused by name, never read as something else.
#[test]
fn forms_outside_the_model_are_refused() {
    for (line, why) in [
        (
            "TEXS.T R4, R5, R3, R16, 0x52, 2D, R ;",
            "second destination for at most two channels",
        ),
        ("TEXS.T RZ, R5, R3, R16, 0x52, 3D, R ;", "2D shape"),
        (
            "TLDS.LZ RZ, R5, R3, R16, 0x52, 2D, R ;",
            "only 1D integer fetches",
        ),
        ("TLDS.T RZ, R5, R3, 0x52, 1D, R ;", "level 0 (.LZ)"),
        ("SULD.P.2D.R.TRAP R5, [R2], 0x52 ;", "raw (.D)"),
    ] {
        let src = format!(
            "code for sm_61\n/*0008*/ MOV R1, c[0x0][0x20] ;\n/*0010*/ {line}\n/*0018*/ EXIT ;\n"
        );
        let r = request(
            &src,
            "simulate",
            &[("params", "0,0,0x1000,0"), ("textures", "0x1000 4x4")],
        );
        let e = errors(&r);
        assert!(
            e.iter()
                .any(|m| m.contains(why) && m.contains("sim::texture")),
            "{line}: {e:?}"
        );
    }
}

/// The simulator charges a fetch or surface access the `texture` class latency the
/// analysis charges (no texture cache in either), so on these straight-line kernels the
/// one-warp run takes exactly the `warp-cfg` bound, under unit cost and under each
/// architecture's latency preset.
#[test]
fn a_fetch_takes_the_time_the_analysis_charges() {
    for (arch, preset) in corpus::ARCHS {
        for name in ["tex_fetch", "surface_rw"] {
            for p in ["paper-unit", preset] {
                let mut req = Request::new(listing(arch, name), Dialect::Sass);
                req.mode = Some("warp-cfg".into());
                req.preset = Some(p.into());
                req.params
                    .insert("simulate".into(), serde_json::json!(true));
                let r = analyze(&req);
                assert!(errors(&r).is_empty(), "{arch} {name} {p}: {:?}", errors(&r));
                let Some(s) = r.simulation.as_ref() else {
                    panic!("{arch} {name} {p}: no run");
                };
                let bound = s.bound.as_ref().and_then(|b| b.cycles);
                assert_eq!(Some(s.run.cycles), bound, "{arch} {name} {p}");
            }
        }
    }
}

/// PTX: the CUDA samples' `SobelCopyImage` (`../shared/corpus/ptx-modern/FunctionPointers.ptx`)
/// fetches `tex2D<unsigned char>(tex, i, blockIdx.x)` through the texture object parameter
/// `param_5`. With the automatic launch (one block, `Pitch = w = 64`, `fScale = 1.0`) it
/// writes byte `i` of row 0 for `i < 64`: `min(max((texel & 0xff) · 1.0, 0), 255)`, and the
/// automatic texels are below 64, so byte i is texel (i, 0) itself. Under `rr` (max mode,
/// per-instruction segments, the loop counts the run observed) the run stays within the
/// round-robin bound.
#[test]
fn ptx_texture_objects_run_under_the_same_model() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/ptx-modern/FunctionPointers.ptx"
    );
    let Ok(src) = std::fs::read_to_string(path) else {
        return; // the corpus is not here
    };
    let mut req = Request::new(src, Dialect::Ptx);
    req.mode = Some("rr".into());
    req.function = Some("_Z14SobelCopyImagePhjiify".into());
    for (k, v) in [
        ("segmentation", serde_json::json!("per-instruction")),
        ("loop_bounds", serde_json::json!("observed")),
        ("simulate", serde_json::json!(true)),
    ] {
        req.params.insert(k.into(), v);
    }
    let r = analyze(&req);
    assert!(errors(&r).is_empty(), "{:?}", errors(&r));
    let Some(args) = r.arguments.as_ref() else {
        panic!("no arguments");
    };
    assert_eq!(args.textures, "0x200000 64x64");
    let out = array(&r, "param_0");
    let texels = array(&r, "param_5");
    for i in 0..64 {
        let byte = (out[i / 4] >> (8 * (i % 4))) & 0xff;
        assert_eq!(byte, texels[i], "byte {i}");
    }
    let Some(s) = r.simulation.as_ref() else {
        panic!("no run");
    };
    assert_eq!(s.holds, Some(true), "{:?}", s.bound);
}
