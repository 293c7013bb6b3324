//! 1D integer texture fetches (`tex1Dfetch`: Pascal `TLDS`, Volta–Ada `TLD.SCR.LZ`, Hopper
//! `TLD.LZ`) under the texture model of `sim::texture` (issue #37 item 2), on our own nvcc
//! listing `tests/kernels/sass/<arch>/tex1d_fetch.sass`: a texture reference of `int2`
//! texels and a texture object of `float4` texels, with the values derived by hand, and the
//! automatic launch's inference of both handles.

#[path = "common/report.rs"]
mod report;

use report::{array, errors};
use warpbound::{analyze, Dialect, Report, Request};

const ARCHS: [&str; 5] = ["sm_61", "sm_70", "sm_75", "sm_86", "sm_90"];

fn listing(arch: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/sass");
    match std::fs::read_to_string(format!("{root}/{arch}/tex1d_fetch.sass")) {
        Ok(s) => s,
        Err(e) => panic!("{arch}: {e}"),
    }
}

fn request(src: &str, params: &[(&str, &str)]) -> Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("simulate".into());
    for (k, v) in params {
        req.params.insert((*k).into(), serde_json::json!(v));
    }
    analyze(&req)
}

/// `tex1d_fetch(diff, dot, quads, n = 8)` with the reference `pairs` bound to 20 `int2`
/// texels (k², k) at 0x300000 and `quads` to 16 `float4` texels (k, 10k, 100k, 1000k) at
/// 0x200000. The reference is the word after the parameters (`c[0x0][0x15c]` on sm_61,
/// `0x17c` on sm_70–sm_86, `0x22c` on sm_90: the eighth parameter word everywhere).
/// Thread i fetches pair k = clamp(i − 3, 0, 19): diff = k² − k; and quad m = clamp(i + 8,
/// 0, 15): dot = m + 2·10m + 4·100m + 8·1000m = 8421m (exact in f32).
#[test]
fn integer_fetches_read_the_clamped_element_of_every_channel() {
    let pairs: Vec<String> = (0..20u32)
        .flat_map(|k| [k * k, k])
        .map(|w| w.to_string())
        .collect();
    let quads: Vec<String> = (0..16u32)
        .flat_map(|k| [k, 10 * k, 100 * k, 1000 * k])
        .map(|w| format!("{w}.0"))
        .collect();
    let memory = format!(
        "diff@0x100000 32 const 7; dot@0x110000 32 const 7; quads@0x200000 64 floats {}; pairs@0x300000 40 words {}",
        quads.join(" "),
        pairs.join(" ")
    );
    for arch in ARCHS {
        let r = request(
            &listing(arch),
            &[
                ("params", "0x100000,0,0x110000,0,0x200000,0,8,0x300000"),
                ("memory", &memory),
                ("textures", "0x200000 16x1 4; 0x300000 20x1 2"),
            ],
        );
        assert!(errors(&r).is_empty(), "{arch}: {:?}", errors(&r));
        let (diff, dot) = (array(&r, "diff"), array(&r, "dot"));
        for i in 0..32u32 {
            let k = i.saturating_sub(3).min(19);
            let m = (i + 8).min(15);
            assert_eq!(diff[i as usize], k * k - k, "{arch}: thread {i}");
            assert_eq!(
                f32::from_bits(dot[i as usize]),
                8421.0 * m as f32,
                "{arch}: thread {i}"
            );
        }
    }
}

/// Without `params`, `memory` and `textures`, the automatic launch infers the object at the
/// third parameter (an 8-byte texture object) and the reference's word after the
/// parameters (a 32-bit texture reference), and binds each as one row of 64² texels of as
/// many words as its fetch's channel mask reaches: `float4` (RGBA) 4, `int2` (RG) 2. The run
/// then reads the seeded buffers through them.
#[test]
fn the_automatic_launch_binds_references_and_objects() {
    for arch in ARCHS {
        let r = request(&listing(arch), &[]);
        assert!(errors(&r).is_empty(), "{arch}: {:?}", errors(&r));
        let Some(args) = r.arguments.as_ref() else {
            panic!("{arch}: no arguments");
        };
        let kinds: Vec<&str> = args.values.iter().map(|a| a.ty.as_str()).collect();
        assert!(
            kinds.iter().any(|t| t.starts_with("texture object"))
                && kinds.iter().any(|t| t.starts_with("texture reference")),
            "{arch}: {kinds:?}"
        );
        let tex_ref = args
            .values
            .iter()
            .find(|a| a.ty.starts_with("texture reference"))
            .map(|a| a.text.clone())
            .unwrap_or_default();
        let object = args
            .values
            .iter()
            .find(|a| a.ty.starts_with("texture object"))
            .map(|a| a.text.clone())
            .unwrap_or_default();
        assert_eq!(
            args.textures,
            format!("{object} 4096x1 4; {tex_ref} 4096x1 2"),
            "{arch}"
        );
        assert!(r.simulation.is_some(), "{arch}: no run");
    }
}
