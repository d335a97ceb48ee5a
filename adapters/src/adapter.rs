//! The one interface every parser is seen through.

use robotstxt_oracle::{Fetch, ProfileId};
use serde::{Deserialize, Serialize};

/// An adapter's answer to one check: the one answer model, defined in `robotstxt-spec` (the suite
/// a downstream parser runs gets the same answers); its JSON is the wire protocol's
/// (`adapters/PROTOCOL.md`).
pub use robotstxt_spec::Answer;

/// A robots.txt parser the suite can ask questions.
///
/// Implementations answer every query, in order, and never panic across this boundary: a parser
/// failure is an [`Answer`] (`error`, `crash`, `timeout`), not an unwinding of the caller.
pub trait Adapter: Send {
    /// Who this parser is and what it can do.
    fn identity(&self) -> &Identity;

    /// Answers `queries` about one robots.txt `body`: one answer per query, in order.
    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer>;

    /// Answers many (body, queries) items: for each item, what [`Adapter::answer`] would give. A
    /// subprocess adapter pipelines them (one round trip for all); the default asks item by item.
    fn answer_many(&mut self, items: &[(&[u8], &[Query])]) -> Vec<Vec<Answer>> {
        items
            .iter()
            .map(|(body, queries)| self.answer(body, queries))
            .collect()
    }

    /// A time after which an adapter process is no longer waited for: checks still unanswered
    /// then get a `timeout` answer at once, marked as not asked
    /// ([`crate::subprocess::is_not_asked`]). `fuzz --seconds` sets it; in-process parsers
    /// ignore it (the default).
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        let _ = deadline;
    }

    /// The CPU time its processes have used so far (user and system, every process it started
    /// and restarted), when it runs in processes of its own and the system says (Linux); `None`
    /// for a parser called in this process. `realworld` schedules by it.
    fn cpu_time(&self) -> Option<std::time::Duration> {
        None
    }
}

/// Who a parser is: reported in results, the matrix and the ledgers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The stable adapter id (`google-cpp`, `py-protego`, ...).
    pub id: String,
    /// The library's own name (`robotstxt`, `protego`, `urllib.robotparser`, ...).
    pub library: String,
    /// Its exact version.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// Its licence (SPDX where there is one).
    pub licence: String,
    /// Where it came from: registry, package and pin.
    pub source: String,
    /// The profile the library says it follows.
    pub profile: ProfileId,
    /// What it can be asked.
    pub capabilities: Capabilities,
    /// What the library is given of each check's URL.
    pub url: UrlForm,
    /// Anything a reader of the results should know (argument order, implicit rules, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

/// What an adapter can be asked beyond "is this URL allowed for this agent".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// It takes the outcome of fetching robots.txt (HTTP status, redirects, unreachable).
    #[serde(default)]
    pub fetch_status: bool,
    /// It can be asked about several user agents at once (not used by the corpus yet).
    #[serde(default)]
    pub multiple_agents: bool,
    /// It answers `aipref` checks: which usage preference a file's `Content-Usage` lines attach to
    /// a URL for an agent and a category of use (`y`, `n` or `none`; `adapters/PROTOCOL.md`).
    #[serde(default)]
    pub preferences: bool,
}

/// What a library is handed of a check's URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UrlForm {
    /// The absolute URL, as the case gives it.
    Full,
    /// The path and query (RFC 3986 split, no normalisation), for libraries that take a path.
    PathAndQuery,
}

/// One check put to an adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The crawler's product token.
    pub agent: String,
    /// The absolute URL (adapters taking a path use [`path_and_query`]).
    pub url: String,
    /// How fetching robots.txt went (the default is a plain 200).
    pub fetch: Fetch,
    /// For an `aipref` check, the category of use asked about (`train-ai`): the answer is then a
    /// preference ([`Answer::Preference`]), not a verdict. Only adapters with the `preferences`
    /// capability are asked such checks.
    pub category: Option<String>,
}

impl Query {
    /// A query about a successfully fetched body.
    pub fn new(agent: impl Into<String>, url: impl Into<String>) -> Query {
        Query {
            agent: agent.into(),
            url: url.into(),
            fetch: Fetch::default(),
            category: None,
        }
    }

    /// An `aipref` query: which usage preference applies to `url` for `agent` and `category`.
    pub fn preference(
        agent: impl Into<String>,
        url: impl Into<String>,
        category: impl Into<String>,
    ) -> Query {
        Query {
            category: Some(category.into()),
            ..Query::new(agent, url)
        }
    }
}

/// Why an adapter cannot be used here, and the command that fixes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unavailable {
    /// The adapter id.
    pub id: String,
    /// What is missing.
    pub reason: String,
    /// What to run to make it available.
    pub fix: String,
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is unavailable: {}", self.id, self.reason)?;
        if !self.fix.is_empty() {
            write!(f, " (fix: {})", self.fix)?;
        }
        Ok(())
    }
}

/// The path and query of an absolute URL, and the body as the in-process parsers are given it:
/// the Rust parsers' crate's (`robotstxt-rust-peers`), which the playground's module shares.
pub use robotstxt_rust_peers::{path_and_query, Body};
