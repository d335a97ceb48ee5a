//! The Rust robots.txt parsers the suite runs, each behind one function: the body, the crawler's
//! product token and the absolute URL in, `Ok(allowed)` or the parser's own error out. The
//! adapters (`robotstxt-adapters`, `inprocess/`) call these in process for `run`; compiled to
//! `wasm32-unknown-unknown` ([`wasm`], the site's `peers-wasm.js`), the same functions answer in
//! the playground, so what the page shows for a pasted body is what `run` would record.
//!
//! A panic is the caller's to catch: the adapters catch it as a `crash`; in the browser it traps
//! the module, which the page reports as a crash and starts afresh.

use std::borrow::Cow;
use std::cell::OnceCell;

/// One parser: its adapter id and how it is asked.
pub struct Peer {
    /// The adapter id (`robotstxt`, `texting-robots`, ...).
    pub id: &'static str,
    /// One check: the body, the agent, the absolute URL.
    pub check: fn(&Body<'_>, &str, &str) -> Result<bool, String>,
}

/// Every parser, in the adapters' report order.
pub const PEERS: [Peer; 6] = [
    Peer {
        id: "robotstxt",
        check: robotstxt_check,
    },
    Peer {
        id: "texting-robots",
        check: texting_robots_check,
    },
    Peer {
        id: "robotxt",
        check: robotxt_check,
    },
    Peer {
        id: "sim-codec-robots",
        check: sim_codec_robots_check,
    },
    Peer {
        id: "robots-txt",
        check: robots_txt_check,
    },
    Peer {
        id: "fast-robots",
        check: fast_robots_check,
    },
];

/// The parser with adapter id `id`.
pub fn peer(id: &str) -> Option<&'static Peer> {
    PEERS.iter().find(|p| p.id == id)
}

/// `robotstxt` 0.3.0: `DefaultMatcher::one_agent_allowed_by_robots(body, agent, url)`, given the
/// full URL, the body as text (invalid UTF-8 replaced with U+FFFD).
pub fn robotstxt_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    let mut matcher = robotstxt::DefaultMatcher::default();
    Ok(matcher.one_agent_allowed_by_robots(body.text(), agent, url))
}

/// `texting_robots` 0.2.2: `Robot::new(agent, octets)`, then `allowed(url)`; a body it refuses is
/// its error.
pub fn texting_robots_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    texting_robots::Robot::new(agent, body.octets())
        .map(|robot| robot.allowed(url))
        .map_err(|e| format!("{e:#}"))
}

/// `robotxt` 0.7.0: `Robots::parse(octets, agent)`, then `is_allowed(path and query)`.
pub fn robotxt_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    let robots = robotxt::Robots::parse(body.octets(), agent);
    Ok(robots.is_allowed(&path_and_query(url)))
}

/// `sim-codec-robots` 0.2.0: `parse_robots(octets, defaults)`, then `allows(agent, path and
/// query)`; a body it refuses is its error.
pub fn sim_codec_robots_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    sim_codec_robots::parse_robots(body.octets(), &Default::default(), None)
        .map(|doc| doc.allows(agent, &path_and_query(url)))
        .map_err(|e| e.to_string())
}

/// `robots_txt` 0.7.0: `Robots::from_str_lossy(text)`, the section chosen for the agent, its rules
/// matched by `SimpleMatcher::check_path(path and query)`.
pub fn robots_txt_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    let robots = robots_txt::Robots::from_str_lossy(body.text());
    let matcher = robots_txt::matcher::SimpleMatcher::new(&robots.choose_section(agent).rules);
    Ok(matcher.check_path(&path_and_query(url)))
}

/// `fast-robots` 0.1.5: `RobotsTxt::parse(text)`, then `is_allowed(agent, path and query)`.
pub fn fast_robots_check(body: &Body<'_>, agent: &str, url: &str) -> Result<bool, String> {
    let robots = fast_robots::RobotsTxt::parse(body.text());
    Ok(robots.is_allowed(agent, &path_and_query(url)))
}

