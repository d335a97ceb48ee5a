//! RFC 9309's base reading through the oracle's own steps, composed as `literal::allowed` composes
//! them, with one novel bug ([`Bug`]) injected between two steps: the body before step 1, the
//! groups after step 3, the user-agent values step 4 compares, the selection after it, the target
//! of step 5, the decision of steps 6 and 7. Every bug acts at one or two of these places; at all
//! the others a bug leaves what passes as it is, so that without its effect the mutant answers
//! exactly what the base reading answers (`differential/tests/zoo.rs` checks that on generated
//! inputs).

use robotstxt_oracle::body::{self, lines_with_ends, BodyKnobs};
use robotstxt_oracle::decide::{self, RuleOutcome};
use robotstxt_oracle::group::{self, Group, RuleKind, RuleLine};
use robotstxt_oracle::knobs::{Knobs, ProfileId};
use robotstxt_oracle::line::{self, field_and_value_spans, strip_comment, trim_ws, LineKind};
use robotstxt_oracle::pattern::{Pattern, PatternKnobs};
use robotstxt_oracle::select::{self, SelectKnobs, SelectionReason};
use robotstxt_oracle::url::{self, TargetKnobs};
use robotstxt_oracle::Request;

use super::novel::Bug;

/// Whether RFC 9309's base reading, with `bug` (none: the base reading itself), allows the
/// request's URL.
pub fn allows(bug: Option<Bug>, request: &Request<'_>) -> bool {
    let knobs = ProfileId::Rfc9309.base_knobs();
    let split = url::split(request.url);
    if decide::robots_txt_exempt(&split, &knobs) {
        return true;
    }
    let received = body_read(bug, request.body);
    let (octets, _) = body::prepare_body(&received, BodyKnobs::of(&knobs));
    let lines = body::split_lines(&octets);
    let kinds: Vec<LineKind<'_>> = lines
        .iter()
        .map(|l| line::classify(l, knobs.allow_directive, knobs.field_spacing))
        .collect();
    let mut groups = group::build_groups(&kinds, knobs.grouping).groups;
    groups_built(bug, &mut groups);
    agents_compared(bug, &mut groups, request.agent);
    let mut selected = select::select(&groups, request.agent, SelectKnobs::of(&knobs));
    if selected.reason == SelectionReason::NoGroup && bug == Some(Bug::NoGroupDisallowsAll) {
        return false;
    }
    if bug == Some(Bug::RepeatedGroupReplaces) && selected.groups.len() > 1 {
        let all_but_last = selected.groups.len() - 1;
        selected.groups.drain(..all_but_last);
    }
    if decide::empty_record_allows_all(selected.records(&groups), &knobs) {
        return true;
    }
    let mut target = url::normalised_target(&split, TargetKnobs::of(&knobs)).into_owned();
    if bug == Some(Bug::SemicolonEndsPath) {
        if let Some(at) = target.iter().position(|&b| b == b';') {
            target.truncate(at);
        }
    }
    let patterns: Vec<(&RuleLine<'_>, Pattern<'_>)> = selected
        .rules(&groups)
        .map(|rule| (rule, Pattern::compile(rule.value, PatternKnobs::of(&knobs))))
        .collect();
    let rules: Vec<(&RuleLine<'_>, &Pattern<'_>)> = patterns.iter().map(|(r, p)| (*r, p)).collect();
    decided(bug, &rules, &target, &knobs)
}

