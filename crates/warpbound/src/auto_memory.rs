//! Global memory for an automatic launch (issue #26 item 2): when a request leaves both
//! `params` and `memory` empty, every pointer parameter chosen automatically
//! ([`crate::params::kernel_args`], [`crate::params::sass_args`]) gets a buffer of its own at
//! its address, filled with small seeded numbers, and the buffers grow on demand: a run that
//! stops at an access outside every array, inside the 1 MiB a pointer owns
//! ([`kernel_args::POINTER_STRIDE`]), is run again with that buffer doubled (or just large
//! enough). The report gives the sizes the run needed as a `memory` text the user can edit.
//!
//! The fill: the k-th buffer (from 0) holds SplitMix64 draws from seed k + 1 reduced below
//! [`AUTO_BELOW`] = 64 — small non-negative numbers, so loops whose trip count comes from the
//! data stay short and divisions by them rarely divide by zero (a zero divisor is still
//! possible and, as on the GPU, not an error). Growing keeps every word already there (a
//! longer draw from the same seed starts with the same words).

use crate::params::kernel_args::{self, POINTER_STRIDE};
use crate::report::{ArgumentKind, ArgumentSource, KernelArguments};
use isa::Diagnostic;

/// Words of a buffer before it grows: 4 KiB.
pub const AUTO_WORDS: u32 = 1024;
/// The buffers' words are below this.
pub const AUTO_BELOW: u32 = 64;
/// Most reruns a run may make to grow its buffers.
pub const MAX_RERUNS: usize = 16;

/// One automatic buffer per pointer: `(name, address)` in order.
pub fn buffers(pointers: &[(String, u64)]) -> sim::MemoryInit {
    sim::MemoryInit {
        arrays: pointers
            .iter()
            .enumerate()
            .map(|(k, (name, address))| sim::ArrayInit {
                name: name.clone(),
                address: *address,
                words: AUTO_WORDS,
                fill: sim::Fill::Random {
                    seed: k as u64 + 1,
                    below: AUTO_BELOW,
                },
            })
            .collect(),
    }
}

/// The `memory` text of `memory` (the form the request's `memory` parameter reads).
pub fn text(memory: &sim::MemoryInit) -> String {
    memory
        .arrays
        .iter()
        .map(|a| match a.fill {
            sim::Fill::Random { seed, below } => format!(
                "{}@{:#x} {} random {seed} {below}",
                a.name, a.address, a.words
            ),
            _ => format!("{}@{:#x} {} const 0", a.name, a.address, a.words),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Grows the buffer of `memory` whose 1 MiB holds the faulting access of `errors`, if any;
/// whether it did.
fn grow(memory: &mut sim::MemoryInit, errors: &[Diagnostic]) -> bool {
    let Some(addr) = errors
        .iter()
        .find_map(|d| sim::memory::outside_address(&d.message))
    else {
        return false;
    };
    let Some(a) = memory
        .arrays
        .iter_mut()
        .find(|a| a.address <= addr && addr < a.address.saturating_add(POINTER_STRIDE))
    else {
        return false;
    };
    let most = (POINTER_STRIDE / 4) as u32;
    // Up to 16 bytes from `addr` (the widest access).
    let needed = ((addr - a.address) / 4 + 4).min(u64::from(most)) as u32;
    let grown = needed
        .next_power_of_two()
        .max(a.words.saturating_mul(2))
        .min(most);
    if grown <= a.words {
        return false;
    }
    a.words = grown;
    true
}

/// Runs `run` on `memory`, growing its buffers as the accesses need (module doc); returns the
/// result and the memory it ran on last.
pub fn run_growing<T>(
    mut memory: sim::MemoryInit,
    mut run: impl FnMut(&sim::MemoryInit) -> Result<T, Vec<Diagnostic>>,
) -> (Result<T, Vec<Diagnostic>>, sim::MemoryInit) {
    let mut result = run(&memory);
    for _ in 0..MAX_RERUNS {
        match &result {
            Err(errors) if grow(&mut memory, errors) => result = run(&memory),
            _ => break,
        }
    }
    (result, memory)
}

/// Runs `run` on the request's `memory`, or — when that is empty and `arguments` holds
/// pointers chosen automatically — on a buffer per pointer, grown as the run needs
/// ([`run_growing`]); the buffers' final `memory` text goes to `arguments.memory`. The one
/// entry point of every mode that simulates with automatic arguments.
pub fn run_on<T>(
    memory: &sim::MemoryInit,
    arguments: Option<&mut KernelArguments>,
    mut run: impl FnMut(&sim::MemoryInit) -> Result<T, Vec<Diagnostic>>,
) -> Result<T, Vec<Diagnostic>> {
    let Some(args) = arguments.filter(|_| memory.arrays.is_empty()) else {
        return run(memory);
    };
    let named: Vec<(String, u64)> = args
        .values
        .iter()
        .filter(|a| a.kind == ArgumentKind::Pointer && a.source == ArgumentSource::Auto)
        .filter_map(|a| Some((kernel_args::short(&a.name).to_string(), a.value.as_u64()?)))
        .collect();
    if named.is_empty() {
        return run(memory);
    }
    let (result, grown) = run_growing(buffers(&named), run);
    args.memory = text(&grown);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(addr: u64) -> Vec<Diagnostic> {
        vec![Diagnostic::global(
            isa::Severity::Error,
            format!("at line 3: 4-byte access at address {addr:#x} is outside every array of the request"),
        )]
    }

    /// A buffer doubles (or jumps to the power of two that covers the access), never past
    /// its 1 MiB, and an access outside every buffer's 1 MiB is not grown.
    #[test]
    fn buffers_grow_to_cover_the_access() {
        let mut m = buffers(&[("a".into(), 0x10_0000), ("b".into(), 0x20_0000)]);
        assert!(grow(&mut m, &fault(0x10_1000)));
        assert_eq!(m.arrays[0].words, 2048);
        assert!(grow(&mut m, &fault(0x20_0000 + 4 * 10_000)));
        assert_eq!(m.arrays[1].words, 16_384);
        assert!(!grow(&mut m, &fault(0x30_0000)));
        assert!(!grow(&mut m, &fault(0x8)));
        for _ in 0..20 {
            grow(&mut m, &fault(0x10_0000 + 0xf_fff0));
        }
        assert_eq!(m.arrays[0].words, 262_144);
        assert_eq!(
            text(&m),
            "a@0x100000 262144 random 1 64; b@0x200000 16384 random 2 64"
        );
    }

    /// `run_growing` reruns until the access fits, at most `MAX_RERUNS` times.
    #[test]
    fn reruns_until_the_access_fits() {
        let m = buffers(&[("a".into(), 0x10_0000)]);
        let mut runs = 0;
        let (r, last) = run_growing(m, |mem| {
            runs += 1;
            if mem.arrays[0].words * 4 < 0x9000 {
                Err(fault(0x10_0000 + 0x8ffc))
            } else {
                Ok(mem.arrays[0].words)
            }
        });
        assert_eq!(r, Ok(16_384));
        assert_eq!(runs, 2);
        assert_eq!(last.arrays[0].words, 16_384);
    }
}
