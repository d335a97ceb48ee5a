//! Knob settings, open alternatives and fetch outcomes in the words of `docs/profiles.md`: what a
//! person reads, never a Rust value (`Bom(KeepAsContent)` is "a byte-order mark at the start is
//! kept, as part of the first line"). The explanations' text, `check --explain`, the fingerprints,
//! the reports, the site and the playground take their words from here; JSON keeps the values.

use crate::knobs::{
    AgentAfterRule, AgentComparison, AgentList, AgentValue, Alternative, Bom, Charset, CommentLine,
    EmptyRule, Encoding, FieldSpacing, Grouping, InvalidPattern, KnobId, Knobs, MatchTarget,
    MidDollar, Precedence, RulelessRecord, SectionFiveTwo, Selection, Specificity, Wildcards,
};
use crate::request::Fetch;

/// One alternative setting of one knob, in words.
pub fn alternative(alternative: Alternative) -> String {
    match alternative {
        Alternative::Grouping(grouping) => grouping_words(grouping).to_string(),
        Alternative::AgentAfterRule(AgentAfterRule::StartsRecord) => {
            "a user-agent line after a rule starts a record".to_string()
        }
        Alternative::AgentAfterRule(AgentAfterRule::JoinsRecord) => {
            "a user-agent line after a rule joins the record".to_string()
        }
        Alternative::CommentLine(CommentLine::Blank) => {
            "a line holding only a comment is an empty line (it ends the record)".to_string()
        }
        Alternative::CommentLine(CommentLine::NotBlank) => {
            "a line holding only a comment is not an empty line".to_string()
        }
        Alternative::AgentValue(value) => agent_value(value).to_string(),
        Alternative::AgentComparison(AgentComparison::Equal) => {
            "the name must equal the crawler's".to_string()
        }
        Alternative::AgentComparison(AgentComparison::Substring) => {
            "the name may be a substring of the crawler's".to_string()
        }
        Alternative::AgentList(AgentList::Single) => "one name per user-agent line".to_string(),
        Alternative::AgentList(AgentList::WhitespaceSeparated) => {
            "several names per user-agent line, separated by white space".to_string()
        }
        Alternative::RulelessRecord(RulelessRecord::Applies) => {
            "a group without rules can be selected (and allows everything)".to_string()
        }
        Alternative::RulelessRecord(RulelessRecord::Skipped) => {
            "a group without rules is skipped".to_string()
        }
        Alternative::Specificity(specificity) => specificity_words(specificity).to_string(),
        Alternative::SectionFiveTwo(example) => section_five_two(example).to_string(),
        Alternative::MidDollar(mid) => mid_dollar(mid).to_string(),
        Alternative::Encoding(encoding) => encoding_in_full(encoding),
        Alternative::ReservedInPath(true) => {
            "reserved characters in the path equal their escapes".to_string()
        }
        Alternative::ReservedInPath(false) => {
            "reserved characters in the path differ from their escapes".to_string()
        }
        Alternative::ReservedInQuery(true) => {
            "reserved characters in the query equal their escapes".to_string()
        }
        Alternative::ReservedInQuery(false) => {
            "reserved characters in the query differ from their escapes".to_string()
        }
        Alternative::Rfc3986Spellings(true) => {
            "RFC 3986's equivalent spellings of an escape hold: a rule's escaped unreserved \
             characters are decoded, the hex digits' case does not matter"
                .to_string()
        }
        Alternative::Rfc3986Spellings(false) => {
            "escapes RFC 9309 states no comparison for compare as written: a rule's escaped \
             unreserved characters and the hex digits' case alike"
                .to_string()
        }
        Alternative::QueryColonSlashEncoded(true) => {
            "a raw `:` or `/` in a query equals its escape (Figure 4 row 2)".to_string()
        }
        Alternative::QueryColonSlashEncoded(false) => {
            "a raw `:` or `/` in a query is read like the query's other reserved characters"
                .to_string()
        }
        Alternative::Charset(c) => charset(c).to_string(),
        Alternative::MatchTarget(MatchTarget::PathAndQuery) => {
            "rules match the path and query".to_string()
        }
        Alternative::MatchTarget(MatchTarget::PathOnly) => "rules match the path only".to_string(),
        Alternative::EmptyRule(EmptyRule::MatchesNothing) => {
            "an empty rule matches nothing".to_string()
        }
        Alternative::EmptyRule(EmptyRule::MatchesEverything) => {
            "an empty rule matches every URL".to_string()
        }
        Alternative::EmptyRule(EmptyRule::EmptyRecordAllowsAll) => {
            "a record whose only rules are empty Disallow lines allows every URL".to_string()
        }
        Alternative::RobotsTxtAllowed(true) => "`/robots.txt` is always allowed".to_string(),
        Alternative::RobotsTxtAllowed(false) => "`/robots.txt` is matched like any URL".to_string(),
        Alternative::Bom(Bom::Skip) => "a byte-order mark at the start is skipped".to_string(),
        Alternative::Bom(Bom::KeepAsContent) => {
            "a byte-order mark at the start is kept, as part of the first line".to_string()
        }
        Alternative::FieldSpacing(FieldSpacing::Around) => {
            "white space may stand before the field and around the colon".to_string()
        }
        Alternative::FieldSpacing(FieldSpacing::AfterColonOnly) => {
            "white space may stand only after the colon".to_string()
        }
        Alternative::InvalidPattern(InvalidPattern::UseOctets) => {
            "a value with controls or inner spaces is still a rule".to_string()
        }
        Alternative::InvalidPattern(InvalidPattern::IgnoreLine) => {
            "a value with controls or inner spaces makes the line no rule".to_string()
        }
        Alternative::InvalidPattern(InvalidPattern::IgnoreLineOrNonAscii) => {
            "a value with controls, inner spaces or octets outside ASCII makes the line no rule"
                .to_string()
        }
        Alternative::SizeLimit(limit) => size_limit(limit),
    }
}

