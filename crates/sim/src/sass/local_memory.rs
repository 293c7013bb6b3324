//! Local memory (`LDL`/`STL`): each thread's private window, the memory nvcc uses for
//! register spills, local arrays and the argument buffers of `printf`. What it is not: a
//! model of where the hardware keeps it (local memory lives in device memory, cached in L1
//! and L2); only the values and the latency class are simulated.
//!
//! **Addresses.** An `LDL`/`STL` address is a 32-bit byte offset in the executing thread's
//! own window; two threads using the same offset reach different bytes. Compiled code forms
//! it from the stack pointer, which constant bank 0 gives (`c[0x0][0x20]` on Maxwell–Pascal,
//! `c[0x0][0x28]` on Volta–Hopper, `c[0x0][0x44]` on Kepler, `c[0x1][0x100]` on Fermi) and
//! which the simulator defines as [`LOCAL_STACK_TOP`]: the prologue lowers it by the frame
//! size (`IADD32I R1, R1, -0x28`, `IADD3 R1, R1, -0x8, RZ`) and the accesses are
//! `[R1+offset]`. The window is the [`LOCAL_WINDOW_BYTES`] below that top, so every frame
//! nvcc can lay out fits; an access outside it (above the top, or deeper than the window)
//! stops the run with an error naming the address and the window.
//!
//! **Contents.** Every byte of a window reads as zero until the thread writes it, as shared
//! memory does ([`crate::memory::SharedMemory`] is zero-initialised). Storage is allocated
//! as deep below the top as a thread has written, and the words every warp holds count
//! against the budget `max_memory_words`.

use crate::launch::LOCAL_STACK_TOP;
use crate::memory::check_alignment;

/// Bytes of each thread's local window: the most local memory a CUDA thread can have
/// ("Maximum amount of local memory per thread: 512 KB", CUDA C++ Programming Guide,
/// "Technical Specifications per Compute Capability", every compute capability from 2.0).
pub const LOCAL_WINDOW_BYTES: u64 = 512 << 10;

/// The lowest byte offset of the window.
const WINDOW_LOW: u64 = LOCAL_STACK_TOP as u64 - LOCAL_WINDOW_BYTES;

/// One warp's local windows.
#[derive(Debug, Default)]
pub(crate) struct LocalMemory {
    /// Per lane, the words from the window's top down: `lanes[l][i]` holds the bytes
    /// `top - 4(i + 1) .. top - 4i` of lane `l` (growing as deeper words are written).
    lanes: Vec<Vec<u32>>,
}

/// The index in a lane's words of the word holding byte `addr` (inside the window).
fn word_index(addr: u64) -> usize {
    ((u64::from(LOCAL_STACK_TOP) - 4 - (addr & !3)) / 4) as usize
}

fn check_window(lane: usize, addr: u64, bytes: u64) -> Result<(), String> {
    check_alignment(addr, bytes)?;
    if addr < WINDOW_LOW || addr + bytes > u64::from(LOCAL_STACK_TOP) {
        return Err(format!(
            "local-memory access at {addr:#x} of thread {lane} of the warp is outside its \
             local window [{WINDOW_LOW:#x}, {:#x}) (the {} KiB below the stack pointer's \
             initial value)",
            LOCAL_STACK_TOP,
            LOCAL_WINDOW_BYTES >> 10
        ));
    }
    Ok(())
}

