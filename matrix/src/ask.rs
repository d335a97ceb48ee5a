//! Asking an adapter the corpus's questions: which checks a run covers ([`Selection`]), which an
//! adapter cannot be asked and why ([`not_asked_check`]), one batch per case ([`answer_case`]),
//! the AI-usage cases asked again without their lines, and the answers a fingerprint can use
//! ([`answered`]). The runner ([`crate::run`]), the ledgers' neighbour questions and the
//! preference checks all ask through here.

use std::collections::BTreeMap;

use robotstxt_adapters::{Adapter, Answer, Identity, Query};
use robotstxt_oracle::history::format_minutes;
use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use crate::cases::{Case, Check, Corpus};
use crate::fingerprint::Answered;
use crate::verify;
/// The checks a run covers: for each case (by index), the indexes of its selected checks.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// (case index, check indexes), in corpus order.
    pub cases: Vec<(usize, Vec<usize>)>,
}

impl Selection {
    /// Every check whose id (`<case-id>#<n>`) contains `filter` (all checks without one).
    pub fn new(corpus: &Corpus, filter: Option<&str>) -> Selection {
        Selection {
            cases: select(corpus, filter, |case| &case.checks, check_id),
        }
    }

    /// How many checks are selected.
    pub fn check_count(&self) -> usize {
        self.cases.iter().map(|(_, c)| c.len()).sum()
    }
}

/// For each case (by index) with some, the indexes of the checks `of` gives it whose id contains
/// `filter` (all without one), in corpus order: what a selection holds.
pub fn select<T>(
    corpus: &Corpus,
    filter: Option<&str>,
    of: impl Fn(&Case) -> &[T],
    id: impl Fn(&Case, &T) -> String,
) -> Vec<(usize, Vec<usize>)> {
    corpus
        .cases
        .iter()
        .enumerate()
        .filter_map(|(ci, case)| {
            let checks: Vec<usize> = of(case)
                .iter()
                .enumerate()
                .filter(|(_, check)| filter.is_none_or(|f| id(case, check).contains(f)))
                .map(|(i, _)| i)
                .collect();
            (!checks.is_empty()).then_some((ci, checks))
        })
        .collect()
}

/// A check's id: `<case-id>#<n>`.
pub fn check_id(case: &Case, check: &Check) -> String {
    format!("{}#{}", case.id, check.number)
}

/// The answer recorded, without asking, for a check that needs a capability the adapter lacks.
pub fn not_applicable(fetch: Fetch) -> Answer {
    Answer::Unsupported {
        reason: format!(
            "the adapter does not take fetch outcomes (capability fetch_status); this check's fetch: {}",
            describe_fetch(fetch)
        ),
    }
}

/// The answer recorded, without asking, for a check whose URL the robots.txt file does not
/// govern under the adapter's claimed profile: adapters answer (body, agent, URL) and are never
/// told the robots.txt URL, so the question cannot be put to them.
pub fn not_governed_answer(profile: ProfileId, robots_url: &str) -> Answer {
    Answer::Unsupported {
        reason: format!(
            "under {} (the adapter's claimed profile) {robots_url} does not govern this URL \
             (not-governed); adapters are not told the robots.txt URL",
            profile.name()
        ),
    }
}

/// Why an adapter cannot be asked a check, as the answer recorded instead; `None` when it can.
/// `not_governed`: the adapter's claimed profile finds that the robots.txt file does not govern
/// the URL, which cannot be asked.
pub fn not_asked(
    identity: &Identity,
    fetch: Fetch,
    robots_url: Option<&str>,
    not_governed: bool,
) -> Option<Answer> {
    if !identity.capabilities.fetch_status && fetch != Fetch::default() {
        return Some(not_applicable(fetch));
    }
    if not_governed {
        return Some(not_governed_answer(
            identity.profile,
            robots_url.unwrap_or("the robots.txt URL"),
        ));
    }
    None
}

