//! Where the PTX simulator keeps what PTX names symbolically: virtual registers, kernel
//! parameters, `.shared` and `.local` variables, and the module's `.global`, `.const` and
//! `.texref` variables.
//!
//! - **Registers.** Every virtual register a function mentions (`%r3`, `%rd12`, `%f1`,
//!   `%fd4`, `%p2`, `%rs1`, scoped ones like `%temp`) gets one index, in name order. Each holds
//!   a 64-bit word per lane: an instruction of type `.T` reads the low `|T|` bits (sign- or
//!   zero-extended as `.T` says) and writes the low `|T|` bits (the rest cleared), so a 64-bit
//!   register never needs a pair and the scoreboard tracks one slot per virtual register.
//!   Predicates hold 0 or 1.
//! - **Parameters.** `ld.param` reads the launch's parameter words as little-endian bytes,
//!   parameters laid out in declaration order, each at the next multiple of its alignment
//!   (`.align n` when given, else its element size): the CUDA ABI's layout of the parameter
//!   buffer. So `(float *a, int n)` is `a` at bytes 0..8 (words 0–1, low word first) and `n`
//!   at 8..12 (word 2) — the same words a SASS launch of that kernel gets.
//! - **Shared variables.** The function's `.shared` variables, then the module-scope
//!   `.shared` variables it names (PTX ISA, "State Spaces: Shared": a module-scope shared variable is
//!   allocated per CTA of every kernel that uses it), are placed from shared address 0 in
//!   declaration order at their alignment; a variable of unknown size (`extern .shared .b8
//!   s[]`, the CUDA `extern __shared__` array) starts after them and gets the launch's
//!   `shared_bytes`, so a block has `static + launch.shared_bytes` bytes of shared memory.
//! - **Local variables.** The function's `.local` variables (nvcc's `__local_depot`, the
//!   stack frame of local arrays) and the `.param` variables its call sequences declare
//!   (`param0`, `retval0`: the arguments and results of device-function calls, which
//!   `super::inline` runs inline) are placed in each thread's local window
//!   (`crate::sass::local_memory`, the window SASS's `LDL`/`STL` use) just below its top,
//!   [`crate::launch::LOCAL_STACK_TOP`], in declaration order at their alignment: a local
//!   address is a byte offset in the executing thread's own window. Its generic address
//!   (`cvta.local`) is that offset plus [`GENERIC_LOCAL_BASE`]; a generic load or store in
//!   that range reaches the thread's window, as on the hardware, where the local window is
//!   a range of the generic address space (PTX ISA, "Generic Addressing").
//! - **Module variables** ([`module_variables`]): every `.global`, `.const` and `.texref`
//!   variable the function names gets an address in global memory, from
//!   [`MODULE_VARIABLES_BASE`] in declaration order, each 256-byte aligned (a texture
//!   reference reserves [`TEXREF_RESERVED_BYTES`] for its texels) — or, when the
//!   request's memory has an array of the same name, that array's address, so a user can
//!   give a variable its contents (the `memory` text names it). The constant space is read
//!   through the same addresses: the simulator has one flat address space, and `.const`
//!   addresses never meet `.global` ones.

use crate::launch::LOCAL_STACK_TOP;
use isa::ptx::{Function, Instruction, OperandKind, ScalarType, StateSpace, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

/// Where module `.global`/`.const`/`.texref` variables start in global memory: 1 GiB,
/// above every automatic pointer's window (pointers from 1 MiB, 1 MiB apart, one per
/// parameter) and far below the 47-bit limit.
pub const MODULE_VARIABLES_BASE: u64 = 0x4000_0000;

/// Bytes a module variable of unknown size gets (`.extern .global .b8 buf[]`): 4 KiB.
pub const UNSIZED_VARIABLE_BYTES: u64 = 4096;

/// Bytes of address space a texture reference's texels may take: 16 MiB (4096 × 1024
/// texels), so that the next variable does not meet a binding of that size.
pub const TEXREF_RESERVED_BYTES: u64 = 16 << 20;

/// The generic address of local offset 0: a local address `a` is the generic address
/// `GENERIC_LOCAL_BASE + a` (the value the SASS local-window base reads as,
/// [`crate::launch::LOCAL_WINDOW_BASE`]).
pub const GENERIC_LOCAL_BASE: u64 = 0x7ff0_0000_0000;

/// One module variable as the simulator places it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVariable {
    pub name: String,
    /// `Global`, `Const` or `Tex` (a `.texref`, whatever space it was declared in).
    pub space: StateSpace,
    pub address: u64,
    /// Its declared bytes ([`UNSIZED_VARIABLE_BYTES`] when unknown, 0 for a `.texref`,
    /// whose texels the binding sizes).
    pub bytes: u64,
    /// Its initializer's bytes, when it has one the module gives in full.
    pub init: Option<Vec<u8>>,
    /// The request's memory has an array of this name: the variable is that array.
    pub from_request: bool,
}

