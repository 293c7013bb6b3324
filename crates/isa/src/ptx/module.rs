//! A parsed PTX module: header directives, module-level variables and functions
//! (PTX ISA 8.5 chapter 11 "Directives", §5.4 "Variables", §7 "Abstracting the ABI").

use super::call::CallPrototype;
use super::instruction::{Instruction, StateSpace};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use std::collections::BTreeMap;

/// Linkage of a module-scope symbol (PTX ISA §11.6 "Linking Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Linkage {
    /// No linking directive: visible in this module only.
    #[default]
    Internal,
    /// `.visible`: defined here, visible to other modules.
    Visible,
    /// `.extern`: declared here, defined in another module (or by the driver: `vprintf`,
    /// `malloc`, `free`, `__assertfail`).
    Extern,
    /// `.weak`: visible, may be replaced by a non-weak definition elsewhere.
    Weak,
    /// `.common`: visible, merged with same-named `.common` symbols (largest wins).
    Common,
}

/// One value of an initializer (PTX ISA §5.4.4 "Initializers").
#[derive(Debug, Clone, PartialEq)]
pub enum InitValue {
    Int {
        value: i64,
    },
    Float {
        value: f64,
    },
    /// The address of a variable or function, `sym`, `sym+off` or `generic(sym)+off`.
    Address {
        symbol: String,
        offset: i64,
        /// Written `generic(sym)`: the generic address rather than the state-space one.
        generic: bool,
    },
}

/// `= 5`, `= {1, 2, 3}`, `= {{1, 2}, {3, 4}}`, `= {fn, generic(var)+8}`: the values in order
/// (nested lists flattened, row-major as PTX lays them out).
#[derive(Debug, Clone, PartialEq)]
pub struct Initializer {
    pub values: Vec<InitValue>,
    /// The variable's bytes (little-endian, zero-filled to the declared size) when every
    /// value is a constant and the variable is at most 16 MiB; `None` when a value is an
    /// address (resolved at load time) or the variable is larger.
    pub bytes: Option<Vec<u8>>,
    pub span: Span,
}

/// A variable declaration: a kernel parameter (`.param .u64 p`), a `.shared`/`.local`/
/// `.const`/`.global` variable, with optional alignment and array dimensions
/// (PTX ISA §5.4 "Variables").
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub space: StateSpace,
    pub align: Option<u64>,
    /// Type modifier as written without the dot (`u64`, `b8`, `f32`, `texref`).
    pub ty: String,
    pub name: String,
    /// Array dimensions (`[16]` → `[Some(16)]`, `[]` → `[None]`; an unsized first dimension
    /// is filled from the initializer's length, §5.4.4).
    pub dims: Vec<Option<u64>>,
    pub span: Span,
    /// Elements per vector (`.v2`, `.v4`, `.v8`); 1 for scalars.
    pub vector: u32,
    pub linkage: Linkage,
    pub init: Option<Initializer>,
}

impl VarDecl {
    /// Bytes of one element (a vector counts as one element), when the type is a scalar type.
    pub fn element_bytes(&self) -> Option<u64> {
        let elem = super::instruction::ScalarType::from_modifier(&self.ty)?.bytes() as u64;
        elem.checked_mul(u64::from(self.vector.max(1)))
    }

    /// Size in bytes when the type and every dimension are known.
    pub fn size_bytes(&self) -> Option<u64> {
        let mut n = self.element_bytes()?;
        for d in &self.dims {
            n = n.checked_mul((*d)?)?;
        }
        Some(n)
    }
}

/// `.reg .u32 %r<29>;` (a parameterised family `%r0 … %r28`) or `.reg .f32 %f1, %f2;`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegDecl {
    pub ty: String,
    pub name: String,
    /// `Some(n)` for `%name<n>`.
    pub count: Option<u32>,
    pub span: Span,
}

/// `.entry` (a kernel) or `.func` (a device function).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    Entry,
    Func,
}

/// A directive of a function header (PTX ISA §11.4 "Performance-Tuning Directives", §11.7
/// "Cluster Dimension Directives"): `.maxntid 256, 1, 1`,
/// `.reqntid`, `.minnctapersm`, `.maxnreg`, `.maxclusterrank`, `.reqnctapercluster`,
/// `.explicitcluster`, `.noreturn`, and `.pragma` strings inside the body (§11.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDirective {
    /// Without the dot: `maxntid`, `pragma`.
    pub name: String,
    /// Numbers as written (`[256, 1, 1]`); empty for `.noreturn`.
    pub values: Vec<u64>,
    /// The string of a `.pragma` (`nounroll`).
    pub text: Option<String>,
    pub span: Span,
}

