//! The `aipref` reading: which usage preference a robots.txt file attaches to a URL, for a crawler
//! and a category of use.
//!
//! The documents are the IETF AI Preferences working group's editor's copies at commit `7ca0afc`
//! (2026-08-19) of "Associating AI Usage Preferences with Content in HTTP" (matching revision 05,
//! `draft-ietf-aipref-attach-05`, cited by section, e.g. `aipref-attach#3.2`) and "A Vocabulary
//! For Expressing AI Usage Preferences" (cited e.g. `aipref-vocab#6.5`), section numbers as their
//! kramdown sources number them ([`REVISION`]). The attachment draft "Updates: 9309": the file is
//! read as RFC 9309 reads it, with one more rule in a group, `Content-Usage` (`aipref-attach#3`).
//! So a reading here is one of RFC 9309's readings (its knobs, [`crate::knobs`]) and, where the
//! drafts themselves leave a point open, one of their alternatives ([`StatementBounds`]).
//!
//! For one reading ([`under`]), after step 0 and the fetch outcome ([`before_body`]):
//! 1. the lines, their kinds and the groups are RFC 9309's (`body`, `line`, `group`), a
//!    `Content-Usage` line taking part in grouping as a rule ([`rule_value`],
//!    [`group::build_groups_with_extension`]);
//! 2. the crawler's groups are RFC 9309's selection (`select`);
//! 3. a URL the group's Allow and Disallow rules disallow has no preference (`decide`);
//! 4. of the groups' `Content-Usage` rules, the one with the longest matching path applies, matched
//!    as Allow and Disallow are (`pattern`, [`decide::path_specificity`]); rules with identical
//!    paths are combined, the most restrictive preference winning ([`combined`]);
//! 5. its statement of preference is parsed as a Structured Fields Dictionary and read for the
//!    category ([`stated`]).
//!
//! The answer is `y`, `n`, `none` (the vocabulary's "unknown"), or `either` where the permitted
//! readings disagree. The fast path is [`crate::evaluate_preference`]; the definition, every
//! reading whatever the input holds, is [`crate::literal::preference`];
//! `oracle/tests/aipref_literal.rs` checks that they agree.

use serde::{Deserialize, Serialize};

use crate::body::{self, BodyKnobs};
use crate::decide;
use crate::fetch::{self, FetchEffect};
use crate::group;
use crate::knobs::{Knobs, ProfileId};
use crate::line::{self, LineKind};
use crate::pattern::{Pattern, PatternKnobs};
use crate::request::Request;
use crate::scope::{self, Governs};
use crate::select::{self, SelectKnobs};
use crate::url::{self, TargetKnobs};

/// The documents this reading follows, and their revision.
pub const REVISION: &str = "draft-ietf-aipref-attach (editor's copy at commit 7ca0afc, \
     2026-08-19, matching revision 05) and draft-ietf-aipref-vocab (the same commit)";

/// The labels of the vocabulary's categories of use (`aipref-vocab#6.1`, "Mappings for
/// Categories"): AI Model Training (`aipref-vocab#4.1`) and Search (`aipref-vocab#4.2`). This
/// revision defines no other category and no hierarchy among them.
pub const CATEGORIES: &[&str] = &["train-ai", "search"];

/// Whether `label` is spelled as a category label may be (`aipref-vocab#6.1`: "lowercase latin
/// characters (a-z), digits (0-9), "_", "-", ".", or "*""), whether or not the vocabulary defines
/// it: what a question may ask about.
pub fn is_label(label: &str) -> bool {
    !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_-.*".contains(&b))
}

/// The preference for one category of use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Preference {
    /// `y`: the use is allowed (`aipref-vocab#6.2`).
    #[serde(rename = "y")]
    Y,
    /// `n`: the use is disallowed (`aipref-vocab#6.2`).
    #[serde(rename = "n")]
    N,
    /// `none`: no preference applies (the vocabulary's "unknown", `aipref-vocab#3`).
    #[serde(rename = "none")]
    Unknown,
    /// `either`: the drafts permit more than one answer.
    #[serde(rename = "either")]
    Either,
}

