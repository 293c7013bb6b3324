//! DDR4 timing (Sim-D Table 1) and the longest-issue-delay (LID) equations of §5.3
//! (Eq. 15 for tiled transfers, Eq. 16 for indexed-iterative transfers), the conversion
//! from DRAM to compute cycles, and DRAM refresh inflation (Eq. 19, §5.8).
//!
//! All latencies here are in DRAM command-clock cycles (`tCK`) unless a name says
//! `compute`.

/// The DRAM configurations of the paper (Table 1 and Table 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DramPreset {
    /// Micron MT40A512M16JY-062E, DDR4-3200AA, x16, 2 bank groups (Table 1 column 1).
    /// The reference tool's build default.
    #[default]
    Ddr4_3200aa2bg,
    /// Micron MT40A1G8SA-062E, DDR4-3200AA, x8, 4 bank groups (Table 1 column 2).
    Ddr4_3200aa4bg,
    /// DDR4-1866M (Table 3). Table 1 does not list it; the values are Ramulator's
    /// `DDR4_1866M` speed bin for an 8 Gb x16 part, as the reference tool uses them
    /// (`ramulator_1866m_2bg` in its `ddr4_lid.cpp`).
    Ddr4_1866m,
}

impl DramPreset {
    pub const ALL: [DramPreset; 3] = [
        DramPreset::Ddr4_3200aa2bg,
        DramPreset::Ddr4_3200aa4bg,
        DramPreset::Ddr4_1866m,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DramPreset::Ddr4_3200aa2bg => "ddr4-3200aa-2bg",
            DramPreset::Ddr4_3200aa4bg => "ddr4-3200aa-4bg",
            DramPreset::Ddr4_1866m => "ddr4-1866m",
        }
    }

    pub fn from_name(s: &str) -> Option<DramPreset> {
        DramPreset::ALL.into_iter().find(|p| p.name() == s)
    }

    /// Where the numbers come from.
    pub fn source(self) -> &'static str {
        match self {
            DramPreset::Ddr4_3200aa2bg => "Sim-D Table 1 (1) 2BG: Micron MT40A512M16JY-062E",
            DramPreset::Ddr4_3200aa4bg => "Sim-D Table 1 (2) 4BG: Micron MT40A1G8SA-062E",
            DramPreset::Ddr4_1866m => {
                "Sim-D Table 3 (DDR4-1866M); timings of Ramulator's DDR4_1866M bin as used by the reference tool"
            }
        }
    }

    pub fn timing(self) -> DramTiming {
        match self {
            // Table 1, column (1).
            DramPreset::Ddr4_3200aa2bg => DramTiming {
                banks: 8,
                bank_groups: 2,
                rows: 65536,
                columns: 1024,
                words_per_burst: 16,
                bus_bytes: 8,
                clock_mhz: 1600,
                n_rcd: 22,
                n_cas: 22,
                n_cwd: 16,
                n_rp: 22,
                n_burst: 4,
                n_ras: 52,
                n_rtp: 12,
                n_wr: 24,
                n_rfc: 560,
                n_refi: 12480,
                n_ccd_s: 4,
                n_ccd_l: 8,
                n_rrd_s: 9,
                n_rrd_l: 11,
                n_faw: 48,
                n_wtr_s: 4,
                n_wtr_l: 12,
            },
            // Table 1, column (2): as (1) but 16 banks in 4 groups and shorter nRRD.
            DramPreset::Ddr4_3200aa4bg => DramTiming {
                banks: 16,
                bank_groups: 4,
                n_rrd_s: 4,
                n_rrd_l: 8,
                n_faw: 34,
                ..DramPreset::Ddr4_3200aa2bg.timing()
            },
            // Table 3: every timing parameter its own; the organisation (8 banks in 2 groups,
            // 65536 rows × 1024 columns, 16-word bursts on an 8-byte bus) that of (1).
            DramPreset::Ddr4_1866m => DramTiming {
                clock_mhz: 933,
                n_rcd: 13,
                n_cas: 13,
                n_cwd: 10,
                n_rp: 13,
                n_burst: 4,
                n_ras: 32,
                n_rtp: 7,
                n_wr: 14,
                n_rfc: 327,
                n_refi: 7280,
                n_ccd_s: 4,
                n_ccd_l: 5,
                n_rrd_s: 5,
                n_rrd_l: 6,
                n_faw: 28,
                n_wtr_s: 3,
                n_wtr_l: 7,
                ..DramPreset::Ddr4_3200aa2bg.timing()
            },
        }
    }
}

