//! Numbers written in requests: parameter values, comma-separated lists, loop-bound keys,
//! kernel arguments and the simulator's memory text.
//!
//! Integers are read by `isa::number`, the workspace's one integer-literal reader (decimal,
//! `0x`/`0X` hexadecimal, an optional sign), so a request writes `0x18` exactly as a listing
//! does. A request may also write what listings do not need: a decimal fraction or exponent
//! (`2.5`, `1e6`) for a real-valued parameter, and a whole-valued one (`2.0`, `1e3`) where a
//! count is expected. Surrounding whitespace is ignored.

use isa::number::{parse_int, parse_uint};

/// A finite decimal (Rust's float syntax without `inf` and `NaN`, which nobody means).
fn decimal(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// An integer literal that fits an `i64` (hexadecimal as a 64-bit pattern).
pub fn integer(text: &str) -> Option<i64> {
    parse_int(text.trim())
}

/// A whole number from 0 to `u64::MAX`: an unsigned integer literal, or a decimal without a
/// fraction (below 2^53, where every whole number is exact).
pub fn unsigned(text: &str) -> Option<u64> {
    let t = text.trim();
    parse_uint(t).or_else(|| {
        decimal(t)
            .filter(|v| v.fract() == 0.0 && (0.0..9.0e15).contains(v))
            .map(|v| v as u64)
    })
}

/// Any number: an integer literal or a decimal.
pub fn real(text: &str) -> Option<f64> {
    let t = text.trim();
    parse_uint(t)
        .map(|v| v as f64)
        .or_else(|| parse_int(t).map(|v| v as f64))
        .or_else(|| decimal(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_a_number() {
        assert_eq!(unsigned(" 0x18 "), Some(24));
        assert_eq!(unsigned("0X18"), Some(24));
        assert_eq!(unsigned("24"), Some(24));
        assert_eq!(unsigned("1e3"), Some(1000));
        assert_eq!(unsigned("18446744073709551615"), Some(u64::MAX));
        for bad in ["", "0x", "2.5", "-1", "inf", "1,2", "x"] {
            assert_eq!(unsigned(bad), None, "{bad}");
        }
        assert_eq!(integer("-0x10"), Some(-16));
        assert_eq!(integer("2.0"), None);
        assert_eq!(real("0x10"), Some(16.0));
        assert_eq!(real("-3"), Some(-3.0));
        assert_eq!(real("2.5"), Some(2.5));
        assert_eq!(real("NaN"), None);
    }
}
