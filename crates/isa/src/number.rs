//! Integer literals of the listings: the one place digits become numbers, for every dialect
//! parser in this crate (and for the facade's parameter and loop-bound keys).
//!
//! Accepted forms, exactly (ASCII only; no surrounding whitespace, no `_` separators, no
//! exponent; callers trim):
//!
//! | form | example | [`parse_uint`] | [`parse_int`] |
//! |---|---|---|---|
//! | decimal: one or more of `0`–`9` (leading zeros allowed, `007` is 7) | `24`, `0` | yes, up to `u64::MAX` | yes, up to `i64::MAX` |
//! | hexadecimal: `0x` or `0X`, then one or more hex digits (either case) | `0x1F`, `0X10` | yes, up to 64 bits | yes, as a 64-bit two's-complement pattern (`0xffffffffffffffff` is −1) |
//! | a sign: one `-` or `+` right before the digits | `-12`, `-0x4`, `+3` | no | yes; `-` negates, wrapping (`-0x8000000000000000` is `i64::MIN`) |
//!
//! Anything else (`0x`, `--1`, `- 1`, `0x+5`, `1_000`, `1e3`, `12U`) is `None`. PTX's C-style
//! literals (`0b101`, octal `017`, the `U` suffix; PTX ISA 8.5 §4.5.1 "Constants") are
//! [`parse_c_uint`]; bare digits in any radix (a SASS address `/*0a30*/`, the bits of a PTX
//! float `0f3F800000`) are [`parse_digits`].

/// Bare digits of `radix` (2 to 16; letters in either case): at least one, every one a digit
/// of the radix, the value within `u64`. No prefix, sign or separator.
pub fn parse_digits(digits: &str, radix: u32) -> Option<u64> {
    if digits.is_empty() || !(2..=16).contains(&radix) {
        return None;
    }
    digits.chars().try_fold(0u64, |acc, c| {
        let d = c.to_digit(radix)?;
        acc.checked_mul(u64::from(radix))?.checked_add(u64::from(d))
    })
}

/// An unsigned decimal or `0x`/`0X` hexadecimal literal (see the module table).
pub fn parse_uint(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => parse_digits(hex, 16),
        None => parse_digits(text, 10),
    }
}

/// A signed integer literal: an optional `-` or `+`, then decimal (at most `i64::MAX`) or
/// hexadecimal (a 64-bit two's-complement pattern); see the module table.
pub fn parse_int(text: &str) -> Option<i64> {
    let (negative, magnitude) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let value = match magnitude
        .strip_prefix("0x")
        .or_else(|| magnitude.strip_prefix("0X"))
    {
        // A hex literal is a bit pattern: reinterpret its 64 bits.
        Some(hex) => parse_digits(hex, 16)? as i64,
        None => i64::try_from(parse_digits(magnitude, 10)?).ok()?,
    };
    Some(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// A C-style unsigned literal as PTX writes it (PTX ISA 8.5 §4.5.1 "Constants"): hexadecimal
/// `0x`/`0X`, binary `0b`/`0B`, octal (a leading `0` and more digits: `017` is 15) or
/// decimal, optionally followed by one `U`/`u` (unsigned) suffix. The value must fit 64 bits.
pub fn parse_c_uint(text: &str) -> Option<u64> {
    let text = text.strip_suffix(['U', 'u']).unwrap_or(text);
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        parse_digits(hex, 16)
    } else if let Some(bin) = text.strip_prefix("0b").or_else(|| text.strip_prefix("0B")) {
        parse_digits(bin, 2)
    } else if text.len() > 1 && text.starts_with('0') {
        parse_digits(&text[1..], 8)
    } else {
        parse_digits(text, 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_forms_of_the_table() {
        assert_eq!(parse_uint("0x1F"), Some(31));
        assert_eq!(parse_uint("0X1f"), Some(31));
        assert_eq!(parse_uint("007"), Some(7));
        assert_eq!(parse_uint("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_uint("18446744073709551616"), None);
        assert_eq!(parse_uint("0x10000000000000000"), None);
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("+3"), Some(3));
        assert_eq!(parse_int("-0x4"), Some(-4));
        assert_eq!(parse_int("0xffffffffffffffff"), Some(-1));
        assert_eq!(parse_int("-0x8000000000000000"), Some(i64::MIN));
        assert_eq!(parse_int("9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int("9223372036854775808"), None);
        for bad in [
            "", "-", "0x", "--1", "- 1", "0x+5", "+0x-1", "1_000", "1e3", "12U", " 1", "١",
        ] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
            assert_eq!(parse_uint(bad), None, "{bad:?}");
        }
        assert_eq!(parse_uint("-1"), None);
        assert_eq!(parse_uint("+1"), None);
    }

    #[test]
    fn c_style_literals() {
        assert_eq!(parse_c_uint("0b101"), Some(5));
        assert_eq!(parse_c_uint("017"), Some(15));
        assert_eq!(parse_c_uint("0"), Some(0));
        assert_eq!(parse_c_uint("12U"), Some(12));
        assert_eq!(parse_c_uint("0xffu"), Some(255));
        assert_eq!(parse_c_uint("09"), None);
        assert_eq!(parse_c_uint("U"), None);
        assert_eq!(parse_digits("0a30", 16), Some(0xa30));
        assert_eq!(parse_digits("12", 17), None);
    }

    proptest! {
        /// Every integer prints back to itself in both forms, and the parsers agree with
        /// the standard library on plain decimals.
        #[test]
        fn round_trips(v in any::<i64>(), u in any::<u64>()) {
            prop_assert_eq!(parse_int(&v.to_string()), Some(v));
            prop_assert_eq!(parse_int(&format!("{:#x}", v as u64)), Some(v));
            prop_assert_eq!(parse_uint(&u.to_string()), Some(u));
            prop_assert_eq!(parse_uint(&format!("{u:#X}").replace("0X", "0x")), Some(u));
            prop_assert_eq!(parse_c_uint(&format!("{u:#o}").replace("0o", "0")), Some(u));
        }

        #[test]
        fn never_panics(s in "\\PC{0,12}") {
            let _ = (parse_int(&s), parse_uint(&s), parse_c_uint(&s), parse_digits(&s, 16));
        }
    }
}
