//! Which dialect a text is written in, from its content or its file name, so that a pasted
//! kernel or `warpbound analyze k.ptx` is read as what it is instead of producing one parse
//! error per line in the wrong dialect.
//!
//! The guess looks for marks that only one dialect writes, in the first lines where a mark
//! occurs, and says which mark decided (line and text), so the user can see why:
//! - PTX: the directives `.version`, `.target`, `.entry`, `.func`, `.reg`, `.param` (PTX ISA
//!   §11, "Directives");
//! - SASS: cuobjdump's `Function : name`, `code for sm_NN`, `.headerflags`, an nvdisasm dump's
//!   NVIDIA sections and attributes (`.section .nv.info`, `.sectioninfo @"SHI_REGISTERS=…"`,
//!   `.elftype`, for a dump cut after its header), nvdisasm/cuobjdump addresses `/*0000*/`, CuAssembler control codes `[B------:R-:W-:-:S06]`, and
//!   instruction lines ending in ` ;` whose opcode is upper case;
//! - GCN3: `s_`/`v_`/`flat_`/`buffer_`/`ds_` opcodes in lower case and the `.amdgcn_target` /
//!   `.amdhsa_` directives;
//! - Sim-D: the `.data` / `.text` sections of the Sim-D assembler with its lower-case opcodes
//!   (`ldglin`, `smov`, `siadd`);
//! - L/C strings: the `kernel`, `warp_number`, `ls_unit_number` keys of the makespan format;
//! - PWS CSV: its header `wcet,is_bsb_node,is_reconv_node,successors`.
//!
//! Not a parser: a text with marks of several dialects goes to the dialect of the first mark.

use crate::kernel::Dialect;

/// A dialect and the mark that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialectGuess {
    pub dialect: Dialect,
    /// 1-based line of the mark (0 for a file name).
    pub line: u32,
    /// The mark, as written (or the file extension).
    pub evidence: String,
}

/// Lines looked at before giving up (a header comment can be long; a kernel is not needed).
const MAX_LINES: usize = 400;

/// The dialect of `text`, from the first line carrying a mark of one dialect.
///
/// `.data` and `.text` are weak marks: the Sim-D assembler's sections, but also what every
/// clang GCN3 listing (and any GNU-style assembly) starts with. They decide only when no
/// other mark follows.
pub fn guess(text: &str) -> Option<DialectGuess> {
    let mut weak = None;
    for (i, raw) in text.lines().take(MAX_LINES).enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some((dialect, evidence)) = mark(line) {
            let found = DialectGuess {
                dialect,
                line: i as u32 + 1,
                evidence,
            };
            if !is_weak(&found.evidence) {
                return Some(found);
            }
            weak.get_or_insert(found);
        }
    }
    weak
}

/// Marks shared with other assembly dialects (see [`guess`]).
fn is_weak(evidence: &str) -> bool {
    evidence == ".data" || evidence == ".text"
}

/// The dialect a file name's extension names, if it names one.
pub fn from_file_name(name: &str) -> Option<DialectGuess> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    let dialect = match ext.as_str() {
        "ptx" => Dialect::Ptx,
        "sass" | "cuasm" | "nvdisasm" => Dialect::Sass,
        "sas" => Dialect::Simd,
        "lc" => Dialect::Lc,
        "csv" => Dialect::PwsCsv,
        // `.s` is GCN3 in this project's corpus and examples, but any assembler writes `.s`:
        // only a hint, the content decides when it has a mark.
        "s" | "gcn" => Dialect::Gcn,
        _ => return None,
    };
    Some(DialectGuess {
        dialect,
        line: 0,
        evidence: format!(".{ext}"),
    })
}

/// The dialect of a file: its content's mark, else its extension.
pub fn guess_file(name: &str, text: &str) -> Option<DialectGuess> {
    guess(text).or_else(|| from_file_name(name))
}

/// A mark of CUDA C++ source: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceMark {
    /// 1-based line of the mark.
    pub line: u32,
    /// The mark, as written.
    pub evidence: String,
}

/// Words only CUDA C++ source has (none is PTX's, SASS's or an assembler's): the kernel and
/// memory-space qualifiers, the built-in thread indices, the launch syntax, the runtime's
/// calls and the preprocessor's `#include`.
const CUDA_MARKS: [&str; 12] = [
    "__global__",
    "__device__",
    "__shared__",
    "__syncthreads",
    "threadIdx.",
    "blockIdx.",
    "blockDim.",
    "gridDim.",
    "<<<",
    "cudaMalloc",
    "cudaMemcpy",
    "#include",
];

