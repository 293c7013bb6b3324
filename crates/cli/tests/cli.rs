//! The `warpbound` binary end to end: flags, request files, output shape and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warpbound"))
}

fn corpus(name: &str) -> String {
    let dir = std::env::var("WARPBOUND_CORPUS")
        .unwrap_or_else(|_| format!("{}/../../../shared/corpus", env!("CARGO_MANIFEST_DIR")));
    format!("{dir}/sass/{name}")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // A usage error may exit before reading: a broken pipe here is expected then.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait_with_output().expect("finishes")
}

/// The JSON report of a run, which exited with 0 (else the message is its standard error).
fn succeeded(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(out)
}

/// `warpbound analyze - --dialect <dialect> --mode <mode> <more…>` on `input`.
fn analyze_stdin(dialect: &str, mode: &str, more: &[&str], input: &str) -> Output {
    let mut args = vec!["analyze", "-", "--dialect", dialect, "--mode", mode];
    args.extend_from_slice(more);
    run_stdin(&args, input)
}

const KERNEL: &str = "/*0000*/ S2R R0, SR_TID.X ;\n/*0008*/ ISETP.GE.AND P0, PT, R0, 0x10, PT ;\n\
/*0010*/ @P0 EXIT ;\n/*0018*/ IADD R1, R0, 0x1 ;\n/*0020*/ EXIT ;\n";

#[test]
fn analyze_a_corpus_file_as_json() {
    let out = bin()
        .args([
            "analyze",
            &corpus("celer_logs_exp___Z5myexpPd.sass"),
            "--dialect",
            "sass",
        ])
        .output()
        .expect("runs");
    let v = succeeded(&out);
    assert_eq!(v["schema_version"], 3);
    assert_eq!(v["kernel"]["function"], "_Z5myexpPd");
    assert_eq!(
        v["kernel"]["instructions"].as_array().map(Vec::len),
        Some(49)
    );
    assert_eq!(v["kernel"]["arch"], "sm_35");
    assert!(v["diagnostics"].as_array().is_some());
    assert!(v["timings_ms"]["total"].as_f64().is_some());
    let nodes = v["cfg"]["nodes"].as_array().expect("nodes");
    assert_eq!(nodes[0]["start"], 8);
    assert!(nodes
        .iter()
        .all(|n| n["instructions"].as_u64().unwrap_or(0) > 0));
}