impl Preference {
    /// Every preference, in the order cases list them.
    pub const ALL: [Preference; 4] = [
        Preference::Y,
        Preference::N,
        Preference::Unknown,
        Preference::Either,
    ];

    /// The name cases and reports write: `y`, `n`, `none`, `either`.
    pub fn name(self) -> &'static str {
        match self {
            Preference::Y => "y",
            Preference::N => "n",
            Preference::Unknown => "none",
            Preference::Either => "either",
        }
    }

    /// The preference named `name`.
    pub fn from_name(name: &str) -> Option<Preference> {
        Preference::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Where a statement of preference ends, the one point of the drafts' own that this reading leaves
/// open. `aipref-attach#3`'s ABNF separates the path from the statement by `1*WS` and ends the line
/// with `EOL` (RFC 9309: `*WS [comment] NL`), WS being SP or HTAB; `aipref-attach#3.2`'s prose makes
/// the statement "the remainder of the rule value", the value running "up to either the first CR,
/// LF, or octothorpe", and the Dictionary parser (RFC 9651 4.2) discards SP, never HTAB, around a
/// value. They differ only where an HTAB stands between the path and the statement (after the
/// statement, the Dictionary's own algorithm discards SP and HTAB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum StatementBounds {
    /// The prose: the statement is the rest of the rule value after the path, as it is.
    Remainder,
    /// The ABNF: the statement is `usage-pref`, without the white space around it.
    WithoutWhiteSpace,
}

impl StatementBounds {
    /// Both readings, the prose's first.
    pub const ALL: [StatementBounds; 2] = [
        StatementBounds::Remainder,
        StatementBounds::WithoutWhiteSpace,
    ];

    /// The reading in words.
    pub fn words(self) -> &'static str {
        match self {
            StatementBounds::Remainder => {
                "the statement is the rest of the rule value, white space included \
                 (aipref-attach#3.2)"
            }
            StatementBounds::WithoutWhiteSpace => {
                "the statement is the ABNF's usage-pref, without the white space around it \
                 (aipref-attach#3)"
            }
        }
    }
}

/// One reading of the `aipref` reading: one of RFC 9309's readings and where a statement ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiprefReading {
    /// The RFC 9309 reading the file is read under.
    pub knobs: Knobs,
    /// Where a statement of preference ends.
    pub bounds: StatementBounds,
}

impl AiprefReading {
    /// The base reading: RFC 9309's base reading and the prose's statement.
    pub fn base() -> AiprefReading {
        AiprefReading {
            knobs: ProfileId::Rfc9309.base_knobs(),
            bounds: StatementBounds::Remainder,
        }
    }
}

/// One answer: the preference, the line that decides it (1-based), and why, in words, with the
/// sentences that say so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The preference this answer gives.
    pub preference: Preference,
    /// The deciding line, when a line decides.
    pub line: Option<usize>,
    /// Why, in words.
    pub rule: String,
    /// Where the drafts (or RFC 9309) say so, e.g. `aipref-attach#3.1`.
    pub citations: Vec<&'static str>,
}

