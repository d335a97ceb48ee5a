//! The literal mode: the oracle's definition, computed the slow and obvious way.
//!
//! `docs/profiles.md`: where a document leaves a choice open, every permitted alternative is a
//! reading, and the verdict is the set of their answers: `allowed` or `disallowed` when they all
//! agree, `either` when they do not. This module computes exactly that, in the order
//! [`mod@crate::verdict`] states (scope, the `/robots.txt` exemption, the fetch outcome, the body's
//! readings, the common answer), with:
//!
//! - as the readings, every combination of the alternatives of **every** knob the profile leaves
//!   open ([`ProfileId::every_open_knob`]) applied to the base reading ([`readings`]), whatever
//!   the input holds;
//! - as the reading of one reading, steps 1 to 7 one after another ([`allowed`]).
//!
//! Nothing is skipped and nothing is shared: no facts about the input choose the knobs, no step's
//! output is reused by another reading. The fast path ([`crate::fast`]) must answer what this
//! module answers, on every input; [`crate::crosscheck`] compares them. Both paths call the same
//! order and the same rule functions (`body`, `line`, `group`, `select`, `url`, `pattern`,
//! `decide`, `fetch`), so they differ only in which readings they try and how they share work.
//! It is slow (hundreds of readings of the whole input per request: 2 to the number of open knobs
//! and more, see [`readings`]) and total: it never panics.

use crate::aipref::{self, AiprefReading, Preference, StatementBounds};
use crate::body::{self, BodyKnobs};
use crate::decide;
use crate::group;
use crate::knobs::{Alternative, Erratum, Knobs, OpenKnob, ProfileId};
use crate::line::{self, LineKind};
use crate::pattern::{Pattern, PatternKnobs};
use crate::request::{HistoryRequest, Request};
use crate::select::{self, SelectKnobs};
use crate::url::{self, TargetKnobs};
use crate::verdict::{BeforeBody, Verdict};

/// One alternative a reading applies: the open knob, where the document leaves it open, and the
/// setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The knob's name (`docs/profiles.md`), as [`ProfileId::every_open_knob`] names it.
    pub knob: &'static str,
    /// Where the document leaves it open.
    pub citation: &'static str,
    /// The setting applied to the base reading.
    pub alternative: Alternative,
}

/// One reading a profile permits: the alternatives applied to its base reading (none for the
/// base reading itself) and the complete knobs they make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralReading {
    /// Each alternative applied, in the profile's knob order.
    pub applied: Vec<Applied>,
    /// The complete reading.
    pub knobs: Knobs,
}

impl LiteralReading {
    /// The reading's name: `base`, or each alternative it applies as `knob: setting in words
    /// (citation)`.
    pub fn name(&self) -> String {
        if self.applied.is_empty() {
            return "base".to_string();
        }
        let each: Vec<String> = self
            .applied
            .iter()
            .map(|a| {
                format!(
                    "{}: {} ({})",
                    a.knob,
                    crate::words::alternative(a.alternative),
                    a.citation
                )
            })
            .collect();
        each.join("; ")
    }
}

/// Where one answer of the literal mode came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The `/robots.txt` URI's exemption, with its citation (before the fetch outcome).
    Exemption(&'static str),
    /// The fetch outcome, with the citation that gives it (step 8, K15).
    Fetch(&'static str),
    /// The body, read under one reading.
    Reading(LiteralReading),
}

/// One answer the literal mode found: where it came from and whether it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The fetch outcome or the reading.
    pub source: Source,
    /// Whether the URL is allowed.
    pub allowed: bool,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = Verdict::from_allowed(self.allowed).name();
        match &self.source {
            Source::Exemption(citation) => {
                write!(f, "the /robots.txt URI's exemption ({citation}): {verdict}")
            }
            Source::Fetch(citation) => write!(f, "fetch outcome ({citation}): {verdict}"),
            Source::Reading(reading) => write!(f, "reading {}: {verdict}", reading.name()),
        }
    }
}

/// The literal verdict of `request` under `profile` (it stops reading once two answers differ).
pub fn verdict(profile: ProfileId, request: &Request<'_>) -> Verdict {
    verdict_of_readings(profile, request, readings)
}

/// The literal verdict of `request` under RFC 9309 read as `erratum` asks
/// ([`erratum_readings`]): what the verdict would be if the questioned line read as the erratum
/// says. A case depends on the erratum where this differs from [`verdict`] (`tests/citations.rs`).
pub fn verdict_under_erratum(erratum: &Erratum, request: &Request<'_>) -> Verdict {
    verdict_of_readings(ProfileId::Rfc9309, request, |_| erratum_readings(erratum))
}

/// The order ([`BeforeBody`]) with `readings`, each read through the steps by [`allowed`].
fn verdict_of_readings(
    profile: ProfileId,
    request: &Request<'_>,
    readings: impl FnOnce(ProfileId) -> Vec<LiteralReading>,
) -> Verdict {
    BeforeBody::of(profile, request).verdict(|| {
        readings(profile)
            .into_iter()
            .map(|reading| allowed(&reading.knobs, request))
    })
}

