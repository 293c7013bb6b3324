//! The facade's side of loop-bound inference (issue #38): the launch a request describes,
//! as the intervals the `loopbound` crate evaluates its symbolic bounds over, per dialect;
//! the inferred bounds keyed as each mode keys loops; and the check of observed iteration
//! counts against them.
//!
//! The launch is the request's `grid`, `block` and `params` — with `params` empty or `auto`,
//! the words the automatic launch chooses (`params::sass_args`, `params::kernel_args`,
//! `params::gcn_args`), the same the simulator runs with — and `tid`/`ctaid` range over the
//! whole launch, so a bound holds for every thread of it. Constant-bank words outside the
//! launch dimensions and the parameters (the driver's bank 1, the compiler's tables) are
//! unknown, as the analyses treat them.

use crate::observed_loops::ObservedLoop;
use crate::params::kernel_args;
use crate::params::loop_bounds::{InferredLoop, LoopKey};
use crate::params::{sass_args, LoopBounds, Params};
use crate::report::LoopBoundRow;
use isa::{BlockGraph, Diagnostic, Kernel};
use loopbound::{Input, Interval};
use std::collections::BTreeMap;

/// The launch inference evaluates over.
#[derive(Debug, Clone)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The smallest block dimensions the bound must also hold for (the `block` mode's
    /// growth runs of 1, 2, … warps); `block` when `None`.
    pub block_min: Option<[u32; 3]>,
    /// The parameter words; `None`: chosen automatically.
    pub words: Option<Vec<u32>>,
}

impl Launch {
    /// The launch of the request's `grid`, `block` and `params` (`None` when one is
    /// malformed: the run reports it, and no bound is inferred from parameters).
    pub fn of(p: &Params) -> Option<Launch> {
        let grid = crate::simulator::dim3(p, "grid").ok()?;
        let block = crate::simulator::dim3(p, "block").ok()?;
        let text = p.text("params").ok()?;
        let words = if kernel_args::is_auto(text) {
            None
        } else {
            Some(crate::simulator::param_words(text).ok()?)
        };
        Some(Launch {
            grid,
            block,
            block_min: None,
            words,
        })
    }

    fn thread_input(&self, i: &Input) -> Option<Interval> {
        let span = |n: u32| Interval::new(0, i128::from(n) - 1);
        match i {
            Input::Tid(a) => span(*self.block.get(*a as usize)?),
            Input::Ctaid(a) => span(*self.grid.get(*a as usize)?),
            Input::Ntid(a) => {
                let hi = *self.block.get(*a as usize)?;
                let lo = self.block_min.map_or(hi, |m| m[*a as usize].min(hi));
                Interval::new(i128::from(lo), i128::from(hi))
            }
            Input::Nctaid(a) => Some(Interval::point(i128::from(*self.grid.get(*a as usize)?))),
            _ => None,
        }
    }
}

/// Inferred loops of one function, and the raw results for checking observed counts.
#[derive(Debug, Clone, Default)]
pub struct Inference {
    pub loops: Vec<InferredLoop>,
    /// The bound of each loop by the key observed counts use (`0x…` address or label).
    pub by_key: BTreeMap<String, u64>,
}

/// The launch values loop `b`'s bound depends on, as `value` writes them (`None`: not shown).
/// The first instruction of loop `b`'s header block, with its span by `span_of` (the default
/// span where it has none).
fn header(
    analysis: &loopbound::Analysis,
    b: &loopbound::LoopBound,
    span_of: impl Fn(usize) -> Option<isa::Span>,
) -> (usize, isa::Span) {
    let first = analysis.program.blocks[b.block].first;
    (first, span_of(first).unwrap_or_default())
}

fn used_values(b: &loopbound::LoopBound, value: impl Fn(&Input) -> Option<String>) -> Vec<String> {
    b.inputs.iter().filter_map(value).collect()
}

