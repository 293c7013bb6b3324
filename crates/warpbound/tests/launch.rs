//! The `launch` mode (issue #41 item 3) on hand-written kernels: the bound's parts worked
//! out by hand from the warp bound, the occupancy and the GPU, and the simulated launch
//! (several SMs, several waves) within it.

use isa::Dialect;
use warpbound::{analyze, Request};

/// Four independent instructions: under cost `unit` a warp issues 4 (C = I = 4).
const STRAIGHT: &str = "MOV R1, 0x1 ;\nMOV R2, 0x2 ;\nMOV R3, 0x3 ;\nEXIT ;\n";

fn report(
    src: &str,
    preset: Option<&str>,
    params: &[(&str, serde_json::Value)],
) -> warpbound::Report {
    let mut req = Request::new(src, Dialect::Sass);
    req.mode = Some("launch".into());
    req.preset = preset.map(str::to_string);
    for (k, v) in params {
        req.params.insert((*k).into(), v.clone());
    }
    analyze(&req)
}

#[test]
fn full_sm_blocks_in_two_waves_under_unit_cost_are_exact() {
    // RTX 2080 Ti (sm_75: 32 warps per SM): a block of 1024 threads is 32 warps, so one
    // block per SM (m = 1); 2 SMs, 4 blocks: 2 waves. A block issues 32 × 4 = 128 one per
    // cycle: observed 2 × 128 = 256. Bound: q = ⌊3/2⌋ = 1, D ≤ 1·32·4 = 128 (σ = 0 under
    // unit cost); C_1 = 4 + 31·4 = 128: T ≤ 256.
    let r = report(
        STRAIGHT,
        None,
        &[
            ("gpu", serde_json::json!("rtx-2080-ti")),
            ("sms", serde_json::json!(2)),
            ("grid", serde_json::json!("4,1,1")),
            ("block", serde_json::json!("1024,1,1")),
            ("simulate", serde_json::json!(true)),
        ],
    );
    let l = r.launch().unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert_eq!((l.warp_wcet, l.warp_issues, l.warp_stall), (4, 4, 0));
    assert_eq!((l.sms, l.blocks_per_sm, l.warps_per_block), (2, 1, 32));
    assert_eq!(l.sms_from, "parameter");
    assert_eq!(l.bound.waves, 2);
    assert_eq!(l.bound.dispatch_issues, 128);
    assert_eq!(l.bound.final_phase, 128);
    assert_eq!(l.wcet, 256);
    assert_eq!(r.wcet.as_ref().map(|w| w.cycles), Some(256));
    let occupancy = r.occupancy.as_ref().expect("occupancy");
    assert_eq!(occupancy.machine, "sm_75");
    assert_eq!(occupancy.machine_from, "gpu");
    assert_eq!(l.runs.len(), 3);
    for run in &l.runs {
        assert_eq!(run.cycles, 256, "{}", run.scheduler);
        assert_eq!((run.sms_used, run.most_blocks_on_one_sm), (2, 2));
        assert!(run.holds);
    }
    let sim = r.simulation.as_ref().expect("simulation");
    assert_eq!(sim.holds, Some(true));
    // The Gantt chart: SM 0 and SM 1 with two blocks each (waves 1 and 2), and the bound.
    let g = r.schedule.as_ref().expect("schedule");
    assert_eq!(g.lanes, vec!["SM 0", "SM 1", "bound"]);
    let sm0: Vec<(u64, u64, u32)> = g
        .items
        .iter()
        .filter(|i| i.lane == 0)
        .map(|i| (i.start, i.length, i.group))
        .collect();
    assert_eq!(sm0, vec![(0, 128, 0), (128, 128, 1)]);
}

#[test]
fn the_gpu_comes_from_the_listing_architecture() {
    // A listing for sm_86: the RTX 3090, 82 SMs; 128-thread blocks (4 warps) of a kernel of
    // 6 registers: 12 blocks per SM (48 warps per SM on cc 8.6 / 4; the blocks limit is 16).
    // 256 blocks fit in one wave (82 × 12 = 984 slots); any dispatcher may still put 12 on
    // one SM: C_12 = 4 + (48 − 1)·4 = 192.
    let src = format!("\tcode for sm_86\n{STRAIGHT}");
    let r = report(&src, None, &[]);
    let l = r.launch().unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert_eq!(
        (l.gpu.as_str(), l.gpu_from.as_str()),
        ("rtx-3090", "listing")
    );
    assert_eq!((l.sms, l.sms_from.as_str()), (82, "gpu"));
    assert_eq!(l.blocks_per_sm, 12);
    assert_eq!((l.blocks, l.bound.slots, l.bound.waves), (256, 984, 1));
    assert_eq!(l.bound.last_dispatch, 0);
    assert_eq!(l.wcet, 192);
}

