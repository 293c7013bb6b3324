//! Indirect calls and branches of SASS listings in the `warp-cfg` and `block` modes: the
//! user's `indirect_targets` annotation, and what the bound makes of it.
//!
//! Why an annotation: `CALL.REL.NOINC Rn` (Volta and later), `BRX Rn`/`JMX Rn` (a `switch`
//! jump table, or on Fermi–Pascal a call through a function pointer after `PRET`) take their
//! target from a register, so the listing does not say where control goes. Like a loop bound,
//! the possible targets are a claim the user makes, keyed by the instruction's address:
//! `0x03b0=fnA|fnB;0x0420=0x0c40|cost:200`. A candidate is a function of the same listing
//! (`Function :` section), an instruction address of the analysed function, or `cost:N`, an
//! opaque callee of at most `N` cycles (reported as an assumption). nvdisasm's own
//! `BRANCH_TARGETS` annotation of a `BRX` is read by the parser; this parameter overrides it.
//!
//! What the bound makes of them. Threads of a warp may hold different targets, so the warp
//! may run every candidate in turn, each with a part of its threads (PTX ISA, `call`: an
//! indirect call through a register may diverge; `brx.idx` likewise unless `.uni`):
//! - an indirect **call** (`CALL` with a register, or a `BRX` right after `PRET` whose
//!   candidates are functions or costs) is an opaque call that returns: the warp-level CFG
//!   goes on after it (for the `BRX`, at the `PRET` point, as the callees' `RET` would), and
//!   its block costs, on top of its own instructions, the *sum* of its candidates' bounds —
//!   each candidate analysed as a warp-level CFG of its own from an entry where no register
//!   is known to agree (so for any caller and any subset of threads), with IPET. That is the
//!   reading of PTX indirect calls too (`modes/warp_cfg/ptx/calls.rs`);
//! - an indirect **branch** whose candidates are addresses of the function is a multi-way
//!   divergent branch in the warp-level CFG itself (`cfg::indirect`).
//!
//! Without targets, a reachable indirect instruction is a located error that says how to give
//! them.

mod callees;

use crate::catalog::ParamInfo;
use crate::params::number;
pub(super) use callees::extra_costs;
use isa::{BlockGraph, ControlKind, Diagnostic, Kernel, Severity};
use std::collections::BTreeMap;

/// The catalogue entry of `indirect_targets`.
pub(super) fn param() -> ParamInfo {
    ParamInfo::text(
        "indirect_targets",
        "SASS: the possible targets of indirect calls and branches (CALL.REL.NOINC Rn, BRX, \
         JMX), keyed by the instruction's address: ADDRESS=CANDIDATE|CANDIDATE;… where a \
         candidate is a function of the listing, an instruction address of the analysed \
         function, or cost:N (an opaque callee of at most N cycles, an assumption). A call \
         costs the sum of its candidates' bounds; a BRX to addresses is a multi-way divergent \
         branch. Example: 0x03b0=fnA|fnB;0x0420=0x0c40|cost:200",
        "",
    )
}

/// One possible target.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Candidate {
    /// A function of the same listing.
    Function(String),
    /// An instruction address of the analysed function.
    Address(u64),
    /// Code outside the listing that costs at most this many cycles.
    Cost(u64),
}

impl Candidate {
    fn text(&self) -> String {
        match self {
            Candidate::Function(n) => format!("`{n}`"),
            Candidate::Address(a) => format!("{a:#06x}"),
            Candidate::Cost(n) => format!("cost:{n}"),
        }
    }
}

/// The decoded parameter: candidates by instruction address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct IndirectTargets {
    pub per_address: BTreeMap<u64, Vec<Candidate>>,
}

