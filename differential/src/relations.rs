//! Metamorphic relations of the oracle: transformations of an input that, by the documents, must
//! not change a profile's verdict. A [`Violation`] is an oracle bug (or a relation stated too
//! broadly): the fuzzer reports it. Which relation an input is checked under is the per-input
//! policy of [`crate::invariants`]; the edits themselves are in [`crate::edit`].
//!
//! # The relations
//!
//! | relation | profiles | transformation | citation |
//! |---|---|---|---|
//! | `comment-line` | rfc9309, google, draft-1996 | a full comment line inserted at a line start | `rfc9309#2.2` (`emptyline`, `EOL`), `google#syntax`, `draft-1996#3.2`, `draft-1996#3.3` (`commentline` inside `record`) |
//! | `blank-line` | rfc9309, google | a blank line inserted at a line start | `rfc9309#2.2` (`emptyline` anywhere in a group), `google#grouping` |
//! | `trailing-comment` | all four | ` # comment` appended to a `field: value` line | `rfc9309#2.2` (`EOL`), `google#syntax`, `draft-1996#3.3` (`[comment]`), `norobots-1994#format` |
//! | `field-name-case` | all four | ASCII case of field names changed | `rfc9309#2.2` (ABNF strings, RFC 5234 2.3), `google#syntax`, `draft-1996#3.3` (RFC 822 3.4.7), `norobots-1994#format` |
//! | `agent-case` | all four | ASCII case of the crawler's name, or of user-agent values, changed | `rfc9309#2.2.1`, `google#user-agent`, `draft-1996#3.2.1`, `norobots-1994#format` |
//! | `space-after-colon` | all four | spaces/tabs inserted after a field's colon | `rfc9309#2.2` (`*WS`), `google#syntax`, `draft-1996#3.3` (`*space`), `norobots-1994#format` (`<optional_space>`) |
//! | `optional-whitespace` | rfc9309, google | spaces/tabs at line start, before the colon, at line end | `rfc9309#2.2` (`*WS`), `google#syntax` |
//! | `other-record` | rfc9309, google, original-1994 | a `Sitemap:`/unknown-field line inserted at a line start | `rfc9309#2.2.4`, `google#grouping`, `norobots-1994#format` (unrecognised lines ignored) |
//! | `duplicate-rule` | all four | a rule line duplicated in place | `rfc9309#2.2.2` (duplicates MAY be deduplicated), `google#rule-precedence`, `draft-1996#3.2.2` (first match), `norobots-1994#format` |
//! | `group-order` | rfc9309, google | whole groups permuted | `rfc9309#2.2.1` (matching groups combined), `rfc9309#2.2.2` (most specific match), `google#user-agent-precedence` (order irrelevant) |
//! | `unrelated-group` | rfc9309, google | a group for another product token inserted before the first group | `rfc9309#2.2.1`, `google#user-agent-precedence` |
//! | `percent-encode-unreserved` | rfc9309, draft-1996 | an unreserved URL character in path or query written `%XX` | `rfc9309#2.2.2` + RFC 3986 2.3, `draft-1996#3.2.2` |
//! | `percent-encode-non-ascii` | rfc9309, google | a non-ASCII URL character in path or query written as `%XX` UTF-8 | `rfc9309#2.2.2`, `google#url-matching` |
//! | `fragment` | all four | a fragment appended to the URL | RFC 3986 3.5, `rfc9309#2.2.2` (Figure 4), `google#url-matching`, `draft-1996#3.3` (RFC 1808 2.4.1) |
//!
//! # What "must not change" means
//!
//! The oracle's verdict is the set of verdicts of every reading the document permits: `allowed`,
//! `disallowed`, or `either` (both). Each relation holds reading by reading, so the relation is
//! **equality of verdicts** (of verdict sets): `either` before and `allowed` after is a violation,
//! and so is `allowed` before and `either` after. An input on which a relation could give a false
//! alarm is skipped for that relation (or for that profile), never reported:
//!
//! - bodies over 500 KiB, for relations that move or add octets (`rfc9309#2.5` and
//!   `draft-1996#5` leave the limit open, `google#file-format` cuts at it);
//! - insertion at the very start of a body that starts with a byte-order mark (whether the mark is
//!   part of the first line is open for rfc9309, draft-1996 and 1994, `K12`); the structural
//!   relations (`group-order`, `unrelated-group`) skip such bodies entirely;
//! - structural relations under google when the body is not UTF-8 (Google may drop invalid octets
//!   or whole lines, `google#file-format`, which can turn a line into a user-agent line or remove
//!   one, so groups computed on the raw octets are not the groups of every reading);
//! - blank lines under draft-1996 and original-1994 (they end records); comment lines under
//!   original-1994 (whether a comment-only line is "empty" is not settled by the 1994 text);
//! - percent-encoding the `/robots.txt` path itself (see [`crate::edit::percent_encode_unreserved`]).
//!
//! Lines are found as the documents say: CR, LF or CRLF end a line ([`crate::edit`]).

