//! A divergence's cause in words: the oracle's cause label (`K4 precedence`, `D-typo-fields`,
//! `D-typo-fields + D-space-for-colon`; [`robotstxt_oracle::cause`]) with a one-line description
//! and its citation, for the groups bless and `ledger rewrite` write, so that an author writes one
//! reason per cause, not per check.
//!
//! Finding a cause takes the oracle's cause search, which this crate carries only with its
//! `causes` feature (off by default; the workspace turns it on): without it, bless groups new
//! divergences under one placeholder reason with no cause.

use std::collections::BTreeMap;

#[cfg(feature = "causes")]
use robotstxt_oracle::cause;
use robotstxt_oracle::deviation::Deviation;
use robotstxt_oracle::knobs::KnobId;
#[cfg(feature = "causes")]
use robotstxt_oracle::{ProfileId, Request};

/// The label of a divergence no knob or deviation explains (the oracle's
/// `robotstxt_oracle::cause::UNEXPLAINED`).
pub const UNEXPLAINED: &str = "unexplained";

/// What each knob decides, with the sentence's citation (docs/profiles.md has the table).
const KNOBS: [(KnobId, &str, &str); 18] = [
    (
        KnobId::Grouping,
        "what makes a group (blank lines, runs of user-agent lines)",
        "rfc9309#2.1",
    ),
    (
        KnobId::AgentValue,
        "how a user-agent value is read (product token, whole value)",
        "rfc9309#2.2.1",
    ),
    (
        KnobId::AgentComparison,
        "how a user-agent value is compared with the crawler's name",
        "rfc9309#2.2.1",
    ),
    (
        KnobId::AgentList,
        "whether one user-agent line may name several crawlers",
        "rfc9309#2.2.1",
    ),
    (
        KnobId::Selection,
        "which group or groups apply to the crawler",
        "rfc9309#2.2.1",
    ),
    (
        KnobId::RulelessRecord,
        "what a user-agent line with no rules after it does",
        "rfc9309#2.2.1",
    ),
    (
        KnobId::Precedence,
        "which matching rule decides (longest match, first match, allow on a tie)",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::AllowDirective,
        "whether `Allow` lines are read",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::Wildcards,
        "whether `*` and `$` are special in paths",
        "rfc9309#2.2.3",
    ),
    (
        KnobId::Encoding,
        "how percent-encoding is normalised before paths are compared",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::Charset,
        "which character set the file is read in",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::MatchTarget,
        "which part of the URL rules are matched against (path, query)",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::EmptyRule,
        "what `Disallow:` or `Allow:` with no value means",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::RobotsTxtAllowed,
        "whether /robots.txt itself is always allowed",
        "rfc9309#2.2.2",
    ),
    (
        KnobId::Bom,
        "whether a byte order mark before the first line is skipped",
        "rfc9309#2.2",
    ),
    (
        KnobId::FieldSpacing,
        "where white space may stand around the field name and colon",
        "rfc9309#2.2",
    ),
    (
        KnobId::InvalidPattern,
        "whether a rule whose value holds a control character, inner white space or (1996) a non-ASCII octet is ignored",
        "rfc9309#2.2",
    ),
    (
        KnobId::SizeLimit,
        "how much of the file is read (the 500 KiB limit)",
        "rfc9309#2.5",
    ),
];

/// One part of a label (one knob or one deviation) in words: `K4 precedence: which matching rule
/// decides ... (rfc9309#2.2.2)`; the label itself when it is not known.
fn describe_part(part: &str) -> String {
    if let Some((knob, what, cite)) =
        KnobId::from_label(part).and_then(|knob| KNOBS.iter().find(|(k, _, _)| *k == knob))
    {
        return format!("{}: {what} ({cite}; docs/profiles.md)", knob.label());
    }
    if let Some(deviation) = Deviation::from_id(part) {
        let entry = deviation.entry();
        let breaks = entry
            .breaks
            .first()
            .map_or(String::new(), |b| format!("; breaks {b}"));
        return format!(
            "{}: {}{breaks} (docs/deviations.md)",
            entry.id, entry.summary
        );
    }
    part.to_string()
}

/// A cause label in words: each knob or deviation with its description and citation, joined by
/// ` + `; for `unexplained`, that no knob or deviation gives the answer; for a behaviour group's
/// id (`unexplained <key>`), that no document permits it and no named deviation describes it.
pub fn describe(label: &str) -> String {
    if label == UNEXPLAINED {
        return "no knob alternative or named deviation gives this answer (unexplained by the \
                oracle)"
            .to_string();
    }
    if let Some(key) = label.strip_prefix("unexplained ") {
        return format!(
            "no document permits this and no named deviation describes it (behaviour group \
             {key}: the divergences whose input and neighbours show the same)"
        );
    }
    label
        .split(" + ")
        .map(describe_part)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A divergence's cause as the evidence has it ([`robotstxt_oracle::examine`]): the credited
/// knob or deviation label (`K6 wildcards`), or the behaviour group's id (`unexplained <key>`),
/// with what it rests on in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credited {
    /// The label, or the behaviour group's id.
    pub label: String,
    /// What it rests on.
    pub words: String,
}

