//! The request's kernel, read once and shared by every part of the mode that runs (after
//! Cranelift's `Context`, `../shared/STYLE.md`): a mode that bounds a PTX or GCN3 kernel and
//! simulates it, draws its graph and reduces it asks here, and the text is parsed once
//! however many parts ask. Each structure built on it is computed once as well: a SASS
//! kernel's thread-level loops live with its block graph ([`crate::kernel_text::Sass`]), the
//! warp-level CFG is built once per request by `warp_analysis`.
//!
//! What a parse said is handed to every caller that asks (each part's diagnostics go where
//! that part reports them); the report drops the repeats.

use crate::kernel_text::{self, Gcn, Ptx};
use crate::request::Request;
use isa::{Diagnostic, Limits};
use std::cell::OnceCell;

/// A parse's result and what the parser said.
struct Read<T> {
    value: Option<T>,
    diagnostics: Vec<Diagnostic>,
}

impl<T> Read<T> {
    fn new(parse: impl FnOnce(&mut Vec<Diagnostic>) -> Option<T>) -> Self {
        let mut diagnostics = Vec::new();
        let value = parse(&mut diagnostics);
        Read { value, diagnostics }
    }

    fn give(&self, diags: &mut Vec<Diagnostic>) -> Option<&T> {
        diags.extend(self.diagnostics.iter().cloned());
        self.value.as_ref()
    }
}

/// One request's kernel in its dialect, parsed on first use (module doc).
pub struct Context<'a> {
    request: &'a Request,
    limits: Limits,
    ptx: OnceCell<Read<Ptx>>,
    gcn: OnceCell<Read<Gcn>>,
}

impl<'a> Context<'a> {
    /// The context of `request`, read within `limits`; nothing is parsed yet.
    pub fn new(request: &'a Request, limits: Limits) -> Self {
        Context {
            request,
            limits,
            ptx: OnceCell::new(),
            gcn: OnceCell::new(),
        }
    }

    /// The request's text.
    pub fn source(&self) -> &'a str {
        &self.request.source
    }

    /// The request's PTX module and chosen kernel ([`kernel_text::ptx`]); the parser's
    /// diagnostics go to `diags`.
    pub fn ptx(&self, diags: &mut Vec<Diagnostic>) -> Option<&Ptx> {
        let r = self.request;
        self.ptx
            .get_or_init(|| {
                Read::new(|d| kernel_text::ptx(&r.source, r.function.as_deref(), &self.limits, d))
            })
            .give(diags)
    }

    /// The request's GCN3 listing and chosen function ([`kernel_text::gcn`]); the parser's
    /// diagnostics go to `diags`.
    pub fn gcn(&self, diags: &mut Vec<Diagnostic>) -> Option<&Gcn> {
        let r = self.request;
        self.gcn
            .get_or_init(|| {
                Read::new(|d| kernel_text::gcn(&r.source, r.function.as_deref(), &self.limits, d))
            })
            .give(diags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text is parsed once: the second ask returns the same kernel (the same address)
    /// and the parser's warnings again.
    #[test]
    fn a_kernel_is_parsed_once_and_its_diagnostics_given_to_each_asker() {
        let request: Request = serde_json::from_value(serde_json::json!({
            "schema_version": 2,
            "dialect": "ptx",
            "source": ".version 7.0\n.target sm_70\n.address_size 64\n\
                       .visible .entry k()\n{\n\tfrobnicate;\n\tret;\n}\n",
        }))
        .expect("a valid request");
        let context = Context::new(&request, Limits::default());
        let (mut first, mut second) = (Vec::new(), Vec::new());
        let a = context.ptx(&mut first).map(|p| p as *const Ptx);
        let b = context.ptx(&mut second).map(|p| p as *const Ptx);
        assert_eq!(a, b);
        assert_eq!(first, second);
    }
}
