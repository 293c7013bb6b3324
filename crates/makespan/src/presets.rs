//! The named machines of the makespan analysis, each with the source of its numbers: the one
//! place a Fermi streaming multiprocessor of compute capability 2.0 or 2.1 is defined.
//! The facade's catalog and `preset=` parameter, and any simulator preset that models the
//! same SM, read them from here rather than writing the numbers again.

use crate::model::Machine;

/// A named [`Machine`] and where its numbers come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachinePreset {
    /// The name a request selects it by (`fermi-cc2.0`).
    pub name: &'static str,
    /// Where the numbers come from, for a catalog to show.
    pub source: &'static str,
    /// The machine.
    pub machine: Machine,
}

/// Every preset: `fermi-cc2.0` ([`Machine::fermi_cc20`]) and `fermi-cc2.1`
/// ([`Machine::fermi_cc21`]).
pub fn presets() -> Vec<MachinePreset> {
    vec![
        MachinePreset {
            name: "fermi-cc2.0",
            source: "Fermi compute capability 2.0: 32 CUDA cores and 16 load/store units per SM, \
                     warps of 32 threads (NVIDIA CUDA C Programming Guide, compute capability \
                     2.x; Berezovskyi et al. §3)",
            machine: Machine::fermi_cc20(),
        },
        MachinePreset {
            name: "fermi-cc2.1",
            source: "Fermi compute capability 2.1: 48 CUDA cores and 16 load/store units per SM, \
                     warps of 32 threads (NVIDIA CUDA C Programming Guide, compute capability \
                     2.x; Berezovskyi et al. §3)",
            machine: Machine::fermi_cc21(),
        },
    ]
}

/// The machine of the preset called `name`, if there is one.
pub fn preset(name: &str) -> Option<Machine> {
    presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.machine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fermi_presets_by_name() {
        assert_eq!(preset("fermi-cc2.0"), Some(Machine::fermi_cc20()));
        let m = preset("fermi-cc2.1").expect("known preset");
        assert_eq!((m.ls_units, m.cores, m.warp_size), (16, 48, 32));
        assert_eq!(preset("kepler"), None);
    }
}