/// One function with its body as a flat instruction list. `{ }` scopes inside the body are
/// flattened (PTX scopes only limit the visibility of declarations, §4.3 "Statements").
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub kind: FunctionKind,
    pub name: String,
    pub name_span: Span,
    pub linkage: Linkage,
    /// Parameters in declaration order (the order launch values are given in).
    pub params: Vec<VarDecl>,
    /// Return parameters of a `.func`.
    pub returns: Vec<VarDecl>,
    pub regs: Vec<RegDecl>,
    /// Variables declared in the body (`.shared`, `.local`, ...).
    pub vars: Vec<VarDecl>,
    pub instructions: Vec<Instruction>,
    /// Label → index of the instruction it precedes (`instructions.len()` at the very end).
    pub labels: BTreeMap<String, usize>,
    /// Where each label is defined.
    pub label_spans: BTreeMap<String, Span>,
    /// False for a prototype (`.func f (...);` without a body).
    pub has_body: bool,
    /// Header directives and body pragmas in order.
    pub directives: Vec<FunctionDirective>,
    /// `label: .callprototype ...;` declarations of the body (§11.3), for indirect calls.
    pub prototypes: Vec<CallPrototype>,
    /// `label: .branchtargets L1, L2;` (for `brx.idx`) and `label: .calltargets f, g;`
    /// (for indirect `call`) lists (§11.3 "Control Flow Directives").
    pub target_lists: BTreeMap<String, Vec<String>>,
}

impl Function {
    /// True for `.noreturn` functions (§11.4 "Performance-Tuning Directives: .noreturn").
    pub fn is_noreturn(&self) -> bool {
        self.directives.iter().any(|d| d.name == "noreturn")
    }

    /// The program counter GPGPU-Sim gives instruction `index`: instructions 8 bytes apart
    /// from 0, which is what the thesis's analyzer output shows (`-pc_address [64, 80]` for
    /// the 9th and 11th instructions of the §4.4.4 example).
    pub fn pc(index: usize) -> u64 {
        (index as u64).saturating_mul(8)
    }

    /// Index of the parameter called `name`.
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }
}

/// A module-level directive kept generically (`.file`, `.pragma`, `.extern`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub name: String,
    pub text: String,
    pub span: Span,
}

/// One function of the module's function list ([`Module::function_list`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionEntry {
    pub name: String,
    pub kind: FunctionKind,
    pub linkage: Linkage,
    /// A body is in this module.
    pub defined: bool,
    /// Declared `.extern` (or never given a body here): calls to it leave the module.
    pub external: bool,
    /// Where it is first declared.
    pub span: Span,
}

/// A whole PTX file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    pub version: Option<String>,
    pub target: Vec<String>,
    pub address_size: Option<u32>,
    /// Module-scope variables (`.global`, `.const`, `.shared`, `.local`) in declaration order,
    /// with their initializers.
    pub globals: Vec<VarDecl>,
    /// Every `.entry` and `.func` as declared: a prototype and its later definition are two
    /// items (see [`Module::function_list`] for one item per name).
    pub functions: Vec<Function>,
    /// `.file`, `.loc`, `.section` (body skipped), `.pragma` and other module directives.
    pub directives: Vec<Directive>,
}

impl Module {
    /// Every `.entry` and `.func` of the module, once per name, in order of first declaration:
    /// the list a user picks a kernel from. A name with a body anywhere in the module is
    /// `defined`; one without a body is `external` (calls to it leave the module).
    pub fn function_list(&self) -> Vec<FunctionEntry> {
        let mut out: Vec<FunctionEntry> = Vec::new();
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &self.functions {
            match index.get(f.name.as_str()) {
                Some(&i) => {
                    if let Some(e) = out.get_mut(i) {
                        e.defined |= f.has_body;
                        e.external = !e.defined;
                        if f.linkage != Linkage::Internal {
                            e.linkage = f.linkage;
                        }
                    }
                }
                None => {
                    index.insert(&f.name, out.len());
                    out.push(FunctionEntry {
                        name: f.name.clone(),
                        kind: f.kind,
                        linkage: f.linkage,
                        defined: f.has_body,
                        external: !f.has_body,
                        span: f.name_span,
                    });
                }
            }
        }
        out
    }

    /// Names of the functions with a body (`.entry` and `.func`), in declaration order.
    pub fn function_names(&self) -> Vec<String> {
        self.function_list()
            .into_iter()
            .filter(|e| e.defined)
            .map(|e| e.name)
            .collect()
    }

    /// The module-scope variable called `name`.
    pub fn global(&self, name: &str) -> Option<&VarDecl> {
        self.globals.iter().find(|g| g.name == name)
    }

    /// The function called `name`, or the first `.entry` (then the first function) when
    /// `name` is `None`.
    pub fn function(&self, name: Option<&str>) -> Option<&Function> {
        match name {
            Some(n) => self.functions.iter().find(|f| f.name == n && f.has_body),
            None => self
                .functions
                .iter()
                .find(|f| f.kind == FunctionKind::Entry && f.has_body)
                .or_else(|| self.functions.iter().find(|f| f.has_body)),
        }
    }
}

/// What [`super::parse`] returns: the module (as far as it could be read) and every
/// diagnostic. The module is always present; errors mean parts of it were skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub module: Module,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}
