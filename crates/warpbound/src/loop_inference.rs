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
use crate::params::{sass_args, Params};
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
        let reason = with_values(&b.reason, &used_params);
        if let Some(n) = b.bound {
            out.by_key.insert(format!("{:#x}", ins.address), n);
        }
        out.loops.push(InferredLoop {
            keys: vec![LoopKey::Address(ins.address)],
            span: ins.span,
            bound: b.bound,
            reason,
            formula: b.formula,
            auto_params: (auto && !used_params.is_empty()).then(|| used_params.join(", ")),
        });
    }
    out
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
