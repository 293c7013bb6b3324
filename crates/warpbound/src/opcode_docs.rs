//! Opcode documentation: for every opcode a front end knows, one line saying what it does and
//! the latency class the analyses charge it with — what the page shows when an opcode is
//! hovered in the editor, the instruction table or a graph node, and what
//! `warpbound opcodes` prints.
//!
//! The lines are the front ends' own tables, written for this project: SASS
//! `isa::sass::isa_table`, PTX `isa::ptx::isa_table`, GCN3 `isa::gcn::isa_table`, Sim-D
//! `isa::simd::opcode_docs`, L/C `isa::lc::LcOp::description`. The classes are *not* a
//! second hand-written copy: each is computed here by the function the analysis classifies
//! an instruction with, applied to the base opcode written without modifiers:
//!
//! - SASS: `isa::sass::resource_class_of` then `cfg::TimingClass::of_opcode` (the
//!   `warp-cfg` latency cost model and the simulator);
//! - PTX: the simulator's class (`sim::timing_classes::ptx`), and `rr`'s pipeline class
//!   (`roundrobin::code_segments::class_of`) as `also`; `warp-cfg` charges every PTX
//!   instruction one cycle;
//! - GCN3: the unit (`isa::gcn::unit`, the `pws` block costs' classes), the simulator's class
//!   (`sim::timing_classes::gcn`) as `also`;
//! - Sim-D: what the `phases` pipeline model reads of an op (DRAM or scratchpad access,
//!   RCP units, the divider, vector or scalar issue);
//! - L/C: the unit of the makespan model, the simulator's class as `also`.
//!
//! Where a class depends on modifiers, the base opcode's class is shown and `depends_on`
//! lists the modifiers that change it and to what — found by asking the same function with
//! each modifier of [`PROBES`], so the note cannot disagree with the analysis either.
//!
//! What this is not: an instruction-level classification (a report's instruction table
//! carries each instruction's class with its modifiers).

use crate::Dialect;
use isa::ptx::isa_table::OpClass;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One opcode's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpcodeDoc {
    /// What the opcode does, in one line.
    pub description: String,
    /// The class the analysis charges the base opcode with.
    pub latency_class: String,
    /// The class another analysis of the dialect uses, named (`rr: arithmetic`,
    /// `simulator: alu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub also: Option<String>,
    /// The modifiers that change the class, and to what.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depends_on: Option<String>,
}

/// How a mnemonic is written before it is looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Case {
    Upper,
    Lower,
    /// As written (L/C: the letters are case-sensitive).
    AsWritten,
}

/// A dialect's table, as the page receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpcodeTable {
    pub dialect: Dialect,
    /// Which analysis the `latency_class` column is (and `also`).
    pub classes: &'static str,
    pub case: Case,
    /// Encoding suffixes a mnemonic may carry after its base name (GCN3 `_e32`).
    pub suffixes: &'static [&'static str],
    /// Base opcode (dotted for PTX's multi-word ones) → its entry.
    pub opcodes: BTreeMap<String, OpcodeDoc>,
}

/// The modifiers asked about for `depends_on`: PTX state spaces and the double-precision
/// type, SASS `.ALL` (`WARPSYNC.ALL`).
pub const PROBES: &[&str] = &["global", "shared", "local", "const", "param", "f64", "ALL"];

impl OpcodeTable {
    /// The entry of a mnemonic as written in a listing (`ISETP.GE.AND`,
    /// `ld.global.v4.f32`, `v_add_f32_e32`, `itest.ge`): after the table's case, the whole
    /// word, then without its last dotted parts one by one (the longest dotted prefix that is
    /// an opcode), each also without an encoding suffix. The page's lookup
    /// (`www/src/opcode_docs.js`) follows the same rule on the same table.
    pub fn find(&self, mnemonic: &str) -> Option<(&str, &OpcodeDoc)> {
        let word = match self.case {
            Case::Upper => mnemonic.to_ascii_uppercase(),
            Case::Lower => mnemonic.to_ascii_lowercase(),
            Case::AsWritten => mnemonic.to_string(),
        };
        let mut candidate = word.as_str();
        loop {
            if let Some((k, d)) = self.opcodes.get_key_value(candidate) {
                return Some((k.as_str(), d));
            }
            for s in self.suffixes {
                if let Some(base) = candidate.strip_suffix(s) {
                    if let Some((k, d)) = self.opcodes.get_key_value(base) {
                        return Some((k.as_str(), d));
                    }
                }
            }
            candidate = candidate.rsplit_once('.')?.0;
        }
    }
}