fn finding(
    preference: Preference,
    line: Option<usize>,
    rule: impl Into<String>,
    citations: &[&'static str],
) -> Finding {
    Finding {
        preference,
        line,
        rule: rule.into(),
        citations: citations.to_vec(),
    }
}

/// What decides before the body is read, under RFC 9309 (the drafts add nothing here): step 0,
/// whether the file governs the URL, and the fetch outcome. The answers given without the body,
/// and whether the body is read as well.
pub fn before_body(request: &Request<'_>) -> (Vec<Finding>, bool) {
    let profile = ProfileId::Rfc9309;
    let mut answers = Vec::new();
    if let Some(robots_url) = request.robots_url {
        let scope = scope::governs(profile, robots_url, request.url);
        let outside = || {
            finding(
                Preference::Unknown,
                None,
                format!(
                    "the file does not govern the URL ({}), so none of its Content-Usage rules \
                     applies to it",
                    scope.rule
                ),
                &[scope.citation, "aipref-attach#3.3"],
            )
        };
        match scope.governs {
            Governs::Yes => {}
            Governs::No => return (vec![outside()], false),
            // Not governing is one permitted answer; governing, the file's own, is another.
            Governs::Open => answers.push(outside()),
        }
    }
    let (effect, citation) = fetch::fetch_effect(profile, request.fetch);
    let mut read_body = false;
    fetch_answers(&effect, citation, &mut answers, &mut read_body);
    (answers, read_body)
}

/// A fetch effect's answers: every outcome but "the body's rules decide" leaves the crawler without
/// the file's Content-Usage rules, so with no preference.
fn fetch_answers(
    effect: &FetchEffect,
    citation: &'static str,
    answers: &mut Vec<Finding>,
    read_body: &mut bool,
) {
    match effect {
        FetchEffect::UseBody => *read_body = true,
        FetchEffect::Allowed => answers.push(finding(
            Preference::Unknown,
            None,
            "the fetch outcome leaves the crawler without the file's rules (everything may be \
             crawled): no Content-Usage rule, so no statement of preference, and every category \
             is unknown",
            &[citation, "aipref-vocab#3"],
        )),
        FetchEffect::Disallowed => answers.push(finding(
            Preference::Unknown,
            None,
            "the fetch outcome disallows every URL, and no preferences are implied for resources \
             that are disallowed",
            &[citation, "aipref-attach#3.1"],
        )),
        FetchEffect::Open(options) => {
            for option in options {
                fetch_answers(option, citation, answers, read_body);
            }
        }
    }
}

/// The rule value of a `Content-Usage` line, or `None` when the line is no such line
/// (`aipref-attach#3.2`): the line's label is `Content-Usage`, SP and HTAB ignored before and after
/// it and before and after the colon, the label compared as the ABNF's literal `"content-usage"`,
/// without regard to case (RFC 5234 2.3); the value is the rest of the line up to the first CR, LF
/// or `#` (the line holds no CR or LF: [`body::split_lines`] ended it there), white space after the
/// colon ignored.
pub fn rule_value(line: &[u8]) -> Option<&[u8]> {
    let (label, _) = line::field_and_value(line)?;
    if !label.eq_ignore_ascii_case(b"content-usage") {
        return None;
    }
    let content = line::strip_comment(line);
    let colon = memchr::memchr(b':', content)?;
    let mut value = &content[colon + 1..];
    while let [first, rest @ ..] = value {
        if line::is_ws(*first) {
            value = rest;
        } else {
            break;
        }
    }
    Some(value)
}

/// A `Content-Usage` rule: its path, when one is given, and its statement of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentUsage<'a> {
    /// The 1-based line number.
    pub line: usize,
    /// The path, or `None` when the rule gives none.
    pub path: Option<&'a [u8]>,
    /// The statement of preference, as [`StatementBounds`] reads its ends.
    pub statement: &'a [u8],
}

/// Splits a rule value into path and statement (`aipref-attach#3.2`): a path is present exactly
/// when the value starts with `/` ("a rule value that starts with any other character indicates
/// that the path is absent"), and ends "immediately before the first SP (U+20) or HTAB"; the
/// remainder, or the whole value without a path, is the statement.
pub fn read_rule(line: usize, value: &[u8], bounds: StatementBounds) -> ContentUsage<'_> {
    let (path, remainder) = if value.first() == Some(&b'/') {
        let end = value
            .iter()
            .position(|&b| line::is_ws(b))
            .unwrap_or(value.len());
        (Some(&value[..end]), &value[end..])
    } else {
        (None, value)
    };
    let statement = match bounds {
        StatementBounds::Remainder => remainder,
        StatementBounds::WithoutWhiteSpace => line::trim_ws(remainder),
    };
    ContentUsage {
        line,
        path,
        statement,
    }
}

