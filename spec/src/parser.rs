//! What a downstream parser answers: the [`Parser`] trait (a closure over body, agent and URL
//! implements it) and its [`Answer`].

use std::fmt;

use robotstxt_oracle::{Fetch, Verdict};

/// A parser's answer to one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The URL may be crawled.
    Allowed,
    /// The URL may not be crawled.
    Disallowed,
    /// The parser cannot answer this input (the reason is shown); never agrees with a verdict.
    Unsupported(String),
    /// The parser panicked while answering (the panic's message): what the suite records when
    /// the closure or [`Parser::check`] panics. Never agrees, and never a divergence a ledger
    /// accepts: the check fails with the message and the case until the parser is fixed.
    Crash(String),
}

impl Answer {
    /// The answer's kind as ledgers write it: `allowed`, `disallowed` or `unsupported`
    /// (`crash` for a panic, which a ledger never lists).
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Allowed => "allowed",
            Answer::Disallowed => "disallowed",
            Answer::Unsupported(_) => "unsupported",
            Answer::Crash(_) => "crash",
        }
    }

    /// The verdict, when the parser gave one.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Answer::Allowed => Some(Verdict::Allowed),
            Answer::Disallowed => Some(Verdict::Disallowed),
            Answer::Unsupported(_) | Answer::Crash(_) => None,
        }
    }

    /// Whether the answer is what a profile expects ([`agrees`]): an unsupported answer never
    /// agrees.
    pub fn agrees(&self, expected: Verdict) -> bool {
        agrees(self.verdict(), expected)
    }
}

/// Whether an answer with `verdict` (`None`: the answer is no verdict) is what a profile expects:
/// `either` accepts both verdicts; an answer that is not a verdict never agrees. The one rule the
/// suite and the matrix judge by.
pub fn agrees(verdict: Option<Verdict>, expected: Verdict) -> bool {
    match verdict {
        Some(verdict) => expected == Verdict::Either || verdict == expected,
        None => false,
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Unsupported(reason) => write!(f, "unsupported ({reason})"),
            Answer::Crash(message) => write!(f, "crash (panicked: {message})"),
            other => f.write_str(other.kind()),
        }
    }
}

impl From<bool> for Answer {
    /// `true` is allowed, `false` disallowed.
    fn from(allowed: bool) -> Answer {
        if allowed {
            Answer::Allowed
        } else {
            Answer::Disallowed
        }
    }
}

/// A robots.txt parser under test.
///
/// A closure `Fn(&[u8], &str, &str) -> bool` (or `-> Answer`) implements it: body octets, the
/// crawler's product token and an absolute URL in, "may it crawl?" out. Implement the trait
/// yourself to answer fetch outcomes too.
pub trait Parser: Send + Sync {
    /// Whether `agent` may crawl `url` under `body`, a robots.txt file fetched with HTTP 200.
    fn check(&self, body: &[u8], agent: &str, url: &str) -> Answer;

    /// Whether the parser takes fetch outcomes other than a plain 200 (4xx, 5xx, redirects,
    /// unreachable). When `false` (the default), checks with such an outcome are ignored with the
    /// reason, never counted as passing.
    fn takes_fetch_outcomes(&self) -> bool {
        false
    }

    /// The answer after the fetch went as `fetch` says (called only when
    /// [`Parser::takes_fetch_outcomes`] is `true`; `body` is what came with it, possibly empty).
    fn check_fetch(&self, fetch: Fetch, body: &[u8], agent: &str, url: &str) -> Answer {
        let _ = fetch;
        self.check(body, agent, url)
    }
}

impl<F, R> Parser for F
where
    F: Fn(&[u8], &str, &str) -> R + Send + Sync,
    R: Into<Answer>,
{
    fn check(&self, body: &[u8], agent: &str, url: &str) -> Answer {
        self(body, agent, url).into()
    }
}
