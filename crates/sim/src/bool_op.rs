//! The boolean operation that combines a comparison with a predicate (`ISETP… .AND`,
//! `setp.lt.and`, `PSETP`), shared by the SASS and PTX semantics: the PTX semantics'
//! [`isa::ptx::semantics::BoolOp`].

pub(crate) use isa::ptx::semantics::BoolOp;
