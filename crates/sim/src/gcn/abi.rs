//! The initial state of a GCN3 wavefront: which SGPRs and VGPRs the hardware fills before the
//! first instruction (AMDGPU-Usage, "Initial Kernel Execution State", code-object V3 with
//! the `.amdhsa_*` descriptor directives that every corpus kernel carries), and where the
//! kernel arguments and the dispatch packet live.
//!
//! SGPRs are filled from `s0` in this order, each only when its directive is 1:
//! private segment buffer (4), dispatch pointer (2), queue pointer (2), kernarg segment
//! pointer (2), dispatch id (2), flat scratch init (2), private segment size (1); then the
//! system SGPRs workgroup id x, y, z (1 each), workgroup info (1), private segment wavefront
//! offset (1). VGPRs: `v0` = work-item id x; `v1` = y when
//! `.amdhsa_system_vgpr_workitem_id` ≥ 1; `v2` = z when it is 2 (GFX8/GFX9 layout).
//!
//! Examples from the corpus: `hipexamples_vectoradd` (buffer, kernarg) reads its arguments
//! through `s[4:5]` and `s6` is the workgroup id x; gaussian `Fan1` (buffer, dispatch
//! pointer, kernarg) reads `blockDim.x` as the low 16 bits of dispatch-packet offset 4 via
//! `s[4:5]`, its arguments via `s[6:7]`, and `s8` is the workgroup id x.
//!
//! The kernarg segment holds `Launch::params` (32-bit words, a 64-bit pointer as two words,
//! low first) from [`KERNARG_BASE`]; the HSA kernel dispatch packet (`hsa_kernel_dispatch_packet_t`:
//! `workgroup_size_x/y/z` as u16 at 4/6/8, `grid_size_x/y/z` as u32 at 12/16/20 in
//! work-items, `group_segment_size` at 28, `kernarg_address` at 40) is at
//! [`DISPATCH_BASE`]. Scalar loads from these ranges read them; every other address is
//! global memory. The private segment buffer and scratch are zero (scratch is not
//! simulated).

use std::collections::BTreeMap;

/// Where the kernel arguments are (above any 47-bit user address).
pub const KERNARG_BASE: u64 = 0xffff_0000_0000;
/// Where the dispatch packet is.
pub const DISPATCH_BASE: u64 = 0xfffe_0000_0000;

/// The `.amdhsa_*` settings that shape the initial register state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GcnAbi {
    pub private_segment_buffer: bool,
    pub dispatch_ptr: bool,
    pub queue_ptr: bool,
    pub kernarg_segment_ptr: bool,
    pub dispatch_id: bool,
    pub flat_scratch_init: bool,
    pub private_segment_size: bool,
    pub workgroup_id: [bool; 3],
    pub workgroup_info: bool,
    pub private_segment_wavefront_offset: bool,
    /// 0: `v0` = x; 1: also `v1` = y; 2: also `v2` = z.
    pub workitem_id: u32,
    /// `.amdhsa_group_segment_fixed_size`: LDS bytes the kernel declares.
    pub group_segment_size: u32,
}

impl Default for GcnAbi {
    /// HIP's usual kernel without a descriptor: private segment buffer and kernarg pointer
    /// (`s[0:3]`, `s[4:5]`), workgroup id x in `s6`, `v0` = work-item id x — the layout of
    /// the corpus' `vectoradd` without its `v1`.
    fn default() -> Self {
        GcnAbi {
            private_segment_buffer: true,
            dispatch_ptr: false,
            queue_ptr: false,
            kernarg_segment_ptr: true,
            dispatch_id: false,
            flat_scratch_init: false,
            private_segment_size: false,
            workgroup_id: [true, false, false],
            workgroup_info: false,
            private_segment_wavefront_offset: false,
            workitem_id: 0,
            group_segment_size: 0,
        }
    }
}

/// What the initial SGPRs hold, in order; see the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitSgpr {
    Zero,
    DispatchPtr,
    KernargPtr,
    WorkgroupId(usize),
}

