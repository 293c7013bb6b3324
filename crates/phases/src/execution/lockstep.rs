//! The two policies of §4.2 (scratchpad as access, scratchpad as compute) as an execution:
//! the system is seen as exactly two resources, compute and access, so the greedy scheduler
//! follows one serialisation — the two active work-groups swap resources every time both
//! have finished their current phase — and work-groups are released in pairs (an exited
//! work-group's slot stays empty until the other slot starts its final phase).
//!
//! Each phase starts by Eq. 6–9 as in [`crate::schedule::worst_case`] (the latest of the
//! previous phase's start, the end of the last reservation of its resource class, RRes,
//! Eq. 3, and of its slot, WEnd, Eq. 4), here with each work-group's own phase list at its
//! observed costs, and a DRAM phase additionally after any refresh due before it
//! ([`super::refresh`]). With every work-group on the critical path at its WCET costs and
//! refresh off this is exactly the WCET schedule (test `worst_path_at_wcet_costs_is_the_wcet_schedule`).
//!
//! Steps: in step `t` each slot starts at most one phase. A slot in the middle of a
//! work-group starts its next phase; slot 1 defers a phase of the same class as slot 0's in
//! the same step (at the very start, where both work-groups begin with compute: this gives
//! the serialisation's offset of one phase); an exited slot takes its next work-group as
//! [`released`] allows.

use super::refresh::RefreshClock;
use super::{lane, Recorder, WorkGroups};
use crate::access::Resource;
use crate::error::Error;
use crate::phase_list::Phase;

struct Slot {
    wg: Option<(u64, Vec<Phase>)>,
    k: usize,
}

impl Slot {
    fn next(&self) -> Option<&Phase> {
        self.wg.as_ref().and_then(|(_, l)| l.get(self.k))
    }
    fn is_final(&self) -> bool {
        self.wg.as_ref().is_some_and(|(_, l)| self.k + 1 == l.len())
    }
}

fn class(r: Resource) -> usize {
    usize::from(r != Resource::Compute)
}

/// §4.2's pairwise release: work-groups `2j` and `2j+1` form a pair (slot 0 runs the even
/// ones, slot 1 the odd ones, as the serialisation of [`crate::schedule`]); a slot whose
/// work-group `g` exited may take its next one only once the partner `g xor 1` has started
/// its final phase (`last_final[other] ≥ partner`). Shared with the `pairwise` scheduler.
pub(crate) fn released(exited: Option<u64>, other_last_final: Option<u64>, count: u64) -> bool {
    match exited {
        None => true,
        Some(g) => {
            let partner = g ^ 1;
            partner >= count || other_last_final.is_some_and(|f| f >= partner)
        }
    }
}

/// Runs every work-group; returns the end of the last phase.
pub(crate) fn run(
    wgs: &mut WorkGroups<'_>,
    rec: &mut Recorder<'_>,
    clock: &mut RefreshClock,
    t0: u64,
) -> Result<u64, Error> {
    let mut slots = [Slot { wg: None, k: 0 }, Slot { wg: None, k: 0 }];
    // Slot s runs work-groups s, s + 2, s + 4, …; `exited[s]` is the last one it finished.
    let mut upcoming = [0u64, 1u64];
    let mut exited: [Option<u64>; 2] = [None, None];
    let mut last_final: [Option<u64>; 2] = [None, None];
    let mut rres = [t0; 2];
    let mut wend = [t0; 2];
    let mut dram_free = t0;
    let mut prev_start = t0;
    let mut end = t0;
    loop {
        for s in 0..2 {
            if slots[s].next().is_none() {
                if let Some((g, _)) = slots[s].wg.take() {
                    exited[s] = Some(g);
                }
                // The other slot's final phase counts from the step it starts in.
                let o = &slots[1 - s];
                let other = if o.is_final() {
                    o.wg.as_ref().map(|(g, _)| *g).max(last_final[1 - s])
                } else {
                    last_final[1 - s]
                };
                if upcoming[s] < wgs.count && released(exited[s], other, wgs.count) {
                    let g = upcoming[s];
                    slots[s].wg = Some((g, wgs.phases(g)?));
                    slots[s].k = 0;
                    upcoming[s] += 2;
                }
            }
        }
        let p0 = slots[0].next().copied();
        let mut p1 = slots[1].next().copied();
        if let (Some(a), Some(b)) = (p0, p1) {
            if class(a.resource) == class(b.resource) {
                p1 = None;
            }
        }
        if p0.is_none() && p1.is_none() {
            if upcoming.iter().all(|&u| u >= wgs.count) {
                break;
            }
            return Err(Error::request(
                "internal: the pairwise schedule has no phase to run but work-groups left",
            ));
        }
        for (s, p) in [(0u8, p0), (1u8, p1)] {
            let Some(p) = p else { continue };
            let c = class(p.resource);
            // Eq. 7 (half-open form), Eq. 9.
            let mut start = prev_start.max(rres[c]).max(wend[s as usize]);
            if p.resource == Resource::Dram {
                clock.settle(start, &mut dram_free, |a, b| rec.refresh(a, b));
                start = start.max(dram_free);
            }
            let e = start.saturating_add(p.cycles);
            if p.resource == Resource::Dram {
                dram_free = e;
            }
            rres[c] = e;
            wend[s as usize] = e;
            prev_start = start;
            end = end.max(e);
            let slot = &mut slots[s as usize];
            let g = slot.wg.as_ref().map_or(0, |(g, _)| *g);
            if slot.is_final() {
                last_final[s as usize] = Some(g);
            }
            rec.phase(lane(p.resource, s), &p, g, s, start, e)?;
            slot.k += 1;
        }
    }
    Ok(end)
}
