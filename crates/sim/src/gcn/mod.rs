//! GCN3 simulation (issue #7 items 1 and 3): AMD GCN3 wavefronts over the typed
//! [`isa::gcn::GcnFunction`], with exec-mask divergence and, optionally, wavefront splitting
//! (DWS/PWS, [`crate::splitting`]).
//!
//! What it is: a functional and timing simulator of one compute unit's SIMD (the
//! [`crate::presets`] `gcn3` machine, or any [`crate::Machine`] with the wavefront size in
//! `warp_size`). State per wavefront: SGPRs `s0`–`s103`, `vcc`, `exec`, `scc`, `m0`
//! ([`operand`]), VGPRs per lane; the initial registers follow the kernel descriptor
//! ([`abi`]). Semantics (module `alu`, decoding in [`decode`]):
//! - scalar ALU: `s_mov`/`s_movk`/`s_cmov`, `s_add`/`s_sub` (`u32`, `i32`), `s_addc`,
//!   `s_subb`, `s_addk`, `s_mul_i32`, `s_mulk`, `s_lshl`/`s_lshr`/`s_ashr` (32/64),
//!   `s_and`/`or`/`xor`/`andn2`/`orn2`/`nand`/`nor`/`xnor`/`not` (`_b32`/`_b64`),
//!   `s_min`/`s_max`, `s_cselect`, `s_bfe`, `s_bfm`, `s_brev`, `s_cmp*`/`s_cmpk*`,
//!   `s_*_saveexec_b64`;
//! - vector ALU: `v_mov`, `v_add`/`sub`/`subrev` (`_u32`/`_i32`/`_co_u32`, with a carry
//!   out; `_u16`), `v_addc`/`v_subb`/`v_subbrev`, `v_mul_lo`/`hi`, `v_mul_u32_u24`/`i32_i24`,
//!   `v_mad_u32_u24`/`i32_i24`, `v_mad_u64_u32`/`i64_i32`, shifts (32/64), `v_lshl_add_u32`,
//!   `v_and`/`or`/`xor`/`not`, `v_alignbit`/`alignbyte`, `v_bfi`, `v_bfm`, `v_bfrev`,
//!   `v_bcnt`, integer min/max/min3/max3, `v_bfe`, `v_cndmask`, `v_readfirstlane`,
//!   `v_readlane`/`v_writelane`, `v_cmp_*`/`v_cmpx_*` (i16/u16/i32/u32/i64/u64/f32/f64, and
//!   the `class` tests), f32 `add`/`sub`/`subrev`/`mul`/`mac`/`mad`/`fma`/`min`/`max`/
//!   `min3`/`max3`/`rcp`/`sqrt`/`rsq`/`exp`/`log`/`rndne`/`floor`/`ceil`/`trunc`/`fract`/
//!   `ldexp`/`frexp`, conversions between f32, f64, i32, u32 and bytes, f64
//!   `add`/`mul`/`fma`/`min`/`max`/`rcp`/`rsq`/`sqrt`/`ldexp`/`frexp`/`rndne`/`floor`/
//!   `ceil`/`trunc`/`fract`; the division steps `v_div_scale`/`v_div_fmas`/`v_div_fixup`
//!   (f32 and f64, module `division`); the rest of these one-liners in `float_functions`;
//! - memory: `s_load_dword{,x2,x4,x8,x16}` (kernel arguments, dispatch packet, global
//!   memory), `flat_load`/`flat_store` and `global_load`/`global_store` (byte, short, dword,
//!   x2, x3, x4; `saddr` and `offset:`), 32-bit `flat_atomic_*`/`global_atomic_*` and LDS
//!   atomics (`ds_add`, `ds_or`, …, `_rtn`; lane order, `front_end::atomics`),
//!   `ds_read`/`ds_write` (including `read2`/`write2`, `st64`, `b96`/`b128`) on the
//!   workgroup's LDS (the descriptor's fixed bytes plus the launch's dynamic ones, 32-bit
//!   addresses); `buffer_load`/`buffer_store` of the private segment (scratch, each
//!   work-item's own bytes, `front_end::scratch`); `s_waitcnt`, `s_barrier`, `s_nop`;
//! - control: `s_endpgm`, `s_branch`, `s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz`, the
//!   PWS `split`/`merge`, and calls (issue #20): [`run_source`] links the function with the
//!   functions of the listing it calls ([`isa::gcn::link()`]); a call
//!   ([`isa::gcn::GcnControl::Call`]) writes the return address to its destination pair and
//!   pushes it on the wavefront's return stack (at most `max_stack_depth` calls in
//!   progress), a return (`s_setpc_b64 s[30:31]`) pops it — or ends the wavefront in the
//!   entry function — and a tail call jumps; `s_getpc_b64` and the relocated literals of the
//!   call sequence run on the code addresses of module [`code`].
//!
//! Anything else (DPP/SDWA, output modifiers, 64-bit and float atomics, indexed buffer and
//! image instructions, `v_trig_preop`) stops the run with "cannot simulate OPCODE: why"
//! at its span when a wavefront reaches it — never a guess.
//!
//! Results are the crate's [`crate::Simulation`]: one [`crate::WarpTimeline`] per hardware
//! wavefront (its split-wavefronts' issues included), whose `stack_depth` is the number of
//! live split-wavefronts (1 without splitting); the stepper's `active` mask is the lanes'
//! `exec ∧ SpM` and its `stack` is empty for an unsplit wavefront — there is no activation
//! stack on GCN; the saved masks live in ordinary SGPRs — and lists the live
//! split-wavefronts (pc, split mask; the executing one last) when it is split.

