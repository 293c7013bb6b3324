//! `warpbound`: the command-line face of the facade's `Request -> Report` API.
//!
//! It only reads files, builds a [`warpbound::Request`], and prints the [`warpbound::Report`];
//! nothing analytic lives here. Exit status: 0 on success, 1 when the report holds an error
//! diagnostic, 2 on usage errors (bad flags, unreadable files, malformed request JSON).

mod args;
mod progress;
mod text;

use args::{Cli, Command, Format};
use clap::Parser;
use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze(a) => match a.to_request(read_input) {
            Ok((request, input_diagnostics)) => {
                let mut report = if a.progress {
                    let line = progress::Line::default();
                    warpbound::analyze_with_progress(&request, &|p| line.report(p))
                } else {
                    warpbound::analyze(&request)
                };
                report.add_diagnostics(input_diagnostics);
                match a.format {
                    Format::Json => {
                        if let Err(e) = emit_json(&report) {
                            return usage(&format!("cannot serialize the report: {e}"));
                        }
                    }
                    Format::Text => emit(&text::render(&report, a.display_name())),
                }
                if report.has_errors() {
                    ExitCode::from(1)
                } else {
                    ExitCode::SUCCESS
                }
            }
            Err(msg) => usage(&msg),
        },
        Command::Catalog => match serde_json::to_string_pretty(&warpbound::catalog()) {
            Ok(s) => {
                emit(&s);
                ExitCode::SUCCESS
            }
            Err(e) => usage(&format!("cannot serialize the catalog: {e}")),
        },
        Command::Opcodes(a) => opcodes(&a),
    }
}

/// `warpbound opcodes --dialect D`: the dialect's opcode documentation.
fn opcodes(a: &args::OpcodesArgs) -> ExitCode {
    let Some(table) =
        warpbound::Dialect::from_name(&a.dialect).and_then(warpbound::opcode_docs::opcode_table)
    else {
        return usage(&format!(
            "no opcode table for dialect `{}` (sass, ptx, gcn, simd or lc)",
            a.dialect
        ));
    };
    match a.format {
        Format::Json => match serde_json::to_string_pretty(&table) {
            Ok(s) => emit(&s),
            Err(e) => return usage(&format!("cannot serialize the table: {e}")),
        },
        Format::Text => {
            // Written through a lock, ignoring a closed pipe (`warpbound opcodes … | head`).
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "# {} opcodes; class: {}",
                table.dialect.name(),
                table.classes
            );
            for (name, d) in &table.opcodes {
                let mut class = d.latency_class.clone();
                if let Some(also) = &d.also {
                    class = format!("{class}; {also}");
                }
                if let Some(dep) = &d.depends_on {
                    class = format!("{class}; depends on {dep}");
                }
                if writeln!(out, "{name}\t{}\t({class})", d.description).is_err() {
                    break;
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// Prints `text` and a newline to standard output. A reader that closes the pipe early
/// (`warpbound analyze k.sass | head`) is not an error: `println!` would panic there.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Writes `report` as pretty JSON and a newline to standard output, streamed through a
/// buffer rather than built as one string first: an `rr` report with the traces of millions
/// of warp steps is hundreds of megabytes. A closed pipe ends the output quietly, as in
/// [`emit`]; only a value that cannot be serialized is an error.
fn emit_json(report: &warpbound::Report) -> Result<(), serde_json::Error> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match serde_json::to_writer_pretty(&mut out, report) {
        Err(e) if !e.is_io() => return Err(e),
        Err(_) => return Ok(()),
        Ok(()) => {}
    }
    let _ = writeln!(out).and_then(|()| out.flush());
    Ok(())
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("warpbound: {msg}");
    ExitCode::from(2)
}

/// Reads a file, or standard input for `-`, and decodes it (lossily, with a located error at
/// the first byte that is not UTF-8).
fn read_input(path: &str) -> Result<(String, Option<isa::Diagnostic>), String> {
    let bytes = if path == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        b
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?
    };
    Ok(isa::source_text::decode(&bytes))
}
