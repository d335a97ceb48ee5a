//! `sim-codec-robots` 0.2.0 (crates.io): the robots.txt codec of the SIM project.
//!
//! Its claim: "Bounded RFC 9309 parsing and matching" (README line 3; the crate description says
//! "Bounded RFC 9309 robots.txt parser and matcher"), so its profile is `rfc9309`.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "sim-codec-robots".to_string(),
        library: "sim-codec-robots".to_string(),
        version: "0.2.0".to_string(),
        language: "Rust".to_string(),
        licence: "MPL-2.0".to_string(),
        source: "crates.io sim-codec-robots =0.2.0".to_string(),
        profile: ProfileId::Rfc9309,
        capabilities: Capabilities::default(),
        url: UrlForm::PathAndQuery,
        notes:
            "parse_robots(body, &RobotsLimits::default(), None)?.allows(agent, path), given the \
                path and query. A User-agent value is matched as a case-insensitive substring of \
                the agent (the longest wins), so `User-agent: bot` applies to FooBot and an empty \
                `User-agent:` to every agent. An empty `Disallow:` is dropped before grouping, so \
                a group holding only that joins the next group's rules. A body over 500 KiB, \
                100,000 lines or 50,000 rules is refused (`error`), not truncated. Invalid UTF-8 \
                becomes U+FFFD; a lone CR does not end a line; non-ASCII is not percent-encoded \
                before matching; `%` then a hex digit then a multi-byte character panics \
                (`crash`). Wildcard matching backtracks: exponential in the number of `*` (8 \
                against a 60-byte path take ~16 s)."
                .to_string(),
    }
}

/// One check, as `robotstxt-rust-peers` asks it (the playground's module asks the same).
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    super::answer(robotstxt_rust_peers::sim_codec_robots_check(
        body, agent, url,
    ))
}