/// What a statement of preference says of one category of use, why, and where the vocabulary says
/// so (`aipref-vocab#6.5`): the statement's bytes are parsed as a Dictionary (RFC 9651 4.2.2); the
/// value of the category's label, its parameters disregarded, is the preference when it is the
/// Token `y` or `n`, and otherwise (no such key, another value, a failed parse) the preference is
/// unknown. A category that is not the vocabulary's ([`CATEGORIES`]) gets no preference from any
/// statement: unknown labels are ignored (`aipref-vocab#6.4`).
pub fn stated(statement: &[u8], category: &str) -> (Preference, &'static str, &'static str) {
    if !CATEGORIES.contains(&category) {
        return (
            Preference::Unknown,
            "the category is not one of the vocabulary's (train-ai, search): the vocabulary \
             assigns preferences to its own categories only, and unknown labels are ignored",
            "aipref-vocab#6.4",
        );
    }
    let Ok(dictionary) = sfv::Parser::new(statement).parse::<sfv::Dictionary>() else {
        return (
            Preference::Unknown,
            "the statement does not parse as a Structured Fields Dictionary (RFC 9651), and when \
             the parsing of the Dictionary fails, preferences are unknown",
            "aipref-vocab#6.5.1",
        );
    };
    match dictionary.get(category) {
        None => (
            Preference::Unknown,
            "the statement gives no value for the category's label: its preference is unknown",
            "aipref-vocab#6.5",
        ),
        Some(sfv::ListEntry::Item(item)) => match &item.bare_item {
            sfv::BareItem::Token(token) if token.as_str() == "y" => (
                Preference::Y,
                "the category's value is the Token y: the use is allowed",
                "aipref-vocab#6.5",
            ),
            sfv::BareItem::Token(token) if token.as_str() == "n" => (
                Preference::N,
                "the category's value is the Token n: the use is disallowed",
                "aipref-vocab#6.5",
            ),
            _ => (
                Preference::Unknown,
                "the category's value is not the Token y or n: its preference is unknown",
                "aipref-vocab#6.5",
            ),
        },
        Some(sfv::ListEntry::InnerList(_)) => (
            Preference::Unknown,
            "the category's value is an inner list, not a Token: its preference is unknown",
            "aipref-vocab#6.5",
        ),
    }
}

/// The preference that applies when several statements of preference bear on the same category
/// (`aipref-vocab#5.1`): disallowed if any disallows, else allowed if any allows, else unknown.
/// `aipref-attach#3.1` has Content-Usage rules with identical paths apply this way ("according to
/// the process defined in Section 7.1 of VOCAB"; in this copy of the vocabulary the process is
/// section 5.1, "Combining Preferences", and section 7 is the security considerations).
pub fn combined(preferences: impl IntoIterator<Item = Preference>) -> Preference {
    let (mut y, mut n) = (false, false);
    for preference in preferences {
        y |= preference == Preference::Y;
        n |= preference == Preference::N;
    }
    if n {
        Preference::N
    } else if y {
        Preference::Y
    } else {
        Preference::Unknown
    }
}

/// The answer of several permitted answers: the common preference, or `either`.
pub fn common(mut answers: impl Iterator<Item = Preference>) -> Preference {
    let Some(first) = answers.next() else {
        return Preference::Either;
    };
    if answers.all(|p| p == first) {
        first
    } else {
        Preference::Either
    }
}

