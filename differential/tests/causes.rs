//! The cause search's shortcut: `robotstxt_oracle::cause::causes_of` skips the sets with a knob
//! change whose subject is absent from the input (no query for K8, an ASCII body for K7 charset,
//! ...). Skipping must change nothing: on generated inputs, every answer it gives is the one the
//! search trying every knob change gives. Asked, per input, the answer each profile's verdict does
//! not give (what a finding asks), and once the one it gives (where nothing is skipped).
//!
//! Also on generated inputs: `explains` (the minimiser's test that a cause still explains an
//! answer) answers what the search trying every knob change implies; a deviation the search calls
//! inert changes no reading (the base reading, its single changes, pairs of line deviations); and
//! the knob the fuzzer names an `either` by is the one the full explanation names.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use robotstxt_differential::generate;
use robotstxt_differential::input::Input;
use robotstxt_oracle::cause::{
    causes_of, causes_of_trying_every_knob, changes, explains, verdicts_under, Change,
};
use robotstxt_oracle::deviation::{self, Deviation};
use robotstxt_oracle::{verdicts_all, ProfileId, Verdict};

/// Inputs asked about at full size (a half or a third of them by the slower tests).
const INPUTS: usize = 6_000;
/// Inputs asked about by a plain `cargo test`: the same seeds' first ones.
const INPUTS_QUICK: usize = 2_000;

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full").
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// How many inputs each test's share is taken from: [`INPUTS`] at full size, else
/// [`INPUTS_QUICK`].
fn inputs() -> usize {
    if full() {
        INPUTS
    } else {
        INPUTS_QUICK
    }
}
/// Differences printed in full (all are counted).
const SHOWN: usize = 5;

/// The first `count` inputs of seed `seed`'s generated stream (a draw that gives none is skipped).
fn generated(seed: u64, count: usize) -> impl Iterator<Item = Input> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buffer = vec![0u8; 4096];
    std::iter::from_fn(move || loop {
        if let Ok(input) = generate::from_stream(&mut rng, &mut buffer) {
            return Some(input);
        }
    })
    .take(count)
}

/// The first [`SHOWN`] of `differences`, one per line.
fn first_shown(differences: &[String]) -> String {
    differences[..differences.len().min(SHOWN)].join("\n")
}

#[test]
fn skipping_inert_knob_changes_finds_the_same_causes() {
    let (mut asked, mut explained) = (0usize, 0usize);
    let mut differences = Vec::new();
    let inputs = inputs();
    for input in generated(15, inputs) {
        let request = input.request();
        let verdicts = verdicts_all(&request);
        let mut asks: Vec<(ProfileId, bool)> = ProfileId::ALL
            .iter()
            .zip(verdicts)
            .filter_map(|(&profile, verdict)| match verdict {
                Verdict::Allowed => Some((profile, false)),
                Verdict::Disallowed => Some((profile, true)),
                _ => None,
            })
            .collect();
        if let Some(&(profile, flipped)) = asks.first() {
            asks.push((profile, !flipped));
        }
        let fast = causes_of(&request, &asks);
        let every = causes_of_trying_every_knob(&request, &asks);
        asked += asks.len();
        explained += every.iter().filter(|c| c.is_some()).count();
        for ((ask, fast), every) in asks.iter().zip(fast).zip(every) {
            if fast != every {
                differences.push(format!(
                    "{ask:?} on {input:?}: skipping gives {fast:?}, trying every knob {every:?}"
                ));
            }
        }
    }
    // The inputs reach the search: most asks are explained, by one change or more.
    assert!(
        asked > inputs && explained > asked / 2,
        "{explained} of {asked}"
    );
    assert!(
        differences.is_empty(),
        "{} differences in {asked} asks; the first ones:\n{}",
        differences.len(),
        first_shown(&differences)
    );
}

/// `explains` (the minimiser's test that a bucket's cause still explains a candidate) answers what
/// the search trying every knob change implies: a set explains an answer when its reading gives
/// it and the smallest sets that do are of its size. Asked of the cause the search found, and of
/// a single change and a pair of changes picked per input, on generated inputs.
#[test]
fn explains_agrees_with_the_search_trying_every_knob() {
    let inputs = inputs() / 2;
    let (mut asked, mut explained) = (0usize, 0usize);
    let mut differences = Vec::new();
    for (n, input) in (1..).zip(generated(17, inputs)) {
        let request = input.request();
        for (profile, verdict) in ProfileId::ALL.into_iter().zip(verdicts_all(&request)) {
            let allowed = match verdict {
                Verdict::Allowed => false,
                Verdict::Disallowed => true,
                _ => continue,
            };
            let every = causes_of_trying_every_knob(&request, &[(profile, allowed)])
                .pop()
                .expect("one answer per ask");
            let all = changes(profile);
            let (i, j) = (n % all.len(), (n * 7 + 3) % all.len());
            let mut sets: Vec<Vec<Change>> = vec![vec![all[i]], vec![all[i], all[j]]];
            sets.extend(every.clone());
            for set in sets {
                let knobs = set
                    .iter()
                    .fold(profile.base_knobs(), |knobs, c| c.apply(knobs));
                let gives = verdicts_under(&request, &[knobs])[0] == allowed;
                let expected = gives && every.as_ref().is_some_and(|c| c.len() == set.len());
                let got = explains(profile, &request, allowed, &set);
                asked += 1;
                explained += usize::from(got);
                if got != expected {
                    differences.push(format!(
                        "{profile:?}, {set:?} for {allowed} on {input:?}: explains says {got}, \
                         the search trying every knob {every:?}"
                    ));
                }
            }
        }
    }
    // The sets asked are explained often, and not always.
    assert!(
        explained > inputs / 2 && explained < asked,
        "{explained} of {asked}"
    );
    assert!(
        differences.is_empty(),
        "{} differences in {asked} sets; the first ones:\n{}",
        differences.len(),
        first_shown(&differences)
    );
}

