//! `results.json`: everything a run found, in a versioned schema that the Markdown, HTML and JUnit
//! reports are rendered from (documented in `docs/results.md`).
//!
//! A run has columns (the oracle's profiles, then each available adapter) and rows (one per check).
//! Each adapter cell says what the parser answered and how that stands against the profile the parser
//! claims, under its ledger.

use std::collections::BTreeMap;

use robotstxt_adapters::{Answer, Identity, Unavailable};
use robotstxt_oracle::aipref::Preference;
use robotstxt_oracle::{Fetch, ProfileId, Verdict};
use serde::{Deserialize, Serialize};

use crate::fingerprint::Fingerprint;

/// The value of `schema` in every results file.
pub const SCHEMA: &str = "robotstxt-conformance/results";
/// The schema version; bumped on any incompatible change.
pub const VERSION: u32 = 1;

/// One run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Always [`VERSION`] for files this code writes.
    pub version: u32,
    /// The tool and its version, e.g. `robotstxt-conformance 0.1.0`.
    pub tool: String,
    /// The `--cases` filter, if any.
    pub filter: Option<String>,
    /// The oracle's profiles that were run, in column order.
    pub profiles: Vec<ProfileId>,
    /// The adapters that ran, in column order.
    pub adapters: Vec<AdapterColumn>,
    /// The adapters asked for that could not run here, and why.
    pub unavailable: Vec<Unavailable>,
    /// The cases the rows refer to, by case id.
    pub cases: BTreeMap<String, CaseInfo>,
    /// One row per check, in corpus order.
    pub rows: Vec<Row>,
    /// One row per `aipref` check (which usage preference applies), in corpus order; absent when
    /// the run selected none (and in files written before it was added).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preference_rows: Vec<PreferenceRow>,
    /// Per adapter: agreement with each profile, nearest profile, ledger outcome.
    pub summary: Vec<AdapterSummary>,
}

/// An adapter column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AdapterColumn {
    /// Who it is (id, library, version, claimed profile, ...).
    #[serde(flatten)]
    pub identity: Identity,
    /// The ledger file its divergences were judged against, as it was opened when relative
    /// (`adapters/expectations/robotxt.yaml`), else by its folder's name and its own, naming no
    /// path of the machine (`<path> (none)` when the adapter has no ledger there).
    pub ledger: String,
}

/// A case, as the rows refer to it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseInfo {
    /// What it shows.
    pub title: String,
    /// The case file, relative to the corpus root.
    pub path: String,
    /// Citations (`rfc9309#2.2.2`, ...).
    pub cite: Vec<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// The RFC 9309 statements it tests (`spec-cases/rfc9309-statements.yaml` ids); absent in
    /// files written before it was added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
    /// The case's note: why each profile expects what it does, with the documents' words; absent
    /// when the case has none and in files written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The fetch outcome, when it is not a plain 200.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch: Option<Fetch>,
    /// The URL the body was fetched from, when the case gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robots_url: Option<String>,
    /// A history of fetches, when the case gives one (then the body fields show every fetch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fetches: Vec<TimedFetchInfo>,
    /// The body's size in octets (a history's bodies together).
    pub body_len: usize,
    /// The body with invisible octets made visible (`⟨CR⟩`, `⟨xFF⟩`), cut after 4096 octets; for
    /// a history, each fetch's time, outcome and body.
    pub body_visible: String,
}

/// One fetch of a case's history.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TimedFetchInfo {
    /// When, as cases write it (`13h`).
    pub at: String,
    /// How it went.
    pub fetch: Fetch,
    /// Its body's size in octets.
    pub body_len: usize,
}

/// One check and every column's answer to it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The case id.
    pub case: String,
    /// The check's number in its case, from 1.
    pub check: usize,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// When the check is asked (`13h`), in a case with a history of fetches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The corpus's expected verdict per profile.
    pub expected: BTreeMap<ProfileId, Verdict>,
    /// The oracle's verdict and explanation per profile.
    pub oracle: BTreeMap<ProfileId, OracleCell>,
    /// Each adapter's answer, by adapter id.
    pub adapters: BTreeMap<String, AdapterCell>,
}

