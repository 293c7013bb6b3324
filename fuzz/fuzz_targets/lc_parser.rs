//! Any bytes as an L/C string or a Fig. 4 configuration file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = isa::lc::parse(&String::from_utf8_lossy(data));
});