/// The answer recorded, without asking, for a check asked at a time after a history of fetches:
/// adapters answer about one fetched body and know nothing of time.
pub fn not_timed(at: Option<u64>) -> Answer {
    Answer::Unsupported {
        reason: format!(
            "the check is asked at {} after a history of robots.txt fetches; adapters answer \
             about one fetched body",
            at.map_or_else(|| "a time".to_string(), format_minutes)
        ),
    }
}

/// [`not_asked`] for a check of the corpus, judged by its expectation under the claimed profile;
/// a check of a history of fetches is never asked.
pub fn not_asked_check(identity: &Identity, case: &Case, check: &Check) -> Option<Answer> {
    if !case.fetches.is_empty() {
        return Some(not_timed(check.at));
    }
    not_asked(
        identity,
        case.fetch,
        case.robots_url.as_deref(),
        check.expect[&identity.profile] == Verdict::NotGoverned,
    )
}

/// Whether an adapter can be asked a check: anything but a plain 200 needs the `fetch_status`
/// capability; a check its claimed profile expects `not-governed`, or one asked at a time after a
/// history of fetches, cannot be asked at all.
pub fn applicable(identity: &Identity, case: &Case, check: &Check) -> bool {
    not_asked_check(identity, case, check).is_none()
}

pub use robotstxt_spec::verify::describe_fetch;

pub use robotstxt_spec::verify::{absolute_url, DEFAULT_ORIGIN};

/// Asks `adapter` the selected `checks` of `case` in one batch; checks it cannot be asked
/// ([`not_asked`]) are not sent and get the reason as an `unsupported` answer.
pub fn answer_case(adapter: &mut dyn Adapter, case: &Case, checks: &[usize]) -> Vec<Answer> {
    answer_case_body(adapter, case, &case.body, checks)
}

/// [`answer_case`] with `body` in place of the case's.
fn answer_case_body(
    adapter: &mut dyn Adapter,
    case: &Case,
    body: &[u8],
    checks: &[usize],
) -> Vec<Answer> {
    let asks = checks
        .iter()
        .map(
            |&i| match not_asked_check(adapter.identity(), case, &case.checks[i]) {
                Some(answer) => Err(answer),
                None => Ok(Query {
                    fetch: case.fetch,
                    ..Query::new(
                        case.checks[i].agent.clone(),
                        absolute_url(&case.checks[i].url),
                    )
                }),
            },
        )
        .collect();
    ask_in_order(adapter, body, asks)
        .into_iter()
        .map(|(answer, _)| answer)
        .collect()
}

/// Asks `adapter` about `body` each question of `asks` that can be put (`Ok`) in one batch; one
/// that cannot (`Err`) keeps that answer, unasked. Per ask, in order: the answer and whether it
/// was asked. An adapter that breaks the one-answer-per-query rule gets errors, not a panic of
/// ours; an answer to another question than asked (a preference to a verdict check, a verdict to
/// a preference check: an in-process adapter's; a process's is caught on the wire) is an error
/// naming both.
pub fn ask_in_order(
    adapter: &mut dyn Adapter,
    body: &[u8],
    asks: Vec<Result<Query, Answer>>,
) -> Vec<(Answer, bool)> {
    let queries: Vec<Query> = asks
        .iter()
        .filter_map(|a| a.as_ref().ok().cloned())
        .collect();
    let mut answers = if queries.is_empty() {
        Vec::new()
    } else {
        adapter.answer(body, &queries)
    };
    if answers.len() == queries.len() {
        answers = queries
            .iter()
            .zip(answers)
            .map(|(query, answer)| robotstxt_adapters::protocol::answer_to(query, answer))
            .collect();
    } else {
        let message = format!(
            "the adapter gave {} answers for {} checks",
            answers.len(),
            queries.len()
        );
        answers = queries
            .iter()
            .map(|_| Answer::Error {
                message: message.clone(),
            })
            .collect();
    }
    let mut asked = answers.into_iter();
    asks.into_iter()
        .map(|ask| match ask {
            Err(answer) => (answer, false),
            Ok(_) => (asked.next().expect("one answer per query"), true),
        })
        .collect()
}