/// One DDR4 configuration: organisation and the timing parameters of Table 1, in DRAM
/// clock cycles (`tCK`; 0.625 ns for DDR4-3200).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DramTiming {
    /// nB: banks per rank.
    pub banks: u64,
    /// nBG: bank groups per rank.
    pub bank_groups: u64,
    /// nR: rows per bank.
    pub rows: u64,
    /// nC: columns per row.
    pub columns: u64,
    /// nBW: 32-bit words per burst (8 beats over a 64-bit bus = 64 B).
    pub words_per_burst: u64,
    /// Effective data-bus width in bytes (64-bit).
    pub bus_bytes: u64,
    /// DRAM command clock in MHz (1600 for DDR4-3200).
    pub clock_mhz: u64,
    /// nRCD: row-activate to CAS delay.
    pub n_rcd: u64,
    /// nCAS: read to first burst.
    pub n_cas: u64,
    /// nCWD: write to first burst.
    pub n_cwd: u64,
    /// nRP: row precharge.
    pub n_rp: u64,
    /// nBURST: cycles per burst (beats / 2).
    pub n_burst: u64,
    /// nRAS: row activate strobe.
    pub n_ras: u64,
    /// nRTP: read to precharge.
    pub n_rtp: u64,
    /// nWR: write recovery.
    pub n_wr: u64,
    /// nRFC: refresh cycle time.
    pub n_rfc: u64,
    /// nREFI: refresh interval.
    pub n_refi: u64,
    /// nCCD_S: column to column, different bank group.
    pub n_ccd_s: u64,
    /// nCCD_L: column to column, same bank group.
    pub n_ccd_l: u64,
    /// nRRD_S: activate to activate, different bank group.
    pub n_rrd_s: u64,
    /// nRRD_L: activate to activate, same bank group.
    pub n_rrd_l: u64,
    /// nFAW: four-activate window. Not in Table 1; the value of the reference tool's
    /// `ddr4_lid.cpp` and Ramulator's `DDR4::init_speed` (48 for 8 Gb x16 at 3200, 34 for x8,
    /// 28 for x16 at 1866), used by the controller simulation ([`crate::controller`]).
    pub n_faw: u64,
    /// nWTR_S / nWTR_L: write-to-read turnaround, other / same bank group (Ramulator's
    /// speed table: 4/12 at 3200, 3/7 at 1866); only the controller simulation uses them.
    pub n_wtr_s: u64,
    pub n_wtr_l: u64,
}

impl DramTiming {
    /// Bytes per burst (64 for a 64-bit bus with burst length 8).
    pub fn burst_bytes(&self) -> u64 {
        self.words_per_burst * 4
    }

    /// Number of bursts a request of `bytes` needs: rounded up to whole bursts, plus one when
    /// the start is not known to be burst-aligned. (The reference tool's `bursts()`; for byte
    /// counts that are multiples of 8 this is ⌈bytes/64⌉ (+1).)
    pub fn bursts_for_bytes(&self, bytes: u64, aligned: bool) -> u64 {
        let bb = self.burst_bytes();
        (bytes + bb).saturating_sub(8) / bb + u64::from(!aligned)
    }

