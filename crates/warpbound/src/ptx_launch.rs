//! What a PTX run needs besides its parameters, for every mode that simulates a PTX kernel
//! (`simulate`, `rr` and `warp-cfg` with `simulate=true`): the module's variables, the
//! block's shared memory and the texture bindings of an automatic launch, and what the
//! report says about them.
//!
//! - **Module variables.** The run is made with the module's variables
//!   ([`sim::run_ptx_in_module`]): `.global`/`.const` variables get addresses from
//!   [`sim::MODULE_VARIABLES_BASE`] and hold their initializers. One without an initializer
//!   is filled by the host before the launch (`cudaMemcpyToSymbol`), which a PTX file does
//!   not show: it reads as the automatic memory's seeded words (open memory), or zeros when
//!   `memory` is given (PTX's default), unless `memory` has an array of its name — and a
//!   warning lists these variables, as the SASS automatic launch lists the constant banks it
//!   reads as zero.
//! - **Shared memory.** An automatic launch (`params` empty or `auto`, `shared_bytes` 0) of
//!   a kernel that uses shared memory passes dynamic shared memory so that the block has
//!   [`AUTO_SHARED_BYTES`] = 48 KiB in all, the static maximum per block and what the SASS
//!   automatic launch gives (a listing does not say what its block declares). A kernel with
//!   an `extern .shared` array gets that array's bytes this way; a kernel whose threads
//!   index past their tiles because the automatic block is not the one it was written for
//!   (Rodinia's `lud` and `nw` assume 16 threads) runs as it would on the GPU under this
//!   launch — a legal one: the extra bytes are the block's, so its accesses there do not
//!   fault.
//! - **Texture references.** Each `.texref` the kernel fetches through is, in the texture
//!   model ([`sim::texture`]), a texture whose handle is the variable's address; an
//!   automatic launch binds it to [`AUTO_TEXTURE_SIDE`]² texels (the size texture objects
//!   get), and the report's `arguments.textures` lists the binding.

use crate::params::kernel_args;
use crate::params::sass_args::{AUTO_SHARED_BYTES, AUTO_TEXTURE_SIDE};
use crate::report::{ArgumentSource, KernelArguments};
use isa::ptx::{Function, StateSpace};
use isa::{Diagnostic, Severity};

/// A PTX kernel with its module's variables.
#[derive(Clone, Copy)]
pub struct PtxKernel<'a> {
    pub module: &'a isa::ptx::Module,
    pub function: &'a Function,
}

/// Completes `launch` for a run of `k` on `memory`: with `auto` (an automatic launch) the
/// shared memory and the bindings of texture objects (the automatic arguments `args`) and
/// texture references the module doc describes; returns the notes and warnings to report.
pub fn prepare(
    k: PtxKernel,
    launch: &mut sim::Launch,
    args: Option<&mut KernelArguments>,
    memory: &sim::MemoryInit,
    auto: bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let variables = sim::ptx_module_variables(k.module, k.function, memory);
    if auto && launch.textures.is_empty() {
        let mut bindings = Vec::new();
        if let Some(a) = args.as_deref() {
            bindings = object_bindings(k.function, a);
        }
        let references: Vec<&sim::ModuleVariable> = variables
            .iter()
            .filter(|v| v.space == StateSpace::Tex)
            .collect();
        bindings.extend(references.iter().map(|v| sim::TextureBinding {
            handle: v.address,
            width: AUTO_TEXTURE_SIDE,
            height: AUTO_TEXTURE_SIDE,
            texel_words: 1,
        }));
        if !references.is_empty() {
            let names: Vec<String> = references
                .iter()
                .map(|v| format!("`{}` at {:#x}", v.name, v.address))
                .collect();
            out.push(Diagnostic::global(
                Severity::Note,
                format!(
                    "the kernel fetches through texture references ({}): in the simulator's \
                     texture model (sim::texture) a reference's handle is the address the \
                     simulator gives the variable, and the automatic launch binds it to \
                     {AUTO_TEXTURE_SIDE}x{AUTO_TEXTURE_SIDE} texels of seeded memory there \
                     (set `textures` to choose)",
                    names.join(", ")
                ),
            ));
        }
        if let Some(a) = args {
            a.textures = crate::simulator::textures_text(&bindings);
        }
        launch.textures = bindings;
    }
    if auto && launch.shared_bytes == 0 {
        let (fixed, dynamic) = sim::ptx_shared_bytes(k.module, k.function);
        let uses = fixed > 0 || dynamic;
        if uses && fixed < u64::from(AUTO_SHARED_BYTES) {
            launch.shared_bytes = AUTO_SHARED_BYTES - fixed as u32;
            out.push(Diagnostic::global(
                Severity::Note,
                format!(
                    "the kernel declares {fixed} bytes of shared memory{}; the automatic \
                     launch passes {} bytes of dynamic shared memory, so that the block has \
                     48 KiB in all as the SASS automatic launch gives (`shared_bytes` sets \
                     the dynamic bytes)",
                    if dynamic {
                        " and an `extern` array sized by the launch"
                    } else {
                        ""
                    },
                    launch.shared_bytes
                ),
            ));
        }
    }
    let filled: Vec<String> = variables
        .iter()
        .filter(|v| v.space != StateSpace::Tex && v.init.is_none() && !v.from_request)
        .map(|v| {
            format!(
                "`{}` (.{}, {} bytes at {:#x})",
                v.name,
                if v.space == StateSpace::Const {
                    "const"
                } else {
                    "global"
                },
                v.bytes,
                v.address
            )
        })
        .collect();
    if !filled.is_empty() {
        out.push(Diagnostic::global(
            Severity::Warning,
            format!(
                "the kernel names module variables without an initializer, which the host \
                 fills before a launch (cudaMemcpyToSymbol): {}; this run reads them as {} \
                 until the kernel writes them, so its results are not the kernel's on real \
                 data (an array of the variable's name in `memory` gives its contents)",
                filled.join(", "),
                if memory.open.is_some() || (memory.arrays.is_empty()) {
                    "the automatic memory's seeded words"
                } else {
                    "zeros (PTX's default)"
                }
            ),
        ));
    }
    out
}

/// The bindings an automatic PTX launch gives the texture objects among the automatic
/// arguments `args` (the handles of `tex` fetches: `kernel_args::texture_params`): each
/// handle's buffer read as `AUTO_TEXTURE_SIDE`² texels, as for SASS.
fn object_bindings(f: &Function, args: &KernelArguments) -> Vec<sim::TextureBinding> {
    let textures = kernel_args::texture_params(f);
    args.values
        .iter()
        .filter(|v| textures.contains(&v.name) && v.source == ArgumentSource::Auto)
        .filter_map(|v| v.value.as_u64())
        .map(|handle| sim::TextureBinding {
            handle,
            width: AUTO_TEXTURE_SIDE,
            height: AUTO_TEXTURE_SIDE,
            texel_words: 1,
        })
        .collect()
}

/// Runs `k` on the simulator ([`sim::run_ptx_in_module`]).
pub fn run(
    k: PtxKernel,
    launch: &sim::Launch,
    machine: &sim::Machine,
    memory: &sim::MemoryInit,
    budget: &sim::Budget,
    progress: isa::Observer,
) -> Result<sim::Simulation, Vec<Diagnostic>> {
    sim::run_ptx_in_module(
        k.module, k.function, launch, machine, memory, budget, progress,
    )
    .map_err(|e| e.diagnostics)
}