/// Byte offset and size of each parameter, and each variable's address in its space.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    pub registers: BTreeMap<String, u32>,
    pub params: BTreeMap<String, (u64, Option<u64>)>,
    pub shared: BTreeMap<String, u64>,
    /// Bytes of statically sized shared variables.
    pub shared_static: u64,
    /// Module `.global`/`.const`/`.texref` variables: their global address.
    pub globals: BTreeMap<String, u64>,
    /// `.texref` variables among `globals`.
    pub texrefs: BTreeSet<String>,
    /// `.local` variables: their offset in each thread's local window.
    pub local: BTreeMap<String, u64>,
}

fn align_of(v: &VarDecl) -> u64 {
    v.align
        .or_else(|| ScalarType::from_modifier(&v.ty).map(|t| u64::from(t.bytes())))
        .unwrap_or(1)
        .max(1)
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a).saturating_mul(a)
}

/// The symbols the instructions name (operands and address bases).
fn named_symbols(instructions: &[Instruction]) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for ins in instructions {
        for op in &ins.operands {
            match &op.kind {
                OperandKind::Symbol { name } => {
                    out.insert(name.as_str());
                }
                OperandKind::Address {
                    base: Some(isa::ptx::AddressBase::Symbol(name)),
                    ..
                } => {
                    out.insert(name.as_str());
                }
                // `tex` keeps `[ref, {x}]` as text: its first item may be a texture reference.
                OperandKind::Other { text } => {
                    if let Some(h) = text
                        .trim()
                        .strip_prefix('[')
                        .and_then(|t| t.split(',').next())
                    {
                        out.insert(h.trim());
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn is_texref(v: &VarDecl) -> bool {
    v.ty == "texref" || v.space == StateSpace::Tex
}

/// The module's `.global`, `.const` and `.texref` variables that `f` names, placed as the
/// module doc says (an array of `memory` with a variable's name gives its address).
pub fn module_variables(
    globals: &[VarDecl],
    f: &Function,
    memory: &crate::MemoryInit,
) -> Vec<ModuleVariable> {
    let named = named_symbols(&f.instructions);
    let mut next = MODULE_VARIABLES_BASE;
    let mut out = Vec::new();
    for v in globals {
        let texref = is_texref(v);
        if !named.contains(v.name.as_str())
            || !(texref || matches!(v.space, StateSpace::Global | StateSpace::Const))
        {
            continue;
        }
        let bytes = if texref {
            0
        } else {
            v.size_bytes().unwrap_or(UNSIZED_VARIABLE_BYTES)
        };
        let given = memory.arrays.iter().find(|a| a.name == v.name);
        let reserved = if texref {
            TEXREF_RESERVED_BYTES
        } else {
            bytes.max(4)
        };
        let address = match given {
            Some(a) => a.address,
            None => {
                let a = align_up(next, 256.max(align_of(v)));
                next = align_up(a.saturating_add(reserved), 256);
                a
            }
        };
        out.push(ModuleVariable {
            name: v.name.clone(),
            space: if texref { StateSpace::Tex } else { v.space },
            address,
            bytes,
            init: v.init.as_ref().and_then(|i| i.bytes.clone()),
            from_request: given.is_some(),
        });
    }
    out
}

/// Bytes of `f`'s statically sized shared variables and whether it declares an unsized
/// one (see [`Layout`]).
pub(crate) fn shared_bytes(globals: &[VarDecl], f: &Function) -> (u64, bool) {
    let lay = Layout::of(f, globals, &[]);
    let named = named_symbols(&f.instructions);
    let dynamic = f
        .vars
        .iter()
        .chain(globals.iter().filter(|v| named.contains(v.name.as_str())))
        .any(|v| v.space == StateSpace::Shared && v.size_bytes().is_none());
    (lay.shared_static, dynamic)
}

impl Layout {
    /// The layout of `f` in a module whose module-scope variables are `globals`, placed as
    /// `module` says (see [`module_variables`]).
    pub fn of(f: &Function, globals: &[VarDecl], module: &[ModuleVariable]) -> Layout {
        let mut registers = BTreeMap::new();
        let mut names: Vec<&str> = Vec::new();
        for ins in &f.instructions {
            if let Some(g) = &ins.guard {
                names.push(&g.reg);
            }
            for op in &ins.operands {
                names.extend(op.registers());
            }
        }
        names.sort_unstable();
        names.dedup();
        for (i, n) in names.into_iter().enumerate() {
            registers.insert(n.to_string(), i as u32);
        }
        let mut params = BTreeMap::new();
        let mut off = 0u64;
        for p in &f.params {
            off = align_up(off, align_of(p));
            let size = p.size_bytes();
            params.insert(p.name.clone(), (off, size));
            off = off.saturating_add(size.unwrap_or(0));
        }
        let named = named_symbols(&f.instructions);
        let module_shared = globals
            .iter()
            .filter(|v| v.space == StateSpace::Shared && named.contains(v.name.as_str()));
        let mut shared = BTreeMap::new();
        let mut off = 0u64;
        let mut unsized_vars = Vec::new();
        for v in f
            .vars
            .iter()
            .filter(|v| v.space == StateSpace::Shared)
            .chain(module_shared)
        {
            if shared.contains_key(&v.name) {
                continue;
            }
            match v.size_bytes() {
                Some(size) => {
                    off = align_up(off, align_of(v));
                    shared.insert(v.name.clone(), off);
                    off = off.saturating_add(size);
                }
                None => unsized_vars.push(v),
            }
        }
        let mut end = off;
        for v in unsized_vars {
            end = align_up(off, align_of(v));
            shared.entry(v.name.clone()).or_insert(end);
        }
        // `.local` variables and the `.param` variables of call sequences (and of inlined
        // callees, `super::inline`): each thread's own bytes.
        let locals: Vec<&VarDecl> = f
            .vars
            .iter()
            .filter(|v| matches!(v.space, StateSpace::Local | StateSpace::Param))
            .collect();
        let frame = locals.iter().fold(0u64, |at, v| {
            align_up(at, align_of(v)).saturating_add(v.size_bytes().unwrap_or(0))
        });
        // The frame's start: below the window's top by the frame, 16-byte aligned (the
        // most any local variable asks of its start, `.align 16` vectors).
        let base = (u64::from(LOCAL_STACK_TOP).saturating_sub(frame)) & !15;
        let mut local = BTreeMap::new();
        let mut at = 0u64;
        for v in locals {
            at = align_up(at, align_of(v));
            local.insert(v.name.clone(), base + at);
            at = at.saturating_add(v.size_bytes().unwrap_or(0));
        }
        Layout {
            registers,
            params,
            shared,
            shared_static: end,
            globals: module.iter().map(|m| (m.name.clone(), m.address)).collect(),
            texrefs: module
                .iter()
                .filter(|m| m.space == StateSpace::Tex)
                .map(|m| m.name.clone())
                .collect(),
            local,
        }
    }

    /// Reads `bytes` little-endian bytes of the parameter buffer at `offset`.
    pub fn read_param(words: &[u32], offset: u64, bytes: u64) -> Option<u64> {
        let mut v = 0u64;
        for k in 0..bytes {
            let b = offset.checked_add(k)?;
            let w = words.get(usize::try_from(b / 4).ok()?)?;
            v |= u64::from((w >> ((b % 4) * 8)) & 0xff) << (8 * k);
        }
        Some(v)
    }
}

/// The arrays the module variables of `module` add to the request's memory `memory`: each
/// variable the request does not give, at its address, holding its initializer's bytes (the
/// rest zero), or — without an initializer, a variable the host fills before the launch
/// (`cudaMemcpyToSymbol`) — the words open memory reads there (seeded), or zeros when the
/// memory is closed (PTX ISA §5.4.4: `.global` and `.const` variables are zero-initialized);
/// a texture reference gets its binding's `width × height` texels (`bindings`).
pub(crate) fn module_arrays(
    module: &[ModuleVariable],
    memory: &crate::MemoryInit,
    bindings: &[crate::TextureBinding],
) -> Vec<crate::ArrayInit> {
    module
        .iter()
        .filter(|m| !m.from_request)
        .filter_map(|m| {
            let bytes = if m.space == StateSpace::Tex {
                bindings
                    .iter()
                    .find(|b| b.matches(m.address))
                    .map_or(0, crate::TextureBinding::bytes)
            } else {
                m.bytes
            };
            let words = u32::try_from(bytes.div_ceil(4)).ok().filter(|&w| w > 0)?;
            let fill = match (&m.init, memory.open) {
                (Some(b), _) => crate::Fill::Words {
                    values: b
                        .chunks(4)
                        .map(|c| c.iter().rev().fold(0u32, |w, &x| (w << 8) | u32::from(x)))
                        .collect(),
                },
                (None, Some(o)) => crate::Fill::Hashed {
                    seed: o.seed,
                    below: o.below,
                },
                (None, None) => crate::Fill::Constant { value: 0 },
            };
            Some(crate::ArrayInit {
                name: m.name.clone(),
                address: m.address,
                words,
                fill,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_bytes_are_little_endian_words() {
        // Words [0x1000, 0, 7]: a 64-bit pointer 0x1000 then an int 7 at byte 8.
        let w = [0x1000, 0, 7];
        assert_eq!(Layout::read_param(&w, 0, 8), Some(0x1000));
        assert_eq!(Layout::read_param(&w, 8, 4), Some(7));
        assert_eq!(Layout::read_param(&w, 9, 1), Some(0));
        assert_eq!(Layout::read_param(&w, 10, 4), None);
    }

    const MODULE: &str = r#"
.version 7.0
.target sm_61
.address_size 64
.global .align 4 .u32 counter;
.const .align 4 .b8 table[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3};
.global .align 8 .u64 unused;
.global .texref ref;
.extern .shared .align 4 .b8 dyn[];
.shared .align 4 .b8 tile[64];
.visible .entry k(.param .u64 p)
{
    .local .align 4 .b8 __local_depot0[12];
    .reg .b64 %rd<4>;
    .reg .b32 %r<4>;
    .shared .align 8 .b8 mine[8];
    mov.u64 %rd1, __local_depot0;
    mov.u64 %rd2, counter;
    ld.const.u32 %r1, [table+4];
    mov.u32 %r2, dyn;
    mov.u32 %r3, tile;
    mov.u32 %r3, mine;
    tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r3}, [ref, {%r1}];
    ret;
}
"#;

    /// Module variables get 256-byte aligned addresses from 1 GiB in declaration order
    /// (only those the kernel names); shared ones follow the function's own, the unsized
    /// one last; the depot sits just below the local window's top.
    #[test]
    fn module_and_local_variables_by_hand() {
        let parsed = isa::ptx::parse(MODULE, &isa::Limits::default());
        let m = &parsed.module;
        let f = m.function(Some("k")).expect("k");
        let vars = module_variables(&m.globals, f, &crate::MemoryInit::default());
        let placed: Vec<(&str, u64, u64)> = vars
            .iter()
            .map(|v| (v.name.as_str(), v.address, v.bytes))
            .collect();
        assert_eq!(
            placed,
            [
                ("counter", 0x4000_0000, 4),
                ("table", 0x4000_0100, 12),
                ("ref", 0x4000_0200, 0)
            ]
        );
        assert_eq!(
            vars[1].init.as_deref(),
            Some(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0][..])
        );
        let lay = Layout::of(f, &m.globals, &vars);
        // mine (8, align 8) at 0, tile (64) at 8, dyn after them at 72.
        assert_eq!(lay.shared["mine"], 0);
        assert_eq!(lay.shared["tile"], 8);
        assert_eq!(lay.shared["dyn"], 72);
        assert_eq!(lay.shared_static, 72);
        // 12 bytes below 0xfffc00, 16-byte aligned: 0xfffbf0.
        assert_eq!(lay.local["__local_depot0"], 0xfff_bf0);
        assert!(lay.texrefs.contains("ref"));
        // The initialiser's bytes become little-endian words; an uninitialised variable
        // reads zeros in closed memory and the open words otherwise.
        let arrays = module_arrays(&vars, &crate::MemoryInit::default(), &[]);
        assert_eq!(
            arrays.len(),
            2,
            "an unbound texture reference has no texels"
        );
        assert_eq!(arrays[0].fill, crate::Fill::Constant { value: 0 });
        assert_eq!(
            arrays[1].fill,
            crate::Fill::Words {
                values: vec![1, 2, 3]
            }
        );
        // A request array named `counter` gives its address.
        let given = crate::MemoryInit::closed(vec![crate::ArrayInit {
            name: "counter".into(),
            address: 0x9000,
            words: 1,
            fill: crate::Fill::Constant { value: 5 },
        }]);
        let vars = module_variables(&m.globals, f, &given);
        assert_eq!((vars[0].address, vars[0].from_request), (0x9000, true));
        assert_eq!(vars[1].address, 0x4000_0000);
        assert_eq!(module_arrays(&vars, &given, &[]).len(), 1);
    }
}
