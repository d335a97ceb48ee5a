//! `robotstxt` 0.3.0 (crates.io): a Rust port of Google's C++ parser.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "robotstxt".to_string(),
        library: "robotstxt".to_string(),
        version: "0.3.0".to_string(),
        language: "Rust".to_string(),
        licence: "Apache-2.0".to_string(),
        source: "crates.io robotstxt =0.3.0".to_string(),
        profile: ProfileId::Google,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: String::new(),
    }
}

/// One check.
pub fn check(body: &[u8], agent: &str, url: &str) -> Answer {
    let body = crate::adapter::body_text(body);
    let mut matcher = robotstxt::DefaultMatcher::default();
    Answer::from_allowed(matcher.one_agent_allowed_by_robots(&body, agent, url))
}
