//! Inferred bounds of our test kernels as nvcc 11.8 compiled them (`tests/kernels`), against
//! trip counts derived by hand from the CUDA source for the launch given.

use loopbound::{Input, Interval, LoopBound};

/// A SASS listing's function, lowered and evaluated for a launch of `grid` × `block` with
/// parameter words `params` (constant bank 0 laid out as `sim::ConstantLayout` says).
fn sass(
    path: &str,
    function: &str,
    grid: [u32; 3],
    block: [u32; 3],
    params: &[u32],
) -> Vec<LoopBound> {
    let text = std::fs::read_to_string(format!("../../tests/kernels/sass/{path}"))
        .expect("test kernel listing");
    let parsed = isa::sass::parse(&text, Some(function), &isa::Limits::default());
    let k = parsed.kernel.expect("function");
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let p = loopbound::sass::lower(&k, &g);
    assert!(p.check().is_empty(), "{:?}", p.check());
    let layout = sim::ConstantLayout::for_arch(k.arch.as_deref());
    let launch = sim::Launch {
        grid,
        block,
        params: params.to_vec(),
        ..sim::Launch::default()
    };
    let env = move |i: &Input| match i {
        Input::ConstWord { bank: 0, offset } => layout
            .read(&launch, *offset)
            .map(|w| Interval::point(i128::from(w))),
        Input::Tid(a) => Interval::new(0, i128::from(launch.block[*a as usize]) - 1),
        Input::Ctaid(a) => Interval::new(0, i128::from(launch.grid[*a as usize]) - 1),
        _ => None,
    };
    loopbound::analyse(p).evaluate(&env)
}

fn at<'a>(bounds: &'a [LoopBound], key: &str) -> &'a LoopBound {
    bounds
        .iter()
        .find(|b| b.key == key)
        .unwrap_or_else(|| panic!("no loop at {key}: {bounds:?}"))
}

const ARCHS: [&str; 4] = ["sm_70", "sm_75", "sm_86", "sm_90"];

/// `while (x != 1 && c < 1000) { …; c++; }`: the counter alone bounds the loop: c = 0 … 999
/// at the header, 1000 runs, whatever the data — on every architecture from Volta on (the
/// loop's only header is its first block).
#[test]
fn collatz_counter_bounds_the_data_loop() {
    for arch in ARCHS {
        let b = sass(
            &format!("{arch}/collatz_capped.sass"),
            "_Z14collatz_cappedPKjPj",
            [1, 1, 1],
            [32, 1, 1],
            &[],
        );
        assert_eq!(b.len(), 1, "{arch}: {b:?}");
        assert_eq!(b[0].bound, Some(1000), "{arch}: {}", b[0].reason);
        assert!(
            b[0].reason.contains("+= 1 from 0"),
            "{arch}: {}",
            b[0].reason
        );
        assert!(b[0].reason.contains("1000"), "{arch}: {}", b[0].reason);
    }
}

/// `for (s = blockDim.x / 2; s > 0; s >>= 1)`: s = 16, 8, 4, 2, 1 for 32 threads (5 runs),
/// 128 … 1 for 256 (8 runs).
#[test]
fn reduction_tree_halves_blockdim() {
    for arch in ARCHS {
        for (threads, runs) in [(32, 5), (256, 8), (1024, 10)] {
            let b = sass(
                &format!("{arch}/counted_loops.sass"),
                "_Z11reduce_treePf",
                [1, 1, 1],
                [threads, 1, 1],
                &[0x10_0000, 0],
            );
            assert_eq!(b.len(), 1);
            assert_eq!(b[0].bound, Some(runs), "{arch} {threads}: {}", b[0].reason);
        }
    }
}

/// `for (i = blockIdx.x·blockDim.x + threadIdx.x; i < n; i += blockDim.x·gridDim.x)`:
/// the worst thread (i = 0) runs ⌈n / (blockDim·gridDim)⌉ times: n = 64, 32 × 1 → 2;
/// n = 100, 2 blocks of 32 → ⌈100/64⌉ = 2; n = 129 → 3; n = 1000, 4 blocks of 64 → 4.
#[test]
fn grid_stride_loop_over_the_launch() {
    for arch in ARCHS {
        for (n, grid, block, runs) in [
            (64, 1, 32, 2),
            (100, 2, 32, 2),
            (129, 2, 32, 3),
            (1000, 4, 64, 4),
        ] {
            let b = sass(
                &format!("{arch}/grid_stride_divmod.sass"),
                "_Z18grid_stride_divmodPKfPfii",
                [grid, 1, 1],
                [block, 1, 1],
                &[0x10_0000, 0, 0x20_0000, 0, n, 8],
            );
            assert_eq!(b.len(), 1, "{arch}");
            assert_eq!(b[0].bound, Some(runs), "{arch} n={n}: {}", b[0].reason);
        }
    }
}

/// `for (i = 0; i < n; i++) s += a[i];`, unrolled 16× (with an 8 and a 4 step and a
/// remainder loop): the 16-step loop at 0x0150 (sm_86) runs while the remaining count stays
/// above 12: n = 64 → 64, 48, 32, 16 (4 runs); n = 103 → 100 … 20 (6 runs). It leaves with
/// the count 0 (n = 64: the 4-step loop at 0x0550 is not entered) or 4 (n = 100 and 103:
/// one run of it, 4 → 0). The remainder loop (n & 3 iterations) is not entered for n = 64
/// and 100, and runs 3 times for 103.
#[test]
fn unrolled_sum_main_loop() {
    let run = |n: u32| {
        sass(
            "sm_86/counted_loops.sass",
            "_Z5sum_nPKfPfi",
            [1, 1, 1],
            [32, 1, 1],
            &[0x10_0000, 0, 0x20_0000, 0, n],
        )
    };
    let b = run(64);
    assert_eq!(at(&b, "0x0150").bound, Some(4));
    assert!(at(&b, "0x0550").reason.contains("not entered"));
    assert_eq!(at(&b, "0x06a0").bound, Some(1));
    let b = run(100);
    assert_eq!(at(&b, "0x0150").bound, Some(6));
    assert_eq!(at(&b, "0x0550").bound, Some(1));
    assert!(!at(&b, "0x0550").reason.contains("not entered"));
    let b = run(103);
    assert_eq!(at(&b, "0x0150").bound, Some(6));
    assert_eq!(at(&b, "0x0550").bound, Some(1));
    // n & 3 = 3: the remainder loop runs 3 times.
    assert_eq!(at(&b, "0x06a0").bound, Some(3));
}

/// `while (j < n) { if (data[j] == 0) break; ++j; }` from j = i: n − i runs, worst i = 0.
#[test]
fn data_break_keeps_the_counter_bound() {
    for arch in ARCHS {
        let b = sass(
            &format!("{arch}/while_break.sass"),
            "_Z11while_breakPKiPii",
            [1, 1, 1],
            [32, 1, 1],
            &[0x10_0000, 0, 0x20_0000, 0, 50],
        );
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].bound, Some(50), "{arch}: {}", b[0].reason);
    }
}

/// `for (i = 0; i < 100; i++) if (a[…] == 0) break;`: nvcc -O3 unrolls the constant count
/// completely (100 tests in a row), so there is no loop left to bound.
#[test]
fn constant_count_with_data_exit_is_unrolled() {
    for arch in ARCHS {
        let b = sass(
            &format!("{arch}/counted_loops.sass"),
            "_Z10find_firstPKiPi",
            [1, 1, 1],
            [32, 1, 1],
            &[0x10_0000, 0, 0x20_0000, 0],
        );
        assert!(b.is_empty(), "{arch}: {b:?}");
    }
}