/// Runs one adapter over the selection: check id → answer. `progress` is told how many checks
/// were answered after each case.
pub fn run_adapter(
    adapter: &mut dyn Adapter,
    corpus: &Corpus,
    selection: &Selection,
    progress: &(dyn Fn(u64) + Sync),
) -> BTreeMap<String, Answer> {
    let mut out = BTreeMap::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        let answers = answer_case(adapter, case, checks);
        for (&i, answer) in checks.iter().zip(answers) {
            out.insert(check_id(case, &case.checks[i]), answer);
        }
        progress(checks.len() as u64);
    }
    out
}

/// Runs one adapter over the selected checks of the AI-usage cases
/// ([`crate::aiusage::asked_without_lines`]) a second time, on each body with its AI-usage lines
/// removed: check id → answer.
pub fn run_adapter_without_ai_usage_lines(
    adapter: &mut dyn Adapter,
    corpus: &Corpus,
    selection: &Selection,
) -> BTreeMap<String, Answer> {
    let mut out = BTreeMap::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        if !crate::aiusage::asked_without_lines(case) {
            continue;
        }
        let removed = crate::aiusage::find(&case.body).removed;
        let answers = answer_case_body(adapter, case, &removed, checks);
        for (&i, answer) in checks.iter().zip(answers) {
            out.insert(check_id(case, &case.checks[i]), answer);
        }
    }
    out
}

/// An adapter's verdicts on the AI-usage cases with the lines (`answers`) against without them
/// (`removed`, [`run_adapter_without_ai_usage_lines`]); `None` when the selection holds none of
/// those checks. A check with no verdict on either body is counted as not compared, by what that
/// ask gave (the body with the lines first), never as unchanged.
pub fn ai_usage_lines(
    answers: &BTreeMap<String, Answer>,
    removed: &BTreeMap<String, Answer>,
) -> Option<crate::results::AiUsageLines> {
    if removed.is_empty() {
        return None;
    }
    let what = |a: &Answer| {
        if robotstxt_adapters::subprocess::is_not_asked(a) {
            "not asked".to_string()
        } else {
            a.kind().to_string()
        }
    };
    let mut out = crate::results::AiUsageLines::default();
    for (id, without) in removed {
        out.checks += 1;
        let with = answers.get(id);
        match (with.and_then(Answer::verdict), without.verdict()) {
            (Some(x), Some(y)) => {
                out.compared += 1;
                if x != y {
                    out.changed += 1;
                    out.changed_checks.push(id.clone());
                }
            }
            (None, _) => {
                let why = with.map_or("no answer".to_string(), what);
                *out.not_compared
                    .entry(format!("{why} with the lines"))
                    .or_default() += 1;
            }
            (Some(_), None) => {
                *out.not_compared
                    .entry(format!("{} without the lines", what(without)))
                    .or_default() += 1;
            }
        }
    }
    Some(out)
}

/// The answers of one adapter that a fingerprint can use ([`crate::fingerprint`]): the selected
/// checks it was asked and answered with a verdict, of cases the oracle can compare (a single 200
/// fetch of the body, no robots.txt URL).
pub fn answered<'c>(
    identity: &Identity,
    corpus: &'c Corpus,
    selection: &Selection,
    answers: &BTreeMap<String, Answer>,
) -> Vec<Answered<'c>> {
    comparable(identity, corpus, selection)
        .into_iter()
        .filter_map(|(case_index, i)| {
            let case = &corpus.cases[case_index];
            let check = &case.checks[i];
            let id = check_id(case, check);
            let verdict = answers.get(&id).and_then(Answer::verdict)?;
            Some(Answered {
                check: id,
                request: verify::request(case, check),
                allowed: verdict == Verdict::Allowed,
            })
        })
        .collect()
}

/// The selected checks (case index, check index) an adapter is asked whose answers a
/// fingerprint can use: those of cases with a single 200 fetch of the body and no robots.txt URL.
pub(crate) fn comparable(
    identity: &Identity,
    corpus: &Corpus,
    selection: &Selection,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        if !case.fetches.is_empty() || case.robots_url.is_some() || case.fetch != Fetch::default() {
            continue;
        }
        for &i in checks {
            if applicable(identity, case, &case.checks[i]) {
                out.push((*case_index, i));
            }
        }
    }
    out
}
