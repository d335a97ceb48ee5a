//! Verifying checks: the oracle's part lives in `robotstxt-spec` (re-exported here); this module
//! adds the failure report of an adapter's check.

pub use robotstxt_spec::verify::*;

use robotstxt_spec::cases::{Case, Check};
use robotstxt_spec::render::visible;

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
    for line in visible_bodies(case).lines() {
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
    out.push_str(&explain(case, check, profile).to_string());
    out
}
