//! PTX `atom` and `red` (PTX ISA, "Parallel Synchronization and Communication Instructions: atom, red"): a read-modify-write of one word per lane
//! in global or shared memory.
//!
//! The ISA only promises that each lane's operation is atomic; the order in which the lanes
//! of one instruction reach the same address is unspecified. The simulator serialises them
//! in lane order (lane 0 first), the order the SASS front end uses for `ATOM`/`RED`, so a
//! run is deterministic and every lane sees the value the previous one left. Timing: one
//! access of the instruction's class (`global` or `shared`), as a load, since the old value
//! comes back.

use super::program::{Addr, Op, Space, Src};
use super::semantics::{lanes, read, Ids, Regs};
use crate::atomic_op::{AtomOp, Kind};
use crate::cycle_loop::{Access, Sm};
use isa::ptx::ScalarType;

/// The new memory value of PTX `atom` `op` of type `ty` (see [`crate::atomic_op::apply`]).
pub(crate) fn apply(op: AtomOp, ty: ScalarType, old: u64, b: u64, c: u64) -> u64 {
    let kind = match ty {
        ScalarType::F32 | ScalarType::F64 => Kind::Float,
        t if t.is_signed() => Kind::Signed,
        _ => Kind::Unsigned,
    };
    crate::atomic_op::apply(op, ty.bits(), kind, old, b, c)
}

/// Executes atom `op` for the lanes of `at.exec` of a warp (`regs`, `ids`) in block `block`;
/// returns its latency.
pub(super) fn execute(
    sm: &mut Sm,
    regs: &mut Regs,
    ids: &Ids,
    block: usize,
    op: &Op,
    at: Access,
) -> Result<u64, String> {
    let Op::Atom {
        space,
        op,
        ty,
        d,
        addr,
        b,
        c,
    } = *op
    else {
        return Err("not an atomic".into());
    };
    let bytes = u64::from(ty.bytes());
    let mut addrs = std::mem::take(&mut sm.addr_buf);
    addrs.clear();
    let mut run = || -> Result<(), String> {
        for lane in lanes(at.exec) {
            let a = match addr {
                Addr::Reg(r, off) => regs.get(r, lane).wrapping_add_signed(off),
                Addr::Abs(a) => a,
            };
            // 32-bit shared offsets wrap (see the front end's loads and stores).
            let a = if space == Space::Shared {
                a & 0xffff_ffff
            } else {
                a
            };
            let mut words = [0u32; 2];
            match space {
                Space::Shared => sm.blocks[block].shared.read(a, bytes, &mut words)?,
                _ => sm.memory.read(a, bytes, &mut words)?,
            }
            let old = u64::from(words[0]) | u64::from(words[1]) << 32;
            let value = |s: Src| read(s, regs, ids, lane);
            let new = apply(op, ty, old, value(b), value(c));
            let words = [new as u32, (new >> 32) as u32];
            match space {
                Space::Shared => sm.blocks[block].shared.write(a, bytes, &words)?,
                _ => sm.memory.write(a, bytes, &words)?,
            }
            if let Some(d) = d {
                regs.set(d, lane, old);
            }
            addrs.push((lane, a));
        }
        Ok(())
    };
    let latency = run().and_then(|()| {
        let access = Access::moved(at, space != Space::Shared, false, bytes);
        sm.finish_access(&access, &addrs, &addrs)
    });
    sm.addr_buf = addrs;
    latency
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType as T;

    /// Each operation on values worked by hand from the ISA's definitions.
    #[test]
    fn operations_by_hand() {
        assert_eq!(apply(AtomOp::Add, T::U32, 0xffff_ffff, 2, 0), 1);
        assert_eq!(apply(AtomOp::Exch, T::B32, 5, 9, 0), 9);
        assert_eq!(apply(AtomOp::Cas, T::B32, 5, 5, 7), 7);
        assert_eq!(apply(AtomOp::Cas, T::B32, 5, 6, 7), 5);
        assert_eq!(apply(AtomOp::Or, T::B32, 0b1010, 0b0101, 0), 0b1111);
        // inc wraps to 0 at the bound, dec wraps to the bound at 0 and above it.
        assert_eq!(apply(AtomOp::Inc, T::U32, 3, 4, 0), 4);
        assert_eq!(apply(AtomOp::Inc, T::U32, 4, 4, 0), 0);
        assert_eq!(apply(AtomOp::Dec, T::U32, 0, 4, 0), 4);
        assert_eq!(apply(AtomOp::Dec, T::U32, 9, 4, 0), 4);
        assert_eq!(apply(AtomOp::Dec, T::U32, 3, 4, 0), 2);
        // min.s32 sees 0xffffffff as -1; min.u32 as the largest value.
        assert_eq!(apply(AtomOp::Min, T::S32, 0xffff_ffff, 1, 0), 0xffff_ffff);
        assert_eq!(apply(AtomOp::Min, T::U32, 0xffff_ffff, 1, 0), 1);
        assert_eq!(apply(AtomOp::Max, T::S32, 0xffff_ffff, 1, 0), 1);
        // add.f32: 1.5 + 2.25 = 3.75.
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(apply(AtomOp::Add, T::F32, f(1.5), f(2.25), 0), f(3.75));
        // 64-bit add carries across the halves.
        assert_eq!(apply(AtomOp::Add, T::U64, 0xffff_ffff, 1, 0), 0x1_0000_0000);
    }
}
