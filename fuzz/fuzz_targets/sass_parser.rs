//! Any bytes as a SASS listing: the parser and the thread-level block graph must return
//! (diagnostics allowed) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let limits = isa::Limits::default();
    let out = isa::sass::parse(&text, None, &limits);
    if let Some(kernel) = out.kernel {
        let _ = isa::blocks::build(&kernel, &limits);
    }
});
