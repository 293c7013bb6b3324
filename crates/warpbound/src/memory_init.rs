//! The request's `memory`: global memory for the simulator as named arrays with their fill,
//! the facade's own copy of `sim::MemoryInit` (converted to it where a run starts), so the
//! JSON a permalink holds does not depend on the simulator's types.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Global memory for the simulator (`simulate` mode, or `simulate=true`): named arrays with
/// their fill, and optionally every other address too (`sim::MemoryInit`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct MemoryInit {
    pub arrays: Vec<ArrayInit>,
    /// Memory beyond the arrays; absent: an access outside every array is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub open: Option<OpenMemory>,
}

/// One named array of global memory (`sim::ArrayInit`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ArrayInit {
    pub name: String,
    /// Byte address of the first word (a multiple of 4).
    pub address: u64,
    /// Length in 32-bit words.
    pub words: u32,
    pub fill: MemoryFill,
}

/// How an array's 32-bit words are initialised (`sim::Fill`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MemoryFill {
    /// Explicit words; the array is zero-padded (or the list cut) to its length.
    Words { values: Vec<u32> },
    /// Explicit single-precision floats (stored as their IEEE-754 bits).
    Floats { values: Vec<f32> },
    /// Every word the same.
    Constant { value: u32 },
    /// `start, start + step, start + 2·step, ...` (wrapping).
    Iota { start: u32, step: u32 },
    /// SplitMix64 from `seed`; each word is the high half of a draw, reduced modulo `below`
    /// when `below > 0`.
    Random { seed: u64, below: u32 },
    /// Each word derived from its own address, as open memory reads an unwritten word.
    Hashed { seed: u64, below: u32 },
}

/// Every address outside the arrays is memory too: a word nobody wrote reads a value derived
/// from its address and `seed`, modulo `below` when `below > 0` (`sim::memory::OpenMemory`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpenMemory {
    pub seed: u64,
    pub below: u32,
}

impl From<&MemoryInit> for sim::MemoryInit {
    fn from(m: &MemoryInit) -> Self {
        sim::MemoryInit {
            arrays: m.arrays.iter().map(sim::ArrayInit::from).collect(),
            open: m.open.map(|o| sim::memory::OpenMemory {
                seed: o.seed,
                below: o.below,
            }),
        }
    }
}

impl From<&ArrayInit> for sim::ArrayInit {
    fn from(a: &ArrayInit) -> Self {
        sim::ArrayInit {
            name: a.name.clone(),
            address: a.address,
            words: a.words,
            fill: match &a.fill {
                MemoryFill::Words { values } => sim::Fill::Words {
                    values: values.clone(),
                },
                MemoryFill::Floats { values } => sim::Fill::Floats {
                    values: values.clone(),
                },
                &MemoryFill::Constant { value } => sim::Fill::Constant { value },
                &MemoryFill::Iota { start, step } => sim::Fill::Iota { start, step },
                &MemoryFill::Random { seed, below } => sim::Fill::Random { seed, below },
                &MemoryFill::Hashed { seed, below } => sim::Fill::Hashed { seed, below },
            },
        }
    }
}

impl From<&sim::MemoryInit> for MemoryInit {
    fn from(m: &sim::MemoryInit) -> Self {
        MemoryInit {
            arrays: m.arrays.iter().map(ArrayInit::from).collect(),
            open: m.open.map(|o| OpenMemory {
                seed: o.seed,
                below: o.below,
            }),
        }
    }
}

impl From<&sim::ArrayInit> for ArrayInit {
    fn from(a: &sim::ArrayInit) -> Self {
        ArrayInit {
            name: a.name.clone(),
            address: a.address,
            words: a.words,
            fill: match &a.fill {
                sim::Fill::Words { values } => MemoryFill::Words {
                    values: values.clone(),
                },
                sim::Fill::Floats { values } => MemoryFill::Floats {
                    values: values.clone(),
                },
                &sim::Fill::Constant { value } => MemoryFill::Constant { value },
                &sim::Fill::Iota { start, step } => MemoryFill::Iota { start, step },
                &sim::Fill::Random { seed, below } => MemoryFill::Random { seed, below },
                &sim::Fill::Hashed { seed, below } => MemoryFill::Hashed { seed, below },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_memory_reads_as_before_and_round_trips_through_sim() {
        let json = r#"{"arrays":[
            {"name":"a","address":4096,"words":4,"fill":{"kind":"words","values":[1,2]}},
            {"name":"b","address":8192,"words":2,"fill":{"kind":"floats","values":[1.5,-0.25]}},
            {"name":"c","address":12288,"words":2,"fill":{"kind":"constant","value":7}},
            {"name":"d","address":16384,"words":3,"fill":{"kind":"iota","start":1,"step":2}},
            {"name":"e","address":20480,"words":3,"fill":{"kind":"random","seed":9,"below":10}},
            {"name":"f","address":24576,"words":3,"fill":{"kind":"hashed","seed":9,"below":0}}
        ],"open":{"seed":3,"below":100}}"#;
        let wire: MemoryInit = serde_json::from_str(json).expect("json");
        let sim = sim::MemoryInit::from(&wire);
        assert_eq!(sim.arrays.len(), 6);
        assert_eq!(
            sim.open,
            Some(sim::memory::OpenMemory {
                seed: 3,
                below: 100
            })
        );
        assert_eq!(
            sim.arrays[1].fill,
            sim::Fill::Floats {
                values: vec![1.5, -0.25]
            }
        );
        assert_eq!(MemoryInit::from(&sim), wire);
        let back: serde_json::Value = serde_json::to_value(&wire).expect("json");
        let given: serde_json::Value = serde_json::from_str(json).expect("json");
        assert_eq!(back, given);
        // Closed memory: `open` is left out.
        let closed = MemoryInit::default();
        assert_eq!(
            serde_json::to_string(&closed).expect("json"),
            r#"{"arrays":[]}"#
        );
    }
}
