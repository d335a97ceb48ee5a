//! The oracle against the in-process parsers; crashes only on an oracle failure (parser
//! divergences are findings, bucketed by the library).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robotstxt_differential::fuzz_differential(data));
