//! Arbitrary control-heavy instruction soups never panic or hang any mode: every outcome is a
//! report (possibly with located errors).

use isa::Dialect;
use proptest::prelude::*;
use warpbound::{analyze, Request};

const VOCABULARY: &[&str] = &[
    "SSY L{t} ;",
    "PBK L{t} ;",
    "PCNT L{t} ;",
    "@P0 BRA L{t} ;",
    "@!P1 BRA L{t} ;",
    "BRA L{t} ;",
    "@P0 BRA.U L{t} ;",
    "CAL L{t} ;",
    "SYNC ;",
    "@P1 SYNC ;",
    "BRK ;",
    "@P0 BRK ;",
    "CONT ;",
    "RET ;",
    "@!P0 RET ;",
    "EXIT ;",
    "@P0 EXIT ;",
    "NOP.S ;",
    "BAR.SYNC 0x0 ;",
    "S2R R0, SR_TID.X ;",
    "ISETP.GE.AND P0, PT, R0, R1, PT ;",
    "ISETP.NE.AND P1, PT, R1, RZ, PT ;",
    "IADD R1, R1, 0x1 ;",
    "@P1 IADD R0, R0, R1 ;",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn instruction_soups_never_panic(
        picks in prop::collection::vec((0..VOCABULARY.len(), 0usize..12), 1..14),
        labels in prop::collection::vec(0usize..14, 0..5),
        mode in prop::sample::select(vec!["cfg", "warp-cfg"]),
        agreement in any::<bool>(),
        cyclic in any::<bool>(),
    ) {
        let mut lines = Vec::new();
        for (i, (v, t)) in picks.iter().enumerate() {
            if labels.contains(&i) || i == *t {
                lines.push(format!("L{i}:"));
            }
            lines.push(VOCABULARY[*v].replace("{t}", &t.to_string()));
        }
        lines.push("EXIT ;".into());
        for t in 0..14 {
            if !lines.iter().any(|l| l == &format!("L{t}:")) {
                lines.push(format!("L{t}:"));
                lines.push("EXIT ;".into());
            }
        }
        let mut req = Request::new(lines.join("\n"), Dialect::Sass);
        req.mode = Some(mode.into());
        if mode == "warp-cfg" {
            req.params.insert("agreement".into(), serde_json::json!(agreement));
            req.params.insert("cyclic_stacks".into(), serde_json::json!(cyclic));
            req.params.insert("max_states".into(), serde_json::json!(3000));
        }
        let r = analyze(&req);
        for d in &r.diagnostics {
            prop_assert!(!d.message.is_empty());
        }
        if let Some(w) = &r.wcet {
            prop_assert!(w.cycles >= 1);
        }
    }
}
