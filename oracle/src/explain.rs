//! Explanations: every verdict says which groups were found, which applied and why, every rule
//! that was tried, the deciding rule, and what the open knobs' alternatives would answer.
//!
//! The text form (`Display`) is in words ([`crate::words`]), never a Rust value; the JSON form
//! (`Serialize`) keeps the values, for machines.

use std::fmt::{self, Write as _};

use serde::Serialize;

use crate::body::BodyNotes;
use crate::decide::{Decision, RuleOutcome};
use crate::fetch::FetchEffect;
use crate::group::Group;
use crate::knobs::Alternative;
use crate::scope::{Governs, Scope};
use crate::select::{Selected, SelectionReason};
use crate::{Fetch, ProfileId, Verdict};

/// A group as the explanation shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupSummary {
    /// Line number of its first user-agent line.
    pub line: usize,
    /// Its user-agent values (lossy UTF-8).
    pub agents: Vec<String>,
    /// How many rules it has.
    pub rules: usize,
}

impl GroupSummary {
    /// Summarises a group.
    pub fn of(group: &Group<'_>) -> GroupSummary {
        GroupSummary {
            line: group.agents.first().map_or(0, |a| a.line),
            agents: group
                .agents
                .iter()
                .map(|a| String::from_utf8_lossy(a.value).into_owned())
                .collect(),
            rules: group.rules.len(),
        }
    }
}

/// One run of the pipeline under one concrete reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reading {
    /// What the body step did.
    pub body: BodyNotes,
    /// The groups found.
    pub groups: Vec<GroupSummary>,
    /// Line numbers of rules outside every group (ignored).
    pub orphan_rules: Vec<usize>,
    /// Which groups applied and why.
    pub selected: Selected,
    /// The normalised target the rules were matched against.
    pub target: String,
    /// `/robots.txt` was allowed implicitly (K10).
    pub robots_txt_implicit: bool,
    /// Every rule tried and the deciding one.
    pub decision: Decision,
    /// The verdict of this reading.
    pub allowed: bool,
}

/// The verdict of one alternative reading (an open knob set differently).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariantOutcome {
    /// The alternatives applied, each with its knob and citation.
    pub applied: Vec<AppliedAlternative>,
    /// What this reading answers.
    pub verdict: Verdict,
}

/// One open knob's alternative in an alternative reading. JSON keeps the value
/// (`{"Specificity": "MatchedOctets"}`); the text form is words: `specificity: octets matched: ...
/// (rfc9309#2.2.2)` ([`crate::words::alternative`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppliedAlternative {
    /// The open knob's name in the table (`specificity`, `docs/profiles.md`).
    pub knob: &'static str,
    /// The alternative applied.
    pub alternative: Alternative,
    /// Where the document leaves the knob open.
    pub citation: &'static str,
}

impl fmt::Display for AppliedAlternative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.knob,
            crate::words::alternative(self.alternative),
            self.citation
        )
    }
}

/// The full answer for one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The profile.
    pub profile: ProfileId,
    /// The verdict: `either` when the permitted readings disagree, `not-governed` when the file
    /// does not govern the URL.
    pub verdict: Verdict,
    /// The URL the robots.txt file was fetched from, when the request gave it.
    pub robots_url: Option<String>,
    /// Step 0: whether that file governs the URL, and why (when the request gave it).
    pub scope: Option<Scope>,
    /// The fetch outcome asked about.
    pub fetch: Fetch,
    /// What the fetch outcome means under this profile.
    pub fetch_effect: String,
    /// Where the document says so.
    pub fetch_citation: &'static str,
    /// When the URL is the `/robots.txt` URI and it is allowed before the fetch outcome (or the
    /// history) is read: the rule that says so (`crate::fetch::robots_txt_exemption`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots_txt_exemption: Option<crate::fetch::Exemption>,
    /// The base reading, when the body was needed.
    pub reading: Option<Reading>,
    /// The alternative readings of the open knobs that could matter here.
    pub variants: Vec<VariantOutcome>,
    /// For a question asked at a time after a history of fetches: which fetches may decide, and
    /// why (the rest of the explanation is the first permitted fetch's).
    pub history: Option<HistoryNote>,
}

/// Which fetches of a history may decide a question asked at a time (`crate::history`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryNote {
    /// When the question is asked, in minutes.
    pub at: crate::history::Minutes,
    /// The rule that decides, in words.
    pub rule: &'static str,
    /// Where the document says so.
    pub citation: &'static str,
    /// Each permitted basis, in words, and what it answers.
    pub bases: Vec<(String, Verdict)>,
}