/// How `knobs` sets the field `knob`, in words (`K4 precedence` of the 1996 draft's reading: "the
/// first matching rule in file order decides").
pub fn setting(knob: KnobId, knobs: &Knobs) -> String {
    match knob {
        KnobId::Grouping => grouping_words(knobs.grouping).to_string(),
        KnobId::AgentValue => agent_value(knobs.agent_value).to_string(),
        KnobId::AgentComparison => {
            alternative(Alternative::AgentComparison(knobs.agent_comparison))
        }
        KnobId::AgentList => alternative(Alternative::AgentList(knobs.agent_list)),
        KnobId::Selection => match knobs.selection {
            Selection::MergeAllMatching => {
                "every group naming the crawler applies, merged (else every `*` group)"
            }
            Selection::EveryMatchingRecord => {
                "every record naming the crawler applies (else every `*` record)"
            }
            Selection::FirstMatchingRecord => {
                "the first record naming the crawler applies (else the first `*` record)"
            }
        }
        .to_string(),
        KnobId::RulelessRecord => alternative(Alternative::RulelessRecord(knobs.ruleless_record)),
        KnobId::Precedence => match knobs.precedence {
            Precedence::MostSpecific(specificity, example) => format!(
                "the most specific matching rule decides, Allow winning a tie ({}; {})",
                specificity_words(specificity),
                section_five_two(example)
            ),
            Precedence::FirstMatch => "the first matching rule in file order decides".to_string(),
            Precedence::AnyDisallow => "any matching Disallow forbids".to_string(),
        },
        KnobId::AllowDirective => match knobs.allow_directive {
            true => "`Allow` lines are rules",
            false => "`Allow` lines are not rules: they are ignored",
        }
        .to_string(),
        KnobId::Wildcards => match knobs.wildcards {
            Wildcards::Special(mid) => format!(
                "`*` matches any run of characters and a final `$` ends the URL; {}",
                mid_dollar(mid)
            ),
            Wildcards::Literal => "`*` and `$` are ordinary characters".to_string(),
        },
        KnobId::Encoding => encoding_in_full(knobs.encoding),
        KnobId::Charset => charset(knobs.charset).to_string(),
        KnobId::MatchTarget => alternative(Alternative::MatchTarget(knobs.match_target)),
        KnobId::EmptyRule => alternative(Alternative::EmptyRule(knobs.empty_rule)),
        KnobId::RobotsTxtAllowed => {
            alternative(Alternative::RobotsTxtAllowed(knobs.robots_txt_allowed))
        }
        KnobId::Bom => alternative(Alternative::Bom(knobs.bom)),
        KnobId::FieldSpacing => alternative(Alternative::FieldSpacing(knobs.field_spacing)),
        KnobId::InvalidPattern => alternative(Alternative::InvalidPattern(knobs.invalid_pattern)),
        KnobId::SizeLimit => size_limit(knobs.size_limit),
    }
}