    /// AC(b): activation + read/write delay for `b` bursts (Eq. 15, AC). The paper's
    /// case split is for two bank groups (alternating bank-group pairs). For more than two
    /// bank groups every burst of a request falls in a different group and the reference tool
    /// uses `nRCD + (b−1)·nCCD_S`; we follow it (the paper gives no 4BG form).
    pub fn ac(&self, b: u64) -> u64 {
        let b = b.max(1);
        if self.bank_groups > 2 {
            return self.n_rcd + (b - 1) * self.n_ccd_s;
        }
        match b {
            1..=4 => (b - 1) * self.n_rrd_s + self.n_rcd,
            5 | 6 => 2 * self.n_rrd_s + self.n_rcd + (b - 4) * self.n_ccd_l + self.n_ccd_s,
            7 | 8 => 3 * self.n_rrd_s + self.n_rcd + self.n_ccd_l + self.n_ccd_s,
            _ if b % 2 == 1 => {
                self.n_rrd_s + self.n_rcd + 2 * self.n_ccd_l + (b - 4) * self.n_ccd_s
            }
            _ => 2 * self.n_rrd_s + self.n_rcd + self.n_ccd_l + (b - 5) * self.n_ccd_s,
        }
    }

    /// tID_R(b), Eq. 15: LID of a read of `b` bursts,
    /// `max(AC(b) + nRTP + nRP, min(b−1, 3)·nRRD_S + nRAS + nRP)`.
    /// With `aligned` (a transfer starting on a bank-pair boundary, used for the program
    /// upload) the activate chain before the last row's nRAS is at most one nRRD_S, as in the
    /// reference tool.
    pub fn tid_read(&self, b: u64, aligned: bool) -> u64 {
        let b = b.max(1);
        let chain = (b - 1).min(if aligned { 1 } else { 3 }) * self.n_rrd_s;
        (self.ac(b) + self.n_rtp).max(chain + self.n_ras) + self.n_rp
    }

    /// tID_W(b), Eq. 15: `AC(b) + nCWD + nBURST + nWR + nRP`.
    pub fn tid_write(&self, b: u64) -> u64 {
        self.ac(b) + self.n_cwd + self.n_burst + self.n_wr + self.n_rp
    }

    /// rows(s): rows a buffer of `words` 32-bit words may span in the worst case. A row of a
    /// bank holds `2·nC` words over the 64-bit bus; a buffer of one word is one row, one of
    /// up to a burst plus a word may straddle two, and each further `2·nC` words add one
    /// (the reference tool's `size_to_rows`; the paper uses rows(s) without defining it).
    pub fn rows(&self, words: u64) -> u64 {
        let row_words = self.columns * 2;
        let burst_words = self.words_per_burst;
        if words <= 1 {
            1
        } else if words <= burst_words + 1 {
            2
        } else {
            2 + (words - (burst_words + 1)).div_ceil(row_words)
        }
    }

    /// IIAC(b, s), Eq. 16. Our reading of the garbled case split, checked against the
    /// reference tool: the nRRD terms apply only when an activate to another row is slower
    /// than the column-to-column distance it overlaps (`nRRD_L > nCCD_L`, `nRRD_S > nCCD_L`);
    /// this holds for Table 1 column (1), where the paper's three cases are exact, and not for
    /// the 4BG part, where every case reduces to `nRCD + (b−1)·nCCD_L`.
    pub fn iiac(&self, b: u64, words: u64) -> u64 {
        let rows = self.rows(words);
        if rows > self.bank_groups && self.n_rrd_l > self.n_ccd_l {
            self.n_rcd + self.n_rrd_l + self.n_rrd_s - 1 + b.saturating_sub(3) * self.n_ccd_l
        } else if rows > 1 && self.n_rrd_s > self.n_ccd_l {
            self.n_rcd + self.n_rrd_s + b.saturating_sub(2) * self.n_ccd_l
        } else {
            self.n_rcd + b.saturating_sub(1) * self.n_ccd_l
        }
    }

    /// tIIID_R(b, s), Eq. 16: LID of an indexed-iterative read of `b` words from a buffer of
    /// `words` words; one burst per word, all in the same bank group in the worst case.
    pub fn tiiid_read(&self, b: u64, words: u64) -> u64 {
        if self.rows(words) <= self.banks {
            self.iiac(b, words) + self.n_rtp + self.n_rp
        } else {
            b * (self.n_ras + self.n_rp)
        }
    }

