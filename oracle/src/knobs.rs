//! The knobs of `docs/profiles.md` as data: the four documents ([`ProfileId`]), every knob's
//! settings ([`Knobs`] and its enums), each document's base reading ([`ProfileId::base_knobs`]) and
//! each document's open alternatives, in one table ([`OPEN_KNOBS`]): which knob, which document,
//! where it leaves the knob open, its other alternatives, and what the knob is about in an input
//! ([`Subject`]). Which subjects an input holds is `crate::relevance`'s question, not this module's.
//! `oracle/tests/profiles_doc.rs` checks that `docs/profiles.md` opens the same knobs for the same
//! documents, with citations the page uses.
//!
//! A knob is named one way, by its [`KnobId`]: its K-number, field and `docs/profiles.md` name;
//! [`KnobId::label`] (`K4 precedence`) is how causes, fingerprints and ledgers name it. [`ERRATA`]
//! gives each reported erratum of RFC 9309 as a change to the RFC's readings, which
//! `crate::literal::verdict_under_erratum` applies (`tests/citations.rs` tags the cases that depend
//! on one).
//!
//! A leaf: it imports nothing from the crate but the deviation set a reading carries.

use serde::{Deserialize, Serialize};

use crate::deviation::Deviations;

/// One of the four documents the oracle can answer for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ProfileId {
    /// RFC 9309 (2022).
    #[serde(rename = "rfc9309")]
    Rfc9309,
    /// Google's published interpretation of the protocol.
    #[serde(rename = "google")]
    Google,
    /// Koster's 1996 Internet-Draft, with the HTTP Definitive Guide as a secondary reading.
    #[serde(rename = "draft-1996")]
    Draft1996,
    /// The 1994 "Standard for Robot Exclusion".
    #[serde(rename = "original-1994")]
    Original1994,
}

impl ProfileId {
    /// All profiles, in the order reports list them.
    pub const ALL: [ProfileId; 4] = [
        ProfileId::Rfc9309,
        ProfileId::Google,
        ProfileId::Draft1996,
        ProfileId::Original1994,
    ];

    /// The profile's place in [`ProfileId::ALL`] (and in every per-profile array in that order).
    pub fn index(self) -> usize {
        ProfileId::ALL
            .iter()
            .position(|&p| p == self)
            .expect("every profile is in ALL")
    }

    /// The profile's stable name, as used in cases, test names and the command line.
    pub fn name(self) -> &'static str {
        match self {
            ProfileId::Rfc9309 => "rfc9309",
            ProfileId::Google => "google",
            ProfileId::Draft1996 => "draft-1996",
            ProfileId::Original1994 => "original-1994",
        }
    }

    /// Parses a profile name (exact, as [`ProfileId::name`] prints it).
    pub fn from_name(name: &str) -> Option<ProfileId> {
        ProfileId::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The document's base reading: every knob set, open knobs at their first alternative.
    pub fn base_knobs(self) -> Knobs {
        match self {
            // rfc9309#2.1, rfc9309#2.2, rfc9309#2.2.1, rfc9309#2.2.2, rfc9309#2.2.3, rfc9309#2.5
            ProfileId::Rfc9309 => Knobs {
                grouping: Grouping::UserAgentAfterRuleStartsGroup,
                agent_value: AgentValue::WholeValue,
                agent_comparison: AgentComparison::Equal,
                agent_list: AgentList::Single,
                selection: Selection::MergeAllMatching,
                ruleless_record: RulelessRecord::Applies,
                precedence: Precedence::MostSpecific(
                    Specificity::PatternOctets,
                    SectionFiveTwo::MatchRule,
                ),
                allow_directive: true,
                wildcards: Wildcards::Special(MidDollar::Literal),
                encoding: RFC9309_ENCODING,
                charset: Charset::Octets,
                match_target: MatchTarget::PathAndQuery,
                empty_rule: EmptyRule::MatchesNothing,
                robots_txt_allowed: true,
                bom: Bom::Skip,
                field_spacing: FieldSpacing::Around,
                invalid_pattern: InvalidPattern::UseOctets,
                size_limit: None,
                deviations: Deviations::NONE,
            },
            // google#user-agent-precedence, #rule-precedence, #url-matching, #file-format
            ProfileId::Google => Knobs {
                grouping: Grouping::UserAgentAfterRuleStartsGroup,
                agent_value: AgentValue::LeadingToken,
                agent_comparison: AgentComparison::Equal,
                agent_list: AgentList::Single,
                selection: Selection::MergeAllMatching,
                ruleless_record: RulelessRecord::Applies,
                precedence: Precedence::MostSpecific(
                    Specificity::PatternOctets,
                    SectionFiveTwo::MatchRule,
                ),
                allow_directive: true,
                wildcards: Wildcards::Special(MidDollar::EndOfUrl),
                encoding: Encoding::NonAsciiOnly,
                charset: Charset::Octets,
                match_target: MatchTarget::PathAndQuery,
                empty_rule: EmptyRule::MatchesNothing,
                robots_txt_allowed: false,
                bom: Bom::Skip,
                field_spacing: FieldSpacing::Around,
                invalid_pattern: InvalidPattern::UseOctets,
                size_limit: Some(FIVE_HUNDRED_KIB),
                deviations: Deviations::NONE,
            },
            // draft-1996#3.2, #3.2.1, #3.2.2, #3.3; guide-ch9#allow-disallow
            ProfileId::Draft1996 => Knobs {
                grouping: Grouping::BlankLineRecords(
                    AgentAfterRule::StartsRecord,
                    CommentLine::NotBlank,
                ),
                agent_value: AgentValue::WholeValue,
                agent_comparison: AgentComparison::Equal,
                agent_list: AgentList::Single,
                selection: Selection::FirstMatchingRecord,
                ruleless_record: RulelessRecord::Applies,
                precedence: Precedence::FirstMatch,
                allow_directive: true,
                wildcards: Wildcards::Literal,
                encoding: Encoding::DecodeAllButSlash,
                charset: Charset::Octets,
                match_target: MatchTarget::PathAndQuery,
                empty_rule: EmptyRule::MatchesNothing,
                robots_txt_allowed: true,
                bom: Bom::Skip,
                field_spacing: FieldSpacing::AfterColonOnly,
                invalid_pattern: InvalidPattern::UseOctets,
                size_limit: None,
                deviations: Deviations::NONE,
            },
            // norobots-1994#format, #example-2
            ProfileId::Original1994 => Knobs {
                grouping: Grouping::BlankLineRecords(
                    AgentAfterRule::StartsRecord,
                    CommentLine::NotBlank,
                ),
                agent_value: AgentValue::WholeValue,
                agent_comparison: AgentComparison::Equal,
                agent_list: AgentList::Single,
                selection: Selection::EveryMatchingRecord,
                ruleless_record: RulelessRecord::Applies,
                precedence: Precedence::AnyDisallow,
                allow_directive: false,
                wildcards: Wildcards::Literal,
                encoding: Encoding::Raw,
                charset: Charset::Octets,
                match_target: MatchTarget::PathAndQuery,
                empty_rule: EmptyRule::MatchesNothing,
                robots_txt_allowed: false,
                bom: Bom::Skip,
                field_spacing: FieldSpacing::AfterColonOnly,
                invalid_pattern: InvalidPattern::UseOctets,
                size_limit: None,
                deviations: Deviations::NONE,
            },
        }
    }

    /// Every knob this profile leaves open for some input, with all its alternatives: the rows of
    /// [`OPEN_KNOBS`] for this profile, in order.
    pub fn every_open_knob(self) -> Vec<OpenKnob> {
        self.open_rows().iter().map(OpenRow::open_knob).collect()
    }

    /// The rows of [`OPEN_KNOBS`] for this profile, in the table's order.
    pub fn open_rows(self) -> &'static [OpenRow] {
        let at = self as usize;
        &OPEN_KNOBS[ROWS_OF[at]..ROWS_OF[at + 1]]
    }
}