impl Row {
    /// The check's id, `<case-id>#<n>`, as ledgers and test names write it.
    pub fn check_id(&self) -> String {
        format!("{}#{}", self.case, self.check)
    }

    /// Whether `cell`, an adapter's answer on this row, is a verdict `profile` does not expect: the
    /// one rule a [`Tally`]'s `disagree` counts (a check not asked, a profile under which the file
    /// does not govern the URL, and an answer that is no verdict never disagree).
    pub fn disagrees(&self, cell: &AdapterCell, profile: ProfileId) -> bool {
        cell.status != Status::NotApplicable
            && cell.answer.verdict().is_some()
            && self
                .expected
                .get(&profile)
                .is_some_and(|&e| e != Verdict::NotGoverned && !cell.answer.agrees(e))
    }
}

/// The oracle under one profile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OracleCell {
    /// Its verdict.
    pub verdict: Verdict,
    /// Whether it matches the corpus's expectation.
    pub agrees: bool,
    /// Its explanation, as text.
    pub explanation: String,
}

/// One adapter's answer to one check.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AdapterCell {
    /// What the parser answered.
    pub answer: Answer,
    /// How that stands against the claimed profile and the ledger.
    pub status: Status,
    /// The ledger's reason, for an expected divergence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// An answer judged against the adapter's claimed profile and its ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The answer is what the claimed profile expects (`either` accepts both verdicts).
    Pass,
    /// A divergence the ledger lists with this very answer.
    ExpectedDivergence,
    /// A divergence the ledger does not list, or lists with another answer: fails the run.
    UnexpectedDivergence,
    /// The ledger lists a divergence but the parser now passes: fails the run until the entry goes.
    FixedDivergence,
    /// The check could not be put to the adapter: it needs a capability the adapter lacks (a fetch
    /// outcome), or its claimed profile expects `not-governed` (adapters are not told the robots.txt
    /// URL). Not asked, not counted.
    NotApplicable,
}

impl Status {
    /// Whether this status fails the run.
    pub fn is_unexpected(self) -> bool {
        matches!(self, Status::UnexpectedDivergence | Status::FixedDivergence)
    }
}

/// One adapter's totals.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AdapterSummary {
    /// The adapter id.
    pub adapter: String,
    /// The profile it claims.
    pub claimed: ProfileId,
    /// Agreement with each profile's expectations.
    pub profiles: BTreeMap<ProfileId, Tally>,
    /// The profile it agrees with most (ties go to the claimed profile, then report order).
    pub nearest: ProfileId,
    /// How its answers stand against its ledger.
    pub ledger: LedgerTally,
    /// Where its answers stand on each knob and deviation ([`crate::fingerprint`]), from the
    /// answers of this run; absent in files written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
    /// Issue 38's question 1 on the corpus: its verdicts on the checks of the AI-usage cases with
    /// the lines against without them; absent when the run selected none (and in files written
    /// before it was added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_usage: Option<AiUsageLines>,
    /// Its answers to the `aipref` checks, or why it was asked none; absent when the run selected
    /// none (and in files written before it was added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferences: Option<PreferenceTally>,
}

/// One `aipref` check: for the agent, the URL and a category of use, the preference the corpus
/// expects, the oracle's, and each adapter's answer (adapters without the `preferences`
/// capability are not asked: their answer says so).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PreferenceRow {
    /// The case id.
    pub case: String,
    /// The check's number in its case, from 1.
    pub check: usize,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The category of use, e.g. `train-ai`.
    pub category: String,
    /// The corpus's expected preference.
    pub expected: Preference,
    /// The oracle's preference.
    pub oracle: Preference,
    /// The oracle's explanation, in words.
    pub explanation: String,
    /// Each adapter's answer, by adapter id.
    pub adapters: BTreeMap<String, PreferenceCell>,
}

