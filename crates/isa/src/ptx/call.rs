//! Function calls: what a `call` instruction names and what it passes (PTX ISA 8.5 §9.7
//! "Control Flow Instructions: call", §7 "Abstracting the ABI", §11.3 "Control Flow
//! Directives: .callprototype").
//!
//! The parser types every `call` ([`super::Instruction::call`]); after the whole module is
//! read, each direct call is resolved against the module's function list: a callee with a
//! body in the module is [`Callee::Defined`], one declared without a body (`.extern .func
//! vprintf`, `malloc`, `free`, `__assertfail`) is [`Callee::External`] — the analyses cost
//! those as calls leaving the kernel. This module does not inline or analyse callees.

use super::instruction::Operand;
use super::module::VarDecl;
use crate::span::Span;

/// Where a call goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallTarget {
    /// `call f, (a);`
    Direct { name: String, span: Span },
    /// `call %rd5, (a), proto;`: through a register, with a `.callprototype` label or a
    /// `.calltargets` list naming the possible callees.
    Indirect {
        register: String,
        span: Span,
        via: Option<String>,
    },
}

/// What the callee of a call is, once the module is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callee {
    /// A `.func` with a body in this module.
    Defined,
    /// A function declared without a body here (`.extern .func vprintf`): the call leaves the
    /// module; its cost must come from outside the analysis.
    External,
    /// An indirect call (the register's value decides).
    Indirect,
    /// Not declared in the module (reported as an error).
    Unknown,
}

/// A typed `call`: `call{.uni} (ret), target, (args){, proto};`
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// `.uni`: the call is non-divergent.
    pub uni: bool,
    /// The return parameters (`(retval0)`), usually `.param` names of the callseq scope.
    pub returns: Vec<Operand>,
    pub target: CallTarget,
    pub args: Vec<Operand>,
    pub callee: Callee,
}

impl Call {
    /// The called function's name for a direct call.
    pub fn callee_name(&self) -> Option<&str> {
        match &self.target {
            CallTarget::Direct { name, .. } => Some(name),
            CallTarget::Indirect { .. } => None,
        }
    }

    /// True for a direct call to a function without a body in the module.
    pub fn is_external(&self) -> bool {
        self.callee == Callee::External
    }
}

/// `prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);`
#[derive(Debug, Clone, PartialEq)]
pub struct CallPrototype {
    pub name: String,
    pub returns: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    pub noreturn: bool,
    pub span: Span,
}
