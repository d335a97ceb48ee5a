//! A parser's fingerprint: for each knob of `docs/profiles.md` and each deviation of
//! `docs/deviations.md`, which alternative the parser's answers on the corpus are consistent with,
//! and the checks that decide it.
//!
//! A check *decides* a dimension when its alternatives (the base setting, each other profile's
//! setting and each open alternative of that knob; a deviation off or on) give different verdicts
//! on it. An alternative is consistent when it gives the parser's answer on every deciding check;
//! `inconsistent` when none does; `undecided` when no check decides. The first pass reads each
//! dimension alone from the claimed profile's base reading; a dimension whose answers rule out the
//! base setting is settled on its first consistent alternative, and later passes read every
//! dimension on top of the others' settled alternatives, until they stop changing (a parser that
//! differs on several dimensions at once is read as it is). A dimension still inconsistent then
//! has each of its alternatives tried as settled, kept when fewer dimensions are left
//! inconsistent (two behaviours that only show together). The nearest profile is the one whose
//! verdicts the parser agrees with most often.
//!
//! The `fingerprint` command (`src/cli/fingerprint.rs`) computes it for any adapter. `run`
//! computes it for every adapter from the run's own answers (`crate::ask::answered` picks the
//! checks both can use), the oracle's side ([`Memo`], shared by every parser) filled on a thread
//! beside the adapters; it goes into `results.json`, and the HTML matrix and the Markdown summary
//! render it.

use std::collections::HashMap;

use robotstxt_oracle::cause::{changes, single_change_verdicts, verdicts_under, Change};
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
    fingerprint_memoised(claimed, answers, &mut Memo::default())
}

/// How many times, at most, the dimensions are read (the first time from the claimed profile's
/// base reading, then each on top of the others' settled alternatives), should they not settle
/// sooner.
pub const MAX_PASSES: usize = 4;

/// How many alternatives, at most, are tried as settled for dimensions no pass settles.
pub const MAX_TRIALS: usize = 3;

