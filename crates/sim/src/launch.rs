//! Launch configuration (issue #7 item 2) and the constant bank 0 it defines.

/// What a kernel launch specifies: grid and block shape, the kernel parameters as 32-bit
/// words (a 64-bit pointer is two words, low first), per-block shared memory, and which warp
/// the stepper records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// Blocks per grid, x/y/z (each at least 1).
    pub grid: [u32; 3],
    /// Threads per block, x/y/z (each at least 1).
    pub block: [u32; 3],
    /// Kernel parameters in 32-bit words, placed from the parameter offset of constant bank 0.
    pub params: Vec<u32>,
    /// Shared memory per block in bytes (addresses `0..shared_bytes`).
    pub shared_bytes: u32,
    /// Global warp id (block-major, then warp within the block) whose steps are recorded.
    pub stepper_warp: u32,
    /// Record the per-instruction data (timelines, unit occupancy, stack depth, memory
    /// transactions, stepper). Off, a run reports only cycles, counts, per-warp start and
    /// end, and the final memory — for long runs whose detail nobody will look at.
    pub trace: bool,
    /// SASS: read constant banks 1–3 (the driver's and the compiler's tables, which a
    /// `cuobjdump -sass` listing does not print) as zero words instead of stopping at them.
    /// A stand-in an automatic launch uses so that such kernels run at all: their results
    /// are then not the kernel's, but the run is still one the analyses must bound (they
    /// read those words as unknown). Off: such a read stops the run with a located error.
    pub unknown_banks_zero: bool,
    /// SASS: what each texture or surface handle is bound to ([`crate::texture`]: the
    /// handle is the texels' address; the binding gives the array's size). Empty: a texture
    /// instruction stops the run with an error that says so.
    pub textures: Vec<crate::texture::TextureBinding>,
    /// Loops whose iterations the run counts as it goes ([`crate::WatchedLoop`]; the counts
    /// come back in `Simulation::loop_counts`, in this order). Counted without the trace, so
    /// a long run's counts are whole even when its timeline is cut by a budget.
    pub loops: Vec<crate::WatchedLoop>,
    /// The SMs the grid runs on and the blocks one SM holds ([`crate::Gpu`]; one SM by
    /// default). SASS and PTX only: a GCN3 run on several compute units is refused.
    pub gpu: crate::Gpu,
}

impl Default for Launch {
    fn default() -> Self {
        Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
            params: Vec::new(),
            shared_bytes: 0,
            stepper_warp: 0,
            trace: true,
            unknown_banks_zero: false,
            textures: Vec::new(),
            loops: Vec::new(),
            gpu: crate::Gpu::default(),
        }
    }
}

impl Launch {
    pub fn threads_per_block(&self) -> u64 {
        // Saturating: three 32-bit dimensions can exceed 64 bits (a budget error later).
        self.block
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(u64::from(d)))
    }

    /// The (x, y, z) index of linear block `b` (x fastest), as `%ctaid` / `SR_CTAID` /
    /// the work-group id see it.
    pub fn block_index(&self, b: u64) -> [u32; 3] {
        let [gx, gy, _] = self.grid.map(|d| u64::from(d.max(1)));
        [
            (b % gx) as u32,
            ((b / gx) % gy) as u32,
            (b / (gx * gy)) as u32,
        ]
    }

    /// The (x, y, z) thread index of linear thread `t` of a block (x fastest), and whether
    /// the thread exists (`t` below the block's size: the last warp may be partial).
    pub fn thread_index(&self, t: u64) -> ([u32; 3], bool) {
        let [bx, by, _] = self.block.map(|d| u64::from(d.max(1)));
        (
            [
                (t % bx) as u32,
                ((t / bx) % by) as u32,
                (t / (bx * by)) as u32,
            ],
            t < self.threads_per_block(),
        )
    }

    pub fn blocks(&self) -> u64 {
        self.grid
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(u64::from(d)))
    }
}

