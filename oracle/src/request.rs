//! What the oracle is asked: a body, an agent, a URL and how the fetch went.

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
}

impl<'a> Request<'a> {
    /// A request for a successfully fetched body.
    pub fn new(body: &'a [u8], agent: &'a str, url: &'a str) -> Self {
        Request {
            body,
            agent,
            url,
            fetch: Fetch::default(),
        }
    }
}
