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

use robotstxt_adapters::{Adapter, Answer, Identity, Unavailable};
use robotstxt_oracle::history::format_minutes;
use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use crate::ask::{
    ai_usage_lines, answered, applicable, check_id, comparable, run_adapter,
    run_adapter_without_ai_usage_lines, Selection,
};
use crate::cases::{Case, Corpus};
use crate::fingerprint;
use crate::ledger::{self, Entry, Ledger, Standing};
use crate::results::{
    AdapterCell, AdapterColumn, AdapterSummary, CaseInfo, LedgerTally, OracleCell, PreferenceCell,
    Results, Row, Status, Tally, TimedFetchInfo,
};
use crate::verify;

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
