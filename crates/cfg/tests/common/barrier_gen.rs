//! The generator of structured sm_70-style kernels (convergence barriers, `BREAK` out of
//! loops, divergent back edges, predicated calls, `WARPSYNC`, `BRA.DIV`, early `EXIT`), shared
//! by the soundness properties of `cfg` (concrete paths are warp-CFG paths) and of the facade
//! (observed ≤ bound with shared loop bounds), which includes this file by path.

use crate::listing::Listing;

/// Structured sm_70-style programs: barrier `B<depth>` for each nesting level.
pub struct Gen {
    listing: Listing,
    subs: usize,
    /// Whether full-warp `WARPSYNC`s (and the paths that diverge outside any region to meet
    /// at one) are generated.
    warp_syncs: bool,
}

crate::listing::deref_to_listing!(Gen);

impl Gen {
    fn data(&mut self) {
        let (a, b, c, p) = (self.next(6), self.next(6), self.next(6), self.next(3));
        match self.next(9) {
            0 => self.emit(format!("S2R R{a}, SR_TID.X ;")),
            1 => self.emit(format!("ISETP.GE.AND P{p}, PT, R{a}, R{b}, PT ;")),
            2 => self.emit(format!("@P{p} IADD3 R{a}, R{a}, R{b}, RZ ;")),
            3 if self.warp_syncs => self.emit("WARPSYNC 0xffffffff ;"),
            // Constants (crate::consts): set on separate paths, they may make a guard agreed
            // when the paths meet again.
            6 => self.emit(format!("MOV R{a}, 0x{:x} ;", c % 3)),
            7 => self.emit(format!("IADD3 R{a}, R{b}, 0x1, RZ ;")),
            8 => self.emit(format!("ISETP.GT.AND P{p}, PT, R{a}, 0x1, PT ;")),
            _ => self.emit(format!("IADD3 R{a}, R{b}, R{c}, RZ ;")),
        }
    }

    /// `level`: nesting depth, which names the barrier; `breaks`: the barrier and label a
    /// `BREAK` may leave to (the enclosing region's `BSYNC`).
    fn body(&mut self, depth: u32, level: usize, exits: bool, outer: Option<(usize, String)>) {
        let n = 1 + self.next(3);
        for _ in 0..n {
            let pick = if depth == 0 { 0 } else { self.next(12) };
            let b = level;
            match pick {
                1 => {
                    // if-then-else
                    let (els, sync, end) = (self.fresh(), self.fresh(), self.fresh());
                    let c = self.cond();
                    self.emit(format!("BSSY B{b}, {end} ;"));
                    self.emit(format!("{c} BRA {els} ;"));
                    self.body(depth - 1, level + 1, exits, None);
                    self.emit(format!("BRA {sync} ;"));
                    self.emit(format!("{els}:"));
                    self.body(depth - 1, level + 1, exits, None);
                    self.emit(format!("{sync}:"));
                    self.emit(format!("BSYNC B{b} ;"));
                    self.emit(format!("{end}:"));
                }
                2 => {
                    // then-only
                    let (sync, end) = (self.fresh(), self.fresh());
                    let c = self.cond();
                    self.emit(format!("BSSY B{b}, {end} ;"));
                    self.emit(format!("{c} BRA {sync} ;"));
                    self.body(depth - 1, level + 1, exits, None);
                    self.emit(format!("{sync}:"));
                    self.emit(format!("BSYNC B{b} ;"));
                    self.emit(format!("{end}:"));
                }
                3 => {
                    // loop whose back edge may diverge
                    let (head, end) = (self.fresh(), self.fresh());
                    self.emit(format!("BSSY B{b}, {end} ;"));
                    self.emit(format!("{head}:"));
                    self.body(depth - 1, level + 1, false, None);
                    self.emit("IADD3 R4, R4, 0x1, RZ ;");
                    let p = self.next(3);
                    self.emit(format!("ISETP.LT.AND P{p}, PT, R4, R3, PT ;"));
                    self.emit(format!("@P{p} BRA {head} ;"));
                    self.emit(format!("BSYNC B{b} ;"));
                    self.emit(format!("{end}:"));
                }
                4 => {
                    // outer region holding an inner loop that breaks out to the outer BSYNC
                    let (osync, oend, head, iend) =
                        (self.fresh(), self.fresh(), self.fresh(), self.fresh());
                    let inner = b + 1;
                    self.emit(format!("BSSY B{b}, {oend} ;"));
                    self.emit(format!("BSSY B{inner}, {iend} ;"));
                    self.emit(format!("{head}:"));
                    self.body(depth - 1, level + 2, false, Some((inner, osync.clone())));
                    self.emit("IADD3 R5, R5, 0x1, RZ ;");
                    let p = self.next(3);
                    self.emit(format!("ISETP.GT.AND P{p}, PT, R5, R4, PT ;"));
                    self.emit(format!("@P{p} BREAK B{inner} ;"));
                    self.emit(format!("@P{p} BRA {osync} ;"));
                    let q = self.next(3);
                    self.emit(format!("@P{q} BRA {head} ;"));
                    self.emit(format!("BSYNC B{inner} ;"));
                    self.emit(format!("{iend}:"));
                    self.data();
                    self.emit(format!("{osync}:"));
                    self.emit(format!("BSYNC B{b} ;"));
                    self.emit(format!("{oend}:"));
                }
                5 if exits => {
                    let c = self.cond();
                    self.emit(format!("{c} EXIT ;"));
                }
                6 if self.subs > 0 => {
                    let subs = self.subs as u64;
                    let s = self.next(subs);
                    let c = if self.next(2) == 0 {
                        self.cond()
                    } else {
                        String::new()
                    };
                    if self.warp_syncs || c.is_empty() {
                        self.emit(format!("{c} CALL.REL.NOINC sub{s} ;"));
                    } else {
                        // The callers and the others meet again after the call, as nvcc
                        // brackets a predicated call.
                        let end = self.fresh();
                        self.emit(format!("BSSY B{b}, {end} ;"));
                        self.emit(format!("{c} CALL.REL.NOINC sub{s} ;"));
                        self.emit(format!("BSYNC B{b} ;"));
                        self.emit(format!("{end}:"));
                    }
                }
                8 if self.warp_syncs => {
                    // paths that diverge outside any region and meet at `__syncwarp()` (not a
                    // reconvergence point of the model yet: they run on separately)
                    let join = self.fresh();
                    let c = self.cond();
                    self.emit(format!("{c} BRA {join} ;"));
                    self.body(depth - 1, level, exits, outer.clone());
                    self.emit(format!("{join}:"));
                    if self.next(2) == 0 {
                        self.emit("WARPSYNC.ALL ;");
                    } else {
                        self.emit("WARPSYNC 0xffffffff ;");
                    }
                }
                9 => {
                    // a fast path for a converged warp
                    let slow = self.fresh();
                    let done = self.fresh();
                    self.emit(format!("BRA.DIV {slow} ;"));
                    self.data();
                    self.emit(format!("BRA {done} ;"));
                    self.emit(format!("{slow}:"));
                    self.data();
                    self.data();
                    self.emit(format!("{done}:"));
                }
                10 | 11 => {
                    // The same register set to constants on two paths that meet again at a
                    // `BSYNC` (10) or a full-warp `WARPSYNC` (11), then a guard computed from
                    // it: agreed after the join exactly when both constants are equal.
                    let (els, join, end) = (self.fresh(), self.fresh(), self.fresh());
                    let (r, p) = (self.next(6), self.next(3));
                    let (x, y) = (self.next(3), self.next(3));
                    let c = self.cond();
                    // Without full-warp `WARPSYNC`s, both shapes meet at a `BSYNC`.
                    let region = pick == 10 || !self.warp_syncs;
                    if region {
                        self.emit(format!("BSSY B{b}, {end} ;"));
                    }
                    self.emit(format!("{c} BRA {els} ;"));
                    self.emit(format!("MOV R{r}, 0x{x:x} ;"));
                    self.emit(format!("BRA {join} ;"));
                    self.emit(format!("{els}:"));
                    self.emit(format!("MOV R{r}, 0x{y:x} ;"));
                    self.emit(format!("{join}:"));
                    if region {
                        self.emit(format!("BSYNC B{b} ;"));
                    } else {
                        self.emit("WARPSYNC.ALL ;");
                    }
                    self.emit(format!("{end}:"));
                    self.emit(format!("ISETP.GT.AND P{p}, PT, R{r}, 0x1, PT ;"));
                    let (skip, after) = (self.fresh(), self.fresh());
                    self.emit(format!("BSSY B{b}, {after} ;"));
                    self.emit(format!("@P{p} BRA {skip} ;"));
                    self.emit(format!("IADD3 R{r}, R{r}, 0x1, RZ ;"));
                    self.emit(format!("{skip}:"));
                    self.emit(format!("BSYNC B{b} ;"));
                    self.emit(format!("{after}:"));
                }
                7 if outer.is_some() => {
                    // an extra conditional break out of the loop, from inside its body
                    let Some((ob, label)) = outer.clone() else {
                        continue;
                    };
                    let c = self.cond();
                    self.emit(format!("{c} BREAK B{ob} ;"));
                    self.emit(format!("{c} BRA {label} ;"));
                }
                _ => self.data(),
            }
        }
    }

