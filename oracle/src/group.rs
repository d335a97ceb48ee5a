//! Step 3, groups (K1, K2): which user-agent lines and rules belong together.

use smallvec::{smallvec, SmallVec};

use crate::deviation::{Deviation, Deviations};
use crate::knobs::{AgentAfterRule, CommentLine, Grouping, Knobs};
use crate::line::LineKind;

/// A user-agent line of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentLine<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The value after the colon, trimmed.
    pub value: &'a [u8],
}

/// Whether a rule allows or disallows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleKind {
    /// `Allow:`.
    Allow,
    /// `Disallow:`.
    Disallow,
}

/// An allow or disallow line of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleLine<'a> {
    /// 1-based line number.
    pub line: usize,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The value after the colon, trimmed.
    pub value: &'a [u8],
}

/// A group (RFC 9309) or record (1994, 1996): user-agent lines and the rules that follow them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Group<'a> {
    /// The user-agent lines, in file order.
    pub agents: SmallVec<[AgentLine<'a>; 2]>,
    /// The rules, in file order.
    pub rules: SmallVec<[RuleLine<'a>; 3]>,
}

/// The groups of a body, plus the rules that belong to none (K2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups<'a> {
    /// Groups in file order.
    pub groups: Vec<Group<'a>>,
    /// Line numbers of allow/disallow lines outside every group (ignored).
    pub orphan_rules: Vec<usize>,
}

/// The knobs step 3 reads (K1, K5): readings that agree on them share one set of groups (see
/// [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupKnobs {
    /// K1: what makes a group.
    pub grouping: Grouping,
    /// K5: whether `Allow` is a rule.
    pub allow_directive: bool,
    /// K13: where white space may stand around a line's field (step 2, whose kinds step 3 reads).
    pub field_spacing: crate::line::FieldSpacing,
    /// The deviations steps 2 and 3 read ([`crate::deviation::GROUP`]).
    pub deviations: Deviations,
}

impl GroupKnobs {
    /// The step-3 knobs of a reading.
    pub fn of(knobs: &Knobs) -> GroupKnobs {
        GroupKnobs {
            grouping: knobs.grouping,
            allow_directive: knobs.allow_directive,
            field_spacing: knobs.field_spacing,
            deviations: knobs.deviations.only(crate::deviation::GROUP),
        }
    }
}

/// Builds the groups (K1) from the body's classified lines (step 2), `kinds[i]` being line `i + 1`.
/// Rules outside every group are set aside (K2: `rfc9309#2.2.2` SHOULD ignore; `google#grouping`;
/// `draft-1996#3.3`; `norobots-1994#format`).
pub fn build_groups<'a>(kinds: &[LineKind<'a>], grouping: Grouping) -> Groups<'a> {
    groups_of(numbered(kinds), grouping)
}

/// Each kind with its 1-based line number.
fn numbered<'k, 'a>(
    kinds: &'k [LineKind<'a>],
) -> impl Iterator<Item = (usize, LineKind<'a>)> + use<'k, 'a> {
    kinds
        .iter()
        .enumerate()
        .map(|(index, &kind)| (index + 1, kind))
}

/// [`build_groups`] over (line number, kind) pairs in file order.
fn groups_of<'a>(
    lines: impl Iterator<Item = (usize, LineKind<'a>)>,
    grouping: Grouping,
) -> Groups<'a> {
    let mut out = Groups::default();
    // The group being built, if any; `None` once a blank line has closed a record.
    let mut current: Option<Group<'a>> = None;
    for (number, kind) in lines {
        match kind {
            LineKind::UserAgent(value) => {
                let agent = AgentLine {
                    line: number,
                    value,
                };
                let starts_group = match (&current, grouping) {
                    (None, _) => true,
                    // rfc9309#2.1, rfc9309#2.2: a user-agent line after a rule starts a new group.
                    (Some(group), Grouping::UserAgentAfterRuleStartsGroup) => {
                        !group.rules.is_empty()
                    }
                    // draft-1996#3.3: the BNF has no user-agent line after a rule in a record.
                    (Some(group), Grouping::BlankLineRecords(AgentAfterRule::StartsRecord, _)) => {
                        !group.rules.is_empty()
                    }
                    (Some(_), Grouping::BlankLineRecords(AgentAfterRule::JoinsRecord, _)) => false,
                };
                if starts_group {
                    out.groups.extend(current.take());
                    current = Some(Group {
                        agents: smallvec![agent],
                        rules: SmallVec::new(),
                    });
                } else if let Some(group) = current.as_mut() {
                    group.agents.push(agent);
                }
            }
            LineKind::Allow(value) | LineKind::Disallow(value) => {
                let kind = if matches!(kind, LineKind::Allow(_)) {
                    RuleKind::Allow
                } else {
                    RuleKind::Disallow
                };
                match current.as_mut() {
                    Some(group) => group.rules.push(RuleLine {
                        line: number,
                        kind,
                        value,
                    }),
                    None => out.orphan_rules.push(number),
                }
            }
            LineKind::Blank => {
                // draft-1996#3.2, norobots-1994#format: a blank line ends the record.
                if let Grouping::BlankLineRecords(..) = grouping {
                    out.groups.extend(current.take());
                }
            }
            LineKind::Comment
                if matches!(grouping, Grouping::BlankLineRecords(_, CommentLine::Blank)) =>
            {
                // norobots-1994#format, one reading: a line holding only a comment is an empty
                // line, which ends the record.
                out.groups.extend(current.take());
            }
            // rfc9309#2.2.4: other records never end a group; comments and invalid lines are skipped.
            LineKind::Comment | LineKind::Other(_) | LineKind::Invalid => {}
        }
    }
    out.groups.extend(current);
    out
}

