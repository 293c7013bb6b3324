//! Texture fetches of several channels (`sim::texture`: a texel of `texel_words` words is
//! returned as R, G, B, A; the channel mask picks which go to the destination pairs): the
//! Pascal `TEXS … RGB` and Volta–Hopper `TEX … 0x7` forms of the Parboil/Rodinia listings,
//! against values derived by hand.

mod common;

use common::{array, preset, run};
use sim::{ArrayInit, Fill, Launch, MemoryInit, TextureBinding};

/// Runs `fetch` (one thread) with R10 = 1.5, R11 = 2.25 (the x, y of a 2D fetch), R12 = 0
/// (a level of detail), R23 = 0x55; the texture handle is parameter word 2 (`c[0x0][0x148]`
/// on sm_61, `0x168` on sm_86), 0x3000, bound as 4 × 4 texels of 4 words holding 0, 1, 2, …
/// R20..R23 are stored to `out`.
fn fetch(arch: &str, fetch: &str) -> Vec<u32> {
    let src = format!(
        "code for {arch}\nMOV32I R10, 0x3fc00000 ;\nMOV32I R11, 0x40100000 ;\nMOV R12, RZ ;\n\
         MOV32I R23, 0x55 ;\n{fetch}\nSTG [0x2000], R20 ;\nSTG [0x2004], R21 ;\n\
         STG [0x2008], R22 ;\nSTG [0x200c], R23 ;\nEXIT ;\n"
    );
    let launch = Launch {
        block: [1, 1, 1],
        params: vec![0, 0, 0x3000, 0],
        textures: vec![TextureBinding {
            handle: 0x3000,
            width: 4,
            height: 4,
            texel_words: 4,
        }],
        ..Launch::default()
    };
    let memory = MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "out".into(),
                address: 0x2000,
                words: 4,
                fill: Fill::Constant { value: 0 },
            },
            ArrayInit {
                name: "tex".into(),
                address: 0x3000,
                words: 64,
                fill: Fill::Words {
                    values: (0..64).collect(),
                },
            },
        ],
        open: None,
    };
    let s = run(&src, &launch, &preset("gpgpusim-like"), &memory).expect("runs");
    array(&s, "out").to_vec()
}

/// (1.5, 2.25) is texel (1, 2), the tenth (4·2 + 1 = 9), words 36..39. Mask RGB: R, G to the
/// second operand's pair (R20, R21), B to the first operand (R22); A is not fetched and R23
/// keeps 0x55.
#[test]
fn three_channels_fill_the_pairs_in_order() {
    let pascal = fetch("sm_61", "TEXS.T R22, R20, R10, R11, 0x52, 2D, RGB ;");
    assert_eq!(pascal, vec![36, 37, 38, 0x55]);
    let volta = fetch(
        "sm_86",
        "TEX.SCR.LL R22, R20, R10, R12, 0x0, 0x5a, 2D, 0x7 ;",
    );
    assert_eq!(volta, vec![36, 37, 38, 0x55]);
    // Mask 0x3 (RG) into R20, R21 only; no mask printed: all four.
    let rg = fetch(
        "sm_86",
        "TEX.SCR.LL RZ, R20, R10, R12, 0x0, 0x5a, 2D, 0x3 ;",
    );
    assert_eq!(rg, vec![36, 37, 0, 0x55]);
    let all = fetch("sm_86", "TEX.SCR.LL R22, R20, R10, R12, 0x0, 0x5a, 2D ;");
    assert_eq!(all, vec![36, 37, 38, 39]);
}
