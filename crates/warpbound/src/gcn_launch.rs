//! A GCN3 kernel's run as every mode makes it (`simulate`, `pws` with `simulate=true`): the
//! request's launch, or — with `params` empty or `auto` — the automatic launch (issue #37
//! item 5):
//!
//! - **Arguments** from the listing ([`gcn_args::automatic`]): the code object metadata's
//!   argument list where the listing has one, else the mangled name, else the kernarg words
//!   the kernel loads; the hidden arguments get the values the launch implies.
//! - **LDS**: a kernel that uses LDS (`ds_*`) gets dynamic LDS so that each work-group has
//!   [`GCN_AUTO_LDS_BYTES`] = 64 KiB in all, the most a work-group may have on GCN3 (AMD,
//!   "Vega ISA", §2.5 Local Data Share; the fixed part is the descriptor's
//!   `.amdhsa_group_segment_fixed_size`, the launch's `shared_bytes` follows it). A kernel
//!   with `extern __shared__` arrays gets its dynamic LDS this way; one whose work-items index
//!   past their tiles because the automatic work-group is not the one it was written for
//!   (Rodinia's `lud`, `nw`) runs as the GPU would under this launch, a legal one: the
//!   extra bytes are the work-group's, so its accesses there do not fault.
//! - **Memory**: each pointer gets an array of the automatic open memory
//!   ([`crate::auto_memory`]).

use crate::auto_memory;
use crate::kernel_text::Gcn;
use crate::params::{gcn_args, gcn_kernarg, kernel_args};
use crate::report::KernelArguments;
use isa::{Diagnostic, Severity};

/// LDS per work-group of an automatic launch of a kernel that uses LDS: 64 KiB, the most one
/// work-group may have on GCN3 (AMD, "Vega ISA", §2.5 Local Data Share).
pub const GCN_AUTO_LDS_BYTES: u32 = 64 * 1024;

/// Runs the chosen function of the GCN3 listing `gcn` (whose text is `source`; module doc);
/// the notes go to `diags`, the automatic arguments to `arguments`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    gcn: &Gcn,
    source: &str,
    launch: &sim::Launch,
    machine: &sim::Machine,
    memory: &sim::MemoryInit,
    budget: &sim::Budget,
    auto: bool,
    diags: &mut Vec<Diagnostic>,
    arguments: &mut Option<KernelArguments>,
    progress: isa::Observer,
) -> Result<sim::Simulation, sim::SimError> {
    let f = gcn.function();
    let simulate = |launch: &sim::Launch, memory: &sim::MemoryInit| {
        sim::gcn::run_program_observed(&gcn.program, f, launch, machine, memory, budget, progress)
    };
    if !auto {
        return simulate(launch, memory);
    }
    let mut launch = launch.clone();
    let descriptor = &f.descriptor;
    let fixed = descriptor
        .get(".amdhsa_group_segment_fixed_size")
        .copied()
        .unwrap_or(0);
    let uses_lds = f.instructions.iter().any(|i| i.opcode.starts_with("ds_"));
    let lds = (uses_lds && launch.shared_bytes == 0 && fixed < u64::from(GCN_AUTO_LDS_BYTES))
        .then(|| GCN_AUTO_LDS_BYTES - fixed as u32);
    if let Some(bytes) = lds {
        launch.shared_bytes = bytes;
    }
    let abi = sim::gcn::GcnAbi::from_descriptor(descriptor);
    let kernarg_pointer = abi
        .sgprs()
        .iter()
        .position(|s| *s == sim::gcn::abi::InitSgpr::KernargPtr);
    let metadata = isa::gcn::metadata::kernels(source);
    let uses = kernarg_pointer
        .map(|k| gcn_kernarg::uses(f, k as u32))
        .unwrap_or_default();
    let automatic = gcn_args::automatic(
        &f.name,
        metadata.get(&f.name),
        &uses,
        descriptor.get(".amdhsa_kernarg_size").copied(),
        &launch,
    );
    let Some((words, mut args, from)) = automatic else {
        return simulate(&launch, memory);
    };
    launch.params = words;
    let result = auto_memory::run_on(memory, Some(&mut args), |m| {
        simulate(&launch, m).map_err(|e| e.diagnostics)
    })
    .map_err(|diagnostics| sim::SimError { diagnostics });
    diags.push(note(&args, from, lds.map(|b| (fixed, b))));
    *arguments = Some(args);
    result
}

/// The note that says a GCN3 kernel's arguments (and buffers, and LDS) were chosen
/// automatically.
fn note(args: &KernelArguments, from: gcn_args::Source, lds: Option<(u64, u32)>) -> Diagnostic {
    let how = match from {
        gcn_args::Source::Metadata => {
            "read from the code object metadata (`.amdgpu_metadata`: each argument's offset, \
             size and kind; the hidden arguments get the launch's values)"
        }
        gcn_args::Source::MangledName => {
            "read from its mangled name and laid out in the kernarg segment at their natural \
             alignment"
        }
        gcn_args::Source::Loads => {
            "inferred from the kernarg words the listing loads (no metadata, no types in the \
             name: a word pair used as an address is a pointer, a word used as a float a float)"
        }
    };
    let shown: Vec<String> = args
        .values
        .iter()
        .map(|a| format!("{} = {} ({})", a.name, a.text, a.ty))
        .collect();
    let mut m = format!(
        "no `params` given: the kernel's arguments were {how} (params=auto: pointers at \
         0x100000, 0x200000, … (1 MiB apart), integers {}, floats {:.1}): {}; they are in the \
         report's `arguments`, and `params` sets the kernarg words",
        kernel_args::AUTO_INTEGER,
        kernel_args::AUTO_FLOAT,
        shown.join(", "),
    );
    if !args.memory.is_empty() {
        m.push_str(&auto_memory::memory_sentence(args));
    }
    if let Some((fixed, dynamic)) = lds {
        m.push_str(&format!(
            "; the kernel uses LDS ({fixed} bytes fixed by its descriptor): the launch passes \
             {dynamic} bytes of dynamic LDS, so each work-group has 64 KiB (`shared_bytes` \
             sets the dynamic bytes)"
        ));
    }
    Diagnostic::global(Severity::Note, m)
}
