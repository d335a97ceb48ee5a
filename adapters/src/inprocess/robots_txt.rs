//! `robots_txt` 0.7.0 (crates.io): a small parser and generator by Alexander Irbis.
//!
//! Its claim: the crate documentation names its standard as "[A Standard for Robot
//! Exclusion](http://www.robotstxt.org/orig.html)", the 1994 document, with `Allow`,
//! `Crawl-delay`, `Request-rate`, `Sitemap` and `Host` as additions (`src/lib.rs`, the `# Standard`
//! and `# Additions` sections of the crate doc), so its profile is `original-1994`. Its README
//! says only "The implementation is WIP".

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "robots-txt".to_string(),
        library: "robots_txt".to_string(),
        version: "0.7.0".to_string(),
        language: "Rust".to_string(),
        licence: "MIT/Apache-2.0".to_string(),
        source: "crates.io robots_txt =0.7.0".to_string(),
        profile: ProfileId::Original1994,
        capabilities: Capabilities::default(),
        url: UrlForm::PathAndQuery,
        notes: "Robots::from_str_lossy(body) (invalid UTF-8 replaced with U+FFFD first), then \
                SimpleMatcher::new(&robots.choose_section(agent).rules).check_path(path), given \
                the path and query. The first rule in file order whose path is a prefix of the URL \
                path decides, compared case-insensitively; an empty rule allows everything after \
                it; no `*` or `$`. The first group (in file order) with a User-agent value that is \
                a case-insensitive substring of the agent is chosen, else the merged `*` groups. A \
                blank line ends a group; a lone CR does not end a line. It slices strings by byte \
                length, so non-ASCII paths or agents can panic (`crash`)."
            .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::robots_txt_check(body, agent, url))
}