/// 500 KiB, the RFC's minimum parsing limit and Google's maximum (`rfc9309#2.5`, `google#file-format`).
pub const FIVE_HUNDRED_KIB: usize = 500 * 1024;

/// One open knob for one input: its name, the document it is open in, and its other alternatives
/// (the base reading is always the first alternative and is not repeated here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpenKnob {
    /// Knob name (`docs/profiles.md`).
    pub name: &'static str,
    /// Where the document leaves it open.
    pub citation: &'static str,
    /// The alternatives besides the base reading.
    pub alternatives: &'static [Alternative],
}

/// One alternative setting of one knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Alternative {
    /// K1.
    Grouping(Grouping),
    /// K1 (blank-line records): a user-agent line right after a rule.
    AgentAfterRule(AgentAfterRule),
    /// K1 (blank-line records): a line holding only a comment.
    CommentLine(CommentLine),
    /// K3.
    AgentValue(AgentValue),
    /// K3.
    AgentComparison(AgentComparison),
    /// K3.
    AgentList(AgentList),
    /// K3.
    RulelessRecord(RulelessRecord),
    /// K4.
    Specificity(Specificity),
    /// K4: rfc9309#5.2's example as its prose states it, or as 2.2.2's matching rule reads it.
    SectionFiveTwo(SectionFiveTwo),
    /// K6.
    MidDollar(MidDollar),
    /// K7.
    Encoding(Encoding),
    /// K7: under RFC 9309's encoding, whether reserved characters in the path equal their escapes.
    ReservedInPath(bool),
    /// K7: under RFC 9309's encoding, whether reserved characters in the query equal their escapes.
    ReservedInQuery(bool),
    /// K7: under RFC 9309's encoding, whether RFC 3986's equivalent spellings of an escape hold
    /// where RFC 9309 states no comparison (a rule's escaped unreserved octet, 2.3; the hex case
    /// of an escape, 2.1), or escapes there compare as written.
    Rfc3986Spellings(bool),
    /// K7: under RFC 9309's encoding, whether a raw `:` or `/` in a query compares percent-encoded
    /// (Figure 4 row 2 as published) or as the other reserved characters of a query do (the
    /// reading of erratum 7128, [`ERRATA`]). No document leaves it open.
    QueryColonSlashEncoded(bool),
    /// K7.
    Charset(Charset),
    /// K8.
    MatchTarget(MatchTarget),
    /// K9.
    EmptyRule(EmptyRule),
    /// K10.
    RobotsTxtAllowed(bool),
    /// K12.
    Bom(Bom),
    /// K13.
    FieldSpacing(FieldSpacing),
    /// K13.
    InvalidPattern(InvalidPattern),
    /// K14.
    SizeLimit(Option<usize>),
}

impl Alternative {
    /// Returns `knobs` with this alternative applied.
    pub fn apply(self, mut knobs: Knobs) -> Knobs {
        match self {
            Alternative::Grouping(v) => knobs.grouping = v,
            Alternative::AgentAfterRule(v) => {
                if let Grouping::BlankLineRecords(agent_after_rule, _) = &mut knobs.grouping {
                    *agent_after_rule = v
                }
            }
            Alternative::CommentLine(v) => {
                if let Grouping::BlankLineRecords(_, comment_line) = &mut knobs.grouping {
                    *comment_line = v
                }
            }
            Alternative::AgentValue(v) => knobs.agent_value = v,
            Alternative::AgentComparison(v) => knobs.agent_comparison = v,
            Alternative::AgentList(v) => knobs.agent_list = v,
            Alternative::RulelessRecord(v) => knobs.ruleless_record = v,
            Alternative::Specificity(v) => {
                if let Precedence::MostSpecific(_, example) = knobs.precedence {
                    knobs.precedence = Precedence::MostSpecific(v, example)
                }
            }
            Alternative::SectionFiveTwo(v) => {
                if let Precedence::MostSpecific(specificity, _) = knobs.precedence {
                    knobs.precedence = Precedence::MostSpecific(specificity, v)
                }
            }
            Alternative::MidDollar(v) => {
                if let Wildcards::Special(_) = knobs.wildcards {
                    knobs.wildcards = Wildcards::Special(v)
                }
            }
            Alternative::Encoding(v) => knobs.encoding = v,
            Alternative::ReservedInPath(v) => {
                if let Encoding::Rfc9309 {
                    reserved_in_path_equivalent,
                    ..
                } = &mut knobs.encoding
                {
                    *reserved_in_path_equivalent = v
                }
            }
            Alternative::ReservedInQuery(v) => {
                if let Encoding::Rfc9309 {
                    reserved_in_query_equivalent,
                    ..
                } = &mut knobs.encoding
                {
                    *reserved_in_query_equivalent = v
                }
            }
            Alternative::Rfc3986Spellings(v) => {
                if let Encoding::Rfc9309 {
                    rfc3986_spellings, ..
                } = &mut knobs.encoding
                {
                    *rfc3986_spellings = v
                }
            }
            Alternative::QueryColonSlashEncoded(v) => {
                if let Encoding::Rfc9309 {
                    query_colon_slash_encoded,
                    ..
                } = &mut knobs.encoding
                {
                    *query_colon_slash_encoded = v
                }
            }
            Alternative::Charset(v) => knobs.charset = v,
            Alternative::MatchTarget(v) => knobs.match_target = v,
            Alternative::EmptyRule(v) => knobs.empty_rule = v,
            Alternative::RobotsTxtAllowed(v) => knobs.robots_txt_allowed = v,
            Alternative::Bom(v) => knobs.bom = v,
            Alternative::FieldSpacing(v) => knobs.field_spacing = v,
            Alternative::InvalidPattern(v) => knobs.invalid_pattern = v,
            Alternative::SizeLimit(v) => knobs.size_limit = v,
        }
        knobs
    }
}