/// The preference the body gives for `category` under one reading (steps 1 to 7 of RFC 9309 with
/// the Content-Usage rule; [`before_body`] comes first). RFC 9309's readings hold no deviation, so
/// the steps' document forms are called.
pub fn under(reading: &AiprefReading, request: &Request<'_>, category: &str) -> Finding {
    let knobs = &reading.knobs;
    // Step 1 (K14, K12, K7) and the lines (`rfc9309#2.2` NL).
    let (octets, _notes) = body::prepare_body(request.body, BodyKnobs::of(knobs));
    let lines = body::split_lines(&octets);
    // Step 2: each line's kind, and which lines are Content-Usage rules (`aipref-attach#3.2`).
    let kinds: Vec<LineKind<'_>> = lines
        .iter()
        .map(|l| line::classify(l, knobs.allow_directive, knobs.field_spacing))
        .collect();
    let values: Vec<(usize, &[u8])> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| rule_value(l.bytes).map(|value| (i + 1, value)))
        .collect();
    let numbers: Vec<usize> = values.iter().map(|&(n, _)| n).collect();
    // Step 3: the groups, a Content-Usage line a rule of its group (`aipref-attach#3`).
    let extended = group::build_groups_with_extension(&kinds, knobs.grouping, &numbers);
    let groups = &extended.groups.groups;
    // Step 4: the crawler's groups (`rfc9309#2.2.1`, `aipref-attach#3.1`: "Each group in the file
    // applies to a set of crawlers, identified by product token").
    let selected = select::select(groups, request.agent, SelectKnobs::of(knobs));
    // Steps 5 to 7: may the URL be crawled? (`aipref-attach#3.1`: "Usage preferences apply only to
    // those resources that can be crawled according to Allow/Disallow rules").
    let split = url::split(request.url);
    let target = url::normalised_target(&split, TargetKnobs::of(knobs));
    let rules: Vec<_> = selected
        .rules(groups)
        .map(|rule| (rule, Pattern::compile(rule.value, PatternKnobs::of(knobs))))
        .collect();
    let pairs: Vec<_> = rules
        .iter()
        .map(|(rule, pattern)| (*rule, pattern))
        .collect();
    let decision = decide::decide(&pairs, &target, knobs);
    let disallowing =
        (!decision.allowed).then(|| decision.deciding.map(|i| decision.rules[i].line));
    // K10 (`rfc9309#2.2.2`): "The /robots.txt URI is implicitly allowed".
    let exempt = decide::robots_txt_exempt(&split, knobs);
    if let (Some(line), false) = (disallowing, exempt) {
        return finding(
            Preference::Unknown,
            line,
            "the crawler may not crawl the URL (this Disallow rule decides), and no \
             preferences are implied for resources that are disallowed",
            &["aipref-attach#3.1", "rfc9309#2.2.2"],
        );
    }
    let stated = content_usage(
        &extended,
        &selected.groups,
        &values,
        &target,
        reading,
        category,
    );
    match disallowing {
        // The group's rules disallow the /robots.txt URI, which RFC 9309 allows implicitly: the
        // drafts attach preferences to resources that "can be crawled according to
        // Allow/Disallow rules", and do not say which of the two that URI is.
        Some(line) if stated.preference != Preference::Unknown => finding(
            Preference::Either,
            line,
            format!(
                "the group's rules disallow the /robots.txt URI (this line), which RFC 9309 \
                 allows implicitly; preferences apply to resources that can be crawled \
                 according to Allow/Disallow rules, and the drafts do not say whether this one \
                 can: no preference, or line {}'s {}",
                stated.line.unwrap_or_default(),
                stated.preference.name()
            ),
            &["aipref-attach#3.1", "rfc9309#2.2.2"],
        ),
        _ => stated,
    }
}

