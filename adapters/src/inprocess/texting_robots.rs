//! `texting_robots` 0.2.2 (crates.io): a Google-style parser built on `nom` and regexes.
//!
//! Its claim: the README points readers at Google's document as the specification it follows
//! ("a good starting point is [How Google interprets the robots.txt specification]", README line
//! 14) and says it translated "almost all unit tests from Google's C++ robots.txt parser" (README
//! line 167), so its profile is `google`.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "texting-robots".to_string(),
        library: "texting_robots".to_string(),
        version: "0.2.2".to_string(),
        language: "Rust".to_string(),
        licence: "MIT OR Apache-2.0".to_string(),
        source: "crates.io texting_robots =0.2.2".to_string(),
        profile: ProfileId::Google,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: "Robot::new(agent, body)?.allowed(url), given the full URL; it re-parses the URL \
                with the `url` crate (dot segments removed, non-ASCII percent-encoded, fragment \
                kept in the matched text) and matches from the path on. It always allows \
                /robots.txt. The agent must equal a User-agent value as a whole \
                (case-insensitive); otherwise the `*` group applies. In a body with no \
                User-agent line at all, the rules apply to every agent. NUL bytes in the body \
                are read as line ends. Rules are compiled to regexes on every parse; a `$` rule \
                whose regex outgrows the crate's 42 KiB limit makes the whole parse an `error`."
            .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::texting_robots_check(body, agent, url))
}
