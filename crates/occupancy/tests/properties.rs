//! Properties the suggestions rely on, over every preset and arbitrary usages: no panic, the
//! resident warps never exceed the slots, and the blocks never grow when registers or shared
//! memory grow (the bisection of `one_more_block` assumes it); the suggested values do give one
//! block more and one unit more does not.

use occupancy::{analyse, gcn::GCN3, nvidia::PRESETS, Machine, Usage};
use proptest::prelude::*;

fn machines() -> Vec<Machine> {
    let mut m: Vec<Machine> = PRESETS.iter().cloned().map(Machine::Nvidia).collect();
    m.push(Machine::Gcn3(GCN3));
    m
}

proptest! {
    #[test]
    fn monotone_and_within_the_slots(
        threads in 0u32..1100,
        registers in 0u32..300,
        sgprs in 0u32..120,
        shared in prop_oneof![0u64..300_000, Just(u64::MAX)],
        extra in 1u32..40,
    ) {
        for m in machines() {
            let u = Usage { threads, registers, scalar_registers: sgprs, shared_bytes: shared };
            let Ok(a) = analyse(&m, &u) else {
                prop_assert!(threads == 0 || threads > m.max_threads_per_block());
                continue;
            };
            let o = &a.occupancy;
            prop_assert!(o.warps_per_sm <= o.max_warps_per_sm);
            prop_assert_eq!(o.binding.first().copied(), Some(o.limited_by));
            let more_regs = Usage { registers: registers.saturating_add(extra), ..u };
            let more_shared = Usage { shared_bytes: shared.saturating_add(u64::from(extra) * 97), ..u };
            let blocks = |u: &Usage| m.occupancy(u).map(|o| o.blocks_per_sm).unwrap_or(0);
            prop_assert!(blocks(&more_regs) <= o.blocks_per_sm);
            prop_assert!(blocks(&more_shared) <= o.blocks_per_sm);
            let target = o.blocks_per_sm + 1;
            if let Some(r) = a.one_more_block.registers_at_most {
                let (at, above) = (Usage { registers: r, ..u }, Usage { registers: r + 1, ..u });
                prop_assert!(blocks(&at) >= target);
                prop_assert!(blocks(&above) < target);
            }
            if let Some(s) = a.one_more_block.shared_bytes_at_most {
                let (at, above) = (Usage { shared_bytes: s, ..u }, Usage { shared_bytes: s + 1, ..u });
                prop_assert!(blocks(&at) >= target);
                prop_assert!(blocks(&above) < target);
            }
            for b in [a.one_more_block.smaller_block, a.one_more_block.larger_block].into_iter().flatten() {
                prop_assert!(b.warps_per_sm > o.warps_per_sm);
                prop_assert_eq!(b.threads % m.warp_size(), 0);
            }
        }
    }
}
