//! What makes two findings the same divergence: a bucket signature.
//!
//! A bucket is one (adapter, cause). The cause of an adapter's answer where its profile says
//! otherwise is the smallest set of knob alternatives and deviations under which the oracle gives
//! that answer ([`robotstxt_oracle::cause`]: `K4 precedence`, `D-typo-fields`,
//! `D-typo-fields + D-space-for-colon`), or `unexplained` when no set of one or two does; for a
//! crash or error, the message with its numbers removed (so one panic site is one bucket); for two
//! adapters that disagree where the oracle says `either`, the open knob; for an adapter whose
//! second, fresh process answers otherwise (`nondeterministic`), the pair of answers. The profile,
//! the oracle's verdict and the answer are not part of the key: they are kept in each finding's
//! record ([`Sighting`]), and a bucket shows its first finding's.

use std::fmt;

use robotstxt_adapters::Answer;
use robotstxt_oracle::cause::{cause_label, cause_of, causes_of, Change};
use robotstxt_oracle::ProfileId;
use serde::Serialize;

use crate::compare::Finding;
use crate::input::Input;

/// A bucket's identity: the adapter and the cause.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Signature {
    /// `adapter-vs-profile`, `adapters-disagree`, `nondeterministic`, `crash`, `error` or `timeout`.
    pub kind: &'static str,
    /// The adapter (the first of the pair, for `adapters-disagree`).
    pub adapter: String,
    /// The other adapter of a pair.
    pub other: Option<String>,
    /// What explains it: knobs and deviations (`K4 precedence`, `D-typo-fields`), `unexplained`,
    /// `open: <knob>` for a pair, the two processes' answers (`first process allowed, second
    /// disallowed`), or the normalised failure message.
    pub cause: String,
}

impl Signature {
    /// Whether no knob or deviation explains the divergence.
    pub fn unexplained(&self) -> bool {
        self.cause == robotstxt_oracle::cause::UNEXPLAINED
            || robotstxt_oracle::behaviour::is_id(&self.cause)
    }

    /// A short, file-name-safe id for the bucket.
    pub fn slug(&self) -> String {
        let text = match &self.other {
            Some(other) => format!("{}-{}-{}", self.adapter, other, self.cause),
            None => format!("{}-{}-{}", self.adapter, self.kind, self.cause),
        };
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

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.other {
            Some(other) => write!(f, "{} vs {}: {}", self.adapter, other, self.cause),
            None => write!(f, "{} ({}): {}", self.adapter, self.kind, self.cause),
        }
    }
}

/// One finding's signature and its record: the profile claimed, the oracle's verdict under it and
/// the answer (the direction of the divergence).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sighting {
    /// The bucket it belongs to.
    pub signature: Signature,
    /// The profile claimed.
    pub profile: &'static str,
    /// The oracle's verdict (`any` for a crash or an error).
    pub expected: &'static str,
    /// The adapter's answer kind (and the other's, for a pair: `allowed/disallowed`).
    pub got: String,
    /// The changes the cause names, when knobs or deviations explain the answer.
    #[serde(skip)]
    pub changes: Option<Vec<Change>>,
}

impl fmt::Display for Sighting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {} where the oracle says {}",
            self.signature, self.profile, self.got, self.expected
        )
    }
}

/// The sightings (signature and record) of all the findings of one input, in order (`answers` in
/// [`crate::compare::Engines`] order, each adapter's full answer, for messages). Adapters claiming
/// the same profile and giving the same answer share its cause, which is worked out once, and
/// pairs of adapters claiming one profile share the open knob that names their disagreement.
pub fn sightings(findings: &[Finding], input: &Input, answers: &[Answer]) -> Vec<Sighting> {
    // The causes to work out, each (profile, answer) once, all on one memo.
    let mut asks: Vec<(ProfileId, bool)> = Vec::new();
    for finding in findings {
        if needs_cause(finding, &answers[finding.index]) {
            let key = (finding.profile, finding.got == "allowed");
            if !asks.contains(&key) {
                asks.push(key);
            }
        }
    }
    let mut explained: Vec<Explained> = asks
        .iter()
        .zip(causes_of(&input.request(), &asks))
        .map(|(&key, found)| (key, (cause_label(found.as_deref()), found)))
        .collect();
    let mut open_named = Vec::new();
    findings
        .iter()
        .map(|f| sighting_sharing(f, input, &answers[f.index], &mut explained, &mut open_named))
        .collect()
}

