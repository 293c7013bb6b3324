//! Global memory for an automatic launch (issue #26 item 2, made open by issue #37 item 1):
//! when a request leaves both `params` and `memory` empty, every address is memory.
//!
//! - Each pointer parameter chosen automatically ([`crate::params::kernel_args`],
//!   [`crate::params::sass_args`], [`crate::params::gcn_args`]) gets an array of its own at
//!   its address, and everything else is open memory (`sim::memory::OpenMemory`). Both are
//!   filled the same way: the word at address `a` is `OpenMemory::word(a)` for seed
//!   [`AUTO_SEED`], a number below [`AUTO_BELOW`] = 64 (small and non-negative, so loops whose
//!   trip count comes from the data stay short and divisions by them rarely divide by zero —
//!   a zero divisor is still possible and, as on the GPU, not an error). Stores create words.
//! - So an array's extent never changes a value: after the run each array is widened to
//!   cover the accesses its pointer's window saw — from [`ROOM_BEFORE`] below the pointer
//!   (halo reads, `p[i - 1]`) to the next pointer's window — without running again, and the
//!   report's `memory` text (the arrays, then `* hash SEED BELOW` for the rest) reproduces
//!   the run exactly.
//! - Accesses outside every window (pointers or indices loaded from memory, addresses
//!   computed from data) are listed per instruction in the report (`arguments.outside`) and a
//!   note, so the user can see where real data would be needed.
//!
//! The run is an execution of the kernel on *some* input — the one these words make up — so
//! every bound must hold for it. Memory budgets stay (`max_memory_words` counts the words
//! stores create outside the arrays).

use crate::params::kernel_args::{self, POINTER_STRIDE};
use crate::report::{ArgumentKind, ArgumentSource, KernelArguments, OutsideAccess};
use isa::Diagnostic;

/// Words of an array before the run widens it: 4 KiB.
pub const AUTO_WORDS: u32 = 1024;
/// The words are below this.
pub const AUTO_BELOW: u32 = 64;
/// The seed of every automatic word (arrays and open memory alike).
pub const AUTO_SEED: u64 = 1;
/// How far below its pointer an array may reach: 64 KiB.
pub const ROOM_BEFORE: u64 = 0x1_0000;

/// The open memory of an automatic launch.
pub fn open() -> sim::memory::OpenMemory {
    sim::memory::OpenMemory {
        seed: AUTO_SEED,
        below: AUTO_BELOW,
    }
}

/// One array per pointer (`(name, address)` in order), and open memory around them.
pub fn buffers(pointers: &[(String, u64)]) -> sim::MemoryInit {
    sim::MemoryInit {
        arrays: pointers
            .iter()
            .map(|(name, address)| sim::ArrayInit {
                name: name.clone(),
                address: *address,
                words: AUTO_WORDS,
                fill: sim::Fill::Hashed {
                    seed: AUTO_SEED,
                    below: AUTO_BELOW,
                },
            })
            .collect(),
        open: Some(open()),
    }
}

/// The `memory` text of `memory` (the form the request's `memory` parameter reads).
pub fn text(memory: &sim::MemoryInit) -> String {
    let mut items: Vec<String> = memory
        .arrays
        .iter()
        .map(|a| {
            let fill = match &a.fill {
                sim::Fill::Random { seed, below } => format!("random {seed} {below}"),
                sim::Fill::Hashed { seed, below } => format!("hash {seed} {below}"),
                sim::Fill::Constant { value } => format!("const {value}"),
                sim::Fill::Iota { start, step } => format!("iota {start} {step}"),
                sim::Fill::Words { values } => words_text("words", values),
                sim::Fill::Floats { values } => {
                    let v: Vec<String> = values.iter().map(f32::to_string).collect();
                    format!("floats {}", v.join(" "))
                }
            };
            format!("{}@{:#x} {} {fill}", a.name, a.address, a.words)
        })
        .collect();
    if let Some(o) = memory.open {
        items.push(format!("* hash {} {}", o.seed, o.below));
    }
    items.join("; ")
}