impl GcnAbi {
    /// The settings of a function's `.amdhsa_kernel NAME … .end_amdhsa_kernel` block, as
    /// the parser read it ([`isa::gcn::GcnFunction::descriptor`]). Without such a block,
    /// or for directives it does not name, the [`Default`] values hold.
    pub fn from_descriptor(descriptor: &BTreeMap<String, u64>) -> GcnAbi {
        let mut abi = GcnAbi::default();
        for (key, &v) in descriptor {
            let b = v != 0;
            match key.as_str() {
                ".amdhsa_user_sgpr_private_segment_buffer" => abi.private_segment_buffer = b,
                ".amdhsa_user_sgpr_dispatch_ptr" => abi.dispatch_ptr = b,
                ".amdhsa_user_sgpr_queue_ptr" => abi.queue_ptr = b,
                ".amdhsa_user_sgpr_kernarg_segment_ptr" => abi.kernarg_segment_ptr = b,
                ".amdhsa_user_sgpr_dispatch_id" => abi.dispatch_id = b,
                ".amdhsa_user_sgpr_flat_scratch_init" => abi.flat_scratch_init = b,
                ".amdhsa_user_sgpr_private_segment_size" => abi.private_segment_size = b,
                ".amdhsa_system_sgpr_workgroup_id_x" => abi.workgroup_id[0] = b,
                ".amdhsa_system_sgpr_workgroup_id_y" => abi.workgroup_id[1] = b,
                ".amdhsa_system_sgpr_workgroup_id_z" => abi.workgroup_id[2] = b,
                ".amdhsa_system_sgpr_workgroup_info" => abi.workgroup_info = b,
                ".amdhsa_system_sgpr_private_segment_wavefront_offset" => {
                    abi.private_segment_wavefront_offset = b
                }
                ".amdhsa_system_vgpr_workitem_id" => abi.workitem_id = v.min(2) as u32,
                ".amdhsa_group_segment_fixed_size" => {
                    abi.group_segment_size = u32::try_from(v).unwrap_or(u32::MAX)
                }
                _ => {}
            }
        }
        abi
    }

    /// The initial SGPRs from `s0` on.
    pub fn sgprs(&self) -> Vec<InitSgpr> {
        let mut out = Vec::new();
        let mut push = |on: bool, what: InitSgpr, n: usize| {
            if on {
                out.extend(std::iter::repeat_n(what, n));
            }
        };
        push(self.private_segment_buffer, InitSgpr::Zero, 4);
        push(self.dispatch_ptr, InitSgpr::DispatchPtr, 2);
        push(self.queue_ptr, InitSgpr::Zero, 2);
        push(self.kernarg_segment_ptr, InitSgpr::KernargPtr, 2);
        push(self.dispatch_id, InitSgpr::Zero, 2);
        push(self.flat_scratch_init, InitSgpr::Zero, 2);
        push(self.private_segment_size, InitSgpr::Zero, 1);
        for d in 0..3 {
            push(self.workgroup_id[d], InitSgpr::WorkgroupId(d), 1);
        }
        push(self.workgroup_info, InitSgpr::Zero, 1);
        push(self.private_segment_wavefront_offset, InitSgpr::Zero, 1);
        out
    }
}

/// The 64-byte dispatch packet as 16 words (see the module doc).
pub fn dispatch_packet(grid: [u32; 3], block: [u32; 3], group_bytes: u32) -> [u32; 16] {
    let mut w = [0u32; 16];
    let dims = if grid[2] > 1 || block[2] > 1 {
        3
    } else if grid[1] > 1 || block[1] > 1 {
        2
    } else {
        1
    };
    w[0] = dims << 16; // header 0, setup = dimensions
    w[1] = (block[0] & 0xffff) | ((block[1] & 0xffff) << 16);
    w[2] = block[2] & 0xffff;
    for d in 0..3 {
        w[3 + d] = grid[d].wrapping_mul(block[d]);
    }
    w[7] = group_bytes;
    w[10] = KERNARG_BASE as u32;
    w[11] = (KERNARG_BASE >> 32) as u32;
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fan1_layout_puts_kernarg_in_s6() {
        // gaussian Fan1's descriptor: buffer 1, dispatch_ptr 1, kernarg 1, wg id x 1 →
        // s0-3 buffer, s[4:5] dispatch, s[6:7] kernarg, s8 workgroup id x.
        let src = ".globl k\n.globl other\nk:\n s_endpgm\nother:\n s_endpgm\n.amdhsa_kernel k\n.amdhsa_user_sgpr_dispatch_ptr 1\n.end_amdhsa_kernel\n";
        let program = isa::gcn::parse(src, &isa::Limits::default());
        let abi_of = |name| {
            let f = program.function(Some(name)).expect("parsed");
            GcnAbi::from_descriptor(&f.descriptor)
        };
        let s = abi_of("k").sgprs();
        assert_eq!(s.len(), 9);
        assert_eq!(s[4], InitSgpr::DispatchPtr);
        assert_eq!(s[6], InitSgpr::KernargPtr);
        assert_eq!(s[8], InitSgpr::WorkgroupId(0));
        // Another function's block does not apply.
        assert_eq!(abi_of("other"), GcnAbi::default());
        let p = dispatch_packet([3, 1, 1], [64, 2, 1], 0);
        assert_eq!(p[1], 64 | (2 << 16));
        assert_eq!(p[3], 192);
    }
}