/// Examines a parser's verdict `allowed` on `request` where `profile` says otherwise: `ask` gives
/// the parser's answers to the input's neighbours (`Some(true)` allowed, `None` not a verdict),
/// `others` hold its other answers.
#[cfg(feature = "causes")]
pub fn credited(
    profile: ProfileId,
    request: &Request<'_>,
    allowed: bool,
    ask: &mut dyn FnMut(&[robotstxt_oracle::evidence::Neighbour]) -> Vec<Option<bool>>,
    others: &mut [&mut robotstxt_oracle::evidence::OtherAnswers],
) -> Credited {
    let examination = robotstxt_oracle::examine::examine(profile, request, allowed, ask, others);
    Credited {
        label: examination.label(),
        words: examination.words(),
    }
}

/// About one in this many of the corpus checks' neighbours joins [`questions`]: those whose hash
/// ([`robotstxt_oracle::behaviour::fnv1a`] of body, agent and URL) is a multiple of it.
#[cfg(feature = "causes")]
pub const NEIGHBOURS_SAMPLED: usize = 25;

/// One question every candidate cause is weighed against: (body, agent, absolute URL).
#[cfg(feature = "causes")]
pub type Question = (Vec<u8>, String, String);

/// Questions to ask a parser once, whose answers every candidate cause is weighed against
/// ([`robotstxt_oracle::evidence::OtherAnswers`]): each check of `corpus` on a single 200 fetch
/// of its body, and about one in [`NEIGHBOURS_SAMPLED`] of its neighbours (the same input with one
/// edit), as (body, agent, absolute URL), in corpus order. A neighbour is taken by its own hash,
/// not its place in the list, so a new kind of neighbour adds questions without moving which of
/// the others are asked. The same corpus always gives the same questions, so a shard of a
/// real-world run weighs a cause as the whole run does.
#[cfg(feature = "causes")]
pub fn questions(corpus: &crate::cases::Corpus) -> Vec<Question> {
    let cases: Vec<&crate::cases::Case> = corpus
        .cases
        .iter()
        .filter(|case| {
            case.fetch == robotstxt_oracle::Fetch::default()
                && case.robots_url.is_none()
                && case.fetches.is_empty()
        })
        .collect();
    // Hashing the neighbours' bodies is most of the work (a large body's hundreds of neighbours
    // are 500 KiB each): the cases are shared out by their place, every `threads`th to a thread,
    // and their questions put back in corpus order, so the questions do not depend on how many
    // threads there are.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let mut per_case: Vec<Vec<Question>> = vec![Vec::new(); cases.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                let cases = &cases;
                scope.spawn(move || {
                    (first..cases.len())
                        .step_by(threads)
                        .map(|n| (n, questions_of(cases[n])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (n, questions) in worker.join().expect("a thread working out questions") {
                per_case[n] = questions;
            }
        }
    });
    per_case.into_iter().flatten().collect()
}

/// The questions of one case's checks ([`questions`]): for each check in order, its sampled
/// neighbours, then the check itself.
#[cfg(feature = "causes")]
fn questions_of(case: &crate::cases::Case) -> Vec<Question> {
    use robotstxt_oracle::behaviour::fnv1a_continued;
    // The checks' neighbours share their bodies: each body is hashed once for the case, and its
    // hash continued with each neighbour's agent and URL.
    let mut bodies = robotstxt_oracle::behaviour::BodyHashes::new(&case.body);
    let mut out: Vec<Question> = Vec::new();
    for check in &case.checks {
        let url = crate::verify::absolute_url(&check.url);
        let request = Request::new(&case.body, &check.agent, &url);
        // Sampled before a neighbour's body is made: of a large body's hundreds of neighbours,
        // only the sampled few are written out.
        let mut sampled = |body: &[&[u8]], agent: &str, url: &str| {
            let tail: [&[u8]; 4] = [&[0], agent.as_bytes(), &[0], url.as_bytes()];
            fnv1a_continued(bodies.of(body), &tail).is_multiple_of(NEIGHBOURS_SAMPLED as u64)
        };
        let neighbours = robotstxt_oracle::evidence::neighbours_kept(&request, &mut sampled);
        out.extend(neighbours.into_iter().map(|n| (n.body, n.agent, n.url)));
        out.push((case.body.clone(), check.agent.clone(), url));
    }
    out
}

/// Whether `label` is a cause label naming knobs or deviations (the oracle's `cause::is_label`),
/// or a behaviour group's id (`unexplained <key>`); without the `causes` feature no label is
/// found, and none is one.
pub fn is_label(label: &str) -> bool {
    #[cfg(feature = "causes")]
    return cause::is_label(label) || robotstxt_oracle::behaviour::is_id(label);
    #[cfg(not(feature = "causes"))]
    {
        let _ = label;
        false
    }
}

/// The placeholder reason of a group of new divergences with cause `label` (`None`: the cause
/// could not be asked, e.g. an `unsupported` answer or a fetch outcome, or the crate is built
/// without its `causes` feature): `UNEXPLAINED` (so that the harness fails until a person writes
/// the reason), the cause in words, and who wrote it.
pub fn unexplained_reason(label: Option<&str>, written_by: &str) -> String {
    match label {
        Some(label) => format!(
            "UNEXPLAINED (oracle cause: {}): written by {written_by}; replace with the reason",
            describe(label)
        ),
        None if cfg!(feature = "causes") => format!(
            "UNEXPLAINED (no cause: not a verdict on a single 200 fetch): written by {written_by}; \
             replace with the reason"
        ),
        None => format!(
            "UNEXPLAINED (no cause: robotstxt-spec's `causes` feature is off; turn it on to have \
             bless name the cause): written by {written_by}; replace with the reason"
        ),
    }
}

/// Groups check names by cause label (`None` for checks with no cause), the label order of
/// [`BTreeMap`]: what bless and `ledger rewrite` turn into one group each.
pub fn group_by_cause<'a>(
    checks: impl IntoIterator<Item = (&'a String, Option<&'a String>)>,
) -> BTreeMap<Option<String>, Vec<String>> {
    let mut out: BTreeMap<Option<String>, Vec<String>> = BTreeMap::new();
    for (check, label) in checks {
        out.entry(label.cloned()).or_default().push(check.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The questions of a case are its checks' neighbours whose hash of body, agent and URL is a
    /// multiple of [`NEIGHBOURS_SAMPLED`], each check's after them: as [`questions_of`] finds them
    /// (bodies hashed once per case, made only when sampled) and as every neighbour made and
    /// hashed whole finds them, on one case in sixteen and the first two with a body over 500 KB.
    #[cfg(feature = "causes")]
    #[test]
    fn the_questions_are_the_neighbours_whose_hash_is_a_multiple() {
        let corpus = crate::embedded::corpus().expect("the corpus loads");
        let (mut compared, mut large) = (0, 0);
        for (n, case) in corpus.cases.iter().enumerate() {
            if case.body.len() > 500_000 && large < 2 {
                large += 1;
            } else if n % 16 != 0 {
                continue;
            }
            let mut expected: Vec<Question> = Vec::new();
            for check in &case.checks {
                let url = crate::verify::absolute_url(&check.url);
                let request = Request::new(&case.body, &check.agent, &url);
                for neighbour in robotstxt_oracle::evidence::neighbours(&request) {
                    let hash = robotstxt_oracle::behaviour::fnv1a_of_parts(&[
                        &neighbour.body,
                        &[0],
                        neighbour.agent.as_bytes(),
                        &[0],
                        neighbour.url.as_bytes(),
                    ]);
                    if hash.is_multiple_of(NEIGHBOURS_SAMPLED as u64) {
                        expected.push((neighbour.body, neighbour.agent, neighbour.url));
                    }
                }
                expected.push((case.body.clone(), check.agent.clone(), url));
            }
            assert!(questions_of(case) == expected, "{}", case.id);
            compared += 1;
        }
        assert!(compared > 25 && large == 2, "{compared}, {large}");
    }

    #[test]
    fn every_knob_label_is_described() {
        for knob in KnobId::ALL {
            assert!(KNOBS.iter().any(|(k, _, _)| *k == knob), "{knob:?}");
        }
        assert!(describe("K4 precedence").contains("rfc9309#2.2.2"));
        let both = describe("D-typo-fields + D-space-for-colon");
        assert!(both.contains("D-typo-fields: ") && both.contains(" + D-space-for-colon: "));
        assert!(unexplained_reason(Some("K6 wildcards"), "bless").starts_with("UNEXPLAINED"));
    }

    #[test]
    #[cfg(feature = "causes")]
    fn every_knob_label_is_one_the_cause_search_gives() {
        assert_eq!(UNEXPLAINED, cause::UNEXPLAINED);
        for (knob, _, _) in KNOBS {
            let label = knob.label();
            assert!(cause::is_label(label) && is_label(label), "{label}");
        }
    }
}