/// The documentation of `mnemonic` (as written, modifiers allowed) in `dialect`; `None`
/// for an unknown opcode or a dialect without opcodes (`pws-csv`).
pub fn opcode_doc(dialect: Dialect, mnemonic: &str) -> Option<OpcodeDoc> {
    opcode_table(dialect)?
        .find(mnemonic)
        .map(|(_, d)| d.clone())
}

/// Every dialect's table (`pws-csv` has none), built once.
pub fn opcode_tables() -> &'static [OpcodeTable] {
    static TABLES: OnceLock<Vec<OpcodeTable>> = OnceLock::new();
    TABLES.get_or_init(|| Dialect::ALL.iter().filter_map(|&d| build(d)).collect())
}

/// The table of `dialect`; `None` for `pws-csv`.
pub fn opcode_table(dialect: Dialect) -> Option<&'static OpcodeTable> {
    opcode_tables().iter().find(|t| t.dialect == dialect)
}

fn build(dialect: Dialect) -> Option<OpcodeTable> {
    Some(match dialect {
        Dialect::Sass => sass(),
        Dialect::Ptx => ptx(),
        Dialect::Gcn => gcn(),
        Dialect::Simd => simd(),
        Dialect::Lc => lc(),
        Dialect::PwsCsv => return None,
    })
}

/// `.m → class` for each probe the opcode `allows` that changes the class `of` gives,
/// joined; `None` when none does.
fn dependence(
    base: &str,
    allows: impl Fn(&str) -> bool,
    of: impl Fn(&[&str]) -> String,
) -> Option<String> {
    let changes: Vec<String> = PROBES
        .iter()
        .filter(|m| allows(m))
        .filter_map(|m| {
            let c = of(&[m]);
            (c != base).then(|| format!(".{m} → {c}"))
        })
        .collect();
    (!changes.is_empty()).then(|| changes.join(", "))
}

fn sass() -> OpcodeTable {
    let class = |name: &str, modifiers: &[&str]| {
        cfg::TimingClass::of_opcode(isa::sass::resource_class_of(name, modifiers), name)
            .name()
            .to_string()
    };
    let opcodes = isa::sass::isa_table::OPCODES
        .iter()
        .map(|o| {
            let base = class(o.name, &[]);
            let allowed = |m: &str| {
                isa::sass::isa_table::control_modifiers(o.name).is_none_or(|ms| ms.contains(&m))
            };
            let depends_on = dependence(&base, allowed, |m| class(o.name, m)).map(|d| {
                if o.name == "WARPSYNC" {
                    format!("{d} (so does the mask 0xffffffff: a full-warp sync)")
                } else {
                    d
                }
            });
            let doc = OpcodeDoc {
                description: format!("{} ({})", o.description, o.families.describe()),
                latency_class: base,
                also: None,
                depends_on,
            };
            (o.name.to_string(), doc)
        })
        .collect();
    OpcodeTable {
        dialect: Dialect::Sass,
        classes: "timing class of the warp-cfg latency cost model and the simulator",
        case: Case::Upper,
        suffixes: &[],
        opcodes,
    }
}

/// A PTX instruction of `opcode` (first word) and `modifiers`, without operands: what the
/// classification functions read.
fn ptx_instruction(opcode: &str, modifiers: &[&str]) -> isa::ptx::Instruction {
    isa::ptx::Instruction {
        guard: None,
        opcode: opcode.to_string(),
        modifiers: modifiers.iter().map(|m| m.to_string()).collect(),
        operands: Vec::new(),
        span: isa::Span::default(),
        opcode_span: isa::Span::default(),
        call: None,
    }
}