fn words_text(head: &str, values: &[u32]) -> String {
    let v: Vec<String> = values.iter().map(u32::to_string).collect();
    format!("{head} {}", v.join(" "))
}

/// The window of addresses array `a` (at its pointer) may grow into.
fn window(pointer: u64) -> (u64, u64) {
    let lo = pointer.saturating_sub(ROOM_BEFORE);
    (lo, lo.saturating_add(POINTER_STRIDE))
}

/// Widens the arrays of `memory` (whose k-th array starts at `pointers[k]`) to cover the
/// accesses of `log` inside their windows; returns the accesses that fell in no window.
fn fit(
    memory: &mut sim::MemoryInit,
    pointers: &[u64],
    log: &sim::memory::OutsideLog,
) -> Vec<OutsideAccess> {
    let mut outside = Vec::new();
    for s in &log.sites {
        let home = memory.arrays.iter_mut().zip(pointers).find(|(_, &p)| {
            let (lo, hi) = window(p);
            lo <= s.lowest && s.end <= hi
        });
        match home {
            Some((a, _)) => {
                let start = a.address.min(s.lowest & !0xff);
                let end = (a.address + 4 * u64::from(a.words)).max(s.end.next_multiple_of(4));
                a.address = start;
                a.words = u32::try_from((end - start) / 4).unwrap_or(u32::MAX);
            }
            None => outside.push(OutsideAccess::from(s)),
        }
    }
    outside
}

/// Gives the run's final arrays the extents `fitted` has (each covers its array as it ran):
/// a word the run's array held keeps its value, a word stored outside it takes the stored
/// value, any other word is the hashed one the run would have read.
fn widen_final(fitted: &sim::MemoryInit, sim: &mut sim::Simulation) {
    let open = open();
    let written = &sim.outside.written;
    for (array, f) in sim.memory.iter_mut().zip(&fitted.arrays) {
        let ran = (array.address, std::mem::take(&mut array.words));
        array.address = f.address;
        array.words = (0..u64::from(f.words))
            .map(|k| {
                let a = f.address + 4 * k;
                if a >= ran.0 && a < ran.0 + 4 * ran.1.len() as u64 {
                    return ran.1[((a - ran.0) / 4) as usize];
                }
                match written.binary_search_by_key(&a, |&(w, _)| w) {
                    Ok(i) => written[i].1,
                    Err(_) => open.word(a),
                }
            })
            .collect();
    }
}

/// Runs `run` on the request's `memory`, or — when that is empty — on the automatic memory
/// (module doc: an array for each pointer of `arguments` chosen automatically, open memory
/// elsewhere): the arrays' final `memory` text goes to `arguments.memory`, the accesses
/// outside them to `arguments.outside`. The one entry point of every mode that simulates.
pub fn run_on(
    memory: &sim::MemoryInit,
    arguments: Option<&mut KernelArguments>,
    mut run: impl FnMut(&sim::MemoryInit) -> Result<sim::Simulation, Vec<Diagnostic>>,
) -> Result<sim::Simulation, Vec<Diagnostic>> {
    if !memory.arrays.is_empty() || memory.open.is_some() {
        return run(memory);
    }
    let named: Vec<(String, u64)> = arguments
        .as_deref()
        .map(|args| {
            args.values
                .iter()
                .filter(|a| a.kind == ArgumentKind::Pointer && a.source == ArgumentSource::Auto)
                .filter_map(|a| Some((kernel_args::short(&a.name).to_string(), a.value.as_u64()?)))
                .collect()
        })
        .unwrap_or_default();
    let mut auto = buffers(&named);
    let mut result = run(&auto);
    let pointers: Vec<u64> = named.iter().map(|(_, p)| *p).collect();
    let outside = match &mut result {
        Ok(sim) => {
            let outside = fit(&mut auto, &pointers, &sim.outside);
            widen_final(&auto, sim);
            outside
        }
        Err(_) => Vec::new(),
    };
    if let Some(args) = arguments {
        args.outside = outside;
        args.memory = text(&auto);
    }
    result
}

