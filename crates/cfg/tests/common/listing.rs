//! What every generator of random structured kernels in these tests builds on: a linear
//! congruential generator (the seed decides every choice), fresh labels `L1`, `L2`, … and
//! the lines emitted so far. Included by path by `cfg`'s and the facade's generators
//! (`barrier_gen.rs`, `soundness.rs`, `warpbound/tests/block_soundness.rs`).

/// The random choices, labels and lines of one generated kernel.
pub struct Listing {
    state: u64,
    label: usize,
    out: Vec<String>,
}

impl Listing {
    /// An empty listing whose choices follow from `state`.
    pub fn new(state: u64) -> Self {
        Listing {
            state,
            label: 0,
            out: Vec::new(),
        }
    }

    /// A choice in `0..n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 33) % n
    }

    /// A label not used before.
    pub fn fresh(&mut self) -> String {
        self.label += 1;
        format!("L{}", self.label)
    }

    /// A guard on one of `P0`–`P2`, either sense.
    #[allow(dead_code)]
    pub fn cond(&mut self) -> String {
        let p = self.next(3);
        if self.next(2) == 0 {
            format!("@P{p}")
        } else {
            format!("@!P{p}")
        }
    }

    /// Appends one line.
    pub fn emit(&mut self, s: impl Into<String>) {
        self.out.push(s.into());
    }

    /// The lines so far, one a line.
    pub fn text(&self) -> String {
        self.out.join("\n")
    }
}

/// `Deref` and `DerefMut` to the `listing: Listing` field of a generator, so that its code
/// calls `self.next(…)`, `self.fresh()` and `self.emit(…)` directly.
macro_rules! deref_to_listing {
    ($gen:ty) => {
        impl std::ops::Deref for $gen {
            type Target = Listing;
            fn deref(&self) -> &Listing {
                &self.listing
            }
        }

        impl std::ops::DerefMut for $gen {
            fn deref_mut(&mut self) -> &mut Listing {
                &mut self.listing
            }
        }
    };
}
pub(crate) use deref_to_listing;