/// The groups of a body whose grammar has another rule besides Allow and Disallow: the lines
/// numbered in `extension_lines` (1-based, ascending) are that rule's (`aipref-attach#3`: `rule =/
/// content-usage`, "A Content-Usage rule is added to the set of potential rules that can be
/// included in a Group"). Such a line takes part in grouping as every rule does (K1: after it, a
/// user-agent line starts a new group, `rfc9309#2.2`); it is returned with the group it falls in,
/// apart from the group's Allow and Disallow rules, which stay as [`build_groups`] gives them.
pub fn build_groups_with_extension<'a>(
    kinds: &[LineKind<'a>],
    grouping: Grouping,
    extension_lines: &[usize],
) -> ExtendedGroups<'a> {
    let is_extension = |line: usize| extension_lines.binary_search(&line).is_ok();
    // Each extension line stands in the grouping as a rule (an empty `Disallow`, taken out again
    // below): the grouping is [`build_groups`]'s own, not a second statement of it.
    let as_rules = numbered(kinds).map(|(number, kind)| {
        if is_extension(number) {
            (number, LineKind::Disallow(b""))
        } else {
            (number, kind)
        }
    });
    let mut groups = groups_of(as_rules, grouping);
    let mut extension_rules = Vec::with_capacity(groups.groups.len());
    for group in &mut groups.groups {
        extension_rules.push(
            group
                .rules
                .iter()
                .map(|rule| rule.line)
                .filter(|&line| is_extension(line))
                .collect(),
        );
        group.rules.retain(|rule| !is_extension(rule.line));
    }
    let (orphan_extension_rules, orphan_rules) = groups
        .orphan_rules
        .iter()
        .partition(|&&line| is_extension(line));
    groups.orphan_rules = orphan_rules;
    ExtendedGroups {
        groups,
        extension_rules,
        orphan_extension_rules,
    }
}

/// [`build_groups_with_extension`]'s answer: the groups, and where the extension's rules fell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtendedGroups<'a> {
    /// The groups, their `rules` the Allow and Disallow lines only.
    pub groups: Groups<'a>,
    /// For each group (same index), the line numbers of the extension's rules in it, in file order.
    pub extension_rules: Vec<Vec<usize>>,
    /// Line numbers of the extension's rules outside every group.
    pub orphan_extension_rules: Vec<usize>,
}

/// [`build_groups`] under the deviations of [`crate::deviation::GROUP`] that step 3 reads, each a
/// layer around the document's grouping: a check before it (D-invalid-line-rejects-file,
/// D-record-grammar-rejects-file), a synthetic line given to it (D-rules-before-agents-for-all),
/// and its groups split afterwards (D-other-line-ends-agents, D-group-line-ends-agents). Step 2's
/// deviations are in the kinds it is given.
pub fn build_groups_deviating<'a>(
    kinds: &[LineKind<'a>],
    grouping: Grouping,
    deviations: Deviations,
) -> Groups<'a> {
    // D-invalid-line-rejects-file: a strict grammar's parse error (a line without a colon, or
    // whose field is not a name) leaves nothing of the file.
    let unparsable = |kind: &LineKind<'_>| match kind {
        LineKind::Invalid => true,
        LineKind::Other(field) => !crate::deviation::is_field_name(field),
        _ => false,
    };
    if deviations.has(Deviation::InvalidLineRejectsFile) && kinds.iter().any(unparsable) {
        return Groups::default();
    }
    // D-record-grammar-rejects-file: a strict record grammar's parse error leaves nothing of
    // the file either.
    if deviations.has(Deviation::RecordGrammarRejectsFile) && !follows_record_grammar(kinds) {
        return Groups::default();
    }
    let mut groups = if deviations.has(Deviation::RulesBeforeAgentsForAll) {
        groups_of(star_above_first_rule(kinds), grouping)
    } else {
        build_groups(kinds, grouping)
    };
    if deviations.has(Deviation::OtherLineEndsAgents) {
        groups.groups = split_after_other_lines(kinds, groups.groups, |_| true);
    } else if deviations.has(Deviation::GroupLineEndsAgents) {
        groups.groups = split_after_other_lines(kinds, groups.groups, is_group_line);
    }
    groups
}

