//! What the oracle is asked: a body, an agent, a URL, how the fetch went and, when known, the URL
//! the body was fetched from.

use serde::{Deserialize, Serialize};

/// How fetching `/robots.txt` went (`rfc9309#2.3.1`, `google#status-codes`, `draft-1996#3.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Fetch {
    /// An HTTP status, reached after `redirects` redirect hops.
    Status {
        /// The final status code.
        status: u16,
        /// Redirect hops followed before it.
        redirects: u32,
    },
    /// No response at all: DNS failure, timeout, reset connection.
    Unreachable,
}

impl Default for Fetch {
    fn default() -> Self {
        Fetch::Status {
            status: 200,
            redirects: 0,
        }
    }
}

/// One question for the oracle.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The robots.txt body, any octets.
    pub body: &'a [u8],
    /// The crawler's product token.
    pub agent: &'a str,
    /// An absolute URL or an absolute path, taken octet for octet.
    pub url: &'a str,
    /// How the fetch went.
    pub fetch: Fetch,
    /// The URL the body was fetched from, when known: then step 0 ([`crate::scope`]) first decides
    /// whether this file governs `url` at all. `None`: the file governs the URL, as asked.
    pub robots_url: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request for a successfully fetched body.
    pub fn new(body: &'a [u8], agent: &'a str, url: &'a str) -> Self {
        Request {
            body,
            agent,
            url,
            fetch: Fetch::default(),
            robots_url: None,
        }
    }

    /// The same request, with the URL the body was fetched from (an absolute URL such as
    /// `https://example.com/robots.txt`).
    pub fn with_robots_url(self, robots_url: &'a str) -> Self {
        Request {
            robots_url: Some(robots_url),
            ..self
        }
    }

    /// The same request, with how the fetch went.
    pub fn with_fetch(self, fetch: Fetch) -> Self {
        Request { fetch, ..self }
    }
}

/// A time in a history of fetches: minutes from its start (`crate::history` counts in them).
pub type Minutes = u64;

/// One robots.txt fetch of a history: when it was made, how it went and the body it returned.
#[derive(Clone, Copy, Debug)]
pub struct TimedFetch<'a> {
    /// When, in minutes from the start of the history.
    pub at: Minutes,
    /// How it went.
    pub fetch: Fetch,
    /// The body, any octets (empty when none came).
    pub body: &'a [u8],
}

/// A question asked at a time, after a history of robots.txt fetches (`crate::history`).
#[derive(Clone, Copy, Debug)]
pub struct HistoryRequest<'a> {
    /// Every fetch of `/robots.txt` the crawler made, in time order.
    pub fetches: &'a [TimedFetch<'a>],
    /// The crawler's product token.
    pub agent: &'a str,
    /// An absolute URL or an absolute path, taken octet for octet.
    pub url: &'a str,
    /// When the question is asked, in minutes from the start of the history.
    pub at: Minutes,
    /// The URL the bodies were fetched from, when known (step 0, [`crate::scope`]).
    pub robots_url: Option<&'a str>,
}

impl<'a> HistoryRequest<'a> {
    /// The single-fetch request fetch number `n` of the history makes for this question.
    pub fn request(&self, n: usize) -> Request<'a> {
        let fetch = &self.fetches[n];
        Request::new(fetch.body, self.agent, self.url).with_fetch(fetch.fetch)
    }
}