/// A complete, concrete reading: one setting for every knob of `docs/profiles.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Knobs {
    /// K1: what makes a group.
    pub grouping: Grouping,
    /// K3: how a user-agent line's value is read.
    pub agent_value: AgentValue,
    /// K3: how a name from the file is compared with the agent.
    pub agent_comparison: AgentComparison,
    /// K3: whether one user-agent line may hold several names.
    pub agent_list: AgentList,
    /// K3: which group(s) apply.
    pub selection: Selection,
    /// K3: whether a record without rules can be selected.
    pub ruleless_record: RulelessRecord,
    /// K4: which matching rule decides.
    pub precedence: Precedence,
    /// K5: whether `Allow` is a rule.
    pub allow_directive: bool,
    /// K6: `*` and `$`.
    pub wildcards: Wildcards,
    /// K7: percent-encoding normalisation.
    pub encoding: Encoding,
    /// K7: how a body that is not UTF-8 is read.
    pub charset: Charset,
    /// K8: what part of the URL is matched.
    pub match_target: MatchTarget,
    /// K9: what an empty rule value means.
    pub empty_rule: EmptyRule,
    /// K10: whether `/robots.txt` is always allowed.
    pub robots_txt_allowed: bool,
    /// K12: the UTF-8 byte-order mark.
    pub bom: Bom,
    /// K13: where white space may stand around a line's field.
    pub field_spacing: FieldSpacing,
    /// K13: patterns with control characters or inner white space.
    pub invalid_pattern: InvalidPattern,
    /// K14: in a body over 500 KiB ([`FIVE_HUNDRED_KIB`]), octets after this many are ignored
    /// (`Some(0)`: none of it is read).
    pub size_limit: Option<usize>,
    /// Named deviations (`crate::deviation`, `docs/deviations.md`): readings no document permits.
    /// Empty in every profile's base reading and in every alternative a profile leaves open.
    pub deviations: Deviations,
}

/// K1: what makes a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Grouping {
    /// RFC 9309 / Google: user-agent lines then rules; a user-agent line after a rule starts a group;
    /// blank lines mean nothing.
    UserAgentAfterRuleStartsGroup,
    /// 1994 / 1996: records end at a blank line.
    BlankLineRecords(AgentAfterRule, CommentLine),
}

/// K1 (blank-line records): whether a line holding only a comment is a blank line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CommentLine {
    /// It is not (`draft-1996#3.3`'s BNF: a `commentline` is no `blank`).
    NotBlank,
    /// It is: it ends the record (the 1994 text's open reading).
    Blank,
}

/// K1 (blank-line records): a user-agent line right after a rule line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AgentAfterRule {
    /// It starts a new record.
    StartsRecord,
    /// It joins the current record.
    JoinsRecord,
}

/// K3: how a user-agent line's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AgentValue {
    /// The whole value is the name.
    WholeValue,
    /// Only the leading product token (letters, `_`, `-`) is the name; the rest is ignored. A `*`
    /// is the star only alone or before white space.
    LeadingToken,
    /// As [`AgentValue::LeadingToken`], and a `*` followed by anything else is the star too (the
    /// rest being "non-matching text" that is ignored).
    LeadingTokenOrStar,
    /// Only the leading token of the 1996 draft's grammar (RFC 1945's: up to the first control
    /// octet, octet outside ASCII or `tspecial`, such as white space or `/`) is the name; a `*`
    /// so cut off is the star.
    LeadingHttpToken,
}

/// K3: how a name from the file is compared with the agent (always case-insensitively).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AgentComparison {
    /// The name equals the agent.
    Equal,
    /// The name is a substring of the agent (the Guide's reading).
    Substring,
}

/// K3: whether one user-agent line may hold several names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AgentList {
    /// One name per line.
    Single,
    /// Names separated by spaces or tabs (the 1994 translator's note).
    WhitespaceSeparated,
}

/// K3: which group(s) apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Selection {
    /// Every matching group, merged; else every `*` group, merged.
    MergeAllMatching,
    /// Every record naming the robot applies; else every `*` record (the 1994 text: each record's
    /// rights apply to the robots it names, and a `*` record's to any robot; Example 2 shows a
    /// robot's own record taking the place of the `*` record). With any-disallow precedence this
    /// selects as [`Selection::MergeAllMatching`] does; it is kept apart because the documents say
    /// it differently.
    EveryMatchingRecord,
    /// The first matching record; else the first `*` record.
    FirstMatchingRecord,
}

/// K3: a record with user-agent lines but no rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RulelessRecord {
    /// It can be selected (and then allows everything).
    Applies,
    /// It is not a record and is skipped.
    Skipped,
}

/// K4: which matching rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Precedence {
    /// The most specific match; allow wins a tie.
    MostSpecific(Specificity, SectionFiveTwo),
    /// The first matching rule in file order.
    FirstMatch,
    /// Any matching disallow rule forbids.
    AnyDisallow,
}

/// K4: how specificity is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Specificity {
    /// Octets of the normalised pattern, `*` and `$` included.
    PatternOctets,
    /// Octets of the target the match covers (the longest possible match).
    MatchedOctets,
    /// Octets of the normalised pattern, `*` and `$` included, but for `*`s that end it:
    /// `google#url-matching` calls `/*` "Equivalent to `/`" and `/fish*` "Equivalent to `/fish`"
    /// ("The trailing wildcard is ignored").
    TrailingWildcardIgnored,
}

/// K4: rfc9309#5.2's example (`rfc9309#5.2`): its rules `Allow: /example/page/` and
/// `Disallow: /example/page/disallowed.gif`, and the URI its prose names,
/// `example.com/example/page/disallow.gif`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SectionFiveTwo {
    /// The example's rule is matched by 2.2.2's rule, as every rule is ("The match evaluates
    /// positively if and only if the end of the path from the rule is reached before a difference
    /// in octets is encountered"): it does not match that URI.
    MatchRule,
    /// The example's rule is used for that URI, as the prose says
    /// ("/example/page/disallowed.gif MUST be used for the URI
    /// example.com/example/page/disallow.gif"). Erratum 7124 questions the prose ([`ERRATA`]).
    AsWritten,
}

/// The rule of rfc9309#5.2's example, normalised (`rfc9309#5.2`).
pub const SECTION_5_2_RULE: &[u8] = b"/example/page/disallowed.gif";