impl IndirectTargets {
    /// Reads `ADDRESS=CANDIDATE|…;…`; every malformed piece is an error naming the parameter.
    pub fn decode(text: &str) -> Result<Self, Diagnostic> {
        let bad = |what: String| {
            Diagnostic::global(
                Severity::Error,
                format!(
                    "indirect_targets: {what} (write ADDRESS=CANDIDATE|…;… with candidates a \
                     function name, an instruction address or cost:N, e.g. \
                     0x03b0=fnA|fnB;0x0420=0x0c40|cost:200)"
                ),
            )
        };
        let mut out = IndirectTargets::default();
        for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let Some((key, list)) = entry.split_once('=') else {
                return Err(bad(format!("`{entry}` has no `=`")));
            };
            let Some(address) = number::unsigned(key) else {
                return Err(bad(format!(
                    "`{}` is not an instruction address",
                    key.trim()
                )));
            };
            let mut candidates = Vec::new();
            for c in list.split('|').map(str::trim) {
                let candidate = if let Some(n) = c.strip_prefix("cost:") {
                    Candidate::Cost(
                        number::unsigned(n)
                            .ok_or_else(|| bad(format!("`{c}`: N must be a whole number")))?,
                    )
                } else if c.starts_with(|ch: char| ch.is_ascii_digit()) {
                    Candidate::Address(
                        number::unsigned(c)
                            .ok_or_else(|| bad(format!("`{c}` is not an address")))?,
                    )
                } else if !c.is_empty() && !c.contains(char::is_whitespace) && !c.contains('=') {
                    Candidate::Function(c.to_string())
                } else {
                    return Err(bad(format!(
                        "`{entry}` has an empty or malformed candidate"
                    )));
                };
                if !candidates.contains(&candidate) {
                    candidates.push(candidate);
                }
            }
            if out.per_address.insert(address, candidates).is_some() {
                return Err(bad(format!("{address:#06x} is given twice")));
            }
        }
        Ok(out)
    }

    pub fn is_empty(&self) -> bool {
        self.per_address.is_empty()
    }
}

/// Whether the candidates of the indirect instruction `ins` make it a call whose block pays
/// for them: a `CALL`, or a `BRX` whose candidates are not addresses.
fn is_costed_call(ins: &isa::Instruction, candidates: &[Candidate]) -> bool {
    ins.opcode.name == "CALL"
        || !candidates
            .iter()
            .all(|c| matches!(c, Candidate::Address(_)))
}

