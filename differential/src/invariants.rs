//! The per-input policy of the oracle's invariants: which metamorphic relation ([`crate::relations`])
//! an input is checked under, under which profile, and whether it is also compared with the literal
//! mode. A [`Violation`] is an oracle bug: the fuzzer reports it.
//!
//! [`check`] runs on every fuzz input, so it checks **one** relation per input: the relation at
//! index `seed % 14` of [`Relation::ALL`] (the seed is a hash of the input, [`seed_of`]), or, when that
//! relation does not apply, the next one in order that does. Every choice inside a relation (which
//! line, which case mapping, which permutation) comes from the same seed, so a violation reproduces
//! from the input alone. That is at most eight oracle evaluations (two per profile).
//! [`verdicts_checked`] evaluates the input under all four profiles ([`verdicts_checked_under`], the
//! fuzzer's path, under those its adapters claim and the checked one) and checks
//! the relation under **one** of its profiles, also chosen from the seed ([`checked_profile`]), one
//! the run reads anyway when the relation has one: over a run every (relation, profile) pair whose
//! profile is read is checked on a share of the inputs (all of them when all four are read, as by
//! `fuzz --adapter none`), and an input costs five evaluations rather than up to eight (what that
//! saves: `docs/performance.md`, "The fuzzer's own side"). When the relation leaves the body as it is (`fragment`, the
//! URL escapes, the crawler's name in `agent-case`), both requests share one reading of the body
//! ([`robotstxt_oracle::verdicts_on_one_body`]). The fuzzer's own path, [`known_checked`], reads
//! each claimed profile only as far as its parsers' answers need, and the checked one in full.
//! One input in [`LITERAL_SAMPLE`] is also compared with the literal mode ([`fast_equals_literal`]).
//! [`check_all`] checks every applicable relation (for tests and the seeded command).

use robotstxt_oracle::{Known, Needed, ProfileId, Verdict};

use crate::hash::seed_of;
use crate::input::Input;
use crate::relations::{both_sides_as_needed, in_full, Relation};
use crate::violation::{Violation, FAST_EQUALS_LITERAL};

/// Checks one relation on `input`, chosen deterministically from a hash of the input (the next
/// applicable one when the chosen relation does not apply); see the module documentation.
// A violation is rare (an oracle bug) and carries both inputs: boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub fn check(input: &Input) -> Result<(), Violation> {
    match chosen(input) {
        Some((relation, profiles, transformed)) => {
            relation.check_applied(input, &profiles, transformed)
        }
        None => Ok(()),
    }
}

/// The relation [`check`] checks on `input` (the one at index `seed % 14`, or the next that
/// applies), with its profiles for this input and the transformed input; `None` when none applies.
pub fn chosen(input: &Input) -> Option<(Relation, Vec<ProfileId>, Input)> {
    chosen_by(input, seed_of(input))
}

/// [`chosen`], given the input's [`seed_of`].
fn chosen_by(input: &Input, seed: u64) -> Option<(Relation, Vec<ProfileId>, Input)> {
    let start = (seed % Relation::ALL.len() as u64) as usize;
    (0..Relation::ALL.len()).find_map(|k| {
        let relation = Relation::ALL[(start + k) % Relation::ALL.len()];
        let (profiles, transformed) = relation.applied(input, seed)?;
        Some((relation, profiles, transformed))
    })
}

/// The oracle's verdicts for `input` under every profile (in `ProfileId::ALL` order), with the
/// relation [`check`] chooses checked on it under one of its profiles ([`checked_profile`]). When
/// that relation leaves the body as it is, the input and its transformed form are evaluated on one
/// reading of the body. One input in [`LITERAL_SAMPLE`] ([`literal_sampled`]) also has its
/// verdicts compared with the literal mode's ([`fast_equals_literal`]).
#[allow(clippy::result_large_err)]
pub fn verdicts_checked(input: &Input) -> Result<[Verdict; 4], Violation> {
    let all = verdicts_checked_under(input, &ProfileId::ALL)?;
    Ok(all.map(|verdict| verdict.expect("every profile was asked")))
}

