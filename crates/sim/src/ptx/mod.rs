//! PTX simulation (issue #7 items 1 and 3): a PTX kernel ([`isa::ptx::Function`]) runs on
//! the same SM model as SASS — [`crate::Machine`], its schedulers, σ lanes, latencies,
//! coalescing and L1 — with PTX's own functional semantics and post-dominator
//! reconvergence.
//!
//! - Decoding (`program`, `decode`): registers, parameters, shared and local variables and
//!   the module's variables are laid out as `layout` documents; each instruction becomes an
//!   executable operation or a located "cannot simulate OPCODE: why" that stops the run when
//!   a warp reaches it.
//! - Semantics (`semantics`): the integer, floating-point, predicate, move/convert,
//!   special-register and load/store instructions of the corpus, each operation's value
//!   from [`isa::ptx::semantics`] (the one PTX semantics, which the round-robin analyzer
//!   computes with too: the readings of `.approx`, `.ftz`, rounding and division by zero are
//!   written down there); atomics (`atomics`), texture fetches (`texture_access`).
//! - Control (`pdom_stack`): GPGPU-Sim's PDOM stack, reconvergence at the immediate
//!   post-dominator of each branch ([`crate::reconvergence`]), shown in the stepper as NIL
//!   (path) and SYNC (waiting reconvergence) entries.
//! - Timing (`front_end`): the shared cycle loop ([`crate::cycle_loop`]) on virtual registers.
//!
//! Program counters in the stepper and timelines follow [`isa::ptx::Function::pc`] (8 bytes
//! per instruction, GPGPU-Sim's numbering).

mod atomics;
pub(crate) mod decode;
pub(crate) mod front_end;
pub(crate) mod inline;
pub mod layout;
pub(crate) mod pdom_stack;
pub(crate) mod program;
pub(crate) mod semantics;
mod texture_access;

use crate::cycle_loop::Request;
use crate::{SimError, Simulation};
use isa::ptx::Function;
use program::Ctl;

/// The successor lists of `code` with the virtual exit `code.len()`: the CFG the
/// reconvergence points are computed on. A guarded branch or `ret` may also fall through;
/// an instruction that does not decode is treated as falling through (it stops the run
/// before any reconvergence matters).
pub(crate) fn successors(code: &[program::Decoded]) -> Vec<Vec<usize>> {
    let n = code.len();
    code.iter()
        .enumerate()
        .map(|(i, d)| {
            let Ok(ex) = &d.exec else {
                return vec![i + 1];
            };
            let guarded = ex.guard.is_some();
            match ex.ctl {
                Ctl::Next => vec![i + 1],
                Ctl::Branch { target, .. } if guarded => vec![target.min(n), i + 1],
                Ctl::Branch { target, .. } => vec![target.min(n)],
                Ctl::Exit if guarded => vec![n, i + 1],
                Ctl::Exit => vec![n],
            }
        })
        .collect()
}

/// Simulates the PTX kernel `f` of `module` (its callees inlined, `inline`); see
/// [`crate::run_ptx_in_module`]. The module's `.global`/`.const`/`.texref` variables `f`
/// names become arrays of the run's global memory (`layout::module_arrays`), after the
/// request's.
pub(crate) fn run(
    f: &Function,
    module: &isa::ptx::Module,
    req: &Request,
) -> Result<Simulation, SimError> {
    if !f.has_body {
        return Err(SimError::at(
            f.name_span,
            format!("`{}` is a prototype without a body", f.name),
        ));
    }
    let (expanded, refused) = inline::expand(&module.functions, f);
    let f = &expanded;
    let globals = &module.globals;
    let module = layout::module_variables(globals, f, req.memory);
    let lay = layout::Layout::of(f, globals, &module);
    let added = layout::module_arrays(&module, req.memory, &req.launch.textures);
    let memory;
    let req = if added.is_empty() {
        Request { ..*req }
    } else {
        let mut m = req.memory.clone();
        m.arrays.extend(added);
        memory = m;
        Request {
            memory: &memory,
            ..*req
        }
    };
    let mut code = program::decode(f, &lay);
    for (i, why) in refused {
        if let Some(d) = code.get_mut(i) {
            d.exec = Err(format!(
                "cannot simulate {}: {why}",
                f.instructions[i].mnemonic()
            ));
        }
    }
    let n = code.len();
    let ipdom: Vec<Option<usize>> =
        crate::reconvergence::immediate_post_dominators(&successors(&code))
            .into_iter()
            .map(|p| p.filter(|&x| x < n))
            .collect();
    let p = front_end::Program {
        code: &code,
        ipdom: &ipdom,
        registers: lay.registers.len(),
        shared_static: lay.shared_static,
    };
    front_end::run(&p, &req)
}
