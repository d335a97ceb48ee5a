//! The fast path against the literal mode: the invariant that they answer alike, and, when they do
//! not, a report that names the readings behind the difference.
//!
//! The fast path ([`crate::verdict()`]) tries a knob's alternatives only where the input's facts
//! ([`crate::profile::InputFacts`]) say they can matter, and shares step outputs between readings
//! ([`crate::memo`]); [`crate::literal`] tries every reading and shares nothing. A difference is an
//! oracle bug: usually a fact that missed what makes a knob matter (the fast path then answers a
//! definite verdict where the literal mode answers `either`), else a step the memo composes
//! differently. The report lists the disagreeing readings, simplest first, and the knobs the
//! simplest of them apply that the fast path left closed for this input: the facts to look at first.

use std::fmt;

use crate::knobs::ProfileId;
use crate::literal::{self, Answer, Source};
use crate::request::{Fetch, Request};
use crate::Verdict;

/// How many disagreeing readings a report lists (the count of all of them is given).
const LISTED: usize = 12;

/// A request on which the fast path and the literal mode answer differently under one profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The profile.
    pub profile: ProfileId,
    /// The fast path's verdict.
    pub fast: Verdict,
    /// The literal mode's verdict.
    pub literal: Verdict,
    /// The request's body.
    pub body: Vec<u8>,
    /// The request's agent.
    pub agent: String,
    /// The request's URL.
    pub url: String,
    /// The request's fetch outcome.
    pub fetch: Fetch,
    /// The URL the body was fetched from, when the request gives it (step 0).
    pub robots_url: Option<String>,
    /// The knobs the fast path opened for this request.
    pub fast_open: Vec<&'static str>,
    /// The literal mode's answers that the fast verdict leaves out, the readings applying the fewest
    /// alternatives first.
    pub literal_only: Vec<String>,
    /// The fast path's readings whose answer the literal verdict leaves out (a composition bug).
    pub fast_only: Vec<String>,
    /// The knobs the fast path left closed that the simplest readings of `literal_only` (those
    /// applying the fewest alternatives) apply: where a fact missed something.
    pub missed_knobs: Vec<&'static str>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: the fast path answers {} but the literal mode answers {}",
            self.profile.name(),
            self.fast.name(),
            self.literal.name()
        )?;
        writeln!(
            f,
            "  request: fetch {:?}, agent {:?}, url {:?}, robots.txt url {:?}",
            self.fetch, self.agent, self.url, self.robots_url
        )?;
        writeln!(f, "  body: b\"{}\"", self.body.escape_ascii())?;
        writeln!(f, "  the fast path opened: {}", list(&self.fast_open))?;
        for (what, answers) in [
            (
                "literal answers the fast verdict leaves out",
                &self.literal_only,
            ),
            (
                "fast-path readings the literal verdict leaves out",
                &self.fast_only,
            ),
        ] {
            if answers.is_empty() {
                continue;
            }
            writeln!(f, "  {what} ({}):", answers.len())?;
            for answer in answers.iter().take(LISTED) {
                writeln!(f, "    {answer}")?;
            }
            if answers.len() > LISTED {
                writeln!(f, "    ... and {} more", answers.len() - LISTED)?;
            }
        }
        write!(
            f,
            "  closed knobs the simplest of those readings apply (a missed fact?): {}",
            list(&self.missed_knobs)
        )
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// Checks that `fast` (the fast path's verdicts of `request`, in [`ProfileId::ALL`] order) are the
/// literal mode's; the first profile where they differ is reported.
// A disagreement is rare (an oracle bug) and carries the request: boxing it would buy nothing.
#[allow(clippy::result_large_err)]
pub fn check(request: &Request<'_>, fast: &[Verdict; 4]) -> Result<(), Disagreement> {
    for profile in ProfileId::ALL {
        let fast = fast[profile.index()];
        let literal = literal::verdict(profile, request);
        if fast != literal {
            return Err(disagreement(profile, request, fast, literal));
        }
    }
    Ok(())
}

/// [`check`] under one profile, working out the fast path's verdict itself.
#[allow(clippy::result_large_err)]
pub fn check_profile(profile: ProfileId, request: &Request<'_>) -> Result<Verdict, Disagreement> {
    let fast = crate::verdict(profile, request);
    let literal = literal::verdict(profile, request);
    if fast == literal {
        Ok(fast)
    } else {
        Err(disagreement(profile, request, fast, literal))
    }
}

/// The report of a difference: every answer of each side that the other side's verdict leaves out.
fn disagreement(
    profile: ProfileId,
    request: &Request<'_>,
    fast: Verdict,
    literal: Verdict,
) -> Disagreement {
    let fast_open: Vec<&'static str> = profile
        .open_knobs(request)
        .iter()
        .map(|knob| knob.name)
        .collect();
    let outside = |verdict: Verdict, allowed: bool| {
        verdict != Verdict::Either && verdict != Verdict::from_allowed(allowed)
    };
    let mut literal_only: Vec<Answer> = literal::answers(profile, request)
        .into_iter()
        .filter(|answer| outside(fast, answer.allowed))
        .collect();
    // The simplest readings first: those applying the fewest alternatives say most.
    literal_only.sort_by_key(|answer| match &answer.source {
        Source::Exemption(_) | Source::Fetch(_) => 0,
        Source::Reading(reading) => reading.applied.len(),
    });
    let mut missed_knobs: Vec<&'static str> = Vec::new();
    if let Some(Source::Reading(simplest)) = literal_only.first().map(|a| &a.source) {
        let fewest = simplest.applied.len();
        for answer in &literal_only {
            if let Source::Reading(reading) = &answer.source {
                if reading.applied.len() > fewest {
                    break;
                }
                for applied in &reading.applied {
                    if !fast_open.contains(&applied.knob) && !missed_knobs.contains(&applied.knob) {
                        missed_knobs.push(applied.knob);
                    }
                }
            }
        }
    }
    let explained = crate::evaluate(profile, request);
    let base = explained
        .reading
        .iter()
        .map(|reading| ("base".to_string(), reading.allowed));
    let variants = explained.variants.iter().map(|v| {
        let applied: Vec<String> = v.applied.iter().map(ToString::to_string).collect();
        (applied.join("; "), v.verdict == Verdict::Allowed)
    });
    let fast_only = base
        .chain(variants)
        .filter(|&(_, allowed)| outside(literal, allowed))
        .map(|(name, allowed)| format!("reading {name}: {}", Verdict::from_allowed(allowed).name()))
        .collect();
    Disagreement {
        profile,
        fast,
        literal,
        body: request.body.to_vec(),
        agent: request.agent.to_string(),
        url: request.url.to_string(),
        fetch: request.fetch,
        robots_url: request.robots_url.map(str::to_string),
        fast_open,
        literal_only: literal_only.iter().map(ToString::to_string).collect(),
        fast_only,
        missed_knobs,
    }
}
