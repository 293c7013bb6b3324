//! The SIMT simulator (crate `sim`) as the modes use it: in the `simulate` mode, and next to
//! a bound with `simulate=true`. Its parameters (launch, memory, machine, budgets), their
//! decoding into a [`SimRun`] and a `sim::Machine`, and running a kernel of any dialect the
//! simulator reads.
//!
//! Memory comes from the request's `memory` field (the `sim::MemoryInit` JSON), or from the
//! `memory` text parameter: arrays separated by `;`, each `NAME@ADDRESS WORDS FILL ARGS…` with
//! FILL one of `const V`, `iota START STEP`, `random SEED BELOW`, `words V V …`,
//! `floats X X …` — e.g. `x@0x1000 256 iota 0 1; y@0x2000 256 const 0`.

use crate::auto_memory;
use crate::catalog::{ParamInfo, PresetInfo};
use crate::context::Context;
use crate::memory_init::MemoryInit;
use crate::params::{kernel_args, number, sass_args, Params};
use crate::report::{ArgumentSource, KernelArguments};
use cfg::TimingClass;
use isa::{Diagnostic, Dialect, Kernel, Severity};
use std::collections::BTreeMap;

/// The simulator's presets (machines) in the crate's order; the first is the default.
fn machines() -> Vec<sim::Preset> {
    sim::presets()
}

/// A named preset's machine as it is; the first preset's for an unknown name or none.
pub fn preset_machine(name: Option<&str>) -> Option<sim::Machine> {
    let all = machines();
    let pick = all.iter().position(|x| Some(x.name) == name).unwrap_or(0);
    all.into_iter().nth(pick).map(|p| p.machine)
}

/// The launch, memory, stepper and budget parameters of a run (what a bounding mode adds for
/// `simulate=true`), in form folds `simulation` and `budgets`.
pub fn launch_params() -> Vec<ParamInfo> {
    params()
        .into_iter()
        .filter(|p| p.group.is_empty() || p.group == "budgets")
        .map(|p| {
            let g = if p.group.is_empty() {
                "simulation"
            } else {
                "budgets"
            };
            p.in_group(g)
        })
        .collect()
}

/// The `simulate` flag of a bounding mode (`description`: what the run shows next to the
/// bound) followed by the parameters of that run ([`launch_params`]).
pub fn simulate_params(description: &str) -> Vec<ParamInfo> {
    let mut v = vec![ParamInfo::flag("simulate", description, false)];
    v.extend(launch_params());
    v
}

/// Every parameter of the `simulate` mode: launch, memory, stepper, the machine (with the
/// first preset's values as defaults) and budgets.
pub fn params() -> Vec<ParamInfo> {
    let b = sim::Budget::default();
    let mut v = vec![
        ParamInfo::text("grid", "grid dimensions X,Y,Z (blocks)", "1,1,1"),
        ParamInfo::text("block", "block dimensions X,Y,Z (threads)", "32,1,1"),
        ParamInfo::text(
            "params",
            "kernel parameters as 32-bit words, comma-separated (kernel parameter k is the word at c[0x0][0x140 + 4k]; decimals are stored as floats); empty or `auto` chooses them (a SASS kernel's layout inferred from the constant-bank words it reads; pointers 1 MiB apart from 0x100000, integers 64, floats 1.0, listed in the report's arguments; with `memory` empty too, every address is memory: each pointer gets an array, every word reads a small number derived from its address until written, and the report lists the accesses outside the arrays)",
            "",
        ),
        ParamInfo::text(
            "memory",
            "global memory: `NAME@ADDR WORDS FILL ARGS` separated by `;` — FILL is const V, iota START STEP, random SEED BELOW, words V…, floats X… (e.g. x@0x1000 64 iota 0 1)",
            "",
        ),
        ParamInfo::text(
            "textures",
            "SASS texture and surface bindings, `HANDLE WIDTHxHEIGHT` separated by `;` (e.g. 0x300000 64x64): the simulator's texture model (sim::texture) reads a handle as the address of a pitch-linear array of 32-bit texels in global memory, fetched nearest-point with clamped coordinates; empty: an automatic launch binds each texture parameter it infers to 64x64 texels",
            "",
        ),
        ParamInfo::number("shared_bytes", "shared memory per block", "bytes", 0.0, 1e8, 0.0),
        ParamInfo::number("warp", "global warp id the stepper records", "warp", 0.0, 1e9, 0.0),
        ParamInfo::flag(
            "trace",
            "record every issue, unit occupancy, memory transaction and the stepper's steps; off: only cycles, counts and the final memory (long runs are about twice as fast)",
            true,
        ),
    ];
    if let Some(m) = preset_machine(None) {
        v.extend(machine_params(&m));
    }
    for (name, meaning, default) in [
        ("max_cycles", "most simulated cycles", b.max_cycles),
        ("max_steps", "most issued warp-instructions", b.max_steps),
        (
            "max_timeline_entries",
            "most timeline entries recorded",
            b.max_timeline_entries as u64,
        ),
        (
            "max_stepper_steps",
            "most stepper steps recorded",
            b.max_stepper_steps as u64,
        ),
        ("max_blocks", "most thread blocks", b.max_blocks),
        (
            "max_memory_words",
            "most words of global memory",
            b.max_memory_words,
        ),
        (
            "max_sim_stack_depth",
            "deepest activation stack",
            b.max_stack_depth as u64,
        ),
    ] {
        v.push(ParamInfo::number(name, meaning, "", 1.0, 1e12, default as f64).in_group("budgets"));
    }
    v
}