/// [`verdicts_checked`] where only the verdicts under `wanted` are needed (the fuzzer's path: the
/// profiles its adapters claim). The input is read under those, under the profile its relation is
/// checked under, and under all four when it is compared with the literal mode; a verdict not
/// worked out is `None`. Each profile's verdict is the one it has when all four are asked.
#[allow(clippy::result_large_err)]
pub fn verdicts_checked_under(
    input: &Input,
    wanted: &[ProfileId],
) -> Result<[Option<Verdict>; 4], Violation> {
    let known = known_checked(input, &in_full(wanted))?;
    Ok(known.map(|k| k.map(|k| k.verdict().expect("every profile is read in full"))))
}

/// [`verdicts_checked_under`] where each profile of `needs` is read only as far as its [`Needed`]
/// says (the fuzzer's path: whether each profile permits the answers its parsers gave,
/// [`robotstxt_oracle::verdicts_as_needed`]). The profile the input's relation is checked under is
/// read in full, and all four are when the input is compared with the literal mode.
#[allow(clippy::result_large_err)]
pub fn known_checked(
    input: &Input,
    needs: &[(ProfileId, Needed)],
) -> Result<[Option<Known>; 4], Violation> {
    let request = input.request();
    let seed = seed_of(input);
    let wanted: Vec<ProfileId> = needs.iter().map(|&(p, _)| p).collect();
    let chosen = chosen_by(input, seed);
    let checked = chosen
        .as_ref()
        .map(|(_, profiles, _)| checked_profile(profiles, &wanted, seed));
    let literal = literal_sampled(seed);
    let asked: Vec<(ProfileId, Needed)> = ProfileId::ALL
        .into_iter()
        .filter_map(|p| {
            let needed = needs.iter().find(|&&(q, _)| q == p).map(|&(_, n)| n);
            match literal || checked == Some(p) {
                true => Some((p, Needed::Verdict)),
                false => needed.map(|n| (p, n)),
            }
        })
        .collect();
    let known = match chosen.zip(checked) {
        None => robotstxt_oracle::verdicts_as_needed(&asked, &request),
        Some(((relation, _, transformed), checked)) => {
            let (before, after) =
                both_sides_as_needed(&request, &asked, &transformed.request(), &[checked]);
            let at = asked
                .iter()
                .position(|&(p, _)| p == checked)
                .expect("the checked profile is read");
            let before_checked = before[at]
                .verdict()
                .expect("the checked profile is read in full");
            relation.compare(input, transformed, &[checked], &[before_checked], &after)?;
            before
        }
    };
    let mut out = [None; 4];
    for (&(profile, _), known) in asked.iter().zip(known) {
        out[profile.index()] = Some(known);
    }
    if literal {
        fast_equals_literal(
            input,
            &out.map(|k| {
                k.and_then(Known::verdict)
                    .expect("every profile is read in full when sampled")
            }),
        )?;
    }
    Ok(out)
}

/// The one profile of `profiles` (a relation's, for one input) that [`verdicts_checked_under`]
/// checks the relation under: one of those in `wanted` (profiles the input is read under anyway)
/// when there are some, else one of them all; chosen by bits 16 to 31 of the input's [`seed_of`]
/// (the relation is chosen by the low bits, the literal-mode sample by the high half). So a run
/// reads no profile for the relation's sake alone where one it reads will do.
pub fn checked_profile(profiles: &[ProfileId], wanted: &[ProfileId], seed: u64) -> ProfileId {
    let pick = (seed >> 16) as u16 as usize;
    let read = profiles.iter().filter(|p| wanted.contains(p)).count();
    if read == 0 {
        return profiles[pick % profiles.len()];
    }
    *profiles
        .iter()
        .filter(|p| wanted.contains(p))
        .nth(pick % read)
        .expect("fewer than `read` profiles are wanted")
}

/// Checks every relation that applies to `input` (up to 14 relations, about 70 evaluations), and
/// that the fast path answers what the literal mode answers.
// A violation is rare (an oracle bug) and carries both inputs: boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub fn check_all(input: &Input) -> Result<(), Violation> {
    let seed = seed_of(input);
    for relation in Relation::ALL {
        relation.check(input, seed)?;
    }
    fast_equals_literal(input, &robotstxt_oracle::verdicts_all(&input.request()))
}