fn ptx() -> OpcodeTable {
    let sim_class = |ins: &isa::ptx::Instruction| sim::timing_classes::ptx(ins).name().to_string();
    let rr_class = |ins: &isa::ptx::Instruction| {
        crate::views::rr_parts::class_name(roundrobin::code_segments::class_of(ins))
            .replace('_', " ")
    };
    let opcodes = isa::ptx::isa_table::OPCODES
        .iter()
        .map(|o| {
            let mut words = o.name.split('.');
            let first = words.next().unwrap_or(o.name);
            let rest: Vec<&str> = words.collect();
            let with = |extra: &[&str]| {
                let mut m = rest.clone();
                m.extend_from_slice(extra);
                ptx_instruction(first, &m)
            };
            let base = sim_class(&with(&[]));
            let rr = rr_class(&with(&[]));
            // `.f64` is asked about for arithmetic only: the simulator would charge any
            // instruction carrying it as double precision, but on a copy, a barrier or a
            // tensor instruction the modifier names no FP64 arithmetic.
            let arithmetic = matches!(o.class, OpClass::Alu | OpClass::Sfu);
            let allowed = |m: &str| o.allows(m) && (m != "f64" || arithmetic);
            let sim_dep = dependence(&base, allowed, |m| sim_class(&with(m)));
            let rr_dep =
                dependence(&rr, allowed, |m| rr_class(&with(m))).map(|d| format!("in rr {d}"));
            let depends_on = match (sim_dep, rr_dep) {
                (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                (a, b) => a.or(b),
            };
            let doc = OpcodeDoc {
                description: o.summary.to_string(),
                latency_class: base,
                also: Some(format!("rr: {rr}")),
                depends_on,
            };
            (o.name.to_string(), doc)
        })
        .collect();
    OpcodeTable {
        dialect: Dialect::Ptx,
        classes: "timing class of the simulator (also: the rr pipeline class; warp-cfg charges \
                  every PTX instruction one cycle)",
        case: Case::Lower,
        suffixes: &[],
        opcodes,
    }
}

fn gcn() -> OpcodeTable {
    let opcodes = isa::gcn::isa_table::entries()
        .iter()
        .map(|e| {
            let unit = isa::gcn::unit(&e.name);
            let doc = OpcodeDoc {
                description: isa::gcn::describe(&e.name).unwrap_or_else(|| e.description.clone()),
                latency_class: unit.name().to_string(),
                also: Some(format!(
                    "simulator: {}",
                    sim::timing_classes::gcn(unit).name()
                )),
                depends_on: None,
            };
            (e.name.clone(), doc)
        })
        .collect();
    OpcodeTable {
        dialect: Dialect::Gcn,
        classes: "execution unit of the pws block costs (also: the simulator's timing class)",
        case: Case::Lower,
        suffixes: &["_e32", "_e64", "_sdwa", "_dpp"],
        opcodes,
    }
}

/// What the Sim-D pipeline model (`phases::pipeline`, `phases::access`) charges `op` as.
fn simd_class(op: isa::simd::Op) -> String {
    use isa::simd::Category;
    if op.is_dram_access() {
        return "dram access phase".into();
    }
    if op.is_scratchpad_access() {
        return "scratchpad access phase".into();
    }
    let issue = if op.spec().vector { "vector" } else { "scalar" };
    let unit = if op.category() == Category::Rcp {
        "rcp units"
    } else if op.is_divide() {
        "divider"
    } else {
        "sp pipeline"
    };
    format!("{unit}, {issue}")
}

fn simd() -> OpcodeTable {
    let opcodes = isa::simd::Op::ALL
        .iter()
        .map(|&op| {
            let doc = OpcodeDoc {
                description: isa::simd::opcode_docs::description(op).to_string(),
                latency_class: simd_class(op),
                also: None,
                depends_on: None,
            };
            (op.name().to_string(), doc)
        })
        .collect();
    OpcodeTable {
        dialect: Dialect::Simd,
        classes: "what the Sim-D phase model charges (access phase, RCP units, divider; vector \
                  instructions issue once per sub-vector)",
        case: Case::Lower,
        suffixes: &[],
        opcodes,
    }
}

fn lc() -> OpcodeTable {
    let opcodes = [isa::lc::LcOp::L, isa::lc::LcOp::C]
        .into_iter()
        .map(|op| {
            let doc = OpcodeDoc {
                description: op.description().to_string(),
                latency_class: op.unit_name().to_string(),
                also: Some(format!("simulator: {}", sim::timing_classes::lc(op).name())),
                depends_on: None,
            };
            (op.letter().to_string(), doc)
        })
        .collect();
    OpcodeTable {
        dialect: Dialect::Lc,
        classes: "unit of the makespan model (also: the simulator's timing class)",
        case: Case::AsWritten,
        suffixes: &[],
        opcodes,
    }
}
