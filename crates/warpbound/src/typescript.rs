//! The TypeScript declarations of the wire format: [`Request`] and [`Report`] and every type
//! they reach, as one `.d.ts` text for the JavaScript package (issue #40 item 1).
//!
//! The facade's own types derive `ts_rs::TS`, so their declarations come from the same Rust
//! types that write the JSON (field names, optional fields, tagged enums and doc comments
//! included): the dialect, the diagnostics, the instruction table's classes and control bits,
//! the graph drawing, the request's memory and the Sim-D results are facade types too
//! (converted from and to `isa`, `layout`, `sim` and `phases` types at the boundary), so no
//! declaration is written by hand. `crates/warpbound/bindings/warpbound.d.ts` holds the text
//! this module produces; `tests/typescript.rs` fails when the two differ, which is what pins the
//! schema: any change to a wire type shows up there as a diff to review and bless.
//!
//! Every integer is a `number`: the wasm binding converts with `serde-wasm-bindgen` in
//! JSON-compatible mode, which sends a `u64` as a JavaScript number (and refuses one above
//! 2^53 rather than sending a `BigInt`), and the JSON text has no other kind of number.

use crate::{Report, Request};
use std::collections::BTreeMap;
use ts_rs::{Config, TypeVisitor, TS};

/// The whole `.d.ts` text: a header, then the declaration of every
/// facade type the request and the report reach: `Request` and `Report` first, the others
/// by name. Sorted, not in the order the walk meets them: the derived code visits a type's
/// dependencies in a hash set's order, which changes from build to build.
pub fn declarations() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut walk = Walk {
        cfg: &cfg,
        found: BTreeMap::new(),
    };
    walk.visit::<Request>();
    walk.visit::<Report>();
    let mut found = walk.found;
    let mut body = String::new();
    for first in ["Request", "Report"] {
        body.push_str(&found.remove(first).unwrap_or_default());
    }
    body.extend(found.into_values());
    let text = format!(
        "// The request and report of `analyze`, generated from the Rust types by\n\
         // crates/warpbound/src/typescript.rs (ts-rs). Do not edit: change the Rust types and run\n\
         // WARPBOUND_BLESS=1 cargo test -p warpbound --test typescript\n\n{}",
        body
    );
    close_braces_on_their_own_line(&text)
}

/// `text` with every `}` whose `{` ended a line moved to a line of its own. ts-rs writes a
/// documented field list as `= { ⏎ /** … */ ⏎ a: T, b: U, };`; wasm-bindgen re-indents the
/// package's `.d.ts` by lines, one level deeper after a line ending in `{` and one less at a
/// line starting with `}`, so without this every declaration after the first documented one
/// would sit a level deeper than the last.
fn close_braces_on_their_own_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // For each open brace: whether it ended its line.
    let mut open = Vec::new();
    let (mut in_comment, mut in_string) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            in_comment = !(c == '/' && out.ends_with('*'));
        } else if in_string {
            in_string = c != '"';
        } else {
            match c {
                '*' if out.ends_with('/') => in_comment = true,
                '"' => in_string = true,
                '{' => {
                    let rest = chars.clone().take_while(|&n| n != '\n');
                    open.push(rest.into_iter().all(|n| n == ' '));
                }
                // Every `}` pops its `{` here, whether or not the guard then holds.
                '}' if open.pop() == Some(true) && !out.trim_end_matches(' ').ends_with('\n') => {
                    out.truncate(out.trim_end_matches(' ').len());
                    out.push('\n');
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// A depth-first walk over the types a declaration refers to, declaring each once.
struct Walk<'a> {
    cfg: &'a Config,
    /// Each name declared, with its declaration (two Rust types may share a name only with
    /// one shape: `serde_json`'s `Value` and its `Map` are both `JsonValue`).
    found: BTreeMap<String, String>,
}

impl TypeVisitor for Walk<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Only named types have a declaration of their own: `output_path` is `None` for
        // primitives, `Vec`, `Option` and maps, whose arguments the derived code visits (and
        // whose `ident` may panic, so it is asked of named types only).
        if T::output_path().is_none() {
            return;
        }
        let name = T::ident(self.cfg);
        let mut decl = T::docs().unwrap_or_default();
        decl.push_str("export ");
        decl.push_str(&T::decl(self.cfg));
        decl.push_str("\n\n");
        if let Some(earlier) = self.found.get(&name) {
            // One TypeScript namespace: two wire types of one name must be one shape.
            assert!(
                *earlier == decl,
                "two wire types are named {name} with different shapes: rename one"
            );
            return;
        }
        self.found.insert(name, decl);
        T::visit_dependencies(self);
    }
}