const SCHEDULERS: [(&str, sim::Scheduler); 4] = [
    ("loose_round_robin", sim::Scheduler::LooseRoundRobin),
    ("greedy_then_oldest", sim::Scheduler::GreedyThenOldest),
    ("pure_round_robin", sim::Scheduler::PureRoundRobin),
    (
        "greedy_then_round_robin",
        sim::Scheduler::GreedyThenRoundRobin,
    ),
];

fn scheduler_name(s: sim::Scheduler) -> &'static str {
    SCHEDULERS
        .iter()
        .find(|(_, x)| *x == s)
        .map_or("loose_round_robin", |(n, _)| n)
}

/// The machine's scalar fields as `(parameter, meaning, maximum, value)`.
fn machine_fields(m: &sim::Machine) -> [(&'static str, &'static str, f64, u32); 7] {
    [
        ("warp_size", "threads per warp", 64.0, m.warp_size),
        (
            "warps_per_sm",
            "resident warps per SM",
            4096.0,
            m.warps_per_sm,
        ),
        (
            "issue_width",
            "instructions issued per cycle",
            4096.0,
            m.issue_width,
        ),
        ("cores", "CUDA cores per SM", 1e4, m.cores),
        ("ls_units", "load/store units per SM", 1e4, m.ls_units),
        (
            "sfu_units",
            "special-function units per SM",
            1e4,
            m.sfu_units,
        ),
        (
            "transaction_cycles",
            "cycles each extra 128-byte transaction of a warp-instruction adds",
            1e6,
            m.transaction_cycles.max(1),
        ),
    ]
}

/// The latency table as `(parameter, meaning, value)`: `latency_<class>` and
/// `interval_<class>` of every timing class.
fn latency_fields(m: &sim::Machine) -> Vec<(String, String, u64)> {
    TimingClass::ALL
        .into_iter()
        .flat_map(|c| {
            let n = c.name();
            [
                (
                    format!("latency_{n}"),
                    format!("issue to write-back of a {n} instruction"),
                    m.latency.latency_of(c),
                ),
                (
                    format!("interval_{n}"),
                    format!("initiation interval of the {n} class"),
                    m.latency.interval_of(c),
                ),
            ]
        })
        .collect()
}

/// The machine fields as parameters (group `machine`, latencies in `latencies`).
fn machine_params(m: &sim::Machine) -> Vec<ParamInfo> {
    let mut v = vec![ParamInfo::choice(
        "scheduler",
        "warp scheduler",
        &SCHEDULERS.map(|(n, _)| n),
        scheduler_name(m.scheduler),
    )
    .in_group("machine")];
    for (name, meaning, max, value) in machine_fields(m) {
        v.push(
            ParamInfo::number(name, meaning, "", 1.0, max, f64::from(value)).in_group("machine"),
        );
    }
    for (name, meaning, value) in latency_fields(m) {
        v.push(
            ParamInfo::number(&name, &meaning, "cycles", 1.0, 1e6, value as f64)
                .in_group("latencies"),
        );
    }
    v
}