/// The path of the URI rfc9309#5.2's prose names, `example.com/example/page/disallow.gif`.
pub const SECTION_5_2_URI: &[u8] = b"/example/page/disallow.gif";

/// K6: `*` and `$`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Wildcards {
    /// `*` matches any run of octets; a trailing `$` anchors at the end.
    Special(MidDollar),
    /// Both are ordinary characters.
    Literal,
}

/// K6: a `$` that is not the last character of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MidDollar {
    /// An ordinary `$`.
    Literal,
    /// The pattern can never match.
    NeverMatches,
    /// Every `$` is the end of the URL (`google#url-matching`): the pattern is anchored at the
    /// first `$` when only `*`s and `$`s follow it, and never matches when anything else does.
    EndOfUrl,
}

/// K7: percent-encoding normalisation of pattern and target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Encoding {
    /// rfc9309#2.2.2: non-ASCII encoded, hex upper-cased, unreserved decoded; target `*`/`$` encoded.
    Rfc9309 {
        /// 2.2.2 read literally: reserved characters that are data in the path (all but `/`, `?`,
        /// `#`, `*`, `$`) compare equal to their encoding.
        reserved_in_path_equivalent: bool,
        /// 2.2.2 read literally in the query: reserved characters there (all but `#`, `*`, `$`)
        /// compare equal to their encoding. `:` and `/` always do (Figure 4 row 2).
        reserved_in_query_equivalent: bool,
        /// RFC 3986's equivalent spellings of an escape hold where RFC 9309 states no comparison:
        /// a rule's escaped unreserved octet (`%7E`) is decoded as the URI's is (2.2.2 decodes
        /// those "in the URI" only; RFC 3986 2.3), and an escape the comparison keeps (`%3c`,
        /// `%e3`) has its hex digits upper-cased (RFC 3986 2.1). Otherwise both compare as written
        /// (2.2.2 compares octets, and no sentence of RFC 9309 decodes the one or upper-cases the
        /// other): one question, read one way for both. The URI's unreserved escapes are decoded
        /// and the escapes the crawler writes itself, of raw octets, are upper-case under both
        /// readings (2.2.2; RFC 3986 2.1, Figure 4 row 3).
        rfc3986_spellings: bool,
        /// A raw `:` or `/` in a query compares percent-encoded, as Figure 4 row 2 encodes the
        /// query value `https://foo.bar`; otherwise they are reserved characters of a query like
        /// the others (`reserved_in_query_equivalent`), the reading of erratum 7128 ([`ERRATA`]).
        query_colon_slash_encoded: bool,
    },
    /// Only non-ASCII octets are percent-encoded.
    NonAsciiOnly,
    /// Every `%xx` decoded except `%2F` (draft-1996#3.2.2).
    DecodeAllButSlash,
    /// Every `%xx` decoded, `%2F` too: the 1994 text says nothing of escapes, so none is an
    /// exception (the 1996 draft's `%2F` is the draft's).
    DecodeAll,
    /// Octets compared as given.
    Raw,
}

/// RFC 9309's encoding in its base reading (`rfc9309#2.2.2`): reserved characters that are data
/// differ from their escapes (but `:` and `/` in a query, Figure 4 row 2), RFC 3986's equivalent
/// spellings hold (a rule's unreserved escapes decoded, hex digits compared without case).
pub const RFC9309_ENCODING: Encoding = Encoding::Rfc9309 {
    reserved_in_path_equivalent: false,
    reserved_in_query_equivalent: false,
    rfc3986_spellings: true,
    query_colon_slash_encoded: true,
};

/// K7: how a body that is not valid UTF-8 is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Charset {
    /// As octets.
    Octets,
    /// As Latin-1, re-encoded to UTF-8 (RFC 9309's MAY bridge).
    Latin1,
    /// Octets that are not UTF-8 are dropped (`google#file-format`: characters may be ignored).
    DropInvalidOctets,
    /// Lines holding octets that are not UTF-8 are dropped (the rule is rendered invalid).
    DropInvalidLines,
}

/// K8: what part of the URL is matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MatchTarget {
    /// Path, then `?` and the query when present.
    PathAndQuery,
    /// The path only.
    PathOnly,
}

/// K9: an allow/disallow line with an empty value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EmptyRule {
    /// It matches nothing (or is ignored: the same verdicts).
    MatchesNothing,
    /// It matches every URL, with length 0.
    MatchesEverything,
    /// It matches nothing, and a record whose every rule is an empty `Disallow` (a record that
    /// gives no Disallow value) lets its robot index the whole tree, whatever other applying
    /// records disallow: `norobots-1994#format`, read record by record.
    EmptyRecordAllowsAll,
}

/// K12: a UTF-8 byte-order mark at the start of the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Bom {
    /// Skipped.
    Skip,
    /// Kept: it becomes part of the first line.
    KeepAsContent,
}

/// K13: a pattern with control characters or inner white space (or, for the 1996 draft, an octet
/// outside ASCII).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum InvalidPattern {
    /// Its octets are used (percent-encoded where the encoding says so).
    UseOctets,
    /// The line is not a valid rule and is ignored.
    IgnoreLine,
    /// As `IgnoreLine`, and a value with an octet outside ASCII is not valid either (the 1996
    /// draft's `path`, `draft-1996#3.3`).
    IgnoreLineOrNonAscii,
}

/// K13: where spaces and tabs may stand around a line's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum FieldSpacing {
    /// Before the field, around the colon and after the value: `rfc9309#2.2`'s ABNF
    /// (`*WS "user-agent" *WS ":" *WS`); `google#syntax`: "Space at the beginning and at the end of
    /// the line is ignored", "Spaces are optional".
    Around,
    /// Only after the colon and after the value: the field starts the line and ends at the colon.
    /// `norobots-1994#format`: lines "в форме `"<field>:<optional_space><value><optional_space>"`"
    /// (in the form); `draft-1996#3.3`: `"Disallow:" *space path *space`. A line with white space
    /// before its field or its colon names no field these documents know: an unrecognised line
    /// ("Нераспознанные строки игнорируются", unrecognised lines are ignored).
    AfterColonOnly,
}

