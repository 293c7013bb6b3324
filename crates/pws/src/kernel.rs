//! Kernel WCET from the wavefront WCET: Eq. 2, Def. 5.2, Def. 5.3, Lemma 5.5 (PWS),
//! Lemma 5.7 (DWS) and the no-splitting baseline (Lemma 5.7 with `S = 0`).

use crate::error::{Error, ErrorKind};
use crate::hardware::{Hardware, Launch};

/// The numbers behind one kernel bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelBound {
    /// `N_SIMD^total` (Eq. 2 for PWS; `N_SIMD` for DWS and no splitting, which have no
    /// SpSIMD units to re-provision).
    pub n_simd_total: u64,
    /// `G_parallel` (Def. 5.2).
    pub g_parallel: u64,
    /// `DS` (Def. 5.3).
    pub dispatches: u64,
    /// Time from one dispatch to the next: `d + E_WF` (PWS, no split) or
    /// `d + (S + 1) · E_WF` (DWS).
    pub round: u64,
    /// `E_kernel = DS · round`.
    pub e_kernel: u64,
}

/// Eq. 2 (PWS §4.2): `N_SIMD^total = N_SIMD + ⌊N_unused · N_SIMD / (|SB| + 1)⌋` with
/// `N_unused = S − |SB|`. Select can return more than `S` branches (sequence reuse); then
/// no SpSIMD is idle and `N_unused` is 0 (saturating subtraction — our reading, the paper
/// defines `N_unused` only for `|SB| < S`).
pub fn n_simd_total(hw: &Hardware, sb_len: u64) -> Result<u64, Error> {
    let unused = u64::from(hw.s).saturating_sub(sb_len);
    let extra = unused
        .checked_mul(hw.n_simd)
        .ok_or_else(|| Error::overflow("N_unused × N_SIMD"))?
        / sb_len.saturating_add(1);
    hw.n_simd
        .checked_add(extra)
        .ok_or_else(|| Error::overflow("N_SIMD^total"))
}

/// Def. 5.2: `G_parallel = ⌊N_CU · N_SIMD^total · N_WFC · N_WIWF / N_WIWG⌋`.
///
/// # Errors
/// `N_WIWG = 0`, or a workgroup larger than all wavefront contexts together
/// (`G_parallel = 0`: the kernel could never be dispatched).
pub fn g_parallel(hw: &Hardware, n_simd_total: u64, launch: &Launch) -> Result<u64, Error> {
    if launch.work_items_per_group == 0 {
        return Err(Error::global(
            ErrorKind::Hardware,
            "work_items_per_group (N_WIWG) must be at least 1",
        ));
    }
    let items = [hw.n_cu, n_simd_total, hw.n_wfc, hw.n_wiwf]
        .iter()
        .try_fold(1u128, |acc, &x| acc.checked_mul(u128::from(x)))
        .ok_or_else(|| Error::overflow("the number of hardware work-items"))?;
    let g = items / u128::from(launch.work_items_per_group);
    if g == 0 {
        return Err(Error::global(
            ErrorKind::Hardware,
            format!(
                "a workgroup of {} work-items does not fit in the GPU's {items} work-item contexts (N_CU·N_SIMD·N_WFC·N_WIWF): G_parallel = 0",
                launch.work_items_per_group
            ),
        ));
    }
    Ok(u64::try_from(g).unwrap_or(u64::MAX))
}

/// Def. 5.3: `DS = ⌈G / G_parallel⌉`.
pub fn dispatches(launch: &Launch, g_parallel: u64) -> u64 {
    if g_parallel == 0 {
        return 0;
    }
    launch.workgroups.div_ceil(g_parallel)
}

fn bound(
    hw: &Hardware,
    launch: &Launch,
    n_simd_total: u64,
    round: Option<u64>,
) -> Result<KernelBound, Error> {
    let round = round.ok_or_else(|| Error::overflow("the dispatch round d + E_WF"))?;
    let g_parallel = g_parallel(hw, n_simd_total, launch)?;
    let ds = dispatches(launch, g_parallel);
    let e_kernel = ds
        .checked_mul(round)
        .ok_or_else(|| Error::overflow("E_kernel"))?;
    Ok(KernelBound {
        n_simd_total,
        g_parallel,
        dispatches: ds,
        round,
        e_kernel,
    })
}

