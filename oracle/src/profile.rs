//! Profiles and their knobs (`docs/profiles.md`).
//!
//! A [`Knobs`] value is one complete, concrete reading of the documents. A [`ProfileId`] names a
//! document; [`ProfileId::base_knobs`] is its base reading, and [`ProfileId::open_knobs`] lists, for a
//! given input, every alternative of an *open* knob that could matter for it.

use serde::{Deserialize, Serialize};

use crate::deviation::Deviations;
use crate::line::{FieldSpacing, LineKind};
use crate::request::Request;

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
                precedence: Precedence::MostSpecific(Specificity::PatternOctets),
                allow_directive: true,
                wildcards: Wildcards::Special(MidDollar::Literal),
                encoding: Encoding::Rfc9309 {
                    reserved_in_path_equivalent: false,
                    reserved_in_query_equivalent: false,
                    unreserved_in_rule_decoded: true,
                },
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
                precedence: Precedence::MostSpecific(Specificity::PatternOctets),
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

    /// The open knobs of this profile that could change the verdict for `request`, each with its
    /// alternatives. A knob is listed only when the input contains what it is about (a cheap,
    /// deliberately generous test: listing an irrelevant knob costs time, never correctness).
    pub fn open_knobs(self, request: &Request<'_>) -> Vec<OpenKnob> {
        let received = crate::memo::ReceivedBody::of(request.body);
        self.open_knobs_given(&InputFacts::of(request, &received))
    }

    /// Every knob this profile leaves open for some input, with its alternatives: what
    /// [`ProfileId::open_knobs`] lists for an input that contains everything the knobs are about.
    pub fn every_open_knob(self) -> Vec<OpenKnob> {
        self.open_knobs_given(&InputFacts::with_everything())
    }

    /// [`ProfileId::open_knobs`] from facts already gathered (one pass over the input serves all
    /// four profiles).
    pub fn open_knobs_given(self, facts: &InputFacts) -> Vec<OpenKnob> {
        let mut open = Vec::new();
        let mut add =
            |name: &'static str, cite: &'static str, alternatives: &'static [Alternative]| {
                open.push(OpenKnob {
                    name,
                    citation: cite,
                    alternatives,
                })
            };
        match self {
            ProfileId::Rfc9309 => {
                if facts.starts_with_bom {
                    add(
                        "bom",
                        "rfc9309#2.2",
                        &[Alternative::Bom(Bom::KeepAsContent)],
                    );
                }
                if facts.body_len > FIVE_HUNDRED_KIB {
                    add(
                        "size-limit",
                        "rfc9309#2.5",
                        &[Alternative::SizeLimit(Some(FIVE_HUNDRED_KIB))],
                    );
                }
                if facts.odd_agent_value {
                    add(
                        "agent-value",
                        "rfc9309#2.2.1",
                        &[
                            Alternative::AgentValue(AgentValue::LeadingToken),
                            Alternative::AgentValue(AgentValue::LeadingTokenOrStar),
                        ],
                    );
                }
                // K4's two lengths differ only for a pattern with `*` or `$`, and decide nothing
                // unless an allow and a disallow can both match.
                if facts.wildcard_or_dollar_in_rules && facts.allow_and_disallow_rules {
                    add(
                        "specificity",
                        "rfc9309#2.2.2",
                        &[Alternative::Specificity(Specificity::MatchedOctets)],
                    );
                }
                if facts.mid_dollar_in_rules {
                    add(
                        "mid-pattern-dollar",
                        "rfc9309#2.2.3",
                        &[Alternative::MidDollar(MidDollar::NeverMatches)],
                    );
                }
                if facts.percent_or_reserved_in_path {
                    add(
                        "reserved-in-path",
                        "rfc9309#2.2.2",
                        &[Alternative::ReservedInPath(true)],
                    );
                }
                if facts.percent_or_reserved_query {
                    add(
                        "reserved-in-query",
                        "rfc9309#figure-4",
                        &[Alternative::ReservedInQuery(true)],
                    );
                }
                if facts.unreserved_escape_in_rules {
                    // rfc9309#2.2.2 unencodes a percent-encoded unreserved octet "in the URI";
                    // no sentence decodes one in a rule.
                    add(
                        "unreserved-in-rule",
                        "rfc9309#2.2.2",
                        &[Alternative::UnreservedInRule(false)],
                    );
                }
                if facts.charset_can_matter {
                    add(
                        "bridge-encoding",
                        "rfc9309#2.2.2",
                        &[Alternative::Charset(Charset::Latin1)],
                    );
                }
                if facts.body_has_odd_pattern_octets {
                    add(
                        "invalid-pattern",
                        "rfc9309#2.2",
                        &[Alternative::InvalidPattern(InvalidPattern::IgnoreLine)],
                    );
                }
            }
            ProfileId::Google => {
                if facts.star_then_other {
                    // google#user-agent-precedence ignores "All non-matching text" after a token,
                    // and says nothing of text after a `*` (`*x`, `*` and a vertical tab): open.
                    add(
                        "star-with-suffix",
                        "google#user-agent-precedence",
                        &[Alternative::AgentValue(AgentValue::LeadingTokenOrStar)],
                    );
                }
                if facts.robots_txt_path {
                    add(
                        "robots-txt-allowed",
                        "google#url-matching",
                        &[Alternative::RobotsTxtAllowed(true)],
                    );
                }
                // Every reading RFC 9309 permits (its open points of reserved characters in the
                // path and in the query included), less those that read this input as another
                // does: see `google_encodings`.
                let encodings = google_encodings(
                    facts.percent_or_special_in_url
                        || facts.percent_in_rules
                        || facts.mid_dollar_in_rules,
                    facts.percent_or_reserved_in_path,
                    facts.percent_or_reserved_query,
                );
                if !encodings.is_empty() {
                    add("percent-encoding", "google#url-matching", encodings);
                }
                if facts.charset_can_matter {
                    add(
                        "non-utf8",
                        "google#file-format",
                        &[
                            Alternative::Charset(Charset::DropInvalidOctets),
                            Alternative::Charset(Charset::DropInvalidLines),
                        ],
                    );
                }
            }
            ProfileId::Draft1996 => {
                if facts.body_len > FIVE_HUNDRED_KIB {
                    add(
                        "size-limit",
                        "draft-1996#5",
                        &[Alternative::SizeLimit(Some(FIVE_HUNDRED_KIB))],
                    );
                }
                record_knobs(facts, "draft-1996#3.3", &mut add);
                if facts.agent_substring {
                    add(
                        "agent-substring",
                        "guide-ch9#user-agent",
                        &[Alternative::AgentComparison(AgentComparison::Substring)],
                    );
                }
                // Rules are prefixes here (no wildcard): one matches the path with its query and
                // not the path alone only by holding a `?` (or an escape decoded to one).
                if facts.url_has_query && (facts.question_in_rules || facts.percent_in_rules) {
                    add(
                        "match-target",
                        "draft-1996#3.2.2",
                        &[Alternative::MatchTarget(MatchTarget::PathOnly)],
                    );
                }
                if facts.empty_rule_in_body {
                    add(
                        "empty-rule",
                        "draft-1996#3.2.2",
                        &[Alternative::EmptyRule(EmptyRule::MatchesEverything)],
                    );
                }
                if facts.spacing_can_matter {
                    // draft-1996#3.3's BNF puts no white space before a field or its colon;
                    // draft-1996#4.2: "Implementors should pay particular attention to the
                    // robustness in parsing of the /robots.txt file".
                    add(
                        "field-spacing",
                        "draft-1996#4.2",
                        &[Alternative::FieldSpacing(FieldSpacing::Around)],
                    );
                }
                if facts.body_has_odd_pattern_octets || facts.non_ascii_in_rules {
                    // draft-1996#3.3's `path` (RFC 1808's `pchar`s, over `CHAR = <any US-ASCII
                    // character (octets 0 - 127)>`) has no room for white space, a control octet
                    // or a non-ASCII octet; draft-1996#4.2 asks for "robustness in parsing".
                    add(
                        "invalid-pattern",
                        "draft-1996#3.3",
                        &[Alternative::InvalidPattern(
                            InvalidPattern::IgnoreLineOrNonAscii,
                        )],
                    );
                }
                if facts.starts_with_bom {
                    add(
                        "bom",
                        "draft-1996#3.3",
                        &[Alternative::Bom(Bom::KeepAsContent)],
                    );
                }
            }
            ProfileId::Original1994 => {
                record_knobs(facts, "norobots-1994#format", &mut add);
                if facts.comment_inside_record {
                    // norobots-1994#format: records are separated by empty lines, and comments
                    // take "the usual UNIX form" ("в обычной для UNIX форме"): whether a line
                    // holding only a comment is an empty line, the text does not say.
                    add(
                        "comment-line",
                        "norobots-1994#format",
                        &[Alternative::CommentLine(CommentLine::Blank)],
                    );
                }
                if facts.agent_value_with_space {
                    add(
                        "agent-list",
                        "norobots-1994#translator-note",
                        &[Alternative::AgentList(AgentList::WhitespaceSeparated)],
                    );
                }
                if facts.percent_in_url || facts.percent_in_rules {
                    add(
                        "percent-encoding",
                        "norobots-1994#format",
                        &[Alternative::Encoding(Encoding::DecodeAllButSlash)],
                    );
                }
                if facts.robots_txt_path {
                    add(
                        "robots-txt-allowed",
                        "norobots-1994#format",
                        &[Alternative::RobotsTxtAllowed(true)],
                    );
                }
                if facts.starts_with_bom {
                    add(
                        "bom",
                        "norobots-1994#format",
                        &[Alternative::Bom(Bom::KeepAsContent)],
                    );
                }
            }
        }
        open
    }
}