impl Alternative {
    /// The knob field this alternative sets.
    pub fn knob(self) -> KnobId {
        match self {
            Alternative::Grouping(_)
            | Alternative::AgentAfterRule(_)
            | Alternative::CommentLine(_) => KnobId::Grouping,
            Alternative::AgentValue(_) => KnobId::AgentValue,
            Alternative::AgentComparison(_) => KnobId::AgentComparison,
            Alternative::AgentList(_) => KnobId::AgentList,
            Alternative::RulelessRecord(_) => KnobId::RulelessRecord,
            Alternative::Specificity(_) | Alternative::SectionFiveTwo(_) => KnobId::Precedence,
            Alternative::MidDollar(_) => KnobId::Wildcards,
            Alternative::Encoding(_)
            | Alternative::ReservedInPath(_)
            | Alternative::ReservedInQuery(_)
            | Alternative::Rfc3986Spellings(_)
            | Alternative::QueryColonSlashEncoded(_) => KnobId::Encoding,
            Alternative::Charset(_) => KnobId::Charset,
            Alternative::MatchTarget(_) => KnobId::MatchTarget,
            Alternative::EmptyRule(_) => KnobId::EmptyRule,
            Alternative::RobotsTxtAllowed(_) => KnobId::RobotsTxtAllowed,
            Alternative::Bom(_) => KnobId::Bom,
            Alternative::FieldSpacing(_) => KnobId::FieldSpacing,
            Alternative::InvalidPattern(_) => KnobId::InvalidPattern,
            Alternative::SizeLimit(_) => KnobId::SizeLimit,
        }
    }
}

/// One field of [`Knobs`]: the knob of `docs/profiles.md` it belongs to (its K-number and the
/// section's name) and the field's own name. A knob may have several fields (K3, K7, K13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum KnobId {
    /// K1 `grouping`.
    Grouping,
    /// K3 `group-selection`: how a user-agent value is read.
    AgentValue,
    /// K3 `group-selection`: how a name is compared with the agent.
    AgentComparison,
    /// K3 `group-selection`: several names on one line.
    AgentList,
    /// K3 `group-selection`: which groups apply.
    Selection,
    /// K3 `group-selection`: a record without rules.
    RulelessRecord,
    /// K4 `precedence`.
    Precedence,
    /// K5 `allow-directive`.
    AllowDirective,
    /// K6 `wildcards`.
    Wildcards,
    /// K7 `percent-encoding`: the normalisation.
    Encoding,
    /// K7 `percent-encoding`: a body that is not UTF-8.
    Charset,
    /// K8 `match-target`.
    MatchTarget,
    /// K9 `empty-rule`.
    EmptyRule,
    /// K10 `robots-txt-always-allowed`.
    RobotsTxtAllowed,
    /// K12 `line-ends-and-bom`: the byte-order mark.
    Bom,
    /// K13 `line-syntax`: white space before a field or its colon.
    FieldSpacing,
    /// K13 `line-syntax`: a pattern with control characters or inner white space.
    InvalidPattern,
    /// K14 `size-limit`.
    SizeLimit,
}

impl KnobId {
    /// Every knob field, in the order of [`Knobs`]' fields (the cause search's order).
    pub const ALL: [KnobId; 18] = [
        KnobId::Grouping,
        KnobId::AgentValue,
        KnobId::AgentComparison,
        KnobId::AgentList,
        KnobId::Selection,
        KnobId::RulelessRecord,
        KnobId::Precedence,
        KnobId::AllowDirective,
        KnobId::Wildcards,
        KnobId::Encoding,
        KnobId::Charset,
        KnobId::MatchTarget,
        KnobId::EmptyRule,
        KnobId::RobotsTxtAllowed,
        KnobId::Bom,
        KnobId::FieldSpacing,
        KnobId::InvalidPattern,
        KnobId::SizeLimit,
    ];

    /// The field's place in [`KnobId::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The knob's number in `docs/profiles.md` (`K4`).
    pub fn number(self) -> &'static str {
        self.names().0
    }

    /// The field's name in [`Knobs`] (`precedence`).
    pub fn field(self) -> &'static str {
        self.names().1
    }

    /// The knob's name in `docs/profiles.md`'s heading (`### K7 `percent-encoding``).
    pub fn docs_name(self) -> &'static str {
        self.names().2
    }

    /// The knob's number and field (`K4 precedence`): how causes, fingerprints and ledgers name it.
    pub fn label(self) -> &'static str {
        self.names().3
    }

    /// The field's knob id for its label ([`KnobId::label`]).
    pub fn from_label(label: &str) -> Option<KnobId> {
        KnobId::ALL.into_iter().find(|k| k.label() == label)
    }

    /// (number, field, docs name, label).
    fn names(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            KnobId::Grouping => ("K1", "grouping", "grouping", "K1 grouping"),
            KnobId::AgentValue => ("K3", "agent_value", "group-selection", "K3 agent_value"),
            KnobId::AgentComparison => (
                "K3",
                "agent_comparison",
                "group-selection",
                "K3 agent_comparison",
            ),
            KnobId::AgentList => ("K3", "agent_list", "group-selection", "K3 agent_list"),
            KnobId::Selection => ("K3", "selection", "group-selection", "K3 selection"),
            KnobId::RulelessRecord => (
                "K3",
                "ruleless_record",
                "group-selection",
                "K3 ruleless_record",
            ),
            KnobId::Precedence => ("K4", "precedence", "precedence", "K4 precedence"),
            KnobId::AllowDirective => (
                "K5",
                "allow_directive",
                "allow-directive",
                "K5 allow_directive",
            ),
            KnobId::Wildcards => ("K6", "wildcards", "wildcards", "K6 wildcards"),
            KnobId::Encoding => ("K7", "encoding", "percent-encoding", "K7 encoding"),
            KnobId::Charset => ("K7", "charset", "percent-encoding", "K7 charset"),
            KnobId::MatchTarget => ("K8", "match_target", "match-target", "K8 match_target"),
            KnobId::EmptyRule => ("K9", "empty_rule", "empty-rule", "K9 empty_rule"),
            KnobId::RobotsTxtAllowed => (
                "K10",
                "robots_txt_allowed",
                "robots-txt-always-allowed",
                "K10 robots_txt_allowed",
            ),
            KnobId::Bom => ("K12", "bom", "line-ends-and-bom", "K12 bom"),
            KnobId::FieldSpacing => ("K13", "field_spacing", "line-syntax", "K13 field_spacing"),
            KnobId::InvalidPattern => (
                "K13",
                "invalid_pattern",
                "line-syntax",
                "K13 invalid_pattern",
            ),
            KnobId::SizeLimit => ("K14", "size_limit", "size-limit", "K14 size_limit"),
        }
    }

    /// Sets this field of `knobs` as `from` sets it.
    pub fn copy(self, knobs: &mut Knobs, from: &Knobs) {
        match self {
            KnobId::Grouping => knobs.grouping = from.grouping,
            KnobId::AgentValue => knobs.agent_value = from.agent_value,
            KnobId::AgentComparison => knobs.agent_comparison = from.agent_comparison,
            KnobId::AgentList => knobs.agent_list = from.agent_list,
            KnobId::Selection => knobs.selection = from.selection,
            KnobId::RulelessRecord => knobs.ruleless_record = from.ruleless_record,
            KnobId::Precedence => knobs.precedence = from.precedence,
            KnobId::AllowDirective => knobs.allow_directive = from.allow_directive,
            KnobId::Wildcards => knobs.wildcards = from.wildcards,
            KnobId::Encoding => knobs.encoding = from.encoding,
            KnobId::Charset => knobs.charset = from.charset,
            KnobId::MatchTarget => knobs.match_target = from.match_target,
            KnobId::EmptyRule => knobs.empty_rule = from.empty_rule,
            KnobId::RobotsTxtAllowed => knobs.robots_txt_allowed = from.robots_txt_allowed,
            KnobId::Bom => knobs.bom = from.bom,
            KnobId::FieldSpacing => knobs.field_spacing = from.field_spacing,
            KnobId::InvalidPattern => knobs.invalid_pattern = from.invalid_pattern,
            KnobId::SizeLimit => knobs.size_limit = from.size_limit,
        }
    }
}

