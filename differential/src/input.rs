//! What one execution asks.

use robotstxt_oracle::Request;

/// One fuzz input: a robots.txt body (any octets), a product token and an absolute URL.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    /// The body.
    pub body: Vec<u8>,
    /// The crawler's product token.
    pub agent: String,
    /// An absolute URL (`http://example.com/...`).
    pub url: String,
}

impl Input {
    /// The oracle's request for this input (a plain 200 fetch).
    pub fn request(&self) -> Request<'_> {
        Request::new(&self.body, &self.agent, &self.url)
    }
}
