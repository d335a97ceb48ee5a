//! `robotstxt` 0.3.0 (crates.io): a Rust port of Google's C++ parser and matcher.
//!
//! Its claim: "A native Rust port of Google's robots.txt parser and matcher C++ library" that
//! "Preserves all behavior of original library" (README lines 7 and 11), so its profile is
//! `google`.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

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
        notes: "DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url), given \
                the full URL (not normalised; the fragment is dropped); invalid UTF-8 in the body \
                is replaced with U+FFFD first. Port bugs: past a line's 16,664-byte cap it counts \
                skipped characters instead of bytes, so an overlong line of multi-byte UTF-8 \
                panics (`crash`) or shifts the following lines; the byte-order mark is compared \
                char by byte, so a real BOM (U+FEFF) is not skipped but a leading `ï»¿` is. \
                Matching is super-linear on `*`-heavy patterns."
            .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::robotstxt_check(body, agent, url))
}
