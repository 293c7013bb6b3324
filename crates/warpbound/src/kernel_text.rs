//! The request's kernel read in its dialect: parsed within the limits, the function chosen
//! (the request's `function`, else the first kernel) and its instruction table built —
//! the same way for every mode that reads the dialect, with the same messages.

use crate::mode::{ModeInput, ModeOutput};
use crate::views;
use isa::gcn::{GcnFunction, GcnProgram};
use isa::ptx::Function;
use isa::{BlockGraph, Diagnostic, Kernel, Limits, Severity};
use web_time::Instant;

/// A SASS kernel with its thread-level block graph, and the graph's loops once asked for.
pub struct Sass {
    pub kernel: Kernel,
    pub graph: BlockGraph,
    loops: std::cell::OnceCell<Vec<sim::loop_counts::BlockLoop>>,
}

impl Sass {
    /// The loops of the block graph that runs count (`crate::observed_loops`), found once
    /// however many runs of the request count them.
    pub fn loops(&self) -> &[sim::loop_counts::BlockLoop] {
        self.loops
            .get_or_init(|| crate::observed_loops::loops(&self.graph))
    }
}

/// Parses the request's SASS and builds its block graph. The instruction table (with each
/// instruction's block) goes into `out` whenever a kernel was found, with every diagnostic
/// and the `parse` and `cfg` timings; `None` after any error.
pub fn sass(input: &ModeInput, out: &mut ModeOutput) -> Option<Sass> {
    sass_with(input, out, |_, _, _| {})
}

/// As [`sass`], with `adjust` applied to the parsed kernel (given the listing's function
/// names) before its block graph is built — a mode's annotation of the code, such as the
/// targets of indirect branches. The table shows the kernel as parsed; an error from `adjust`
/// stops there.
pub fn sass_with(
    input: &ModeInput,
    out: &mut ModeOutput,
    adjust: impl FnOnce(&mut Kernel, &[String], &mut Vec<Diagnostic>),
) -> Option<Sass> {
    let request = input.request;
    let t = Instant::now();
    let parsed = isa::sass::parse(&request.source, request.function.as_deref(), &input.limits);
    out.time("parse", t);
    let failed = parsed.has_errors();
    out.diagnostics.extend(parse_stage(parsed.diagnostics));
    let mut kernel = parsed.kernel?;
    let mut view = views::kernel::sass(&kernel, parsed.functions);
    if failed {
        out.kernel = Some(view);
        return None;
    }
    let before = out.diagnostics.len();
    adjust(&mut kernel, &view.functions, &mut out.diagnostics);
    if out.diagnostics[before..].iter().any(Diagnostic::is_error) {
        out.kernel = Some(view);
        return None;
    }
    let t = Instant::now();
    let graph = isa::blocks::build(&kernel, &input.limits);
    out.time("cfg", t);
    out.diagnostics.extend(graph.diagnostics.iter().cloned());
    for ins in view.instructions.iter_mut() {
        ins.block = graph.block_of(ins.index);
    }
    out.kernel = Some(view);
    if graph.diagnostics.iter().any(Diagnostic::is_error) {
        return None;
    }
    Some(Sass {
        kernel,
        graph,
        loops: std::cell::OnceCell::new(),
    })
}

/// A parsed PTX module and the kernel chosen from it.
pub struct Ptx {
    parsed: isa::ptx::Parsed,
    index: usize,
    /// Every kernel with a body (the page's function menu).
    pub names: Vec<String>,
    /// Whether the text had errors (the function was still found).
    pub failed: bool,
}

impl Ptx {
    /// The chosen function.
    pub fn function(&self) -> &Function {
        &self.parsed.module.functions[self.index]
    }

    /// The whole module (the chosen function's callees are in it).
    pub fn module(&self) -> &isa::ptx::Module {
        &self.parsed.module
    }