/// What an open knob is about in an input: what the input must hold for the knob's alternatives to
/// be able to read it otherwise than the base reading does. Whether an input holds one is
/// `crate::relevance`'s to say, generously (naming a subject the input does not really hold costs
/// time, never correctness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// A UTF-8 byte-order mark at the start of the body.
    Bom,
    /// A body over 500 KiB.
    BodyOverLimit,
    /// Octets outside UTF-8 that a charset reading can turn into another line or value.
    NonUtf8Text,
    /// A user-agent value that can name the crawler and is neither `*` nor a product token.
    UnusualAgentValue,
    /// A user-agent value of `*` followed by something other than white space (`*bot`).
    StarWithSuffix,
    /// A user-agent value that can name the crawler and holds a space or a tab.
    AgentValueWithSpace,
    /// A user-agent line right after a rule, in a record that can name the crawler.
    AgentAfterRule,
    /// A record that can name the crawler and has no rule (a comment line inside a record counts:
    /// read as a blank line it can leave one).
    RulelessRecord,
    /// A line holding only a comment inside a record.
    CommentInsideRecord,
    /// A `*` or `$` in a rule, and both an allow and a disallow rule.
    WildcardBesideAllowAndDisallow,
    /// A `$` before a rule's last octet.
    MidPatternDollar,
    /// An escape, or a reserved character that is data, where the path is compared.
    EscapeOrReservedInPath,
    /// A query, and an escape or a reserved character that is data in it (or an escape in a rule).
    EscapeOrReservedInQuery,
    /// An escape, `*`, `$` or non-ASCII octet in the URL, an escape in a rule, a `$` inside a
    /// pattern, or a reserved character the path or query compares: where RFC 9309's encodings
    /// and Google's own can read an input apart.
    EscapeSpecialOrReserved,
    /// An escape in the URL or a rule.
    EscapeInUrlOrRule,
    /// A query in the URL, and a `?` or an escape in a rule.
    QueryAndQuestionInRule,
    /// A rule with an empty value.
    EmptyRule,
    /// An empty `Disallow` in a record that can name the crawler, and a `Disallow` with a value.
    EmptyRecordBesideDisallow,
    /// A rule holding white space, a control octet or DEL.
    OddPatternOctet,
    /// A rule holding white space, a control octet, DEL or an octet outside ASCII.
    OddOrNonAsciiPatternOctet,
    /// A line with white space before its field or its colon.
    SpacedField,
    /// The URL is the `/robots.txt` URI.
    RobotsTxtUrl,
    /// The rule and the URI of rfc9309#5.2's example ([`SECTION_5_2_RULE`], [`SECTION_5_2_URI`]).
    SectionFiveTwoExample,
}

/// One row of [`OPEN_KNOBS`]: a knob a document leaves open, with the other alternatives it
/// permits (the base reading, [`ProfileId::base_knobs`], is the first and is not repeated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenRow {
    /// The knob field the alternatives set.
    pub knob: KnobId,
    /// The open point's name, as reports and the literal mode print it.
    pub name: &'static str,
    /// The document that leaves it open.
    pub profile: ProfileId,
    /// Where the document leaves it open.
    pub citation: &'static str,
    /// The alternatives besides the base reading.
    pub alternatives: &'static [Alternative],
    /// What the knob is about in an input.
    pub subject: Subject,
}

impl OpenRow {
    /// The row as an open knob, with every alternative.
    pub fn open_knob(&self) -> OpenKnob {
        OpenKnob {
            name: self.name,
            citation: self.citation,
            alternatives: self.alternatives,
        }
    }
}

/// RFC 9309's encoding (`rfc9309#2.2.2`) under one reading of reserved characters in the path and
/// in the query, a rule's escaped unreserved octets decoded, hex digits compared without case.
const fn rfc9309_encoding(path: bool, query: bool) -> Alternative {
    Alternative::Encoding(Encoding::Rfc9309 {
        reserved_in_path_equivalent: path,
        reserved_in_query_equivalent: query,
        rfc3986_spellings: true,
        query_colon_slash_encoded: true,
    })
}

/// Google's K7 alternatives (`google#url-matching`): RFC 9309's readings of reserved characters in
/// the path and in the query, in the order (path, query) = (no, no), (no, yes), (yes, no), (yes,
/// yes). Not RFC 9309's reading that keeps the hex case of an escape: Google settles it for the
/// escapes it speaks of, those of non-ASCII characters ("per RFC 3986"; RFC 3986 2.1).
pub const GOOGLE_ENCODINGS: [Alternative; 4] = [
    rfc9309_encoding(false, false),
    rfc9309_encoding(false, true),
    rfc9309_encoding(true, false),
    rfc9309_encoding(true, true),
];

/// Where each profile's rows start in [`OPEN_KNOBS`], in [`ProfileId::ALL`] order, and where the
/// table ends. Worked out when compiling, which also checks that the table holds each profile's
/// rows together and in that order.
const ROWS_OF: [usize; 5] = {
    let mut starts = [OPEN_KNOBS.len(); 5];
    let mut at = OPEN_KNOBS.len();
    while at > 0 {
        at -= 1;
        let profile = OPEN_KNOBS[at].profile as usize;
        assert!(
            at + 1 == OPEN_KNOBS.len() || OPEN_KNOBS[at + 1].profile as usize >= profile,
            "OPEN_KNOBS holds each profile's rows together, in ProfileId::ALL order"
        );
        starts[profile] = at;
    }
    // A profile without rows starts where the next one does.
    let mut p = 4;
    while p > 0 {
        p -= 1;
        if starts[p] > starts[p + 1] {
            starts[p] = starts[p + 1];
        }
    }
    starts
};

