//! Wavefront splitting in the GCN3 front end (PWS §3–4, [`crate::splitting`]): the
//! zero-time events before an issue (`split`/`merge` instructions, DWS merge points), splits
//! into split-wavefronts with their own SpSIMD, and merges back into the parent.

use super::{Gcn, Wave};
use crate::cycle_loop::Sm;
use crate::error::SimError;
use crate::gcn::decode::Op;
use crate::simulation::DepthChange;
use crate::splitting::{split_masks, SplitCosts, Splitting};

impl Gcn<'_> {
    /// Handles zero-time events of wave `w` at `cycle` (`split`/`merge` instructions and
    /// merge points, which take no issue slot: their cost is `e_s`/`e_m`); then issues its
    /// next instruction if it can. `Ok(true)` when an instruction issued.
    pub(super) fn step(&mut self, sm: &mut Sm, w: usize, cycle: u64) -> Result<bool, SimError> {
        let splitting = sm.machine.splitting;
        // Bounded by the kernel length: each round advances the pc or returns.
        for _ in 0..=self.f.instructions.len() {
            let pc = self.waves[w].pc;
            let Some(st) = self.statics.get(pc) else {
                return Err(SimError::at(
                    self.span(pc),
                    "the wavefront fell off the end of the kernel (no s_endpgm)",
                ));
            };
            let at_merged = self.waves[w].merged_at == Some(pc);
            match (&st.op, splitting) {
                (Ok(Op::Split { .. } | Op::Merge), Splitting::None | Splitting::Dws(_)) => {
                    self.waves[w].pc += 1;
                }
                (Ok(Op::Split { a, b }), Splitting::Pws(c)) => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    let sf = &self.waves[w].sf;
                    let m = u64::from(sf.read32(a)) | (u64::from(sf.read32(b)) << 32);
                    self.waves[w].pc += 1;
                    if self.split(sm, w, m, u32::MAX, cycle, c)? && c.e_s > 0 {
                        return Ok(false);
                    }
                }
                (Ok(Op::Merge), Splitting::Pws(c)) => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    if self.merge_point(sm, w, u32::MAX, cycle, c)? {
                        return Ok(false);
                    }
                    self.waves[w].pc += 1;
                }
                (Ok(_), Splitting::Dws(c)) if st.restore.is_some() && !at_merged => {
                    if self.ready_at(sm, w) > cycle {
                        return Ok(false);
                    }
                    let key = st.restore.unwrap_or(u32::MAX);
                    if self.merge_point(sm, w, key, cycle, c)? {
                        return Ok(false);
                    }
                    self.waves[w].merged_at = Some(pc);
                }
                _ => break,
            }
        }
        let issued = self.try_issue(sm, w, cycle)?;
        if issued {
            self.waves[w].merged_at = None;
        }
        Ok(issued)
    }

    /// Wave `w` reached a merge point with `key` (PWS `merge`: `u32::MAX`; DWS: the restored
    /// exec pair) at `cycle`. `Ok(true)` when it must wait for its partner (or was merged
    /// away into its parent).
    fn merge_point(
        &mut self,
        sm: &mut Sm,
        w: usize,
        key: u32,
        cycle: u64,
        c: SplitCosts,
    ) -> Result<bool, SimError> {
        // As a parent: the innermost open split with this key (stale DWS records of
        // narrowings that were never restored are dropped).
        if let Some(i) = self.waves[w].open.iter().rposition(|&(k, _)| k == key) {
            let (_, did_split) = self.waves[w].open[i];
            self.waves[w].open.truncate(i);
            if !did_split {
                return Ok(false);
            }
            let Some(&child) = self.waves[w].children.last() else {
                return Ok(false);
            };
            if sm.warps[child].done {
                self.waves[w].children.pop();
                return Ok(false);
            }
            // The child must wait at this same merge point with all its own splits merged
            // ("Once both SWFs are synchronized at the same instruction", §4.1) — not at
            // an inner merge point of its own.
            let ch = &self.waves[child];
            if let (Some(t_child), true) =
                (ch.merging, ch.pc == self.waves[w].pc && ch.open.is_empty())
            {
                self.merge(sm, w, child, cycle.max(t_child), c, false);
                return Ok(false);
            }
            // Wait for the child; the record stays open until it arrives.
            self.waves[w].open.push((key, true));
            self.waves[w].merging = Some(cycle);
            return Ok(true);
        }
        // As a child whose own splits are all merged: merge with the parent at the merge
        // point of the split that created it.
        let wave = &self.waves[w];
        if let (true, Some(p), true) = (wave.open.is_empty(), wave.parent, wave.origin == key) {
            if sm.warps[p].done {
                return Ok(false);
            }
            self.waves[w].merging = Some(cycle);
            let parent_waiting = self.waves[p].merging.is_some()
                && self.waves[p].children.last() == Some(&w)
                && self.waves[p].pc == self.waves[w].pc;
            if parent_waiting {
                let tp = self.waves[p].merging.unwrap_or(cycle);
                self.waves[p].open.pop();
                let pws = matches!(sm.machine.splitting, Splitting::Pws(_));
                self.merge(sm, p, w, cycle.max(tp), c, pws);
                self.woken.push(p);
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Merges `child` into `parent` (PWS §4.1): `SpM = SpM_p ∨ SpM_c`, the parent continues
    /// `e_m` cycles after the later arrival (past its `merge` instruction when
    /// `advance`), the child's context is freed.
    fn merge(
        &mut self,
        sm: &mut Sm,
        parent: usize,
        child: usize,
        at: u64,
        c: SplitCosts,
        advance: bool,
    ) {
        let spm = self.waves[child].spm;
        self.waves[child].merging = None;
        sm.retire(child);
        let p = &mut self.waves[parent];
        p.spm |= spm;
        p.merging = None;
        p.children.retain(|&x| x != child);
        let s = &mut sm.warps[parent];
        s.next_issue = s.next_issue.max(at.saturating_add(c.e_m));
        if advance {
            p.pc += 1;
        } else {
            p.merged_at = Some(p.pc);
        }
        let hw = p.hw;
        self.hws[hw].live = self.hws[hw].live.saturating_sub(1);
        let block = self.hws[hw].block;
        sm.blocks[block].live = sm.blocks[block].live.saturating_sub(1);
        sm.cycles = sm.cycles.max(at.saturating_add(c.e_m));
        self.depth_change(sm, hw, at.saturating_add(c.e_m));
    }

    pub(super) fn depth_change(&self, sm: &mut Sm, hw: usize, cycle: u64) {
        if !self.trace {
            return;
        }
        let depth = self.hws[hw].live as usize;
        let t = &mut sm.timelines[hw];
        if t.stack_depth.last().map(|c| c.depth) != Some(depth) {
            t.stack_depth.push(DepthChange { cycle, depth });
        }
    }

    /// Splits wave `w` with mask `m` (the parent keeps `SpM ∧ M`, Fig. 5b) if one of its
    /// `S` contexts is free; records the split (or its absence) for the matching merge.
    pub(super) fn split(
        &mut self,
        sm: &mut Sm,
        w: usize,
        m: u64,
        key: u32,
        cycle: u64,
        c: SplitCosts,
    ) -> Result<bool, SimError> {
        if self.waves[w].open.len() >= sm.budget.max_stack_depth {
            return Err(SimError::budget(
                "max_stack_depth",
                sm.budget.max_stack_depth,
                "the open splits of a wavefront",
            ));
        }
        let hw = self.waves[w].hw;
        let used = self.hws[hw].live.saturating_sub(1);
        if used >= c.s {
            self.waves[w].open.push((key, false));
            return Ok(false);
        }
        let (keep, give) = split_masks(self.waves[w].spm, m);
        let resume = cycle.saturating_add(c.e_s);
        let parent = &self.waves[w];
        let child = Wave {
            hw,
            sf: parent.sf.clone(),
            pc: parent.pc,
            spm: give,
            ready: parent.ready.clone(),
            vm: parent.vm.clone(),
            lgkm: parent.lgkm.clone(),
            merging: None,
            merged_at: None,
            parent: Some(w),
            children: Vec::new(),
            open: Vec::new(),
            origin: key,
            spsimd: true,
            ret: parent.ret.clone(),
        };
        self.waves.push(child);
        let block = self.hws[hw].block;
        let id = sm.add_warp(block, resume, false);
        sm.warps[id].class_free = sm.warps[w].class_free;
        let p = &mut self.waves[w];
        p.spm = keep;
        p.children.push(id);
        p.open.push((key, true));
        let s = &mut sm.warps[w];
        s.next_issue = s.next_issue.max(resume);
        self.hws[hw].live += 1;
        sm.blocks[block].live += 1;
        sm.blocks[block].warps.push(id);
        self.woken.push(id);
        self.depth_change(sm, hw, cycle + 1);
        Ok(true)
    }
}
