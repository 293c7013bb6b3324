//! PTX kernels of the unknown-data tests (`unknown_data.rs`, and the facade's
//! `rr_unknown_data.rs`, which includes this file by path): one thread per word of an array
//! `a` at the parameter `p`, each starting from its own word's address `%rd3 = p + 4·tid`.

/// A kernel `k(p)` whose body follows the common prologue (`%rd3` = `p + 4·%tid.x`), with
/// `preds` predicate registers (0: none declared). The prologue is seven lines, so the
/// body's first line is line 8.
pub fn kernel(preds: u32, body: &str) -> String {
    let pred = if preds > 0 {
        format!(".reg .pred %p<{preds}>; ")
    } else {
        String::new()
    };
    format!(
        ".entry k(.param .u64 p)\n{{\n{pred}.reg .b32 %r<8>; .reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n\
         add.s64 %rd3, %rd1, %rd2;\n{body}"
    )
}

/// `a[i] = a[i] > 0 ? 2·a[i] + 1 : −a[i]`, as nvcc -O0 would branch it.
pub fn if_else() -> String {
    kernel(
        2,
        "\
ld.global.u32 %r2, [%rd3];
setp.gt.s32 %p1, %r2, 0;
@%p1 bra POS;
sub.s32 %r3, 0, %r2;
bra END;
POS:
add.s32 %r3, %r2, %r2;
add.s32 %r3, %r3, 1;
END:
st.global.u32 [%rd3], %r3;
ret;
}
",
    )
}

/// `n = 0; do { x = a[row·32 + i]; n++; row++ } while (x > 0); a[i] = n` — a column walk
/// that stops at the first non-positive word: the exit depends on loaded data.
pub fn walk() -> String {
    walk_rows(128)
}

/// [`walk`] with rows `row_bytes` apart (the facade's test walks 256-byte rows).
pub fn walk_rows(row_bytes: u32) -> String {
    kernel(
        2,
        &format!(
            "\
mov.u32 %r4, 0;
mov.u64 %rd6, %rd3;
LOOP:
ld.global.u32 %r2, [%rd6];
add.s32 %r4, %r4, 1;
add.s64 %rd6, %rd6, {row_bytes};
setp.gt.s32 %p1, %r2, 0;
@%p1 bra LOOP;
st.global.u32 [%rd3], %r4;
ret;
}}
"
        ),
    )
}

/// A gather `a[i] = a[a[i]]`: the second load's address depends on loaded data.
pub fn gather() -> String {
    kernel(
        0,
        "\
ld.global.u32 %r2, [%rd3];
mul.wide.s32 %rd4, %r2, 4;
add.s64 %rd5, %rd1, %rd4;
ld.global.u32 %r3, [%rd5];
st.global.u32 [%rd3], %r3;
ret;
}
",
    )
}
