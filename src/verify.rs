//! Verifying checks: the oracle's verdict against a case's expectation, with the failure report
//! the harness and the command line print.

use robotstxt_oracle::{evaluate, Explanation, ProfileId, Request, Verdict};

use crate::cases::{Case, Check};
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

/// The oracle's request for a check.
pub fn request<'a>(case: &'a Case, check: &'a Check) -> Request<'a> {
    Request {
        body: &case.body,
        agent: &check.agent,
        url: &check.url,
        fetch: case.fetch,
        robots_url: case.robots_url.as_deref(),
    }
}

/// Runs the oracle on one check under one profile.
pub fn run_oracle(case: &Case, check: &Check, profile: ProfileId) -> OracleOutcome {
    OracleOutcome {
        profile,
        expected: check.expect[&profile],
        explanation: evaluate(profile, &request(case, check)),
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
    out.push_str("  body:\n");
    for line in visible(&case.body, 4096).lines() {
        out.push_str(&format!("    | {line}\n"));
    }
    out.push_str(&format!(
        "the oracle ({}) says {} but the case expects {}\n",
        outcome.profile.name(),
        outcome.explanation.verdict.name(),
        outcome.expected.name()
    ));
    let request = request(case, check);
    let table = |verdict_of: &dyn Fn(ProfileId) -> Verdict| {
        ProfileId::ALL
            .iter()
            .map(|&p| format!("{}: {}\n", p.name(), verdict_of(p).name()))
            .collect::<String>()
    };
    let expected = table(&|p| check.expect[&p]);
    let actual = table(&|p| evaluate(p, &request).verdict);
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

/// The failure block for an adapter's check: what was asked, the body made visible, the answer
/// against the claimed profile's expectation and the ledger, and the oracle's explanation.
pub fn adapter_failure_report(
    case: &Case,
    check: &Check,
    identity: &robotstxt_adapters::Identity,
    answer: &robotstxt_adapters::Answer,
    status: crate::results::Status,
    ledger_note: Option<&str>,
) -> String {
    let profile = identity.profile;
    let cites: Vec<String> = case.cite.iter().map(ToString::to_string).collect();
    let mut out = format!(
        "case {}#{}: {}\n  file: {}\n  cites: {}\n  agent: {}\n  url: {}\n",
        case.id,
        check.number,
        case.title,
        case.path.display(),
        cites.join(", "),
        check.agent,
        visible(check.url.as_bytes(), 400)
    );
    if let Some(robots_url) = &case.robots_url {
        out.push_str(&format!(
            "  robots_url: {}\n",
            visible(robots_url.as_bytes(), 400)
        ));
    }
    out.push_str("  body:\n");
    for line in visible(&case.body, 4096).lines() {
        out.push_str(&format!("    | {line}\n"));
    }
    out.push_str(&format!(
        "{} {} (claims {}) answers {answer} but {} expects {}\n",
        identity.id,
        identity.version,
        profile.name(),
        profile.name(),
        check.expect[&profile].name()
    ));
    match status {
        crate::results::Status::FixedDivergence => out.push_str(&format!(
            "the ledger lists this check as a divergence ({}), but it now passes: remove the entry from adapters/expectations/{}.yaml\n",
            ledger_note.unwrap_or_default(),
            identity.id
        )),
        _ => out.push_str(&format!(
            "not in the ledger{}: if this is a known divergence, add it with its reason to adapters/expectations/{}.yaml\n",
            ledger_note.map(|n| format!(" as given ({n})")).unwrap_or_default(),
            identity.id
        )),
    }
    out.push_str("the oracle's explanation:\n");
    out.push_str(&evaluate(profile, &request(case, check)).to_string());
    out
}
