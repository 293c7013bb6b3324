//! The rows of the Sim-D corpus's `launch.tsv` (benchmark, then the launch script's
//! arguments, which name the kernel file and pass the NDRange and work-group width), shared
//! by `phases`' corpus tests, its `execution_table` example and the facade's `simd.rs`, each
//! including this file by path and reading the launch from the arguments its own way.

/// `(name, kernel file stem, arguments)` of every row of `text` that names a `.sas` file,
/// the header skipped; the name is the file stem where the row gives none.
pub fn rows(text: &str) -> Vec<(String, String, &str)> {
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let (name, args) = line.split_once('\t').unwrap_or(("", line));
        let Some(path) = args.split_whitespace().find(|w| w.ends_with(".sas")) else {
            continue;
        };
        let stem = path
            .rsplit('/')
            .next()
            .unwrap_or(path)
            .trim_end_matches(".sas")
            .to_string();
        let name = if name.is_empty() {
            stem.clone()
        } else {
            name.to_string()
        };
        out.push((name, stem, args));
    }
    out
}