/// One fuzz input in this many has its verdicts compared with the literal mode's. The literal mode
/// reads the input under every combination of every open knob, many times the fast path's cost,
/// so it is sampled (its cost at this rate: `docs/performance.md`, "The fuzzer's own side").
pub const LITERAL_SAMPLE: u64 = 4096;

/// Whether the input whose [`seed_of`] is `seed` is compared with the literal mode: one in
/// [`LITERAL_SAMPLE`], chosen by the seed's high half (the relation is chosen by its low bits).
pub fn literal_sampled(seed: u64) -> bool {
    (seed >> 32).is_multiple_of(LITERAL_SAMPLE)
}

/// Checks that `fast` (the fast path's verdicts of `input`, in `ProfileId::ALL` order) are the
/// literal mode's ([`robotstxt_oracle::literal`]): a difference is an oracle bug, reported as a
/// broken invariant named [`FAST_EQUALS_LITERAL`] whose detail starts with the profile.
#[allow(clippy::result_large_err)]
pub fn fast_equals_literal(input: &Input, fast: &[Verdict; 4]) -> Result<(), Violation> {
    robotstxt_oracle::crosscheck::check(&input.request(), fast).map_err(|disagreement| Violation {
        relation: FAST_EQUALS_LITERAL,
        input: input.clone(),
        transformed: input.clone(),
        detail: disagreement.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relations::tests::{input, BODY};

    /// The fuzzer's path (the input and its transformed form read together when the body is the
    /// same) gives the verdicts the input gets alone, and checks the relation [`chosen`] names.
    #[test]
    fn verdicts_checked_answers_as_the_input_alone() {
        let mut shared_body = 0;
        for n in 0..3000u32 {
            let bytes: Vec<u8> = (0..600u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) ^ n.wrapping_mul(40_503)).to_le_bytes()[1])
                .collect();
            let Ok(input) = crate::generate::any(&mut arbitrary::Unstructured::new(&bytes)) else {
                continue;
            };
            let alone = robotstxt_oracle::verdicts_all(&input.request());
            assert_eq!(verdicts_checked(&input).unwrap(), alone, "{input:?}");
            // Asked for some profiles, it gives each the verdict it has when all four are asked,
            // and works out only those, the checked one and, when sampled, all four.
            let seed = seed_of(&input);
            let relation = chosen(&input);
            for wanted in [
                &[ProfileId::Google][..],
                &[ProfileId::Rfc9309, ProfileId::Original1994],
            ] {
                let checked = relation
                    .as_ref()
                    .map(|(_, profiles, _)| checked_profile(profiles, wanted, seed));
                // A profile the input is read under anyway is checked when the relation has one.
                if let (Some((_, profiles, _)), Some(checked)) = (&relation, checked) {
                    let any_wanted = profiles.iter().any(|p| wanted.contains(p));
                    assert_eq!(wanted.contains(&checked), any_wanted, "{input:?}");
                }
                let under = verdicts_checked_under(&input, wanted).unwrap();
                for profile in ProfileId::ALL {
                    let read = wanted.contains(&profile)
                        || checked == Some(profile)
                        || literal_sampled(seed);
                    let expected = read.then_some(alone[profile.index()]);
                    assert_eq!(under[profile.index()], expected, "{profile:?} on {input:?}");
                }
            }
            if let Some((_, _, transformed)) = chosen(&input) {
                shared_body += usize::from(transformed.body == input.body);
            }
        }
        // Both paths were exercised: relations that keep the body and relations that change it.
        assert!(shared_body > 100, "{shared_body}");
    }

    #[test]
    fn check_is_deterministic_and_picks_an_applicable_relation() {
        let i = input(BODY, "FooBot", "https://example.com/private/x");
        assert!(check(&i).is_ok());
        assert!(check_all(&i).is_ok());
        // Only URL relations can apply to an empty body with a fragment-free URL; check still runs one.
        let empty = input("", "", "/a");
        assert!(check(&empty).is_ok());
    }

    /// The fuzzer compares one input in [`LITERAL_SAMPLE`] with the literal mode, chosen by the
    /// input's hash, and a difference is a violation that names the profile and both verdicts.
    #[test]
    fn one_input_in_the_sample_rate_is_compared_with_the_literal_mode() {
        let inputs = 200_000u32;
        let sampled = (0..inputs)
            .filter(|&n| {
                let i = input(BODY, "FooBot", &format!("/p/{n}"));
                literal_sampled(seed_of(&i))
            })
            .count();
        let expected = inputs as usize / LITERAL_SAMPLE as usize;
        assert!(
            sampled > expected * 3 / 4 && sampled < expected * 5 / 4,
            "{sampled} sampled, about {expected} expected"
        );
        // The fast path's own verdicts pass; any other verdict is reported.
        let i = input(BODY, "FooBot", "/private/x");
        let fast = robotstxt_oracle::verdicts_all(&i.request());
        assert!(fast_equals_literal(&i, &fast).is_ok());
        let mut wrong = fast;
        wrong[2] = Verdict::Either;
        let violation = fast_equals_literal(&i, &wrong).unwrap_err();
        assert_eq!(violation.relation, FAST_EQUALS_LITERAL);
        assert!(
            violation.detail.starts_with(&format!(
                "draft-1996: the fast path answers either but the literal mode answers {}",
                fast[2].name()
            )),
            "{violation}"
        );
        // A sampled generated input goes through the fuzzer's path with the comparison.
        let mut compared = 0;
        for n in 0..20_000u32 {
            let i = input(BODY, "FooBot", &format!("/p/{n}"));
            if literal_sampled(seed_of(&i)) {
                assert!(verdicts_checked(&i).is_ok(), "{i:?}");
                compared += 1;
            }
        }
        assert!(compared > 0);
    }

    #[test]
    fn a_broken_relation_is_reported_with_both_verdicts() {
        // A transformation that is *not* a relation (a blank line under draft-1996) shows what a
        // violation looks like.
        let before = input("User-agent: a\nDisallow: /", "a", "/x");
        let v = Violation {
            relation: "example",
            input: before.clone(),
            transformed: input("User-agent: a\n\nDisallow: /", "a", "/x"),
            detail: "under draft-1996 ...".to_string(),
        };
        assert!(v.to_string().contains("example"));
    }
}
/// A sweep over generated inputs, every relation and the literal mode on every input. Slow, so
/// ignored by default:
/// `SWEEP_N=100000 SWEEP_SEED=1 cargo test -p robotstxt-differential --release --lib -- --ignored
/// sweep --nocapture`. Prints how often each relation applied and the shortest violation of each
/// kind, and fails when there is any.
#[cfg(test)]
mod sweep {
    use super::*;
    use std::collections::BTreeMap;