/// Lemma 5.5 (Eq. 6): `E_kernel^PWS = DS · (d + E_WF^PWS)`, with `DS` from the
/// re-provisioned `N_SIMD^total` of Eq. 2.
pub fn pws_kernel(
    hw: &Hardware,
    launch: &Launch,
    e_wf: u64,
    sb_len: u64,
) -> Result<KernelBound, Error> {
    let total = n_simd_total(hw, sb_len)?;
    bound(hw, launch, total, hw.d.checked_add(e_wf))
}

/// Lemma 5.7 (Eq. 8): `E_kernel^DWS = DS · (d + (S + 1) · E_WF^DWS)`: without dedicated
/// SpSIMDs the `S` split wavefronts of a wavefront may run one after another on its SIMD.
pub fn dws_kernel(hw: &Hardware, launch: &Launch, e_wf_dws: u64) -> Result<KernelBound, Error> {
    let serial = u64::from(hw.s)
        .checked_add(1)
        .and_then(|k| k.checked_mul(e_wf_dws));
    bound(
        hw,
        launch,
        hw.n_simd,
        serial.and_then(|x| hw.d.checked_add(x)),
    )
}

/// No splitting (today's GPUs): Lemma 5.7 with `S = 0` ("if S = 0, E_kernel is the WCET of
/// the kernel without splitting"): `DS · (d + E_WF)` on `N_SIMD` SIMDs.
pub fn no_split_kernel(hw: &Hardware, launch: &Launch, e_wf: u64) -> Result<KernelBound, Error> {
    bound(hw, launch, hw.n_simd, hw.d.checked_add(e_wf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq2_example_three_spsimds_one_split_gives_eight_simds() {
        // §4.2: "four SIMD units with three SpSIMDs allocated per SIMD unit (S = 3) ... |SB| = 1
        // ... re-provisioned into four SIMDs and four SpSIMDs, for a total of eight SIMD units":
        // 4 + ⌊(3 − 1) · 4 / (1 + 1)⌋ = 4 + 4 = 8.
        let hw = Hardware {
            s: 3,
            ..Hardware::gem5_gcn3()
        };
        assert_eq!(n_simd_total(&hw, 1).ok(), Some(8));
        // All SpSIMDs in use: no re-provisioning.
        assert_eq!(n_simd_total(&hw, 3).ok(), Some(4));
        // No split at all: 4 + 3·4/1 = 16.
        assert_eq!(n_simd_total(&hw, 0).ok(), Some(16));
    }

    #[test]
    fn def52_def53_dispatch_count() {
        // 4 CUs × 4 SIMDs × 10 contexts × 64 work-items = 10 240 work-items; workgroups of
        // 256 → G_parallel = 40; 100 workgroups → DS = ⌈100/40⌉ = 3.
        let hw = Hardware::gem5_gcn3();
        let launch = Launch {
            workgroups: 100,
            work_items_per_group: 256,
        };
        assert_eq!(g_parallel(&hw, 4, &launch).ok(), Some(40));
        assert_eq!(dispatches(&launch, 40), 3);
        // Lemma 5.7 with S = 1, d = 1, E_WF = 10: 3 · (1 + 2·10) = 63.
        let dws = dws_kernel(&hw, &launch, 10).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dws.e_kernel, 63);
        // Lemma 5.5 with |SB| = 1 (no idle SpSIMD), E_WF = 10: 3 · 11 = 33.
        let pws = pws_kernel(&hw, &launch, 10, 1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pws.e_kernel, 33);
    }

    #[test]
    fn oversized_workgroup_is_an_error() {
        let launch = Launch {
            workgroups: 1,
            work_items_per_group: 1 << 20,
        };
        assert!(g_parallel(&Hardware::gem5_gcn3(), 4, &launch).is_err());
    }
}
