//! Kernel instruction strings over {L, C} (Berezovskyi, Bletsas, Andersson, ECRTS 2012, §3),
//! alone or in the paper's configuration-file form (Fig. 4):
//!
//! ```text
//! kernel
//! LLCLL
//! warp_number
//! 8
//! ls_unit_number
//! 16
//! cuda_core_number
//! 32
//! warp_size
//! 32
//! ```
//!
//! Keys and values may also share a line (`warp_number 8`, `warp_number = 8`). `#` and `//`
//! start comments. Letters are case-insensitive ("lcl" is "LCL"); whitespace inside a string
//! is ignored.
//!
//! This is the workspace's one L/C type ([`LcOp`]) and parser: the makespan analysis
//! (`makespan` crate) and the simulator read these strings as they are parsed here.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// One instruction of a kernel string: the type of computational unit it runs on
/// (Berezovskyi et al. §3, "kernel instruction string").
///
/// The paper abstracts a kernel to a string over two symbols: `L` for an instruction that
/// needs a load/store unit and `C` for one that needs a CUDA core. Everything else about the
/// instruction (operands, latency beyond one cycle per sub-warp) is abstracted away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LcOp {
    /// A load/store-unit instruction (`L`).
    L,
    /// A CUDA-core instruction (`C`).
    C,
}

impl LcOp {
    /// One line for hover help, in our words (Berezovskyi et al., §3).
    pub fn description(self) -> &'static str {
        match self {
            LcOp::L => "An instruction that needs a load/store unit (memory access)",
            LcOp::C => "An instruction that needs a CUDA core (arithmetic)",
        }
    }

    /// The unit a warp's instruction of this kind occupies in the makespan model.
    pub fn unit_name(self) -> &'static str {
        match self {
            LcOp::L => "load/store unit",
            LcOp::C => "CUDA core",
        }
    }

    /// The letter the paper uses for this unit type.
    pub fn letter(self) -> char {
        match self {
            LcOp::L => 'L',
            LcOp::C => 'C',
        }
    }
}

/// A parsed L/C input: the string and whatever configuration keys the text gave.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LcProgram {
    pub kernel: Vec<LcOp>,
    /// Where the kernel string was written.
    pub kernel_span: Span,
    pub warp_number: Option<u64>,
    pub ls_unit_number: Option<u64>,
    pub cuda_core_number: Option<u64>,
    pub warp_size: Option<u64>,
}

const KEYS: [&str; 5] = [
    "kernel",
    "warp_number",
    "ls_unit_number",
    "cuda_core_number",
    "warp_size",
];

/// Most instructions accepted in one string.
pub const MAX_LENGTH: usize = 100_000;

fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

fn parse_string(text: &str, span: Span, diags: &mut Vec<Diagnostic>) -> Vec<LcOp> {
    let mut out = Vec::new();
    for (k, ch) in text.chars().enumerate() {
        match ch.to_ascii_uppercase() {
            'L' => out.push(LcOp::L),
            'C' => out.push(LcOp::C),
            c if c.is_whitespace() => {}
            other => {
                diags.push(Diagnostic::error(
                    Span::new(span.line, span.column + k as u32, 1),
                    format!("`{other}` is not an instruction: a kernel string has only L and C"),
                ));
                return Vec::new();
            }
        }
        if out.len() > MAX_LENGTH {
            diags.push(Diagnostic::error(
                span,
                format!("kernel string longer than {MAX_LENGTH} instructions"),
            ));
            return Vec::new();
        }
    }
    out
}

/// Parses a bare kernel string such as `LLCLL` (several lines are one string; whitespace is
/// ignored, letters are case-insensitive).
///
/// # Errors
/// The first located error: a character other than `L`, `C` or whitespace, or more than
/// [`MAX_LENGTH`] instructions.
pub fn parse_kernel(text: &str) -> Result<Vec<LcOp>, Diagnostic> {
    let mut ops = Vec::new();
    let mut diags = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        let line_no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        let span = Span::in_line(line_no, line, 0, line.len());
        ops.extend(parse_string(line, span, &mut diags));
        if let Some(d) = diags.pop() {
            return Err(d);
        }
        if ops.len() > MAX_LENGTH {
            return Err(Diagnostic::error(
                span,
                format!("kernel string longer than {MAX_LENGTH} instructions"),
            ));
        }
    }
    Ok(ops)
}