/// Describes a fetch effect in words.
pub fn describe_fetch_effect(effect: &FetchEffect) -> String {
    match effect {
        FetchEffect::UseBody => "the body's rules apply".to_string(),
        FetchEffect::Allowed => "everything is allowed".to_string(),
        FetchEffect::Disallowed => "everything is disallowed".to_string(),
        FetchEffect::Open(options) => {
            let options: Vec<String> = options.iter().map(describe_fetch_effect).collect();
            format!("open: {}", options.join(" or "))
        }
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        writeln!(
            out,
            "profile {}: {}",
            self.profile.name(),
            self.verdict.name()
        )?;
        if let (Some(robots_url), Some(scope)) = (&self.robots_url, &self.scope) {
            let governs = match scope.governs {
                Governs::Yes => "governs this URL",
                Governs::No => "does not govern this URL",
                Governs::Open => "may or may not govern this URL (open)",
            };
            writeln!(
                out,
                "  scope: {robots_url} {governs}: {} ({})",
                scope.rule, scope.citation
            )?;
        }
        if let Some(history) = &self.history {
            writeln!(
                out,
                "  at {}: {} ({})",
                crate::history::format_minutes(history.at),
                history.rule,
                history.citation
            )?;
            for (basis, verdict) in &history.bases {
                writeln!(out, "    {basis} -> {}", verdict.name())?;
            }
        }
        if self.fetch != Fetch::default() {
            writeln!(
                out,
                "  fetch {}: {} ({})",
                crate::words::fetch(&self.fetch),
                self.fetch_effect,
                self.fetch_citation
            )?;
        }
        if let Some(exemption) = &self.robots_txt_exemption {
            writeln!(
                out,
                "  /robots.txt URI: allowed before the fetch outcome: {} ({})",
                exemption.rule, exemption.citation
            )?;
        }
        if let Some(reading) = &self.reading {
            write_reading(&mut out, reading)?;
        }
        if !self.variants.is_empty() {
            writeln!(
                out,
                "  open knobs (the document permits these readings too):"
            )?;
            for variant in &self.variants {
                let applied: Vec<String> =
                    variant.applied.iter().map(ToString::to_string).collect();
                writeln!(
                    out,
                    "    {} -> {}",
                    applied.join("; "),
                    variant.verdict.name()
                )?;
            }
        }
        f.write_str(&out)
    }
}

fn write_reading(out: &mut String, reading: &Reading) -> fmt::Result {
    let notes = &reading.body;
    if notes.bom_skipped {
        writeln!(out, "  body: leading BOM skipped")?;
    }
    if let Some(limit) = notes.truncated_at {
        writeln!(out, "  body: octets after {limit} ignored (size limit)")?;
    }
    if let Some(charset) = notes.charset {
        writeln!(out, "  body: {}", crate::words::charset(charset))?;
    }
    writeln!(out, "  groups found: {}", reading.groups.len())?;
    for (i, group) in reading.groups.iter().enumerate() {
        let mark = if reading.selected.groups.contains(&i) {
            "*"
        } else {
            " "
        };
        writeln!(
            out,
            "   {mark} #{} line {}: user-agent {:?}, {} rule(s)",
            i + 1,
            group.line,
            group.agents,
            group.rules
        )?;
    }
    if !reading.orphan_rules.is_empty() {
        writeln!(
            out,
            "  rules outside any group, ignored: lines {:?}",
            reading.orphan_rules
        )?;
    }
    let why = match reading.selected.reason {
        SelectionReason::Specific => "they name the agent",
        SelectionReason::Star => "no group names the agent; the `*` group(s) apply",
        SelectionReason::NoGroup => {
            "no group names the agent and there is no `*` group: no rules apply"
        }
    };
    let chosen: Vec<String> = reading
        .selected
        .groups
        .iter()
        .map(|i| format!("#{}", i + 1))
        .collect();
    writeln!(out, "  applied: [{}] because {why}", chosen.join(", "))?;
    writeln!(out, "  target: {}", reading.target)?;
    for (i, rule) in reading.decision.rules.iter().enumerate() {
        let result = match &rule.outcome {
            RuleOutcome::Matched { specificity } => format!("matches, specificity {specificity}"),
            RuleOutcome::NoMatch => "no match".to_string(),
            RuleOutcome::EmptyIgnored => "empty, matches nothing".to_string(),
            RuleOutcome::InvalidIgnored => "invalid pattern, ignored".to_string(),
        };
        let mark = if reading.decision.deciding == Some(i) {
            "=>"
        } else {
            "  "
        };
        writeln!(
            out,
            "  {mark} line {}: {:?} {:?} (normalised {:?}): {result}",
            rule.line, rule.kind, rule.pattern, rule.normalised
        )?;
    }
    if reading.robots_txt_implicit {
        writeln!(out, "  /robots.txt is implicitly allowed")?;
    } else if reading.decision.deciding.is_none() {
        writeln!(out, "  no rule decides: allowed")?;
    }
    writeln!(
        out,
        "  reading's verdict: {}",
        if reading.allowed {
            "allowed"
        } else {
            "disallowed"
        }
    )
}