/// A deviation the search never tries on an input (`cause::inert`) must read it as the reading
/// without it does: under each profile's base reading, each of its single changes and each pair of
/// line deviations, on generated inputs.
#[test]
fn an_inert_deviation_changes_no_reading() {
    let inputs = inputs() / 3;
    let mut compared = 0usize;
    let mut differences = Vec::new();
    for input in generated(16, inputs) {
        let request = input.request();
        let inert = robotstxt_oracle::cause::inert(&request);
        for profile in ProfileId::ALL {
            let base = profile.base_knobs();
            // The base reading, each single change, and each pair of deviations that split or
            // classify lines (those make the lines other deviations are about).
            let lines: Vec<_> = changes(profile)
                .iter()
                .filter(|c| {
                    matches!(c, Change::Deviation(d)
                        if deviation::BODY.contains(d) || deviation::LINE.contains(d))
                })
                .collect();
            let pairs = lines
                .iter()
                .enumerate()
                .flat_map(|(i, a)| lines[i + 1..].iter().map(|b| b.apply(a.apply(base))));
            let readings: Vec<_> = std::iter::once(base)
                .chain(changes(profile).iter().map(|c| c.apply(base)))
                .chain(pairs)
                .collect();
            let mut asked = Vec::new();
            for knobs in &readings {
                for deviation in Deviation::ALL {
                    if inert.has(deviation) && !knobs.deviations.has(deviation) {
                        let mut with = *knobs;
                        with.deviations = with.deviations.with(deviation);
                        asked.push((*knobs, deviation, with));
                    }
                }
            }
            let flat: Vec<_> = asked.iter().flat_map(|(k, _, w)| [*k, *w]).collect();
            let answers = verdicts_under(&request, &flat);
            for ((knobs, deviation, _), pair) in asked.iter().zip(answers.chunks(2)) {
                compared += 1;
                if pair[0] != pair[1] {
                    let body = String::from_utf8_lossy(&input.body);
                    differences.push(format!(
                        "{deviation:?} under {profile:?} ({} deviations), agent {:?}, URL {:?}, \
                         body {:?}",
                        knobs.deviations.iter().count(),
                        input.agent,
                        input.url,
                        body.chars().take(400).collect::<String>()
                    ));
                }
            }
        }
    }
    assert!(compared > inputs * 100, "{compared} comparisons");
    assert!(
        differences.is_empty(),
        "{} inert deviations change a reading ({:?}); the first ones:\n{}",
        differences.len(),
        differences
            .iter()
            .fold(std::collections::BTreeMap::new(), |mut by, d| {
                *by.entry(d.split(' ').next().unwrap_or_default())
                    .or_insert(0) += 1;
                by
            }),
        first_shown(&differences)
    );
}

/// `robotstxt_oracle::first_knob_differing` (what the fuzzer names an `either` by) names what the
/// full explanation's variants name: the first knob of the first variant whose answer differs
/// from the base reading's.
#[test]
fn the_knob_behind_either_is_the_explanations() {
    let mut named = 0usize;
    let inputs = inputs();
    for input in generated(16, inputs) {
        let request = input.request();
        for profile in ProfileId::ALL {
            let explanation = robotstxt_oracle::evaluate(profile, &request);
            let base = explanation.reading.as_ref().map(|r| r.allowed);
            let from_explanation = explanation
                .variants
                .iter()
                .find(|v| Some(v.verdict == Verdict::Allowed) != base)
                .and_then(|v| v.applied.first())
                .map(|a| a.knob.to_string());
            let fast = robotstxt_oracle::first_knob_differing(profile, &request);
            assert_eq!(
                fast.map(str::to_string),
                from_explanation,
                "{profile:?} on {input:?}"
            );
            named += usize::from(fast.is_some());
        }
    }
    // Generated inputs often leave a profile's readings disagreeing.
    assert!(
        named > inputs / 20,
        "only {named} inputs had readings that disagree"
    );
}