/// The open knobs shared by the blank-line-record documents (1994, 1996): a user-agent line right
/// after a rule and a record without rules (K1, K3).
fn record_knobs(
    facts: &InputFacts,
    grouping_cite: &'static str,
    add: &mut impl FnMut(&'static str, &'static str, &'static [Alternative]),
) {
    if facts.agent_after_rule {
        add(
            "agent-after-rule",
            grouping_cite,
            &[Alternative::AgentAfterRule(AgentAfterRule::JoinsRecord)],
        );
    }
    if facts.ruleless_record {
        add(
            "ruleless-record",
            grouping_cite,
            &[Alternative::RulelessRecord(RulelessRecord::Skipped)],
        );
    }
}

/// Google's K7 alternatives (`google#url-matching`) for an input: RFC 9309's encoding under each
/// reading of reserved characters in the path (`path`) and in the query (`query`) that can matter,
/// the one where neither is encoded only when RFC 9309's encoding can differ from Google's own
/// (`rfc_differs`: an escape in the URL or a rule, a `*`, `$` or non-ASCII octet in the URL, a `$`
/// inside a pattern; elsewhere both encode non-ASCII octets and nothing else). A reserved-character
/// reading that cannot matter reads the input as the one without it (see
/// `InputFacts::percent_or_reserved_in_path` and `percent_or_reserved_query`).
fn google_encodings(rfc_differs: bool, path: bool, query: bool) -> &'static [Alternative] {
    const fn rfc(path: bool, query: bool) -> Alternative {
        Alternative::Encoding(Encoding::Rfc9309 {
            reserved_in_path_equivalent: path,
            reserved_in_query_equivalent: query,
            unreserved_in_rule_decoded: true,
        })
    }
    const FF: Alternative = rfc(false, false);
    const FT: Alternative = rfc(false, true);
    const TF: Alternative = rfc(true, false);
    const TT: Alternative = rfc(true, true);
    match (rfc_differs, path, query) {
        (true, true, true) => &[FF, FT, TF, TT],
        (true, true, false) => &[FF, TF],
        (true, false, true) => &[FF, FT],
        (true, false, false) => &[FF],
        (false, true, true) => &[FT, TF, TT],
        (false, true, false) => &[TF],
        (false, false, true) => &[FT],
        (false, false, false) => &[],
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
    /// K6.
    MidDollar(MidDollar),
    /// K7.
    Encoding(Encoding),
    /// K7: under RFC 9309's encoding, whether reserved characters in the path equal their escapes.
    ReservedInPath(bool),
    /// K7: under RFC 9309's encoding, whether reserved characters in the query equal their escapes.
    ReservedInQuery(bool),
    /// K7: under RFC 9309's encoding, whether a rule's escaped unreserved octets are decoded.
    UnreservedInRule(bool),
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
                if let Precedence::MostSpecific(_) = knobs.precedence {
                    knobs.precedence = Precedence::MostSpecific(v)
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
            Alternative::UnreservedInRule(v) => {
                if let Encoding::Rfc9309 {
                    unreserved_in_rule_decoded,
                    ..
                } = &mut knobs.encoding
                {
                    *unreserved_in_rule_decoded = v
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
    /// K14: octets after this many are ignored.
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
    MostSpecific(Specificity),
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
}

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
        /// A rule's escaped unreserved octet (`%7E`) is decoded as the URI's is (2.2.2 decodes
        /// those "in the URI" only; RFC 3986 2.3 makes both spellings equivalent).
        unreserved_in_rule_decoded: bool,
    },
    /// Only non-ASCII octets are percent-encoded.
    NonAsciiOnly,
    /// Every `%xx` decoded except `%2F` (draft-1996#3.2.2).
    DecodeAllButSlash,
    /// Octets compared as given.
    Raw,
}

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

/// K7: whether reading the body under a charset alternative (Latin-1, dropping invalid octets,
/// dropping invalid lines) could change a verdict. Only the RFC and Google leave K7 open, and their
/// grouping (K1, `Allow` a rule) gives blank, comment, other and invalid lines no part; what a line
/// is and its value come from the part before any `#`. So the alternatives matter only if:
/// - a user-agent line or rule has a non-ASCII octet before its comment (Latin-1 or dropping
///   octets changes its value) or an invalid octet anywhere (dropping invalid lines removes it); or
/// - another line becomes one once its invalid octets are dropped. Dropping removes non-ASCII
///   octets only, so the `#` and the colon stay, and it can happen only through a field name with a
///   non-ASCII octet (`Dis\xFFallow`). Latin-1 keeps every ASCII octet and turns the others into
///   non-ASCII ones, so it never turns a line into one that names a record (an all-ASCII name);
///   a dropped invalid line is empty.
///
/// Dropping octets joins a CR and an LF around a line only when it leaves that line empty, so every
/// other line is the same octets, in the same order, in every reading. A body over the size limit
/// or starting with a BOM is cut before K7 applies, so it always counts.
fn charset_can_matter(body: &[u8], received: &crate::memo::ReceivedBody<'_>) -> bool {
    let utf8 = |octets: &[u8]| std::str::from_utf8(octets).is_ok();
    // The size limit can cut a UTF-8 body inside a character.
    if utf8(body) && (body.len() <= FIVE_HUNDRED_KIB || utf8(&body[..FIVE_HUNDRED_KIB])) {
        return false;
    }
    if body.len() > FIVE_HUNDRED_KIB || body.starts_with(crate::body::UTF8_BOM) {
        return true;
    }
    received
        .lines()
        .iter()
        .zip(received.kinds())
        .filter(|(line, _)| !line.bytes.is_ascii())
        .any(|(line, &kind)| match kind {
            LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_) => {
                !crate::line::strip_comment(line.bytes).is_ascii() || !utf8(line.bytes)
            }
            _ => match crate::line::field_and_value(line.bytes) {
                Some((field, _)) if !field.is_ascii() => {
                    let dropped = crate::body::read_as(field, Charset::DropInvalidOctets);
                    crate::line::names_a_group_line(crate::line::trim_ws(&dropped))
                }
                _ => false,
            },
        })
}

/// Cheap facts about an input that decide which open knobs are worth trying: what it contains that
/// could make an open knob matter (gathered once per input).
#[derive(Clone, Debug)]
pub struct InputFacts {
    body_len: usize,
    starts_with_bom: bool,
    charset_can_matter: bool,
    odd_agent_value: bool,
    agent_value_with_space: bool,
    wildcard_or_dollar_in_rules: bool,
    allow_and_disallow_rules: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
    unreserved_escape_in_rules: bool,
    percent_in_url: bool,
    percent_or_special_in_url: bool,
    percent_or_reserved_query: bool,
    percent_or_reserved_in_path: bool,
    url_has_query: bool,
    question_in_rules: bool,
    robots_txt_path: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    agent_substring: bool,
    empty_rule_in_body: bool,
    body_has_odd_pattern_octets: bool,
    non_ascii_in_rules: bool,
    comment_inside_record: bool,
    spacing_can_matter: bool,
    star_then_other: bool,
}

impl InputFacts {
    /// Gathers the facts of `request`, whose body is `received` (split and classified).
    pub fn of(request: &Request<'_>, received: &crate::memo::ReceivedBody<'_>) -> InputFacts {
        InputFacts::for_profiles(request, received, &ProfileId::ALL)
    }

    /// [`InputFacts::of`] for the knobs of `profiles` only: a costly line fact none of them reads
    /// is not gathered and holds (generous, as every fact is), so each of them opens the knobs it
    /// would open with every fact gathered.
    pub fn for_profiles(
        request: &Request<'_>,
        received: &crate::memo::ReceivedBody<'_>,
        profiles: &[ProfileId],
    ) -> InputFacts {
        let asked = FactsAsked::of(profiles);
        let body = request.body;
        let url = request.url.as_bytes();
        let charset_can_matter = charset_can_matter(body, received);
        // The facts about lines hold if they hold in any reading of the lines: as received, with
        // a leading BOM skipped, re-read under a charset alternative, or cut at the size limit.
        let mut lines = LineFacts::default();
        let mut read = |kinds: &[LineKind<'_>], spaced: &[bool]| {
            lines.read(kinds, spaced, request.agent, asked)
        };
        let spaced = received.spaced();
        each_reading_of_lines(received, spaced, charset_can_matter, &mut read);
        if body.len() > FIVE_HUNDRED_KIB {
            let cut = crate::memo::ReceivedBody::of(&body[..FIVE_HUNDRED_KIB]);
            each_reading_of_lines(&cut, cut.spaced(), charset_can_matter, &mut read);
        }
        lines.agent_after_rule |= !asked.records;
        lines.ruleless_record |= !asked.records;
        lines.agent_substring |= !asked.substring;
        let split = crate::url::split(request.url);
        let query = split.query.unwrap_or(b"");
        InputFacts {
            body_len: body.len(),
            starts_with_bom: body.starts_with(crate::body::UTF8_BOM),
            charset_can_matter,
            odd_agent_value: lines.odd_agent_value,
            agent_value_with_space: lines.agent_value_with_space,
            wildcard_or_dollar_in_rules: lines.wildcard_or_dollar_in_rules,
            allow_and_disallow_rules: lines.allow_rule && lines.disallow_rule,
            mid_dollar_in_rules: lines.mid_dollar_in_rules,
            percent_in_rules: lines.percent_in_rules,
            unreserved_escape_in_rules: lines.unreserved_escape_in_rules,
            percent_in_url: memchr::memchr(b'%', url).is_some(),
            // Raw non-ASCII in the URL is percent-encoded by some readings and not others.
            percent_or_special_in_url: memchr::memchr3(b'%', b'*', b'$', url).is_some()
                || url.iter().any(|&b| b >= 0x80),
            // The reserved-in-query reading only changes how query octets compare: without a query
            // in the URL there is no `?` in the target for a pattern's query part to meet.
            percent_or_reserved_query: split.query.is_some()
                && (memchr::memchr(b'%', url).is_some()
                    || lines.percent_in_rules
                    || query
                        .iter()
                        .any(|&b| crate::encoding::is_reserved_data(b, true))),
            // The reserved-in-path reading changes a comparison only where an escape meets a raw
            // character, or where a raw reserved character of the match target is encoded.
            // Without one, a rule's raw reserved character meets nothing it could equal in either
            // reading. `/` and `?` are never data in the path, and the scheme and authority are
            // not matched. The query and the fragment (which D-fragment-kept appends) count only
            // when a rule has a `*`: a rule reaches the query literally only through its own `?`,
            // after which it is read as a query too, and never reaches the fragment (a `#` starts
            // a comment), so only a piece after a `*`, read as path, can meet their octets. (The
            // fact read here also counts a `$`, which only opens the reading more often.)
            percent_or_reserved_in_path: memchr::memchr(b'%', url).is_some()
                || lines.percent_in_rules
                || split
                    .path
                    .iter()
                    .any(|&b| crate::encoding::is_reserved_data(b, false))
                || (lines.wildcard_or_dollar_in_rules
                    && [split.query, split.fragment]
                        .into_iter()
                        .flatten()
                        .flatten()
                        .any(|&b| crate::encoding::is_reserved_data(b, false))),
            url_has_query: split.query.is_some(),
            question_in_rules: lines.question_in_rules,
            robots_txt_path: crate::url::is_robots_txt_uri(&split),
            agent_after_rule: lines.agent_after_rule,
            // A comment line read as an empty line (1994's comment-line) can leave a record
            // without rules: the fact holds wherever such a line stands inside a record.
            ruleless_record: lines.ruleless_record || lines.comment_inside_record,
            agent_substring: lines.agent_substring,
            empty_rule_in_body: lines.empty_rule_in_body,
            body_has_odd_pattern_octets: lines.body_has_odd_pattern_octets,
            non_ascii_in_rules: lines.non_ascii_in_rules,
            comment_inside_record: lines.comment_inside_record || !asked.records,
            star_then_other: lines.star_then_other,
            // K13: a line with white space before its field or colon (a skipped BOM can leave one;
            // the charset alternatives apply only under the RFC's spacing).
            spacing_can_matter: spaced.iter().skip(1).any(|&s| s)
                || received.lines().first().is_some_and(|line| {
                    crate::line::spacing_can_matter(
                        line.bytes
                            .strip_prefix(crate::body::UTF8_BOM)
                            .unwrap_or(line.bytes),
                    )
                }),
        }
    }

    /// The facts of an input that contains everything every knob is about.
    fn with_everything() -> InputFacts {
        InputFacts {
            body_len: usize::MAX,
            starts_with_bom: true,
            charset_can_matter: true,
            odd_agent_value: true,
            agent_value_with_space: true,
            wildcard_or_dollar_in_rules: true,
            allow_and_disallow_rules: true,
            mid_dollar_in_rules: true,
            percent_in_rules: true,
            unreserved_escape_in_rules: true,
            percent_in_url: true,
            percent_or_special_in_url: true,
            percent_or_reserved_query: true,
            percent_or_reserved_in_path: true,
            url_has_query: true,
            question_in_rules: true,
            robots_txt_path: true,
            agent_after_rule: true,
            ruleless_record: true,
            agent_substring: true,
            empty_rule_in_body: true,
            body_has_odd_pattern_octets: true,
            non_ascii_in_rules: true,
            comment_inside_record: true,
            spacing_can_matter: true,
            star_then_other: true,
        }
    }
}

/// The facts [`InputFacts`] reads from line kinds, each true once any reading read shows it.
#[derive(Default)]
struct LineFacts {
    odd_agent_value: bool,
    star_then_other: bool,
    agent_value_with_space: bool,
    empty_rule_in_body: bool,
    body_has_odd_pattern_octets: bool,
    /// A rule holding an octet outside ASCII.
    non_ascii_in_rules: bool,
    /// A line holding only a comment between two lines that are neither blank nor comments: one
    /// that would split a record if it were a blank line.
    comment_inside_record: bool,
    agent_after_rule: bool,
    ruleless_record: bool,
    agent_substring: bool,
    wildcard_or_dollar_in_rules: bool,
    /// An `Allow` line, or an empty `Disallow:` (which D-empty-disallow-allows-all reads as one).
    allow_rule: bool,
    /// A `Disallow` line.
    disallow_rule: bool,
    mid_dollar_in_rules: bool,
    percent_in_rules: bool,
    /// A rule holding an escaped unreserved octet (`%7E`).
    unreserved_escape_in_rules: bool,
    /// A rule holding `?`.
    question_in_rules: bool,
}

impl LineFacts {
    /// Adds what the records of one reading's line kinds show, each kind with whether it is a
    /// user-agent line that can name the crawler ([`can_name`]): the facts that depend on the order
    /// of lines, not on any one line, for the blank-line profiles. A record (the lines between two
    /// blank lines) no reading can select for the crawler (none of its user-agent lines can name
    /// it) is passed over alike under every reading of its lines, so only
    /// records that can name it count: one with a user-agent line after a rule and no blank line
    /// between (agent_after_rule: where it starts a record, the record's lines are split), one whose
    /// user-agent lines meet a blank line or the end before any disallow line (ruleless_record:
    /// `Allow` does not count, since 1994 ignores it; for 1996 that only over-approximates, which
    /// costs time, never correctness).
    fn read_records<'a>(&mut self, kinds: impl Iterator<Item = (LineKind<'a>, bool)>) {
        let mut rule_since_blank = false;
        // Since the last blank line: a user-agent line came after a rule, and one can name the
        // crawler.
        let mut agent_after_rule = false;
        let mut record_names = false;
        // User-agent lines since the last blank line or disallow line, and whether one of them
        // can name the crawler.
        let mut agent_pending = false;
        let mut naming_pending = false;
        for (kind, names) in kinds {
            match kind {
                LineKind::Blank => {
                    self.ruleless_record |= naming_pending;
                    self.agent_after_rule |= agent_after_rule && record_names;
                    agent_pending = false;
                    naming_pending = false;
                    agent_after_rule = false;
                    record_names = false;
                    rule_since_blank = false;
                }
                LineKind::UserAgent(_) => {
                    agent_after_rule |= rule_since_blank;
                    record_names |= names;
                    agent_pending = true;
                    naming_pending |= names;
                }
                LineKind::Allow(_) | LineKind::Disallow(_) => {
                    rule_since_blank = true;
                    if matches!(kind, LineKind::Disallow(_)) {
                        agent_pending = false;
                        naming_pending = false;
                    }
                }
                LineKind::Comment | LineKind::Other(_) | LineKind::Invalid => {}
            }
        }
        self.ruleless_record |= agent_pending && naming_pending;
        self.agent_after_rule |= agent_after_rule && record_names;
    }

    /// Adds what one reading's line kinds (`Allow` a rule) show, for the crawler `agent`: each
    /// line's own facts, then its records' ([`LineFacts::read_records`]) as the RFC's spacing
    /// reads them and, where some line has white space before its field or colon (`spaced`, per
    /// line), as the 1994 and 1996 forms read them (K13, [`strict_kinds`]).
    fn read(&mut self, kinds: &[LineKind<'_>], spaced: &[bool], agent: &str, asked: FactsAsked) {
        // Whether each line is a user-agent line that can name the crawler ([`can_name`]): a
        // value no reading can make name the crawler is read alike by every K3 reading. (Every
        // user-agent line, when no asked profile reads it.)
        if asked.records && !self.comment_inside_record {
            let mut before = false;
            let mut comment_since = false;
            for kind in kinds {
                match kind {
                    LineKind::Comment => comment_since |= before,
                    LineKind::Blank => (before, comment_since) = (false, false),
                    _ if comment_since => {
                        self.comment_inside_record = true;
                        break;
                    }
                    _ => before = true,
                }
            }
        }
        let names: Vec<bool> = kinds
            .iter()
            .map(|kind| {
                matches!(kind, LineKind::UserAgent(value)
                    if !asked.naming || can_name(value, agent))
            })
            .collect();
        for (&kind, &names) in kinds.iter().zip(&names) {
            match kind {
                LineKind::UserAgent(value) => {
                    let plain = value == b"*" || crate::select::is_product_token(value);
                    self.odd_agent_value |= !plain && names;
                    self.star_then_other |=
                        value.len() > 1 && value[0] == b'*' && !crate::line::is_ws(value[1]);
                    self.agent_value_with_space |=
                        names && value.iter().any(|&b| b == b' ' || b == b'\t');
                    // Each fact is settled by its first witness: later lines are not searched.
                    self.agent_substring = self.agent_substring
                        || !asked.substring
                        || value.split(|&b| b == b' ' || b == b'\t').any(|name| {
                            !name.is_empty()
                                && !name.eq_ignore_ascii_case(agent.as_bytes())
                                && crate::select::name_matches(
                                    name,
                                    agent,
                                    AgentComparison::Substring,
                                )
                        });
                }
                LineKind::Allow(value) | LineKind::Disallow(value) => {
                    self.allow_rule |= matches!(kind, LineKind::Allow(_)) || value.is_empty();
                    self.disallow_rule |= matches!(kind, LineKind::Disallow(_));
                    self.empty_rule_in_body |= value.is_empty();
                    // The octets the facts look for, in one pass over the value.
                    let classes = RuleOctets::of(value);
                    self.wildcard_or_dollar_in_rules |= classes.has(RuleOctets::STAR);
                    // K7: the encodings differ only where a pattern or the target holds a `%`.
                    self.percent_in_rules |= classes.has(RuleOctets::PERCENT);
                    self.unreserved_escape_in_rules |= classes.has(RuleOctets::PERCENT)
                        && value.windows(3).any(|w| match w {
                            [b'%', h, l] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
                                let digit = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
                                crate::encoding::is_unreserved(digit(*h) * 16 + digit(*l))
                            }
                            _ => false,
                        });
                    self.question_in_rules |= classes.has(RuleOctets::QUESTION);
                    self.body_has_odd_pattern_octets |= classes.has(RuleOctets::ODD);
                    self.non_ascii_in_rules |= classes.has(RuleOctets::NON_ASCII);
                    if classes.has(RuleOctets::DOLLAR) {
                        self.wildcard_or_dollar_in_rules = true;
                        // K6 MidDollar only concerns a `$` before the pattern's last octet.
                        let trimmed = crate::line::trim_ws(value);
                        let before_end = trimmed.strip_suffix(b"$").unwrap_or(trimmed);
                        self.mid_dollar_in_rules |= before_end.contains(&b'$');
                    }
                }
                LineKind::Blank | LineKind::Comment | LineKind::Other(_) | LineKind::Invalid => {}
            }
        }
        if !asked.records {
            return;
        }
        self.read_records(kinds.iter().copied().zip(names.iter().copied()));
        if spaced.contains(&true) {
            // The strict reading keeps a line as it is or makes it unrecognised: a kept
            // user-agent line names the crawler as before.
            self.read_records(strict_kinds(kinds, spaced).zip(names.iter().copied()));
        }
    }
}

