//! A validated case: what the loader ([`super::load`]) gives for one file of the corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;

use robotstxt_oracle::history::Minutes;
use robotstxt_oracle::{Fetch, ProfileId, TimedFetch, Verdict};

use super::citation::Citation;

/// A validated case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable id derived from the path, e.g. `rfc9309/longest-match/allow-wins-tie`.
    pub id: String,
    /// The file it came from.
    pub path: PathBuf,
    /// One line: what the case shows.
    pub title: String,
    /// Citations.
    pub cite: Vec<Citation>,
    /// Tags.
    pub tags: Vec<String>,
    /// RFC 9309 statement ids it tests.
    pub covers: Vec<String>,
    /// Free text.
    pub note: Option<String>,
    /// The body's octets.
    pub body: Vec<u8>,
    /// How the fetch went.
    pub fetch: Fetch,
    /// The URL the body was fetched from, when the case gives it (then every check's URL is
    /// absolute).
    pub robots_url: Option<String>,
    /// A history of fetches, in time order (then `body` is empty, `fetch` the default, and every
    /// check has its time `at`); empty for a case of one fetch.
    pub fetches: Vec<CaseFetch>,
    /// The checks, numbered from 1 (none in a case that asks the `aipref` question).
    pub checks: Vec<Check>,
    /// The `aipref` checks, numbered from 1: which preference applies (`docs/profiles.md`, "The
    /// `aipref` reading"); a case asks either these or `checks`, never both.
    pub preferences: Vec<PreferenceCheck>,
}

/// One validated `aipref` check: for the agent, the URL and a category of use, the preference the
/// `aipref` reading expects.
#[derive(Debug, Clone)]
pub struct PreferenceCheck {
    /// 1-based position in the case.
    pub number: usize,
    /// The crawler's product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The category of use, e.g. `train-ai`.
    pub category: String,
    /// The expected preference.
    pub expect: robotstxt_oracle::aipref::Preference,
    /// Free text.
    pub note: Option<String>,
}

/// One validated check.
#[derive(Debug, Clone)]
pub struct Check {
    /// 1-based position in the case.
    pub number: usize,
    /// The crawler's product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The expected verdict per profile (every profile present).
    pub expect: BTreeMap<ProfileId, Verdict>,
    /// When the check is asked, in minutes (only in a case with a history of fetches).
    pub at: Option<Minutes>,
    /// Free text.
    pub note: Option<String>,
}

/// One fetch of a case's history.
#[derive(Debug, Clone)]
pub struct CaseFetch {
    /// When, in minutes from the start of the history.
    pub at: Minutes,
    /// How it went.
    pub fetch: Fetch,
    /// The body's octets (empty when none came).
    pub body: Vec<u8>,
}

impl Case {
    /// The history as the oracle takes it.
    pub fn timed_fetches(&self) -> Vec<TimedFetch<'_>> {
        self.fetches
            .iter()
            .map(|f| TimedFetch {
                at: f.at,
                fetch: f.fetch,
                body: &f.body,
            })
            .collect()
    }

    /// The documents this case cites, each once.
    pub fn documents(&self) -> Vec<&'static str> {
        let mut docs: Vec<&'static str> = self.cite.iter().map(|c| c.document).collect();
        docs.sort();
        docs.dedup();
        docs
    }
}
