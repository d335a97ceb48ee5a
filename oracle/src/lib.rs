//! A reference robots.txt oracle, written straight from the documents: RFC 9309, Google's
//! interpretation, Koster's 1996 draft and the 1994 standard.
//!
//! Clear before fast: each step of the pipeline is a module named after what it does, each rule a
//! function citing its section; the differences between documents are the named knobs of
//! [`knobs`]. The oracle is pure and total: any octets, agent and URL give a [`Verdict`] and an
//! [`Explanation`]; it does no I/O, never panics and matches in polynomial time.
//!
//! Two paths give the same verdicts. The definition is [`literal`]: every combination of every
//! alternative a document leaves open, each reading run through the steps one after another. The
//! fast path ([`evaluate`], [`verdict()`], [`verdicts_all`]) tries a knob's alternatives only where
//! the input's facts say they can matter ([`relevance::InputFacts`]) and shares step outputs between
//! readings ([`memo`]). [`crosscheck`] compares them; the corpus tests, a property test on 100,000
//! generated inputs and the fuzzer check that they agree.
//!
//! ```
//! use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};
//! let body = b"User-agent: *\nDisallow: /private\nAllow: /private/public\n";
//! let answer = evaluate(ProfileId::Rfc9309, &Request::new(body, "ExampleBot", "/private/public/x"));
//! assert_eq!(answer.verdict, Verdict::Allowed);
//! ```

pub mod aipref;
#[cfg(feature = "cause")]
pub mod behaviour;
pub mod body;
#[cfg(feature = "cause")]
pub mod cause;
#[cfg(feature = "crosscheck")]
pub mod crosscheck;
pub mod decide;
pub mod deviation;
pub mod encoding;
#[cfg(feature = "cause")]
pub mod evidence;
#[cfg(feature = "cause")]
pub mod examine;
pub mod explain;
pub mod fast;
pub mod fetch;
pub mod group;
pub mod history;
pub mod knobs;
pub mod line;
pub mod literal;
pub mod memo;
pub mod pattern;
pub mod preference;
pub mod profile;
pub mod reading_table;
pub mod relevance;
pub mod request;
pub mod scope;
pub mod select;
pub mod url;
pub mod verdict;
pub mod words;

pub use deviation::{Deviation, Deviations};
pub use explain::{AppliedAlternative, Explanation, HistoryNote, Reading, VariantOutcome};
pub use knobs::{Knobs, ProfileId};
pub use request::{Fetch, HistoryRequest, Request, TimedFetch};
pub use scope::{Governs, Scope};
pub use verdict::Verdict;

pub use fast::{
    evaluate, evaluate_all, evaluate_history, first_knob_differing, verdict, verdict_deviating,
    verdict_history, verdicts, verdicts_all, verdicts_as_needed, verdicts_as_needed_on_one_body,
    verdicts_on_one_body, Known, Needed,
};
pub use preference::{evaluate_preference, preference, PreferenceExplanation};

#[cfg(test)]
mod tests;
