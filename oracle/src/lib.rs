//! A reference robots.txt oracle, written straight from the documents: RFC 9309, Google's
//! interpretation, Koster's 1996 draft and the 1994 standard.
//!
//! Clear before fast: each step of the pipeline is a module named after what it does, each rule a
//! function citing its section; the differences between documents are the named knobs of
//! [`profile`]. The oracle is pure and total: any octets, agent and URL give a [`Verdict`] and an
//! [`Explanation`]; it does no I/O, never panics and matches in polynomial time.
//!
//! ```
//! use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};
//! let body = b"User-agent: *\nDisallow: /private\nAllow: /private/public\n";
//! let answer = evaluate(ProfileId::Rfc9309, &Request::new(body, "ExampleBot", "/private/public/x"));
//! assert_eq!(answer.verdict, Verdict::Allowed);
//! ```

pub mod body;
pub mod decide;
pub mod encoding;
pub mod explain;
pub mod fetch;
pub mod group;
pub mod line;
pub mod pattern;
pub mod profile;
pub mod request;
pub mod select;
pub mod url;

pub use explain::{Explanation, Reading, VariantOutcome};
pub use profile::{Knobs, ProfileId};
pub use request::{Fetch, Request};

use serde::{Deserialize, Serialize};

/// The oracle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The URL may be crawled.
    Allowed,
    /// The URL may not be crawled.
    Disallowed,
    /// The document permits either answer.
    Either,
}

impl Verdict {
    /// The verdict's name as cases and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
            Verdict::Either => "either",
        }
    }

    fn from_allowed(allowed: bool) -> Verdict {
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    }
}

/// Evaluates one request under one profile: the verdict and how it was reached.
pub fn evaluate(profile: ProfileId, request: &Request<'_>) -> Explanation {
    evaluate_given(profile, request, None)
}