    /// tIIID_W(b, s), Eq. 16.
    pub fn tiiid_write(&self, b: u64, words: u64) -> u64 {
        if self.rows(words) <= self.banks {
            self.iiac(b, words) + self.n_cwd + self.n_burst + self.n_wr + self.n_rp
        } else {
            b * (self.n_rcd + self.n_cwd + self.n_burst + self.n_wr + self.n_rp)
        }
    }

    /// DRAM cycles → compute cycles, rounded up: `⌈x · f_compute / f_DRAM⌉`.
    pub fn to_compute_cycles(&self, dram_cycles: u64, compute_mhz: u64) -> u64 {
        let num = u128::from(dram_cycles) * u128::from(compute_mhz);
        let den = u128::from(self.clock_mhz.max(1));
        u64::try_from(num.div_ceil(den)).unwrap_or(u64::MAX)
    }

    /// Eq. 19 (§5.8): `c + ⌈c·rCK / (nREFI − nRFC)⌉ · nRFC / rCK` with `rCK` the ratio of
    /// DRAM to compute clock. Integer form of the reference tool: the refresh-free window
    /// `nREFI − nRFC` is converted to compute cycles rounding down, the number of refreshes is
    /// `⌈c / window⌉`, and their total cost `count · nRFC` is converted rounding up.
    pub fn inflate_refresh(&self, cycles: u64, compute_mhz: u64) -> u64 {
        let clk = u128::from(self.clock_mhz.max(1));
        let window = (u128::from(self.n_refi.saturating_sub(self.n_rfc)) * u128::from(compute_mhz)
            / clk)
            .max(1);
        let count = u128::from(cycles).div_ceil(window);
        let cost = (count * u128::from(self.n_rfc) * u128::from(compute_mhz)).div_ceil(clk);
        u64::try_from(u128::from(cycles) + cost).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t2() -> DramTiming {
        DramPreset::Ddr4_3200aa2bg.timing()
    }

    /// Eq. 1 (§3.2.3): worst-case bus utilisation of iterative indexed transfers,
    /// nBURST / (nBW · nCCD_L) = 4 / (16·8) = 3.125 % for DDR4-3200AA 2BG.
    #[test]
    fn eq1_indexed_utilisation_bound() {
        let t = t2();
        assert_eq!((t.n_burst, t.words_per_burst * t.n_ccd_l), (4, 128));
        assert!(
            (t.n_burst as f64 / (t.words_per_burst * t.n_ccd_l) as f64 - 0.03125).abs() < 1e-12
        );
    }

    /// Table 1 column (1) vs (2): only banks, groups and nRRD differ.
    #[test]
    fn table1_presets() {
        let (a, b) = (t2(), DramPreset::Ddr4_3200aa4bg.timing());
        assert_eq!(
            (a.banks, a.bank_groups, a.n_rrd_s, a.n_rrd_l),
            (8, 2, 9, 11)
        );
        assert_eq!(
            (b.banks, b.bank_groups, b.n_rrd_s, b.n_rrd_l),
            (16, 4, 4, 8)
        );
        assert_eq!((a.n_rfc, a.n_refi, a.burst_bytes()), (560, 12480, 64));
        assert_eq!(
            DramPreset::from_name("ddr4-1866m"),
            Some(DramPreset::Ddr4_1866m)
        );
    }

    /// Eq. 15 by hand for DDR4-3200AA 2BG (nRCD 22, nRRD_S 9, nCCD_S 4, nCCD_L 8, nRTP 12,
    /// nRAS 52, nRP 22, nCWD 16, nBURST 4, nWR 24):
    /// * b=1: AC = 22; tID_R = max(22+12+22, 0+52+22) = 74; tID_W = 22+16+4+24+22 = 88.
    /// * b=4: AC = 3·9+22 = 49; tID_R = max(49+34, 27+74) = 101.
    /// * b=6: AC = 18+22+2·8+4 = 60; tID_R = max(60+34, 27+74) = 101.
    /// * b=8: AC = 27+22+8+4 = 61.
    /// * b=9 (odd): AC = 9+22+16+5·4 = 67; tID_R = max(101, 101) = 101.
    /// * b=16 (even): AC = 18+22+8+11·4 = 92; tID_R = 92+34 = 126; tID_W = 92+66 = 158.
    #[test]
    fn eq15_longest_issue_delay_by_hand() {
        let t = t2();
        assert_eq!(t.ac(1), 22);
        assert_eq!((t.tid_read(1, false), t.tid_write(1)), (74, 88));
        assert_eq!((t.ac(4), t.tid_read(4, false)), (49, 101));
        assert_eq!((t.ac(6), t.tid_read(6, false)), (60, 101));
        assert_eq!(t.ac(8), 61);
        assert_eq!((t.ac(9), t.tid_read(9, false)), (67, 101));
        assert_eq!(
            (t.ac(16), t.tid_read(16, false), t.tid_write(16)),
            (92, 126, 158)
        );
        // Aligned (program upload): the activate chain is at most one nRRD_S:
        // b=4: max(49+12, 9+52) + 22 = 83.
        assert_eq!(t.tid_read(4, true), 83);
    }

    /// Eq. 16 by hand, 2BG: rows(s) for s = 1, 17, 18, 2065 words is 1, 2, 3, 3.
    /// * s=1 word (one row): IIAC = 22 + (b−1)·8; b=1024: 22+8184 = 8206;
    ///   tIIID_R = 8206+12+22 = 8240.
    /// * s=1000 words (3 rows > nBG=2): IIAC = 22+11+9−1+(1024−3)·8 = 8209; tIIID_W =
    ///   8209+16+4+24+22 = 8275.
    /// * s=40000 words: rows = 2+⌈39983/2048⌉ = 22 > nB=8, tIIID_R = 1024·(52+22) = 75776.
    #[test]
    fn eq16_indexed_iterative_by_hand() {
        let t = t2();
        assert_eq!(
            (t.rows(1), t.rows(17), t.rows(18), t.rows(2065)),
            (1, 2, 3, 3)
        );
        assert_eq!(t.tiiid_read(1024, 1), 8240);
        assert_eq!(t.tiiid_write(1024, 1000), 8275);
        assert_eq!(t.rows(40000), 22);
        assert_eq!(t.tiiid_read(1024, 40000), 75776);
    }

    /// Eq. 19 by hand, DDR4-3200 (1600 MHz) and a 1 GHz compute clock: the refresh-free
    /// window is ⌊(12480−560)·1000/1600⌋ = 7450 compute cycles, a refresh costs
    /// 560·1000/1600 = 350. For c = 100 000: ⌈100000/7450⌉ = 14 refreshes, +4900.
    /// For c = 7450 exactly one refresh (+350); for 7451 two (+700).
    #[test]
    fn eq19_refresh_inflation_by_hand() {
        let t = t2();
        assert_eq!(t.inflate_refresh(100_000, 1000), 104_900);
        assert_eq!(t.inflate_refresh(7450, 1000), 7800);
        assert_eq!(t.inflate_refresh(7451, 1000), 8151);
        assert_eq!(t.inflate_refresh(0, 1000), 0);
    }

    #[test]
    fn burst_counts_and_clock_conversion() {
        let t = t2();
        // 36 instructions · 8 B = 288 B: 5 aligned bursts, 6 unaligned.
        assert_eq!(
            (
                t.bursts_for_bytes(288, true),
                t.bursts_for_bytes(288, false)
            ),
            (5, 6)
        );
        // 77 DRAM cycles at 1600 MHz = 48.125 ns → 49 compute cycles at 1 GHz.
        assert_eq!(t.to_compute_cycles(77, 1000), 49);
        assert_eq!(t.to_compute_cycles(1600, 1000), 1000);
    }
}
