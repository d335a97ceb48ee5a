//! Verifying checks: the oracle's verdict against a case's expectation, with the failure report
//! the harness and the command line print.

use robotstxt_oracle::aipref::Preference;
use robotstxt_oracle::history::format_minutes;
use robotstxt_oracle::{
    evaluate, evaluate_history, evaluate_preference, Explanation, Fetch, HistoryRequest,
    PreferenceExplanation, ProfileId, Request, Verdict,
};

use crate::cases::{Case, Check, PreferenceCheck};
use crate::render::visible;

/// The oracle's answer to one check under one profile.
#[derive(Debug, Clone)]
pub struct OracleOutcome {
    /// The profile.
    pub profile: ProfileId,
    /// What the case expects.
    pub expected: Verdict,
    /// The oracle's explanation (with its verdict).
    pub explanation: Explanation,
}

impl OracleOutcome {
    /// Whether the oracle agrees with the case.
    pub fn passed(&self) -> bool {
        self.expected == self.explanation.verdict
    }
}

/// The oracle's request for a check of a single fetch (a case with a history of fetches is asked
/// through [`explain`]).
pub fn request<'a>(case: &'a Case, check: &'a Check) -> Request<'a> {
    Request {
        body: &case.body,
        agent: &check.agent,
        url: &check.url,
        fetch: case.fetch,
        robots_url: case.robots_url.as_deref(),
    }
}

/// Every single-fetch request a check's verdict is read from: the check's own, or, in a case with
/// a history of fetches, one per fetch (its outcome and body, with the case's robots.txt URL).
pub fn single_fetch_requests<'a>(case: &'a Case, check: &'a Check) -> Vec<Request<'a>> {
    if case.fetches.is_empty() {
        return vec![request(case, check)];
    }
    case.fetches
        .iter()
        .map(|f| Request {
            body: &f.body,
            agent: &check.agent,
            url: &check.url,
            fetch: f.fetch,
            robots_url: case.robots_url.as_deref(),
        })
        .collect()
}

/// The oracle's explanation of one check under one profile: of its single fetch, or, in a case
/// with a history of fetches, at the check's time.
pub fn explain(case: &Case, check: &Check, profile: ProfileId) -> Explanation {
    if case.fetches.is_empty() {
        return evaluate(profile, &request(case, check));
    }
    let fetches = case.timed_fetches();
    let request = HistoryRequest {
        fetches: &fetches,
        agent: &check.agent,
        url: &check.url,
        at: check.at.unwrap_or_default(),
        robots_url: case.robots_url.as_deref(),
    };
    evaluate_history(profile, &request)
}

/// Runs the oracle on one check under one profile.
pub fn run_oracle(case: &Case, check: &Check, profile: ProfileId) -> OracleOutcome {
    OracleOutcome {
        profile,
        expected: check.expect[&profile],
        explanation: explain(case, check, profile),
    }
}

/// The oracle's request for an `aipref` check (a case of one fetch).
pub fn preference_request<'a>(case: &'a Case, check: &'a PreferenceCheck) -> Request<'a> {
    Request {
        body: &case.body,
        agent: &check.agent,
        url: &check.url,
        fetch: case.fetch,
        robots_url: case.robots_url.as_deref(),
    }
}

/// The `aipref` reading's answer to one `aipref` check.
#[derive(Debug, Clone)]
pub struct PreferenceOutcome {
    /// What the case expects.
    pub expected: Preference,
    /// The oracle's explanation (with its preference).
    pub explanation: PreferenceExplanation,
}

impl PreferenceOutcome {
    /// Whether the oracle agrees with the case.
    pub fn passed(&self) -> bool {
        self.expected == self.explanation.preference
    }
}

/// Runs the oracle's `aipref` reading on one `aipref` check.
pub fn run_preference(case: &Case, check: &PreferenceCheck) -> PreferenceOutcome {
    PreferenceOutcome {
        expected: check.expect,
        explanation: evaluate_preference(&preference_request(case, check), &check.category),
    }
}