impl Inference {
    /// Records loop `b`'s bound under `keys` (and in `by_key` under `key`, the key observed
    /// counts use, when it has one), found at `span`, with the launch values it used
    /// (`used`; chosen automatically when `auto`) written into its reason.
    fn record(
        &mut self,
        b: loopbound::LoopBound,
        (key, keys): (Option<String>, Vec<LoopKey>),
        span: isa::Span,
        used: &[String],
        auto: bool,
    ) {
        if let (Some(n), Some(key)) = (b.bound, key) {
            self.by_key.insert(key, n);
        }
        self.loops.push(InferredLoop {
            keys,
            span,
            bound: b.bound,
            reason: with_values(&b.reason, used),
            formula: b.formula,
            auto_params: (auto && !used.is_empty()).then(|| used.join(", ")),
        });
    }
}

/// Inference on a SASS kernel and its block graph, for `launch`.
pub fn sass(kernel: &Kernel, graph: &BlockGraph, launch: Option<&Launch>) -> Inference {
    let program = loopbound::sass::lower(kernel, graph);
    let analysis = loopbound::analyse(program);
    let auto = launch.is_some_and(|l| l.words.is_none());
    let arch = sass_args::arch_guess(kernel)
        .filter(|_| auto)
        .map(str::to_string)
        .or_else(|| kernel.arch.clone());
    let layout = sim::ConstantLayout::for_arch(arch.as_deref());
    let words: Vec<u32> = match launch.map(|l| &l.words) {
        Some(Some(w)) => w.clone(),
        Some(None) => {
            let mut k = kernel.clone();
            k.arch = arch.clone();
            sass_args::auto_words(&sass_args::infer(&k))
        }
        None => Vec::new(),
    };
    let sim_launch = sim::Launch {
        grid: launch.map_or([1, 1, 1], |l| l.grid),
        block: launch.map_or([32, 1, 1], |l| l.block),
        params: words.clone(),
        ..sim::Launch::default()
    };
    // A constant-bank-0 word the launch defines: its name, and the launch input it is
    // (`ntid`, `nctaid`) or its value (a parameter word).
    let word_of = |offset: i64| -> Option<(String, Result<Input, u32>)> {
        let off = u32::try_from(offset).ok()?;
        let within = |base: u32, n: usize| off >= base && ((off - base) as usize) < n * 4;
        let axis = |base: u32| ((off - base) / 4) as u8;
        if within(layout.ntid, 3) {
            let a = axis(layout.ntid);
            Some((Input::Ntid(a).to_string(), Ok(Input::Ntid(a))))
        } else if within(layout.nctaid, 3) {
            let a = axis(layout.nctaid);
            Some((Input::Nctaid(a).to_string(), Ok(Input::Nctaid(a))))
        } else if within(layout.params, words.len()) {
            Some((format!("p{off:#x}"), Err(layout.read(&sim_launch, offset)?)))
        } else {
            None
        }
    };
    let inputs = |i: &Input| -> Option<Interval> {
        let l = launch?;
        match i {
            Input::ConstWord { bank: 0, offset } => match word_of(*offset)?.1 {
                Ok(input) => l.thread_input(&input),
                Err(w) => Some(Interval::point(i128::from(w))),
            },
            other => l.thread_input(other),
        }
    };
    let name = |i: &Input| match i {
        Input::ConstWord { bank: 0, offset } => {
            word_of(*offset).map_or_else(|| i.to_string(), |(n, _)| n)
        }
        other => other.to_string(),
    };
    let bounds = analysis.evaluate_named(&inputs, &name);
    let mut out = Inference::default();
    for b in bounds {
        let ins = &kernel.instructions[analysis.program.blocks[b.block].first];
        let used_params: Vec<String> = b
            .inputs
            .iter()
            .filter_map(|i| match i {
                Input::ConstWord { bank: 0, offset } => match word_of(*offset)? {
                    (n, Err(w)) => Some(format!("{n} = {}", w as i32)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let keys = (
            Some(format!("{:#x}", ins.address)),
            vec![LoopKey::Address(ins.address)],
        );
        out.record(b, keys, ins.span, &used_params, auto);
    }
    out
}

/// Inference on a PTX function, for `launch` (kernel parameters are launch inputs only for
/// an `.entry`; a `.func`'s loops are bounded only by constants).
pub fn ptx(f: &isa::ptx::Function, launch: Option<&Launch>) -> Inference {
    let graph = isa::flow::build(&isa::ptx::flows(f));
    let analysis = loopbound::analyse(loopbound::ptx::lower(f, &graph));
    let auto = launch.is_some_and(|l| l.words.is_none()) && !f.params.is_empty();
    let words: Vec<u32> = match launch.map(|l| &l.words) {
        Some(Some(w)) => w.clone(),
        Some(None) => kernel_args::words(f, &kernel_args::auto(f)),
        None => Vec::new(),
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let layout = kernel_args::param_offsets(f);
    let param = |name: &str, offset: i64, n: u32| -> Option<u64> {
        let (_, base, size) = layout.iter().find(|(p, _, _)| p == name)?;
        let start = base.checked_add(usize::try_from(offset).ok()?)?;
        let end = start.checked_add(n as usize)?;
        if end > base + size || n > 8 {
            return None;
        }
        let b = bytes.get(start..end)?;
        Some(b.iter().rev().fold(0u64, |w, &x| (w << 8) | u64::from(x)))
    };
    let inputs = |i: &Input| -> Option<Interval> {
        let l = launch?;
        match i {
            Input::Param {
                name,
                offset,
                bytes,
            } => param(name, *offset, *bytes).map(|v| Interval::point(i128::from(v))),
            other => l.thread_input(other),
        }
    };
    let short = |i: &Input| match i {
        Input::Param { name, offset, .. } => {
            let n = kernel_args::short(name).to_string();
            if *offset == 0 {
                n
            } else {
                format!("{n}+{offset}")
            }
        }
        other => other.to_string(),
    };
    let bounds = analysis.evaluate_named(&inputs, &short);
    let mut out = Inference::default();
    for b in bounds {
        let (first, span) = header(&analysis, &b, |i| f.instructions.get(i).map(|x| x.span));
        let used = used_values(&b, |i| match i {
            Input::Param {
                name,
                offset,
                bytes,
            } => Some(format!("{} = {}", short(i), param(name, *offset, *bytes)?)),
            _ => None,
        });
        let mut keys = Vec::new();
        let label = f
            .labels
            .iter()
            .find(|(_, &i)| i == first)
            .map(|(n, _)| n.clone());
        if let Some(l) = &label {
            keys.push(LoopKey::Label(l.clone()));
        }
        keys.push(LoopKey::Address(isa::ptx::Function::pc(first)));
        // Observed PTX counts are keyed by label: a loop without one is not in `by_key`.
        out.record(b, (label, keys), span, &used, auto);
    }
    out
}

/// Inference on a GCN3 function of `program`, for `launch` (the kernel descriptor gives the
/// initial SGPRs; the kernarg words are the request's, or the automatic ones when the
/// symbol's mangling gives the signature, as the simulator chooses them).
pub fn gcn(f: &isa::gcn::GcnFunction, launch: Option<&Launch>) -> Inference {
    use loopbound::gcn::Init;
    use sim::gcn::abi::InitSgpr;
    let graph = isa::flow::build(&isa::gcn::flows(f));
    let abi = sim::gcn::GcnAbi::from_descriptor(&f.descriptor);
    let mut sgprs = Vec::new();
    let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
    for (i, what) in abi.sgprs().into_iter().enumerate() {
        let mut half = |k: &'static str| {
            let n = seen.entry(k).or_insert(0);
            *n += 1;
            *n == 1
        };
        let init = match what {
            InitSgpr::KernargPtr if half("kernarg") => Init::KernargLo,
            InitSgpr::KernargPtr => Init::KernargHi,
            InitSgpr::DispatchPtr if half("dispatch") => Init::DispatchLo,
            InitSgpr::DispatchPtr => Init::DispatchHi,
            InitSgpr::WorkgroupId(d) => Init::WorkgroupId(d as u8),
            InitSgpr::Zero => continue,
        };
        sgprs.push((i as u32, init));
    }
    let analysis = loopbound::analyse(loopbound::gcn::lower(f, &graph, &sgprs));
    let signature = crate::params::gcn_args::signature(&f.name).filter(|p| !p.is_empty());
    let auto = launch.is_some_and(|l| l.words.is_none()) && signature.is_some();
    let words: Vec<u32> = match (launch.map(|l| &l.words), &signature) {
        (Some(Some(w)), _) => w.clone(),
        (Some(None), Some(params)) => crate::params::gcn_args::auto(params).0,
        _ => Vec::new(),
    };
    let packet = launch.map(|l| sim::gcn::abi::dispatch_packet(l.grid, l.block, 0));
    let inputs = |i: &Input| -> Option<Interval> {
        let l = launch?;
        let word = |ws: &[u32], off: i64| -> Option<Interval> {
            let k = usize::try_from(off).ok().filter(|o| o % 4 == 0)? / 4;
            ws.get(k).map(|&w| Interval::point(i128::from(w)))
        };
        match i {
            Input::Kernarg { offset } => word(&words, *offset),
            Input::Dispatch { offset } => word(packet.as_ref()?, *offset),
            other => l.thread_input(other),
        }
    };
    let bounds = analysis.evaluate(&inputs);
    let mut out = Inference::default();
    for b in bounds {
        let (_, span) = header(&analysis, &b, |i| f.instructions.get(i).map(|x| x.span));
        let used = used_values(&b, |i| match i {
            Input::Kernarg { offset } => Some(format!(
                "kernarg[{offset:#x}] = {}",
                words.get(usize::try_from(*offset).ok()? / 4)?
            )),
            _ => None,
        });
        let keys = (Some(b.key.clone()), vec![LoopKey::Label(b.key.clone())]);
        out.record(b, keys, span, &used, auto);
    }
    out
}

/// The report's loop table for the loops inference saw, with the bounds `bounds` applies
/// (after [`LoopBounds::apply_inferred`] and any observed counts).
pub fn rows(inference: &Inference, bounds: &LoopBounds) -> Vec<LoopBoundRow> {
    inference
        .loops
        .iter()
        .filter_map(|l| {
            let first = l.keys.first()?;
            let (from, prov) = bounds.source(&l.keys);
            let keyed = l.keys.iter().find_map(|k| match k {
                LoopKey::Address(a) => bounds.per_address.get(a),
                LoopKey::Label(x) => bounds.per_label.get(x),
            });
            let bound = keyed.copied().or(bounds.default);
            Some(LoopBoundRow {
                header: first.to_string(),
                line: l.span.line,
                bound,
                bound_from: from.name().into(),
                reason: prov
                    .and_then(|p| p.reason.clone())
                    .or(Some(l.reason.clone())),
                inferred: l.bound,
                formula: l.formula.clone(),
            })
        })
        .collect()
}

/// `reason` with the values of the parameters it depends on.
fn with_values(reason: &str, values: &[String]) -> String {
    if values.is_empty() {
        reason.to_string()
    } else {
        format!("{reason}, with {}", values.join(", "))
    }
}

/// Errors for observed counts above inferred bounds (issue #38: an inferred bound below a
/// run's count is a bug of the inference, never an input's fault).
pub fn check_observed(inferred: &Inference, observed: &[ObservedLoop]) -> Vec<Diagnostic> {
    observed
        .iter()
        .filter_map(|o| {
            let n = *inferred.by_key.get(&o.header)?;
            (o.iterations > n).then(|| {
                Diagnostic::error(
                    isa::Span::new(o.line, 1, 0),
                    format!(
                        "loop {}: the run made {} iterations in one entry, above the bound {n} \
                         inferred from the code — a bug of the loop-bound inference (please \
                         report it with this kernel)",
                        o.header, o.iterations
                    ),
                )
            })
        })
        .collect()
}

/// Whether run `s` is of `launch` (its observed counts can be checked against bounds
/// inferred for it): not a retry with a larger block (`simulator::COOPERATIVE_BLOCK`).
pub fn same_launch(s: &sim::Simulation, launch: Option<&Launch>, warp_size: usize) -> bool {
    let Some(l) = launch else { return false };
    let threads: usize = l.block.iter().map(|&d| d as usize).product();
    let blocks: usize = l.grid.iter().map(|&d| d as usize).product();
    s.warps.len() <= threads.div_ceil(warp_size).saturating_mul(blocks)
}