/// The classes of octets a rule's value holds that [`LineFacts::read`] looks for, a bit each.
#[derive(Clone, Copy)]
struct RuleOctets(u8);

impl RuleOctets {
    const DOLLAR: u8 = 1;
    const STAR: u8 = 2;
    const PERCENT: u8 = 4;
    const QUESTION: u8 = 8;
    /// White space, a control octet or DEL: what no pattern octet may be.
    const ODD: u8 = 16;
    /// An octet outside ASCII.
    const NON_ASCII: u8 = 32;

    /// Each octet's class bits.
    const TABLE: [u8; 256] = {
        let mut table = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = match b as u8 {
                b'$' => Self::DOLLAR,
                b'*' => Self::STAR,
                b'%' => Self::PERCENT,
                b'?' => Self::QUESTION,
                b' ' | 0x7F | ..0x20 => Self::ODD,
                0x80.. => Self::NON_ASCII,
                _ => 0,
            };
            b += 1;
        }
        table
    };

    /// The classes `value` holds (a table lookup per octet, no branch).
    fn of(value: &[u8]) -> RuleOctets {
        RuleOctets(
            value
                .iter()
                .fold(0, |all, &b| all | Self::TABLE[usize::from(b)]),
        )
    }

    fn has(self, class: u8) -> bool {
        self.0 & class != 0
    }
}

