//! A suite's parser as an adapter: the test binary speaks `adapters/PROTOCOL.md`
//! (`robotstxt-adapter/1`) on its standard input and output when [`SERVE_VAR`] is `1`, so that a
//! parser certified through this crate can be fuzzed, fingerprinted, run on real files and
//! certified by `robotstxt-conformance` with no protocol program written by hand:
//!
//! ```sh
//! cargo test --test robotstxt-spec --no-run     # build it first: the handshake is awaited 30 s
//! robotstxt-conformance fuzz --adapter-command \
//!   'mine = env ROBOTSTXT_SPEC_ADAPTER=1 cargo test -q --test robotstxt-spec'
//! ```
//!
//! [`crate::Suite::run`] does it; the same parser, asked the same questions, gives the same
//! answers as in the suite (a panic is its `crash` answer, `panicked: <message>`).
//!
//! The wire format is the protocol's (the repository's `adapters/src/protocol.rs` is the client's
//! side; `tests/spec_adapter.rs` drives this server with that client).

use std::io::{BufRead, Write};

use base64::Engine as _;
use robotstxt_oracle::{Fetch, ProfileId};
use serde::Deserialize;

use crate::answer::Answer;
use crate::parser::Parser;

/// The environment variable that makes [`crate::Suite::run`] serve the protocol instead of
/// running the tests: `1` to serve.
pub const SERVE_VAR: &str = "ROBOTSTXT_SPEC_ADAPTER";

/// The protocol's name and version (`adapters/PROTOCOL.md`).
pub const PROTOCOL_VERSION: &str = "robotstxt-adapter/1";

/// Whether the environment asks the test binary to serve the protocol ([`SERVE_VAR`] is `1`).
pub fn requested() -> bool {
    std::env::var_os(SERVE_VAR).is_some_and(|v| v == "1")
}

/// Who the served parser says it is: its name (the suite's), the profile it claims (the suite's
/// first), and what cargo says of the crate under test when cargo runs the binary
/// (`CARGO_PKG_VERSION`, `CARGO_PKG_LICENSE`).
#[derive(Clone, Debug)]
pub struct Served {
    /// The adapter id and library name.
    pub name: String,
    /// The profile it claims.
    pub profile: ProfileId,
}

impl Served {
    /// The handshake line's JSON.
    fn handshake(&self, parser: &dyn Parser) -> serde_json::Value {
        let cargo = |var: &str| std::env::var(var).ok().filter(|v| !v.is_empty());
        serde_json::json!({
            "protocol": PROTOCOL_VERSION,
            "id": self.name,
            "library": cargo("CARGO_PKG_NAME").unwrap_or_else(|| self.name.clone()),
            "version": cargo("CARGO_PKG_VERSION").unwrap_or_else(|| "unknown".to_string()),
            "language": "Rust",
            "licence": cargo("CARGO_PKG_LICENSE").unwrap_or_else(|| "unknown".to_string()),
            "source": "its own robotstxt-spec suite (ROBOTSTXT_SPEC_ADAPTER=1)",
            "profile": self.profile.name(),
            "capabilities": {
                "fetch_status": parser.takes_fetch_outcomes(),
                "multiple_agents": false,
            },
            "url": "full",
            "notes": "the parser of a robotstxt-spec suite, served by its test binary",
        })
    }
}

/// One request on the wire.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    body_base64: Option<String>,
    checks: Vec<WireCheck>,
}

/// One check on the wire.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireCheck {
    agent: String,
    url: String,
    #[serde(default)]
    fetch: Option<Fetch>,
}

impl Request {
    /// The body's octets.
    fn body(&self) -> Result<Vec<u8>, String> {
        match (&self.body, &self.body_base64) {
            (Some(text), None) => Ok(text.as_bytes().to_vec()),
            (None, Some(encoded)) => base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map_err(|e| format!("body_base64 is not base64: {e}")),
            _ => Err("a request carries exactly one of body and body_base64".to_string()),
        }
    }
}

/// Writes the handshake, then answers each request's checks in order, each line flushed as soon
/// as it is known, until `input` ends. A malformed request is answered with one `error`, as check
/// 0 (how many checks it held cannot be known).
pub fn serve(
    served: &Served,
    parser: &dyn Parser,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    write_line(&mut output, &served.handshake(parser))?;
    for line in input.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let request: Request = match serde_json::from_slice(&line) {
            Ok(request) => request,
            Err(e) => {
                let answer = Answer::Error {
                    message: format!("malformed request: {e}"),
                };
                write_line(&mut output, &response(0, &answer))?;
                continue;
            }
        };
        let body = request.body();
        for (index, check) in request.checks.iter().enumerate() {
            let answer = match &body {
                Ok(body) => {
                    let fetch = check.fetch.unwrap_or_default();
                    match crate::ask::ask_raw(parser, fetch, body, &check.agent, &check.url) {
                        // `timeout` is the runner's answer, not an adapter's.
                        Answer::Timeout { message } => Answer::Error {
                            message: format!("timeout: {message}"),
                        },
                        answer => answer,
                    }
                }
                Err(message) => Answer::Error {
                    message: message.clone(),
                },
            };
            write_line(&mut output, &response(index, &answer))?;
        }
    }
    Ok(())
}

/// A response line's JSON: `{"check": index, "answer": ..., ...}`.
fn response(index: usize, answer: &Answer) -> serde_json::Value {
    let mut value = serde_json::to_value(answer).expect("an answer serialises");
    value["check"] = index.into();
    value
}

/// Writes one JSON line and flushes.
fn write_line(output: &mut impl Write, value: &serde_json::Value) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(value).map_err(std::io::Error::other)?;
    line.push(b'\n');
    output.write_all(&line)?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_each_check_in_order_with_the_handshake_first() {
        let parser = |body: &[u8], agent: &str, url: &str| -> Answer {
            if agent == "PanicBot" {
                panic!("boom");
            }
            Answer::from_allowed(body.is_empty() || url.ends_with("/open") || agent == "x")
        };
        let served = Served {
            name: "toy".to_string(),
            profile: ProfileId::Google,
        };
        let input = concat!(
            r#"{"body":"User-agent: *\nDisallow: /\n","checks":[{"agent":"a","url":"http://e.com/open"},{"agent":"a","url":"http://e.com/shut"}]}"#,
            "\n",
            r#"{"body_base64":"/w==","checks":[{"agent":"PanicBot","url":"http://e.com/"}]}"#,
            "\n",
            "not json\n",
        );
        let mut out = Vec::new();
        serve(&served, &parser, input.as_bytes(), &mut out).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["protocol"], PROTOCOL_VERSION);
        assert_eq!(lines[0]["id"], "toy");
        assert_eq!(lines[0]["profile"], "google");
        assert_eq!(lines[0]["capabilities"]["fetch_status"], false);
        assert_eq!(
            lines[1],
            serde_json::json!({"check": 0, "answer": "allowed"})
        );
        assert_eq!(
            lines[2],
            serde_json::json!({"check": 1, "answer": "disallowed"})
        );
        assert_eq!(lines[3]["check"], 0);
        assert_eq!(lines[3]["answer"], "crash");
        assert_eq!(lines[3]["message"], "panicked: boom");
        assert_eq!(lines[4]["answer"], "error");
        assert!(lines[4]["message"]
            .as_str()
            .unwrap()
            .starts_with("malformed request"));
        assert_eq!(lines.len(), 5);
    }
}