/// Every knob a document leaves open, one row per (document, open point), each document's rows
/// in the order the oracle tries them (`docs/profiles.md` says the same in words; a test checks
/// that both agree).
pub const OPEN_KNOBS: &[OpenRow] = &[
    // RFC 9309.
    OpenRow {
        knob: KnobId::Bom,
        name: "bom",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2",
        alternatives: &[Alternative::Bom(Bom::KeepAsContent)],
        subject: Subject::Bom,
    },
    OpenRow {
        knob: KnobId::SizeLimit,
        name: "size-limit",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.5",
        alternatives: &[Alternative::SizeLimit(Some(FIVE_HUNDRED_KIB))],
        subject: Subject::BodyOverLimit,
    },
    OpenRow {
        knob: KnobId::AgentValue,
        name: "agent-value",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.1",
        alternatives: &[
            Alternative::AgentValue(AgentValue::LeadingToken),
            Alternative::AgentValue(AgentValue::LeadingTokenOrStar),
        ],
        subject: Subject::UnusualAgentValue,
    },
    OpenRow {
        knob: KnobId::Precedence,
        name: "specificity",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.2",
        alternatives: &[Alternative::Specificity(Specificity::MatchedOctets)],
        subject: Subject::WildcardBesideAllowAndDisallow,
    },
    // rfc9309#5.2: "/example/page/disallowed.gif MUST be used for the URI
    // example.com/example/page/disallow.gif", which rfc9309#2.2.2's matching rule does not match:
    // the document contradicts itself on that URI.
    OpenRow {
        knob: KnobId::Precedence,
        name: "section-5-2",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#5.2",
        alternatives: &[Alternative::SectionFiveTwo(SectionFiveTwo::AsWritten)],
        subject: Subject::SectionFiveTwoExample,
    },
    OpenRow {
        knob: KnobId::Wildcards,
        name: "mid-pattern-dollar",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.3",
        alternatives: &[Alternative::MidDollar(MidDollar::NeverMatches)],
        subject: Subject::MidPatternDollar,
    },
    OpenRow {
        knob: KnobId::Encoding,
        name: "reserved-in-path",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.2",
        alternatives: &[Alternative::ReservedInPath(true)],
        subject: Subject::EscapeOrReservedInPath,
    },
    OpenRow {
        knob: KnobId::Encoding,
        name: "reserved-in-query",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#figure-4",
        alternatives: &[Alternative::ReservedInQuery(true)],
        subject: Subject::EscapeOrReservedInQuery,
    },
    // rfc9309#2.2.2 unencodes a percent-encoded unreserved octet "in the URI" and compares octets
    // ("before a difference in octets is encountered"); no sentence decodes one in a rule or
    // upper-cases an escape, while RFC 3986 2.3 and 2.1 make those spellings equivalent: whether
    // RFC 3986's equivalences hold where RFC 9309 is silent, the one question, is open.
    OpenRow {
        knob: KnobId::Encoding,
        name: "escape-spellings",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.2",
        alternatives: &[Alternative::Rfc3986Spellings(false)],
        subject: Subject::EscapeInUrlOrRule,
    },
    OpenRow {
        knob: KnobId::Charset,
        name: "bridge-encoding",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2.2",
        alternatives: &[Alternative::Charset(Charset::Latin1)],
        subject: Subject::NonUtf8Text,
    },
    OpenRow {
        knob: KnobId::InvalidPattern,
        name: "invalid-pattern",
        profile: ProfileId::Rfc9309,
        citation: "rfc9309#2.2",
        alternatives: &[Alternative::InvalidPattern(InvalidPattern::IgnoreLine)],
        subject: Subject::OddPatternOctet,
    },
    // Google.
    // google#user-agent-precedence ignores "All non-matching text" after a token, and says
    // nothing of text after a `*` (`*x`, `*` and a vertical tab): open.
    OpenRow {
        knob: KnobId::AgentValue,
        name: "star-with-suffix",
        profile: ProfileId::Google,
        citation: "google#user-agent-precedence",
        alternatives: &[Alternative::AgentValue(AgentValue::LeadingTokenOrStar)],
        subject: Subject::StarWithSuffix,
    },
    // google#url-matching: `/*` is "Equivalent to `/`. The trailing wildcard is ignored";
    // google#rule-precedence ranks rules by "the length of the rule path".
    OpenRow {
        knob: KnobId::Precedence,
        name: "trailing-wildcard",
        profile: ProfileId::Google,
        citation: "google#url-matching",
        alternatives: &[Alternative::Specificity(
            Specificity::TrailingWildcardIgnored,
        )],
        subject: Subject::WildcardBesideAllowAndDisallow,
    },
    OpenRow {
        knob: KnobId::RobotsTxtAllowed,
        name: "robots-txt-allowed",
        profile: ProfileId::Google,
        citation: "google#url-matching",
        alternatives: &[Alternative::RobotsTxtAllowed(true)],
        subject: Subject::RobotsTxtUrl,
    },
    // Every reading RFC 9309 permits, its open points of reserved characters in the path and in
    // the query included (an input narrows them: `crate::relevance`).
    OpenRow {
        knob: KnobId::Encoding,
        name: "percent-encoding",
        profile: ProfileId::Google,
        citation: "google#url-matching",
        alternatives: &GOOGLE_ENCODINGS,
        subject: Subject::EscapeSpecialOrReserved,
    },
    OpenRow {
        knob: KnobId::Charset,
        name: "non-utf8",
        profile: ProfileId::Google,
        citation: "google#file-format",
        alternatives: &[
            Alternative::Charset(Charset::DropInvalidOctets),
            Alternative::Charset(Charset::DropInvalidLines),
        ],
        subject: Subject::NonUtf8Text,
    },
    // Koster's 1996 draft. draft-1996#5: robots "are therefore encouraged to place limits on the
    // resources spent on processing of /robots.txt", with no figure: in a large body the limit
    // may fall anywhere, the first octet included. Two such places are tried: the first octet
    // and 500 KiB (`docs/profiles.md` K14 says what that leaves out).
    OpenRow {
        knob: KnobId::SizeLimit,
        name: "size-limit",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#5",
        alternatives: &[
            Alternative::SizeLimit(Some(0)),
            Alternative::SizeLimit(Some(FIVE_HUNDRED_KIB)),
        ],
        subject: Subject::BodyOverLimit,
    },
    // draft-1996#3.3: "agent = token", and a token holds no white space, `/` or other tspecial (a
    // `*` it may hold); a value outside that grammar meets draft-1996#4.2's "robustness in
    // parsing": compared whole or by its leading token, open, as RFC 9309's product token is
    // (issue 34; like the draft's field-spacing and invalid-pattern).
    OpenRow {
        knob: KnobId::AgentValue,
        name: "agent-value",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.3",
        alternatives: &[Alternative::AgentValue(AgentValue::LeadingHttpToken)],
        subject: Subject::UnusualAgentValue,
    },
    OpenRow {
        knob: KnobId::Grouping,
        name: "agent-after-rule",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.3",
        alternatives: &[Alternative::AgentAfterRule(AgentAfterRule::JoinsRecord)],
        subject: Subject::AgentAfterRule,
    },
    OpenRow {
        knob: KnobId::RulelessRecord,
        name: "ruleless-record",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.3",
        alternatives: &[Alternative::RulelessRecord(RulelessRecord::Skipped)],
        subject: Subject::RulelessRecord,
    },
    OpenRow {
        knob: KnobId::MatchTarget,
        name: "match-target",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.2.2",
        alternatives: &[Alternative::MatchTarget(MatchTarget::PathOnly)],
        subject: Subject::QueryAndQuestionInRule,
    },
    OpenRow {
        knob: KnobId::EmptyRule,
        name: "empty-rule",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.2.2",
        alternatives: &[Alternative::EmptyRule(EmptyRule::MatchesEverything)],
        subject: Subject::EmptyRule,
    },
    // draft-1996#3.3's BNF puts no white space before a field or its colon; draft-1996#4.2:
    // "Implementors should pay particular attention to the robustness in parsing of the
    // /robots.txt file".
    OpenRow {
        knob: KnobId::FieldSpacing,
        name: "field-spacing",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#4.2",
        alternatives: &[Alternative::FieldSpacing(FieldSpacing::Around)],
        subject: Subject::SpacedField,
    },
    // draft-1996#3.3's `path` (RFC 1808's `pchar`s, over `CHAR = <any US-ASCII character (octets
    // 0 - 127)>`) has no room for white space, a control octet or a non-ASCII octet;
    // draft-1996#4.2 asks for "robustness in parsing".
    OpenRow {
        knob: KnobId::InvalidPattern,
        name: "invalid-pattern",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.3",
        alternatives: &[Alternative::InvalidPattern(
            InvalidPattern::IgnoreLineOrNonAscii,
        )],
        subject: Subject::OddOrNonAsciiPatternOctet,
    },
    OpenRow {
        knob: KnobId::Bom,
        name: "bom",
        profile: ProfileId::Draft1996,
        citation: "draft-1996#3.3",
        alternatives: &[Alternative::Bom(Bom::KeepAsContent)],
        subject: Subject::Bom,
    },
    // The 1994 standard.
    OpenRow {
        knob: KnobId::Grouping,
        name: "agent-after-rule",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::AgentAfterRule(AgentAfterRule::JoinsRecord)],
        subject: Subject::AgentAfterRule,
    },
    OpenRow {
        knob: KnobId::RulelessRecord,
        name: "ruleless-record",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::RulelessRecord(RulelessRecord::Skipped)],
        subject: Subject::RulelessRecord,
    },
    // norobots-1994#format: records are separated by empty lines, and comments take "the usual
    // UNIX form" ("в обычной для UNIX форме"): whether a line holding only a comment is an empty
    // line, the text does not say.
    OpenRow {
        knob: KnobId::Grouping,
        name: "comment-line",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::CommentLine(CommentLine::Blank)],
        subject: Subject::CommentInsideRecord,
    },
    // norobots-1994#format: a Disallow with no value means the whole tree may be indexed, and
    // each other Disallow forbids what it names; when two applying records say each, the text
    // ranks neither.
    OpenRow {
        knob: KnobId::EmptyRule,
        name: "empty-rule",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::EmptyRule(EmptyRule::EmptyRecordAllowsAll)],
        subject: Subject::EmptyRecordBesideDisallow,
    },
    OpenRow {
        knob: KnobId::AgentList,
        name: "agent-list",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#translator-note",
        alternatives: &[Alternative::AgentList(AgentList::WhitespaceSeparated)],
        subject: Subject::AgentValueWithSpace,
    },
    // norobots-1994#format says nothing of `%xx`: an escape may be the octet it encodes or not,
    // every escape alike (no exception is the 1994 text's).
    OpenRow {
        knob: KnobId::Encoding,
        name: "percent-encoding",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::Encoding(Encoding::DecodeAll)],
        subject: Subject::EscapeInUrlOrRule,
    },
    OpenRow {
        knob: KnobId::RobotsTxtAllowed,
        name: "robots-txt-allowed",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::RobotsTxtAllowed(true)],
        subject: Subject::RobotsTxtUrl,
    },
    OpenRow {
        knob: KnobId::Bom,
        name: "bom",
        profile: ProfileId::Original1994,
        citation: "norobots-1994#format",
        alternatives: &[Alternative::Bom(Bom::KeepAsContent)],
        subject: Subject::Bom,
    },
];