/// The simulator's presets as parameter values (read from `sim::presets`).
pub fn presets() -> Vec<PresetInfo> {
    machines()
        .into_iter()
        .map(|p| {
            let m = &p.machine;
            let mut values = BTreeMap::from([(
                "scheduler".to_string(),
                serde_json::json!(scheduler_name(m.scheduler)),
            )]);
            for (name, _, _, value) in machine_fields(m) {
                values.insert(name.to_string(), serde_json::json!(value));
            }
            for (name, _, value) in latency_fields(m) {
                values.insert(name, serde_json::json!(value));
            }
            PresetInfo {
                name: p.name.into(),
                source: p.source.into(),
                values,
            }
        })
        .collect()
}

/// The machine of a request: `base` (the preset's machine: its units and L1 are not
/// parameters) with every machine parameter applied.
pub fn machine(p: &Params, mut base: sim::Machine) -> Result<sim::Machine, Diagnostic> {
    let scheduler = p.text("scheduler")?;
    base.scheduler = SCHEDULERS
        .iter()
        .find(|(n, _)| *n == scheduler)
        .map_or(sim::Scheduler::LooseRoundRobin, |(_, s)| *s);
    base.warp_size = p.u32("warp_size")?;
    base.warps_per_sm = p.u32("warps_per_sm")?;
    base.issue_width = p.u32("issue_width")?;
    base.cores = p.u32("cores")?;
    base.ls_units = p.u32("ls_units")?;
    base.sfu_units = p.u32("sfu_units")?;
    base.transaction_cycles = p.u32("transaction_cycles")?;
    for c in TimingClass::ALL {
        let latency = p.u32(&format!("latency_{}", c.name()))?;
        let interval = p.u32(&format!("interval_{}", c.name()))?;
        base.latency.latency.insert(c, latency.max(1));
        base.latency.interval.insert(c, interval.max(1));
    }
    Ok(base)
}

/// A simulator run as a request describes it.
#[derive(Debug, Clone)]
pub struct SimRun {
    pub launch: sim::Launch,
    /// The `params` text was empty or `auto`: a PTX kernel's parameters are chosen
    /// automatically ([`crate::params::kernel_args`]).
    pub auto_params: bool,
    pub memory: sim::MemoryInit,
    pub budget: sim::Budget,
    /// An automatic SASS launch whose one warp does not finish within the budgets runs again
    /// with [`COOPERATIVE_BLOCK`] threads when the kernel synchronises its threads (see
    /// [`SimRun::cooperative_retry`]). On for the modes whose launch comes from `grid` and
    /// `block` ([`SimRun::decode`]) when the request does not set `block`; a mode that
    /// compares the run with a one-warp bound then says the launch has more warps instead of
    /// comparing.
    pub block_retry: bool,
}

impl SimRun {
    /// This run, counting the iterations of `loops` as it goes (`sim::Launch::loops`).
    pub fn watching(&self, loops: Vec<sim::WatchedLoop>) -> SimRun {
        let mut run = self.clone();
        run.launch.loops = loops;
        run
    }
}

/// The block an automatic launch retries with (8 warps of 32): kernels whose warps wait for
/// each other (cooperative-groups tiles of 128 threads, `multi_warp_cg_reduce<256, 128>`
/// spinning on a shared word until the tile's other warps arrive) cannot finish with one.
pub const COOPERATIVE_BLOCK: u32 = 256;

impl SimRun {
    /// The run the launch parameters (`grid`, `block`, `params`, `shared_bytes`, `warp`,
    /// `trace`), the memory (the request's `memory` field, else the `memory` parameter)
    /// and the budgets describe; every malformed parameter is an error naming it.
    pub fn decode(p: &Params, memory: Option<&MemoryInit>) -> Result<SimRun, Vec<Diagnostic>> {
        let text = p.text("params").map_err(|d| vec![d])?;
        let auto = kernel_args::is_auto(text);
        let words = if auto {
            Ok(Vec::new())
        } else {
            param_words(text)
        };
        match (dim3(p, "grid"), dim3(p, "block"), words) {
            (Ok(grid), Ok(block), Ok(words)) => {
                let mut run = SimRun::decode_rest(p, memory)?;
                run.launch.grid = grid;
                run.launch.block = block;
                run.launch.params = words;
                run.auto_params = auto;
                run.block_retry =
                    p.source("block").ok() == Some(crate::report::ParamSource::Default);
                Ok(run)
            }
            (g, b, w) => Err(g.err().into_iter().chain(b.err()).chain(w.err()).collect()),
        }
    }