/// D-record-grammar-rejects-file, breaks rfc9309#2.2 and rfc9309#2.2.4 (lines that fail to parse
/// are ignored; other records do not interfere with the groups): whether the lines follow a strict
/// record grammar. The file is blocks of lines apart by blank lines; in each, comments and
/// `Sitemap` lines aside, a record is one or more user-agent lines and then rule lines (`Allow`,
/// `Disallow` or any other `field: value` line whose field is a name), and a block of rule lines
/// alone is a record's stray rules, dropped, except as the file's first block. A line that is not
/// `field: value` is left to D-invalid-line-rejects-file.
fn follows_record_grammar(kinds: &[LineKind<'_>]) -> bool {
    enum Seen {
        Nothing,
        Agents,
        Rules,
    }
    let mut first_block = true;
    let mut block_has_lines = false;
    let mut seen = Seen::Nothing;
    for kind in kinds {
        // Each line is a record separator, nothing to the grammar (no `field: value`), a line of
        // the block that neither opens nor ends a record (a comment, `Sitemap`), a user-agent
        // line or a rule line.
        let rule_line = match kind {
            LineKind::Blank => {
                if block_has_lines {
                    first_block = false;
                }
                block_has_lines = false;
                seen = Seen::Nothing;
                continue;
            }
            LineKind::Invalid => continue,
            LineKind::Other(field) if !crate::deviation::is_field_name(field) => continue,
            LineKind::Comment => None,
            LineKind::Other(field) if field.eq_ignore_ascii_case(b"sitemap") => None,
            LineKind::UserAgent(_) => Some(false),
            LineKind::Allow(_) | LineKind::Disallow(_) | LineKind::Other(_) => Some(true),
        };
        block_has_lines = true;
        let Some(rule_line) = rule_line else {
            continue;
        };
        seen = match (seen, rule_line) {
            (Seen::Nothing, false) | (Seen::Agents, false) => Seen::Agents,
            (Seen::Nothing, true) if first_block => return false,
            (Seen::Rules, false) => return false,
            (_, true) => Seen::Rules,
        };
    }
    true
}

/// D-rules-before-agents-for-all, breaks rfc9309#2.2.2 and google#grouping (rules outside a group
/// are ignored): the lines with a `User-agent: *` line above the first rule, when that rule comes
/// before every user-agent line. The synthetic line takes the rule's line number.
fn star_above_first_rule<'k, 'a>(
    kinds: &'k [LineKind<'a>],
) -> impl Iterator<Item = (usize, LineKind<'a>)> + use<'k, 'a> {
    let first_rule = kinds
        .iter()
        .position(|kind| {
            matches!(
                kind,
                LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_)
            )
        })
        .filter(|&at| !matches!(kinds[at], LineKind::UserAgent(_)));
    numbered(kinds).flat_map(move |(number, kind)| {
        let star = (Some(number - 1) == first_rule).then_some((number, LineKind::UserAgent(b"*")));
        star.into_iter().chain(std::iter::once((number, kind)))
    })
}

/// D-group-line-ends-agents: whether an other line's `field` is one a parser reads as a line of
/// the group (`Crawl-delay`, `Content-Usage`, an unknown field), not as a record of the whole file
/// (`Sitemap`, its misspellings `Sitemaps` and `Site-map`, `Host`); compared without regard to
/// case.
fn is_group_line(field: &[u8]) -> bool {
    const WHOLE_FILE: [&[u8]; 4] = [b"sitemap", b"sitemaps", b"site-map", b"host"];
    !WHOLE_FILE
        .iter()
        .any(|name| field.eq_ignore_ascii_case(name))
}

