//! Closed-form bounds: the pessimistic bound of §4 (Eq. 5–7) and a bound that stays valid
//! for every sigma.

use crate::model::Transformed;

/// `⌈a/b⌉`; a zero `b` (a hand-built [`Transformed`] with sigma 0: that unit never issues)
/// gives `u64::MAX` for positive `a`, "no finite bound".
fn ceil_div(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, _) => 0,
        (_, 0) => u64::MAX,
        _ => a.div_ceil(b),
    }
}

/// `⌊a/b⌋` with the same convention for `b = 0`.
fn floor_div(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, _) => 0,
        (_, 0) => u64::MAX,
        _ => a / b,
    }
}

/// The pessimistic makespan of §4, Eq. 5–7, on the transformed string.
///
/// My reading of the (partly garbled) equations: the string is split into `α_L` (its `I_L`
/// `L`s, Eq. 3) and `α_C` (its `I_C` `C`s, Eq. 4); the bound assumes that whenever a warp
/// issues an instruction, *all* `W` warps compete for the same unit type, so every `L`
/// instruction of the string costs `⌈W/σ_L⌉` cycles and every `C` instruction `⌈W/σ_C⌉`:
///
/// * Eq. 6: `T_L = ⌈W/σ_L⌉ · I_L`
/// * Eq. 7: `T_C = ⌈W/σ_C⌉ · I_C`
/// * Eq. 5: `T = T_L + T_C`
///
/// Examples: `W = 600`, `"LLCLL"`, `σ = 1` (Fig. 6) gives `3000`; `W = 420`, `"LCLCL"` on cc
/// 2.0 (transformed `"LLCLLCLL"`, Fig. 7) gives `3360`.
///
/// **Validity.** In the paper's setting, where the transformation always yields
/// `σ_L = σ_C = 1`, this is `W · I`, and every work-conserving schedule issues at least one
/// instruction per cycle, so it is a true upper bound. With the generalised transformation
/// (`σ > 1`, e.g. `σ_C = 3` on cc 2.1) it is **not** always safe: with `σ_C = 2`, four warps
/// running `"CC"` can take 5 cycles (the scheduler starves one warp until it runs alone)
/// while Eq. 5–7 gives 4. Use [`safe_bound`] when `σ > 1`.
///
/// `warps = 0` or an empty string gives 0. Saturates instead of overflowing; a sigma of 0
/// (only possible in a hand-built [`Transformed`]) with instructions of that type gives
/// `u64::MAX`.
pub fn pessimistic(t: &Transformed, warps: u32) -> u64 {
    let (il, ic) = t.counts();
    let w = u64::from(warps);
    let tl = if il == 0 {
        0
    } else {
        ceil_div(w, u64::from(t.sigma_l)).saturating_mul(il)
    };
    let tc = if ic == 0 {
        0
    } else {
        ceil_div(w, u64::from(t.sigma_c)).saturating_mul(ic)
    };
    tl.saturating_add(tc)
}

/// An upper bound on the worst-case makespan that holds for every sigma (it equals Eq. 5–7
/// when `σ_L = σ_C = 1`): `min(W·I, ⌊W·I_L/σ_L⌋ + ⌊W·I_C/σ_C⌋ + I)`.
///
/// Why it holds, for any work-conserving schedule: every cycle before the end issues at
/// least one instruction (an unfinished warp's next instruction is always ready), so there
/// are at most `W·I` cycles. Moreover each cycle is either *L-saturated* (`σ_L` `L`s
/// issued; at most `⌊W·I_L/σ_L⌋` such cycles), *C-saturated* (at most `⌊W·I_C/σ_C⌋`), or
/// neither — and then fewer warps were ready for each type than its sigma, so *every*
/// unfinished warp advanced; the warp that finishes last advances in all of those cycles,
/// so there are at most `I` of them.
///
/// This is the horizon `T` of the ILP (§5 uses Eq. 5 there, which is the same number for
/// `σ = 1`). `warps = 0` or an empty string gives 0; a zero sigma with instructions of that
/// type gives `u64::MAX`.
pub fn safe_bound(t: &Transformed, warps: u32) -> u64 {
    let (il, ic) = t.counts();
    let w = u64::from(warps);
    if w == 0 || t.instrs.is_empty() {
        return 0;
    }
    if (il > 0 && t.sigma_l == 0) || (ic > 0 && t.sigma_c == 0) {
        return u64::MAX;
    }
    let total = w.saturating_mul(il + ic);
    let split = floor_div(w.saturating_mul(il), u64::from(t.sigma_l))
        .saturating_add(floor_div(w.saturating_mul(ic), u64::from(t.sigma_c)))
        .saturating_add(il + ic);
    total.min(split)
}