    /// [`SimRun::decode`] without `grid`, `block` and `params`, for a mode whose own
    /// parameters give the launch (they stay at `sim::Launch::default()` for the caller).
    pub fn decode_rest(p: &Params, memory: Option<&MemoryInit>) -> Result<SimRun, Vec<Diagnostic>> {
        let one = |d: Diagnostic| vec![d];
        let launch = sim::Launch {
            shared_bytes: p.u32("shared_bytes").map_err(one)?,
            stepper_warp: p.u32("warp").map_err(one)?,
            trace: p.flag("trace").map_err(one)?,
            ..sim::Launch::default()
        };
        let budget = sim::Budget {
            max_cycles: p.u64("max_cycles").map_err(one)?,
            max_steps: p.u64("max_steps").map_err(one)?,
            max_timeline_entries: p.usize("max_timeline_entries").map_err(one)?,
            max_stepper_steps: p.usize("max_stepper_steps").map_err(one)?,
            max_blocks: p.u64("max_blocks").map_err(one)?,
            max_memory_words: p.u64("max_memory_words").map_err(one)?,
            max_stack_depth: p.usize("max_sim_stack_depth").map_err(one)?,
        };
        let launch = sim::Launch {
            textures: parse_textures(p.text("textures").map_err(one)?).map_err(one)?,
            ..launch
        };
        let text = p.text("memory").map_err(one)?;
        let memory = match memory {
            Some(m) => sim::MemoryInit::from(m),
            None => parse_memory(text).map_err(one)?,
        };
        Ok(SimRun {
            launch,
            auto_params: false,
            memory,
            budget,
            block_retry: false,
        })
    }

    /// Whether a run of `kernel` that stopped with `errors` is retried with a block of
    /// [`COOPERATIVE_BLOCK`] threads: [`SimRun::block_retry`] is on (`block` not set), the
    /// launch is one warp in one block, a budget stopped the run (a warp spinning for partners that do not
    /// exist never ends), and the kernel synchronises threads (`BAR` or shared memory).
    fn cooperative_retry(&self, kernel: &Kernel, errors: &[Diagnostic]) -> bool {
        self.block_retry
            && self.launch.block == sim::Launch::default().block
            && self.launch.grid == [1, 1, 1]
            && errors
                .iter()
                .any(|d| d.message.contains("exceeds the budget max_"))
            && (sass_args::uses_shared(kernel)
                || kernel
                    .instructions
                    .iter()
                    .any(|i| i.opcode.name.starts_with("BAR")))
    }
}

pub(crate) fn dim3(p: &Params, name: &str) -> Result<[u32; 3], Diagnostic> {
    let v = p.numbers(name, 1, 3)?;
    let mut out = [1u32; 3];
    for (i, x) in v.iter().enumerate() {
        out[i] = u32::try_from(*x).ok().filter(|&x| x >= 1).ok_or_else(|| {
            Diagnostic::global(
                Severity::Error,
                format!("parameter `{name}`: every dimension must be between 1 and 4294967295"),
            )
        })?;
    }
    Ok(out)
}

/// A 32-bit word from `t`: an integer (two's complement when negative) or a decimal (its
/// single-precision bits).
fn word(t: &str) -> Option<u32> {
    match number::integer(t) {
        Some(v) => (-(1i64 << 31)..(1i64 << 32))
            .contains(&v)
            .then_some(v as u32),
        None => t
            .trim()
            .parse::<f32>()
            .ok()
            .filter(|f| f.is_finite())
            .map(f32::to_bits),
    }
}

pub(crate) fn param_words(text: &str) -> Result<Vec<u32>, Diagnostic> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            word(t).ok_or_else(|| {
                Diagnostic::global(
                    Severity::Error,
                    format!("parameter `params`: `{t}` is not a 32-bit integer or a decimal"),
                )
            })
        })
        .collect()
}

