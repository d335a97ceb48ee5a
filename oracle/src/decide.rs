//! Steps 6 and 7, matching every rule of the selected groups and deciding (K4, K5, K9, K10, K13).

use serde::Serialize;

use crate::deviation::Deviation;
use crate::group::{RuleKind, RuleLine};
use crate::knobs::{EmptyRule, InvalidPattern, Knobs, Precedence, SectionFiveTwo, Specificity};
use crate::pattern::Pattern;

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

/// K10: whether the reading exempts the URL as the robots.txt file itself, before any rule is
/// matched. rfc9309#2.2.2: "The /robots.txt URI is implicitly allowed"; `guide-ch9#allow-disallow`
/// (the 1996 profile's secondary reading): "The robots.txt URL always is allowed". Google's page and
/// the 1994 text say nothing, so there it is open. Which URLs are that URI:
/// [`crate::url::is_robots_txt_uri`].
pub fn robots_txt_exempt(url: &crate::url::SplitUrl<'_>, knobs: &Knobs) -> bool {
    knobs.robots_txt_allowed && crate::url::is_robots_txt_uri(url)
}

/// K9 under `EmptyRule::EmptyRecordAllowsAll`: whether one of the applying records gives no
/// Disallow value, every rule of it an empty `Disallow`, so that it lets its robot index the whole
/// tree before any other record's rule is matched. `norobots-1994#format`: "если значение Disallow
/// не указано, то это означает, что индексируется все дерево каталогов сервера" (with no Disallow
/// value, the whole tree of the server may be indexed), said of a record; another applying
/// record's Disallow still says "любой URL, начинающийся с такого пути не должен
/// индексироваться", and the text ranks neither record, so this is one of two readings.
pub fn empty_record_allows_all<'r, 'a: 'r>(
    records: impl IntoIterator<Item = &'r [RuleLine<'a>]>,
    knobs: &Knobs,
) -> bool {
    knobs.empty_rule == EmptyRule::EmptyRecordAllowsAll
        && records.into_iter().any(|rules| {
            !rules.is_empty()
                && rules
                    .iter()
                    .all(|rule| rule.kind == RuleKind::Disallow && rule.value.is_empty())
        })
}

/// K13: a value that is no `path-pattern` of `rfc9309#2.2`'s ABNF because it holds a control
/// character or a space (`UTF8-1-noctl = %x21 / %x22 / %x24-7F ; excluding control, space, "#"`).
/// rfc9309#2.3.1.5 asks crawlers to "use the parseable rules", which such a line is not, while
/// its octets can still be matched: the reading that ignores the line is open there
/// (`InvalidPattern::IgnoreLine`).
/// Under `InvalidPattern::IgnoreLineOrNonAscii` an octet outside ASCII is no part of a valid
/// value either: `draft-1996#3.3`'s `path` is RFC 1808's, made of `pchar`s over `CHAR = <any
/// US-ASCII character (octets 0 - 127)>`.
fn is_invalid_pattern(value: &[u8], reading: InvalidPattern) -> bool {
    match reading {
        InvalidPattern::UseOctets => false,
        InvalidPattern::IgnoreLine => value.iter().any(|&b| b < 0x20 || b == 0x7F || b == b' '),
        InvalidPattern::IgnoreLineOrNonAscii => value.iter().any(|&b| !(0x21..0x7F).contains(&b)),
    }
}