/// [`evaluate`] with the input's facts already gathered (see [`evaluate_all`]).
fn evaluate_given(
    profile: ProfileId,
    request: &Request<'_>,
    facts: Option<&profile::InputFacts>,
) -> Explanation {
    let (effect, fetch_citation) = fetch::fetch_effect(profile, request.fetch);
    let mut outcomes = Vec::new();
    collect_fetch_outcomes(&effect, &mut outcomes);
    let needs_body = outcomes.iter().any(Option::is_none);
    let mut readings: Vec<(Vec<String>, Reading)> = Vec::new();
    if needs_body {
        // Gathered only when the body is read (a 404 never looks at it).
        let owned;
        let facts = match facts {
            Some(facts) => facts,
            None => {
                owned = profile::InputFacts::of(request);
                &owned
            }
        };
        let variants = variants(profile, facts);
        // Step 1 depends on three knobs only: prepare each distinct body once, not once per reading.
        let body_key = |k: &Knobs| (k.size_limit, k.bom, k.charset);
        let mut prepared: Vec<(_, std::borrow::Cow<'_, [u8]>, body::BodyNotes)> = Vec::new();
        for (_, knobs) in &variants {
            if !prepared.iter().any(|(key, _, _)| *key == body_key(knobs)) {
                let (octets, notes) = body::prepare_body(request.body, knobs);
                prepared.push((body_key(knobs), octets, notes));
            }
        }
        let lines: Vec<Vec<body::Line<'_>>> = prepared
            .iter()
            .map(|(_, octets, _)| body::split_lines(octets))
            .collect();
        for (index, (applied, knobs)) in variants.into_iter().enumerate() {
            let at = prepared
                .iter()
                .position(|(key, _, _)| *key == body_key(&knobs))
                .expect("prepared above");
            // Only the base reading is explained; the alternatives contribute their verdicts.
            let detail = index == 0;
            let reading = read_lines(request, &knobs, &lines[at], prepared[at].2.clone(), detail);
            readings.push((applied, reading));
        }
    }
    let mut verdicts: Vec<bool> = outcomes.iter().flatten().copied().collect();
    verdicts.extend(readings.iter().map(|(_, r)| r.allowed));
    let verdict = if verdicts.iter().all(|&a| a == verdicts[0]) {
        Verdict::from_allowed(verdicts[0])
    } else {
        Verdict::Either
    };
    let mut readings = readings.into_iter();
    let base = readings.next().map(|(_, reading)| reading);
    Explanation {
        profile,
        verdict,
        fetch: request.fetch,
        fetch_effect: explain::describe_fetch_effect(&effect),
        fetch_citation,
        reading: base,
        variants: readings
            .map(|(applied, reading)| VariantOutcome {
                applied,
                verdict: Verdict::from_allowed(reading.allowed),
            })
            .collect(),
    }
}

/// Whether `request`'s URL is allowed under one concrete reading (no fetch outcome, no open knobs):
/// for tools that vary knobs one at a time.
pub fn allowed_under(request: &Request<'_>, knobs: &Knobs) -> bool {
    read(request, knobs).allowed
}

/// Evaluates under every profile.
pub fn evaluate_all(request: &Request<'_>) -> Vec<Explanation> {
    let facts = profile::InputFacts::of(request);
    ProfileId::ALL
        .iter()
        .map(|&p| evaluate_given(p, request, Some(&facts)))
        .collect()
}

/// Flattens a fetch effect into definite outcomes (`Some(allowed)`) and "use the body" (`None`).
fn collect_fetch_outcomes(effect: &fetch::FetchEffect, out: &mut Vec<Option<bool>>) {
    match effect {
        fetch::FetchEffect::UseBody => out.push(None),
        fetch::FetchEffect::Allowed => out.push(Some(true)),
        fetch::FetchEffect::Disallowed => out.push(Some(false)),
        fetch::FetchEffect::Open(options) => {
            options.iter().for_each(|o| collect_fetch_outcomes(o, out))
        }
    }
}

/// The profile's base reading first, then every combination of the open knobs' alternatives,
/// each with the names of the alternatives it applied.
fn variants(profile: ProfileId, facts: &profile::InputFacts) -> Vec<(Vec<String>, Knobs)> {
    let mut all = vec![(Vec::new(), profile.base_knobs())];
    for knob in profile.open_knobs_given(facts) {
        let mut more = Vec::new();
        for (applied, knobs) in &all {
            for alternative in &knob.alternatives {
                let mut applied = applied.clone();
                applied.push(format!(
                    "{} = {:?} ({})",
                    knob.name, alternative, knob.citation
                ));
                more.push((applied, alternative.apply(*knobs)));
            }
        }
        all.extend(more);
    }
    all
}

/// Runs the pipeline once under one concrete reading.
fn read(request: &Request<'_>, knobs: &Knobs) -> Reading {
    // Step 1: body (K14, K12, K7 charset) and lines.
    let (prepared, body_notes) = body::prepare_body(request.body, knobs);
    let lines = body::split_lines(&prepared);
    read_lines(request, knobs, &lines, body_notes, false)
}

/// Steps 3 to 7 on the body's lines (step 1's output) under one concrete reading.
fn read_lines(
    request: &Request<'_>,
    knobs: &Knobs,
    lines: &[body::Line<'_>],
    body_notes: body::BodyNotes,
    detail: bool,
) -> Reading {
    // Step 3: groups (K1, K2).
    let groups = group::build_groups(lines, knobs);
    // Step 4: selection (K3).
    let selected = select::select(&groups.groups, request.agent, knobs);
    // Step 5: the URL (K8).
    let split = url::split(request.url);
    let target = url::match_target(&split, knobs);
    let (normalised_target, _) =
        encoding::normalise(&target, encoding::Side::Target, knobs.encoding, false);
    // K10: /robots.txt itself.
    let robots_txt_implicit = knobs.robots_txt_allowed && split.path == b"/robots.txt";
    // Steps 6 and 7: match and decide (K4, K5, K6, K9, K13).
    let rules: Vec<&group::RuleLine<'_>> = selected
        .groups
        .iter()
        .flat_map(|&i| groups.groups[i].rules.iter())
        .collect();
    let decision = decide::decide_with(&rules, &normalised_target, knobs, detail);
    let allowed = robots_txt_implicit || decision.allowed;
    Reading {
        body: body_notes,
        groups: if detail {
            groups
                .groups
                .iter()
                .map(explain::GroupSummary::of)
                .collect()
        } else {
            Vec::new()
        },
        orphan_rules: groups.orphan_rules,
        selected,
        target: String::from_utf8_lossy(&normalised_target).into_owned(),
        robots_txt_implicit,
        decision,
        allowed,
    }
}

#[cfg(test)]
mod tests;