/// [`fingerprint`], reusing (and filling) `memo`: what a run computes once for all its parsers.
pub fn fingerprint_memoised(
    claimed: ProfileId,
    answers: &[Answered<'_>],
    memo: &mut Memo,
) -> Fingerprint {
    fingerprint_passes(claimed, answers, memo, MAX_PASSES)
}

/// One dimension's reading in one pass: its standing, and the alternative it settles on when its
/// answers rule out the base setting (an index into [`changes`]).
#[derive(Clone)]
struct Read {
    standing: Standing,
    settled: Option<usize>,
}

/// How far a fingerprint's readings are from explaining the answers (lower is better).
type Score = (usize, std::cmp::Reverse<usize>);

/// A pass made: the settled alternatives it started from, and each dimension's reading.
type Made = (Vec<Option<usize>>, Vec<Read>);

/// [`fingerprint_memoised`] with at most `passes` passes (1: every dimension alone from the base
/// reading, as before any is settled).
///
/// The first pass reads each dimension alone from the claimed profile's base reading. A dimension
/// whose answers rule out the base setting is *settled* on its first consistent alternative. Each
/// later pass reads every dimension again on top of the alternatives the other dimensions settled
/// on, so a check where two behaviours of the parser meet (a typo read as a rule, and first-match
/// precedence) decides each one as the parser reads the other; the passes stop when the settled
/// alternatives no longer change.
pub fn fingerprint_passes(
    claimed: ProfileId,
    answers: &[Answered<'_>],
    memo: &mut Memo,
    passes: usize,
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
    let singles: Vec<&(bool, Vec<bool>)> = answers
        .iter()
        .map(|a| &memo.singles[&(claimed, a.check.clone())])
        .collect();
    // Pass 1: alternative `k` of a dimension is its base setting (0) or its change `of[k - 1]`.
    let reads: Vec<Read> = dimensions
        .iter()
        .map(|(_, of)| {
            read(answers, changes, of, |a, k| match k {
                0 => singles[a].0,
                k => singles[a].1[of[k - 1]],
            })
        })
        .collect();
    let base = claimed.base_knobs();
    // One pass: each dimension's alternatives on top of the others' settled ones.
    // Passes already made, by the settled alternatives they start from (trials meet again).
    let made: std::cell::RefCell<Vec<Made>> = Default::default();
    let pass = |settled: &[Option<usize>]| -> Vec<Read> {
        if let Some((_, reads)) = made.borrow().iter().find(|(s, _)| s == settled) {
            return reads.clone();
        }
        // Each distinct reading once; `at[d][k]` is where alternative `k` of dimension `d` is.
        let mut readings: Vec<robotstxt_oracle::Knobs> = Vec::new();
        let mut place =
            |knobs: robotstxt_oracle::Knobs| match readings.iter().position(|k| *k == knobs) {
                Some(at) => at,
                None => {
                    readings.push(knobs);
                    readings.len() - 1
                }
            };
        let mut at: Vec<Vec<usize>> = Vec::new();
        for (d, (_, of)) in dimensions.iter().enumerate() {
            let others = settled
                .iter()
                .enumerate()
                .filter(|&(e, _)| e != d)
                .filter_map(|(_, c)| *c)
                .fold(base, |knobs, i| changes[i].apply(knobs));
            let mut places = vec![place(others)];
            places.extend(of.iter().map(|&i| place(changes[i].apply(others))));
            at.push(places);
        }
        // The checks in two halves, one per thread (each check's readings share one memo).
        let half = answers.len().div_ceil(2).max(1);
        let verdicts: Vec<Vec<bool>> = std::thread::scope(|scope| {
            let halves: Vec<_> = answers
                .chunks(half)
                .map(|chunk| {
                    let readings = &readings;
                    scope.spawn(move || {
                        chunk
                            .iter()
                            .map(|a| verdicts_under(&a.request, readings))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            halves
                .into_iter()
                .flat_map(|h| h.join().expect("the oracle never panics"))
                .collect()
        });
        let reads: Vec<Read> = dimensions
            .iter()
            .enumerate()
            .map(|(d, (_, of))| read(answers, changes, of, |a, k| verdicts[a][at[d][k]]))
            .collect();
        made.borrow_mut().push((settled.to_vec(), reads.clone()));
        reads
    };
    // Passes until the settled alternatives stop changing; `forced` holds alternatives tried for
    // dimensions no pass settles.
    let settle = |mut reads: Vec<Read>, forced: &[Option<usize>], passes: usize| -> Vec<Read> {
        let settled_of = |reads: &[Read]| -> Vec<Option<usize>> {
            reads
                .iter()
                .zip(forced)
                .map(|(r, f)| f.or(r.settled))
                .collect()
        };
        for _ in 1..passes {
            let settled = settled_of(&reads);
            if settled.iter().all(Option::is_none) {
                break;
            }
            reads = pass(&settled);
            if settled_of(&reads) == settled {
                break;
            }
        }
        reads
    };
    // How far a set of readings is from explaining the answers: inconsistent dimensions first,
    // then (fewer is better) deciding checks of those or of none at all; lower is better.
    let unexplained = |reads: &[Read]| {
        let inconsistent = reads
            .iter()
            .filter(|r| matches!(r.standing, Standing::Inconsistent { .. }))
            .count();
        let explained: usize = reads
            .iter()
            .map(|r| match &r.standing {
                Standing::Consistent { checks, .. } => checks.len(),
                _ => 0,
            })
            .sum();
        (inconsistent, std::cmp::Reverse(explained))
    };
    let mut forced: Vec<Option<usize>> = vec![None; dimensions.len()];
    // Where the first pass leaves no dimension inconsistent, it stands (a run fingerprints every
    // adapter: later passes cost a reading of every check each).
    let passes = if unexplained(&reads).0 == 0 {
        1
    } else {
        passes
    };
    let mut reads = settle(reads, &forced, passes);
    // Two behaviours that only show together (`Allow` read, and first-match precedence, where the
    // claimed profile has neither) settle no pass alone: while a dimension is inconsistent, each of
    // its alternatives is tried as settled, and the one that leaves the fewest inconsistent
    // dimensions (or as many, and more deciding checks explained) is kept, if it does better.
    let mut trials = 0;
    while passes > 1 && trials < MAX_TRIALS {
        let mut best: Option<(Score, Vec<Option<usize>>, Vec<Read>)> = None;
        for d in 0..dimensions.len() {
            if forced[d].is_some() || !matches!(reads[d].standing, Standing::Inconsistent { .. }) {
                continue;
            }
            for &c in &dimensions[d].1 {
                if trials == MAX_TRIALS {
                    break;
                }
                trials += 1;
                let mut tried = forced.clone();
                tried[d] = Some(c);
                let settled: Vec<Option<usize>> = reads
                    .iter()
                    .zip(&tried)
                    .map(|(r, f)| f.or(r.settled))
                    .collect();
                // A trial settles in at most two more passes.
                let candidate = settle(pass(&settled), &tried, passes.min(3));
                let left = unexplained(&candidate);
                if left < best.as_ref().map_or(unexplained(&reads), |b| b.0) {
                    best = Some((left, tried, candidate));
                }
            }
        }
        match best {
            Some((_, tried, candidate)) => {
                forced = tried;
                reads = candidate;
            }
            None => break,
        }
    }
    let standings = dimensions
        .iter()
        .zip(reads)
        .map(|((label, _), read)| (label.to_string(), read.standing))
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

/// One dimension's standing from `verdict(answer index, alternative)`, alternative 0 being its base
/// setting and `k` its change `of[k - 1]`: a check decides it when its alternatives disagree there.
fn read(
    answers: &[Answered<'_>],
    changes: &[Change],
    of: &[usize],
    verdict: impl Fn(usize, usize) -> bool,
) -> Read {
    let mut checks = Vec::new();
    // Candidates: the base (0) and each change; kept while consistent.
    let mut consistent: Vec<usize> = (0..=of.len()).collect();
    for (a, answer) in answers.iter().enumerate() {
        let base = verdict(a, 0);
        if (1..=of.len()).all(|k| verdict(a, k) == base) {
            continue;
        }
        checks.push(answer.check.clone());
        consistent.retain(|&k| verdict(a, k) == answer.allowed);
    }
    let name = |k: usize| match k {
        0 => "base".to_string(),
        k => alternative_name(changes[of[k - 1]]),
    };
    if checks.is_empty() {
        Read {
            standing: Standing::Undecided,
            settled: None,
        }
    } else if consistent.is_empty() {
        Read {
            standing: Standing::Inconsistent { checks },
            settled: None,
        }
    } else {
        Read {
            settled: (consistent[0] != 0).then(|| of[consistent[0] - 1]),
            standing: Standing::Consistent {
                alternatives: consistent.iter().map(|&k| name(k)).collect(),
                checks,
            },
        }
    }
}

/// Whether a dimension label names a deviation.
pub fn is_deviation(label: &str) -> bool {
    Deviation::from_id(label).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `print` stands on the dimension `label`.
    fn standing<'a>(print: &'a Fingerprint, label: &str) -> &'a Standing {
        &print
            .dimensions
            .iter()
            .find(|(l, _)| l == label)
            .expect("every dimension is in a fingerprint")
            .1
    }

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
        let typos = standing(&print, "D-typo-fields");
        assert_eq!(
            typos,
            &Standing::Consistent {
                alternatives: vec!["on".to_string()],
                checks: vec!["c#0".to_string()]
            }
        );
        let colon = standing(&print, "D-space-for-colon");
        assert_eq!(colon, &Standing::Undecided);
        // A parser that ignored the typo would be consistent with it off.
        let mut plain = answers;
        plain[0].allowed = true;
        let print = fingerprint(ProfileId::Rfc9309, &plain);
        let typos = standing(&print, "D-typo-fields");
        assert!(
            matches!(typos, Standing::Consistent { alternatives, .. } if alternatives == &["base"]),
            "{typos:?}"
        );
        assert_eq!(print.nearest, ProfileId::Rfc9309);
        // A memo shared between parsers gives each the fingerprint it would get alone.
        let mut memo = Memo::default();
        let json = |p: &Fingerprint| serde_json::to_string(p).unwrap();
        let shared_plain = fingerprint_memoised(ProfileId::Rfc9309, &plain, &mut memo);
        plain[0].allowed = false;
        let shared_typos = fingerprint_memoised(ProfileId::Rfc9309, &plain, &mut memo);
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

    /// A parser that reads typos as fields and takes the first match (two changes to RFC 9309):
    /// alone from the base reading, a check where the typo makes the first match decides
    /// precedence against every alternative; read on top of the typos, precedence settles.
    #[test]
    fn dimensions_are_read_on_top_of_the_settled_ones() {
        use robotstxt_oracle::cause::verdicts_under;
        let bodies: [(&[u8], &str); 4] = [
            (b"User-agent: *\nDisalow: /a\n", "/a"),
            (
                b"User-agent: *\nDisalow: /a\nAllow: /ab\nDisallow: /abc\n",
                "/abcd",
            ),
            (b"User-agent: *\nAllow: /ab\nDisallow: /abc\n", "/abcd"),
            (b"User-agent: *\nDisallow: /x\n", "/x"),
        ];
        let claimed = ProfileId::Rfc9309;
        let reading = {
            let mut knobs = claimed.base_knobs();
            knobs.precedence = ProfileId::Draft1996.base_knobs().precedence;
            knobs.deviations = robotstxt_oracle::Deviations::of(Deviation::TypoFields);
            knobs
        };
        let answers: Vec<Answered<'_>> = bodies
            .iter()
            .enumerate()
            .map(|(i, (body, url))| {
                let request = Request::new(body, "FooBot", url);
                Answered {
                    check: format!("c#{i}"),
                    allowed: verdicts_under(&request, &[reading])[0],
                    request,
                }
            })
            .collect();
        // One dimension at a time: precedence has no alternative for both checks 1 and 2.
        let alone = fingerprint_passes(claimed, &answers, &mut Memo::default(), 1);
        assert!(
            matches!(
                standing(&alone, "K4 precedence"),
                Standing::Inconsistent { .. }
            ),
            "{:?}",
            standing(&alone, "K4 precedence")
        );
        // On top of the typos read as fields, first match explains every deciding check.
        let print = fingerprint(claimed, &answers);
        match standing(&print, "K4 precedence") {
            Standing::Consistent { alternatives, .. } => {
                assert_eq!(alternatives[0], "as draft-1996", "{alternatives:?}")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            standing(&print, "D-typo-fields"),
            Standing::Consistent { alternatives, .. } if alternatives == &["on"]
        ));
        assert!(print
            .dimensions
            .iter()
            .all(|(_, s)| !matches!(s, Standing::Inconsistent { .. })));
    }
}