    /// Its instruction table.
    pub fn view(&self, source: &str) -> crate::report::KernelView {
        views::kernel::ptx(self.function(), self.names.clone(), source)
    }
}

/// Parses PTX and chooses `function`, else the first `.entry` with a body. The parser's
/// diagnostics go to `diags`; when no kernel is found that is an error there too — unless
/// the text already failed to parse, whose diagnostics explain it.
pub fn ptx(
    source: &str,
    function: Option<&str>,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Option<Ptx> {
    let parsed = isa::ptx::parse(source, limits);
    let failed = parsed.has_errors();
    diags.extend(parse_stage(parsed.diagnostics.iter().cloned()));
    let names: Vec<String> = parsed
        .module
        .functions
        .iter()
        .filter(|f| f.has_body)
        .map(|f| f.name.clone())
        .collect();
    let index = index_of(
        &parsed.module.functions,
        parsed.module.function(function),
        failed,
        diags,
        || match function {
            Some(n) => format!("no kernel `{n}` with a body (found: {})", names.join(", ")),
            None => "no kernel with a body in the text".to_string(),
        },
    )?;
    Some(Ptx {
        parsed,
        index,
        names,
        failed,
    })
}

/// A parsed GCN3 listing and the function chosen from it.
pub struct Gcn {
    pub program: GcnProgram,
    index: usize,
    /// Every function of the listing (the page's function menu).
    pub names: Vec<String>,
    /// Whether the text had errors (the function was still found).
    pub failed: bool,
}

impl Gcn {
    /// The chosen function.
    pub fn function(&self) -> &GcnFunction {
        &self.program.functions[self.index]
    }

    /// Its instruction table.
    pub fn view(&self) -> crate::report::KernelView {
        views::kernel::gcn(
            self.function(),
            self.names.clone(),
            self.program.target.clone(),
        )
    }
}

/// Parses GCN3 and chooses `function`, else the first one; diagnostics as for [`ptx`].
pub fn gcn(
    source: &str,
    function: Option<&str>,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Option<Gcn> {
    let program = isa::gcn::parse(source, limits);
    let failed = program.has_errors();
    diags.extend(parse_stage(program.diagnostics.iter().cloned()));
    let names: Vec<String> = program.functions.iter().map(|f| f.name.clone()).collect();
    let index = index_of(
        &program.functions,
        program.function(function),
        failed,
        diags,
        || match function {
            Some(n) => format!("no function `{n}` (found: {})", names.join(", ")),
            None => "no function found in the text".to_string(),
        },
    )?;
    Some(Gcn {
        program,
        index,
        names,
        failed,
    })
}

/// The index of the chosen function in `functions`. When none was chosen, an error
/// (`missing`: what was asked for and what the text has) — unless the text failed to parse,
/// whose own diagnostics explain it.
fn index_of<F>(
    functions: &[F],
    chosen: Option<&F>,
    failed: bool,
    diags: &mut Vec<Diagnostic>,
    missing: impl FnOnce() -> String,
) -> Option<usize> {
    let index = chosen.and_then(|f| functions.iter().position(|g| std::ptr::eq(f, g)));
    if index.is_none() && !failed {
        diags.push(Diagnostic::global(Severity::Error, missing()));
    }
    index
}

/// Parses a Sim-D program (one per file): the program, if any, and whether the text had
/// errors; the diagnostics go to `diags`.
pub fn simd(
    source: &str,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Option<(isa::simd::Program, bool)> {
    let parsed = isa::simd::parse(source, limits);
    let failed = parsed.has_errors();
    diags.extend(parse_stage(parsed.diagnostics));
    parsed.program.map(|p| (p, failed))
}

/// Labels a parser's diagnostics as the parse stage's.
fn parse_stage(d: impl IntoIterator<Item = Diagnostic>) -> impl Iterator<Item = Diagnostic> {
    d.into_iter().map(|d| d.in_stage(isa::Stage::Parse))
}
