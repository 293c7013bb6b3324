//! Splitting one listing line into its parts.
//!
//! An instruction line looks like (every part but the instruction optional):
//! ```text
//! [B------:R-:W-:-:S06]  /*0008*/  /*0x00005de428004404*/  {  @P0 BRA 0xa8 ;  (*"…"*)  }  /* 0x… */
//!  control code           address   encoding (Fermi)       pair  instruction   annotation      encoding
//! ```

/// The pieces of a line, as byte ranges into the line.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct LineParts {
    pub control_code: Option<(usize, usize)>,
    pub address: Option<(u64, usize, usize)>,
    /// The instruction text (guard, opcode, operands) without the trailing `;`.
    pub body: Option<(usize, usize)>,
    pub opens_pair: bool,
    pub closes_pair: bool,
    /// A CuAssembler/nvdisasm annotation `(*"INDIRECT_CALL"*)`, without the delimiters.
    pub annotation: Option<(usize, usize)>,
    /// An address comment that is not valid hex (`/*00g8*/`): reported by the caller.
    pub bad_address: Option<(usize, usize)>,
    /// The 64-bit words of the encoding comments (`/* 0x000fe400078ec0ff */`), in line order.
    pub encodings: Vec<u64>,
}

/// The value of an encoding comment's text (`0x…`, at most 16 hex digits).
fn encoding_word(inner: &str) -> Option<u64> {
    let hex = inner
        .strip_prefix("0x")
        .or_else(|| inner.strip_prefix("0X"))?;
    (hex.len() <= 16)
        .then(|| crate::number::parse_digits(hex, 16))
        .flatten()
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Scans `line` (comments beginning with `//` already removed).
pub(crate) fn scan(line: &str) -> LineParts {
    let b = line.as_bytes();
    let mut parts = LineParts::default();
    let mut i = skip_ws(b, 0);
    // CuAssembler control code: `[B------:R-:W-:-:S06]`.
    if b.get(i) == Some(&b'[') {
        if let Some(close) = line[i..].find(']') {
            let inner = &line[i + 1..i + close];
            if inner.contains(':') && !inner.contains(char::is_whitespace) {
                parts.control_code = Some((i, i + close + 1));
                i = skip_ws(b, i + close + 1);
            }
        }
    }
    // Address and encoding comments.
    while line[i..].starts_with("/*") {
        let Some(close) = line[i + 2..].find("*/") else {
            break;
        };
        let inner_start = i + 2;
        let inner_end = i + 2 + close;
        let inner = line[inner_start..inner_end].trim();
        let is_encoding = inner.starts_with("0x") || inner.starts_with("0X");
        if let Some(w) = encoding_word(inner).filter(|_| is_encoding) {
            parts.encodings.push(w);
        }
        if !is_encoding && parts.address.is_none() && parts.bad_address.is_none() {
            // cuobjdump prints addresses as bare hex digits, at most 16 of them.
            match (inner.len() <= 16)
                .then(|| crate::number::parse_digits(inner, 16))
                .flatten()
            {
                Some(v) => parts.address = Some((v, i, inner_end + 2)),
                None => parts.bad_address = Some((i, inner_end + 2)),
            }
        }
        i = skip_ws(b, inner_end + 2);
    }
    if b.get(i) == Some(&b'{') {
        parts.opens_pair = true;
        i = skip_ws(b, i + 1);
    }
    // The body ends at the first encoding comment or annotation.
    let mut end = line.len();
    for marker in ["/*", "(*"] {
        if let Some(p) = line[i..].find(marker) {
            end = end.min(i + p);
        }
    }
    if let Some(p) = line[i..].find("(*\"") {
        let from = i + p + 3;
        if let Some(q) = line[from..].find("\"*)") {
            parts.annotation = Some((from, from + q));
        }
    }
    if line[end..].contains('}') {
        parts.closes_pair = true;
    }
    // Trailing encoding comments (Maxwell and later print them after the instruction).
    let mut rest = &line[end..];
    while let Some(p) = rest.find("/*") {
        let after = &rest[p + 2..];
        let Some(q) = after.find("*/") else {
            break;
        };
        if let Some(w) = encoding_word(after[..q].trim()) {
            parts.encodings.push(w);
        }
        rest = &after[q + 2..];
    }
    let mut body = line[i..end].trim_end();
    if let Some(stripped) = body.strip_suffix('}') {
        parts.closes_pair = true;
        body = stripped.trim_end();
    }
    if let Some(stripped) = body.strip_suffix(';') {
        body = stripped.trim_end();
    }
    if !body.is_empty() {
        parts.body = Some((i, i + body.len()));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(line: &str) -> Option<&str> {
        scan(line).body.map(|(s, e)| &line[s..e])
    }

    #[test]
    fn fermi_line_with_encoding() {
        let l = "\t/*0040*/     /*0x800001e740000001*/ \t@P0 BRA 0xa8;";
        let p = scan(l);
        assert_eq!(p.address.map(|a| a.0), Some(0x40));
        assert_eq!(body(l), Some("@P0 BRA 0xa8"));
    }

    #[test]
    fn maxwell_line_with_trailing_encoding() {
        let l = "        /*0008*/                   MOV R1, c[0x0][0x20] ;      /* 0x4c98078000870001 */";
        assert_eq!(body(l), Some("MOV R1, c[0x0][0x20]"));
        assert_eq!(scan(l).address.map(|a| a.0), Some(8));
    }

    #[test]
    fn cuasm_pair_and_annotation() {
        let l = "      [B------:R-:W-:-:S13]         /*0178*/              @!P0 BRK                                            (*\"BRANCH_TARGETS .L_x_1\"*)        }";
        let p = scan(l);
        assert!(p.control_code.is_some());
        assert!(p.closes_pair);
        assert_eq!(body(l), Some("@!P0 BRK"));
        let (s, e) = p.annotation.unwrap_or_default();
        assert_eq!(&l[s..e], "BRANCH_TARGETS .L_x_1");
        let l = "      [B------:R-:W-:-:S00]         /*0010*/         {         MOV32I R7, 0x92492493 ;";
        assert!(scan(l).opens_pair);
        assert_eq!(body(l), Some("MOV32I R7, 0x92492493"));
    }

    #[test]
    fn encoding_only_line_has_no_body() {
        let p = scan("                                     /* 0x001cc400e22007f6 */");
        assert_eq!(p.body, None);
        assert_eq!(p.address, None);
        assert_eq!(p.encodings, vec![0x001c_c400_e220_07f6]);
    }

    #[test]
    fn encodings_in_line_order() {
        let l = "        /*00b8*/         {         XMAD.PSL.CBCC R19, R17.H1, R0.H1, R19 ;         /* 0x5b30099800071113 */";
        assert_eq!(scan(l).encodings, vec![0x5b30_0998_0007_1113]);
        let l = "\t/*0040*/     /*0x800001e740000001*/ \t@P0 BRA 0xa8;";
        assert_eq!(scan(l).encodings, vec![0x8000_01e7_4000_0001]);
        assert!(scan("/*0008*/ MOV R1, R2 ; /* 0xnothex */")
            .encodings
            .is_empty());
    }

    #[test]
    fn bad_address_is_flagged() {
        assert!(scan("/*00g8*/ MOV R1, R2;").bad_address.is_some());
    }
}