#[test]
fn latency_bound_parts_by_hand() {
    // A dependent chain on the Pascal GP102 latencies (ALU 6): S2R, IADD, IADD, EXIT take
    // C = 18 alone (sim's timing test) and issue I = 4. GTX 1080 Ti limits, 2 SMs, 1024-
    // thread blocks (32 warps: m = 2 on sm_61's 64 warps), 9 blocks: q = ⌊8/2⌋ = 4,
    // D ≤ 4·32·4 + ⌊4/2⌋·18 = 512 + 36 = 548; C_2 = 18 + 63·4 = 270: T ≤ 818.
    let src = "S2R R0, SR_TID.X ;\nIADD R1, R0, 0x1 ;\nIADD R2, R1, 0x1 ;\nEXIT ;\n";
    let r = report(
        src,
        Some("pascal-gp102"),
        &[
            ("gpu", serde_json::json!("gtx-1080-ti")),
            ("sms", serde_json::json!(2)),
            ("grid", serde_json::json!("9,1,1")),
            ("block", serde_json::json!("1024,1,1")),
            ("simulate", serde_json::json!(true)),
        ],
    );
    let l = r.launch().unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert_eq!((l.warp_wcet, l.warp_issues, l.warp_stall), (18, 4, 18));
    assert_eq!(l.blocks_per_sm, 2);
    assert_eq!(l.bound.waves, 3);
    assert_eq!(l.bound.dispatch_issues, 512);
    assert_eq!(l.bound.dispatch_stalls, 36);
    assert_eq!(l.bound.final_phase, 270);
    assert_eq!(l.wcet, 818);
    for run in &l.runs {
        assert!(run.holds, "{}: {} > {}", run.scheduler, run.cycles, l.wcet);
        assert_eq!(run.sms_used, 2);
    }
}

#[test]
fn a_grid_of_two_to_the_31_blocks_answers_at_once() {
    let t = std::time::Instant::now();
    let r = report(
        STRAIGHT,
        None,
        &[
            ("grid", serde_json::json!("2147483647,65535,1")),
            ("simulate", serde_json::json!(true)),
        ],
    );
    let l = r.launch().unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert!(l.wcet > 1 << 40);
    // The run stops at the block budget, with an error; the bound stands.
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("max_blocks")));
    assert!(t.elapsed().as_secs_f64() < 2.0);
}

#[test]
fn bad_parameters_are_errors_not_panics() {
    for (k, v) in [
        ("gpu", serde_json::json!("gtx-480")),
        ("block", serde_json::json!("2048,1,1")),
        ("grid", serde_json::json!("0,1,1")),
        ("sms", serde_json::json!(5000)),
        ("shared_bytes", serde_json::json!(1 << 20)),
    ] {
        let r = report(STRAIGHT, None, &[(k, v.clone())]);
        assert!(r.launch().is_none(), "{k} = {v}");
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.severity == warpbound::Severity::Error),
            "{k} = {v}: {:?}",
            r.diagnostics
        );
    }
}