/// Parses the `textures` parameter: `HANDLE WIDTHxHEIGHT [WORDS]` items separated by `;`
/// (WORDS: 32-bit words per texel, 1, 2 or 4; 1 when absent).
pub fn parse_textures(text: &str) -> Result<Vec<sim::TextureBinding>, Diagnostic> {
    text.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, item)| {
            let bad = |why: &str| {
                Diagnostic::global(
                    Severity::Error,
                    format!("parameter `textures`, binding {}: {why} (write HANDLE WIDTHxHEIGHT [WORDS], e.g. 0x300000 64x64, or 0x300000 4096x1 2 for texels of two words)", i + 1),
                )
            };
            let (handle, size, texel_words) = match item.split_whitespace().collect::<Vec<_>>()[..] {
                [h, s] => (h, s, 1),
                [h, s, w @ ("1" | "2" | "4")] => (h, s, w.parse().unwrap_or(1)),
                _ => return Err(bad("expected a handle, a size and maybe 1, 2 or 4 words per texel")),
            };
            let handle =
                number::unsigned(handle).ok_or_else(|| bad("the handle is not a number"))?;
            let side = |t: &str| {
                number::unsigned(t)
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| (1..=65_536).contains(&n))
                    .ok_or_else(|| bad(&format!("`{t}` is not a size from 1 to 65536")))
            };
            let (w, h) = size
                .split_once(['x', 'X', '×'])
                .ok_or_else(|| bad("the size is not WIDTHxHEIGHT"))?;
            Ok(sim::TextureBinding {
                handle,
                width: side(w)?,
                height: side(h)?,
                texel_words,
            })
        })
        .collect()
}

/// The `textures` text of `bindings` (what [`parse_textures`] reads).
pub fn textures_text(bindings: &[sim::TextureBinding]) -> String {
    bindings
        .iter()
        .map(sim::TextureBinding::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Parses the `memory` text parameter (see the module doc).
pub fn parse_memory(text: &str) -> Result<sim::MemoryInit, Diagnostic> {
    let mut arrays = Vec::new();
    let mut open = None;
    for (i, item) in text
        .split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let bad = |why: &str| {
            Diagnostic::global(
                Severity::Error,
                format!("parameter `memory`, array {}: {why} (write NAME@ADDRESS WORDS FILL ARGS, e.g. x@0x1000 64 iota 0 1)", i + 1),
            )
        };
        let words: Vec<&str> = item.split_whitespace().collect();
        if let ["*", "hash", seed, below] = words.as_slice() {
            let (Some(seed), Some(below)) = (word(seed), word(below)) else {
                return Err(bad("`* hash SEED BELOW` takes two numbers"));
            };
            open = Some(sim::memory::OpenMemory {
                seed: u64::from(seed),
                below,
            });
            continue;
        }
        let [head, len, fill, args @ ..] = words.as_slice() else {
            return Err(bad("expected at least a name@address, a length and a fill"));
        };
        let (name, address) = head
            .split_once('@')
            .ok_or_else(|| bad("no @ADDRESS after the name"))?;
        let address =
            number::unsigned(address).ok_or_else(|| bad("the address is not a number"))?;
        let len = number::unsigned(len)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad("the length is not a whole number of words"))?;
        let words_of = |items: &[&str]| -> Result<Vec<u32>, Diagnostic> {
            items
                .iter()
                .map(|a| word(a).ok_or_else(|| bad(&format!("`{a}` is not a number"))))
                .collect()
        };
        let exactly = |n: usize| -> Result<Vec<u32>, Diagnostic> {
            if args.len() != n {
                return Err(bad(&format!("`{fill}` takes {n} argument(s)")));
            }
            words_of(args)
        };
        let fill = match *fill {
            "const" => sim::Fill::Constant {
                value: exactly(1)?[0],
            },
            "iota" => {
                let v = exactly(2)?;
                sim::Fill::Iota {
                    start: v[0],
                    step: v[1],
                }
            }
            "random" => {
                let v = exactly(2)?;
                sim::Fill::Random {
                    seed: u64::from(v[0]),
                    below: v[1],
                }
            }
            "hash" => {
                let v = exactly(2)?;
                sim::Fill::Hashed {
                    seed: u64::from(v[0]),
                    below: v[1],
                }
            }
            "words" => sim::Fill::Words {
                values: words_of(args)?,
            },
            "floats" => sim::Fill::Floats {
                values: args
                    .iter()
                    .map(|a| {
                        a.parse::<f32>()
                            .map_err(|_| bad(&format!("`{a}` is not a decimal")))
                    })
                    .collect::<Result<_, _>>()?,
            },
            other => return Err(bad(&format!("unknown fill `{other}`"))),
        };
        arrays.push(sim::ArrayInit {
            name: name.to_string(),
            address,
            words: len,
            fill,
        });
    }
    Ok(sim::MemoryInit { arrays, open })
}