/// One adapter's answer to an `aipref` check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreferenceCell {
    /// The answer (a preference, or no preference: why, when the check was not asked).
    #[serde(flatten)]
    pub answer: Answer,
    /// Whether the check was put to the adapter; when not, `answer` is `unsupported` with the
    /// reason.
    pub asked: bool,
}

impl PreferenceRow {
    /// The check's id, `<case-id>#<n>`.
    pub fn check_id(&self) -> String {
        format!("{}#{}", self.case, self.check)
    }
}

/// One adapter's answers to the `aipref` checks of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreferenceTally {
    /// The `aipref` checks the run selected.
    pub checks: usize,
    /// Of these, the checks put to the adapter.
    pub asked: usize,
    /// Answers with the preference the corpus expects.
    pub agree: usize,
    /// Preferences the corpus does not expect.
    pub disagree: usize,
    /// Answers that are no preference, by kind (`unsupported`, `crash`, `allowed`, ...).
    pub no_preference: BTreeMap<String, usize>,
    /// The ids of the checks whose preference the corpus does not expect.
    pub disagreeing_checks: Vec<String>,
    /// Why checks were not asked, with how many (the adapter lacks the `preferences` or the
    /// `fetch_status` capability, or the file does not govern the URL).
    pub not_asked: BTreeMap<String, usize>,
}

/// One line a report gives the `aipref` checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreferenceLine {
    /// The adapters it is about: one asked some checks, or all those asked none for one reason.
    pub adapters: Vec<String>,
    /// The line in words ([`PreferenceTally::line`]).
    pub line: String,
    /// The checks whose preference the corpus does not expect (an asked adapter's only).
    pub differs: Vec<String>,
}

/// The lines a report gives the `aipref` checks: each adapter asked some, with its own line, then
/// the adapters asked none, one line per reason. `None` when the run selected no `aipref` check.
pub fn preference_lines(summary: &[AdapterSummary]) -> Option<Vec<PreferenceLine>> {
    if summary.iter().all(|s| s.preferences.is_none()) {
        return None;
    }
    let mut asked = Vec::new();
    let mut none: Vec<PreferenceLine> = Vec::new();
    for s in summary {
        let Some(p) = &s.preferences else { continue };
        let line = p.line();
        if p.asked > 0 {
            asked.push(PreferenceLine {
                adapters: vec![s.adapter.clone()],
                line,
                differs: p.disagreeing_checks.clone(),
            });
        } else if let Some(group) = none.iter_mut().find(|l| l.line == line) {
            group.adapters.push(s.adapter.clone());
        } else {
            none.push(PreferenceLine {
                adapters: vec![s.adapter.clone()],
                line,
                differs: Vec::new(),
            });
        }
    }
    asked.extend(none);
    Some(asked)
}

impl PreferenceTally {
    /// The line per parser, in words: "answers 80 of 95 aipref checks with the expected
    /// preference", or "asked none of the 95 aipref checks: ...".
    pub fn line(&self) -> String {
        if self.asked == 0 {
            let why: Vec<&str> = self.not_asked.keys().map(String::as_str).collect();
            return format!(
                "asked none of the {} aipref checks (which usage preference applies): {}",
                self.checks,
                why.join("; ")
            );
        }
        let mut line = format!(
            "answers {} of {} aipref checks asked with the preference the corpus expects",
            self.agree, self.asked
        );
        let no_preference: usize = self.no_preference.values().sum();
        if no_preference > 0 {
            let what: Vec<String> = self
                .no_preference
                .iter()
                .map(|(kind, n)| format!("{kind}: {n}"))
                .collect();
            line.push_str(&format!(
                " ({no_preference} answered no preference: {})",
                what.join(", ")
            ));
        }
        let not_asked: usize = self.not_asked.values().sum();
        if not_asked > 0 {
            line.push_str(&format!("; {not_asked} not asked"));
        }
        line
    }
}

