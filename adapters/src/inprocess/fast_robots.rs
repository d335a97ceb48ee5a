//! `fast-robots` 0.1.5 (crates.io): a zero-copy parser with `memchr` scanning.
//!
//! Its claim: "A zero-copy `robots.txt` parser for Rust with SIMD-accelerated byte scanning, RFC
//! 9309 access checks" (README line 10), with an "RFC 9309 core" list, so its profile is `rfc9309`.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "fast-robots".to_string(),
        library: "fast-robots".to_string(),
        version: "0.1.5".to_string(),
        language: "Rust".to_string(),
        licence: "MIT OR Apache-2.0".to_string(),
        source: "crates.io fast-robots =0.1.5 (default features: extensions)".to_string(),
        profile: ProfileId::Rfc9309,
        capabilities: Capabilities::default(),
        url: UrlForm::PathAndQuery,
        notes: "RobotsTxt::parse(text).is_allowed(agent, path): agent first, given the path and \
                query. Text: the body decoded as UTF-8 with invalid octets replaced by U+FFFD \
                (parse_bytes would reject such a body, and one over 512 KiB, as a whole); \
                parse() itself has no size limit. It always allows exactly /robots.txt. The \
                agent must equal a User-agent value as a whole (ASCII case-insensitive); \
                otherwise the `*` groups apply."
            .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::fast_robots_check(body, agent, url))
}
