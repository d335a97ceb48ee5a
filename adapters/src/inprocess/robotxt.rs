//! `robotxt` 0.7.0 (crates.io): a parser and builder from the `spire-rs` kit.
//!
//! Its claim: "The implementation of the robots.txt (or URL exclusion) protocol in the Rust
//! programming language, following [RFC 9309]" (README lines 16-17), so its profile is `rfc9309`.
//! `Robots` needs the crate's `parser` feature, which is on by default.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "robotxt".to_string(),
        library: "robotxt".to_string(),
        version: "0.7.0".to_string(),
        language: "Rust".to_string(),
        licence: "MIT".to_string(),
        source: "crates.io robotxt =0.7.0".to_string(),
        profile: ProfileId::Rfc9309,
        capabilities: Capabilities::default(),
        url: UrlForm::PathAndQuery,
        notes: "Robots::parse(body, agent).is_allowed(path), given the path and query. It always \
                allows /robots.txt. The agent is matched as a whole, case-insensitively \
                (Agent::Exact); otherwise the `*` group applies. Paths and patterns are \
                percent-normalised before matching. NUL, CR and LF each end a line. Only the first \
                500 KiB of the body are parsed, up to the last line end within them."
            .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::robotxt_check(body, agent, url))
}