#[test]
fn stdin_and_request_file_give_the_same_report() {
    let a = run_stdin(&["analyze", "-"], KERNEL);
    assert_eq!(a.status.code(), Some(0));
    let va = json(&a);
    // Blocks: [S2R, ISETP, @P0 EXIT], [IADD, EXIT].
    let edges: Vec<(u64, u64, String)> = va["cfg"]["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            (
                e["from"].as_u64().unwrap_or(99),
                e["to"].as_u64().unwrap_or(99),
                e["kind"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(edges, vec![(0, 1, "fallthrough".to_string())]);

    let dir = std::env::temp_dir().join(format!("warpbound-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let req = dir.join("req.json");
    let body = serde_json::json!({"schema_version": 1, "source": KERNEL, "dialect": "sass"});
    std::fs::write(&req, body.to_string()).expect("write");
    let b = bin()
        .args(["analyze", "--request", req.to_str().unwrap_or("")])
        .output()
        .expect("runs");
    assert_eq!(b.status.code(), Some(0));
    let vb = json(&b);
    assert_eq!(va["kernel"], vb["kernel"]);
    assert_eq!(va["cfg"], vb["cfg"]);
}

#[test]
fn errors_exit_one_with_located_diagnostics() {
    let out = run_stdin(
        &["analyze", "-"],
        "/*0000*/ MOV R1, R2 ;\nnot sass at all\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["line"], 2);
    assert_eq!(d["column"], 1);
    assert!(d["message"]
        .as_str()
        .unwrap_or("")
        .contains("unrecognized line"));
}

#[test]
fn usage_errors_exit_two() {
    let cases: Vec<Vec<&str>> = vec![
        vec!["analyze", "/nonexistent/file.sass"],
        vec!["analyze", "-", "--mode", "no-such-mode"],
        vec!["analyze", "-", "--dialect", "klingon"],
        vec!["analyze", "-", "--set", "novalue"],
        vec!["analyze", "-", "--format", "yaml"],
        vec!["frobnicate"],
    ];
    for args in cases {
        let out = run_stdin(&args, KERNEL);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn set_overrides_reach_the_analysis() {
    let out = run_stdin(&["analyze", "-", "--set", "max_instructions=2"], KERNEL);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let msgs: Vec<&str> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        msgs.iter().any(|m| m.contains("max_instructions")),
        "{msgs:?}"
    );
}

#[test]
fn text_format_lists_blocks() {
    let out = run_stdin(&["analyze", "-", "--format", "text"], KERNEL);
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("function kernel (5 instructions)"), "{s}");
    assert!(s.contains("thread CFG: 2 blocks, 1 edges"), "{s}");
}

#[test]
fn catalog_lists_the_default_mode_and_its_parameters() {
    let out = bin().arg("catalog").output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    // The default mode's current name; its former name `cfg` is listed as an alias.
    assert_eq!(v["default_mode"], "thread-cfg");
    assert_eq!(v["modes"][0]["aliases"][0], "cfg");
    let params = v["modes"][0]["params"].as_array().expect("params");
    assert!(params.iter().any(|p| p["name"] == "max_instructions"));
}

/// A mode's former name still works on the command line, and the report names the mode by
/// its current name.
#[test]
fn former_mode_names_are_accepted() {
    let out = run_stdin(&["analyze", "-", "--mode", "cfg"], KERNEL);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["mode"], "thread-cfg");
    assert_eq!(v["cfg"]["kind"], "thread");
}

#[test]
fn makespan_mode_from_the_command_line() {
    let out = analyze_stdin(
        "lc",
        "makespan",
        &[
            "--set",
            "warps=4",
            "--set",
            "ls_units=32",
            "--set",
            "cores=32",
            "--set",
            "warp_size=32",
        ],
        "LLC\n",
    );
    let v = succeeded(&out);
    // Hand-derived in crates/warpbound/tests/makespan.rs: pessimistic 12, exact 9.
    assert_eq!(v["wcet"]["cycles"], 9);
    assert_eq!(v["details"]["makespan"]["pessimistic"], 12);
    assert_eq!(v["details"]["makespan"]["exact"], 9);
    assert_eq!(v["details"]["makespan"]["transformed"], "LLC");
    assert_eq!(
        v["details"]["makespan"]["schedule"]
            .as_array()
            .map(Vec::len),
        Some(12)
    );
    // The Fermi cc 2.0 preset: 16 load/store units halve L throughput.
    let out = analyze_stdin(
        "lc",
        "makespan",
        &["--preset", "fermi-cc2.0", "--set", "warps=2"],
        "LC\n",
    );
    let v = json(&out);
    assert_eq!(v["details"]["makespan"]["transformed"], "LLC");
}

/// The `launch` mode from the command line: the GPU preset, the SM count and the grid as
/// `--set`, the bound and the several-SM run in the JSON.
#[test]
fn launch_mode_from_the_command_line() {
    let out = analyze_stdin(
        "sass",
        "launch",
        &[
            "--set",
            "gpu=rtx-2080-ti",
            "--set",
            "sms=2",
            "--set",
            "grid=4,1,1",
            "--set",
            "block=1024,1,1",
            "--set",
            "simulate=true",
        ],
        "MOV R1, 0x1 ;\nMOV R2, 0x2 ;\nMOV R3, 0x3 ;\nEXIT ;\n",
    );
    let v = succeeded(&out);
    // Hand-derived in crates/warpbound/tests/launch.rs: one 32-warp block per SM of sm_75,
    // two waves of 128 issues: bound and runs 256.
    assert_eq!(v["wcet"]["cycles"], 256);
    assert_eq!(v["details"]["launch"]["bound"]["waves"], 2);
    assert_eq!(v["details"]["launch"]["blocks_per_sm"], 1);
    assert_eq!(v["occupancy"]["machine"], "sm_75");
    assert_eq!(v["simulation"]["cycles"], 256);
    assert_eq!(v["simulation"]["holds"], true);
    assert_eq!(
        v["simulation"]["block_sms"],
        serde_json::json!([0, 1, 0, 1])
    );
}

/// A file that is not UTF-8: the first bad byte is a located error (exit 1), the rest of the
/// file is still parsed, so the kernel and its other instructions are in the report.
#[test]
fn non_utf8_input_is_located_and_the_rest_parsed() {
    let dir = std::env::temp_dir().join(format!("warpbound-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("latin1.sass");
    // Line 3 carries a Latin-1 `©` (0xA9) in a comment after 9 characters.
    let mut bytes = KERNEL
        .lines()
        .take(2)
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes();
    bytes.extend_from_slice(
        b"\n/*0010*/ @P0 EXIT ; // \xA9 2026\n/*0018*/ IADD R1, R0, 0x1 ;\n/*0020*/ EXIT ;\n",
    );
    std::fs::write(&path, &bytes).expect("write");
    let out = bin()
        .args(["analyze", &path.to_string_lossy(), "--dialect", "sass"])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let errors: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(3), Some(24))
    );
    assert!(errors[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("0xA9")));
    assert_eq!(
        v["kernel"]["instructions"].as_array().map(Vec::len),
        Some(5)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_dialect_is_detected_when_not_given() {
    let path = corpus("../ptx-modern/FunctionPointers.ptx");
    let out = bin()
        .args(["analyze", &path, "--no-timings"])
        .output()
        .expect("runs");
    assert_eq!(succeeded(&out)["dialect"], "ptx");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("as ptx (`.version` on line"), "{said}");
    // Named explicitly, the wrong dialect is kept, and the report says what the text is.
    let wrong = bin()
        .args(["analyze", &path, "--dialect", "sass", "--no-timings"])
        .output()
        .expect("runs");
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(json(&wrong)["dialect_hint"]["dialect"], "ptx");
}

/// A whole `nvdisasm` dump: detected as SASS from its `.headerflags`, the kernel entry chosen
/// by default or a function by `--function`, and the declared resources in the text output
/// (the numbers `cuobjdump -res-usage` prints for the cubin: REG:10, SHARED:0,
/// CONSTANT[0]:372, STACK:0).
#[test]
fn an_nvdisasm_dump_from_the_command_line() {
    let path = format!(
        "{}/../../tests/kernels/dump/sm_86/noinline_call.nvdisasm",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = bin()
        .args(["analyze", &path, "--no-timings", "--format", "text"])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("as sass (`.headerflags` on line 1"), "{said}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("function _Z13noinline_callPKfPfi (96 instructions, sm_86)"),
        "{text}"
    );
    assert!(
        text.contains(
            "declared: kernel entry, 10 registers, 0 bytes static shared, \
             372 bytes constant bank 0, 0 bytes stack"
        ),
        "{text}"
    );
    let missing = bin()
        .args(["analyze", &path, "--function", "nope", "--no-timings"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(1));
    let v = json(&missing);
    let message = v["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["severity"] == "error"))
        .map(|d| d["message"].to_string())
        .unwrap_or_default();
    assert!(message.contains("_Z13noinline_callPKfPfi"), "{message}");
}

/// A reader that stops early (`warpbound analyze k.sass | head`) ends the output, not the
/// program with a panic: the exit status is the report's (0 here), never 101.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    let kernel = format!(
        "{}/../../www/examples/its-sm86.sass",
        env!("CARGO_MANIFEST_DIR")
    );
    // A simulation's report (about 300 KB) is larger than the pipe's buffer (64 KB).
    let mut child = bin()
        .args([
            "analyze",
            &kernel,
            "--dialect",
            "sass",
            "--mode",
            "simulate",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("the report begins");
    // The pipe's read end is dropped here, before most of the report is written.
    let out = child.wait_with_output().expect("wait");
    assert_ne!(
        out.status.code(),
        Some(101),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--progress`: the exact makespan search of 8 warps on `LLCLLCLLC` (about a million search
/// steps) prints progress lines on standard error — the first at once — and the report on
/// standard output is byte for byte the one without the flag.
#[test]
fn progress_lines_go_to_stderr_and_leave_the_report_unchanged() {
    let args = [
        "analyze",
        "-",
        "--dialect",
        "lc",
        "--mode",
        "makespan",
        "--set",
        "warps=8",
        "--no-timings",
    ];
    let plain = run_stdin(&args, "LLCLLCLLC");
    let mut with = args.to_vec();
    with.push("--progress");
    let watched = run_stdin(&with, "LLCLLCLLC");
    assert!(plain.status.success() && watched.status.success());
    assert_eq!(plain.stdout, watched.stdout);
    let err = String::from_utf8_lossy(&watched.stderr);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("exact makespan search:"))
        .collect();
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines[0].contains("of 10,000,000 search steps")
            && lines[0].contains("longest schedule so far"),
        "{}",
        lines[0]
    );
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("exact makespan search:"));
}

/// Issue #38: a loop the code cannot bound (it runs until a loaded word is zero) is bounded
/// by `default_loop_bound` with a warning on the terminal, located at the loop's header,
/// that says the bound is an assumption and how to give one; the text report says the WCET
/// rests on it. A counted loop next to it is bounded by its counter, silently.
#[test]
fn an_unbounded_loop_is_a_visible_warning() {
    let src = "/*0000*/ MOV R1, RZ ;\n\
/*0010*/ IADD3 R1, R1, 0x1, RZ ;\n\
/*0020*/ ISETP.GE.AND P0, PT, R1, 0x8, PT ;\n\
/*0030*/ @!P0 BRA 0x10 ;\n\
/*0040*/ LDG.E R0, [R2.64] ;\n\
/*0050*/ ISETP.NE.AND P1, PT, R0, RZ, PT ;\n\
/*0060*/ @P1 BRA 0x40 ;\n\
/*0070*/ EXIT ;\n";
    let out = analyze_stdin("sass", "warp-cfg", &["--format", "text"], src);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let shown = format!("{stderr}{stdout}");
    let warning = shown
        .lines()
        .find(|l| l.contains("warning") && l.contains("loop 0x40"))
        .unwrap_or_else(|| panic!("no warning for the loop at 0x40:\n{shown}"));
    assert!(warning.contains(":5:"), "located at line 5: {warning}");
    for hint in ["assumption", "--loop-bound 0x40=N", "loop_bounds=observed"] {
        assert!(warning.contains(hint), "{hint}: {warning}");
    }
    assert!(stdout.contains("the bound rests on assumed loop bounds: 0x40 = 10 (default)"));
    assert!(stdout.contains("0x10 (line 2): 8 (inferred)"), "{stdout}");
    assert!(!shown.contains("loop 0x10: its bound"), "{shown}");
}