/// Where constant bank 0 holds the launch shape and the parameters. The issue text places
/// the launch dimensions at `c[0x0][0x0..0x14]`; the corpus listings disagree, and the
/// listings are followed:
/// - Maxwell/Pascal (sm_5x/sm_6x, also the default for listings without an architecture):
///   `rodinia_nn` (sm_52) computes `blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x)` with
///   `c[0x0][0x14]` as `gridDim.x` and `c[0x0][0x8]` as `blockDim.x`, and loads the stack
///   pointer from `c[0x0][0x20]`; parameters start at `0x140`.
/// - Kepler (sm_3x): `celer_range_native-linear` (sm_35) uses `c[0x0][0x28]` as `blockDim.x`
///   and `c[0x0][0x44]` as the stack pointer; `gridDim` follows at `0x34` (three words after
///   `blockDim`, as on Maxwell); parameters at `0x140`.
///   The generic address of a local buffer is the stack pointer plus a 64-bit local-window
///   base whose low word is `c[0x0][0x4]` and high word `c[0x0][0x104]` (`IADD R6.CC, R1,
///   c[0x0][0x4]` / `IADD.X R7, RZ, c[0x0][0x104]` in `newdelete__containerConsume`, sm_61;
///   `MOV R6, c[0x0][0x4]` / `IADD3.X R7, RZ, c[0x0][0x104], RZ` in
///   `cuassembler_sm61___Z7argtestPiS_S_`).
/// - Fermi (sm_2x): parameters at `0x20` (`FERMI_sm20_mgpu_*`), dimensions as on Maxwell;
///   the stack pointer is in the driver's bank 1, `c[0x1][0x100]` (the `MOV R1,
///   c[0x1][0x100]` every Fermi listing of the corpus starts with), and reads as
///   [`LOCAL_STACK_TOP`] too ([`FERMI_STACK_POINTER`]).
/// - Volta to Ada (sm_70–sm_89), from `tests/kernels/sass/sm_{70,75,86}` and their sources in
///   `tests/kernels/src`: `data_if_else(const float *x, float *y, float lo, float hi, int n)`
///   reads `x` at `0x160` (`IMAD.WIDE R2, R4, R5, c[0x0][0x160]`, then `LDG`), `y` at `0x168`
///   (the `STG` address), `lo`/`hi` at `0x170`/`0x174` (`FSETP … c[0x0][0x170]`) and `n` at
///   `0x178` (`ISETP.GE.AND P0, PT, R4, c[0x0][0x178]` for `i >= n`), and computes
///   `blockIdx.x * blockDim.x + threadIdx.x` as `IMAD R4, R4, c[0x0][0x0], R3`: `blockDim` at
///   `0x0`. `grid_stride_divmod` steps `i += blockDim.x * gridDim.x` as
///   `IMAD R2, R7, c[0x0][0xc], R2` with `R7 = c[0x0][0x0]`: `gridDim` at `0xc`. Every
///   listing starts with `MOV R1, c[0x0][0x28]`, the stack pointer kept in `R1`.
///   `printf_divergent` forms the generic address of its local `printf` buffer as
///   `IADD3 R6, P1, R1, c[0x0][0x20]` / `IMAD.X R7, RZ, RZ, c[0x0][0x24], P1`: a 64-bit
///   local-window base at `0x20`. sm_80+ listings load `ULDC.64 URn, c[0x0][0x118]` before
///   their global accesses: the memory descriptor that `LDG`/`STG` name as `desc[URn]` (newer
///   disassemblers print it; `cuobjdump` 11.8 does not).
/// - Hopper (sm_90), from `tests/kernels/sass/sm_90`: the same `data_if_else` reads `x`/`y`
///   with `LDC.64 c[0x0][0x210]`/`c[0x0][0x218]`, `lo`/`hi` at `0x220`/`0x224` and `n` at
///   `0x228` (`ULDC UR4, c[0x0][0x228]` compared with `i`): parameters from `0x210`;
///   `blockDim.x` is `LDC R7, c[0x0][RZ]` (offset 0), `gridDim.x` `ULDC UR5, c[0x0][0xc]`
///   in `grid_stride_divmod`, the stack pointer `LDC R1, c[0x0][0x28]`; the memory
///   descriptor moved to `0x208` (`ULDC.64 UR4, c[0x0][0x208]` right before the `LDG`s).
///
/// The stack pointer reads as [`LOCAL_STACK_TOP`], the top of each thread's local window
/// (`LDL`/`STL` reach the window below it). The generic local-window base and the memory
/// descriptor have no simulated meaning (generic loads and stores do not reach local
/// memory, and loads and stores ignore the descriptor): they read as [`LOCAL_WINDOW_BASE`]
/// and [`MEMORY_DESCRIPTOR`], so that code computing with them runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstantLayout {
    pub ntid: u32,
    pub nctaid: u32,
    pub params: u32,
    /// Offset of the local-memory stack pointer, if the architecture has one there.
    pub local_stack: Option<u32>,
    /// The stack pointer is Fermi's `c[0x1][0x100]` ([`FERMI_STACK_POINTER`]).
    pub fermi_stack: bool,
    /// Offsets of the low and high words of the generic-address base of the local window
    /// (Maxwell–Pascal `0x4`/`0x104`, sm_70+ `0x20`/`0x24`).
    pub local_window: Option<(u32, u32)>,
    /// Offset of the 64-bit global memory descriptor (sm_80+: `0x118`, sm_90: `0x208`).
    pub memory_descriptor: Option<u32>,
}

