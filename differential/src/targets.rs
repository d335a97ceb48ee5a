//! The bodies of the cargo-fuzz targets in `fuzz/fuzz_targets/`, which are one line each: all the
//! logic lives here, so the targets work unchanged under cargo-fuzz, OSS-Fuzz and ClusterFuzzLite,
//! and the same code runs in unit tests and seeded runs on stable Rust.
//!
//! A target must not panic except on a real bug: libfuzzer-sys installs a panic hook that aborts,
//! so every panic is a crash that libFuzzer saves as an artifact.

use arbitrary::Unstructured;
use robotstxt_oracle::{evaluate, ProfileId};

use crate::{generate, invariants};

/// Target `oracle`: builds an input from the fuzzer's bytes ([`generate::any`]), evaluates it
/// under all four profiles (the oracle must never panic), then checks one metamorphic relation
/// ([`invariants::check`]) and panics with the violation when it breaks: an oracle bug.
pub fn fuzz_oracle(data: &[u8]) {
    let Ok(input) = generate::any(&mut Unstructured::new(data)) else {
        return;
    };
    let request = input.request();
    for profile in ProfileId::ALL {
        std::hint::black_box(evaluate(profile, &request));
    }
    if let Err(violation) = invariants::check(&input) {
        panic!("oracle invariant broken\n{violation}");
    }
}

/// Target `differential`: the oracle against the in-process adapters; panics only on an oracle
/// failure (a divergence of a parser is a finding, not a crash).
pub fn fuzz_differential(data: &[u8]) {
    // TODO(lead): replace with the comparison of the oracle with the in-process adapters
    // (`compare`), keeping the oracle checks of `fuzz_oracle`.
    fuzz_oracle(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_accept_any_bytes() {
        for data in [
            &b""[..],
            b"\x00",
            b"\x07User-agent: *\nDisallow: /",
            &[0xFF; 300],
        ] {
            fuzz_oracle(data);
            fuzz_differential(data);
        }
    }
}
