//! DRAM refresh at its real times (§3.2, §5.8).
//!
//! The WCET charges refresh as Eq. 19's inflation: one `nRFC` for every `nREFI − nRFC` cycles
//! of the schedule, as if each refresh blocked the critical path. An execution instead issues
//! refresh `k` when it falls due, at `k · nREFI`, if the DRAM is idle, and otherwise right
//! after the DRAM phase in progress (the reference controller refreshes only between
//! requests, with its command FIFOs empty): a phase is delayed by a refresh only when one is
//! due before it can start.

use crate::dram::DramTiming;

/// Refreshes due and done, in compute cycles.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RefreshClock {
    enabled: bool,
    interval: u64,
    duration: u64,
    next_due: u64,
    pub(crate) count: u64,
    pub(crate) busy: u64,
}

impl RefreshClock {
    pub(crate) fn new(t: &DramTiming, compute_mhz: u64, enabled: bool) -> Self {
        // nREFI rounded down and nRFC rounded up: refreshes at least as often and as long.
        let interval = (u128::from(t.n_refi) * u128::from(compute_mhz)
            / u128::from(t.clock_mhz.max(1)))
        .max(1);
        RefreshClock {
            enabled,
            interval: u64::try_from(interval).unwrap_or(u64::MAX),
            duration: t.to_compute_cycles(t.n_rfc, compute_mhz),
            next_due: u64::try_from(interval).unwrap_or(u64::MAX),
            count: 0,
            busy: 0,
        }
    }

    /// Runs every refresh due by the time a DRAM phase that is ready at `ready` could start on
    /// a DRAM free from `*free`, each at the later of its due time and `*free`; `*free`
    /// becomes the end of the last. `emit(start, end)` receives each.
    pub(crate) fn settle(&mut self, ready: u64, free: &mut u64, mut emit: impl FnMut(u64, u64)) {
        while self.enabled && self.next_due <= ready.max(*free) {
            let start = self.next_due.max(*free);
            let end = start.saturating_add(self.duration);
            emit(start, end);
            *free = end;
            self.next_due = self.next_due.saturating_add(self.interval);
            self.count += 1;
            self.busy = self.busy.saturating_add(self.duration);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dram::DramPreset;

    /// DDR4-3200AA (1600 MHz) at 1 GHz: nREFI 12480 → 7800 compute cycles, nRFC 560 → 350.
    /// A phase ready at 7900 on an idle DRAM waits for the refresh due at 7800: free at 8150.
    /// A DRAM busy until 16000 postpones refresh 2 (due 15600) to [16000, 16350).
    #[test]
    fn refresh_at_due_time_or_after_the_busy_phase() {
        let t = DramPreset::Ddr4_3200aa2bg.timing();
        let mut c = RefreshClock::new(&t, 1000, true);
        let mut got = Vec::new();
        let mut free = 0;
        c.settle(7000, &mut free, |s, e| got.push((s, e)));
        assert!(got.is_empty());
        c.settle(7900, &mut free, |s, e| got.push((s, e)));
        assert_eq!((got.clone(), free), (vec![(7800, 8150)], 8150));
        let mut free = 16_000;
        c.settle(15_000, &mut free, |s, e| got.push((s, e)));
        assert_eq!(got.last(), Some(&(16_000, 16_350)));
        assert_eq!((c.count, c.busy), (2, 700));
    }
}