/// The first mark of CUDA C++ source in `text`, when no dialect's mark comes first: the text is
/// a kernel's source, which must be compiled (to SASS or PTX) before it can be analysed. Looks
/// at the first lines as [`guess`] does; `//` comments are skipped.
pub fn cuda_source(text: &str) -> Option<SourceMark> {
    for (i, raw) in text.lines().take(MAX_LINES).enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(m) = CUDA_MARKS.iter().find(|m| line.contains(*m)) {
            return Some(SourceMark {
                line: i as u32 + 1,
                evidence: m.trim_end_matches('.').to_string(),
            });
        }
        // A dialect's mark first: the text is that dialect's (a PTX file may quote its source
        // in comments, which are skipped anyway).
        if mark(strip_comment(raw).trim()).is_some_and(|(_, evidence)| !is_weak(&evidence)) {
            return None;
        }
    }
    None
}

fn strip_comment(line: &str) -> &str {
    // `//` (PTX, SASS listings, Sim-D), `#` (L/C), `;` starts a GCN3 comment only at the
    // start of a line (SASS ends instructions with ` ;`).
    let line = line.split("//").next().unwrap_or("");
    let t = line.trim_start();
    if t.starts_with(';') || t.starts_with('#') {
        return "";
    }
    line
}

/// `line` without its `/* ... */` blocks (cuobjdump's addresses and encodings).
fn without_block_comments(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

fn mark(line: &str) -> Option<(Dialect, String)> {
    if line.starts_with("/*") {
        // A cuobjdump/nvdisasm line: the instruction after the address.
        let rest = without_block_comments(line);
        let rest = rest.trim();
        return sass_instruction(rest).map(|op| (Dialect::Sass, op.to_string()));
    }
    mark_plain(line).map(|(d, e)| (d, e.to_string()))
}

/// The opcode of a SASS instruction `[@P0 ]OPCODE ... ;` (upper-case opcode), if `body` is one.
fn sass_instruction(body: &str) -> Option<&str> {
    if !body.ends_with(';') {
        return None;
    }
    let mut words = body.split_whitespace();
    let mut op = words.next()?;
    if op.starts_with('@') {
        op = words.next()?;
    }
    let name = op.split('.').next().unwrap_or("");
    let upper = name.len() >= 2
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    upper.then_some(op)
}

fn mark_plain(line: &str) -> Option<(Dialect, &str)> {
    let first = line.split_whitespace().next()?;
    // PWS CSV header.
    if line.replace(' ', "").starts_with("wcet,is_bsb_node") {
        return Some((Dialect::PwsCsv, first));
    }
    // cuobjdump and nvdisasm framing.
    if line.starts_with("Function :") || line.starts_with("code for sm_") {
        return Some((Dialect::Sass, line));
    }
    if line.starts_with(".headerflags") || line.starts_with("/*0000*/") {
        return Some((Dialect::Sass, first));
    }
    // nvdisasm's ELF sections and attributes: `.nv.*` sections are NVIDIA's alone.
    let second = line.split_whitespace().nth(1).unwrap_or("");
    if (first == ".section" && second.starts_with(".nv."))
        || (first == ".sectioninfo" && second.contains("SHI_"))
        || (first == ".elftype" && second.contains("ET_"))
    {
        return Some((Dialect::Sass, first));
    }
    if line.starts_with("[B") && line.contains(":R") && line.contains(":W") {
        return Some((Dialect::Sass, first));
    }
    // PTX directives.
    const PTX: [&str; 8] = [
        ".version",
        ".target",
        ".entry",
        ".visible",
        ".func",
        ".reg",
        ".param",
        ".address_size",
    ];
    if PTX.contains(&first) {
        return Some((Dialect::Ptx, first));
    }
    // GCN3 directives and opcodes.
    if first.starts_with(".amdgcn_target") || first.starts_with(".amdhsa_") {
        return Some((Dialect::Gcn, first));
    }
    let gcn_prefix = ["s_", "v_", "flat_", "buffer_", "ds_", "global_"];
    if gcn_prefix.iter().any(|p| first.starts_with(p))
        && first
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Some((Dialect::Gcn, first));
    }
    // Sim-D sections.
    if first == ".data" || first == ".text" {
        return Some((Dialect::Simd, first));
    }
    // L/C keys.
    if matches!(
        first,
        "kernel" | "warp_number" | "ls_unit_number" | "alu_unit_number"
    ) {
        return Some((Dialect::Lc, first));
    }
    // A SASS instruction without an address.
    sass_instruction(line.trim_end()).map(|op| (Dialect::Sass, op))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dialect(text: &str) -> Option<Dialect> {
        guess(text).map(|g| g.dialect)
    }

    #[test]
    fn each_dialect_by_its_marks() {
        let ptx = "//\n// Generated by NVIDIA NVVM Compiler\n.version 7.8\n.target sm_52\n";
        let g = guess(ptx).expect("ptx");
        assert_eq!(
            (g.dialect, g.line, g.evidence.as_str()),
            (Dialect::Ptx, 3, ".version")
        );
        assert_eq!(
            dialect("\n\tcode for sm_86\n\t\tFunction : _Z3fooPi\n"),
            Some(Dialect::Sass)
        );
        let g = guess("  /*0010*/  @P0 BRA 0x40 ;  /* 0x000fe20003800000 */").expect("sass");
        assert_eq!((g.dialect, g.evidence.as_str()), (Dialect::Sass, "BRA"));
        assert_eq!(dialect("S2R R0, SR_TID.X ;\nEXIT ;"), Some(Dialect::Sass));
        assert_eq!(dialect("@P0 BRA `(.L_x_1) ;"), Some(Dialect::Sass));
        assert_eq!(
            dialect("; Figure 2b\nfig2:\n  s_load_dwordx4 s[0:3], s[4:5], 0x0\n"),
            Some(Dialect::Gcn)
        );
        assert_eq!(
            dialect("// Sim-D\n.data\n\t0 0x0 1024 32\n.text\n\tldglin v1, 0\n"),
            Some(Dialect::Simd)
        );
        // clang's GCN3 listing starts with `.text` too: the GCN3 mark that follows decides.
        assert_eq!(
            dialect("\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx801\"\n"),
            Some(Dialect::Gcn)
        );
        assert_eq!(
            dialect("# Berezovskyi\nkernel LLC\nwarp_number 4\n"),
            Some(Dialect::Lc)
        );
        assert_eq!(
            dialect("wcet,is_bsb_node,is_reconv_node,successors\n2,False,False,1;2\n"),
            Some(Dialect::PwsCsv)
        );
    }

    #[test]
    fn cuda_source_by_its_marks() {
        let cu = "#include <cstdio>\n\n__global__ void k(int *out) {\n  out[threadIdx.x] = 1;\n}\n";
        let m = cuda_source(cu).expect("CUDA source");
        assert_eq!((m.line, m.evidence.as_str()), (1, "#include"));
        let bare = "// a kernel\n__global__ void k(float *x) { x[blockIdx.x] *= 2; }\n";
        let m = cuda_source(bare).expect("CUDA source");
        assert_eq!((m.line, m.evidence.as_str()), (2, "__global__"));
        assert_eq!(guess(bare), None);
        // Compiled code is not source, even when a comment quotes the source.
        let ptx = ".version 7.8\n.target sm_86\n// __global__ void k()\n.visible .entry k()\n{\nret;\n}\n";
        assert_eq!(cuda_source(ptx), None);
        let sass = "code for sm_61\n/*0000*/ S2R R0, SR_TID.X ;\n/*0008*/ EXIT ;\n";
        assert_eq!(cuda_source(sass), None);
        assert_eq!(cuda_source("LLCLL\n"), None);
    }

    #[test]
    fn nvdisasm_dumps_are_sass() {
        let dump = "\t.headerflags\t@\"EF_CUDA_SM86 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM86)\"\n\
                    \t.elftype\t@\"ET_EXEC\"\n";
        let g = guess(dump).expect("sass");
        assert_eq!(
            (g.dialect, g.line, g.evidence.as_str()),
            (Dialect::Sass, 1, ".headerflags")
        );
        // A dump pasted from one of its sections on: data lines carry no mark (`.byte` does
        // not end in ` ;`), the section does.
        let g = guess(
            "//---- .nv.info ----\n\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n\
             \t.align\t4\n        /*0000*/ \t.byte\t0x04, 0x2f\n",
        )
        .expect("sass");
        assert_eq!((g.dialect, g.line), (Dialect::Sass, 2));
        assert_eq!(
            dialect("\t.section\t.text.k,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=8\"\n"),
            Some(Dialect::Sass)
        );
        assert_eq!(
            from_file_name("k.nvdisasm").map(|g| g.dialect),
            Some(Dialect::Sass)
        );
    }

    #[test]
    fn text_without_marks_is_not_guessed() {
        assert_eq!(dialect(""), None);
        assert_eq!(dialect("hello world\nfoo: bar"), None);
        // Lower-case opcodes ending in ` ;` are not SASS.
        assert_eq!(dialect("mov r1, r2 ;"), None);
    }

    #[test]
    fn file_names_and_content_together() {
        assert_eq!(
            from_file_name("k.ptx").map(|g| g.dialect),
            Some(Dialect::Ptx)
        );
        assert_eq!(from_file_name("dir.v2/kernel").map(|g| g.dialect), None);
        // The content wins over the extension.
        assert_eq!(
            guess_file("k.s", ".version 7.8\n").map(|g| g.dialect),
            Some(Dialect::Ptx)
        );
        assert_eq!(
            guess_file("k.sass", "").map(|g| g.evidence),
            Some(".sass".into())
        );
    }
}