/// The signature of one finding on `input` (`answer` is its adapter's).
pub fn sighting(finding: &Finding, input: &Input, answer: &Answer) -> Sighting {
    sighting_sharing(finding, input, answer, &mut Vec::new(), &mut Vec::new())
}

/// Whether `finding` on `input` (`answer` is its adapter's) still belongs to the bucket whose first
/// finding is `first`: the same signature, or, for a divergence a set of knobs and deviations
/// explains, the same adapter with that set still a smallest set that explains it (a cheaper test
/// than working the cause out again, which also fixes which of several smallest sets is named).
pub fn still_in_bucket(
    first: &Sighting,
    finding: &Finding,
    input: &Input,
    answer: &Answer,
) -> bool {
    match (&first.changes, &finding.other, answer.detail()) {
        (Some(changes), None, None) => {
            finding.adapter == first.signature.adapter
                && robotstxt_oracle::cause::explains(
                    finding.profile,
                    &input.request(),
                    finding.got == "allowed",
                    changes,
                )
        }
        _ => sighting(finding, input, answer).signature == first.signature,
    }
}

/// Whether `finding`'s signature is its cause (an adapter's answer where its profile says
/// otherwise): what [`sighting_sharing`] works out with [`cause_of`].
fn needs_cause(finding: &Finding, answer: &Answer) -> bool {
    finding.second_got.is_none() && finding.other.is_none() && answer.detail().is_none()
}

/// The signature of `finding` on `input`, taking the cause from `explained` (by profile and
/// answer) when it is there, and keeping it there when it is worked out; likewise the open knob
/// of two adapters that disagree, from `open_named` (by profile: several pairs share it).
fn sighting_sharing(
    finding: &Finding,
    input: &Input,
    answer: &Answer,
    explained: &mut Vec<Explained>,
    open_named: &mut Vec<(ProfileId, String)>,
) -> Sighting {
    let mut changes = None;
    let (kind, cause) = match (&finding.other, answer.detail()) {
        // Two fresh processes of one adapter disagree: the cause is the pair of answers.
        _ if finding.second_got.is_some() => (
            "nondeterministic",
            format!(
                "first process {}, second {}",
                finding.got,
                finding.second_got.unwrap_or_default()
            ),
        ),
        (Some(_), _) => {
            let open = remembered(open_named, finding.profile, || {
                open_knobs(input, finding.profile)
            });
            ("adapters-disagree", open)
        }
        (None, Some(detail)) => (answer.kind(), normalise_message(detail)),
        (None, None) => {
            let key = (finding.profile, finding.got == "allowed");
            let (cause, found) = remembered(explained, key, || {
                let found = cause_of(key.0, &input.request(), key.1);
                (cause_label(found.as_deref()), found)
            });
            changes = found;
            ("adapter-vs-profile", cause)
        }
    };
    // A crash or an error is one bucket whatever the oracle's verdict was.
    let expected =
        if answer.verdict().is_none() && finding.other.is_none() && finding.second_got.is_none() {
            "any"
        } else {
            finding.expected.name()
        };
    Sighting {
        signature: Signature {
            kind,
            adapter: finding.adapter.clone(),
            other: finding.other.clone(),
            cause,
        },
        profile: finding.profile.name(),
        expected,
        got: match finding.other_got.or(finding.second_got) {
            Some(other) => format!("{}/{other}", finding.got),
            None => finding.got.to_string(),
        },
        changes,
    }
}

/// A cause worked out for one input: by (profile, answer allowed), its label and changes.
type Explained = ((ProfileId, bool), (String, Option<Vec<Change>>));

/// The value kept in `known` for `key`, else `make`'s, kept there.
fn remembered<K: PartialEq, V: Clone>(
    known: &mut Vec<(K, V)>,
    key: K,
    make: impl FnOnce() -> V,
) -> V {
    match known.iter().find(|(k, _)| *k == key) {
        Some((_, value)) => value.clone(),
        None => {
            let value = make();
            known.push((key, value.clone()));
            value
        }
    }
}

/// The open knob that makes the verdict `either`: the first alternative reading (in the oracle's
/// order) whose verdict differs from the profile's base reading.
fn open_knobs(input: &Input, profile: ProfileId) -> String {
    match robotstxt_oracle::first_knob_differing(profile, &input.request()) {
        Some(knob) => format!("open: {knob}"),
        None => "open".to_string(),
    }
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
            '\'' | '`' | '"' => {
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