/// The preference the Content-Usage rules of the selected groups give the target: steps 4 and 5
/// of [`under`], for a URL that may be crawled.
fn content_usage(
    extended: &group::ExtendedGroups<'_>,
    selected: &[usize],
    values: &[(usize, &[u8])],
    target: &[u8],
    reading: &AiprefReading,
    category: &str,
) -> Finding {
    let knobs = &reading.knobs;
    // The Content-Usage rules of the crawler's groups, in file order.
    let mut in_groups: Vec<usize> = selected
        .iter()
        .flat_map(|&g| extended.extension_rules[g].iter().copied())
        .collect();
    in_groups.sort_unstable();
    let rules: Vec<ContentUsage<'_>> = values
        .iter()
        .filter(|(n, _)| in_groups.binary_search(n).is_ok())
        .map(|&(n, value)| read_rule(n, value, reading.bounds))
        .collect();
    // "using the same path prefix matching rules as defined for Allow and Disallow"
    // (`aipref-attach#3.1`): each rule's path is matched as a rule's pattern; a rule without a
    // path speaks for every path, as the example's rule `Content-Usage: train-ai=n` does for
    // `/test` (`aipref-attach#3.4`), and is the least specific.
    let matched: Vec<(usize, &ContentUsage<'_>)> = rules
        .iter()
        .filter_map(|rule| {
            let specificity = match rule.path {
                None => Some(0),
                Some(path) => {
                    let pattern = Pattern::compile(path, PatternKnobs::of(knobs));
                    decide::path_specificity(path, &pattern, target, knobs)
                }
            };
            specificity.map(|s| (s, rule))
        })
        .collect();
    let Some(longest) = matched.iter().map(|&(s, _)| s).max() else {
        return no_rule_matches(extended, selected, !rules.is_empty());
    };
    let deciding: Vec<&ContentUsage<'_>> = matched
        .iter()
        .filter(|&&(s, _)| s == longest)
        .map(|&(_, rule)| rule)
        .collect();
    decide_among(&deciding, category)
}

/// No Content-Usage rule of the crawler's groups matches the URL: no statement of preference.
fn no_rule_matches(
    extended: &group::ExtendedGroups<'_>,
    selected: &[usize],
    has_rules: bool,
) -> Finding {
    let (rule, citations): (&str, &[&'static str]) = if has_rules {
        (
            "no Content-Usage rule of the crawler's group matches the URL's path: no statement of \
             preference, so every category is unknown",
            &["aipref-attach#3.1", "aipref-vocab#3"],
        )
    } else if selected.is_empty() {
        (
            "no group applies to the crawler: no Content-Usage rule, so every category is unknown",
            &["rfc9309#2.2.1", "aipref-vocab#3"],
        )
    } else {
        (
            "the crawler's group has no Content-Usage rule: no statement of preference, so every \
             category is unknown",
            &["aipref-attach#3", "aipref-vocab#3"],
        )
    };
    let mut answer = finding(Preference::Unknown, None, rule, citations);
    if let Some(&orphan) = extended.orphan_extension_rules.first() {
        answer.rule.push_str(&format!(
            " (the Content-Usage line {orphan} is in no group: a Content-Usage rule is one of a \
             group's rules, and rules outside every group are ignored)"
        ));
        answer
            .citations
            .extend(["aipref-attach#3", "rfc9309#2.2.2"]);
    }
    answer
}

/// The preference among the equally specific matching rules `deciding` (at least one).
fn decide_among(deciding: &[&ContentUsage<'_>], category: &str) -> Finding {
    let first = deciding[0];
    if deciding.len() == 1 {
        let (preference, why, citation) = stated(first.statement, category);
        return finding(
            preference,
            Some(first.line),
            format!("this Content-Usage rule has the longest path that matches the URL, and {why}",),
            &["aipref-attach#3.1", "aipref-attach#3.2", citation],
        );
    }
    // Rules with identical paths apply together (`aipref-attach#3.1`, `aipref-vocab#5.1`).
    let by_path: Vec<Preference> = {
        let mut distinct: Vec<Option<&[u8]>> = deciding.iter().map(|r| r.path).collect();
        distinct.sort_unstable();
        distinct.dedup();
        distinct
            .iter()
            .map(|path| {
                combined(
                    deciding
                        .iter()
                        .filter(|r| r.path == *path)
                        .map(|r| stated(r.statement, category).0),
                )
            })
            .collect()
    };
    if by_path.len() == 1 {
        let preference = by_path[0];
        return finding(
            preference,
            Some(first.line),
            format!(
                "{} Content-Usage rules have the same longest matching path (the first on this \
                 line); rules with identical paths apply together, and of their preferences for \
                 the category the most restrictive applies: disallowed if one disallows, else \
                 allowed if one allows, else unknown",
                deciding.len()
            ),
            &["aipref-attach#3.1", "aipref-vocab#5.1", "aipref-vocab#6.5"],
        );
    }
    // Different paths matching equally far: the drafts combine only identical paths.
    let preference = common(by_path.iter().copied());
    finding(
        preference,
        Some(first.line),
        format!(
            "Content-Usage rules with different paths match the URL equally far (the first on this \
             line){}",
            if preference == Preference::Either {
                ", and their preferences differ: the drafts combine only rules with identical \
                 paths and say nothing of different paths of the same length"
            } else {
                ", and their preferences agree"
            }
        ),
        &["aipref-attach#3.1", "rfc9309#2.2.2"],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(body: &str, agent: &str, url: &str, category: &str) -> Preference {
        under(
            &AiprefReading::base(),
            &Request::new(body.as_bytes(), agent, url),
            category,
        )
        .preference
    }

    #[test]
    fn the_attachment_drafts_example() {
        // aipref-attach#3.4, Figure "Example robots.txt file" and its table.
        let body = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
                    Content-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\n\
                    Content-Usage: train-ai=y\n";
        assert_eq!(base(body, "other", "/test", "train-ai"), Preference::N);
        assert_eq!(
            base(body, "other", "/never/test", "train-ai"),
            Preference::Unknown
        );
        assert_eq!(
            base(body, "other", "/ai-ok/test", "train-ai"),
            Preference::Y
        );
        assert_eq!(
            base(body, "ExampleBot", "/never/x", "train-ai"),
            Preference::Y
        );
        assert_eq!(base(body, "other", "/test", "search"), Preference::Unknown);
    }

    #[test]
    fn rule_values_paths_and_statements() {
        assert_eq!(
            rule_value(b" content-usage :\t/a b # c"),
            Some(&b"/a b "[..])
        );
        assert_eq!(rule_value(b"Content-Signal: search=yes"), None);
        let rule = read_rule(1, b"/a\ttrain-ai=n", StatementBounds::Remainder);
        assert_eq!(rule.path, Some(&b"/a"[..]));
        assert_eq!(stated(rule.statement, "train-ai").0, Preference::Unknown);
        let rule = read_rule(1, b"/a\ttrain-ai=n", StatementBounds::WithoutWhiteSpace);
        assert_eq!(stated(rule.statement, "train-ai").0, Preference::N);
        assert_eq!(
            read_rule(1, b"train-ai=n", StatementBounds::Remainder).path,
            None
        );
    }

    #[test]
    fn the_vocabularys_processing() {
        assert_eq!(stated(b"train-ai=y, search=n", "search").0, Preference::N);
        assert_eq!(
            stated(b"train-ai=y, train-ai, search=n, search=\"n\"", "train-ai").0,
            Preference::Unknown
        );
        assert_eq!(
            stated(b"train-ai;allow=n, train-ai=y", "train-ai").0,
            Preference::Y
        );
        assert_eq!(stated(b"Train-AI=n", "train-ai").0, Preference::Unknown);
        assert_eq!(
            stated(b"train-genai=n", "train-genai").0,
            Preference::Unknown
        );
        assert_eq!(
            combined([Preference::Y, Preference::Unknown, Preference::N]),
            Preference::N
        );
    }
}