pub mod abi;
mod alu;
pub mod code;
pub mod decode;
mod division;
mod float_functions;
pub(crate) mod front_end;
pub mod operand;
pub mod sdwa;

pub use abi::{GcnAbi, DISPATCH_BASE, KERNARG_BASE};

use crate::cycle_loop::Request;
use crate::{Budget, Launch, Machine, MemoryInit, SimError, Simulation};
use isa::gcn::GcnFunction;

/// Simulates `function` (its initial registers per `abi`) launched as `launch` on `machine`
/// (whose `splitting` selects no splitting, DWS or PWS).
///
/// # Errors
/// A located [`SimError`]: an instruction without semantics, an access outside the arrays,
/// a wavefront running off the end, a deadlock, an invalid request, or an exhausted budget.
pub fn run(
    function: &GcnFunction,
    abi: &GcnAbi,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    let req = Request::new(launch, machine, memory, budget, &isa::progress::silent);
    front_end::run(function, &[], abi, &req)
}

/// Parses `source` (GCN3 assembly), picks `function` (the first when `None`), reads its
/// `.amdhsa_*` descriptor and simulates it — what the facade needs from the editor text.
///
/// # Errors
/// The parser's error diagnostics, an unknown function, or what [`run`] reports.
pub fn run_source(
    source: &str,
    function: Option<&str>,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
) -> Result<Simulation, SimError> {
    run_source_observed(
        source,
        function,
        launch,
        machine,
        memory,
        budget,
        &isa::progress::silent,
    )
}

/// [`run_source`], telling `observer` how far the run is (as [`crate::run_observed`]).
///
/// # Errors
/// As [`run_source`].
pub fn run_source_observed(
    source: &str,
    function: Option<&str>,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
    observer: isa::Observer,
) -> Result<Simulation, SimError> {
    let program = isa::gcn::parse(source, &isa::Limits::default());
    if program.has_errors() {
        return Err(SimError {
            diagnostics: program
                .diagnostics
                .into_iter()
                .filter(isa::Diagnostic::is_error)
                .collect(),
        });
    }
    let Some(f) = program.function(function) else {
        return Err(SimError::request(format!(
            "no GCN function `{}` in the listing",
            function.unwrap_or("(first)")
        )));
    };
    run_program_observed(&program, f, launch, machine, memory, budget, observer)
}

/// Simulates `f` of the parsed listing `program` (which holds its callees), reading its
/// `.amdhsa_*` descriptor — [`run_source_observed`] for a caller that parsed the text once
/// already.
///
/// # Errors
/// What [`run`] reports.
pub fn run_program_observed(
    program: &isa::gcn::GcnProgram,
    f: &GcnFunction,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
    budget: &Budget,
    observer: isa::Observer,
) -> Result<Simulation, SimError> {
    let abi = GcnAbi::from_descriptor(&f.descriptor);
    // Calls: the function linked with its callees, code addresses materialised.
    let mut linked = isa::gcn::link(program, f);
    let symbols = code::symbols(&linked);
    code::materialise(&mut linked, &symbols);
    let got = code::got(&symbols);
    let req = Request::new(launch, machine, memory, budget, observer);
    front_end::run(&linked.function, &got, &abi, &req)
}

/// Simulates a GCN kernel given as the generic [`isa::Kernel`] (what [`crate::run`]
/// receives): its instructions' text and labels are re-read by the GCN parser, and spans are
/// mapped back to the kernel's. Default [`GcnAbi`] (no descriptor is available).
pub(crate) fn run_kernel(kernel: &isa::Kernel, req: &Request) -> Result<Simulation, SimError> {
    let mut text = String::new();
    text.push_str(&kernel.function);
    text.push_str(":\n");
    for ins in &kernel.instructions {
        for (name, &addr) in &kernel.labels {
            if addr == ins.address {
                text.push_str(name);
                text.push_str(":\n");
            }
        }
        text.push_str("  ");
        text.push_str(&ins.text);
        text.push('\n');
    }
    let program = isa::gcn::parse(&text, &isa::Limits::default());
    let mut f = program
        .functions
        .into_iter()
        .next()
        .ok_or_else(|| SimError::request("the GCN kernel has no function"))?;
    if f.instructions.len() == kernel.instructions.len() {
        for (g, k) in f.instructions.iter_mut().zip(&kernel.instructions) {
            g.span = k.span;
            g.opcode_span = k.opcode.span;
        }
    }
    front_end::run(&f, &[], &GcnAbi::default(), req)
}
