//! What a downstream parser is: the [`Parser`] trait (a closure over body, agent and URL
//! implements it), answering an [`Answer`].

use robotstxt_oracle::Fetch;

use crate::answer::Answer;

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
