//! The `unconstrained` and `pairwise` schedulers (§4.2, Fig. 4 (b), (c), Fig. 7): greedy list
//! scheduling on the resource instances of §4.1 — one compute unit, one DRAM controller, and
//! a scratchpad per slot (so a scratchpad phase never waits for the other slot).
//!
//! Each slot runs its work-group's phases in order; a phase is ready when the slot's previous
//! phase ends and starts as soon as its resource instance is free (a DRAM phase also after
//! any refresh due, [`super::refresh`]). Phases are committed in order of start time; two
//! phases that could start at the same time on the same resource go first-come (earlier
//! ready), then slot 0.
//!
//! * `unconstrained`: an exited slot takes the next work-group of the NDRange at once, so
//!   the slots drift apart by whole phases (Fig. 4 (b)).
//! * `pairwise`: slot 0 runs the even work-groups, slot 1 the odd ones, and a slot whose
//!   work-group exited waits until its pair partner has started its final phase
//!   ([`super::lockstep::released`], §4.2) — the only constraint; resources stay the real
//!   instances.

use super::lockstep::released;
use super::refresh::RefreshClock;
use super::{lane, Recorder, WorkGroups};
use crate::access::Resource;
use crate::error::Error;
use crate::phase_list::Phase;

struct Slot {
    wg: Option<(u64, Vec<Phase>)>,
    k: usize,
    ready: u64,
}

fn lane_index(r: Resource, slot: usize) -> usize {
    match r {
        Resource::Compute => 0,
        Resource::Dram => 1,
        Resource::Scratchpad => 2 + slot,
    }
}

/// Runs every work-group; returns the end of the last phase.
pub(crate) fn run(
    wgs: &mut WorkGroups<'_>,
    rec: &mut Recorder<'_>,
    clock: &mut RefreshClock,
    t0: u64,
    pairwise: bool,
) -> Result<u64, Error> {
    let mut slots = [
        Slot {
            wg: None,
            k: 0,
            ready: t0,
        },
        Slot {
            wg: None,
            k: 0,
            ready: t0,
        },
    ];
    let mut next_global = 0u64;
    let mut upcoming = [0u64, 1u64];
    let mut exited: [Option<u64>; 2] = [None, None];
    let mut last_final: [Option<u64>; 2] = [None, None];
    // When the partner's final phase started (the earliest a released slot may start).
    let mut final_at: [u64; 2] = [t0; 2];
    let mut free = [t0; 4];
    let mut end = t0;
    loop {
        for s in 0..2 {
            let done = slots[s]
                .wg
                .as_ref()
                .is_none_or(|(_, l)| slots[s].k >= l.len());
            if !done {
                continue;
            }
            if let Some((g, _)) = slots[s].wg.take() {
                exited[s] = Some(g);
            }
            let g = if pairwise {
                if upcoming[s] >= wgs.count || !released(exited[s], last_final[1 - s], wgs.count) {
                    continue;
                }
                if exited[s].is_some_and(|e| (e ^ 1) < wgs.count) {
                    slots[s].ready = slots[s].ready.max(final_at[1 - s]);
                }
                upcoming[s] += 2;
                upcoming[s] - 2
            } else {
                if next_global >= wgs.count {
                    continue;
                }
                next_global += 1;
                next_global - 1
            };
            slots[s].wg = Some((g, wgs.phases(g)?));
            slots[s].k = 0;
        }
        // The phase that can start first.
        let mut best: Option<(u64, u64, usize)> = None;
        for (s, slot) in slots.iter().enumerate() {
            let Some(p) = slot.wg.as_ref().and_then(|(_, l)| l.get(slot.k)) else {
                continue;
            };
            let li = lane_index(p.resource, s);
            let mut start = slot.ready.max(free[li]);
            if p.resource == Resource::Dram {
                let mut probe = *clock;
                let mut f = free[li];
                probe.settle(slot.ready, &mut f, |_, _| {});
                start = start.max(f);
            }
            let key = (start, slot.ready, s);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        let Some((_, _, s)) = best else {
            if slots.iter().all(|x| x.wg.is_none())
                && (if pairwise {
                    upcoming.iter().all(|&u| u >= wgs.count)
                } else {
                    next_global >= wgs.count
                })
            {
                break;
            }
            return Err(Error::request(
                "internal: the greedy schedule has no phase to run but work-groups left",
            ));
        };
        let slot = &mut slots[s];
        let Some((g, list)) = slot.wg.as_ref() else {
            continue;
        };
        let (g, p, is_final) = (*g, list[slot.k], slot.k + 1 == list.len());
        let li = lane_index(p.resource, s);
        let mut start = slot.ready.max(free[li]);
        if p.resource == Resource::Dram {
            clock.settle(slot.ready, &mut free[li], |a, b| rec.refresh(a, b));
            start = start.max(free[li]);
        }
        let e = start.saturating_add(p.cycles);
        free[li] = e;
        slot.ready = e;
        slot.k += 1;
        end = end.max(e);
        if is_final {
            last_final[s] = Some(g);
            final_at[s] = start;
        }
        rec.phase(lane(p.resource, s as u8), &p, g, s as u8, start, e)?;
    }
    Ok(end)
}
