//! A parser's fingerprint: for each knob of `docs/profiles.md` and each deviation of
//! `docs/deviations.md`, which alternative the parser's answers on the corpus are consistent with,
//! and the checks that decide it.
//!
//! One dimension at a time, from the claimed profile's base reading: a check *decides* a dimension
//! when its alternatives (the base setting, each other profile's setting and each open
//! alternative of that knob; a deviation off or on) give different verdicts on it, each alone. An
//! alternative is consistent when it gives the parser's answer on every deciding check;
//! `inconsistent` when none does (another knob or deviation is then at work on those checks too);
//! `undecided` when no check decides. The nearest profile is the one whose verdicts the parser
//! agrees with most often.

use std::collections::HashMap;

use robotstxt_oracle::cause::{changes, single_change_verdicts, Change};
use robotstxt_oracle::deviation::Deviation;
use robotstxt_oracle::{verdicts_all, ProfileId, Request, Verdict};
use serde::{Deserialize, Serialize};

/// One check the parser answered definitely, on a single 200 fetch (what the oracle can compare).
pub struct Answered<'a> {
    /// The check id (`<case>#<n>`).
    pub check: String,
    /// The request.
    pub request: Request<'a>,
    /// The parser's answer: true when allowed.
    pub allowed: bool,
}

/// Where a parser stands on one knob or deviation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "standing", rename_all = "kebab-case")]
pub enum Standing {
    /// No check of the corpus decides it.
    Undecided,
    /// The alternatives consistent with every deciding check (the first is the one shown).
    Consistent {
        /// Alternative names (`base`, `as draft-1996`, an open alternative, `on`).
        alternatives: Vec<String>,
        /// The deciding checks.
        checks: Vec<String>,
    },
    /// No alternative gives the parser's answer on every deciding check.
    Inconsistent {
        /// The deciding checks.
        checks: Vec<String>,
    },
}

/// A fingerprint: each dimension's standing, then the nearest profile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The profile the parser claims (the dimensions start from its base reading).
    pub claimed: ProfileId,
    /// (knob label or deviation id, standing), knobs first.
    pub dimensions: Vec<(String, Standing)>,
    /// The profile whose definite verdicts the parser agrees with most often.
    pub nearest: ProfileId,
    /// For each profile, in [`ProfileId::ALL`] order: (agreements, definite verdicts compared).
    pub agreement: Vec<(ProfileId, usize, usize)>,
}

/// The name of an alternative of a dimension.
fn alternative_name(change: Change) -> String {
    match change {
        Change::Copied { from, .. } => format!("as {}", from.name()),
        Change::Open(alternative) => format!("{alternative:?}"),
        Change::Deviation(_) => "on".to_string(),
    }
}

/// What the oracle says of each check, kept between the fingerprints of several parsers (the
/// same check id must name the same request in every call).
#[derive(Default)]
pub struct Memo {
    /// (claimed profile, check id) → the base verdict and each single change's.
    singles: HashMap<(ProfileId, String), (bool, Vec<bool>)>,
    /// Check id → the verdict under each profile, in [`ProfileId::ALL`] order.
    all: HashMap<String, [Verdict; 4]>,
}

impl Memo {
    /// Computes what the oracle says of `check` (whose request is `request`) for a parser
    /// claiming `claimed`, unless it is known already.
    pub fn fill(&mut self, claimed: ProfileId, check: &str, request: &Request<'_>) {
        self.singles
            .entry((claimed, check.to_string()))
            .or_insert_with(|| single_change_verdicts(claimed, request));
        self.all
            .entry(check.to_string())
            .or_insert_with(|| verdicts_all(request));
    }
}

