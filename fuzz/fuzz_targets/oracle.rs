//! The oracle on generated inputs: it must not panic under any profile, and its metamorphic
//! relations must hold (`robotstxt_differential::invariants`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| robotstxt_differential::fuzz_oracle(data));