/// How a body that is not UTF-8 is read, in words.
pub fn charset(charset: Charset) -> &'static str {
    match charset {
        Charset::Octets => "a body that is not UTF-8 is read as octets",
        Charset::Latin1 => "a body that is not UTF-8 is read as Latin-1",
        Charset::DropInvalidOctets => "octets that are not UTF-8 are dropped",
        Charset::DropInvalidLines => "lines holding octets that are not UTF-8 are dropped",
    }
}

/// A fetch outcome in words: `HTTP 503`, `HTTP 200 after 3 redirects`, `unreachable (no
/// response)`.
pub fn fetch(fetch: &Fetch) -> String {
    match fetch {
        Fetch::Unreachable => "unreachable (no response)".to_string(),
        Fetch::Status {
            status,
            redirects: 0,
        } => format!("HTTP {status}"),
        Fetch::Status {
            status,
            redirects: 1,
        } => format!("HTTP {status} after 1 redirect"),
        Fetch::Status { status, redirects } => {
            format!("HTTP {status} after {redirects} redirects")
        }
    }
}

fn grouping_words(grouping: Grouping) -> &'static str {
    match grouping {
        Grouping::UserAgentAfterRuleStartsGroup => {
            "a user-agent line after a rule starts a group; blank lines mean nothing"
        }
        Grouping::BlankLineRecords(AgentAfterRule::StartsRecord, CommentLine::NotBlank) => {
            "blank lines end records; a user-agent line after a rule starts a record"
        }
        Grouping::BlankLineRecords(AgentAfterRule::JoinsRecord, CommentLine::NotBlank) => {
            "blank lines end records; a user-agent line after a rule joins the record"
        }
        Grouping::BlankLineRecords(AgentAfterRule::StartsRecord, CommentLine::Blank) => {
            "blank lines and comment-only lines end records; a user-agent line after a rule \
             starts a record"
        }
        Grouping::BlankLineRecords(AgentAfterRule::JoinsRecord, CommentLine::Blank) => {
            "blank lines and comment-only lines end records; a user-agent line after a rule \
             joins the record"
        }
    }
}

fn agent_value(value: AgentValue) -> &'static str {
    match value {
        AgentValue::WholeValue => "the whole user-agent value is the name",
        AgentValue::LeadingToken => "only the value's leading product token is the name",
        AgentValue::LeadingTokenOrStar => {
            "the leading product token is the name, and `*` followed by anything is the star"
        }
        AgentValue::LeadingHttpToken => {
            "only the value's leading token of the 1996 draft's grammar (up to white space, `/` \
             or another separator) is the name"
        }
    }
}

fn specificity_words(specificity: Specificity) -> &'static str {
    match specificity {
        Specificity::PatternOctets => {
            "specificity: octets of the pattern, `*` and `$` included: the longest pattern decides"
        }
        Specificity::MatchedOctets => {
            "specificity: octets matched: the rule whose match covers the most octets of the URL \
             decides"
        }
        Specificity::TrailingWildcardIgnored => {
            "specificity: octets of the pattern, a `*` that ends it not counted: the longest \
             pattern decides"
        }
    }
}

