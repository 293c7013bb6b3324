//! A kernel-instance launch: NDRange and work-group shape (Sim-D §2.1, §3).

use crate::error::Error;

/// NDRange and work-group width. A work-group holds `work_items` (1024) work-items, so its
/// height is `work_items / wg_width`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    /// NDRange in work-items, X and Y.
    pub nd_range: [u64; 2],
    /// Work-group width N (a power of two ≥ 32; default 32).
    pub wg_width: u64,
}

impl Launch {
    pub fn new(x: u64, y: u64, wg_width: u64) -> Self {
        Launch {
            nd_range: [x, y],
            wg_width,
        }
    }

    /// Parses the reference tool's launch arguments, `-d X[,Y] [-w N]` (other words, such
    /// as the kernel path, are ignored); N defaults to 32 and Y to 1.
    pub fn from_arguments(args: &str) -> Result<Launch, Error> {
        let mut words = args.split_whitespace();
        let mut dims = None;
        let mut width = 32;
        while let Some(w) = words.next() {
            match w {
                "-d" => {
                    let v = words.next().unwrap_or("");
                    let mut it = v.split(',');
                    let x = it.next().and_then(|s| s.parse::<u64>().ok());
                    let y = match it.next() {
                        Some(s) => s.parse::<u64>().ok(),
                        None => Some(1),
                    };
                    match (x, y, it.next()) {
                        (Some(x), Some(y), None) => dims = Some([x, y]),
                        _ => return Err(Error::request(format!("-d expects X[,Y], got `{v}`"))),
                    }
                }
                "-w" => {
                    let v = words.next().unwrap_or("");
                    width = v
                        .parse()
                        .map_err(|_| Error::request(format!("-w expects a number, got `{v}`")))?;
                }
                _ => {}
            }
        }
        let Some(nd_range) = dims else {
            return Err(Error::request("no NDRange given (-d X,Y)"));
        };
        Ok(Launch {
            nd_range,
            wg_width: width,
        })
    }

    pub fn validate(&self, work_items: u64) -> Result<(), Error> {
        let w = self.wg_width;
        if !w.is_power_of_two() || w < 32 || w > work_items {
            return Err(Error::request(format!(
                "work-group width must be a power of two between 32 and {work_items}, got {w}"
            )));
        }
        if self.nd_range[0] == 0 || self.nd_range[1] == 0 {
            return Err(Error::request("the NDRange is empty"));
        }
        Ok(())
    }

    /// Work-group height `work_items / wg_width`.
    pub fn wg_height(&self, work_items: u64) -> u64 {
        work_items / self.wg_width.max(1)
    }

    /// w, the number of work-groups: ⌈X/N⌉ · ⌈Y/(work_items/N)⌉ (strip-mining, §2.1).
    pub fn work_groups(&self, work_items: u64) -> u64 {
        let h = self.wg_height(work_items).max(1);
        self.nd_range[0]
            .div_ceil(self.wg_width.max(1))
            .saturating_mul(self.nd_range[1].div_ceil(h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cnn_convolution's launch: -d 218,14336 -w 32 → ⌈218/32⌉ · ⌈14336/32⌉ = 7 · 448 = 3136.
    #[test]
    fn work_groups_from_reference_arguments() {
        let l = Launch::from_arguments("-d 218,14336 -w 32 src/kernels/cnn_convolution.sas").ok();
        assert_eq!(l, Some(Launch::new(218, 14336, 32)));
        assert_eq!(l.map(|l| l.work_groups(1024)), Some(3136));
        // fft: no -w, so N = 32: ⌈128/32⌉ · ⌈1024/32⌉ = 4 · 32 = 128.
        let f = Launch::from_arguments("-d 128,1024 src/kernels/fft_ldsp_stsp.sas").ok();
        assert_eq!(f.map(|l| l.work_groups(1024)), Some(128));
        assert!(Launch::new(10, 10, 48).validate(1024).is_err());
    }
}