/// [`verdict`] under every profile, in [`ProfileId::ALL`] order.
pub fn verdicts_all(request: &Request<'_>) -> [Verdict; 4] {
    ProfileId::ALL.map(|profile| verdict(profile, request))
}

/// Every answer the file gives for `request` under `profile`: the fetch outcome's definite ones,
/// then, when the body is read, one per reading of [`readings`], in that order (step 0 aside: see
/// [`verdict`]).
pub fn answers(profile: ProfileId, request: &Request<'_>) -> Vec<Answer> {
    answers_lazily(profile, request, readings).collect()
}

/// The answers of [`answers`], each worked out when it is asked for.
fn answers_lazily<'r>(
    profile: ProfileId,
    request: &Request<'r>,
    readings: impl FnOnce(ProfileId) -> Vec<LiteralReading>,
) -> impl Iterator<Item = Answer> + 'r {
    let request = *request;
    let before = BeforeBody::of(profile, &request);
    let source = match before.exemption {
        Some(exemption) => Source::Exemption(exemption.citation),
        None => Source::Fetch(before.fetch_citation),
    };
    let from_fetch: Vec<Answer> = before
        .definite()
        .iter()
        .map(|&allowed| Answer {
            source: source.clone(),
            allowed,
        })
        .collect();
    // Steps 1 to 7 under every reading, when the body is read.
    let body_readings = if before.read_body() {
        readings(profile)
    } else {
        Vec::new()
    };
    let from_body = body_readings.into_iter().map(move |reading| Answer {
        allowed: allowed(&reading.knobs, &request),
        source: Source::Reading(reading),
    });
    from_fetch.into_iter().chain(from_body)
}

/// The literal answer of the `aipref` reading ([`aipref`]): which preference the file attaches to
/// the URL of `request` for its crawler and `category`. Step 0 and the fetch outcome first
/// ([`aipref::before_body`]); when the body is read, every reading RFC 9309 permits ([`readings`])
/// under each of the drafts' own alternatives ([`StatementBounds::ALL`]), whatever the input
/// holds, each run through the steps by [`aipref::under`]; the common preference, or `either`
/// (it stops reading once two answers differ).
pub fn preference(request: &Request<'_>, category: &str) -> Preference {
    let (before, read_body) = aipref::before_body(request);
    let body_readings = if read_body {
        readings(ProfileId::Rfc9309)
    } else {
        Vec::new()
    };
    let from_body = body_readings.into_iter().flat_map(|reading| {
        StatementBounds::ALL.map(|bounds| {
            let reading = AiprefReading {
                knobs: reading.knobs,
                bounds,
            };
            aipref::under(&reading, request, category).preference
        })
    });
    aipref::common(before.iter().map(|f| f.preference).chain(from_body))
}

/// The literal verdict of a question asked at a time after a history of fetches
/// (`crate::history`), under `profile`: the history's order ([`crate::verdict::history`]), each
/// fetch read as a single fetch by [`verdict`].
pub fn verdict_history(profile: ProfileId, request: &HistoryRequest<'_>) -> Verdict {
    crate::verdict::history(profile, request, |fetch| verdict(profile, fetch)).verdict
}

/// Every reading `profile` permits: its base reading with each combination of the alternatives of
/// every knob it leaves open (each knob at its base setting or at one of its alternatives).
pub fn readings(profile: ProfileId) -> Vec<LiteralReading> {
    readings_from(profile.base_knobs(), profile.every_open_knob())
}

/// Every reading of RFC 9309 as `erratum` reads it: the rows it closes left out, its settings
/// applied to every reading (`knobs::ERRATA`).
pub fn erratum_readings(erratum: &Erratum) -> Vec<LiteralReading> {
    let profile = ProfileId::Rfc9309;
    let open = profile
        .open_rows()
        .iter()
        .filter(|row| !erratum.closes.contains(&row.name))
        .map(|row| row.open_knob())
        .collect();
    let mut all = readings_from(profile.base_knobs(), open);
    for reading in &mut all {
        for setting in erratum.sets {
            reading.knobs = setting.apply(reading.knobs);
        }
    }
    all
}

/// The base reading `base` with each combination of the alternatives of the knobs `open` (the
/// base reading first).
pub fn readings_from(base: Knobs, open: Vec<OpenKnob>) -> Vec<LiteralReading> {
    let mut all = vec![LiteralReading {
        applied: Vec::new(),
        knobs: base,
    }];
    for knob in open {
        let mut with_knob = Vec::new();
        for reading in &all {
            // The knob at its base setting...
            with_knob.push(reading.clone());
            // ...and at each alternative.
            for alternative in knob.alternatives {
                let mut applied = reading.applied.clone();
                applied.push(Applied {
                    knob: knob.name,
                    citation: knob.citation,
                    alternative: *alternative,
                });
                with_knob.push(LiteralReading {
                    applied,
                    knobs: alternative.apply(reading.knobs),
                });
            }
        }
        all = with_knob;
    }
    all
}