use robotstxt_oracle::line::trim_ws;
use robotstxt_oracle::profile::FIVE_HUNDRED_KIB;
use robotstxt_oracle::{Known, Needed, ProfileId, Request, Verdict};

use crate::edit::{
    duplicate_rule, edit_all_field_lines, edit_one_field_line, group_order, insert_line,
    optional_whitespace, percent_encode_non_ascii, percent_encode_unreserved, unrelated_group,
};
use crate::hash::Choices;
use crate::input::Input;
use crate::violation::Violation;

/// One metamorphic relation (see the module documentation for the table and citations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// A full comment line inserted at a line start.
    CommentLine,
    /// A blank (empty or white-space) line inserted at a line start.
    BlankLine,
    /// A comment appended to a `field: value` line.
    TrailingComment,
    /// The ASCII case of field names changed.
    FieldNameCase,
    /// The ASCII case of the crawler's name or of user-agent values changed.
    AgentCase,
    /// Spaces or tabs inserted after a field's colon.
    SpaceAfterColon,
    /// Spaces or tabs at line start, before the colon and at line end.
    OptionalWhitespace,
    /// A record outside the protocol (`Sitemap:`, unknown field) inserted at a line start.
    OtherRecord,
    /// A rule line duplicated in place.
    DuplicateRule,
    /// Whole groups permuted.
    GroupOrder,
    /// A group for an unrelated product token inserted before the first group.
    UnrelatedGroup,
    /// An unreserved character in the URL's path or query percent-encoded.
    PercentEncodeUnreserved,
    /// A non-ASCII character in the URL's path or query percent-encoded as UTF-8.
    PercentEncodeNonAscii,
    /// A fragment appended to the URL.
    Fragment,
}

const ALL_PROFILES: &[ProfileId] = &ProfileId::ALL;
const RFC_GOOGLE: &[ProfileId] = &[ProfileId::Rfc9309, ProfileId::Google];

impl Relation {
    /// Every relation, in the order [`check`] rotates through.
    pub const ALL: [Relation; 14] = [
        Relation::CommentLine,
        Relation::BlankLine,
        Relation::TrailingComment,
        Relation::FieldNameCase,
        Relation::AgentCase,
        Relation::SpaceAfterColon,
        Relation::OptionalWhitespace,
        Relation::OtherRecord,
        Relation::DuplicateRule,
        Relation::GroupOrder,
        Relation::UnrelatedGroup,
        Relation::PercentEncodeUnreserved,
        Relation::PercentEncodeNonAscii,
        Relation::Fragment,
    ];

