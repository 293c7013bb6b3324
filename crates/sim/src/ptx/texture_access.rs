//! A warp's PTX `tex` fetches under the model of [`crate::texture`] (the SASS front end's
//! twin, on PTX's 64-bit virtual registers): each executing lane's texel from its
//! coordinates and the binding of its texture object (the handle register's value) or
//! texture reference (the `.texref` variable's address).

use super::program::{Op, TexHandle};
use super::semantics::Regs;
use crate::cycle_loop::{Access, Sm};
use crate::lane_set::lanes;
use crate::texture::{self, TEXEL_BYTES};

/// Executes `tex` for the lanes of `at.exec`; returns its latency (the `texture` class).
pub(super) fn execute(sm: &mut Sm, regs: &mut Regs, op: &Op, at: Access) -> Result<u64, String> {
    let Op::Tex {
        ds,
        handle,
        coords,
        float_coords,
    } = op
    else {
        return Err("not a texture fetch".into());
    };
    let mut addrs = std::mem::take(&mut sm.addr_buf);
    addrs.clear();
    let mut fetch = || -> Result<(), String> {
        let mut word = [0u32; 1];
        for lane in lanes(at.exec) {
            let h = match *handle {
                TexHandle::Reg(r) => regs.get(r, lane),
                TexHandle::Reference(a) => a,
            };
            let b = *texture::binding(&sm.launch.textures, h)?;
            let coordinate = |k: usize| -> f32 {
                let v = coords.get(k).map_or(0, |&r| regs.get(r, lane)) as u32;
                if *float_coords {
                    f32::from_bits(v)
                } else {
                    v as i32 as f32
                }
            };
            let a = b.texel_address(coordinate(0), coordinate(1));
            sm.memory.read(a, TEXEL_BYTES, &mut word)?;
            for (k, d) in ds.iter().enumerate() {
                if let Some(d) = d {
                    regs.set(*d, lane, if k == 0 { u64::from(word[0]) } else { 0 });
                }
            }
            addrs.push((lane, a));
        }
        Ok(())
    };
    let latency = fetch().and_then(|()| {
        let access = Access {
            texture: true,
            ..Access::moved(at, false, false, TEXEL_BYTES)
        };
        sm.finish_access(&access, &addrs, &addrs)
    });
    sm.addr_buf = addrs;
    latency
}