    fn env(name: &str, default: u64) -> u64 {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }

    #[test]
    #[ignore]
    fn sweep() {
        let n = env("SWEEP_N", 20_000);
        let mut state = env("SWEEP_SEED", 12_345);
        let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
        let mut violations: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for _ in 0..n {
            let mut bytes = vec![0u8; 64 + (state % 1500) as usize];
            for b in bytes.iter_mut() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                *b = (state >> 33) as u8;
            }
            let Ok(input) = crate::generate::any(&mut arbitrary::Unstructured::new(&bytes)) else {
                continue;
            };
            let seed = seed_of(&input);
            let literal =
                fast_equals_literal(&input, &robotstxt_oracle::verdicts_all(&input.request()));
            let literal = literal.map(|()| true);
            for (name, result) in Relation::ALL
                .iter()
                .map(|r| (r.name(), r.check(&input, seed)))
                .chain([(FAST_EQUALS_LITERAL, literal)])
            {
                match result {
                    Ok(true) => *applied.entry(name).or_default() += 1,
                    Ok(false) => {}
                    Err(v) => {
                        let kind = v.detail.split(" (").next().unwrap_or_default();
                        let entry = violations
                            .entry(format!("{}: {kind}", v.relation))
                            .or_insert((0, v.to_string()));
                        entry.0 += 1;
                        if v.to_string().len() < entry.1.len() {
                            entry.1 = v.to_string();
                        }
                    }
                }
            }
        }
        println!("applied: {applied:?}");
        for (kind, (count, shortest)) in &violations {
            println!("=== {kind} ({count} times); shortest:\n{shortest}");
        }
        assert!(
            violations.is_empty(),
            "{} kinds of violation",
            violations.len()
        );
    }
}