/// The value `c[0x0][stack pointer]` reads as: the top of each thread's local window
/// (`crate::sass` local memory: `LDL`/`STL` reach the window below it). Only plausible
/// (16 MiB less 1 KiB, the default `cudaLimitStackSize` of 1 KiB below a 16 MiB window);
/// what matters is that frames below it fit in the window.
pub const LOCAL_STACK_TOP: u32 = 0x00ff_fc00;

/// Fermi's stack pointer: constant bank 1, offset `0x100`.
pub const FERMI_STACK_POINTER: (u32, i64) = (1, 0x100);

/// The value of the local-window base (sm_70+ `c[0x0][0x20..0x28]`, Maxwell–Pascal
/// `c[0x0][0x4]` and `c[0x0][0x104]`; low word first). Only plausible: it is added to the
/// stack pointer to form generic addresses of local buffers, which nothing simulated
/// dereferences (`printf`'s callee is outside the listing).
pub const LOCAL_WINDOW_BASE: [u32; 2] = [0, 0x0000_7ff0];

/// The value of the sm_80+ global memory descriptor (`c[0x0][0x118]`, sm_90 `c[0x0][0x208]`).
/// The driver fills it with an opaque cache-policy descriptor that NVIDIA does not document;
/// the simulator's loads and stores do not read it, so zero stands for "default policy".
pub const MEMORY_DESCRIPTOR: [u32; 2] = [0, 0];

impl ConstantLayout {
    pub fn for_arch(arch: Option<&str>) -> Self {
        let sm = arch
            .and_then(|a| a.strip_prefix("sm_"))
            .and_then(|v| v.parse::<u32>().ok());
        let none = ConstantLayout {
            ntid: 0x8,
            nctaid: 0x14,
            params: 0x140,
            local_stack: Some(0x20),
            fermi_stack: false,
            local_window: Some((0x4, 0x104)),
            memory_descriptor: None,
        };
        match sm {
            Some(v) if (30..50).contains(&v) => ConstantLayout {
                ntid: 0x28,
                nctaid: 0x34,
                local_stack: Some(0x44),
                local_window: None,
                ..none
            },
            Some(v) if v < 30 => ConstantLayout {
                params: 0x20,
                local_stack: None,
                fermi_stack: true,
                local_window: None,
                ..none
            },
            Some(v) if (70..90).contains(&v) => ConstantLayout {
                ntid: 0x0,
                nctaid: 0xc,
                params: 0x160,
                local_stack: Some(0x28),
                fermi_stack: false,
                local_window: Some((0x20, 0x24)),
                memory_descriptor: (v >= 80).then_some(0x118),
            },
            Some(v) if v >= 90 => ConstantLayout {
                ntid: 0x0,
                nctaid: 0xc,
                params: 0x210,
                local_stack: Some(0x28),
                fermi_stack: false,
                local_window: Some((0x20, 0x24)),
                memory_descriptor: Some(0x208),
            },
            _ => none,
        }
    }

    /// The 32-bit word at `c[0x0][offset]`, or `None` when the launch does not define it.
    pub fn read(&self, launch: &Launch, offset: i64) -> Option<u32> {
        let off = u32::try_from(offset).ok()?;
        if off % 4 != 0 {
            return None;
        }
        let word = |base: u32, values: &[u32]| -> Option<u32> {
            let i = off.checked_sub(base)? / 4;
            values.get(i as usize).copied()
        };
        if let Some(v) = word(self.ntid, &launch.block) {
            return Some(v);
        }
        if let Some(v) = word(self.nctaid, &launch.grid) {
            return Some(v);
        }
        if self.local_stack == Some(off) {
            return Some(LOCAL_STACK_TOP);
        }
        if let Some((lo, hi)) = self.local_window {
            if off == lo {
                return Some(LOCAL_WINDOW_BASE[0]);
            }
            if off == hi {
                return Some(LOCAL_WINDOW_BASE[1]);
            }
        }
        if let Some(v) = self
            .memory_descriptor
            .and_then(|b| word(b, &MEMORY_DESCRIPTOR))
        {
            return Some(v);
        }
        word(self.params, &launch.params)
    }