    /// The relation's stable name (used in violations).
    pub fn name(self) -> &'static str {
        match self {
            Relation::CommentLine => "comment-line",
            Relation::BlankLine => "blank-line",
            Relation::TrailingComment => "trailing-comment",
            Relation::FieldNameCase => "field-name-case",
            Relation::AgentCase => "agent-case",
            Relation::SpaceAfterColon => "space-after-colon",
            Relation::OptionalWhitespace => "optional-whitespace",
            Relation::OtherRecord => "other-record",
            Relation::DuplicateRule => "duplicate-rule",
            Relation::GroupOrder => "group-order",
            Relation::UnrelatedGroup => "unrelated-group",
            Relation::PercentEncodeUnreserved => "percent-encode-unreserved",
            Relation::PercentEncodeNonAscii => "percent-encode-non-ascii",
            Relation::Fragment => "fragment",
        }
    }

    /// The sections that justify the relation.
    pub fn citation(self) -> &'static str {
        match self {
            // rfc9309#2.2: `emptyline = EOL`, `EOL = *WS [comment] NL`, allowed between any lines.
            // draft-1996#3.3: `record = *commentline agentline *(commentline | agentline)
            // 1*ruleline *(commentline | ruleline)`; 3.2: comments are allowed anywhere.
            Relation::CommentLine => "rfc9309#2.2, google#syntax, draft-1996#3.2, draft-1996#3.3",
            // rfc9309#2.2: `*(startgroupline / emptyline) *(rule / emptyline)`; google#grouping:
            // a blank line between two user-agent lines does not split the group.
            Relation::BlankLine => "rfc9309#2.2, google#grouping",
            Relation::TrailingComment => {
                "rfc9309#2.2, google#syntax, draft-1996#3.3, norobots-1994#format"
            }
            // RFC 5234 2.3: ABNF quoted strings are case-insensitive; RFC 822 3.4.7 (the 1996 BNF's
            // conventions): field names compare case-insensitively; 1994: "the field is
            // case-insensitive"; Google follows the REP's syntax (google#grouping links it).
            Relation::FieldNameCase => {
                "rfc9309#2.2, google#syntax, draft-1996#3.3, norobots-1994#format"
            }
            Relation::AgentCase => {
                "rfc9309#2.2.1, google#user-agent, draft-1996#3.2.1, norobots-1994#format"
            }
            Relation::SpaceAfterColon => {
                "rfc9309#2.2, google#syntax, draft-1996#3.3, norobots-1994#format"
            }
            Relation::OptionalWhitespace => "rfc9309#2.2, google#syntax",
            Relation::OtherRecord => "rfc9309#2.2.4, google#grouping, norobots-1994#format",
            Relation::DuplicateRule => {
                "rfc9309#2.2.2, google#rule-precedence, draft-1996#3.2.2, norobots-1994#format"
            }
            Relation::GroupOrder => "rfc9309#2.2.1, rfc9309#2.2.2, google#user-agent-precedence",
            Relation::UnrelatedGroup => "rfc9309#2.2.1, google#user-agent-precedence",
            Relation::PercentEncodeUnreserved => "rfc9309#2.2.2 + RFC 3986 2.3, draft-1996#3.2.2",
            Relation::PercentEncodeNonAscii => "rfc9309#2.2.2, google#url-matching",
            Relation::Fragment => {
                "RFC 3986 3.5, rfc9309#2.2.2, google#url-matching, draft-1996#3.3 (RFC 1808 2.4.1)"
            }
        }
    }

    /// The profiles under which the relation holds for `input` (empty: it does not apply).
    pub fn profiles(self, input: &Input) -> Vec<ProfileId> {
        let list: &[ProfileId] = match self {
            Relation::CommentLine => &[ProfileId::Rfc9309, ProfileId::Google, ProfileId::Draft1996],
            Relation::BlankLine | Relation::OptionalWhitespace => RFC_GOOGLE,
            Relation::TrailingComment
            | Relation::FieldNameCase
            | Relation::AgentCase
            | Relation::SpaceAfterColon
            | Relation::DuplicateRule
            | Relation::Fragment => ALL_PROFILES,
            Relation::OtherRecord => &[
                ProfileId::Rfc9309,
                ProfileId::Google,
                ProfileId::Original1994,
            ],
            // Google may drop invalid octets or lines (google#file-format): raw groups are not the
            // groups of every Google reading.
            Relation::GroupOrder | Relation::UnrelatedGroup
                if std::str::from_utf8(&input.body).is_err() =>
            {
                &[ProfileId::Rfc9309]
            }
            Relation::GroupOrder | Relation::UnrelatedGroup => RFC_GOOGLE,
            Relation::PercentEncodeUnreserved => &[ProfileId::Rfc9309, ProfileId::Draft1996],
            Relation::PercentEncodeNonAscii => RFC_GOOGLE,
        };
        list.to_vec()
    }

    /// The transformed input, or `None` when the relation does not apply to `input` (or would
    /// not change it). Every choice is drawn from `seed`.
    pub fn transform(self, input: &Input, seed: u64) -> Option<Input> {
        let mut choices = Choices::new(seed ^ (self as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let body = &input.body;
        let new_body = |b: Vec<u8>| Input {
            body: b,
            agent: input.agent.clone(),
            url: input.url.clone(),
        };
        let transformed = match self {
            Relation::CommentLine => {
                let text = [
                    "# a comment line",
                    "#Disallow: /",
                    "  # User-agent: *",
                    "\t#",
                ][choices.below(4)];
                insert_line(body, text.as_bytes(), &mut choices).map(new_body)
            }
            Relation::BlankLine => {
                let text = ["", " ", "\t", " \t  "][choices.below(4)];
                insert_line(body, text.as_bytes(), &mut choices).map(new_body)
            }
            Relation::TrailingComment => {
                let comment = [" # comment", "\t#", " #Disallow: /x", "  # a: b"][choices.below(4)];
                edit_one_field_line(body, &mut choices, |line, out| {
                    out.extend_from_slice(line);
                    out.extend_from_slice(comment.as_bytes());
                })
                .map(new_body)
            }
            Relation::FieldNameCase => {
                let map = CaseMap::choose(&mut choices);
                edit_all_field_lines(body, |line, colon, out| {
                    out.extend(line[..colon].iter().map(|&b| map.apply(b)));
                    out.extend_from_slice(&line[colon..]);
                })
                .map(new_body)
            }
            Relation::AgentCase => {
                let map = CaseMap::choose(&mut choices);
                if choices.below(2) == 0 {
                    // Only ASCII letters change.
                    let agent: String = input
                        .agent
                        .chars()
                        .map(|c| {
                            if c.is_ascii() {
                                map.apply(c as u8) as char
                            } else {
                                c
                            }
                        })
                        .collect();
                    Some(Input {
                        body: body.clone(),
                        agent,
                        url: input.url.clone(),
                    })
                } else {
                    edit_all_field_lines(body, |line, colon, out| {
                        out.extend_from_slice(&line[..=colon]);
                        if trim_ws(&line[..colon]).eq_ignore_ascii_case(b"user-agent") {
                            let end = memchr::memchr(b'#', line).unwrap_or(line.len());
                            out.extend(line[colon + 1..end].iter().map(|&b| map.apply(b)));
                            out.extend_from_slice(&line[end..]);
                        } else {
                            out.extend_from_slice(&line[colon + 1..]);
                        }
                    })
                    .map(new_body)
                }
            }
            Relation::SpaceAfterColon => {
                let ws = [" ", "\t", "  \t", " "][choices.below(4)];
                edit_all_field_lines(body, |line, colon, out| {
                    out.extend_from_slice(&line[..=colon]);
                    out.extend_from_slice(ws.as_bytes());
                    out.extend_from_slice(&line[colon + 1..]);
                })
                .map(new_body)
            }
            Relation::OptionalWhitespace => {
                let ws = [" ", "\t", " \t"][choices.below(3)].as_bytes();
                let (lead, before, trail) = (choices.below(2) == 0, choices.below(2) == 0, true);
                optional_whitespace(body, ws, lead, before, trail).map(new_body)
            }
            Relation::OtherRecord => {
                let text = [
                    "Sitemap: https://example.com/sitemap.xml",
                    "sitemap:/s.xml",
                    "Crawl-delay: 10",
                    "Host: example.com",
                    "X-Unknown: value",
                    "Clean-param: ref /a",
                ][choices.below(6)];
                insert_line(body, text.as_bytes(), &mut choices).map(new_body)
            }
            Relation::DuplicateRule => duplicate_rule(body, &mut choices).map(new_body),
            Relation::GroupOrder => group_order(body, &mut choices).map(new_body),
            Relation::UnrelatedGroup => {
                unrelated_group(body, &input.agent, &mut choices).map(new_body)
            }
            Relation::PercentEncodeUnreserved => {
                percent_encode_unreserved(&input.url, &mut choices).map(|url| Input {
                    body: body.clone(),
                    agent: input.agent.clone(),
                    url,
                })
            }
            Relation::PercentEncodeNonAscii => percent_encode_non_ascii(&input.url, &mut choices)
                .map(|url| Input {
                    body: body.clone(),
                    agent: input.agent.clone(),
                    url,
                }),
            Relation::Fragment => {
                if input.url.contains('#') {
                    None
                } else {
                    let fragment = ["#", "#frag", "#section-2", "#x?y=/z"][choices.below(4)];
                    Some(Input {
                        body: body.clone(),
                        agent: input.agent.clone(),
                        url: format!("{}{}", input.url, fragment),
                    })
                }
            }
        }?;
        if transformed == *input {
            return None;
        }
        // K14: octets moved across 500 KiB change what a limited reading sees. Case mappings
        // change octets in place (a line cut at the limit is cut the same way), so they are safe.
        let in_place = matches!(self, Relation::FieldNameCase | Relation::AgentCase);
        if transformed.body != input.body
            && !in_place
            && (input.body.len() > FIVE_HUNDRED_KIB || transformed.body.len() > FIVE_HUNDRED_KIB)
        {
            return None;
        }
        Some(transformed)
    }

    /// Checks this relation on `input`: `Ok(true)` when it applied and held, `Ok(false)` when it
    /// does not apply to this input.
    // A violation is rare (an oracle bug) and carries both inputs: boxing it would buy nothing.
    #[allow(clippy::result_large_err)]
    pub fn check(self, input: &Input, seed: u64) -> Result<bool, Violation> {
        let Some((profiles, transformed)) = self.applied(input, seed) else {
            return Ok(false);
        };
        self.check_applied(input, &profiles, transformed)?;
        Ok(true)
    }

    /// Checks this relation under `profiles` on `input` and its `transformed` form. Each side is
    /// read once for all the relation's profiles; when the relation leaves the body as it is, both
    /// sides share that reading.
    #[allow(clippy::result_large_err)]
    pub(crate) fn check_applied(
        self,
        input: &Input,
        profiles: &[ProfileId],
        transformed: Input,
    ) -> Result<(), Violation> {
        let (before, after) =
            both_sides(&input.request(), profiles, &transformed.request(), profiles);
        self.compare(input, transformed, profiles, &before, &after)
    }

    /// The relation's profiles for `input` and the transformed input, when it applies.
    pub fn applied(self, input: &Input, seed: u64) -> Option<(Vec<ProfileId>, Input)> {
        let profiles = self.profiles(input);
        if profiles.is_empty() {
            return None;
        }
        Some((profiles, self.transform(input, seed)?))
    }

    /// The relation's verdict: `before` and `after` (the verdicts under `profiles`, in order) must
    /// be equal.
    #[allow(clippy::result_large_err)]
    pub(crate) fn compare(
        self,
        input: &Input,
        transformed: Input,
        profiles: &[ProfileId],
        before: &[Verdict],
        after: &[Verdict],
    ) -> Result<(), Violation> {
        for ((profile, before), after) in profiles.iter().zip(before).zip(after) {
            if before != after {
                return Err(Violation {
                    relation: self.name(),
                    input: input.clone(),
                    transformed,
                    detail: format!(
                        "under {} the verdict was {} before and {} after ({}: verdict sets must \
                         be equal)",
                        profile.name(),
                        before.name(),
                        after.name(),
                        self.citation()
                    ),
                });
            }
        }
        Ok(())
    }
}

/// The verdicts of `before` under `before_profiles` and of `after` under `after_profiles`. When the
/// two requests have the same body (a relation that changes only the URL or the crawler's name),
/// the body is read once for both ([`robotstxt_oracle::verdicts_on_one_body`]).
pub(crate) fn both_sides(
    before: &Request<'_>,
    before_profiles: &[ProfileId],
    after: &Request<'_>,
    after_profiles: &[ProfileId],
) -> (Vec<Verdict>, Vec<Verdict>) {
    let needs = in_full(before_profiles);
    let (before, after) = both_sides_as_needed(before, &needs, after, after_profiles);
    (whole_verdicts(before), after)
}

/// [`both_sides`], the `before` request read under each profile only as far as its
/// [`Needed`] says ([`robotstxt_oracle::verdicts_as_needed_on_one_body`]).
pub(crate) fn both_sides_as_needed(
    before: &Request<'_>,
    before_needs: &[(ProfileId, Needed)],
    after: &Request<'_>,
    after_profiles: &[ProfileId],
) -> (Vec<Known>, Vec<Verdict>) {
    let after_needs = in_full(after_profiles);
    let (before, after) = if before.body == after.body {
        let mut both = robotstxt_oracle::verdicts_as_needed_on_one_body(&[
            (before_needs, before),
            (&after_needs, after),
        ]);
        let after = both.pop().expect("two requests, two answers");
        let before = both.pop().expect("two requests, two answers");
        (before, after)
    } else {
        (
            robotstxt_oracle::verdicts_as_needed(before_needs, before),
            robotstxt_oracle::verdicts_as_needed(&after_needs, after),
        )
    };
    (before, whole_verdicts(after))
}

/// The verdicts of profiles each read in full ([`in_full`]).
fn whole_verdicts(known: Vec<Known>) -> Vec<Verdict> {
    let verdicts: Option<Vec<Verdict>> = known.into_iter().map(Known::verdict).collect();
    verdicts.expect("every profile is read in full")
}

/// Each of `profiles`, its verdict needed in full.
pub(crate) fn in_full(profiles: &[ProfileId]) -> Vec<(ProfileId, Needed)> {
    profiles.iter().map(|&p| (p, Needed::Verdict)).collect()
}

/// An ASCII case mapping.
#[derive(Clone, Copy)]
enum CaseMap {
    Upper,
    Lower,
    Toggle,
}

impl CaseMap {
    fn choose(choices: &mut Choices) -> CaseMap {
        [CaseMap::Upper, CaseMap::Lower, CaseMap::Toggle][choices.below(3)]
    }

    fn apply(self, b: u8) -> u8 {
        match self {
            CaseMap::Upper => b.to_ascii_uppercase(),
            CaseMap::Lower => b.to_ascii_lowercase(),
            CaseMap::Toggle if b.is_ascii_uppercase() => b.to_ascii_lowercase(),
            CaseMap::Toggle => b.to_ascii_uppercase(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use robotstxt_oracle::Verdict;

    pub(crate) fn input(body: &str, agent: &str, url: &str) -> Input {
        Input {
            body: body.as_bytes().to_vec(),
            agent: agent.to_string(),
            url: url.to_string(),
        }
    }

    fn verdict(profile: ProfileId, input: &Input) -> Verdict {
        robotstxt_oracle::verdict(profile, &input.request())
    }

    /// Checks `relation` on `input` under many seeds: it must hold every time and apply at least
    /// once (a seed may pick a change that changes nothing, e.g. lower-casing a lower-case name).
    fn holds_always(relation: Relation, input: &Input) {
        let mut applied = 0;
        for seed in 0..64 {
            match relation.check(input, seed) {
                Ok(true) => applied += 1,
                Ok(false) => {}
                Err(v) => panic!("{v}"),
            }
        }
        assert!(applied > 0, "{} never applied", relation.name());
    }

    /// Asserts that `relation` never applies to `input`.
    fn never_applies(relation: Relation, input: &Input) {
        for seed in 0..64 {
            assert_eq!(
                relation.check(input, seed).map_err(|v| v.to_string()),
                Ok(false),
                "{} applied (seed {seed})",
                relation.name()
            );
        }
    }

    pub(crate) const BODY: &str = "Disallow: /orphan\r\n# intro\r\nUser-agent: FooBot\r\nUser-agent: BarBot\r\nDisallow: /private\r\nAllow: /private/public\r\n\r\nUser-agent: *\r\nDisallow: /\r\nSitemap: https://example.com/s.xml\r\nUser-agent: FooBot\r\nDisallow: /*.php$\r\n";

    #[test]
    fn comment_line() {
        holds_always(Relation::CommentLine, &input(BODY, "FooBot", "/private/x"));
        holds_always(Relation::CommentLine, &input("", "FooBot", "/"));
        // CR-only line ends: the inserted line must not merge with them.
        let cr = input(
            "User-agent: a\rDisallow: /x\r\rUser-agent: b\rDisallow: /",
            "a",
            "/y",
        );
        holds_always(Relation::CommentLine, &cr);
        // A BOM stays first: nothing is inserted before it.
        let bom = input("\u{FEFF}User-agent: a\nDisallow: /", "a", "/");
        for seed in 0..64 {
            let t = Relation::CommentLine.transform(&bom, seed).unwrap();
            assert!(t.body.starts_with(crate::edit::BOM));
        }
        // A body that is only a BOM and an unterminated line has no line start to insert at.
        never_applies(
            Relation::CommentLine,
            &input("\u{FEFF}User-agent: a", "a", "/"),
        );
        // Not under 1994: whether a comment line is "empty" is not settled there.
        assert!(!Relation::CommentLine
            .profiles(&bom)
            .contains(&ProfileId::Original1994));
    }

    #[test]
    fn blank_line() {
        holds_always(
            Relation::BlankLine,
            &input(BODY, "BarBot", "/private/public/x"),
        );
        let cr = input("User-agent: a\rDisallow: /x\r", "a", "/x");
        holds_always(Relation::BlankLine, &cr);
        // Under draft-1996 a blank line ends the record, so the relation would not hold there.
        let before = input("User-agent: a\nDisallow: /", "a", "/x");
        let after = input("User-agent: a\n\nDisallow: /", "a", "/x");
        assert_eq!(verdict(ProfileId::Draft1996, &before), Verdict::Disallowed);
        assert_ne!(verdict(ProfileId::Draft1996, &after), Verdict::Disallowed);
        assert_eq!(Relation::BlankLine.profiles(&before), RFC_GOOGLE.to_vec());
    }

    #[test]
    fn trailing_comment() {
        holds_always(Relation::TrailingComment, &input(BODY, "FooBot", "/a.php"));
        // Only `field: value` lines get a comment: a blank line must stay blank.
        never_applies(
            Relation::TrailingComment,
            &input("\n# c\n\nno colon\n", "a", "/"),
        );
        let t = Relation::TrailingComment
            .transform(&input("User-agent: a\n\nDisallow: /", "a", "/"), 1)
            .unwrap();
        assert!(String::from_utf8(t.body).unwrap().contains("\n\n"));
    }

    #[test]
    fn field_name_case() {
        holds_always(Relation::FieldNameCase, &input(BODY, "FooBot", "/private"));
        // The value keeps its case (patterns are case-sensitive), and so does a comment before
        // any colon.
        let t = Relation::FieldNameCase
            .transform(&input("#x: y\nDisallow: /Private", "a", "/"), 0)
            .unwrap();
        let text = String::from_utf8(t.body).unwrap();
        assert!(text.starts_with("#x: y\n") && text.ends_with(": /Private"));
        never_applies(
            Relation::FieldNameCase,
            &input("# a: b\nno colon\n", "a", "/"),
        );
    }

    #[test]
    fn agent_case() {
        holds_always(Relation::AgentCase, &input(BODY, "FooBot", "/private"));
        holds_always(
            Relation::AgentCase,
            &input(BODY, "barbot", "/private/public"),
        );
        // Nothing to change: no ASCII letter in the agent, no user-agent line.
        never_applies(Relation::AgentCase, &input("Disallow: /", "*", "/"));
    }

    #[test]
    fn space_after_colon() {
        holds_always(
            Relation::SpaceAfterColon,
            &input(BODY, "FooBot", "/private"),
        );
        holds_always(
            Relation::SpaceAfterColon,
            &input("User-agent:a\nDisallow:\n", "a", "/"),
        );
        never_applies(Relation::SpaceAfterColon, &input("\n\n# a: b", "a", "/"));
    }

    #[test]
    fn optional_whitespace() {
        holds_always(
            Relation::OptionalWhitespace,
            &input(BODY, "FooBot", "/x.php"),
        );
        // Blank lines stay blank (white space only), comment lines stay comment lines.
        let t = crate::edit::optional_whitespace(b"a:b\n\n#c\n", b" ", true, true, true).unwrap();
        assert_eq!(t, b" a :b \n  \n #c \n");
        assert!(!Relation::OptionalWhitespace
            .profiles(&input("", "a", "/"))
            .contains(&ProfileId::Draft1996));
    }

    #[test]
    fn other_record() {
        holds_always(Relation::OtherRecord, &input(BODY, "BarBot", "/private"));
        // google#grouping's own example: a sitemap line does not end the group of `a`.
        holds_always(
            Relation::OtherRecord,
            &input("user-agent: a\n\nuser-agent: b\ndisallow: /\n", "a", "/x"),
        );
    }

    #[test]
    fn duplicate_rule() {
        holds_always(
            Relation::DuplicateRule,
            &input(BODY, "FooBot", "/private/public"),
        );
        // The only rule is on the first line (outside every group): nothing to duplicate.
        never_applies(
            Relation::DuplicateRule,
            &input("Disallow: /\nUser-agent: a", "a", "/"),
        );
        let t =
            crate::edit::duplicate_rule(b"User-agent: a\nAllow: /x", &mut Choices::new(0)).unwrap();
        assert_eq!(t, b"User-agent: a\nAllow: /x\nAllow: /x");
    }

    #[test]
    fn group_order() {
        holds_always(
            Relation::GroupOrder,
            &input(BODY, "FooBot", "/private/public"),
        );
        holds_always(Relation::GroupOrder, &input(BODY, "Other", "/x"));
        // The lines before the first group stay first; a last group without rules stays last.
        let body = b"Disallow: /o\nUser-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: c";
        let mut seen = std::collections::HashSet::new();
        for seed in 0..64 {
            let t = crate::edit::group_order(body, &mut Choices::new(seed)).unwrap();
            let text = String::from_utf8(t).unwrap();
            assert!(text.starts_with("Disallow: /o\n") && text.ends_with("\nUser-agent: c"));
            seen.insert(text);
        }
        assert_eq!(
            seen.into_iter().collect::<std::collections::BTreeSet<_>>(),
            [
                "Disallow: /o\nUser-agent: b\nDisallow: /b\nUser-agent: a\nDisallow: /a\nUser-agent: c"
                    .to_string()
            ]
            .into()
        );
        // One movable group: nothing to permute. A BOM: skipped.
        never_applies(
            Relation::GroupOrder,
            &input("User-agent: a\nDisallow: /\nUser-agent: b", "a", "/"),
        );
        never_applies(
            Relation::GroupOrder,
            &input(
                "\u{FEFF}User-agent: a\nDisallow: /\nUser-agent: b\nDisallow: /x\n",
                "a",
                "/",
            ),
        );
        // Not UTF-8: rfc9309 only (Google may drop invalid octets or lines).
        let mut latin = input(
            "User-agent: a\nDisallow: /\nUser-agent: b\nDisallow: /x\n",
            "a",
            "/",
        );
        latin.body.extend_from_slice(b"# caf\xE9\n");
        assert_eq!(
            Relation::GroupOrder.profiles(&latin),
            vec![ProfileId::Rfc9309]
        );
        holds_always(Relation::GroupOrder, &latin);
    }

    #[test]
    fn unrelated_group() {
        holds_always(Relation::UnrelatedGroup, &input(BODY, "FooBot", "/private"));
        holds_always(Relation::UnrelatedGroup, &input(BODY, "Nobody", "/private"));
        holds_always(Relation::UnrelatedGroup, &input("Disallow: /", "A", "/"));
        // Without groups it goes at the end, after the rules outside groups.
        let t = crate::edit::unrelated_group(b"Disallow: /x", "a", &mut Choices::new(3)).unwrap();
        assert!(t.starts_with(b"Disallow: /x\nUser-agent: "));
        // Never the crawler's own name.
        for seed in 0..64 {
            for agent in ["UnrelatedBot", "zzyzx", "a", "A-Other"] {
                let t = crate::edit::unrelated_group(b"", agent, &mut Choices::new(seed)).unwrap();
                let name = String::from_utf8(t).unwrap();
                let name = name
                    .lines()
                    .next()
                    .unwrap()
                    .trim_start_matches("User-agent: ")
                    .to_string();
                assert!(!name.eq_ignore_ascii_case(agent));
            }
        }
    }

    #[test]
    fn percent_encode_unreserved() {
        holds_always(
            Relation::PercentEncodeUnreserved,
            &input(BODY, "FooBot", "https://example.com/private/public?q=a~b"),
        );
        // Never the hex digits of an escape, never `%`, never the authority or the fragment.
        never_applies(
            Relation::PercentEncodeUnreserved,
            &input(BODY, "a", "http://example.com/%41#frag"),
        );
        // The /robots.txt path is left alone (see the function's documentation).
        never_applies(
            Relation::PercentEncodeUnreserved,
            &input(BODY, "a", "http://h/robots.txt"),
        );
        never_applies(
            Relation::PercentEncodeUnreserved,
            &input(BODY, "a", "/%72obots.txt?x=y"),
        );
        let t =
            crate::edit::percent_encode_unreserved("http://h/a?b", &mut Choices::new(0)).unwrap();
        assert!(
            ["http://h/%61?b", "http://h/a?%62"].contains(&t.as_str()),
            "{t}"
        );
    }

    #[test]
    fn percent_encode_non_ascii() {
        holds_always(
            Relation::PercentEncodeNonAscii,
            &input("User-agent: *\nDisallow: /café\n", "a", "http://h/café"),
        );
        holds_always(
            Relation::PercentEncodeNonAscii,
            &input(
                "User-agent: *\nDisallow: /caf%C3%A9\n",
                "a",
                "http://h/café?ü",
            ),
        );
        let t = crate::edit::percent_encode_non_ascii("/ツ", &mut Choices::new(0)).unwrap();
        assert_eq!(t, "/%E3%83%84");
        never_applies(
            Relation::PercentEncodeNonAscii,
            &input(BODY, "a", "http://h/a#ツ"),
        );
    }

    #[test]
    fn fragment() {
        holds_always(
            Relation::Fragment,
            &input(BODY, "FooBot", "http://example.com"),
        );
        holds_always(Relation::Fragment, &input(BODY, "FooBot", "/private?x"));
        never_applies(Relation::Fragment, &input(BODY, "FooBot", "/private#top"));
    }

    #[test]
    fn oversized_bodies_are_skipped_for_moves_but_not_case() {
        let mut big = "User-agent: a\nDisallow: /x\n".repeat(20_000);
        big.push_str("User-agent: b\nDisallow: /\n");
        let big = input(&big, "a", "/x");
        assert!(big.body.len() > FIVE_HUNDRED_KIB);
        assert!(Relation::CommentLine.transform(&big, 0).is_none());
        assert!(Relation::GroupOrder.transform(&big, 0).is_none());
        assert!(Relation::FieldNameCase.transform(&big, 0).is_some());
    }
}