/// `tile_sum` of our `occupancy_tiles` kernel (sm_61) declares 4 096 bytes of shared memory:
/// its whole nvdisasm dump says so (`.nv.shared`), its `cuobjdump -sass` listing does not
/// (taken as 0). From the listing the occupancy is overstated, so the launch bound is the
/// largest for 1 … m resident blocks (a note says so); from the dump it is the bound at the
/// actual occupancy — which the listing's bound must cover. Blocks of one warp on Pascal: 32
/// blocks per SM by the block limit as the listing reads (64 by warps), ⌊96 KB / 4 KB⌋ = 24 by
/// shared memory as the dump says. 1 000 blocks on one SM under the latency preset (the
/// kernel has a barrier: σ_β = C, a final phase of r·C): at 24 blocks ⌊999/24⌋ = 41 rounds
/// of σ_β and 24·C, at 32 ⌊999/32⌋ = 31 and 32·C — 65·C against 63·C, so the bound the
/// listing's 32 blocks alone would give is below the dump's: the listing's must not be it.
#[test]
fn a_listing_without_its_shared_memory_bounds_every_occupancy_up_to_its_estimate() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/kernels/occupancy");
    let listing = std::fs::read_to_string(format!("{root}/sass/sm_61/occupancy_tiles.sass"))
        .expect("listing");
    let dump = std::fs::read_to_string(format!("{root}/dump/sm_61/occupancy_tiles.nvdisasm"))
        .expect("dump");
    let run = |src: &str| {
        let mut req = Request::new(src, Dialect::Sass);
        req.mode = Some("launch".into());
        req.function = Some("_Z8tile_sumPKfPf".into());
        req.preset = Some("pascal-gp102".into());
        for (k, v) in [("grid", "1000,1,1"), ("block", "32,1,1"), ("sms", "1")] {
            req.params.insert(k.into(), serde_json::json!(v));
        }
        analyze(&req)
    };
    let (from_listing, from_dump) = (run(&listing), run(&dump));
    let per_sm = |r: &warpbound::Report| r.occupancy.as_ref().expect("occupancy").blocks_per_sm;
    assert_eq!((per_sm(&from_listing), per_sm(&from_dump)), (32, 24));
    let note = |r: &warpbound::Report| {
        r.diagnostics.iter().any(|d| {
            d.message
                .contains("a listing does not say how much it declares")
        })
    };
    assert!(note(&from_listing) && !note(&from_dump));
    let bound = |r: &warpbound::Report| r.wcet.as_ref().expect("bound").cycles;
    assert!(
        bound(&from_listing) >= bound(&from_dump),
        "{} < {}",
        bound(&from_listing),
        bound(&from_dump)
    );
}

#[test]
fn memory_contention_grows_each_memory_access_by_delta() {
    // One global load whose result the next instruction waits for: under cost latency the
    // warp's C holds the load's latency once, so the other SMs' traffic adds Δ once. GTX
    // 1080 Ti (484 GB/s at 1582 MHz: 305.9 B per cycle), 2 SMs, 9 blocks: A = 2 active SMs;
    // Δ = ⌈2 × 32 sectors × 32 B × 1582 / 484 000⌉ = ⌈6.69⌉ = 7, and with 4 sectors per
    // access ⌈2 × 4 × 32 × 1582 / 484 000⌉ = ⌈0.84⌉ = 1.
    let src = "S2R R0, SR_TID.X ;\nLDG.E R1, [R2] ;\nIADD R3, R1, 0x1 ;\nEXIT ;\n";
    let with = |extra: &[(&str, serde_json::Value)]| {
        let mut params = vec![
            ("gpu", serde_json::json!("gtx-1080-ti")),
            ("sms", serde_json::json!(2)),
            ("grid", serde_json::json!("9,1,1")),
            ("block", serde_json::json!("1024,1,1")),
        ];
        params.extend(extra.iter().cloned());
        let r = report(src, Some("pascal-gp102"), &params);
        r.launch()
            .cloned()
            .unwrap_or_else(|| panic!("{:?}", r.diagnostics))
    };
    let none = with(&[("memory_contention", serde_json::json!("none"))]);
    assert!(none.contention.is_none());
    assert!(none.assumptions[0].starts_with("no memory contention"));
    let full = with(&[]);
    let c = full.contention.as_ref().expect("contention by default");
    assert_eq!(
        (c.active_sms, c.sectors_per_access, c.cycles_per_access),
        (2, 32, 7)
    );
    assert_eq!(full.warp_wcet, none.warp_wcet + 7);
    assert_eq!(full.warp_issues, none.warp_issues);
    assert!(full.wcet > none.wcet);
    let coalesced = with(&[("sectors_per_access", serde_json::json!(4))]);
    let c = coalesced.contention.as_ref().expect("contention");
    assert_eq!(c.cycles_per_access, 1);
    assert_eq!(coalesced.warp_wcet, none.warp_wcet + 1);
    // Cost unit has no latencies to grow.
    let unit = with(&[("cost", serde_json::json!("unit"))]);
    assert!(unit.contention.is_none());
}