/// Which of the costlier line facts a set of profiles reads ([`ProfileId::open_knobs_given`]); the
/// others are cheap and always gathered.
#[derive(Clone, Copy)]
struct FactsAsked {
    /// Whether a user-agent value can name the crawler ([`can_name`]): RFC 9309's agent value, the
    /// 1994 agent value with white space, and the records.
    naming: bool,
    /// The records' facts (a user-agent line after a rule, a record without rules): the
    /// blank-line-record documents.
    records: bool,
    /// A name inside the crawler's name: the 1996 draft's substring comparison.
    substring: bool,
}

impl FactsAsked {
    fn of(profiles: &[ProfileId]) -> FactsAsked {
        let has = |p: ProfileId| profiles.contains(&p);
        let records = has(ProfileId::Draft1996) || has(ProfileId::Original1994);
        FactsAsked {
            naming: records || has(ProfileId::Rfc9309),
            records,
            substring: has(ProfileId::Draft1996),
        }
    }
}

/// Whether some reading of K3 can make the user-agent value `value` name the crawler `agent`
/// (`select::agent_names`, `select::name_matches`): the value or one of its words starts with `*`,
/// or is empty (a deviation reads that as every crawler), or it or its leading product token is
/// inside the crawler's name (equal names are inside too). Generous, like every input fact.
fn can_name(value: &[u8], agent: &str) -> bool {
    let inside = |name: &[u8]| crate::select::name_matches(name, agent, AgentComparison::Substring);
    let piece_can_name = |piece: &[u8]| {
        let token_end = piece
            .iter()
            .position(|&b| !crate::select::is_token_byte(b))
            .unwrap_or(piece.len());
        piece.is_empty() || piece[0] == b'*' || inside(piece) || inside(&piece[..token_end])
    };
    piece_can_name(value)
        || value
            .split(|&b| crate::line::is_ws(b))
            .filter(|word| !word.is_empty())
            .any(piece_can_name)
}

