//! The `aipref` checks in a run: which usage preference a file's `Content-Usage` lines attach to a
//! URL, for an agent and a category of use (`docs/profiles.md`, "The `aipref` reading"). Adapters
//! with the `preferences` capability are asked them (`adapters/PROTOCOL.md`); every other adapter
//! is recorded as not asked, with the reason, so a reader sees the question was not put rather
//! than a missing row.

use std::collections::BTreeMap;

use robotstxt_adapters::{Adapter, Answer, Identity, Query};
use robotstxt_oracle::scope::{self, Governs};
use robotstxt_oracle::{Fetch, ProfileId};

use crate::ask::{absolute_url, describe_fetch};
use crate::cases::{Case, Corpus, PreferenceCheck};
use crate::results::{PreferenceCell, PreferenceRow, PreferenceTally};
use crate::verify;

/// The `aipref` checks a run covers: for each case (by index), the indexes of its selected
/// preference checks.
#[derive(Clone, Debug, Default)]
pub struct PreferenceSelection {
    /// (case index, preference check indexes), in corpus order.
    pub cases: Vec<(usize, Vec<usize>)>,
}

impl PreferenceSelection {
    /// Every `aipref` check whose id (`<case-id>#<n>`) contains `filter` (all without one).
    pub fn new(corpus: &Corpus, filter: Option<&str>) -> PreferenceSelection {
        PreferenceSelection {
            cases: crate::ask::select(corpus, filter, |case| &case.preferences, check_id),
        }
    }

    /// How many checks are selected.
    pub fn check_count(&self) -> usize {
        self.cases.iter().map(|(_, c)| c.len()).sum()
    }
}

/// An `aipref` check's id: `<case-id>#<n>`.
pub fn check_id(case: &Case, check: &PreferenceCheck) -> String {
    format!("{}#{}", case.id, check.number)
}

/// Why an adapter cannot be asked an `aipref` check, as the answer recorded instead; `None` when
/// it can. It needs the `preferences` capability; a fetch other than a plain 200 needs
/// `fetch_status`; a URL the file does not govern (RFC 9309 step 0, which the `aipref` reading
/// keeps) cannot be asked, since adapters are not told the robots.txt URL.
pub fn not_asked(identity: &Identity, case: &Case, check: &PreferenceCheck) -> Option<Answer> {
    if !identity.capabilities.preferences {
        return Some(Answer::unsupported(
            "the adapter does not answer which usage preference applies (capability preferences)",
        ));
    }
    if !identity.capabilities.fetch_status && case.fetch != Fetch::default() {
        return Some(Answer::unsupported(format!(
            "the adapter does not take fetch outcomes (capability fetch_status); this check's \
             fetch: {}",
            describe_fetch(case.fetch)
        )));
    }
    if let Some(robots_url) = case.robots_url.as_deref() {
        if scope::governs(ProfileId::Rfc9309, robots_url, &check.url).governs != Governs::Yes {
            return Some(Answer::unsupported(format!(
                "under RFC 9309 {robots_url} does not govern this URL; adapters are not told the \
                 robots.txt URL"
            )));
        }
    }
    None
}

/// Asks `adapter` the selected `aipref` checks: check id → answer. Checks it cannot be asked
/// ([`not_asked`]) are not sent and get the reason as an `unsupported` answer, marked not asked;
/// an adapter that gives other than one answer per query gets errors.
pub fn run_adapter(
    adapter: &mut dyn Adapter,
    corpus: &Corpus,
    selection: &PreferenceSelection,
) -> BTreeMap<String, PreferenceCell> {
    let mut out = BTreeMap::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        let asks = checks
            .iter()
            .map(|&i| {
                let check = &case.preferences[i];
                match not_asked(adapter.identity(), case, check) {
                    Some(answer) => Err(answer),
                    None => Ok(Query {
                        fetch: case.fetch,
                        ..Query::preference(
                            check.agent.clone(),
                            absolute_url(&check.url),
                            check.category.clone(),
                        )
                    }),
                }
            })
            .collect();
        let answers = crate::ask::ask_in_order(adapter, &case.body, asks);
        for (&i, (answer, asked)) in checks.iter().zip(answers) {
            let cell = PreferenceCell { answer, asked };
            out.insert(check_id(case, &case.preferences[i]), cell);
        }
    }
    out
}

/// The rows: per selected check, what the corpus and the oracle say and every adapter's answer
/// (`answers[k]` is the answers of `identities[k]`).
pub fn rows(
    corpus: &Corpus,
    selection: &PreferenceSelection,
    identities: &[&Identity],
    answers: &[BTreeMap<String, PreferenceCell>],
) -> Vec<PreferenceRow> {
    let mut rows = Vec::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        for &i in checks {
            let check = &case.preferences[i];
            let id = check_id(case, check);
            let outcome = verify::run_preference(case, check);
            rows.push(PreferenceRow {
                case: case.id.clone(),
                check: check.number,
                agent: check.agent.clone(),
                url: check.url.clone(),
                category: check.category.clone(),
                expected: check.expect,
                oracle: outcome.explanation.preference,
                explanation: outcome.explanation.text(),
                adapters: identities
                    .iter()
                    .zip(answers)
                    .map(|(identity, answers)| (identity.id.clone(), answers[&id].clone()))
                    .collect(),
            });
        }
    }
    rows
}

/// One adapter's tally over the rows; `None` when there are none.
pub fn tally(adapter: &str, rows: &[PreferenceRow]) -> Option<PreferenceTally> {
    if rows.is_empty() {
        return None;
    }
    let mut out = PreferenceTally {
        checks: rows.len(),
        ..PreferenceTally::default()
    };
    for row in rows {
        let Some(cell) = row.adapters.get(adapter) else {
            *out.not_asked
                .entry("no answer recorded".into())
                .or_default() += 1;
            continue;
        };
        let answer = &cell.answer;
        if !cell.asked {
            let why = answer.detail().unwrap_or(answer.kind()).to_string();
            *out.not_asked.entry(why).or_default() += 1;
            continue;
        }
        out.asked += 1;
        match answer.preference() {
            Some(_) if answer.agrees_with_preference(row.expected) => out.agree += 1,
            Some(_) => {
                out.disagree += 1;
                out.disagreeing_checks.push(row.check_id());
            }
            None => *out.no_preference.entry(answer.kind().into()).or_default() += 1,
        }
    }
    Some(out)
}