/// The notes' sentence on the automatic memory of `args` (its `memory` text and the
/// accesses outside its arrays).
pub fn memory_sentence(args: &KernelArguments) -> String {
    format!(
        "; with `memory` empty too, every address is memory: each pointer got an array and \
         every word reads a number below {AUTO_BELOW} derived from its address until written: \
         memory = `{}`{}",
        args.memory,
        outside_sentence(args)
    )
}

/// The sentence on the accesses outside the automatic arrays (empty when none).
fn outside_sentence(args: &KernelArguments) -> String {
    if args.outside.is_empty() {
        return String::new();
    }
    let listed: u64 = args.outside.iter().map(|o| o.count).sum();
    let shown: Vec<String> = args
        .outside
        .iter()
        .take(4)
        .map(|o| {
            format!(
                "line {} ({:#06x}): {} {}-byte {} at {:#x}…{:#x}{}",
                o.line,
                o.instruction_address,
                o.count,
                o.bytes,
                if o.write { "accesses" } else { "reads" },
                o.lowest,
                o.end,
                if o.misaligned {
                    ", some misaligned"
                } else {
                    ""
                }
            )
        })
        .collect();
    format!(
        "; {listed} accesses fell outside every pointer's array (addresses loaded or computed \
         from data): {}{} — they read seeded words there; give `memory` (and `params`) to run \
         on real data",
        shown.join("; "),
        if args.outside.len() > 4 {
            format!("; and {} more instructions", args.outside.len() - 4)
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(lowest: u64, end: u64) -> sim::memory::OutsideAccess {
        sim::memory::OutsideAccess {
            line: 7,
            instruction_address: 0x50,
            first_address: lowest,
            lowest,
            end,
            bytes: 4,
            write: false,
            misaligned: false,
            count: 3,
        }
    }

    /// An array widens downwards into its 64 KiB of room (to a 256-byte boundary) and
    /// upwards to the end of the accesses; an access in no window stays outside.
    #[test]
    fn arrays_widen_to_cover_their_windows() {
        let pointers = [0x10_0000, 0x20_0000];
        let mut m = buffers(&[("a".into(), pointers[0]), ("b".into(), pointers[1])]);
        let log = sim::memory::OutsideLog {
            sites: vec![
                site(0x10_0000 - 4, 0x10_0000),
                site(0x20_0000 + 0x9000, 0x20_0000 + 0x9004),
                site(0x40, 0x44),
            ],
            total: 9,
            created_words: 0,
            written: Vec::new(),
        };
        let outside = fit(&mut m, &pointers, &log);
        assert_eq!(m.arrays[0].address, 0x10_0000 - 0x100);
        assert_eq!(m.arrays[0].words, 1024 + 0x40);
        assert_eq!(m.arrays[1].address, 0x20_0000);
        assert_eq!(m.arrays[1].words, 0x9004 / 4);
        assert_eq!(outside.len(), 1);
        assert_eq!((outside[0].lowest, outside[0].count), (0x40, 3));
        assert_eq!(
            text(&m),
            "a@0xfff00 1088 hash 1 64; b@0x200000 9217 hash 1 64; * hash 1 64"
        );
    }

    /// The arrays and open memory read the same word at the same address, so widening an
    /// array after the run changes no value the run read.
    #[test]
    fn arrays_and_open_memory_agree() {
        let m = buffers(&[("a".into(), 0x10_0000)]);
        let mut g = sim::memory::GlobalMemory::new(&m, 1 << 20).expect("memory");
        let mut w = [0u32; 4];
        for addr in [0x10_0000u64, 0x10_0ffc, 0x10_1000, 0xf_fffc, 0x123_4560] {
            g.read(addr, 4, &mut w).expect("read");
            assert_eq!(w[0], open().word(addr), "{addr:#x}");
            assert!(w[0] < AUTO_BELOW);
        }
    }
}