/// Whether the URL of `request` is allowed by its body under one complete reading: steps 1 to 7,
/// one after another, each given the whole reading. A reading that holds deviations
/// (`docs/deviations.md`; no profile's does, a tool's question may) has each step read them: the
/// steps' `_deviating` forms are the document's step with the deviation's layer around it, and
/// equal the document's step under none.
pub fn allowed(knobs: &Knobs, request: &Request<'_>) -> bool {
    let deviations = knobs.deviations;
    // Step 5 (RFC 3986 3): the URL split into path and query, the fragment dropped.
    let split = url::split(request.url);
    // K10 (`rfc9309#2.2.2`): the robots.txt URI itself may be allowed before any rule is read.
    if decide::robots_txt_exempt(&split, knobs) {
        return true;
    }
    // Step 1 (K14 size limit, K12 byte-order mark, K7 charset): the octets to read.
    let (octets, _notes) = body::prepare_body(request.body, BodyKnobs::of(knobs));
    // Step 1 (`rfc9309#2.2` NL): the lines, at CR, LF or CRLF.
    let lines = body::split_lines_deviating(&octets, deviations);
    // Step 2 (K5 `Allow`, K13 line syntax and field spacing): what each line is.
    let kinds: Vec<LineKind<'_>> = lines
        .iter()
        .map(|line| {
            line::classify_deviating(line, knobs.allow_directive, knobs.field_spacing, deviations)
        })
        .collect();
    // Step 3 (K1 grouping, K2 rules outside groups): the groups.
    let groups = group::build_groups_deviating(&kinds, knobs.grouping, deviations);
    // Step 4 (K3): the groups that apply to the agent, and their rules.
    let selected = select::select_deviating(&groups.groups, request.agent, SelectKnobs::of(knobs));
    // K9 (`norobots-1994#format`, one reading): a record that gives no Disallow value allows all.
    if decide::empty_record_allows_all(selected.records(&groups.groups), knobs) {
        return true;
    }
    // Step 5 (K8 match target, K7 percent-encoding): what the patterns are matched against.
    let target = url::normalised_target_deviating(&split, TargetKnobs::of(knobs));
    // Step 6a (K6 `*` and `$`, K7 percent-encoding): each applicable rule's pattern.
    let rules: Vec<_> = selected
        .rules(&groups.groups)
        .map(|rule| {
            (
                rule,
                Pattern::compile_deviating(rule.value, PatternKnobs::of(knobs)),
            )
        })
        .collect();
    // Steps 6b and 7 (K4 precedence, K9 empty rules, K13 invalid patterns): the decision.
    decide::allows_deviating(
        rules.iter().map(|(rule, pattern)| (*rule, pattern)),
        &target,
        knobs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fetch;

    #[test]
    fn every_combination_of_every_open_knob_is_read() {
        for profile in ProfileId::ALL {
            let knobs = profile.every_open_knob();
            let expected: usize = knobs.iter().map(|k| k.alternatives.len() + 1).product();
            let all = readings(profile);
            assert_eq!(all.len(), expected, "{profile:?}");
            assert_eq!(all[0].knobs, profile.base_knobs());
            // Distinct names: no combination is read twice.
            let mut names: Vec<String> = all.iter().map(LiteralReading::name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), expected, "{profile:?}");
        }
        // Every profile leaves something open.
        assert!(ProfileId::ALL.iter().all(|p| readings(*p).len() > 1));
    }

    #[test]
    fn open_readings_give_either_and_closed_ones_a_verdict() {
        // RFC 9309 and the 1996 draft leave a versioned user-agent value open (K3).
        let request = Request::new(
            b"User-agent: googlebot/1.2\nDisallow: /\n",
            "googlebot",
            "/x",
        );
        assert_eq!(
            verdicts_all(&request),
            [
                Verdict::Either,
                Verdict::Disallowed,
                Verdict::Either,
                Verdict::Allowed
            ]
        );
        // K10: the robots.txt URI under RFC 9309, whatever the rules.
        let request = Request::new(b"User-agent: *\nDisallow: /\n", "a", "/robots.txt");
        assert_eq!(verdict(ProfileId::Rfc9309, &request), Verdict::Allowed);
    }

    #[test]
    fn the_fetch_outcome_answers_without_the_body() {
        let mut request = Request::new(b"User-agent: *\nDisallow: /\n", "a", "/x");
        request.fetch = Fetch::Status {
            status: 404,
            redirects: 0,
        };
        assert_eq!(answers(ProfileId::Rfc9309, &request).len(), 1);
        assert_eq!(verdict(ProfileId::Rfc9309, &request), Verdict::Allowed);
        // Too many redirects: allowed, or what the final status says (here the body: disallowed).
        request.fetch = Fetch::Status {
            status: 200,
            redirects: 6,
        };
        let all = answers(ProfileId::Rfc9309, &request);
        assert_eq!(all.len(), 1 + readings(ProfileId::Rfc9309).len());
        assert_eq!(verdict(ProfileId::Rfc9309, &request), Verdict::Either);
    }
}
