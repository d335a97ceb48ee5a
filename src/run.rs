//! Running the corpus through the oracle and the adapters, and judging each answer against the
//! adapter's claimed profile and its ledger. The result is a [`Results`], from which every report
//! is rendered.
//!
//! The checks are those `--cases` selects ([`Selection`]); each adapter runs on a thread of its
//! own and is asked one batch per case, leaving out, with the reason, the checks it cannot be
//! asked ([`not_asked_check`]). Each answer is judged ([`judge`]) and summarised per adapter with
//! its nearest profile ([`summarise`]). `certify` uses the same runner and judge through
//! [`run_opened`], with one adapter it opened itself.

use std::collections::BTreeMap;
use std::path::PathBuf;

use robotstxt_adapters::{Adapter, Answer, Identity, Query, Unavailable};
use robotstxt_oracle::history::format_minutes;
use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use crate::cases::{Case, Check, Corpus};
use crate::fingerprint::{self, Answered};
use crate::ledger::{self, Entry, Ledger, Standing};
use crate::results::{
    AdapterCell, AdapterColumn, AdapterSummary, CaseInfo, LedgerTally, OracleCell, PreferenceCell,
    Results, Row, Status, Tally, TimedFetchInfo,
};
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
fn comparable(identity: &Identity, corpus: &Corpus, selection: &Selection) -> Vec<(usize, usize)> {
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

/// Judges an answer against the verdict the claimed profile expects and the ledger's entry; a
/// check the adapter could not be asked ([`applicable`] false) is not judged.
pub fn judge(
    answer: &Answer,
    expected: Verdict,
    entry: Option<&Entry>,
    applicable: bool,
) -> (Status, Option<String>) {
    if !applicable {
        return (Status::NotApplicable, None);
    }
    match ledger::standing(answer, expected, entry) {
        Standing::Pass => (Status::Pass, None),
        Standing::Fixed(entry) => (Status::FixedDivergence, Some(entry.reason.clone())),
        Standing::Listed(entry) => (Status::ExpectedDivergence, Some(entry.reason.clone())),
        Standing::Changed(entry) => (
            Status::UnexpectedDivergence,
            Some(format!(
                "the ledger expects {} ({})",
                entry.describe(),
                entry.reason
            )),
        ),
        Standing::Unlisted => (Status::UnexpectedDivergence, None),
    }
}

/// What a run covers and how adapters are opened.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Oracle profiles to show as columns.
    pub profiles: Vec<ProfileId>,
    /// Adapter ids to run.
    pub adapters: Vec<String>,
    /// The `--cases` filter.
    pub filter: Option<String>,
    /// How adapters are opened.
    pub open: robotstxt_adapters::Options,
    /// Where the ledgers are.
    pub ledgers: PathBuf,
}

/// An adapter that opened, with its ledger.
pub struct Opened {
    /// The adapter.
    pub adapter: Box<dyn Adapter>,
    /// Its ledger, judged against the profile in its identity.
    pub ledger: Ledger,
}

