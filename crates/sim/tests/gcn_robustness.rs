//! The GCN3 simulator never panics: random instruction soups (valid and invalid opcodes,
//! operands out of range, branches anywhere, splits and merges without structure) under
//! every splitting model end with a result or a diagnostic that is located or names a
//! budget.

use proptest::prelude::*;
use sim::gcn;
use sim::machine::gcn3;
use sim::{ArrayInit, Budget, Fill, Launch, Machine, MemoryInit, SplitCosts, Splitting};

const TEMPLATES: &[&str] = &[
    "v_mov_b32_e32 v{a}, s{b}",
    "v_add_u32_e32 v{a}, vcc, v{b}, v{c}",
    "v_addc_u32_e32 v{a}, vcc, 0, v{b}, vcc",
    "v_mul_lo_u32 v{a}, v{b}, v{c}",
    "v_lshlrev_b64 v[{a}:{a1}], {c}, v[{b}:{b1}]",
    "v_cmp_gt_u32_e32 vcc, {c}, v{b}",
    "v_cmpx_lt_i32_e32 vcc, v{a}, v{b}",
    "v_cndmask_b32_e64 v{a}, v{b}, v{c}, s[{b}:{b1}]",
    "v_fma_f32 v{a}, -v{b}, |v{c}|, 1.0",
    "v_cvt_u32_f32_e32 v{a}, v{b}",
    "v_div_scale_f32 v{a}, vcc, v{b}, v{b}, v{c}",
    "s_mov_b64 s[{a}:{a1}], exec",
    "s_and_saveexec_b64 s[{a}:{a1}], vcc",
    "s_or_saveexec_b64 s[{a}:{a1}], s[{b}:{b1}]",
    "s_xor_b64 exec, exec, s[{a}:{a1}]",
    "s_or_b64 exec, exec, s[{a}:{a1}]",
    "s_andn2_b64 exec, exec, s[{a}:{a1}]",
    "s_add_u32 s{a}, s{b}, {c}",
    "s_addc_u32 s{a}, s{b}, 0",
    "s_lshl_b64 s[{a}:{a1}], s[{b}:{b1}], {c}",
    "s_cmp_lg_u32 s{a}, {c}",
    "s_bfe_u32 s{a}, s{b}, 0x{c}0004",
    "s_load_dwordx4 s[{a}:{a3}], s[4:5], {c}",
    "s_load_dword s{a}, s[{b}:{b1}], 0x0",
    "flat_load_dword v{a}, v[{b}:{b1}]",
    "flat_store_dword v[{b}:{b1}], v{a}",
    "global_load_dword v{a}, v{b}, s[0:1] offset:{c}",
    "ds_write_b32 v{a}, v{b}",
    "ds_read2_b32 v[{a}:{a1}], v{b} offset1:{c}",
    "s_waitcnt vmcnt(0) lgkmcnt(0)",
    "s_barrier",
    "s_cbranch_execz L{c}",
    "s_cbranch_execnz L{c}",
    "s_cbranch_scc1 L{c}",
    "s_cbranch_vccz L{c}",
    "s_branch L{c}",
    "split s{a}, s{b}",
    "merge",
    "s_endpgm",
    "v_bogus_op v{a}",
    "s_mov_b32 s{a}, s200",
];

fn soup(picks: &[(usize, u32, u32, u32)]) -> String {
    let mut text = String::from("k:\n");
    for (i, &(t, a, b, c)) in picks.iter().enumerate() {
        text.push_str(&format!("L{}:\n", i % 8));
        let line = TEMPLATES[t % TEMPLATES.len()]
            .replace("{a1}", &(a + 1).to_string())
            .replace("{a3}", &(a + 3).to_string())
            .replace("{b1}", &(b + 1).to_string())
            .replace("{a}", &a.to_string())
            .replace("{b}", &b.to_string())
            .replace("{c}", &(c % 8).to_string());
        text.push_str("  ");
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("  s_endpgm\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn random_gcn_never_panics(
        picks in prop::collection::vec((0usize..64, 0u32..12, 0u32..12, 0u32..64), 1..24),
        block in 1u32..=130,
        mode in 0u8..3,
        s in 0u32..3,
    ) {
        let src = soup(&picks);
        // Labels repeat: keep the first definition only by renaming duplicates away.
        let mut seen = std::collections::BTreeSet::new();
        let src: String = src
            .lines()
            .filter(|l| !l.ends_with(':') || seen.insert(l.to_string()))
            .map(|l| format!("{l}\n"))
            .collect();
        let costs = SplitCosts { s, e_s: 2, e_m: 1 };
        let splitting = match mode {
            0 => Splitting::None,
            1 => Splitting::Dws(costs),
            _ => Splitting::Pws(costs),
        };
        let m = Machine { splitting, ..gcn3() };
        let memory = MemoryInit {
            arrays: vec![ArrayInit {
                name: "a".into(),
                address: 0,
                words: 1024,
                fill: Fill::Iota { start: 0, step: 4 },
            }],
    open: None,
        };
        let launch = Launch {
            block: [block, 1, 1],
            grid: [2, 1, 1],
            params: vec![0, 0, 64, 0],
            shared_bytes: 256,
            ..Launch::default()
        };
        let budget = Budget {
            max_steps: 20_000,
            max_cycles: 200_000,
            ..Budget::default()
        };
        match gcn::run_source(&src, None, &launch, &m, &memory, &budget) {
            Ok(sim) => prop_assert!(sim.issued > 0),
            Err(e) => {
                prop_assert!(!e.diagnostics.is_empty());
                for d in &e.diagnostics {
                    prop_assert!(
                        d.line > 0 || d.message.contains("(raise "),
                        "unlocated: {} in\n{}", d.message, src
                    );
                }
            }
        }
    }
}