/// Matches every rule (its pattern compiled under `knobs`) against the normalised target and
/// applies the precedence knob (K4). No deciding rule means allowed (`rfc9309#2.2.2`;
/// `draft-1996#reply`; `google#syntax`).
pub fn decide(rules: &[(&RuleLine<'_>, &Pattern)], target: &[u8], knobs: &Knobs) -> Decision {
    let evaluations: Vec<RuleEvaluation> = rules
        .iter()
        .map(|&(rule, pattern)| {
            let outcome = outcome(rule, pattern, target, knobs, &Documents);
            evaluation(rule, pattern, rule.kind, outcome)
        })
        .collect();
    let deciding = deciding_rule(
        evaluations
            .iter()
            .map(|e| (e.kind, e.outcome.specificity())),
        knobs.precedence,
    );
    decision(evaluations, deciding)
}

/// One rule's evaluation, read as `kind` with `outcome`.
fn evaluation(
    rule: &RuleLine<'_>,
    pattern: &Pattern,
    kind: RuleKind,
    outcome: RuleOutcome,
) -> RuleEvaluation {
    RuleEvaluation {
        line: rule.line,
        kind,
        pattern: String::from_utf8_lossy(rule.value).into_owned(),
        normalised: pattern.display(),
        outcome,
    }
}

/// The decision given every rule's evaluation and the deciding one (its index and kind).
fn decision(rules: Vec<RuleEvaluation>, deciding: Option<(usize, RuleKind)>) -> Decision {
    Decision {
        allowed: deciding.is_none_or(|(_, kind)| kind == RuleKind::Allow),
        deciding: deciding.map(|(i, _)| i),
        rules,
    }
}

/// How specifically a path that is no Allow or Disallow value matches the target: a rule of an
/// extension that matches paths "using the same path prefix matching rules as defined for Allow
/// and Disallow" (`aipref-attach#3.1`). `value` is the path as written, `pattern` its compiled
/// form; the answer is what precedence compares (K4 specificity, K13 invalid patterns read as for
/// a rule), or `None` when it does not match.
pub fn path_specificity(
    value: &[u8],
    pattern: &Pattern,
    target: &[u8],
    knobs: &Knobs,
) -> Option<usize> {
    // An empty value is K9's, which speaks of rules.
    if value.is_empty() {
        return None;
    }
    let rule = RuleLine {
        line: 0,
        kind: RuleKind::Disallow,
        value,
    };
    outcome(&rule, pattern, target, knobs, &Documents).specificity()
}

/// The verdict of [`decide`] alone (true when allowed), without recording every rule; under
/// first-match precedence it stops at the deciding rule.
pub fn allows<'p, 'l: 'p>(
    rules: impl IntoIterator<Item = (&'p RuleLine<'l>, &'p Pattern<'l>)>,
    target: &[u8],
    knobs: &Knobs,
) -> bool {
    let outcomes = rules.into_iter().map(|(rule, pattern)| {
        let outcome = outcome(rule, pattern, target, knobs, &Documents);
        (rule.kind, outcome.specificity())
    });
    deciding_rule(outcomes, knobs.precedence).is_none_or(|(_, kind)| kind == RuleKind::Allow)
}

/// What one rule does against the target (K9 empty values, K13 invalid patterns, K4 specificity),
/// its pattern meeting the target as `how` says.
fn outcome(
    rule: &RuleLine<'_>,
    pattern: &Pattern,
    target: &[u8],
    knobs: &Knobs,
    how: &impl Matching,
) -> RuleOutcome {
    if rule.value.is_empty() {
        match knobs.empty_rule {
            // K9: rfc9309#2.2 `empty-pattern`; google#disallow: ignored; norobots-1994#format.
            EmptyRule::MatchesNothing | EmptyRule::EmptyRecordAllowsAll => {
                RuleOutcome::EmptyIgnored
            }
            // K9: draft-1996#3.2.2 read literally, guide-ch9#table-9-3.
            EmptyRule::MatchesEverything => RuleOutcome::Matched { specificity: 0 },
        }
    } else if is_invalid_pattern(rule.value, knobs.invalid_pattern) {
        RuleOutcome::InvalidIgnored
    } else if section_5_2_as_written(pattern, target, knobs) {
        // K4, rfc9309#5.2 read as its prose says: "/example/page/disallowed.gif MUST be used for
        // the URI example.com/example/page/disallow.gif", a URI rfc9309#2.2.2's rule does not match.
        RuleOutcome::Matched {
            specificity: how.specificity(rule.value.len(), pattern, target.len(), knobs),
        }
    } else {
        match how.match_end(pattern, target, knobs) {
            None => match how.retried(rule, target, knobs) {
                Some(specificity) => RuleOutcome::Matched { specificity },
                None => RuleOutcome::NoMatch,
            },
            Some(end) => RuleOutcome::Matched {
                specificity: how.specificity(rule.value.len(), pattern, end, knobs),
            },
        }
    }
}

/// How a rule that K9 and K13 let through meets the target: where its match ends, what it is
/// tried as when it does not match, and how specific a match is (K4). The documents' way is
/// [`Documents`]; the deviations' is [`Deviating`], a layer around it.
trait Matching {
    /// Where the match of `pattern` against `target` ends, if it matches.
    fn match_end(&self, pattern: &Pattern, target: &[u8], knobs: &Knobs) -> Option<usize>;
    /// The specificity of `rule`, which did not match, tried again as another rule; `None` when
    /// it is not tried again or does not match then either.
    fn retried(&self, rule: &RuleLine<'_>, target: &[u8], knobs: &Knobs) -> Option<usize>;
    /// How specific a match of `pattern` (from a value of `written` octets) ending at `end` is.
    fn specificity(&self, written: usize, pattern: &Pattern, end: usize, knobs: &Knobs) -> usize;
}

/// The documents' way: `rfc9309#2.2.3`'s matching, no second try, K4's specificity.
struct Documents;

impl Matching for Documents {
    fn match_end(&self, pattern: &Pattern, target: &[u8], _: &Knobs) -> Option<usize> {
        pattern.match_end(target)
    }

    fn retried(&self, _: &RuleLine<'_>, _: &[u8], _: &Knobs) -> Option<usize> {
        None
    }

    fn specificity(&self, _: usize, pattern: &Pattern, end: usize, knobs: &Knobs) -> usize {
        specificity(pattern, end, knobs)
    }
}

/// K4 under `SectionFiveTwo::AsWritten`: whether `pattern` is the example rule of rfc9309#5.2 and
/// `target` the URI its prose names, both normalised.
fn section_5_2_as_written(pattern: &Pattern, target: &[u8], knobs: &Knobs) -> bool {
    matches!(
        knobs.precedence,
        Precedence::MostSpecific(_, SectionFiveTwo::AsWritten)
    ) && pattern.is_section_5_2_rule()
        && target == crate::knobs::SECTION_5_2_URI
}

/// How specific a match of `pattern` ending at `end` is (K4).
fn specificity(pattern: &Pattern, end: usize, knobs: &Knobs) -> usize {
    match knobs.precedence {
        Precedence::MostSpecific(Specificity::MatchedOctets, _) => end,
        // google#url-matching: `/*` is "Equivalent to `/`. The trailing wildcard is ignored".
        Precedence::MostSpecific(Specificity::TrailingWildcardIgnored, _) => {
            pattern.octets() - pattern.trailing_wildcards()
        }
        _ => pattern.octets(),
    }
}

impl RuleOutcome {
    /// The specificity of a matching rule; `None` when the rule did not match.
    fn specificity(&self) -> Option<usize> {
        match *self {
            RuleOutcome::Matched { specificity } => Some(specificity),
            _ => None,
        }
    }
}

/// The deciding rule (its index and kind) among the rules' kinds and match specificities, in file
/// order (K4).
fn deciding_rule(
    mut rules: impl Iterator<Item = (RuleKind, Option<usize>)>,
    precedence: Precedence,
) -> Option<(usize, RuleKind)> {
    match precedence {
        // rfc9309#2.2.2: the most specific match; allow wins a tie (SHOULD). google#rule-precedence.
        Precedence::MostSpecific(..) => {
            let mut best: Option<(usize, bool, usize, RuleKind)> = None;
            for (i, (kind, specificity)) in rules.enumerate() {
                if let Some(specificity) = specificity {
                    let key = (specificity, kind == RuleKind::Allow);
                    if best.is_none_or(|(s, a, _, _)| key > (s, a)) {
                        best = Some((specificity, key.1, i, kind));
                    }
                }
            }
            best.map(|(_, _, i, kind)| (i, kind))
        }
        // draft-1996#3.2.2: the first match found is used.
        Precedence::FirstMatch => rules
            .enumerate()
            .find(|(_, (_, specificity))| specificity.is_some())
            .map(|(i, (kind, _))| (i, kind)),
        // norobots-1994#format: any URL starting with a disallowed value is excluded.
        Precedence::AnyDisallow => rules
            .position(|(kind, specificity)| kind == RuleKind::Disallow && specificity.is_some())
            .map(|i| (i, RuleKind::Disallow)),
    }
}

// The deviations of steps 6 and 7, as layers around the rules above.

/// [`decide`] under the deviations: an empty `Disallow:` read as `Allow: /`
/// (D-empty-disallow-allows-all), a rule list cleared by an empty `Disallow:`
/// (D-empty-disallow-clears), a check before precedence (D-empty-rule-allows-rest), and the
/// pattern meeting the target as [`Deviating`] says. Under no deviation it is [`decide`].
pub fn decide_deviating(
    rules: &[(&RuleLine<'_>, &Pattern)],
    target: &[u8],
    knobs: &Knobs,
) -> Decision {
    if knobs.deviations.is_empty() {
        return decide(rules, target, knobs);
    }
    let cleared = cleared_before(rules.iter().map(|&(rule, _)| rule), knobs);
    let evaluations: Vec<RuleEvaluation> = rules
        .iter()
        .enumerate()
        .map(|(i, &(rule, pattern))| {
            let (kind, outcome) = if i < cleared {
                // A rule an empty `Disallow:` cleared matches nothing.
                (kind_deviating(rule, knobs), RuleOutcome::NoMatch)
            } else {
                read_deviating(rule, pattern, target, knobs)
            };
            evaluation(rule, pattern, kind, outcome)
        })
        .collect();
    let deciding = empty_rule_first(
        evaluations
            .iter()
            .map(|e| (e.outcome.specificity(), e.pattern.is_empty())),
        knobs,
    )
    .or_else(|| {
        deciding_rule(
            evaluations
                .iter()
                .map(|e| (e.kind, e.outcome.specificity())),
            knobs.precedence,
        )
    });
    decision(evaluations, deciding)
}

/// [`allows`] under the deviations, as [`decide_deviating`] reads them. Under no deviation it is
/// [`allows`].
pub fn allows_deviating<'p, 'l: 'p>(
    rules: impl IntoIterator<Item = (&'p RuleLine<'l>, &'p Pattern<'l>)>,
    target: &[u8],
    knobs: &Knobs,
) -> bool {
    if knobs.deviations.is_empty() {
        return allows(rules, target, knobs);
    }
    let read = |(rule, pattern): (&RuleLine<'_>, &Pattern<'_>)| {
        let (kind, outcome) = read_deviating(rule, pattern, target, knobs);
        (kind, outcome.specificity())
    };
    let allowed = |rules: &mut dyn Iterator<Item = (RuleKind, Option<usize>)>| {
        deciding_rule(rules, knobs.precedence).is_none_or(|(_, kind)| kind == RuleKind::Allow)
    };
    if !knobs.deviations.has(Deviation::EmptyDisallowClears)
        && !knobs.deviations.has(Deviation::EmptyRuleAllowsRest)
    {
        return allowed(&mut rules.into_iter().map(read));
    }
    let rules: Vec<_> = rules.into_iter().collect();
    let cleared = cleared_before(rules.iter().map(|&(rule, _)| rule), knobs);
    let (gone, kept) = rules.split_at(cleared);
    // A cleared rule matches nothing, but is still an empty rule when its value is empty.
    let reached = gone
        .iter()
        .map(|&(rule, _)| (None, rule.value.is_empty()))
        .chain(
            kept.iter()
                .map(|&(rule, pattern)| (read((rule, pattern)).1, rule.value.is_empty())),
        );
    if empty_rule_first(reached, knobs).is_some() {
        return true;
    }
    allowed(&mut kept.iter().copied().map(read))
}

/// One rule's kind and outcome under the deviations.
fn read_deviating(
    rule: &RuleLine<'_>,
    pattern: &Pattern,
    target: &[u8],
    knobs: &Knobs,
) -> (RuleKind, RuleOutcome) {
    if is_empty_disallow(rule) && knobs.deviations.has(Deviation::EmptyDisallowAllowsAll) {
        // D-empty-disallow-allows-all, breaks rfc9309#2.2 (`empty-pattern`) and google#disallow:
        // the line is read as `Allow: /`.
        let outcome = if target.starts_with(b"/") {
            RuleOutcome::Matched { specificity: 1 }
        } else {
            RuleOutcome::NoMatch
        };
        return (RuleKind::Allow, outcome);
    }
    (rule.kind, outcome(rule, pattern, target, knobs, &Deviating))
}

/// A rule's kind: as written, but an empty `Disallow:` is an allow under
/// D-empty-disallow-allows-all.
fn kind_deviating(rule: &RuleLine<'_>, knobs: &Knobs) -> RuleKind {
    if is_empty_disallow(rule) && knobs.deviations.has(Deviation::EmptyDisallowAllowsAll) {
        RuleKind::Allow
    } else {
        rule.kind
    }
}

/// D-empty-rule-allows-rest (breaks rfc9309#2.2's `empty-pattern`, which matches nothing, and
/// draft-1996#3.2.2's first match): the first rule, in file order, that is empty or matches
/// (`(specificity, empty)` per rule), when it is an empty one, decides, and allows. `None` without
/// the deviation, or when a matching rule comes first.
fn empty_rule_first(
    rules: impl Iterator<Item = (Option<usize>, bool)>,
    knobs: &Knobs,
) -> Option<(usize, RuleKind)> {
    if !knobs.deviations.has(Deviation::EmptyRuleAllowsRest) {
        return None;
    }
    rules
        .enumerate()
        .find(|(_, (matched, empty))| matched.is_some() || *empty)
        .filter(|(_, (_, empty))| *empty)
        .map(|(i, _)| (i, RuleKind::Allow))
}

/// Whether `rule` is an empty `Disallow:`.
fn is_empty_disallow(rule: &RuleLine<'_>) -> bool {
    rule.kind == RuleKind::Disallow && rule.value.is_empty()
}

/// D-empty-disallow-clears (breaks norobots-1994#format, where an empty value lifts no other
/// line, and rfc9309#2.2.1, where matching groups' rules are combined): how many of the rules, in
/// file order, an empty `Disallow:` after them clears (0 without the deviation).
fn cleared_before<'p, 'l: 'p>(
    rules: impl Iterator<Item = &'p RuleLine<'l>>,
    knobs: &Knobs,
) -> usize {
    if !knobs.deviations.has(Deviation::EmptyDisallowClears) {
        return 0;
    }
    rules
        .enumerate()
        .filter(|(_, rule)| is_empty_disallow(rule))
        .last()
        .map_or(0, |(i, _)| i + 1)
}

/// The pattern meeting the target under the deviations: D-no-backtracking's matching,
/// D-index-html-allows-directory's second try, and D-raw-length's or D-wildcards-out-of-length's
/// specificity; the documents' way ([`Documents`]) for the rest.
struct Deviating;

impl Matching for Deviating {
    fn match_end(&self, pattern: &Pattern, target: &[u8], knobs: &Knobs) -> Option<usize> {
        if knobs.deviations.has(Deviation::NoBacktracking) {
            pattern.match_end_without_backtracking(target)
        } else {
            pattern.match_end(target)
        }
    }

    fn retried(&self, rule: &RuleLine<'_>, target: &[u8], knobs: &Knobs) -> Option<usize> {
        index_directory(rule, target, knobs)
    }

    fn specificity(&self, written: usize, pattern: &Pattern, end: usize, knobs: &Knobs) -> usize {
        let deviations = knobs.deviations;
        match knobs.precedence {
            // The matched octets are counted as they are under every deviation.
            Precedence::MostSpecific(Specificity::MatchedOctets, _) => {
                specificity(pattern, end, knobs)
            }
            // D-raw-length, breaks rfc9309#2.2.2 (octets compared after normalising).
            _ if deviations.has(Deviation::RawLength) => written,
            // D-wildcards-out-of-length, breaks rfc9309#2.2.2 ("the match that has the most
            // octets") and google#url-matching.
            _ if deviations.has(Deviation::WildcardsOutOfLength) => pattern.literal_octets(),
            _ => specificity(pattern, end, knobs),
        }
    }
}

/// D-index-html-allows-directory, breaks rfc9309#2.2.2 ("The matching MUST start with the first
/// octet of the path") and google#url-matching (`/*.php` does not match `/` "even if it maps to
/// /index.php"): an `Allow` that did not match, whose value from its last `/` begins with
/// `/index.htm`, is tried again as the directory alone, the value up to that `/` anchored with `$`
/// (Google's C++, `RobotsMatcher::HandleAllow`). The specificity of that match, or `None`.
fn index_directory(rule: &RuleLine<'_>, target: &[u8], knobs: &Knobs) -> Option<usize> {
    if rule.kind != RuleKind::Allow || !knobs.deviations.has(Deviation::IndexHtmlAllowsDirectory) {
        return None;
    }
    let slash = rule.value.iter().rposition(|&b| b == b'/')?;
    if !rule.value[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let directory = &rule.value[..=slash];
    let pattern = Pattern {
        anchored: true,
        ..Pattern::compile_deviating(directory, crate::pattern::PatternKnobs::of(knobs))
    };
    let end = Deviating.match_end(&pattern, target, knobs)?;
    // Written as `<directory>$`.
    Some(Deviating.specificity(directory.len() + 1, &pattern, end, knobs))
}