/// The path and query of an absolute URL (RFC 3986 split, octet for octet, fragment dropped), for
/// libraries that take a path rather than a URL.
pub fn path_and_query(url: &str) -> String {
    let split = robotstxt_oracle::url::split(url);
    let mut out = String::from_utf8_lossy(split.path).into_owned();
    if let Some(query) = split.query {
        out.push('?');
        out.push_str(&String::from_utf8_lossy(query));
    }
    out
}

/// A body as the parsers are given it: its octets, and its text for the libraries that take `&str`
/// (invalid UTF-8 becomes U+FFFD). The text is converted on first use and shared by every parser
/// asked about the same body, so a run converts each body once.
pub struct Body<'a> {
    octets: &'a [u8],
    text: OnceCell<Cow<'a, str>>,
}

impl<'a> Body<'a> {
    /// The body `octets`, not yet converted.
    pub fn new(octets: &'a [u8]) -> Body<'a> {
        Body {
            octets,
            text: OnceCell::new(),
        }
    }

    /// The octets, as received.
    pub fn octets(&self) -> &'a [u8] {
        self.octets
    }

    /// The octets as text, each invalid UTF-8 sequence replaced with U+FFFD.
    pub fn text(&self) -> &str {
        self.text
            .get_or_init(|| String::from_utf8_lossy(self.octets))
    }
}

/// The host a URL written as a bare path is put on, as `run` puts it (`robotstxt-spec`'s
/// `verify::absolute_url`, which a test of the adapters checks this against).
pub const DEFAULT_ORIGIN: &str = "http://example.com";

/// A URL as the parsers get it: an absolute URL as it is, a path (`/x`) on [`DEFAULT_ORIGIN`].
pub fn absolute_url(url: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") {
        format!("{DEFAULT_ORIGIN}{url}")
    } else {
        url.to_string()
    }
}

/// Parser `index`'s answer to a JSON question (`{"agent": ..., "url": ...}`) about `body`, as
/// JSON, the URL made absolute as `run` makes it ([`absolute_url`]): `{"answer": "allowed"}`, `{"answer": "disallowed"}`, `{"answer": "error", "message":
/// ...}`; a malformed question or index is an `error` naming it. What the playground's module
/// returns (a panic is left to the caller).
pub fn answer_json(index: usize, body: &[u8], question: &[u8]) -> String {
    let answer = match (
        PEERS.get(index),
        serde_json::from_slice::<serde_json::Value>(question),
    ) {
        (None, _) => Err(format!("no parser at {index}")),
        (_, Err(e)) => Err(format!("the question is not JSON: {e}")),
        (Some(peer), Ok(q)) => match (q["agent"].as_str(), q["url"].as_str()) {
            (Some(agent), Some(url)) => (peer.check)(&Body::new(body), agent, &absolute_url(url)),
            _ => Err("the question needs the strings `agent` and `url`".to_string()),
        },
    };
    match answer {
        Ok(true) => serde_json::json!({ "answer": "allowed" }),
        Ok(false) => serde_json::json!({ "answer": "disallowed" }),
        Err(message) => serde_json::json!({ "answer": "error", "message": message }),
    }
    .to_string()
}

#[cfg(target_arch = "wasm32")]
pub mod wasm;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_peer_answers_a_plain_question() {
        let body = Body::new(b"User-agent: *\nDisallow: /private\n");
        for peer in &PEERS {
            assert_eq!(
                (peer.check)(&body, "FooBot", "https://example.com/private/x"),
                Ok(false),
                "{}",
                peer.id
            );
            assert_eq!(
                (peer.check)(&body, "FooBot", "https://example.com/public"),
                Ok(true),
                "{}",
                peer.id
            );
        }
        assert_eq!(path_and_query("https://a.example/p?q#f"), "/p?q");
    }
}