/// A reported erratum of RFC 9309: which line it questions, and the reading it asks for, as a
/// change to the RFC's readings (`docs/profiles.md`, "Errata"). A case depends on an erratum when
/// one of its verdicts under `rfc9309` would change under that reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Erratum {
    /// The erratum's number at the RFC Editor.
    pub number: u32,
    /// The tag the cases that depend on it carry (`erratum-7124`).
    pub tag: &'static str,
    /// Where the questioned lines are.
    pub cites: &'static str,
    /// What it questions, in one line.
    pub questions: &'static str,
    /// The rows of [`OPEN_KNOBS`] for RFC 9309 that its reading closes: the RFC no longer leaves
    /// them open once the questioned line reads as the erratum says.
    pub closes: &'static [&'static str],
    /// The settings its reading changes in every reading of the RFC.
    pub sets: &'static [Alternative],
}

/// The reported errata of RFC 9309 that question a line a verdict can rest on.
pub const ERRATA: &[Erratum] = &[
    Erratum {
        number: 7124,
        tag: "erratum-7124",
        cites: "rfc9309#5.2",
        questions: "the 5.2 example's prose names the URI example.com/example/page/disallow.gif, \
                    which its rule /example/page/disallowed.gif does not match; the erratum reads \
                    the URI as .../disallowed.gif",
        closes: &["section-5-2"],
        sets: &[],
    },
    Erratum {
        number: 7128,
        tag: "erratum-7128",
        cites: "rfc9309#figure-4",
        questions: "Figure 4: row 2 encodes a query value's `:` and `/` (`https://` as \
                    `https%3A%2F%2F`), which RFC 3986 3.4 lets stand raw in a query, and row 3 \
                    labels the octets E3 83 84 `U+E38384` (they are U+30C4)",
        closes: &[],
        sets: &[Alternative::QueryColonSlashEncoded(false)],
    },
];
