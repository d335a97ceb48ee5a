//! What makes two findings the same divergence: a bucket signature.
//!
//! The signature names the sides that disagree, the profile, the verdicts, and what explains the
//! divergence: the first knob (`docs/profiles.md`) which, set as another profile sets it, makes the
//! oracle give the adapter's answer (which profile it was taken from is not part of the signature:
//! `K4 precedence` set as draft-1996 or as 1994 is the same divergence); `outside-the-knobs` when none does (a parser bug or an extension
//! no document describes); for a crash or error, the message with its numbers removed (so one panic
//! site is one bucket).

use std::fmt;

use robotstxt_adapters::Answer;
use robotstxt_oracle::memo::{Memo, PreparedBodies};
use robotstxt_oracle::profile::KNOB_FIELDS;
use robotstxt_oracle::{evaluate, Knobs, ProfileId, Verdict};
use serde::Serialize;

use crate::compare::Finding;
use crate::input::Input;

/// A bucket's identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Signature {
    /// `adapter-vs-profile`, `adapters-disagree`, `crash` or `error`.
    pub kind: &'static str,
    /// The adapter (the first of the pair, for `adapters-disagree`).
    pub adapter: String,
    /// The other adapter of a pair.
    pub other: Option<String>,
    /// The profile claimed.
    pub profile: &'static str,
    /// The oracle's verdict (`any` for a crash or an error).
    pub expected: &'static str,
    /// The adapter's answer kind (and the other's, for a pair: `allowed/disallowed`).
    pub got: String,
    /// What explains it: a knob (`K4 precedence`), `outside-the-knobs`, or the
    /// normalised failure message.
    pub cause: String,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.other {
            Some(other) => write!(
                f,
                "{} vs {} ({}): {} where the oracle says {}; {}",
                self.adapter, other, self.profile, self.got, self.expected, self.cause
            ),
            None => write!(
                f,
                "{} ({}): {} where the oracle says {}; {}",
                self.adapter, self.profile, self.got, self.expected, self.cause
            ),
        }
    }
}

impl Signature {
    /// A short, file-name-safe id for the bucket.
    pub fn slug(&self) -> String {
        let text = format!(
            "{}-{}-{}-{}",
            self.adapter,
            self.got.replace('/', "-"),
            self.expected,
            self.cause
        );
        let mut slug = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.ends_with('-') {
                slug.push('-');
            }
        }
        slug.truncate(80);
        slug.trim_matches('-').to_string()
    }
}

/// The signatures of all the findings of one input, in order (`answers` in
/// [`crate::compare::Engines`] order, each adapter's full answer, for messages). Adapters claiming
/// the same profile and giving the same answer share its explaining knob, which is worked out once.
pub fn signatures(
    findings: &[Finding],
    input: &Input,
    oracle: &[Verdict; 4],
    answers: &[Answer],
) -> Vec<Signature> {
    let mut explained = Vec::new();
    findings
        .iter()
        .map(|f| signature_sharing(f, input, oracle, &answers[f.index], &mut explained))
        .collect()
}

/// The signature of `finding` on `input`, taking the explaining knob from `explained` (by profile
/// and answer) when it is there, and keeping it there when it is worked out.
fn signature_sharing(
    finding: &Finding,
    input: &Input,
    oracle: &[Verdict; 4],
    answer: &Answer,
    explained: &mut Vec<((ProfileId, bool), String)>,
) -> Signature {
    let (kind, cause) = match (&finding.other, answer.detail()) {
        (Some(_), _) => ("adapters-disagree", open_knobs(input, finding.profile)),
        (None, Some(detail)) => (answer.kind(), normalise_message(detail)),
        (None, None) => {
            let key = (finding.profile, finding.got == "allowed");
            let cause = match explained.iter().find(|(k, _)| *k == key) {
                Some((_, cause)) => cause.clone(),
                None => {
                    let cause = explaining_knob(input, oracle, key.0, key.1);
                    explained.push((key, cause.clone()));
                    cause
                }
            };
            ("adapter-vs-profile", cause)
        }
    };
    // A crash or an error is one bucket whatever the oracle's verdict was.
    let expected = if answer.verdict().is_none() && finding.other.is_none() {
        "any"
    } else {
        finding.expected.name()
    };
    Signature {
        kind,
        adapter: finding.adapter.clone(),
        other: finding.other.clone(),
        profile: finding.profile.name(),
        expected,
        got: match finding.other_got {
            Some(other) => format!("{}/{other}", finding.got),
            None => finding.got.to_string(),
        },
        cause,
    }
}