/// An adapter asked each check of the cases that put AI-usage lines into ordinary files
/// (`crate::aiusage::asked_without_lines`) twice: on the case's body, and on that body with the
/// AI-usage lines removed (`crate::aiusage::find`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiUsageLines {
    /// Checks asked both ways.
    pub checks: usize,
    /// Checks both asks answered with a verdict.
    pub compared: usize,
    /// Of these, the checks whose verdict differs.
    pub changed: usize,
    /// Checks not compared, because one ask gave no verdict, by what it gave and on which body
    /// (`unsupported with the lines`, `crash without the lines`, ...).
    pub not_compared: BTreeMap<String, usize>,
    /// The ids of the checks whose verdict differs.
    pub changed_checks: Vec<String>,
}

impl AiUsageLines {
    /// The line per parser, in words: "adding Content-Usage and Content-Signal lines changes 2 of
    /// 71 verdicts", then the checks not compared and why.
    pub fn line(&self) -> String {
        let mut line = format!(
            "adding Content-Usage and Content-Signal lines changes {} of {} verdicts",
            self.changed, self.compared
        );
        let not_compared: usize = self.not_compared.values().sum();
        if not_compared > 0 {
            let why: Vec<String> = self
                .not_compared
                .iter()
                .map(|(why, n)| format!("{why}: {n}"))
                .collect();
            line.push_str(&format!(
                " ({not_compared} more not compared, no verdict obtained: {})",
                why.join(", ")
            ));
        }
        line
    }
}

/// Agreement of one adapter with one profile.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tally {
    /// Checks asked (those the adapter has the capabilities for), less those this profile expects
    /// `not-governed` (the parser answered about the body alone).
    pub checks: usize,
    /// Answers the profile expects.
    pub agree: usize,
    /// Verdicts the profile does not expect.
    pub disagree: usize,
    /// `unsupported` answers.
    pub unsupported: usize,
    /// `error`, `crash` and `timeout` answers.
    pub failed: usize,
    /// `agree / checks`, from 0 to 1.
    pub pass_rate: f64,
}

/// An adapter's answers against its ledger.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LedgerTally {
    /// Checks that pass.
    pub pass: usize,
    /// Divergences the ledger lists (verdicts and `unsupported` answers); less `unexplained`,
    /// the documented divergences of the line to cite.
    pub expected: usize,
    /// Of `expected`, those whose entry's reason is still UNEXPLAINED: listed, but not documented
    /// (absent in files written before it was added).
    #[serde(default)]
    pub unexplained: usize,
    /// `error` and `crash` answers the ledger accepts by their message: known failures of the
    /// adapter or parser, reported apart, never a pass and never counted as documented divergences
    /// (absent in files written before it was added).
    #[serde(default)]
    pub known_failures: usize,
    /// Divergences the ledger does not list (or lists with another answer).
    pub unexpected: usize,
    /// Ledger entries whose check now passes.
    pub fixed: usize,
    /// Ledger entries that name no check of the corpus (fail the run).
    pub stale: Vec<String>,
    /// Checks not asked: for want of a capability, or `not-governed` under the claimed profile.
    pub not_applicable: usize,
}

impl Results {
    /// The `aipref` checks' part of a headline, in words: `, 95 aipref checks in 16 cases`; empty
    /// when the run selected none.
    pub fn preference_headline(&self) -> String {
        if self.preference_rows.is_empty() {
            return String::new();
        }
        let cases: std::collections::BTreeSet<&str> = self
            .preference_rows
            .iter()
            .map(|r| r.case.as_str())
            .collect();
        format!(
            ", {} aipref check{} in {} case{}",
            self.preference_rows.len(),
            if self.preference_rows.len() == 1 {
                ""
            } else {
                "s"
            },
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        )
    }

    /// Whether anything in this run contradicts a ledger (the exit status of `run`).
    pub fn has_unexpected(&self) -> bool {
        self.summary
            .iter()
            .any(|s| s.ledger.unexpected > 0 || s.ledger.fixed > 0 || !s.ledger.stale.is_empty())
    }
}
