//! Steps 6 and 7, matching every rule of the selected groups and deciding (K4, K5, K9, K10, K13).

use serde::Serialize;

use crate::group::{RuleKind, RuleLine};
use crate::pattern::Pattern;
use crate::profile::{EmptyRule, InvalidPattern, Knobs, Precedence, Specificity};

/// How one rule fared against the target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleEvaluation {
    /// 1-based line number in the body.
    pub line: usize,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written (lossy UTF-8).
    pub pattern: String,
    /// The pattern after normalisation (`*` between segments, `$` when anchored).
    pub normalised: String,
    /// What happened.
    pub outcome: RuleOutcome,
}

/// What happened to one rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "result")]
pub enum RuleOutcome {
    /// It matched; `specificity` is what precedence compares (K4).
    Matched {
        /// Octets counted for precedence.
        specificity: usize,
    },
    /// It did not match.
    NoMatch,
    /// An empty value that matches nothing (K9).
    EmptyIgnored,
    /// A value with control characters or inner white space, ignored (K13).
    InvalidIgnored,
}

/// The decision over the selected rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Every rule, in file order.
    pub rules: Vec<RuleEvaluation>,
    /// Index into `rules` of the deciding rule, if any.
    pub deciding: Option<usize>,
    /// The verdict: true when allowed.
    pub allowed: bool,
}

fn is_invalid_pattern(value: &[u8]) -> bool {
    value.iter().any(|&b| b < 0x20 || b == 0x7F || b == b' ')
}

/// Matches every rule against the normalised target and applies the precedence knob (K4).
/// No deciding rule means allowed (`rfc9309#2.2.2`; `draft-1996#reply`; `google#syntax`).
pub fn decide(rules: &[&RuleLine<'_>], target: &[u8], knobs: &Knobs) -> Decision {
    decide_with(rules, target, knobs, true)
}

/// [`decide`]; without `detail`, the rules' texts are left empty (for readings whose verdict alone
/// is needed: the same decision, fewer allocations).
pub fn decide_with(
    rules: &[&RuleLine<'_>],
    target: &[u8],
    knobs: &Knobs,
    detail: bool,
) -> Decision {
    let mut evaluations = Vec::with_capacity(rules.len());
    for rule in rules {
        let pattern = Pattern::compile(rule.value, knobs);
        let outcome = if rule.value.is_empty() {
            match knobs.empty_rule {
                // K9: RFC9309 2.2 `empty-pattern`; google#disallow: ignored; norobots-1994#format.
                EmptyRule::MatchesNothing => RuleOutcome::EmptyIgnored,
                // K9: draft-1996#3.2.2 read literally, guide-ch9#table-9-3.
                EmptyRule::MatchesEverything => RuleOutcome::Matched { specificity: 0 },
            }
        } else if knobs.invalid_pattern == InvalidPattern::IgnoreLine
            && is_invalid_pattern(rule.value)
        {
            RuleOutcome::InvalidIgnored
        } else {
            match pattern.match_end(target) {
                None => RuleOutcome::NoMatch,
                Some(end) => RuleOutcome::Matched {
                    specificity: match knobs.precedence {
                        Precedence::MostSpecific(Specificity::MatchedOctets) => end,
                        _ => pattern.octets(),
                    },
                },
            }
        };
        evaluations.push(RuleEvaluation {
            line: rule.line,
            kind: rule.kind,
            pattern: if detail {
                String::from_utf8_lossy(rule.value).into_owned()
            } else {
                String::new()
            },
            normalised: if detail {
                pattern.display()
            } else {
                String::new()
            },
            outcome,
        });
    }
    let matched = |e: &RuleEvaluation| match e.outcome {
        RuleOutcome::Matched { specificity } => Some(specificity),
        _ => None,
    };
    let deciding = match knobs.precedence {
        // RFC9309 2.2.2: the most specific match; allow wins a tie (SHOULD). google#rule-precedence.
        Precedence::MostSpecific(_) => {
            let mut best: Option<(usize, bool, usize)> = None;
            for (i, e) in evaluations.iter().enumerate() {
                if let Some(specificity) = matched(e) {
                    let key = (specificity, e.kind == RuleKind::Allow);
                    if best.is_none_or(|(s, a, _)| key > (s, a)) {
                        best = Some((specificity, key.1, i));
                    }
                }
            }
            best.map(|(_, _, i)| i)
        }
        // draft-1996#3.2.2: the first match found is used.
        Precedence::FirstMatch => evaluations.iter().position(|e| matched(e).is_some()),
        // norobots-1994#format: any URL starting with a disallowed value is excluded.
        Precedence::AnyDisallow => evaluations
            .iter()
            .position(|e| e.kind == RuleKind::Disallow && matched(e).is_some()),
    };
    let allowed = deciding.is_none_or(|i| evaluations[i].kind == RuleKind::Allow);
    Decision {
        rules: evaluations,
        deciding,
        allowed,
    }
}