/// The first knob which, set as another profile sets it, makes the oracle answer `allowed`, taken
/// from a profile whose whole reading answers so. `oracle` holds the input's verdicts (in
/// [`ProfileId::ALL`] order): a definite one is every reading's answer, the whole reading's too.
pub fn explaining_knob(
    input: &Input,
    oracle: &[Verdict; 4],
    profile: ProfileId,
    allowed: bool,
) -> String {
    let request = input.request();
    let base = profile.base_knobs();
    let (others, known): (Vec<Knobs>, Vec<Option<bool>>) = ProfileId::ALL
        .into_iter()
        .zip(oracle)
        .filter(|&(p, _)| p != profile)
        .map(|(p, verdict)| {
            let known = match verdict {
                Verdict::Allowed => Some(true),
                Verdict::Disallowed => Some(false),
                // The fuzzer's inputs carry no robots.txt URL, so never `not-governed`.
                Verdict::Either | Verdict::NotGoverned => None,
            };
            (p.base_knobs(), known)
        })
        .unzip();
    // The common `outside-the-knobs` case: every other document answers otherwise, definitely.
    if known.iter().all(|k| k.is_some_and(|a| a != allowed)) {
        return "outside-the-knobs".to_string();
    }
    // Each other document's whole reading, then (for a document whose whole reading gives the
    // parser's answer: only such a one can lend the knob that explains it) each knob field that
    // differs, copied alone; the first that gives that answer explains it. Every reading shares
    // one memo.
    let tried: Vec<Vec<Knobs>> = others
        .iter()
        .map(|theirs| {
            KNOB_FIELDS
                .iter()
                .map(|(_, _, copy)| {
                    let mut knobs = base;
                    copy(&mut knobs, theirs);
                    knobs
                })
                .collect()
        })
        .collect();
    let prepared =
        PreparedBodies::prepare(request.body, others.iter().chain(tried.iter().flatten()));
    let mut memo = Memo::new(&request, &prepared);
    for ((theirs, tried), known) in others.iter().zip(&tried).zip(known) {
        if known.unwrap_or_else(|| memo.allowed(theirs)) != allowed {
            continue;
        }
        for ((id, name, _), knobs) in KNOB_FIELDS.iter().zip(tried) {
            if *knobs != base && memo.allowed(knobs) == allowed {
                return format!("{id} {name}");
            }
        }
    }
    // No other document's reading gives the parser's answer: a bug, or an extension none describes.
    "outside-the-knobs".to_string()
}

/// The open knob that makes the verdict `either`: the first alternative reading (in the oracle's
/// order) whose verdict differs from the profile's base reading.
fn open_knobs(input: &Input, profile: ProfileId) -> String {
    let explanation = evaluate(profile, &input.request());
    let base = explanation.reading.as_ref().map(|r| r.allowed);
    explanation
        .variants
        .iter()
        .find(|v| Some(v.verdict == robotstxt_oracle::Verdict::Allowed) != base)
        .and_then(|v| v.applied.first())
        .map(|a| format!("open: {}", a.split(" = ").next().unwrap_or(a)))
        .unwrap_or_else(|| "open".to_string())
}

/// A failure message with its particulars removed (digits, quoted text, parenthesised ranges) and
/// cut short, so that one failure site is one bucket whatever character or offset triggered it.
pub fn normalise_message(message: &str) -> String {
    let mut out = String::new();
    let mut skip_until: Option<char> = None;
    for c in message.chars() {
        if let Some(end) = skip_until {
            if c == end {
                skip_until = None;
            }
            continue;
        }
        match c {
            '\'' | '`' => {
                skip_until = Some(c);
                out.push('…');
            }
            '(' => {
                skip_until = Some(')');
                out.push_str("(…)");
            }
            c if c.is_ascii_digit() => {
                if !out.ends_with('#') {
                    out.push('#');
                }
            }
            c => out.push(c),
        }
    }
    out = out.split('\n').next().unwrap_or_default().to_string();
    if let Some(cut) = out.char_indices().nth(80).map(|(i, _)| i) {
        out.truncate(cut);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_panic_site_is_one_message() {
        let a = super::normalise_message(
            "panicked: end byte index 5 is not a char boundary; it is inside 'é' (bytes 4..6) of `aaaé`",
        );
        let b = super::normalise_message(
            "panicked: end byte index 12 is not a char boundary; it is inside '日' (bytes 10..13) of `x`",
        );
        assert_eq!(a, b);
        assert_eq!(
            a,
            "panicked: end byte index # is not a char boundary; it is inside … (…) of …"
        );
    }
}