    /// The byte at `c[0x0][offset]` (`LDC.U8`/`ULDC.U8` of a `bool` or `char` parameter,
    /// little-endian within its word), or `None` when the launch does not define it.
    pub fn read_byte(&self, launch: &Launch, offset: i64) -> Option<u8> {
        let word = self.read(launch, offset & !3)?;
        Some((word >> (8 * (offset & 3))) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maxwell_layout_matches_rodinia_nn() {
        let l = Launch {
            grid: [7, 2, 1],
            block: [64, 1, 1],
            params: vec![0x1000, 0, 5],
            ..Launch::default()
        };
        let c = ConstantLayout::for_arch(Some("sm_52"));
        assert_eq!(c.read(&l, 0x8), Some(64));
        assert_eq!(c.read(&l, 0x14), Some(7));
        assert_eq!(c.read(&l, 0x18), Some(2));
        assert_eq!(c.read(&l, 0x140), Some(0x1000));
        assert_eq!(c.read(&l, 0x148), Some(5));
        assert_eq!(c.read(&l, 0x14c), None);
        assert_eq!(c.read(&l, 0x20), Some(LOCAL_STACK_TOP));
        assert_eq!(c.read(&l, 0x4), Some(LOCAL_WINDOW_BASE[0]));
        assert_eq!(c.read(&l, 0x104), Some(LOCAL_WINDOW_BASE[1]));
        let k = ConstantLayout::for_arch(Some("sm_35"));
        assert_eq!(k.read(&l, 0x4), None);
        assert_eq!(k.read(&l, 0x28), Some(64));
        assert_eq!(k.read(&l, 0x34), Some(7));
    }

    #[test]
    fn volta_to_hopper_layouts_match_data_if_else() {
        let l = Launch {
            grid: [7, 2, 1],
            block: [64, 3, 1],
            params: vec![0x1000, 0, 0x2000, 0, 0x3f80_0000, 0x4000_0000, 100, 0x0100],
            ..Launch::default()
        };
        for arch in ["sm_70", "sm_75", "sm_86"] {
            let c = ConstantLayout::for_arch(Some(arch));
            assert_eq!(c.read(&l, 0x0), Some(64));
            assert_eq!(c.read(&l, 0x4), Some(3));
            assert_eq!(c.read(&l, 0xc), Some(7));
            assert_eq!(c.read(&l, 0x10), Some(2));
            assert_eq!(c.read(&l, 0x28), Some(LOCAL_STACK_TOP));
            assert_eq!(c.read(&l, 0x24), Some(LOCAL_WINDOW_BASE[1]));
            // x, y, lo, hi, n of `data_if_else`.
            assert_eq!(c.read(&l, 0x160), Some(0x1000));
            assert_eq!(c.read(&l, 0x168), Some(0x2000));
            assert_eq!(c.read(&l, 0x178), Some(100));
            assert_eq!(c.read_byte(&l, 0x17d), Some(1));
            assert_eq!(c.read(&l, 0x180), None);
        }
        assert_eq!(
            ConstantLayout::for_arch(Some("sm_75")).read(&l, 0x118),
            None
        );
        assert_eq!(
            ConstantLayout::for_arch(Some("sm_86")).read(&l, 0x11c),
            Some(0)
        );
        let h = ConstantLayout::for_arch(Some("sm_90"));
        assert_eq!(h.read(&l, 0x0), Some(64));
        assert_eq!(h.read(&l, 0xc), Some(7));
        assert_eq!(h.read(&l, 0x208), Some(MEMORY_DESCRIPTOR[0]));
        assert_eq!(h.read(&l, 0x210), Some(0x1000));
        assert_eq!(h.read(&l, 0x228), Some(100));
        assert_eq!(h.read(&l, 0x160), None);
    }

    #[test]
    fn block_and_thread_indices_are_x_fastest() {
        let l = Launch {
            grid: [3, 2, 2],
            block: [4, 3, 2],
            ..Launch::default()
        };
        // Block 7 of a 3×2×2 grid: 7 = 1 + 3·(0 + 2·1) → (1, 0, 1).
        assert_eq!(l.block_index(7), [1, 0, 1]);
        assert_eq!(l.block_index(11), [2, 1, 1]);
        // Thread 17 of a 4×3×2 block: 17 = 1 + 4·(1 + 3·1) → (1, 1, 1); 24 threads exist.
        assert_eq!(l.thread_index(17), ([1, 1, 1], true));
        assert_eq!(l.thread_index(23), ([3, 2, 1], true));
        assert!(!l.thread_index(24).1);
    }
}
