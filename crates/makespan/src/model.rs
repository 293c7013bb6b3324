//! The platform model of §2 and the sigma transformation of §3. The kernel instruction string
//! itself (§3) is `isa::lc`'s: [`LcOp`] and its parser `isa::lc::parse_kernel`.

use isa::lc::{to_text, LcOp};

/// Transitional name of [`LcOp`], kept only until the facade (`crates/warpbound`) names
/// `isa::lc::LcOp` itself; the kernel-string type and its parser live in `isa::lc`.
pub type Unit = LcOp;

/// Why a computation gave no answer.
///
/// Nothing in this crate panics on bad input: malformed input is [`Error::Invalid`], and an
/// instance too large for the configured [`crate::Budget`] is [`Error::Budget`], naming the
/// budget field that ran out so a caller can raise exactly that one.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A budget ran out. `what` is the name of the [`crate::Budget`] field (`max_states`,
    /// `max_ilp_variables` or `max_bb_nodes`) and `limit` its value.
    Budget {
        /// Name of the exhausted budget field.
        what: String,
        /// The value of that field.
        limit: usize,
    },
    /// The input is malformed (a unit count or the warp size is zero, an unknown symbol in a
    /// kernel string, a transformed string too long to build, …).
    Invalid(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Budget { what, limit } => write!(
                f,
                "budget `{what}` exhausted (limit {limit}); raise `{what}` or shrink the instance"
            ),
            Error::Invalid(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// A streaming multiprocessor as §2 models it: `ls_units` load/store units (the paper's
/// `L`), `cores` CUDA cores (`C`) and warps of `warp_size` threads (`S`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// Number of load/store units per SM (`L`).
    pub ls_units: u32,
    /// Number of CUDA cores per SM (`C`).
    pub cores: u32,
    /// Threads per warp (`S`).
    pub warp_size: u32,
}

impl Machine {
    /// Fermi, compute capability 2.0: 16 load/store units, 32 CUDA cores, warps of 32.
    ///
    /// Sources: the CUDA C Programming Guide (appendix "Compute Capabilities", compute
    /// capability 2.x: 32 CUDA cores per multiprocessor for 2.0, 48 for 2.1; warps of 32
    /// threads), which the paper cites for these numbers (§3, its ref. [17]), and the paper's
    /// own "compute capability 2.0 has only L = 16 load/store units" (§3). This is the one
    /// definition of the preset `fermi-cc2.0` (see [`crate::presets`]).
    pub fn fermi_cc20() -> Self {
        Machine {
            ls_units: 16,
            cores: 32,
            warp_size: 32,
        }
    }

    /// Fermi, compute capability 2.1: 16 load/store units, 48 CUDA cores, warps of 32.
    ///
    /// Sources as for [`Machine::fermi_cc20`]: 48 CUDA cores per multiprocessor (CUDA C
    /// Programming Guide, compute capability 2.1; the paper's §3); the paper gives the
    /// load/store-unit count only for 2.0, and the same 16 units are taken here. The one
    /// definition of the preset `fermi-cc2.1` (see [`crate::presets`]).
    pub fn fermi_cc21() -> Self {
        Machine {
            ls_units: 16,
            cores: 48,
            warp_size: 32,
        }
    }
}

/// A kernel instruction string after the sigma transformation (§3, Fig. 1).
///
/// After the transformation every instruction takes one cycle on one unit "lane", at most
/// `sigma_l` warps can run an `L` instruction and at most `sigma_c` warps a `C` instruction
/// in the same cycle. All later analyses (Eq. 5–7, the ILP of Fig. 3, the exact search and
/// the estimate of Eq. 42–43) work on this form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transformed {
    /// The transformed string, one entry per (sub-warp) instruction.
    pub instrs: Vec<LcOp>,
    /// Warps that can execute an `L` instruction in the same cycle (an integer `σ_L`).
    pub sigma_l: u32,
    /// Warps that can execute a `C` instruction in the same cycle (an integer `σ_C`).
    pub sigma_c: u32,
    /// How many consecutive `L`s each original `L` became.
    pub factor_l: u32,
    /// How many consecutive `C`s each original `C` became.
    pub factor_c: u32,
    /// `instrs` as a string of `L` and `C` letters (e.g. `"LLC"`).
    pub text: String,
}

/// Transformed strings longer than this are refused: the exact methods could not handle
/// them anyway, and refusing keeps a huge `warp_size` from exhausting memory.
pub const MAX_TRANSFORMED_LEN: usize = 1 << 20;

