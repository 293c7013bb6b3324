//! Command-line syntax and its translation into a [`Request`].

use clap::{Args, Parser, Subcommand, ValueEnum};
use isa::{Diagnostic, Dialect};
use warpbound::Request;

#[derive(Parser, Debug)]
#[command(name = "warpbound", version, about = "WCET analysis of GPU kernels")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse a kernel and print the report.
    Analyze(Box<AnalyzeArgs>),
    /// Print the dialects, modes, parameters and presets this build offers, as JSON.
    Catalog,
    /// Print a dialect's opcode documentation: each opcode's one-line description and the
    /// latency class the analyses charge it with.
    Opcodes(OpcodesArgs),
}

#[derive(Args, Debug)]
pub struct OpcodesArgs {
    /// Dialect: sass, ptx, gcn, simd or lc.
    #[arg(long)]
    pub dialect: String,
    /// Output format: `text` (one opcode a line) or `json` (the table the page receives).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Text,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Kernel file, or `-` for standard input.
    #[arg(conflicts_with = "request")]
    pub file: Option<String>,
    /// Input dialect: sass, gcn, ptx, simd, lc or pws-csv; `auto` (the default) takes it from
    /// the text (a `.version` directive, a `Function :` header, ...) or else the file
    /// extension, falling back to sass, and says on stderr which it chose.
    #[arg(long, default_value = "auto")]
    pub dialect: String,
    /// Function to analyse when the file holds several (default: the first).
    #[arg(long)]
    pub function: Option<String>,
    /// Analysis mode (see `warpbound catalog`; default `thread-cfg`: parse and thread-level
    /// CFG; former names such as `cfg` are accepted).
    #[arg(long)]
    pub mode: Option<String>,
    /// Named hardware preset of the mode.
    #[arg(long)]
    pub preset: Option<String>,
    /// Parameter override KEY=VALUE (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Loop bound HEADER=N: the loop whose header is at address HEADER (SASS, `warp-cfg`) or
    /// has label HEADER (GCN3, `pws`; PTX, `rr`, for loops that exit on unknown data) runs its
    /// header at most N times per entry (repeatable).
    #[arg(long = "loop-bound", value_name = "HEADER=N")]
    pub loop_bound: Vec<String>,
    /// Bound for loops neither the code nor `--loop-bound` bounds (`warp-cfg`, `block`, `pws`
    /// and `rr` modes; 0: none); each loop it bounds is a warning: an assumption.
    #[arg(long = "default-loop-bound", value_name = "N")]
    pub default_loop_bound: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Leave wall-clock timings out of the report, so it depends only on the request (byte for
    /// byte the same as the wasm build's `analyze_json`).
    #[arg(long)]
    pub no_timings: bool,
    /// Print progress of long work (makespan searches and curves, branch and bound, the
    /// warp-level CFGs, the rr analyzer, PWS unrolling and split selection, simulations and
    /// Sim-D executions) to standard error, at most twice a second: the work done against
    /// its budget and the best bound so far. The report is the same.
    #[arg(long)]
    pub progress: bool,
    /// Read the whole request (the JSON the page sends) from this file instead.
    #[arg(long, conflicts_with_all = ["dialect", "function", "mode", "preset", "set", "loop_bound", "default_loop_bound"])]
    pub request: Option<String>,
}

impl AnalyzeArgs {
    /// The name diagnostics are printed against in text output.
    pub fn display_name(&self) -> &str {
        self.file
            .as_deref()
            .or(self.request.as_deref())
            .unwrap_or("-")
    }

    /// Builds the request; `read` reads a path (or `-`) and decodes it, with a located error
    /// when the bytes are not UTF-8 ([`isa::source_text::decode`]). Returns the request and
    /// the kernel file's decoding diagnostics (they belong in the report). Errors are usage
    /// errors.
    pub fn to_request(
        &self,
        read: impl Fn(&str) -> Result<(String, Option<Diagnostic>), String>,
    ) -> Result<(Request, Vec<Diagnostic>), String> {
        if let Some(path) = &self.request {
            let (text, bad) = read(path)?;
            if let Some(d) = bad {
                return Err(format!("{path}: not a request: {d}"));
            }
            let mut request: Request =
                serde_json::from_str(&text).map_err(|e| format!("{path}: not a request: {e}"))?;
            if self.no_timings {
                request.timings = false;
            }
            return Ok((request, Vec::new()));
        }
        let named = if self.dialect == "auto" {
            None
        } else {
            Some(Dialect::from_name(&self.dialect).ok_or_else(|| {
                let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
                format!(
                    "unknown dialect `{}` (one of: auto, {})",
                    self.dialect,
                    names.join(", ")
                )
            })?)
        };
        let catalog = warpbound::catalog();
        if let Some(mode) = &self.mode {
            if catalog.mode(mode).is_none() {
                let names: Vec<&str> = catalog.modes.iter().map(|m| m.name.as_str()).collect();
                return Err(format!(
                    "unknown mode `{mode}` (one of: {})",
                    names.join(", ")
                ));
            }
        }
        let path = self.file.as_deref().unwrap_or("-");
        let (source, bad) = read(path)?;
        let dialect = match named {
            Some(d) => d,
            None => detect(path, &source),
        };
        let mut request = Request::new(source, dialect);
        request.function = self.function.clone();
        request.mode = self.mode.clone();
        request.preset = self.preset.clone();
        request.timings = !self.no_timings;
        for kv in &self.set {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("--set expects KEY=VALUE, got `{kv}`"))?;
            request.params.insert(
                k.trim().to_string(),
                serde_json::Value::String(v.trim().to_string()),
            );
        }
        for kv in &self.loop_bound {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("--loop-bound expects HEADER=N, got `{kv}`"))?;
            let n = warpbound::params::number::unsigned(v)
                .ok_or_else(|| format!("--loop-bound {kv}: N must be a whole number"))?;
            request.loop_bounds.insert(k.trim().to_string(), n);
        }
        if let Some(n) = self.default_loop_bound {
            request
                .params
                .insert("default_loop_bound".into(), serde_json::json!(n));
        }
        Ok((request, bad.into_iter().collect()))
    }
}

/// The dialect of a kernel file given without `--dialect`: what its text shows, else its
/// extension, else SASS; the choice and its reason go to stderr (the report's `dialect`
/// field names it too).
fn detect(path: &str, source: &str) -> Dialect {
    let name = if path == "-" { "" } else { path };
    match isa::dialect_guess::guess_file(name, source) {
        Some(g) if g.line > 0 => {
            eprintln!(
                "warpbound: reading {} as {} (`{}` on line {}; --dialect overrides)",
                if path == "-" { "standard input" } else { path },
                g.dialect.name(),
                g.evidence,
                g.line
            );
            g.dialect
        }
        Some(g) => {
            eprintln!(
                "warpbound: reading {path} as {} (file extension {}; --dialect overrides)",
                g.dialect.name(),
                g.evidence
            );
            g.dialect
        }
        None => Dialect::Sass,
    }
}
