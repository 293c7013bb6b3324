//! PTX's bit-field and bit-count instructions, per lane (PTX ISA, "Integer
//! Arithmetic Instructions": `bfe`, `bfi`, `clz`, `popc`, `brev`). Each takes a value
//! already masked to its type's width `bits` (32 or 64) and returns one of that width.

/// `bfe`: the field of `len` bits of `a` at `pos`, zero- or sign-extended. The ISA's
/// pseudo-code: `pos = b & 0xff`, `len = c & 0xff`; the sign bit is
/// `a[min(pos + len − 1, msb)]` for signed types, 0 otherwise; `d[i] = a[pos + i]` for
/// `i < len` and `pos + i ≤ msb`, the sign bit elsewhere. So a field that starts past the
/// msb is the replicated sign bit, and `len = 0` gives 0.
pub fn bfe(signed: bool, bits: u32, a: u64, pos: u64, len: u64) -> u64 {
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let msb = bits - 1;
    if len == 0 {
        return 0;
    }
    let bit = |i: u32| (a >> i) & 1;
    let sbit = if signed {
        bit((pos + len - 1).min(msb))
    } else {
        0
    };
    let mut d = 0u64;
    for i in 0..bits {
        let v = if i < len && pos + i <= msb {
            bit(pos + i)
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

/// `bfi`: `b` with its bits `pos … pos + len − 1` (those up to the msb) replaced by `a`'s low
/// `len` bits; `pos = c & 0xff`, `len = d & 0xff`.
pub fn bfi(bits: u32, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i < bits {
        let p = pos + i;
        f = (f & !(1u64 << p)) | (((a >> i) & 1) << p);
        i += 1;
    }
    f
}

/// `clz.b32`/`.b64`: leading zeros in the type's width (32 or 64 for zero).
pub fn clz(bits: u32, a: u64) -> u64 {
    u64::from(a.leading_zeros() - (64 - bits))
}

/// `brev`: the type's bits in reverse order.
pub fn brev(bits: u32, a: u64) -> u64 {
    a.reverse_bits() >> (64 - bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields worked by hand from the ISA's pseudo-code.
    #[test]
    fn bfe_by_hand() {
        // 0xf0 = …1111_0000: bits 4..8 are 1111.
        assert_eq!(bfe(false, 32, 0xf0, 4, 4), 0xf);
        // Signed: the field's top bit (bit 7) is 1, so it extends to all ones.
        assert_eq!(bfe(true, 32, 0xf0, 4, 4), 0xffff_ffff);
        // Field running past the msb: bits 28..31 of 0x8000_0000 are 1000, and the
        // sign bit is a[31] = 1.
        assert_eq!(bfe(true, 32, 0x8000_0000, 28, 8), 0xffff_fff8);
        assert_eq!(bfe(false, 32, 0x8000_0000, 28, 8), 0x8);
        // Start past the msb: the replicated sign bit (a[31]).
        assert_eq!(bfe(true, 32, 0x8000_0000, 40, 4), 0xffff_ffff);
        assert_eq!(bfe(false, 32, 0x8000_0000, 40, 4), 0);
        // len = 0 gives 0; only the low 8 bits of pos and len count.
        assert_eq!(bfe(true, 32, 0xffff_ffff, 0, 0), 0);
        assert_eq!(bfe(false, 32, 0xab00, 0x108, 0x104), 0xb);
        // 64-bit.
        assert_eq!(
            bfe(true, 64, 0x8000_0000_0000_0000, 60, 4),
            0xffff_ffff_ffff_fff8
        );
    }

    #[test]
    fn bfi_by_hand() {
        // a = 0b101 into bits 4..7 of 0xffff_ffff: …1_0101_1111? bits 4,5,6 := 1,0,1.
        assert_eq!(bfi(32, 0b101, 0xffff_ffff, 4, 3), 0xffff_ffdf);
        // Past the msb: only bit 31 is replaced.
        assert_eq!(bfi(32, 0, 0xffff_ffff, 31, 8), 0x7fff_ffff);
        // len = 0 leaves b.
        assert_eq!(bfi(32, 0xff, 0x1234, 0, 0), 0x1234);
        // 64-bit, as nvcc packs a 64-bit key: 0xabcd into bits 32..48.
        assert_eq!(bfi(64, 0xabcd, 0x1111, 32, 16), 0x0000_abcd_0000_1111);
    }

    #[test]
    fn counts_by_hand() {
        assert_eq!(clz(32, 0), 32);
        assert_eq!(clz(32, 1), 31);
        assert_eq!(clz(64, 1 << 40), 23);
        assert_eq!(brev(32, 1), 0x8000_0000);
        assert_eq!(brev(64, 0b110), 0x6000_0000_0000_0000);
    }
}
