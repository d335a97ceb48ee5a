//! A minimised finding as a ready-to-commit corpus case (`spec-cases/README.md`'s format), with
//! the observed answers and the oracle's explanation in its note.
//!
//! The `expect` verdicts are the oracle's, so the case says so: a person confirms them against the
//! cited sections before the case moves into `spec-cases/regressions/` (verdicts are never blessed).

use std::fmt::Write as _;

use robotstxt_adapters::Answer;
use robotstxt_oracle::{evaluate, ProfileId, Verdict};

use crate::compare::Observation;
use crate::input::Input;
use crate::signature::Sighting;

/// The section of each profile's document that governs a knob (from `docs/profiles.md`).
pub fn citation_for(knob: &str, profile: ProfileId) -> &'static str {
    let id = knob.split_whitespace().next().unwrap_or_default();
    let row: [&'static str; 4] = match id {
        "K1" => [
            "rfc9309#2.1",
            "google#grouping",
            "draft-1996#3.2",
            "norobots-1994#format",
        ],
        "K3" => [
            "rfc9309#2.2.1",
            "google#user-agent-precedence",
            "draft-1996#3.2.1",
            "norobots-1994#format",
        ],
        "K4" => [
            "rfc9309#2.2.2",
            "google#rule-precedence",
            "draft-1996#3.2.2",
            "norobots-1994#format",
        ],
        "K5" => [
            "rfc9309#2.2.2",
            "google#allow",
            "draft-1996#3.2.2",
            "norobots-1994#format",
        ],
        "K6" => [
            "rfc9309#2.2.3",
            "google#url-matching",
            "draft-1996#3.2.2",
            "norobots-1994#format",
        ],
        "K7" | "K8" | "K10" => [
            "rfc9309#2.2.2",
            "google#url-matching",
            "draft-1996#3.2.2",
            "norobots-1994#format",
        ],
        "K9" => [
            "rfc9309#2.2.2",
            "google#disallow",
            "draft-1996#3.2.2",
            "norobots-1994#format",
        ],
        "K14" => [
            "rfc9309#2.5",
            "google#file-format",
            "draft-1996#5",
            "norobots-1994#format",
        ],
        "K12" => [
            "rfc9309#2.2",
            "google#file-format",
            "draft-1996#3.3",
            "norobots-1994#format",
        ],
        _ => [
            "rfc9309#2.2",
            "google#syntax",
            "draft-1996#3.3",
            "norobots-1994#format",
        ],
    };
    let index = ProfileId::ALL
        .iter()
        .position(|&p| p == profile)
        .unwrap_or(0);
    row[index]
}

/// The case file for a finding: `answers` are (adapter id, answer) for every adapter asked;
/// `evidence`, for an examined divergence, what its cause rests on in words.
pub fn case_yaml(
    signature: &Sighting,
    input: &Input,
    observation: &Observation,
    answers: &[(String, Answer)],
    evidence: Option<&str>,
) -> String {
    let profile = ProfileId::from_name(signature.profile).unwrap_or(ProfileId::Rfc9309);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Found by `robotstxt-conformance fuzz`. The expect verdicts are the oracle's: confirm each\n\
         # against the cited sections before moving this file into spec-cases/regressions/."
    );
    let _ = writeln!(
        out,
        "title: {}",
        quote(&format!("Fuzz finding: {signature}"))
    );
    let _ = writeln!(
        out,
        "cite: [{}]",
        citation_for(&signature.signature.cause, profile)
    );
    let _ = writeln!(out, "tags: [fuzz-finding, {}]", signature.signature.kind);
    let mut note = String::new();
    let _ = writeln!(note, "Observed answers:");
    for (id, answer) in answers {
        let _ = writeln!(note, "  {id}: {answer}");
    }
    if let Some(evidence) = evidence {
        let _ = writeln!(note, "{evidence}");
    }
    let _ = writeln!(note, "The oracle under {} explains:", profile.name());
    for line in evaluate(profile, &input.request())
        .to_string()
        .lines()
        .take(60)
    {
        let _ = writeln!(note, "  {line}");
    }
    let _ = writeln!(out, "note: {}", quote(note.trim_end()));
    match std::str::from_utf8(&input.body) {
        Ok(text) if is_plain(text) => {
            let _ = writeln!(out, "body: {}", quote(text));
        }
        _ => {
            let _ = writeln!(out, "body_escaped: {}", quote(&escape(&input.body)));
        }
    }
    let _ = writeln!(out, "checks:");
    let _ = writeln!(out, "  - agent: {}", quote(&input.agent));
    let _ = writeln!(out, "    url: {}", quote(&input.url));
    let _ = writeln!(out, "    expect:");
    for (profile, verdict) in ProfileId::ALL.iter().zip(observation.oracle) {
        let Some(verdict) = verdict else { continue };
        let _ = writeln!(out, "      {}: {}", profile.name(), verdict_name(verdict));
    }
    out
}

fn verdict_name(verdict: Verdict) -> &'static str {
    verdict.name()
}

/// Text that a double-quoted YAML string carries without escapes beyond `\"`, `\\` and `\n`.
fn is_plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c == '\n' || (!c.is_control() && c != '\u{FEFF}'))
}

/// A double-quoted YAML scalar.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || c == '\u{FEFF}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The corpus's `body_escaped` syntax (`\n \r \t \0 \\ \xHH`) for any octets.
pub fn escape(body: &[u8]) -> String {
    let mut out = String::new();
    for chunk in body.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\0' => out.push_str("\\0"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() || c == '\u{FEFF}' => {
                    let mut buf = [0; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(out, "\\x{b:02X}");
                    }
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}