/// The fingerprint of a parser claiming `claimed` from its `answers`.
pub fn fingerprint(claimed: ProfileId, answers: &[Answered<'_>]) -> Fingerprint {
    fingerprint_with(claimed, answers, &mut Memo::default())
}

/// [`fingerprint`], reusing (and filling) `memo`: what a run computes once for all its parsers.
pub fn fingerprint_with(
    claimed: ProfileId,
    answers: &[Answered<'_>],
    memo: &mut Memo,
) -> Fingerprint {
    let changes = changes(claimed);
    // Each dimension: its label and the indices of its changes.
    let mut dimensions: Vec<(&'static str, Vec<usize>)> = Vec::new();
    for (i, change) in changes.iter().enumerate() {
        match dimensions.iter_mut().find(|(l, _)| *l == change.label()) {
            Some((_, of)) => of.push(i),
            None => dimensions.push((change.label(), vec![i])),
        }
    }
    for answer in answers {
        memo.fill(claimed, &answer.check, &answer.request);
    }
    let verdicts: Vec<&(bool, Vec<bool>)> = answers
        .iter()
        .map(|a| &memo.singles[&(claimed, a.check.clone())])
        .collect();
    let standings = dimensions
        .iter()
        .map(|(label, of)| {
            let mut checks = Vec::new();
            // Candidates: the base (None) and each change; kept while consistent.
            let mut consistent: Vec<Option<usize>> = std::iter::once(None)
                .chain(of.iter().copied().map(Some))
                .collect();
            for (answer, (base, singles)) in answers.iter().zip(&verdicts) {
                let verdict = |c: Option<usize>| c.map_or(*base, |i| singles[i]);
                if of.iter().all(|&i| singles[i] == *base) {
                    continue;
                }
                checks.push(answer.check.clone());
                consistent.retain(|&c| verdict(c) == answer.allowed);
            }
            let standing = if checks.is_empty() {
                Standing::Undecided
            } else if consistent.is_empty() {
                Standing::Inconsistent { checks }
            } else {
                Standing::Consistent {
                    alternatives: consistent
                        .iter()
                        .map(|c| c.map_or("base".to_string(), |i| alternative_name(changes[i])))
                        .collect(),
                    checks,
                }
            };
            (label.to_string(), standing)
        })
        .collect();
    let mut agreement: Vec<(ProfileId, usize, usize)> =
        ProfileId::ALL.iter().map(|&p| (p, 0, 0)).collect();
    for answer in answers {
        let all = memo.all[&answer.check];
        for (slot, verdict) in agreement.iter_mut().zip(all) {
            if matches!(verdict, Verdict::Allowed | Verdict::Disallowed) {
                slot.2 += 1;
                slot.1 += usize::from((verdict == Verdict::Allowed) == answer.allowed);
            }
        }
    }
    let nearest = agreement
        .iter()
        .fold((claimed, 0.0), |best, &(p, agree, of)| {
            let rate = agree as f64 / of.max(1) as f64;
            if rate > best.1 {
                (p, rate)
            } else {
                best
            }
        })
        .0;
    Fingerprint {
        claimed,
        dimensions: standings,
        nearest,
        agreement,
    }
}

/// Whether a dimension label names a deviation.
pub fn is_deviation(label: &str) -> bool {
    Deviation::from_id(label).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parser_reading_typos_is_consistent_with_the_deviation_on() {
        let bodies: [&[u8]; 3] = [
            b"User-agent: *\nDisalow: /a\n",
            b"User-agent: *\nDisallow: /a\n",
            b"User-agent: *\nAllow: /a\nDisallow: /\n",
        ];
        // A parser that reads the typo (disallows /a under all three bodies but the third, whose
        // `Allow: /a` is the longer match).
        let answers: Vec<Answered<'_>> = bodies
            .iter()
            .enumerate()
            .map(|(i, body)| Answered {
                check: format!("c#{i}"),
                request: Request::new(body, "FooBot", "/a"),
                allowed: i == 2,
            })
            .collect();
        let print = fingerprint(ProfileId::Rfc9309, &answers);
        let typos = &print
            .dimensions
            .iter()
            .find(|(l, _)| l == "D-typo-fields")
            .unwrap()
            .1;
        assert_eq!(
            typos,
            &Standing::Consistent {
                alternatives: vec!["on".to_string()],
                checks: vec!["c#0".to_string()]
            }
        );
        let colon = &print
            .dimensions
            .iter()
            .find(|(l, _)| l == "D-space-for-colon")
            .unwrap()
            .1;
        assert_eq!(colon, &Standing::Undecided);
        // A parser that ignored the typo would be consistent with it off.
        let mut plain = answers;
        plain[0].allowed = true;
        let print = fingerprint(ProfileId::Rfc9309, &plain);
        let typos = &print
            .dimensions
            .iter()
            .find(|(l, _)| l == "D-typo-fields")
            .unwrap()
            .1;
        assert!(
            matches!(typos, Standing::Consistent { alternatives, .. } if alternatives == &["base"]),
            "{typos:?}"
        );
        assert_eq!(print.nearest, ProfileId::Rfc9309);
        // A memo shared between parsers gives each the fingerprint it would get alone.
        let mut memo = Memo::default();
        let json = |p: &Fingerprint| serde_json::to_string(p).unwrap();
        let shared_plain = fingerprint_with(ProfileId::Rfc9309, &plain, &mut memo);
        plain[0].allowed = false;
        let shared_typos = fingerprint_with(ProfileId::Rfc9309, &plain, &mut memo);
        assert_eq!(
            json(&shared_typos),
            json(&fingerprint(ProfileId::Rfc9309, &plain))
        );
        plain[0].allowed = true;
        assert_eq!(
            json(&shared_plain),
            json(&fingerprint(ProfileId::Rfc9309, &plain))
        );
        assert_ne!(json(&shared_plain), json(&shared_typos));
    }
}
