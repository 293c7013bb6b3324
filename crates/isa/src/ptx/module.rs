//! A parsed PTX module: header directives, module-level variables and functions.

use super::instruction::{Instruction, StateSpace};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A variable declaration: a kernel parameter (`.param .u64 p`), a `.shared`/`.local`/
/// `.const`/`.global` variable, with optional alignment and array dimensions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VarDecl {
    pub space: StateSpace,
    pub align: Option<u64>,
    /// Type modifier as written without the dot (`u64`, `b8`, `f32`, `texref`).
    pub ty: String,
    pub name: String,
    /// Array dimensions (`[16]` → `[Some(16)]`, `[]` → `[None]`).
    pub dims: Vec<Option<u64>>,
    pub span: Span,
}

impl VarDecl {
    /// Size in bytes when the type and every dimension are known.
    pub fn size_bytes(&self) -> Option<u64> {
        let elem = super::instruction::ScalarType::from_modifier(&self.ty)?.bytes() as u64;
        let mut n = elem;
        for d in &self.dims {
            n = n.checked_mul((*d)?)?;
        }
        Some(n)
    }
}

/// `.reg .u32 %r<29>;` (a parameterised family `%r0 … %r28`) or `.reg .f32 %f1, %f2;`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegDecl {
    pub ty: String,
    pub name: String,
    /// `Some(n)` for `%name<n>`.
    pub count: Option<u32>,
    pub span: Span,
}

/// `.entry` (a kernel) or `.func` (a device function).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FunctionKind {
    Entry,
    Func,
}

/// One function with its body as a flat instruction list. `{ }` scopes inside the body are
/// flattened (PTX scopes only limit the visibility of declarations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub kind: FunctionKind,
    pub name: String,
    pub name_span: Span,
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
}

impl Function {
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directive {
    pub name: String,
    pub text: String,
    pub span: Span,
}

/// A whole PTX file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Module {
    pub version: Option<String>,
    pub target: Vec<String>,
    pub address_size: Option<u32>,
    pub globals: Vec<VarDecl>,
    pub functions: Vec<Function>,
    pub directives: Vec<Directive>,
}

impl Module {
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    pub module: Module,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}