/// The test name of an `aipref` check: `oracle::aipref::<case-id>#<n>`.
pub fn preference_test_name(case: &Case, check: &PreferenceCheck) -> String {
    format!("oracle::aipref::{}#{}", case.id, check.number)
}

/// The failure block of an `aipref` check: what was checked, the body made visible, expected vs
/// actual, and the oracle's explanation.
pub fn preference_failure_report(
    case: &Case,
    check: &PreferenceCheck,
    outcome: &PreferenceOutcome,
) -> String {
    let cites: Vec<String> = case.cite.iter().map(ToString::to_string).collect();
    let mut out = format!(
        "case {}#{} ({})\n  {}\n  cites: {}\n  agent: {}  url: {}  category: {}\n",
        case.id,
        check.number,
        case.path.display(),
        case.title,
        cites.join(", "),
        check.agent,
        check.url,
        check.category
    );
    if let Some(note) = &check.note {
        out.push_str(&format!("  note: {note}\n"));
    }
    out.push_str("body:\n");
    out.push_str(&visible_bodies(case));
    out.push_str(&format!(
        "\nexpected preference: {}\nthe oracle's:        {}\n\n{}",
        outcome.expected.name(),
        outcome.explanation.preference.name(),
        outcome.explanation.text()
    ));
    out
}