/// Runs the corpus (or the selected part) through the oracle and every available adapter.
/// `progress` receives the total number of (adapter, check) answers to expect, then increments.
/// A malformed ledger is an error: its adapter cannot be judged.
pub fn run(
    corpus: &Corpus,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<Results, String> {
    let mut opened = Vec::new();
    let mut unavailable: Vec<Unavailable> = Vec::new();
    for id in &options.adapters {
        progress.message(&format!("starting {id}"));
        match robotstxt_adapters::open(id, &options.open) {
            Ok(adapter) => {
                let ledger = Ledger::load(&options.ledgers, id)?;
                check_ledger_profile(&ledger, adapter.identity())?;
                opened.push(Opened { adapter, ledger });
            }
            Err(why) => unavailable.push(why),
        }
    }
    Ok(run_opened(corpus, options, opened, unavailable, progress))
}

/// Runs the corpus (or the part `options.filter` selects) through adapters already opened, each
/// judged under its ledger against the profile its identity claims; `options.adapters` and
/// `options.open` are not used.
pub fn run_opened(
    corpus: &Corpus,
    options: &RunOptions,
    mut opened: Vec<Opened>,
    unavailable: Vec<Unavailable>,
    progress: &dyn Progress,
) -> Results {
    let selection = Selection::new(corpus, options.filter.as_deref());
    progress.start((selection.check_count() * opened.len()) as u64);
    let mut memo = fingerprint::Memo::default();
    let identities: Vec<Identity> = opened
        .iter()
        .map(|o| o.adapter.identity().clone())
        .collect();
    let preference_selection =
        crate::preferences::PreferenceSelection::new(corpus, options.filter.as_deref());
    // Each adapter's answers, its answers on the AI-usage cases without those lines, and its
    // answers to the `aipref` checks.
    type Asked = (
        BTreeMap<String, Answer>,
        BTreeMap<String, Answer>,
        BTreeMap<String, PreferenceCell>,
    );
    let asked: Vec<Asked> = std::thread::scope(|scope| {
        // The oracle's side of the fingerprints needs no answer: it runs while the adapters do.
        let (memo, chosen) = (&mut memo, &selection);
        scope.spawn(move || {
            for identity in &identities {
                for (case_index, i) in comparable(identity, corpus, chosen) {
                    let case = &corpus.cases[case_index];
                    let check = &case.checks[i];
                    let request = verify::request(case, check);
                    memo.fill(identity.profile, &check_id(case, check), &request);
                }
            }
        });
        let handles: Vec<_> = opened
            .iter_mut()
            .map(|o| {
                let (selection, preference_selection) = (&selection, &preference_selection);
                scope.spawn(move || {
                    let answers = run_adapter(o.adapter.as_mut(), corpus, selection, &|n| {
                        progress.advance(n)
                    });
                    let removed =
                        run_adapter_without_ai_usage_lines(o.adapter.as_mut(), corpus, selection);
                    let preferences = crate::preferences::run_adapter(
                        o.adapter.as_mut(),
                        corpus,
                        preference_selection,
                    );
                    (answers, removed, preferences)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("adapter threads do not panic"))
            .collect()
    });
    progress.finish();
    let mut answers = Vec::new();
    let mut removed = Vec::new();
    let mut preference_answers = Vec::new();
    for (a, r, p) in asked {
        answers.push(a);
        removed.push(r);
        preference_answers.push(p);
    }
    let columns: Vec<(&Identity, &Ledger)> = opened
        .iter()
        .map(|o| (o.adapter.identity(), &o.ledger))
        .collect();
    let mut results = assemble(
        corpus,
        &selection,
        options,
        &columns,
        &answers,
        unavailable,
        memo,
    );
    for ((summary, answers), removed) in results.summary.iter_mut().zip(&answers).zip(&removed) {
        summary.ai_usage = ai_usage_lines(answers, removed);
    }
    let identities: Vec<&Identity> = columns.iter().map(|(identity, _)| *identity).collect();
    results.preference_rows = crate::preferences::rows(
        corpus,
        &preference_selection,
        &identities,
        &preference_answers,
    );
    for summary in &mut results.summary {
        summary.preferences = crate::preferences::tally(&summary.adapter, &results.preference_rows);
    }
    results
}

/// A ledger file as the results name it: as opened when relative, relative to the current
/// directory when under it, else by its folder's name and its own (`ledgers/robotxt.yaml`), so no
/// path of this machine is published (`$ROBOTSTXT_LEDGERS` may be anywhere).
fn ledger_name(path: &std::path::Path) -> String {
    if path.is_relative() {
        return path.display().to_string();
    }
    if let Some(inside) = std::env::current_dir().ok().and_then(|cwd| {
        path.strip_prefix(cwd)
            .ok()
            .map(std::path::Path::to_path_buf)
    }) {
        return inside.display().to_string();
    }
    let mut parts: Vec<String> = path
        .components()
        .rev()
        .take(2)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.reverse();
    parts.join("/")
}

/// A ledger must be written against the profile its adapter claims.
pub fn check_ledger_profile(ledger: &Ledger, identity: &Identity) -> Result<(), String> {
    match (ledger.profile, &ledger.path) {
        (Some(profile), Some(path)) if profile != identity.profile => Err(format!(
            "{}: written against {} but {} claims {}",
            path.display(),
            profile.name(),
            identity.id,
            identity.profile.name()
        )),
        _ => Ok(()),
    }
}

/// Builds rows and summaries from the answers.
fn assemble(
    corpus: &Corpus,
    selection: &Selection,
    options: &RunOptions,
    columns: &[(&Identity, &Ledger)],
    answers: &[BTreeMap<String, Answer>],
    unavailable: Vec<Unavailable>,
    mut memo: fingerprint::Memo,
) -> Results {
    let mut cases = BTreeMap::new();
    let mut rows = Vec::new();
    for (case_index, checks) in &selection.cases {
        let case = &corpus.cases[*case_index];
        cases.insert(case.id.clone(), case_info(corpus, case));
        for &i in checks {
            let check = &case.checks[i];
            let id = check_id(case, check);
            let oracle = options
                .profiles
                .iter()
                .map(|&profile| {
                    let explanation = verify::explain(case, check, profile);
                    let cell = OracleCell {
                        verdict: explanation.verdict,
                        agrees: explanation.verdict == check.expect[&profile],
                        explanation: cut_explanation(&explanation.to_string()),
                    };
                    (profile, cell)
                })
                .collect();
            let adapters = columns
                .iter()
                .zip(answers)
                .map(|((identity, ledger), answers)| {
                    let answer = answers[&id].clone();
                    let expected = check.expect[&identity.profile];
                    let (status, reason) = judge(
                        &answer,
                        expected,
                        ledger.entries.get(&id),
                        applicable(identity, case, check),
                    );
                    let cell = AdapterCell {
                        answer,
                        status,
                        reason,
                    };
                    (identity.id.clone(), cell)
                })
                .collect();
            rows.push(crate::results::Row {
                case: case.id.clone(),
                check: check.number,
                agent: check.agent.clone(),
                url: check.url.clone(),
                at: check.at.map(format_minutes),
                expected: check.expect.clone(),
                oracle,
                adapters,
            });
        }
    }
    // The oracle's verdicts on each check are shared by every adapter claiming the same profile
    // (`memo` has them already when `run_opened` filled it beside the adapters).
    let summary = columns
        .iter()
        .zip(answers)
        .map(|((identity, ledger), answers)| {
            let mut summary = summarise(identity, ledger, corpus, &rows);
            let answered = answered(identity, corpus, selection, answers);
            summary.fingerprint = Some(fingerprint::fingerprint_memoised(
                identity.profile,
                &answered,
                &mut memo,
            ));
            summary
        })
        .collect();
    Results {
        schema: crate::results::SCHEMA.to_string(),
        version: crate::results::VERSION,
        tool: format!("robotstxt-conformance {}", env!("CARGO_PKG_VERSION")),
        filter: options.filter.clone(),
        profiles: options.profiles.clone(),
        adapters: columns
            .iter()
            .map(|(identity, ledger)| AdapterColumn {
                identity: (*identity).clone(),
                ledger: match &ledger.path {
                    Some(path) => ledger_name(path),
                    None => format!(
                        "{} (none)",
                        ledger_name(&ledger::path_of(&options.ledgers, &identity.id))
                    ),
                },
            })
            .collect(),
        unavailable,
        cases,
        rows,
        preference_rows: Vec::new(),
        summary,
    }
}

/// The longest explanation kept in results, in octets; bodies with thousands of rules explain
/// each one, and `check --explain` gives the whole text.
pub const EXPLANATION_LIMIT: usize = 8 * 1024;

/// An explanation cut to [`EXPLANATION_LIMIT`]: its head and tail lines, with the deciding lines
/// (`=>`) kept, and a note saying how to get the rest.
pub fn cut_explanation(text: &str) -> String {
    if text.len() <= EXPLANATION_LIMIT {
        return text.to_string();
    }
    let lines: Vec<&str> = text.lines().collect();
    let keep = |i: usize, line: &str| i < 40 || i + 20 >= lines.len() || line.contains("=>");
    let mut out = String::new();
    let mut skipped = 0;
    for (i, line) in lines.iter().enumerate() {
        if keep(i, line) && out.len() + line.len() < EXPLANATION_LIMIT {
            if skipped > 0 {
                out.push_str(&format!(
                    "  … {skipped} lines cut (see `check --explain`)\n"
                ));
                skipped = 0;
            }
            out.push_str(line);
            out.push('\n');
        } else {
            skipped += 1;
        }
    }
    if skipped > 0 {
        out.push_str(&format!(
            "  … {skipped} lines cut (see `check --explain`)\n"
        ));
    }
    out
}

/// A case as results show it.
fn case_info(corpus: &Corpus, case: &Case) -> CaseInfo {
    CaseInfo {
        title: case.title.clone(),
        path: case
            .path
            .strip_prefix(&corpus.root)
            .unwrap_or(&case.path)
            .display()
            .to_string(),
        cite: case.cite.iter().map(ToString::to_string).collect(),
        tags: case.tags.clone(),
        covers: case.covers.clone(),
        note: case.note.clone(),
        fetch: (case.fetch != Fetch::default()).then_some(case.fetch),
        robots_url: case.robots_url.clone(),
        fetches: case
            .fetches
            .iter()
            .map(|f| TimedFetchInfo {
                at: format_minutes(f.at),
                fetch: f.fetch,
                body_len: f.body.len(),
            })
            .collect(),
        body_len: case.body.len() + case.fetches.iter().map(|f| f.body.len()).sum::<usize>(),
        body_visible: verify::visible_bodies(case),
    }
}

/// One adapter's totals over `rows`.
pub fn summarise(
    identity: &Identity,
    ledger: &Ledger,
    corpus: &Corpus,
    rows: &[Row],
) -> AdapterSummary {
    let mut profiles: BTreeMap<ProfileId, Tally> = BTreeMap::new();
    let mut tally = LedgerTally {
        stale: ledger.stale(corpus),
        ..LedgerTally::default()
    };
    for row in rows {
        let Some(cell) = row.adapters.get(&identity.id) else {
            continue;
        };
        match cell.status {
            Status::Pass => tally.pass += 1,
            Status::ExpectedDivergence if ledger::is_failure(cell.answer.kind()) => {
                tally.known_failures += 1
            }
            Status::ExpectedDivergence => {
                tally.expected += 1;
                if cell.reason.as_deref().is_some_and(ledger::is_unexplained) {
                    tally.unexplained += 1;
                }
            }
            Status::UnexpectedDivergence => tally.unexpected += 1,
            Status::FixedDivergence => tally.fixed += 1,
            Status::NotApplicable => {
                tally.not_applicable += 1;
                continue;
            }
        }
        for profile in ProfileId::ALL {
            // The parser answered about the body alone; under a profile whose file does not
            // govern the URL there is nothing to agree with.
            if row.expected[&profile] == Verdict::NotGoverned {
                continue;
            }
            let t = profiles.entry(profile).or_default();
            t.checks += 1;
            match &cell.answer {
                Answer::Allowed | Answer::Disallowed => {
                    if row.disagrees(cell, profile) {
                        t.disagree += 1;
                    } else {
                        t.agree += 1;
                    }
                }
                Answer::Unsupported { .. } => t.unsupported += 1,
                _ => t.failed += 1,
            }
        }
    }
    for t in profiles.values_mut() {
        t.pass_rate = if t.checks == 0 {
            0.0
        } else {
            t.agree as f64 / t.checks as f64
        };
    }
    let best = |p: ProfileId| profiles.get(&p).map_or(0, |t| t.agree);
    let nearest = ProfileId::ALL.into_iter().fold(identity.profile, |acc, p| {
        if best(p) > best(acc) {
            p
        } else {
            acc
        }
    });
    AdapterSummary {
        adapter: identity.id.clone(),
        claimed: identity.profile,
        profiles,
        nearest,
        ledger: tally,
        fingerprint: None,
        ai_usage: None,
        preferences: None,
    }
}

/// Where a run reports its progress (a progress bar, or nothing).
pub trait Progress: Sync {
    /// What is happening now.
    fn message(&self, text: &str);
    /// The work is `total` answers.
    fn start(&self, total: u64);
    /// `n` more answers are in.
    fn advance(&self, n: u64);
    /// All done.
    fn finish(&self);
}

/// No progress reporting.
pub struct Silent;

impl Progress for Silent {
    fn message(&self, _: &str) {}
    fn start(&self, _: u64) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}

#[cfg(test)]
mod tests {
    use super::ledger_name;
    use std::path::Path;

    #[test]
    fn a_ledger_is_named_without_a_path_of_the_machine() {
        assert_eq!(
            ledger_name(Path::new("adapters/expectations/robotxt.yaml")),
            "adapters/expectations/robotxt.yaml"
        );
        assert_eq!(
            ledger_name(Path::new("/nowhere-on-this-machine/x/ledgers/robotxt.yaml")),
            "ledgers/robotxt.yaml"
        );
    }
}