impl Transformed {
    /// Builds a transformed string directly from integer sigma values (factors 1), e.g. to
    /// study a hypothetical machine with `σ_C = 3` without going through a [`Machine`].
    ///
    /// # Errors
    /// [`Error::Invalid`] when a sigma is 0 or the string is longer than
    /// [`MAX_TRANSFORMED_LEN`].
    pub fn from_sigmas(instrs: Vec<LcOp>, sigma_l: u32, sigma_c: u32) -> Result<Self, Error> {
        if sigma_l == 0 || sigma_c == 0 {
            return Err(Error::Invalid(format!(
                "sigma values must be positive (sigma_l = {sigma_l}, sigma_c = {sigma_c})"
            )));
        }
        if instrs.len() > MAX_TRANSFORMED_LEN {
            return Err(Error::Invalid(format!(
                "the string has {} instructions, more than {MAX_TRANSFORMED_LEN}",
                instrs.len()
            )));
        }
        let text = to_text(&instrs);
        Ok(Transformed {
            instrs,
            sigma_l,
            sigma_c,
            factor_l: 1,
            factor_c: 1,
            text,
        })
    }

    /// The sigma of a unit type.
    pub fn sigma(&self, unit: LcOp) -> u32 {
        match unit {
            LcOp::L => self.sigma_l,
            LcOp::C => self.sigma_c,
        }
    }

    /// `(I_L, I_C)`: how many `L` and `C` instructions the transformed string holds (§4).
    pub fn counts(&self) -> (u64, u64) {
        let l = self.instrs.iter().filter(|u| **u == LcOp::L).count() as u64;
        (l, self.instrs.len() as u64 - l)
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// `(factor, sigma)` of one unit type: with `U` units and warps of `S` threads, a warp
/// instruction is `S / gcd(S, U)` consecutive sub-warp instructions, of which
/// `U / gcd(S, U)` can run in the same cycle.
///
/// This generalises §3: the paper writes `σ_U = U/S` (Eq. 1–2) and, for `U | S`, replaces
/// each instruction by `n = S/U` sub-warp instructions with `σ_U = 1`. With
/// `g = gcd(S, U)` the reduced fraction `U/S = (U/g)/(S/g)` gives the same thing when
/// `U | S` (`g = U`), and for `S | U` it keeps one instruction per warp with `σ = U/S`;
/// cc 2.1's 48 cores with `S = 32` (`g = 16`) give factor 2 and `σ_C = 3`: three warps'
/// half-warps per cycle, one warp instruction over two cycles.
pub fn sigma_factor(units: u32, warp_size: u32) -> Result<(u32, u32), Error> {
    if units == 0 || warp_size == 0 {
        return Err(Error::Invalid(format!(
            "unit count ({units}) and warp size ({warp_size}) must be positive"
        )));
    }
    let g = gcd(warp_size, units);
    Ok((warp_size / g, units / g))
}

/// The sigma transformation of §3 (Fig. 1), generalised to any unit count (see
/// [`sigma_factor`]): every instruction of a unit type becomes `factor` consecutive
/// instructions of that type, and the sigma values become integers.
///
/// Example (cc 2.0, `L = 16`, `C = 32`, `S = 32`): `"LC"` → `"LLC"` with `σ_L = σ_C = 1`.
///
/// # Errors
/// [`Error::Invalid`] when `ls_units`, `cores` or `warp_size` is 0, or the transformed string
/// would be longer than [`MAX_TRANSFORMED_LEN`].
pub fn transform(kernel: &[LcOp], m: &Machine) -> Result<Transformed, Error> {
    let (factor_l, sigma_l) = sigma_factor(m.ls_units, m.warp_size)?;
    let (factor_c, sigma_c) = sigma_factor(m.cores, m.warp_size)?;
    let mut len: u64 = 0;
    for u in kernel {
        len += u64::from(match u {
            LcOp::L => factor_l,
            LcOp::C => factor_c,
        });
        if len > MAX_TRANSFORMED_LEN as u64 {
            return Err(Error::Invalid(format!(
                "the transformed string would have more than {MAX_TRANSFORMED_LEN} instructions"
            )));
        }
    }
    let mut instrs = Vec::with_capacity(len as usize);
    for &u in kernel {
        let f = match u {
            LcOp::L => factor_l,
            LcOp::C => factor_c,
        };
        instrs.extend(std::iter::repeat_n(u, f as usize));
    }
    let text = to_text(&instrs);
    Ok(Transformed {
        instrs,
        sigma_l,
        sigma_c,
        factor_l,
        factor_c,
        text,
    })
}