/// Applies the annotation to `kernel` before its block graph is built: a `CALL` with targets
/// becomes an opaque call that returns (`ControlKind::Call(None)`, paid for by
/// [`extra_costs`]), a `BRX`/`JMX` to addresses gets them as `indirect_targets`, a `BRX` to
/// functions or costs after `PRET` returns to the `PRET` point (`ControlKind::Ret`, the
/// callees' `RET`). Candidates are checked against the listing (`functions`: its function
/// names). `warn_unused`: warn about keys that name no indirect instruction of `kernel`.
pub(super) fn annotate(
    kernel: &mut Kernel,
    targets: &IndirectTargets,
    functions: &[String],
    warn_unused: bool,
    diags: &mut Vec<Diagnostic>,
) {
    for (&address, candidates) in &targets.per_address {
        let Some(i) = kernel.index_of(address) else {
            if warn_unused {
                diags.push(Diagnostic::global(
                    Severity::Warning,
                    format!(
                        "indirect_targets: no instruction at {address:#06x} in `{}`: ignored",
                        kernel.function
                    ),
                ));
            }
            continue;
        };
        let ins = &kernel.instructions[i];
        if ins.control != ControlKind::Indirect {
            if warn_unused {
                diags.push(Diagnostic::warning(
                    ins.span,
                    format!(
                        "indirect_targets: `{}` at {address:#06x} is not an indirect call or \
                         branch: ignored",
                        ins.text
                    ),
                ));
            }
            continue;
        }
        let span = ins.opcode.span;
        let mut ok = true;
        for c in candidates {
            let problem = match c {
                Candidate::Address(a) if kernel.index_of(*a).is_none() => Some(format!(
                    "candidate {a:#06x} is not the address of an instruction of `{}`",
                    kernel.function
                )),
                Candidate::Function(n) if !functions.contains(n) => Some(format!(
                    "candidate `{n}` is not a function of this listing (it has: {})",
                    functions.join(", ")
                )),
                _ => None,
            };
            if let Some(why) = problem {
                diags.push(Diagnostic::error(
                    span,
                    format!("indirect_targets for {address:#06x}: {why}"),
                ));
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        let addresses: Vec<u64> = candidates
            .iter()
            .filter_map(|c| match c {
                Candidate::Address(a) => Some(*a),
                _ => None,
            })
            .collect();
        let after_pret =
            i > 0 && matches!(kernel.instructions[i - 1].control, ControlKind::Pret(_));
        let ins = &mut kernel.instructions[i];
        if ins.opcode.name == "CALL" {
            ins.control = ControlKind::Call(None);
        } else if !is_costed_call(ins, candidates) {
            ins.indirect_targets = addresses;
        } else if addresses.is_empty() && after_pret {
            ins.control = ControlKind::Ret;
        } else {
            diags.push(Diagnostic::error(
                span,
                format!(
                    "indirect_targets for {address:#06x}: a `{}` goes either to addresses of \
                     this function (a jump table, or subroutines after `PRET`) or, right after \
                     `PRET`, to functions and costs (an indirect call) — not to both, and not \
                     to functions or costs without `PRET`",
                    ins.opcode.name
                ),
            ));
        }
    }
}

/// A located error for every reachable indirect instruction of `kernel` whose targets are
/// unknown, saying how to give them.
pub(super) fn missing_targets(
    kernel: &Kernel,
    graph: &BlockGraph,
    functions: &[String],
) -> Vec<Diagnostic> {
    kernel
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, ins)| ins.control == ControlKind::Indirect && ins.indirect_targets.is_empty())
        .filter(|(i, _)| {
            graph
                .block_of(*i)
                .is_some_and(|b| graph.blocks[b].reachable)
        })
        .map(|(_, ins)| {
            let what = if ins.opcode.name == "CALL" {
                "an indirect call (a function pointer or virtual call: the callee address is in \
                 a register)"
            } else {
                "an indirect branch (a `switch` jump table, or after `PRET` a call through a \
                 function pointer: the target is in a register)"
            };
            let names = if functions.is_empty() {
                String::new()
            } else {
                format!("; functions of this listing: {}", functions.join(", "))
            };
            Diagnostic::error(
                ins.opcode.span,
                format!(
                    "`{}` at {a:#06x} is {what}, so the listing does not say where control \
                     goes. Give the possible targets: --set \
                     indirect_targets={a:#06x}=NAME|0xADDRESS|cost:N (a function of the \
                     listing, an instruction address, or an opaque callee of at most N \
                     cycles; entries for several instructions separated by `;`){names}",
                    ins.text.trim(),
                    a = ins.address
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_three_kinds_of_candidate() {
        let t =
            IndirectTargets::decode(" 0x03b0=fnA|fnB ; 0x0420=0x0c40|cost:200;").expect("valid");
        assert_eq!(
            t.per_address,
            BTreeMap::from([
                (
                    0x3b0,
                    vec![
                        Candidate::Function("fnA".into()),
                        Candidate::Function("fnB".into())
                    ]
                ),
                (0x420, vec![Candidate::Address(0xc40), Candidate::Cost(200)]),
            ])
        );
        assert!(IndirectTargets::decode("")
            .expect("empty is valid")
            .is_empty());
        for bad in [
            "0x10",
            "x=fn",
            "0x10=",
            "0x10=cost:x",
            "0x10=0xzz",
            "0x10=a;0x10=b",
        ] {
            let e = IndirectTargets::decode(bad).expect_err("malformed");
            assert!(
                e.message.starts_with("indirect_targets: "),
                "{bad}: {}",
                e.message
            );
        }
    }
}