impl LocalMemory {
    /// Reads `bytes` (1, 2, 4, 8 or 16, naturally aligned) at `addr` of `lane`'s window into
    /// `out` (the low bytes of `out[0]` for sub-word sizes, zero-extended).
    pub(crate) fn read(
        &self,
        lane: usize,
        addr: u64,
        bytes: u64,
        out: &mut [u32],
    ) -> Result<(), String> {
        check_window(lane, addr, bytes)?;
        let words = self.lanes.get(lane).map_or(&[][..], Vec::as_slice);
        let at = |i: usize| words.get(i).copied().unwrap_or(0);
        let i = word_index(addr);
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            out[0] = (at(i) >> shift) & mask;
        } else {
            for (k, o) in out.iter_mut().take((bytes / 4) as usize).enumerate() {
                *o = at(i - k);
            }
        }
        Ok(())
    }

    /// Writes `bytes` at `addr` of `lane`'s window from `values` (see [`LocalMemory::read`]);
    /// `held` counts the words of every warp, which may not exceed `max_words`.
    pub(crate) fn write(
        &mut self,
        lane: usize,
        addr: u64,
        bytes: u64,
        values: &[u32],
        (held, max_words): (&mut u64, u64),
    ) -> Result<(), String> {
        check_window(lane, addr, bytes)?;
        if self.lanes.len() <= lane {
            self.lanes.resize_with(lane + 1, Vec::new);
        }
        let words = &mut self.lanes[lane];
        let i = word_index(addr);
        if words.len() <= i {
            let grow = (i + 1 - words.len()) as u64;
            if *held + grow > max_words {
                return Err(format!(
                    "local memory: the run would hold {} words of local memory, over the \
                     budget max_memory_words = {max_words} (raise max_memory_words)",
                    *held + grow
                ));
            }
            *held += grow;
            words.resize(i + 1, 0);
        }
        if bytes < 4 {
            let shift = (addr % 4) * 8;
            let mask: u32 = if bytes == 1 { 0xff } else { 0xffff };
            words[i] = (words[i] & !(mask << shift)) | ((values[0] & mask) << shift);
        } else {
            for (k, &v) in values.iter().take((bytes / 4) as usize).enumerate() {
                words[i - k] = v;
            }
        }
        Ok(())
    }

    /// The words this warp holds (returned to the budget when it finishes).
    pub(crate) fn held(&self) -> u64 {
        self.lanes.iter().map(|w| w.len() as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOP: u64 = LOCAL_STACK_TOP as u64;

    fn room() -> (u64, u64) {
        (0, 1 << 20)
    }

    #[test]
    fn lanes_are_private_and_unwritten_bytes_read_zero() {
        let mut m = LocalMemory::default();
        let (mut held, max) = room();
        let mut out = [7u32; 4];
        m.read(3, TOP - 8, 4, &mut out).expect("inside");
        assert_eq!(out[0], 0);
        m.write(3, TOP - 8, 4, &[0xdead_beef], (&mut held, max))
            .expect("inside");
        m.read(3, TOP - 8, 4, &mut out).expect("inside");
        assert_eq!(out[0], 0xdead_beef);
        m.read(4, TOP - 8, 4, &mut out).expect("inside");
        assert_eq!(out[0], 0, "lane 4 has its own window");
        assert_eq!(held, 2, "lane 3 holds the words at top-4 and top-8");
    }

    #[test]
    fn widths_are_little_endian_like_global_memory() {
        let mut m = LocalMemory::default();
        let (mut held, max) = room();
        let base = TOP - 0x20;
        m.write(0, base, 16, &[1, 2, 3, 4], (&mut held, max))
            .expect("inside");
        let mut out = [0u32; 4];
        m.read(0, base + 8, 8, &mut out).expect("inside");
        assert_eq!(&out[..2], &[3, 4]);
        m.write(0, base + 5, 1, &[0xab], (&mut held, max))
            .expect("inside");
        m.read(0, base + 4, 4, &mut out).expect("inside");
        assert_eq!(out[0], 0x0000_ab02);
        m.write(0, base + 6, 2, &[0x1234], (&mut held, max))
            .expect("inside");
        m.read(0, base + 4, 4, &mut out).expect("inside");
        assert_eq!(out[0], 0x1234_ab02);
        m.read(0, base + 6, 2, &mut out).expect("inside");
        assert_eq!(out[0], 0x1234);
    }

    #[test]
    fn outside_the_window_or_misaligned_is_an_error() {
        let mut m = LocalMemory::default();
        let (mut held, max) = room();
        let mut out = [0u32; 4];
        let above = m.read(0, TOP, 4, &mut out).expect_err("above the top");
        assert!(above.contains("0xfffc00") && above.contains("local window"));
        assert!(m.read(0, WINDOW_LOW - 4, 4, &mut out).is_err());
        assert!(m.read(0, WINDOW_LOW, 4, &mut out).is_ok());
        assert!(m
            .read(0, TOP - 6, 4, &mut out)
            .is_err_and(|e| e.contains("misaligned")));
        assert!(m.write(0, 0xffff_fff8, 4, &[1], (&mut held, max)).is_err());
    }

    #[test]
    fn the_words_held_are_budgeted() {
        let mut m = LocalMemory::default();
        let mut held = 0;
        m.write(0, TOP - 16, 4, &[1], (&mut held, 4))
            .expect("four words");
        let e = m
            .write(1, TOP - 8, 4, &[1], (&mut held, 4))
            .expect_err("six words");
        assert!(e.contains("max_memory_words = 4"), "{e}");
        assert_eq!(m.held(), 4);
    }
}