/// The kinds of `kinds` as the 1994 and 1996 forms read them (K13): a user-agent or rule line with
/// white space before its field or colon (`spaced`) is unrecognised. Only the records can differ
/// from the RFC's reading: it has some of those lines, as they are, and no others.
fn strict_kinds<'k, 'b>(
    kinds: &'k [LineKind<'b>],
    spaced: &'k [bool],
) -> impl Iterator<Item = LineKind<'b>> + 'k {
    kinds.iter().zip(spaced).map(|(&kind, &spaced)| match kind {
        LineKind::UserAgent(_) | LineKind::Allow(_) | LineKind::Disallow(_) if spaced => {
            LineKind::Other(b"")
        }
        kind => kind,
    })
}

/// Calls `read` with the line kinds (`Allow` a rule) of every reading steps 1 and 2 can make of
/// `received`: as received; with a leading BOM skipped (K12); and, when `rereads`, with every line
/// holding a non-ASCII octet re-read under each charset alternative (K7), with or without the BOM.
/// Only the lines a reading changes are classified again. Each reading's kinds come with which of
/// its lines have white space before their field or colon (K13, the lines the 1994 and 1996 forms
/// read otherwise).
fn each_reading_of_lines(
    received: &crate::memo::ReceivedBody<'_>,
    spaced: &[bool],
    rereads: bool,
    read: &mut impl FnMut(&[LineKind<'_>], &[bool]),
) {
    let lines = received.lines();
    read(received.kinds(), spaced);
    let bom = lines
        .first()
        .is_some_and(|line| line.bytes.starts_with(crate::body::UTF8_BOM));
    let charsets: &[Charset] = if rereads {
        &[
            Charset::Octets,
            Charset::Latin1,
            Charset::DropInvalidOctets,
            Charset::DropInvalidLines,
        ]
    } else {
        &[Charset::Octets]
    };
    for &charset in charsets {
        for skip_bom in [false, true] {
            // Octets with the BOM kept is the reading as received.
            if (skip_bom && !bom) || (charset == Charset::Octets && !skip_bom) {
                continue;
            }
            let changed: Vec<Option<Vec<u8>>> = lines
                .iter()
                .enumerate()
                .map(|(i, line)| {
                    let skipped = i == 0 && skip_bom;
                    let bytes = if skipped {
                        &line.bytes[crate::body::UTF8_BOM.len()..]
                    } else {
                        line.bytes
                    };
                    if charset != Charset::Octets && !bytes.is_ascii() {
                        Some(crate::body::read_as(bytes, charset))
                    } else {
                        skipped.then(|| bytes.to_vec())
                    }
                })
                .collect();
            let kinds: Vec<LineKind<'_>> = lines
                .iter()
                .zip(&changed)
                .zip(received.kinds())
                .map(|((line, changed), &kind)| match changed {
                    Some(bytes) => crate::line::classify(
                        &crate::body::Line {
                            number: line.number,
                            bytes,
                        },
                        true,
                        FieldSpacing::Around,
                    ),
                    None => kind,
                })
                .collect();
            let spaced: Vec<bool> = lines
                .iter()
                .zip(&changed)
                .map(|(line, changed)| {
                    crate::line::spacing_can_matter(changed.as_deref().unwrap_or(line.bytes))
                })
                .collect();
            read(&kinds, &spaced);
        }
    }
}

/// Copies one knob from another reading: the knob's id (`K1`..`K14`), its field name, and the copier.
pub type KnobCopy = (&'static str, &'static str, fn(&mut Knobs, &Knobs));

/// Every knob field, so that a tool can change one knob at a time (e.g. to find which knob explains
/// a parser's divergence: the fuzzer's bucket signatures, per-parser fingerprints).
pub const KNOB_FIELDS: [KnobCopy; 18] = [
    ("K1", "grouping", |k, from| k.grouping = from.grouping),
    ("K3", "agent_value", |k, from| {
        k.agent_value = from.agent_value
    }),
    ("K3", "agent_comparison", |k, from| {
        k.agent_comparison = from.agent_comparison
    }),
    ("K3", "agent_list", |k, from| k.agent_list = from.agent_list),
    ("K3", "selection", |k, from| k.selection = from.selection),
    ("K3", "ruleless_record", |k, from| {
        k.ruleless_record = from.ruleless_record
    }),
    ("K4", "precedence", |k, from| k.precedence = from.precedence),
    ("K5", "allow_directive", |k, from| {
        k.allow_directive = from.allow_directive
    }),
    ("K6", "wildcards", |k, from| k.wildcards = from.wildcards),
    ("K7", "encoding", |k, from| k.encoding = from.encoding),
    ("K7", "charset", |k, from| k.charset = from.charset),
    ("K8", "match_target", |k, from| {
        k.match_target = from.match_target
    }),
    ("K9", "empty_rule", |k, from| k.empty_rule = from.empty_rule),
    ("K10", "robots_txt_allowed", |k, from| {
        k.robots_txt_allowed = from.robots_txt_allowed
    }),
    ("K12", "bom", |k, from| k.bom = from.bom),
    ("K13", "field_spacing", |k, from| {
        k.field_spacing = from.field_spacing
    }),
    ("K13", "invalid_pattern", |k, from| {
        k.invalid_pattern = from.invalid_pattern
    }),
    ("K14", "size_limit", |k, from| {
        k.size_limit = from.size_limit
    }),
];
