//! The `aipref` reading's fast path: which preference a file attaches to a URL for a category of
//! use, with its explanation, reading RFC 9309's readings the input's facts open. It must answer
//! what [`crate::literal::preference`], every reading whatever the input holds, answers.

use serde::Serialize;

use crate::aipref;
use crate::body;
use crate::knobs::ProfileId;
use crate::literal;
use crate::request::Request;

/// The `aipref` reading's answer for one request and one category of use ([`aipref`]): the
/// preference and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PreferenceExplanation {
    /// The category of use asked about, e.g. `train-ai`.
    pub category: String,
    /// The preference: `y`, `n`, `none`, or `either` where the permitted readings disagree.
    pub preference: aipref::Preference,
    /// Each different answer the permitted readings give, with the first reading that gives it
    /// (`base`, or the alternatives it applies, in words), the base reading's first.
    pub answers: Vec<(String, aipref::Finding)>,
}

impl PreferenceExplanation {
    /// The explanation in words, one line per answer.
    pub fn text(&self) -> String {
        let mut out = format!(
            "aipref ({}): preference for {}: {}\n",
            aipref::REVISION,
            self.category,
            self.preference.name()
        );
        for (reading, finding) in &self.answers {
            let line = finding
                .line
                .map(|n| format!("line {n}: "))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {} under {reading}: {line}{} ({})\n",
                finding.preference.name(),
                finding.rule,
                finding.citations.join(", ")
            ));
        }
        out
    }
}

/// The `aipref` reading ([`aipref`]) of `request` for `category`, with its explanation: the fast
/// path. It reads the body under RFC 9309's base reading and under each combination of the
/// alternatives the input's facts say can matter ([`ProfileId::open_knobs`]), gathered from the
/// body and from the body with each Content-Usage line written as an `Allow` and a `Disallow`
/// line of the same value (the same grouping, and its paths and statements read as rules are); the drafts' own
/// alternative ([`aipref::StatementBounds`]) only where a Content-Usage value holds an HTAB. It
/// must answer what [`literal::preference`], every reading whatever the input holds, answers.
pub fn evaluate_preference(request: &Request<'_>, category: &str) -> PreferenceExplanation {
    let (before, read_body) = aipref::before_body(request);
    let mut answers: Vec<(String, aipref::Finding)> = before
        .into_iter()
        .map(|finding| ("the fetch outcome".to_string(), finding))
        .collect();
    if read_body {
        for reading in preference_readings(request) {
            for &bounds in &reading.1 {
                let aipref_reading = aipref::AiprefReading {
                    knobs: reading.0.knobs,
                    bounds,
                };
                let finding = aipref::under(&aipref_reading, request, category);
                if answers
                    .iter()
                    .all(|(_, f)| f.preference != finding.preference)
                {
                    let mut name = reading.0.name();
                    if bounds != aipref::StatementBounds::Remainder {
                        name.push_str(&format!("; {}", bounds.words()));
                    }
                    answers.push((name, finding));
                }
            }
        }
    }
    PreferenceExplanation {
        category: category.to_string(),
        preference: aipref::common(answers.iter().map(|(_, f)| f.preference)),
        answers,
    }
}

/// The preference alone of [`evaluate_preference`].
pub fn preference(request: &Request<'_>, category: &str) -> aipref::Preference {
    evaluate_preference(request, category).preference
}

/// The readings [`evaluate_preference`] tries: RFC 9309's readings over the knobs the facts open,
/// each with the statement bounds worth trying.
fn preference_readings(
    request: &Request<'_>,
) -> Vec<(literal::LiteralReading, Vec<aipref::StatementBounds>)> {
    let profile = ProfileId::Rfc9309;
    let mut open = profile.open_knobs(request);
    let rewritten = aipref_rules_as_allow(request.body);
    let as_allow = Request {
        body: &rewritten.0,
        ..*request
    };
    for knob in profile.open_knobs(&as_allow) {
        match open.iter_mut().find(|k| k.name == knob.name) {
            // Two different sets of alternatives: the row's every alternative covers both.
            Some(known) if known.alternatives != knob.alternatives => {
                let row = profile.open_rows().iter().find(|r| r.name == knob.name);
                known.alternatives = row.map_or(known.alternatives, |r| r.alternatives);
            }
            Some(_) => {}
            None => open.push(knob),
        }
    }
    // The table's order, as the literal mode applies them.
    let order = |name: &str| profile.open_rows().iter().position(|r| r.name == name);
    open.sort_by_key(|k| order(k.name));
    let bounds = if rewritten.1 {
        aipref::StatementBounds::ALL.to_vec()
    } else {
        vec![aipref::StatementBounds::Remainder]
    };
    literal::readings_from(profile.base_knobs(), open)
        .into_iter()
        .map(|reading| (reading, bounds.clone()))
        .collect()
}

/// The body with each line that is a Content-Usage line under some reading (a leading byte-order
/// mark set aside) written as an `Allow` and a `Disallow` line with the same value, and whether
/// some such value
/// holds an HTAB. The grouping is the same (a Content-Usage line is a rule), and the paths and
/// statements stand where rules' values do, so the facts about rules cover them.
fn aipref_rules_as_allow(body: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(body.len());
    let mut tab = false;
    for (index, (content, end)) in body::lines_with_ends(body).into_iter().enumerate() {
        let (bom, rest) = match content.strip_prefix(body::UTF8_BOM) {
            Some(rest) if index == 0 => (body::UTF8_BOM, rest),
            _ => (&b""[..], content),
        };
        match aipref::rule_value(rest) {
            // Both kinds of rule, so that facts about an Allow beside a Disallow (K4) see it.
            Some(value) => {
                tab |= value.contains(&b'\t');
                out.extend_from_slice(bom);
                out.extend_from_slice(b"Allow: ");
                out.extend_from_slice(value);
                out.extend_from_slice(if end.is_empty() { b"\n" } else { end });
                out.extend_from_slice(b"Disallow: ");
                out.extend_from_slice(value);
            }
            None => out.extend_from_slice(content),
        }
        out.extend_from_slice(end);
    }
    (out, tab)
}