/// Before step 1: the body as the buggy parser reads it.
fn body_read(bug: Option<Bug>, body: &[u8]) -> Vec<u8> {
    let Some(bug) = bug else {
        return body.to_vec();
    };
    let is_rule = |field: &[u8]| {
        field.eq_ignore_ascii_case(b"allow") || field.eq_ignore_ascii_case(b"disallow")
    };
    match bug {
        Bug::Unanchored => edit_values(body, |field, value| {
            (is_rule(field) && !value.is_empty() && value[0] != b'*')
                .then(|| [b"*", value].concat())
        }),
        Bug::TrailingSlashAdded => edit_values(body, |field, value| {
            let ends_open = value
                .last()
                .is_some_and(|b| matches!(b, b'/' | b'*' | b'$'));
            (is_rule(field) && !value.is_empty() && !ends_open).then(|| [value, b"/"].concat())
        }),
        Bug::LongRulesCut => edit_values(body, |field, value| {
            (is_rule(field) && value.len() > 255).then(|| value[..255].to_vec())
        }),
        Bug::LastOctetDropped => edit_values(body, |field, value| {
            (is_rule(field) && !value.is_empty()).then(|| value[..value.len() - 1].to_vec())
        }),
        Bug::AllowIsDisallow => edit_lines(body, |content| {
            let (field, _) = field_and_value_spans(content)?;
            content[field.clone()]
                .eq_ignore_ascii_case(b"allow")
                .then(|| [&content[..field.start], b"Disallow", &content[field.end..]].concat())
        }),
        Bug::CommentsAreDirectives => edit_lines(body, |content| {
            let start = content.iter().position(|&b| !line::is_ws(b))?;
            (content[start] == b'#').then(|| trim_ws(&content[start + 1..]).to_vec())
        }),
        Bug::TabIsText => body
            .iter()
            .flat_map(|&b| if b == b'\t' { b"%09".to_vec() } else { vec![b] })
            .collect(),
        Bug::SecondColonDropsLine => keep_lines(body, |_, content| {
            strip_comment(content)
                .iter()
                .filter(|&&b| b == b':')
                .count()
                < 2
        }),
        Bug::CaseSensitiveFields => keep_lines(body, |_, content| {
            let Some((field, _)) = field_and_value_spans(content) else {
                return true;
            };
            let field = &content[field];
            let known = [&b"User-agent"[..], b"Allow", b"Disallow"];
            !known.iter().any(|k| field.eq_ignore_ascii_case(k)) || known.contains(&field)
        }),
        Bug::RulesWithQueryIgnored => keep_lines(body, |_, content| {
            field_and_value_spans(content)
                .is_none_or(|(f, v)| !is_rule(&content[f]) || !content[v].contains(&b'?'))
        }),
        Bug::RootDisallowIgnored => keep_lines(body, |_, content| {
            field_and_value_spans(content).is_none_or(|(f, v)| {
                !(content[f].eq_ignore_ascii_case(b"disallow") && &content[v] == b"/")
            })
        }),
        Bug::StopsAtBlankLine => {
            let mut blank_seen = false;
            keep_lines(body, |_, content| {
                blank_seen |= trim_ws(content).is_empty();
                !blank_seen
            })
        }
        Bug::SitemapEndsFile => {
            let mut sitemap_seen = false;
            keep_lines(body, |_, content| {
                let keep = !sitemap_seen;
                sitemap_seen |= field_and_value_spans(content)
                    .is_some_and(|(f, _)| content[f].eq_ignore_ascii_case(b"sitemap"));
                keep
            })
        }
        Bug::CrawlDelayResetsRules => {
            // The rules since the last user-agent line, dropped at a `Crawl-delay` line.
            let lines = lines_with_ends(body);
            let mut dropped = vec![false; lines.len()];
            let mut rules_since_agent: Vec<usize> = Vec::new();
            for (i, (content, _)) in lines.iter().enumerate() {
                let Some((field, _)) = field_and_value_spans(content) else {
                    continue;
                };
                let field = &content[field];
                if field.eq_ignore_ascii_case(b"user-agent") {
                    rules_since_agent.clear();
                } else if is_rule(field) {
                    rules_since_agent.push(i);
                } else if field.eq_ignore_ascii_case(b"crawl-delay") {
                    for &r in &rules_since_agent {
                        dropped[r] = true;
                    }
                    rules_since_agent.clear();
                }
            }
            keep_lines(body, |i, _| !dropped[i])
        }
        _ => body.to_vec(),
    }
}

/// `body` with each line's content replaced where `edit` gives a new one (its line end kept).
fn edit_lines(body: &[u8], mut edit: impl FnMut(&[u8]) -> Option<Vec<u8>>) -> Vec<u8> {
    lines_with_ends(body)
        .into_iter()
        .flat_map(|(content, end)| {
            let content = edit(content).unwrap_or_else(|| content.to_vec());
            [&content[..], end].concat()
        })
        .collect()
}

/// `body` with each line's value replaced where `edit` (given the field and the value) gives a
/// new one; everything else on the line as written.
fn edit_values(body: &[u8], mut edit: impl FnMut(&[u8], &[u8]) -> Option<Vec<u8>>) -> Vec<u8> {
    edit_lines(body, |content| {
        let (field, value) = field_and_value_spans(content)?;
        let new = edit(&content[field], &content[value.clone()])?;
        Some([&content[..value.start], &new[..], &content[value.end..]].concat())
    })
}

/// `body` with only the lines `keep` (given the line's index and content) keeps.
fn keep_lines(body: &[u8], mut keep: impl FnMut(usize, &[u8]) -> bool) -> Vec<u8> {
    lines_with_ends(body)
        .into_iter()
        .enumerate()
        .filter(|(i, (content, _))| keep(*i, content))
        .flat_map(|(_, (content, end))| [content, end].concat())
        .collect()
}

