//! Any bytes as simd text: the parser must return (diagnostics allowed) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = isa::simd::parse(&String::from_utf8_lossy(data), &isa::Limits::default());
});