/// Parses an L/C string or a configuration file.
pub fn parse(text: &str) -> (LcProgram, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut prog = LcProgram::default();
    let mut pending_key: Option<(&str, Span)> = None;
    let mut saw_kernel = false;
    for (idx, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        let line = strip_comment(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let col = line.find(trimmed).unwrap_or(0);
        let span = Span::in_line(line_no, raw, col, col + trimmed.len());
        // `key value`, `key = value`, `key: value`, or a key alone (value on the next line).
        let mut words = trimmed.splitn(2, |c: char| c.is_whitespace() || c == '=' || c == ':');
        let first = words.next().unwrap_or("").to_ascii_lowercase();
        let rest = words
            .next()
            .unwrap_or("")
            .trim_start_matches(|c: char| c.is_whitespace() || c == '=' || c == ':')
            .trim();
        let (key, value, value_span) = if let Some((k, kspan)) = pending_key.take() {
            let _ = kspan;
            (k.to_string(), trimmed.to_string(), span)
        } else if let Some(k) = KEYS.iter().find(|k| **k == first) {
            if rest.is_empty() {
                pending_key = Some((k, span));
                continue;
            }
            let vcol = raw.find(rest).unwrap_or(col);
            (
                k.to_string(),
                rest.to_string(),
                Span::in_line(line_no, raw, vcol, vcol + rest.len()),
            )
        } else if !saw_kernel && prog.kernel.is_empty() {
            // A bare string.
            ("kernel".to_string(), trimmed.to_string(), span)
        } else {
            diags.push(Diagnostic::error(
                span,
                format!(
                    "expected one of {} or a kernel string of L and C",
                    KEYS.join(", ")
                ),
            ));
            continue;
        };
        if key == "kernel" {
            saw_kernel = true;
            prog.kernel = parse_string(&value, value_span, &mut diags);
            prog.kernel_span = value_span;
            continue;
        }
        let number = match value.parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                diags.push(Diagnostic::error(
                    value_span,
                    format!("`{key}` must be a whole number, got `{value}`"),
                ));
                continue;
            }
        };
        match key.as_str() {
            "warp_number" => prog.warp_number = Some(number),
            "ls_unit_number" => prog.ls_unit_number = Some(number),
            "cuda_core_number" => prog.cuda_core_number = Some(number),
            _ => prog.warp_size = Some(number),
        }
    }
    if let Some((k, span)) = pending_key {
        diags.push(Diagnostic::error(span, format!("`{k}` has no value")));
    }
    if prog.kernel.is_empty() && !diags.iter().any(Diagnostic::is_error) {
        diags.push(Diagnostic::error(
            Span::new(1, 1, 0),
            "no kernel string: write one like LLCLL (L = load/store, C = CUDA core)",
        ));
    }
    (prog, diags)
}

/// Renders a string back as text.
pub fn to_text(ops: &[LcOp]) -> String {
    ops.iter().map(|o| o.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_strings() {
        let (p, d) = parse("LLCLL\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(to_text(&p.kernel), "LLCLL");
        assert_eq!(p.warp_number, None);
    }

    #[test]
    fn the_configuration_file_of_fig4() {
        let text = "kernel\nlcl\nwarp_number\n8\nls_unit_number\n16\ncuda_core_number\n32\nwarp_size\n32\n";
        let (p, d) = parse(text);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(to_text(&p.kernel), "LCL");
        assert_eq!(
            (
                p.warp_number,
                p.ls_unit_number,
                p.cuda_core_number,
                p.warp_size
            ),
            (Some(8), Some(16), Some(32), Some(32))
        );
        assert_eq!(p.kernel_span.line, 2);
    }

    #[test]
    fn one_line_keys_and_comments() {
        let (p, d) = parse("# Fig. 6\nkernel = LLCLL\nwarp_number: 600 // many warps\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(p.warp_number, Some(600));
    }

    #[test]
    fn errors_are_located() {
        let (_, d) = parse("LLXC");
        assert_eq!((d[0].line, d[0].column), (1, 3));
        let (_, d) = parse("kernel LC\nwarp_number lots");
        assert_eq!((d[0].line, d[0].column), (2, 13));
        let (_, d) = parse("");
        assert!(d[0].message.contains("no kernel string"));
        let (_, d) = parse("kernel LC\nwarp_size");
        assert!(d[0].message.contains("has no value"));
    }

    #[test]
    fn bare_kernel_strings() {
        assert_eq!(parse_kernel("l C l\n c L"), parse_kernel("LCLCL"));
        assert_eq!(
            parse_kernel("LC").map(|k| to_text(&k)),
            Ok("LC".to_string())
        );
        assert_eq!(parse_kernel(""), Ok(Vec::new()));
        let d = parse_kernel("LC\nLXC").expect_err("X is no instruction");
        assert_eq!((d.line, d.column), (2, 2));
        assert!(d.message.contains("`X`"), "{}", d.message);
    }
}
