//! Shared parts of the roundrobin crate's tests.

#![allow(dead_code)]

pub mod ptx_kernels;