fn section_five_two(example: SectionFiveTwo) -> &'static str {
    match example {
        SectionFiveTwo::MatchRule => "rfc9309#5.2's example rule matches as every rule does",
        SectionFiveTwo::AsWritten => {
            "rfc9309#5.2's example rule is used for the URI its prose names, as written"
        }
    }
}

fn mid_dollar(mid: MidDollar) -> &'static str {
    match mid {
        MidDollar::Literal => "a `$` inside a pattern is an ordinary character",
        MidDollar::EndOfUrl => "every `$` is the end of the URL: only `*` and `$` may follow it",
        MidDollar::NeverMatches => "a pattern with a `$` before its end never matches",
    }
}

fn encoding_words(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Rfc9309 { .. } => {
            "percent-encoding normalised as RFC 9309 says (non-ASCII encoded, unreserved decoded)"
        }
        Encoding::NonAsciiOnly => "only non-ASCII octets are percent-encoded",
        Encoding::DecodeAllButSlash => "every `%xx` but `%2F` is decoded",
        Encoding::DecodeAll => "every `%xx` is decoded, `%2F` too",
        Encoding::Raw => "octets compared as written, no normalisation",
    }
}

/// An encoding with, for RFC 9309's, how it reads each of its three open points.
fn encoding_in_full(encoding: Encoding) -> String {
    match encoding {
        Encoding::Rfc9309 {
            reserved_in_path_equivalent,
            reserved_in_query_equivalent,
            rfc3986_spellings,
            query_colon_slash_encoded,
        } => format!(
            "{}; {}; {}; {}; {}",
            encoding_words(encoding),
            alternative(Alternative::ReservedInPath(reserved_in_path_equivalent)),
            alternative(Alternative::ReservedInQuery(reserved_in_query_equivalent)),
            alternative(Alternative::Rfc3986Spellings(rfc3986_spellings)),
            alternative(Alternative::QueryColonSlashEncoded(
                query_colon_slash_encoded
            )),
        ),
        other => encoding_words(other).to_string(),
    }
}

fn size_limit(limit: Option<usize>) -> String {
    match limit {
        Some(0) => "none of a body over 500 KiB is read".to_string(),
        Some(octets) => format!(
            "only the first {} octets of the body are read",
            thousands(octets)
        ),
        None => "the whole body is read, whatever its size".to_string(),
    }
}

/// `512000` as `512,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProfileId;

    /// A Rust value's spelling: `Name(Variant`, `Name { field:`.
    fn looks_like_code(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.windows(2).enumerate().any(|(i, w)| {
            let starts_name = bytes[..=i]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric())
                .last()
                .is_some_and(|b| b.is_ascii_uppercase());
            starts_name
                && w[0].is_ascii_alphanumeric()
                && w[1] == b'('
                && bytes.get(i + 2).is_some_and(|b| b.is_ascii_uppercase())
        })
    }

    #[test]
    fn every_alternative_and_setting_reads_as_words() {
        for profile in ProfileId::ALL {
            let knobs = profile.base_knobs();
            for knob in KnobId::ALL {
                let words = setting(knob, &knobs);
                assert!(!words.is_empty() && !looks_like_code(&words), "{words}");
            }
            for open in profile.every_open_knob() {
                let mut seen: Vec<String> = Vec::new();
                for &a in open.alternatives {
                    let words = alternative(a);
                    assert!(!looks_like_code(&words), "{a:?}: {words}");
                    assert_ne!(words, format!("{a:?}"));
                    assert!(!seen.contains(&words), "two alternatives read {words}");
                    seen.push(words);
                }
            }
        }
        assert!(looks_like_code("Bom(KeepAsContent)"));
        assert_eq!(
            alternative(Alternative::Bom(Bom::KeepAsContent)),
            "a byte-order mark at the start is kept, as part of the first line"
        );
        assert_eq!(
            setting(KnobId::SizeLimit, &ProfileId::Google.base_knobs()),
            "only the first 512,000 octets of the body are read"
        );
        assert_eq!(fetch(&Fetch::Unreachable), "unreachable (no response)");
    }
}