/// D-other-line-ends-agents and D-group-line-ends-agents, break rfc9309#2.2.4 (other records do not
/// interfere with the groups): a user-agent line that follows an other line (a `field: value` line
/// that is no user-agent line or rule) whose field `ends` coming after its group's previous
/// user-agent line starts a new group, as after a rule, with the rules that follow it.
fn split_after_other_lines<'a>(
    kinds: &[LineKind<'a>],
    groups: Vec<Group<'a>>,
    ends: fn(&[u8]) -> bool,
) -> Vec<Group<'a>> {
    // Whether an other line that ends the run stands strictly between lines `after` and `before`
    // (1-based).
    let other_between = |after: usize, before: usize| {
        kinds[after..before - 1]
            .iter()
            .any(|kind| matches!(kind, LineKind::Other(field) if ends(field)))
    };
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let mut rules = group.rules.into_iter().peekable();
        let mut current = Group::default();
        let mut previous: Option<usize> = None;
        for agent in group.agents {
            if previous.is_some_and(|line| other_between(line, agent.line)) {
                current.rules.extend(std::iter::from_fn(|| {
                    rules.next_if(|r| r.line < agent.line)
                }));
                out.push(std::mem::take(&mut current));
            }
            previous = Some(agent.line);
            current.agents.push(agent);
        }
        current.rules.extend(rules);
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::split_lines;
    use crate::knobs::ProfileId;
    use crate::line::classify;

    /// D-record-grammar-rejects-file's grammar, line by line (Google's line reading).
    #[test]
    fn the_strict_record_grammar_accepts_records_and_refuses_the_rest() {
        let follows = |body: &[u8]| {
            let knobs = ProfileId::Google.base_knobs();
            let kinds: Vec<LineKind<'_>> = split_lines(body)
                .iter()
                .map(|line| classify(line, knobs.allow_directive, knobs.field_spacing))
                .collect();
            follows_record_grammar(&kinds)
        };
        for body in [
            &b""[..],
            b"# only a comment\n",
            b"User-agent: a\nUser-agent: b\nDisallow: /x\nCrawl-delay: 5\n",
            b"User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
            b"User-agent: a\nSitemap: /s.xml\nUser-agent: b\nDisallow: /x\n",
            b"Sitemap: /s.xml\nUser-agent: a\nDisallow: /x\n",
            b"# top\nUser-agent: a\n# note\nUser-agent: b\nDisallow: /x\n",
            // A record's stray rules after a blank line are dropped, not refused.
            b"User-agent: a\nDisallow: /x\n\nDisallow: /y\n\nUser-agent: b\n",
            b"# top\n\nDisallow: /y\n",
            // A line that is not `field: value` is D-invalid-line-rejects-file's, not this one's.
            b"User-agent: a\nstray text\nDisallow: /x\n",
        ] {
            assert!(follows(body), "{}", String::from_utf8_lossy(body));
        }
        for body in [
            &b"Disallow: /x\nUser-agent: a\n"[..],
            b"Content-Usage: train-ai=n\n\nUser-agent: a\nDisallow: /x\n",
            b"# top\nDisallow: /x\n",
            b"User-agent: a\nDisallow: /x\nUser-agent: b\n",
            b"User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n",
            b"User-agent: a\nDisallow: /x\n# note\nUser-agent: b\n",
            b"User-agent: a\nDisallow: /x\n\nDisallow: /y\nUser-agent: b\n",
        ] {
            assert!(!follows(body), "{}", String::from_utf8_lossy(body));
        }
    }

    fn shape(body: &[u8], profile: ProfileId) -> (Vec<(usize, usize)>, Vec<usize>) {
        let knobs = profile.base_knobs();
        let kinds: Vec<LineKind<'_>> = split_lines(body)
            .iter()
            .map(|line| classify(line, knobs.allow_directive, knobs.field_spacing))
            .collect();
        let groups = build_groups(&kinds, knobs.grouping);
        (
            groups
                .groups
                .iter()
                .map(|g| (g.agents.len(), g.rules.len()))
                .collect(),
            groups.orphan_rules,
        )
    }

    #[test]
    fn rfc9309_blank_lines_mean_nothing() {
        let body = b"Disallow: /x\nUser-agent: a\n\nUser-agent: b\nSitemap: s\n\nDisallow: /\nUser-agent: c\n";
        assert_eq!(
            shape(body, ProfileId::Rfc9309),
            (vec![(2, 1), (1, 0)], vec![1])
        );
    }

    #[test]
    fn draft_1996_blank_lines_end_records() {
        let body = b"User-agent: a\n\nUser-agent: b\nDisallow: /\n\nDisallow: /y\n";
        assert_eq!(
            shape(body, ProfileId::Draft1996),
            (vec![(1, 0), (1, 1)], vec![6])
        );
    }
}