/// After step 3: the groups as the buggy parser builds them.
fn groups_built(bug: Option<Bug>, groups: &mut [Group<'_>]) {
    let Some(bug) = bug else {
        return;
    };
    for (i, group) in groups.iter_mut().enumerate() {
        match bug {
            Bug::AgentLineReplaces => {
                let keep = group.agents.len().saturating_sub(1);
                group.agents.drain(..keep);
            }
            Bug::StarGroupOnlyFirst if i > 0 => {
                group.agents.retain(|agent| agent.value != b"*");
            }
            Bug::FirstRuleOnly => group.rules.truncate(1),
            Bug::EmptyDisallowHidesLater => {
                if let Some(at) = group
                    .rules
                    .iter()
                    .position(|r| r.kind == RuleKind::Disallow && r.value.is_empty())
                {
                    group.rules.truncate(at + 1);
                }
            }
            _ => {}
        }
    }
}

/// Step 4's input: the user-agent values as the buggy parser compares them with `agent`. A value
/// the bug makes name the crawler is written as the crawler's name; one it makes name nothing, as
/// a NUL.
fn agents_compared<'a>(bug: Option<Bug>, groups: &mut [Group<'a>], agent: &'a str) {
    let Some(bug) = bug else {
        return;
    };
    let name = agent.as_bytes();
    for group in groups {
        for line in &mut group.agents {
            let value = line.value;
            let names = match bug {
                // RFC 9309's base reading compares the whole value, ignoring case.
                Bug::CaseSensitiveAgent if value.eq_ignore_ascii_case(name) => Some(value == name),
                Bug::AgentPrefixOfValue
                    if value.len() > name.len()
                        && value[..name.len()].eq_ignore_ascii_case(name) =>
                {
                    Some(true)
                }
                Bug::AgentCutAtEight
                    if value.len() >= 8
                        && name.len() >= 8
                        && value[..8].eq_ignore_ascii_case(&name[..8]) =>
                {
                    Some(true)
                }
                _ => None,
            };
            match names {
                Some(true) => line.value = name,
                Some(false) => line.value = b"\0",
                None => {}
            }
        }
    }
}

/// Steps 6 and 7: the decision, as the buggy parser makes it.
fn decided<'a>(
    bug: Option<Bug>,
    rules: &[(&RuleLine<'a>, &Pattern<'a>)],
    target: &[u8],
    knobs: &Knobs,
) -> bool {
    let Some(
        bug @ (Bug::LastMatchWins
        | Bug::ShortestMatchWins
        | Bug::DisallowWinsTies
        | Bug::StarOneOctet),
    ) = bug
    else {
        return decide::allows(rules.iter().copied(), target, knobs);
    };
    let decision = decide::decide(rules, target, knobs);
    // Each rule's kind and, when it matches, its specificity.
    let matched: Vec<(RuleKind, Option<usize>)> = decision
        .rules
        .iter()
        .zip(rules)
        .map(|(evaluation, (_, pattern))| {
            let specificity = match evaluation.outcome {
                RuleOutcome::Matched { specificity } if bug != Bug::StarOneOctet => {
                    Some(specificity)
                }
                RuleOutcome::Matched { .. } | RuleOutcome::NoMatch if bug == Bug::StarOneOctet => {
                    one_octet_stars(pattern, target).then(|| pattern.octets())
                }
                _ => None,
            };
            (evaluation.kind, specificity)
        })
        .collect();
    let mut found = matched.iter().filter_map(|(kind, s)| s.map(|s| (*kind, s)));
    let deciding = match bug {
        Bug::LastMatchWins => found.next_back(),
        Bug::ShortestMatchWins => found.min_by_key(|&(kind, s)| (s, kind != RuleKind::Allow)),
        Bug::DisallowWinsTies => found.max_by_key(|&(kind, s)| (s, kind == RuleKind::Disallow)),
        // The longest match, `Allow` on a tie: RFC 9309's own precedence.
        _ => found.max_by_key(|&(kind, s)| (s, kind == RuleKind::Allow)),
    };
    deciding.is_none_or(|(kind, _)| kind == RuleKind::Allow)
}

/// Whether `pattern` matches `target` from its start with each `*` standing for exactly one
/// octet (and `$` for the end).
fn one_octet_stars(pattern: &Pattern<'_>, target: &[u8]) -> bool {
    if pattern.impossible {
        return false;
    }
    let mut pos = 0;
    for (i, segment) in pattern.segments.iter().enumerate() {
        if i > 0 {
            pos += 1;
        }
        match target.get(pos..pos + segment.len()) {
            Some(found) if found == &segment[..] => pos += segment.len(),
            _ => return false,
        }
    }
    !pattern.anchored || pos == target.len()
}
