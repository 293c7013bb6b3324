//! Calls, tail calls and returns of GCN3 listings: typing by the forward scan
//! of `s_getpc_b64`/`s_add_u32`/`s_addc_u32`/GOT loads, the list of functions, and the
//! linked image.

use isa::gcn::{self, GcnControl, GcnProgram};
use isa::Limits;

const LOCAL: &str = include_str!("data/gcn_call_local.s");
const EXTERNAL: &str = include_str!("data/gcn_call_external.s");

fn parse(text: &str) -> GcnProgram {
    let p = gcn::parse(text, &Limits::default());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    p
}

fn controls(p: &GcnProgram, f: &str) -> Vec<GcnControl> {
    p.function(Some(f))
        .map(|f| f.instructions.iter().map(|i| i.control.clone()).collect())
        .unwrap_or_default()
}

#[test]
fn a_call_to_a_function_of_the_file_and_its_return() {
    let p = parse(LOCAL);
    assert_eq!(p.function_names(), vec!["_Z4stepj", "_Z5stepsPj"]);
    let kernel = p.function(Some("_Z5stepsPj")).expect("kernel");
    let callee = p.function(Some("_Z4stepj")).expect("callee");
    assert!(kernel.kernel && !callee.kernel);
    let call = GcnControl::Call {
        callee: "_Z4stepj".into(),
        return_pair: 30,
        target_index: None,
    };
    // Both forms: pc-relative (`@rel32`) and through the GOT (`@gotpcrel32` + load).
    let k = controls(&p, "_Z5stepsPj");
    assert_eq!(k[5], call);
    assert_eq!(k[11], call);
    assert_eq!(kernel.callees(), vec!["_Z4stepj"]);
    assert_eq!(
        controls(&p, "_Z4stepj").last(),
        Some(&GcnControl::Return),
        "`s_setpc_b64 s[30:31]` returns"
    );
    assert!(p.callee("_Z4stepj").is_ok());
    // Units and descriptions for the page.
    assert!(gcn::describe("s_swappc_b64").is_some_and(|d| d.contains("call")));
    assert_eq!(kernel.instructions[5].unit, gcn::GcnUnit::Branch);
}

#[test]
fn the_linked_image_puts_the_callee_after_the_kernel() {
    let p = parse(LOCAL);
    let kernel = p.function(Some("_Z5stepsPj")).expect("kernel");
    let linked = gcn::link(&p, kernel);
    assert_eq!(linked.parts.len(), 2);
    assert_eq!(linked.parts[1].name, "_Z4stepj");
    let start = linked.parts[1].start;
    assert_eq!(start, 18);
    let ins = &linked.function.instructions;
    assert_eq!(ins.len(), 18 + 14);
    assert!(matches!(
        ins[5].control,
        GcnControl::Call { target_index: Some(t), .. } if t == start
    ));
    // The callee's branches are re-indexed into the image.
    assert_eq!(ins[start + 5].control.target_index(), Some(start + 7));
    assert_eq!(linked.locate(start + 5), Some(("_Z4stepj", 5)));
}

#[test]
fn a_call_to_an_external_symbol_names_it_and_says_why() {
    let p = parse(EXTERNAL);
    let k = controls(&p, "_Z4sinsPf");
    assert_eq!(
        k[8],
        GcnControl::Call {
            callee: "__ocml_sin_f32".into(),
            return_pair: 30,
            target_index: None,
        }
    );
    let Err(why) = p.callee("__ocml_sin_f32") else {
        panic!("an external symbol has no function")
    };
    assert!(why.contains("`__ocml_sin_f32`") && why.contains("no bound would be safe"));
    let linked = gcn::link(&p, &p.functions[0]);
    assert_eq!(linked.parts.len(), 1);
    assert!(matches!(
        linked.function.instructions[8].control,
        GcnControl::Call {
            target_index: None,
            ..
        }
    ));
}

#[test]
fn unresolvable_targets_stay_indirect_with_a_reason() {
    // The pair comes from a kernel argument; the scan also forgets at labels.
    let text = "k:
  s_load_dwordx2 s[16:17], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_swappc_b64 s[30:31], s[16:17]
  s_getpc_b64 s[18:19]
  s_add_u32 s18, s18, f@rel32@lo+4
BB0_1:
  s_addc_u32 s19, s19, f@rel32@hi+12
  s_swappc_b64 s[30:31], s[18:19]
  s_setpc_b64 s[4:5]
  s_endpgm
";
    let p = parse(text);
    let ins = &p.functions[0].instructions;
    for i in [2, 6, 7] {
        assert_eq!(ins[i].control, GcnControl::Indirect, "{}", ins[i].text);
        let why = ins[i].control_problem().unwrap_or_default();
        assert!(why.contains("not statically known"), "{why}");
    }
}

#[test]
fn tail_calls_abs32_and_s_call_b64() {
    let text = "\t.type f,@function
f:
  s_setpc_b64 s[30:31]
\t.type g,@function
g:
  s_mov_b32 s4, f@abs32@lo
  s_mov_b32 s5, f@abs32@hi
  s_mov_b64 s[6:7], s[4:5]
  s_swappc_b64 s[30:31], s[6:7]
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, f$local@rel32@lo+4
  s_addc_u32 s17, s17, f$local@rel32@hi+12
  s_setpc_b64 s[16:17]
\t.type h,@function
h:
  s_call_b64 s[30:31], f
  s_endpgm
";
    let p = parse(text);
    let g = controls(&p, "g");
    assert!(matches!(&g[3], GcnControl::Call { callee, .. } if callee == "f"));
    assert!(matches!(&g[7], GcnControl::TailCall { callee, .. } if callee == "f"));
    assert!(matches!(&controls(&p, "h")[0], GcnControl::Call { callee, .. } if callee == "f"));
}