/// The case's bodies as the failure reports show them: its body, or each fetch of its history
/// with its time, outcome and body.
pub fn visible_bodies(case: &Case) -> String {
    if case.fetches.is_empty() {
        return visible(&case.body, 4096);
    }
    let mut out = String::new();
    for (n, fetch) in case.fetches.iter().enumerate() {
        out.push_str(&format!(
            "fetch {} at {}: {}\n",
            n + 1,
            format_minutes(fetch.at),
            describe_fetch(fetch.fetch)
        ));
        for line in visible(&fetch.body, 4096).lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// "status 503 after 0 redirects", "unreachable".
pub fn describe_fetch(fetch: Fetch) -> String {
    match fetch {
        Fetch::Status { status, redirects } => {
            format!("status {status} after {redirects} redirects")
        }
        Fetch::Unreachable => "unreachable".to_string(),
    }
}

/// The host a check written as a bare path is put on for parsers, which all take absolute URLs.
pub const DEFAULT_ORIGIN: &str = "http://example.com";

/// A check's URL as parsers get it: absolute URLs as they are, a path (`/x`) on
/// [`DEFAULT_ORIGIN`]. The oracle ignores the origin, so verdicts are unchanged.
pub fn absolute_url(url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") {
        format!("{DEFAULT_ORIGIN}{url}")
    } else {
        url.to_string()
    }
}

/// The test name of a check: `oracle::<profile>::<case-id>#<n>`.
pub fn test_name(profile: ProfileId, case: &Case, check: &Check) -> String {
    format!("oracle::{}::{}#{}", profile.name(), case.id, check.number)
}

/// The fixed failure block: what was checked, the body made visible, expected vs actual, a diff of
/// the verdict tables, and the oracle's explanation.
pub fn failure_report(case: &Case, check: &Check, outcome: &OracleOutcome) -> String {
    let cites: Vec<String> = case.cite.iter().map(ToString::to_string).collect();
    let mut out = String::new();
    out.push_str(&format!(
        "case {}#{}: {}\n",
        case.id, check.number, case.title
    ));
    out.push_str(&format!(
        "  file: {}\n  cites: {}\n",
        case.path.display(),
        cites.join(", ")
    ));
    if case.fetch != robotstxt_oracle::Fetch::default() {
        out.push_str(&format!("  fetch: {:?}\n", case.fetch));
    }
    if let Some(robots_url) = &case.robots_url {
        out.push_str(&format!(
            "  robots_url: {}\n",
            visible(robots_url.as_bytes(), 400)
        ));
    }
    out.push_str(&format!(
        "  agent: {}\n  url: {}\n",
        check.agent,
        visible(check.url.as_bytes(), 400)
    ));
    if let Some(at) = check.at {
        out.push_str(&format!("  at: {}\n", format_minutes(at)));
    }
    out.push_str("  body:\n");
    for line in visible_bodies(case).lines() {
        out.push_str(&format!("    | {line}\n"));
    }
    out.push_str(&format!(
        "the oracle ({}) says {} but the case expects {}\n",
        outcome.profile.name(),
        outcome.explanation.verdict.name(),
        outcome.expected.name()
    ));
    let table = |verdict_of: &dyn Fn(ProfileId) -> Verdict| {
        ProfileId::ALL
            .iter()
            .map(|&p| format!("{}: {}\n", p.name(), verdict_of(p).name()))
            .collect::<String>()
    };
    let expected = table(&|p| check.expect[&p]);
    let actual = table(&|p| explain(case, check, p).verdict);
    let diff = similar::TextDiff::from_lines(&expected, &actual);
    out.push_str("verdicts, expected (-) vs oracle (+):\n");
    out.push_str(
        &diff
            .unified_diff()
            .context_radius(4)
            .header("expected", "oracle")
            .to_string(),
    );
    out.push_str("explanation:\n");
    out.push_str(&outcome.explanation.to_string());
    out.push_str(&format!(
        "if the case is wrong, fix {} after re-reading the cited sections; verdicts are never blessed\n",
        case.path.display()
    ));
    out
}

/// The failure block for a downstream parser's check, in the same shape as
/// [`failure_report`]: what was asked, the body made visible, the parser's answer against the
/// profile's expectation, a diff of the expected verdicts against the parser's answer under every
/// profile, what to do (`advice`), and the oracle's explanation.
pub fn parser_failure_report(
    case: &Case,
    check: &Check,
    profile: ProfileId,
    parser: &str,
    answer: &crate::Answer,
    advice: &str,
) -> String {
    let cites: Vec<String> = case.cite.iter().map(ToString::to_string).collect();
    let mut out = format!(
        "case {}#{}: {}\n  file: {}\n  cites: {}\n",
        case.id,
        check.number,
        case.title,
        case.path.display(),
        cites.join(", ")
    );
    if case.fetch != Fetch::default() {
        out.push_str(&format!("  fetch: {}\n", describe_fetch(case.fetch)));
    }
    out.push_str(&format!(
        "  agent: {}\n  url: {}\n  body:\n",
        check.agent,
        visible(absolute_url(&check.url).as_bytes(), 400)
    ));
    for line in visible_bodies(case).lines() {
        out.push_str(&format!("    | {line}\n"));
    }
    let expected_here = check.expect[&profile];
    let relation = if answer.agrees(expected_here) {
        "as"
    } else {
        "but"
    };
    out.push_str(&format!(
        "{parser} answers {answer} {relation} {} expects {}\n",
        profile.name(),
        expected_here.name()
    ));
    let expected: String = ProfileId::ALL
        .iter()
        .map(|p| format!("{}: {}\n", p.name(), check.expect[p].name()))
        .collect();
    let actual: String = ProfileId::ALL
        .iter()
        .map(|p| {
            let shown = if answer.agrees(check.expect[p]) {
                check.expect[p].name()
            } else {
                answer.kind()
            };
            format!("{}: {shown}\n", p.name())
        })
        .collect();
    let diff = similar::TextDiff::from_lines(&expected, &actual);
    out.push_str(&format!(
        "verdicts, expected (-) vs {parser} (+) under every profile:\n"
    ));
    out.push_str(
        &diff
            .unified_diff()
            .context_radius(4)
            .header("expected", parser)
            .to_string(),
    );
    out.push_str(advice);
    if !advice.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("the oracle's explanation ({}):\n", profile.name()));
    out.push_str(&explain(case, check, profile).to_string());
    out
}