    #[allow(dead_code)]
    pub fn kernel(seed: u64) -> String {
        Self::generate(seed, true)
    }

    /// As [`Gen::kernel`] without full-warp `WARPSYNC`s, without paths that diverge outside
    /// any region, and with every predicated call in a region of its own (`BSSY`, call,
    /// `BSYNC`): every divergence reconverges at a `BSYNC`, the programs for which the
    /// interleaving argument of `cfg::barriers` holds exactly (see `tests/interleaving.rs`).
    #[allow(dead_code)]
    pub fn kernel_without_warp_syncs(seed: u64) -> String {
        Self::generate(seed, false)
    }

    /// `check` on the kernel of `seed` ([`Gen::kernel_without_warp_syncs`] when `strict`,
    /// else [`Gen::kernel`]); an error carries the kernel's text.
    #[allow(dead_code)]
    pub fn check_kernel<T>(
        seed: u64,
        strict: bool,
        check: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<(), String> {
        let src = Self::generate(seed, !strict);
        check(&src)
            .map(drop)
            .map_err(|e| format!("{e}\n--- kernel ---\n{src}"))
    }

    fn generate(seed: u64, warp_syncs: bool) -> String {
        let mut g = Gen {
            listing: Listing::new(seed ^ 0x9E37_79B9_7F4A_7C15),
            subs: 0,
            warp_syncs,
        };
        g.subs = g.next(3) as usize;
        g.emit("S2R R0, SR_TID.X ;");
        g.emit("S2R R3, SR_TID.X ;");
        g.body(2, 0, true, None);
        g.emit("EXIT ;");
        for s in 0..g.subs {
            g.emit(format!("sub{s}:"));
            let saved = g.subs;
            g.subs = 0;
            // Callees use barriers above the callers' (as nvcc saves B6 with BMOV).
            g.body(1, 8, false, None);
            g.subs = saved;
            g.emit("RET.REL.NODEC R20 0x0 ;");
        }
        g.text()
    }
}
