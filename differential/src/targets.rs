//! The bodies of the cargo-fuzz targets in `fuzz/fuzz_targets/`, which are one line each: all the
//! logic lives here, so the targets work unchanged under cargo-fuzz, OSS-Fuzz and ClusterFuzzLite,
//! and the same code runs in unit tests and seeded runs on stable Rust.
//!
//! A target must not panic except on a real bug: libfuzzer-sys installs a panic hook that aborts,
//! so every panic is a crash that libFuzzer saves as an artifact.

use arbitrary::Unstructured;
use robotstxt_oracle::{evaluate_all, Verdict};

use crate::compare::{self, Engines, Observation};
use crate::input::Input;
use crate::{generate, invariants};

/// Target `oracle`: builds an input from the fuzzer's bytes ([`generate::any`]), evaluates it
/// under all four profiles (the oracle must never panic) together with one metamorphic relation
/// and, for one input in [`invariants::LITERAL_SAMPLE`], the literal mode
/// ([`invariants::verdicts_checked`]), and panics with the violation when one breaks: an oracle bug.
/// It also explains the input under every profile and panics when an explained verdict differs from
/// the verdict-only path's.
pub fn fuzz_oracle(data: &[u8]) {
    let Some((input, verdicts)) = checked_input(data) else {
        return;
    };
    let explained: Vec<Verdict> = evaluate_all(&input.request())
        .iter()
        .map(|e| e.verdict)
        .collect();
    if explained != verdicts {
        panic!(
            "the oracle's explained verdicts {explained:?} differ from its verdicts {verdicts:?} \
             for {input:?}"
        );
    }
}

/// The input the fuzzer's bytes make and the oracle's verdicts for it (in `ProfileId::ALL` order),
/// after the oracle checks of [`fuzz_oracle`]; `None` when the bytes make no input.
fn checked_input(data: &[u8]) -> Option<(Input, [Verdict; 4])> {
    let input = generate::any(&mut Unstructured::new(data)).ok()?;
    match invariants::verdicts_checked(&input) {
        Ok(verdicts) => Some((input, verdicts)),
        Err(violation) => panic!("oracle invariant broken\n{violation}"),
    }
}

/// Target `differential`: the oracle checks of [`fuzz_oracle`], then the same input through every
/// available in-process adapter. A parser's divergence is a finding for the `fuzz` command, not a
/// crash here, so libFuzzer looks for what it is good at: aborts, segfaults and hangs in the parsers
/// (Google's C++ included) and oracle bugs. Set `ROBOTSTXT_FUZZ_DIVERGENCE=<adapter id>` to make that
/// adapter's divergences from its claimed profile crashes, so that libFuzzer saves and minimises them.
pub fn fuzz_differential(data: &[u8]) {
    let Some((input, oracle)) = checked_input(data) else {
        return;
    };
    static ENGINES: std::sync::OnceLock<Engines> = std::sync::OnceLock::new();
    let engines = ENGINES.get_or_init(|| Engines::new(&compare::in_process_ids()).0);
    // libfuzzer-sys's panic hook aborts; a parser's panic is caught by the adapter and answered as
    // `crash`, so the hook is silenced while the parsers run and restored afterwards.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let answers = engines.answer_each(&input);
    std::panic::set_hook(hook);
    if let Ok(watched) = std::env::var("ROBOTSTXT_FUZZ_DIVERGENCE") {
        let observation = Observation {
            oracle: oracle.map(Some),
            answers,
            seconds: Vec::new(),
        };
        for finding in compare::findings(engines, &observation) {
            if finding.adapter == watched {
                panic!("divergence: {finding:?} on {input:?}");
            }
        }
    }
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