/// Runs a SASS kernel. With `params` empty or `auto` its parameters are inferred from the
/// listing and chosen automatically ([`crate::params::sass_args`]), and with `memory` empty
/// too every pointer gets a buffer that grows as the run needs ([`crate::auto_memory`]); the
/// arguments used (and the buffers' final sizes) go to `arguments`, a note says so.
pub fn run_kernel(
    kernel: &Kernel,
    run: &SimRun,
    machine: &sim::Machine,
    diags: &mut Vec<Diagnostic>,
    arguments: &mut Option<KernelArguments>,
    progress: isa::Observer,
) -> Option<sim::Simulation> {
    in_simulation(diags, |diags| {
        let guessed;
        let kernel = match sass_args::arch_guess(kernel).filter(|_| run.auto_params) {
            Some(arch) => {
                let mut k = kernel.clone();
                k.arch = Some(arch.to_string());
                diags.push(Diagnostic::global(
                    Severity::Note,
                    format!(
                        "the listing names no architecture and reads Fermi's stack pointer \
                         c[0x1][0x100]: the automatic launch lays out constant bank 0 as {arch} \
                         does (parameters from 0x20)"
                    ),
                ));
                guessed = k;
                &guessed
            }
            None => kernel,
        };
        let simulate = |launch: &sim::Launch, memory: &sim::MemoryInit| {
            sim::run_observed(kernel, launch, machine, memory, &run.budget, progress)
                .map_err(|e| e.diagnostics)
        };
        let layout = sass_args::infer(kernel);
        let unknown = sass_args::unknown_bank_reads(kernel);
        if !run.auto_params || (layout.slots.is_empty() && unknown.is_empty()) {
            // No parameters to choose; an automatic launch still gets open memory (global
            // variables: `MOV R4, 32@lo(flag)` reads memory no pointer argument names).
            let result = if run.auto_params {
                auto_memory::run_on(&run.memory, None, |m| simulate(&run.launch, m))
            } else {
                simulate(&run.launch, &run.memory)
            };
            return result.map_err(|d| diags.extend(d)).ok();
        }
        let words = sass_args::auto_words(&layout);
        let mut launch = run.launch.clone();
        launch.params = words;
        launch.unknown_banks_zero = true;
        if !unknown.is_empty() {
            diags.push(Diagnostic::global(
                Severity::Warning,
                format!(
                    "the kernel reads constant words a listing does not give (the driver's bank 1, \
                     the compiler's constant tables in banks 2 and 3): {}; this automatic launch \
                     reads them as 0, so its results are not the kernel's (the analyses treat them \
                     as unknown, so the run is still one their bounds cover)",
                    unknown.join(", ")
                ),
            ));
        }
        let shared = launch.shared_bytes == 0 && sass_args::uses_shared(kernel);
        if shared {
            launch.shared_bytes = sass_args::AUTO_SHARED_BYTES;
        }
        let mut args = sass_args::report(&layout, &launch.params, ArgumentSource::Auto);
        if launch.textures.is_empty() {
            launch.textures = sass_args::auto_textures(&layout, &launch.params);
            args.textures = textures_text(&launch.textures);
        }
        let mut result =
            auto_memory::run_on(&run.memory, Some(&mut args), |m| simulate(&launch, m));
        if let Err(errors) = &result {
            if run.cooperative_retry(kernel, errors) {
                let mut wide = launch.clone();
                wide.block = [COOPERATIVE_BLOCK, 1, 1];
                let mut wide_args = args.clone();
                let retried =
                    auto_memory::run_on(&run.memory, Some(&mut wide_args), |m| simulate(&wide, m));
                if retried.is_ok() {
                    diags.push(Diagnostic::global(
                        Severity::Note,
                        format!(
                            "one warp did not finish within the budgets, and the kernel \
                             synchronises its threads (barriers or shared memory): its warps may \
                             wait for each other (e.g. cooperative-groups tiles of several warps), \
                             so the automatic launch ran a block of {COOPERATIVE_BLOCK} threads \
                             instead (set `block` to choose)"
                        ),
                    ));
                    result = retried;
                    args = wide_args;
                }
            }
        }
        diags.push(sass_args_note(&args, shared));
        *arguments = Some(args);
        result.map_err(|d| diags.extend(d)).ok()
    })
}

