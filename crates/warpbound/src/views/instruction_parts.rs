//! What the instruction table shows of an instruction besides its text — the unit it
//! occupies, SASS's decoded control bits — and what a whole `nvdisasm` dump declares for the
//! function: the facade's copies of `isa`'s types, named for what the page shows.

use super::wire_view::wire_view;
use crate::views::wire_view::wire_enum;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

wire_enum! {
    /// The functional unit an instruction occupies, which is what timing models charge for
    /// (`isa::ResourceClass`): the table's class column.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    pub enum ResourceClass mirrors isa::ResourceClass {
        Alu,
        /// Special-function unit: transcendental approximations (`MUFU`, `RRO`).
        Sfu,
        LoadStoreGlobal,
        LoadStoreShared,
        LoadStoreLocal,
        /// Constant-cache load (`LDC`).
        Constant,
        Texture,
        Control,
    }
}

wire_view! {
    /// The decoded SASS scheduling control field of one instruction (`isa::ControlBits`,
    /// Maxwell to Hopper), when the listing carries the encoding or a CuAssembler code.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
    pub struct ControlBits from isa::ControlBits as b {
        /// Cycles the warp waits before issuing its next instruction (0–15).
        stall: u8,
        /// The yield hint as CuAssembler and turingas print it (`Y`): the raw bit is clear.
        yield_hint: bool,
        /// Scoreboard barrier (0–5) this instruction sets until its result is written.
        write_barrier: Option<u8>,
        /// Scoreboard barrier (0–5) this instruction sets until its source registers are read.
        read_barrier: Option<u8>,
        /// Barriers (bit *b* for barrier *b*) that must be clear before this instruction issues.
        wait_mask: u8,
        /// Operand-reuse cache flags (bit *k* for source operand slot *k*).
        reuse: u8,
    }
}

/// What a whole `nvdisasm` dump declares for the function (`isa::FunctionResources`):
/// registers, static shared memory, constant bank 0, stack, shown with the instruction
/// table. Each is absent when the text does not say it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FunctionResources {
    /// A kernel entry, not a device function: only entries are launched.
    pub entry: bool,
    /// Registers per thread (`EIATTR_REGCOUNT`, else `SHI_REGISTERS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub registers: Option<u32>,
    /// Static shared memory per block, in bytes (`.nv.shared.NAME`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shared_bytes: Option<u64>,
    /// Size of constant bank 0 (launch configuration and parameters), in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub constant0_bytes: Option<u64>,
    /// Per-thread stack, in bytes (`EIATTR_MIN_STACK_SIZE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stack_bytes: Option<u64>,
    /// `EIATTR_MAX_STACK_SIZE`, in bytes, as printed (not the stack a thread needs: that is
    /// `stack_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_stack_bytes: Option<u64>,
}

impl From<&isa::FunctionResources> for FunctionResources {
    fn from(r: &isa::FunctionResources) -> Self {
        FunctionResources {
            entry: r.entry,
            registers: r.registers,
            shared_bytes: r.shared_bytes,
            constant0_bytes: r.constant0_bytes,
            stack_bytes: r.stack_bytes,
            max_stack_bytes: r.max_stack_bytes,
        }
    }
}