/// Runs `f`, labelling what it adds to `diags` as the simulation's, and saying when the
/// run's trace was cut by its budget.
fn in_simulation(
    diags: &mut Vec<Diagnostic>,
    f: impl FnOnce(&mut Vec<Diagnostic>) -> Option<sim::Simulation>,
) -> Option<sim::Simulation> {
    let from = diags.len();
    let out = f(diags);
    if let Some(s) = out.as_ref().filter(|s| s.timeline_truncated) {
        let entries: usize = s.warps.iter().map(|w| w.issues.len()).sum();
        diags.push(Diagnostic::global(
            Severity::Note,
            format!(
                "the run's timeline and memory transactions are recorded for its first \
                 {entries} issues (max_timeline_entries); its cycles, counts, loop iterations \
                 and memory are those of the whole run"
            ),
        ));
    }
    simulation_stage(diags, from);
    out
}

/// Labels `diags[from..]` (what a run said) as the simulation's.
pub fn simulation_stage(diags: &mut [Diagnostic], from: usize) {
    for d in diags.iter_mut().skip(from) {
        d.stage.get_or_insert(isa::Stage::Simulation);
    }
}

/// The automatic arguments as the notes list them: `name = value (type)`, comma-separated.
fn shown_arguments(args: &KernelArguments) -> String {
    args.values
        .iter()
        .map(|a| format!("{} = {} ({})", a.name, a.text, a.ty))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The notes' sentence on the automatic memory (empty when the request gave `memory`).
fn grown_buffers(args: &KernelArguments) -> String {
    if args.memory.is_empty() {
        return String::new();
    }
    auto_memory::memory_sentence(args)
}

/// The note that says a SASS kernel's parameters (and buffers) were chosen automatically.
fn sass_args_note(args: &KernelArguments, shared: bool) -> Diagnostic {
    let mut m = format!(
        "no `params` given: the kernel's parameters were inferred from the constant-bank words \
         it reads and chosen automatically (params=auto: pointers at 0x100000, 0x200000, … \
         (1 MiB apart), integers {}, floats {:.1}): {}; they are in the report's `arguments`, \
         and `params` sets others{}",
        kernel_args::AUTO_INTEGER,
        kernel_args::AUTO_FLOAT,
        shown_arguments(args),
        grown_buffers(args)
    );
    if !args.textures.is_empty() {
        m.push_str(&format!(
            "; each texture or surface parameter is, in the simulator's texture model \
             (sim::texture), the address of a pitch-linear array of 32-bit texels with its own \
             buffer, bound as textures = `{}` (nearest-point fetches, clamped coordinates)",
            args.textures
        ));
    }
    if shared {
        m.push_str(&format!(
            "; the kernel uses shared memory and `shared_bytes` is 0: each block got {} bytes \
             (48 KiB, the static maximum)",
            sass_args::AUTO_SHARED_BYTES
        ));
    }
    Diagnostic::global(Severity::Note, m)
}

/// Runs a kernel the simulator reads from its own dialect rather than through
/// `isa::Kernel`: a PTX function (post-dominator reconvergence), a GCN3 function (exec mask,
/// the `.amdhsa_*` register layout), or an L/C string (every warp of the launch runs it; no
/// memory). Parse errors, `run`'s errors (a malformed launch: reported once the kernel is
/// read) and the simulator's go to `diags`. A PTX kernel's arguments (the request's words
/// decoded, or chosen automatically when `params` is empty or `auto`) go to `arguments`.
/// What the run adds to `diags` is labelled the simulation's; parse errors keep their own
/// label.
pub fn run_text(
    context: &Context,
    dialect: Dialect,
    run: Result<&SimRun, &[Diagnostic]>,
    machine: &sim::Machine,
    diags: &mut Vec<Diagnostic>,
    arguments: &mut Option<KernelArguments>,
    progress: isa::Observer,
) -> Option<sim::Simulation> {
    in_simulation(diags, |diags| {
        let ready = |diags: &mut Vec<Diagnostic>| {
            run.map_err(|d| diags.extend(d.iter().cloned()))
                .ok()
                .map(|r| (&r.launch, &r.memory, &r.budget))
        };
        let result = match dialect {
            Dialect::Ptx => {
                let ptx = context.ptx(diags)?;
                if ptx.failed {
                    return None;
                }
                let (launch, memory, budget) = ready(diags)?;
                let f = ptx.function();
                let auto = run.is_ok_and(|r| r.auto_params) && !f.params.is_empty();
                let mut launch = launch.clone();
                let values = if auto {
                    let v = kernel_args::auto(f);
                    launch.params = kernel_args::words(f, &v);
                    v
                } else {
                    kernel_args::from_words(f, &launch.params)
                };
                let mut args = (values.len() == f.params.len()).then(|| {
                    let source = if auto {
                        ArgumentSource::Auto
                    } else {
                        ArgumentSource::Request
                    };
                    kernel_args::report(f, &values, source, true)
                });
                let k = crate::ptx_launch::PtxKernel {
                    module: ptx.module(),
                    function: f,
                };
                let auto_launch = run.is_ok_and(|r| r.auto_params);
                let notes =
                    crate::ptx_launch::prepare(k, &mut launch, args.as_mut(), memory, auto_launch);
                diags.extend(notes);
                // Automatic buffers for the automatic pointers when `memory` is empty too.
                let result = auto_memory::run_on(memory, args.as_mut(), |m| {
                    crate::ptx_launch::run(k, &launch, machine, m, budget, progress)
                })
                .map_err(|diagnostics| sim::SimError { diagnostics });
                if let Some(a) = args {
                    if auto {
                        diags.push(kernel_args::auto_note(&a, true));
                    }
                    *arguments = Some(a);
                }
                result
            }
            Dialect::Gcn => {
                let gcn = context.gcn(diags)?;
                if gcn.failed {
                    return None;
                }
                let (launch, memory, budget) = ready(diags)?;
                let auto = run.is_ok_and(|r| r.auto_params);
                crate::gcn_launch::run(
                    gcn,
                    context.source(),
                    launch,
                    machine,
                    memory,
                    budget,
                    auto,
                    diags,
                    arguments,
                    progress,
                )
            }
            Dialect::Lc => {
                let (prog, d) = isa::lc::parse(context.source());
                let failed = d.iter().any(Diagnostic::is_error);
                diags.extend(d);
                if failed {
                    return None;
                }
                let (launch, _, budget) = ready(diags)?;
                sim::run_lc_observed(
                    &prog.kernel,
                    prog.kernel_span,
                    launch,
                    machine,
                    budget,
                    progress,
                )
            }
            other => {
                diags.push(Diagnostic::global(
                    Severity::Error,
                    format!("the simulator does not run `{}` kernels", other.name()),
                ));
                return None;
            }
        };
        result.map_err(|e| diags.extend(e.diagnostics)).ok()
    })
}

/// What `simulate=true` next to an analysis asks for: nothing, a run, or a run whose
/// parameters are malformed (reported where the run would have been made, so an analysis
/// without a simulation is not stopped by them).
#[derive(Debug, Clone)]
pub enum SimRequest {
    Off,
    /// Boxed: a launch is large next to the other variants.
    Run(Box<SimRun>),
    Invalid(Vec<Diagnostic>),
}

impl SimRequest {
    /// Reads the `simulate` flag and the run's parameters (always, so that a malformed
    /// launch is found when the flag is on). `decode` is [`SimRun::decode`] or
    /// [`SimRun::decode_rest`].
    pub fn decode(
        p: &Params,
        memory: Option<&MemoryInit>,
        decode: fn(&Params, Option<&MemoryInit>) -> Result<SimRun, Vec<Diagnostic>>,
    ) -> Result<SimRequest, Diagnostic> {
        Self::decode_or_force(p, memory, decode, false)
    }

    /// [`SimRequest::decode`], the run made even with `simulate` off when `force` (a mode
    /// that needs a run, e.g. for `loop_bounds=observed`).
    pub fn decode_or_force(
        p: &Params,
        memory: Option<&MemoryInit>,
        decode: fn(&Params, Option<&MemoryInit>) -> Result<SimRun, Vec<Diagnostic>>,
        force: bool,
    ) -> Result<SimRequest, Diagnostic> {
        let on = p.flag("simulate")? || force;
        let run = decode(p, memory);
        Ok(match (on, run) {
            (false, _) => SimRequest::Off,
            (true, Ok(run)) => SimRequest::Run(Box::new(run)),
            (true, Err(d)) => SimRequest::Invalid(d),
        })
    }

    /// Whether `simulate` is on.
    pub fn is_on(&self) -> bool {
        !matches!(self, SimRequest::Off)
    }

    /// The run to make, if any; a malformed request's errors go to `diags`.
    pub fn run(&self, diags: &mut Vec<Diagnostic>) -> Option<&SimRun> {
        match self {
            SimRequest::Off => None,
            SimRequest::Run(run) => Some(run.as_ref()),
            SimRequest::Invalid(d) => {
                in_simulation(diags, |diags| {
                    diags.extend(d.iter().cloned());
                    None
                });
                None
            }
        }
    }
}
