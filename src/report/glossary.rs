//! Words for the labels the reports show: knobs (`K4 precedence`), their alternatives as the
//! fingerprints record them (`Bom(KeepAsContent)`, `as draft-1996`), deviations (`D-typo-fields`)
//! and causes (`K7 encoding + D-typo-fields`). The results keep the stable ids; the pages show
//! these words beside them, each id linked to its glossary entry ([`anchor`]).

use robotstxt_oracle::cause::{changes, Change};
use robotstxt_oracle::line::FieldSpacing;
use robotstxt_oracle::profile::{
    AgentAfterRule, AgentComparison, AgentList, AgentValue, Alternative, Bom, Charset, CommentLine,
    EmptyRule, Encoding, Grouping, InvalidPattern, MatchTarget, MidDollar, RulelessRecord,
    SectionFiveTwo, Specificity,
};
use robotstxt_oracle::{Deviation, ProfileId};

/// What each knob is about, by its number (`docs/profiles.md` has the whole table).
pub const KNOBS: [(&str, &str, &str); 18] = [
    ("K0", "scope", "which robots.txt file governs which URL (scheme, host and port)"),
    ("K1", "grouping", "how lines form groups: user-agent lines followed by rules (RFC 9309, Google), or records ended by blank lines (1994, 1996)"),
    ("K2", "rules-outside-groups", "what rules before the first user-agent line do"),
    ("K3", "group-selection", "which group applies to a crawler: how a user-agent value is read and compared with the crawler's name, and which matching groups count"),
    ("K4", "precedence", "which matching rule decides: the most specific (longest), the first in file order, or any Disallow"),
    ("K5", "allow-directive", "whether `Allow` lines are rules at all"),
    ("K6", "wildcards", "whether `*` and `$` are special, and what a `$` inside a pattern does"),
    ("K7", "percent-encoding", "how percent-encoding (and a body that is not UTF-8) is normalised before a rule and a URL are compared"),
    ("K8", "match-target", "which part of the URL is matched: the path and query, or the path only"),
    ("K9", "empty-rule", "what an empty `Allow:` or `Disallow:` matches: nothing, or every URL"),
    ("K10", "robots-txt-always-allowed", "whether `/robots.txt` itself is always allowed"),
    ("K11", "case-sensitivity", "whether paths and field names compare with regard to case"),
    ("K12", "line-ends-and-bom", "which octets end a line, and whether a byte-order mark at the start is skipped"),
    ("K13", "line-syntax", "where white space may stand in a line, and whether a value with controls or inner spaces is a rule"),
    ("K14", "size-limit", "how much of a large body is read"),
    ("K15", "fetch-outcome", "what an HTTP status, redirect or unreachable server means"),
    ("K16", "caching", "which fetch of a history decides at a given time"),
    ("K17", "other-records", "what lines other than groups and rules (`Sitemap`, `Crawl-delay`, unknown fields) do"),
];

/// The HTML id of a glossary entry: `g-K4-precedence`, `g-D-typo-fields`.
pub fn anchor(label: &str) -> String {
    format!("g-{}", label.replace(' ', "-"))
}

/// Every label a cause or a fingerprint can name, knobs (in search order) then deviations (in
/// catalogue order), each once.
pub fn labels() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for profile in ProfileId::ALL {
        for change in changes(profile) {
            if !matches!(change, Change::Deviation(_)) && !out.contains(&change.label()) {
                out.push(change.label());
            }
        }
    }
    out.sort_by_key(|l| {
        let n: u32 = l[1..]
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(99);
        (n, l.to_string())
    });
    out.extend(Deviation::ALL.iter().map(|d| d.id()));
    out
}

/// What a knob label (`K4 precedence`, `K3 agent_comparison`) or a bare number (`K4`) is about;
/// `None` for anything else.
pub fn knob_meaning(label: &str) -> Option<&'static str> {
    let number = label.split(' ').next()?;
    let field = label.split(' ').nth(1);
    let specific = match field {
        Some("agent_value") => Some("which part of a `User-agent` value is the crawler's name: the whole value, or its leading product token"),
        Some("agent_comparison") => Some("how a name in the file is compared with the crawler's: equal to it, or a substring of it"),
        Some("agent_list") => Some("whether one `User-agent` line may name several crawlers, separated by spaces"),
        Some("selection") => Some("which matching groups apply: all of them merged, every matching record, or the first one"),
        Some("ruleless_record") => Some("whether a group with user-agent lines but no rules can be the one selected"),
        Some("charset") => Some("how a body that is not valid UTF-8 is read: as octets, as Latin-1, or with the invalid octets or lines dropped"),
        Some("encoding") => Some("how percent-encoding is normalised before a rule and a URL are compared"),
        Some("bom") => Some("whether a UTF-8 byte-order mark at the start of the body is skipped"),
        Some("field_spacing") => Some("where white space may stand around a field name and its colon"),
        Some("invalid_pattern") => Some("whether a rule whose value holds control characters or inner spaces is used or ignored"),
        _ => None,
    };
    specific.or_else(|| {
        KNOBS
            .iter()
            .find(|(k, _, _)| *k == number)
            .map(|(_, _, m)| *m)
    })
}

/// Words with `code` spans (the catalogue's Markdown backticks) as HTML, every piece escaped.
pub fn words_html(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, piece)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", super::html::escape(piece))
            } else {
                super::html::escape(piece)
            }
        })
        .collect()
}

/// What follows a text quoting the 1994 standard, which we have only in Russian translation.
pub const TRANSLATION_NOTE: &str = "The 1994 standard is quoted from a Russian translation (the text we have of M. Koster's \"A Standard for Robot Exclusion\"); the English beside a Russian quote is our gloss, not the standard's words.";

/// Free text (a case's note, a deviation's sentences) as HTML, escaped: `code` spans as in
/// [`words_html`], each quote holding Cyrillic letters marked as Russian, and, when there is one,
/// [`TRANSLATION_NOTE`] after the text.
pub fn quotes_html(text: &str) -> String {
    let cyrillic = |s: &str| s.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c));
    let mut out = String::new();
    for (i, piece) in text.split('"').enumerate() {
        if i % 2 == 1 && cyrillic(piece) {
            out.push_str(&format!(
                "\u{201c}<q lang=\"ru\" class=\"ru\" title=\"Russian translation of the 1994 standard\">{}</q>\u{201d}<sup class=\"tr\">ru</sup>",
                words_html(piece)
            ));
        } else if i % 2 == 1 {
            out.push_str(&format!("\"{}\"", words_html(piece)));
        } else {
            out.push_str(&words_html(piece));
        }
    }
    if cyrillic(text) {
        out.push_str(&format!(
            " <span class=\"tr\">[{}]</span>",
            super::html::escape(TRANSLATION_NOTE)
        ));
    }
    out
}

/// What a deviation id (`D-typo-fields`) means: the catalogue's summary.
pub fn deviation_meaning(id: &str) -> Option<&'static str> {
    Deviation::from_id(id).map(|d| d.entry().summary)
}

/// What one part of a cause or a fingerprint dimension (a knob label or a deviation id) is about.
pub fn label_meaning(label: &str) -> Option<&'static str> {
    deviation_meaning(label).or_else(|| knob_meaning(label))
}

/// A cause (`K7 encoding + D-typo-fields`, `unexplained`) in words, its parts joined by "; and ".
pub fn cause_words(cause: &str) -> String {
    if cause == "unexplained" {
        return "no knob alternative or named deviation (up to three together) gives this answer"
            .to_string();
    }
    cause
        .split(" + ")
        .map(
            |part| match (Deviation::from_id(part), knob_meaning(part)) {
                (Some(d), _) => format!("deviation: {}", d.entry().summary),
                (None, Some(meaning)) => format!("another reading of {meaning}"),
                (None, None) => part.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("; and ")
}

/// A fingerprint alternative (`base`, `on`, `as draft-1996`, `Bom(KeepAsContent)`, ...) in words,
/// for the dimension `label`.
pub fn alternative_words(label: &str, alternative: &str) -> String {
    let deviation = Deviation::from_id(label);
    match (alternative, deviation) {
        ("base", Some(_)) => return "off: reads as the documents do".to_string(),
        ("base", None) => return "as the profile it claims reads it".to_string(),
        ("on", Some(d)) => return format!("on: {}", d.entry().summary),
        ("on", None) => return "on: reads this way, which no document permits".to_string(),
        _ => {}
    }
    if let Some(profile) = alternative
        .strip_prefix("as ")
        .and_then(ProfileId::from_name)
    {
        return format!("as {} reads it", profile_title(profile));
    }
    for profile in ProfileId::ALL {
        for change in changes(profile) {
            if let Change::Open(open) = change {
                if format!("{open:?}") == alternative {
                    return open_words(*open).to_string();
                }
            }
        }
    }
    alternative.to_string()
}

/// A profile's document, in words.
pub fn profile_title(profile: ProfileId) -> &'static str {
    match profile {
        ProfileId::Rfc9309 => "RFC 9309",
        ProfileId::Google => "Google's documentation",
        ProfileId::Draft1996 => "the 1996 Internet-Draft",
        ProfileId::Original1994 => "the 1994 standard",
    }
}

/// An open alternative in words.
fn open_words(alternative: Alternative) -> &'static str {
    match alternative {
        Alternative::Grouping(Grouping::UserAgentAfterRuleStartsGroup) => {
            "a user-agent line after a rule starts a group; blank lines mean nothing"
        }
        Alternative::Grouping(Grouping::BlankLineRecords(
            AgentAfterRule::StartsRecord,
            CommentLine::NotBlank,
        )) => "blank lines end records; a user-agent line after a rule starts a record",
        Alternative::Grouping(Grouping::BlankLineRecords(
            AgentAfterRule::JoinsRecord,
            CommentLine::NotBlank,
        )) => "blank lines end records; a user-agent line after a rule joins the record",
        Alternative::Grouping(Grouping::BlankLineRecords(
            AgentAfterRule::StartsRecord,
            CommentLine::Blank,
        )) => {
            "blank lines and comment-only lines end records; a user-agent line after a rule \
             starts a record"
        }
        Alternative::Grouping(Grouping::BlankLineRecords(
            AgentAfterRule::JoinsRecord,
            CommentLine::Blank,
        )) => {
            "blank lines and comment-only lines end records; a user-agent line after a rule \
             joins the record"
        }
        Alternative::AgentValue(AgentValue::WholeValue) => "the whole user-agent value is the name",
        Alternative::AgentValue(AgentValue::LeadingToken) => {
            "only the value's leading product token is the name"
        }
        Alternative::AgentValue(AgentValue::LeadingTokenOrStar) => {
            "the leading product token is the name, and `*` followed by anything is the star"
        }
        Alternative::AgentComparison(AgentComparison::Equal) => "the name must equal the crawler's",
        Alternative::AgentComparison(AgentComparison::Substring) => {
            "the name may be a substring of the crawler's"
        }
        Alternative::AgentList(AgentList::Single) => "one name per user-agent line",
        Alternative::AgentList(AgentList::WhitespaceSeparated) => {
            "several names per user-agent line, separated by white space"
        }
        Alternative::RulelessRecord(RulelessRecord::Applies) => {
            "a group without rules can be selected (and allows everything)"
        }
        Alternative::RulelessRecord(RulelessRecord::Skipped) => "a group without rules is skipped",
        Alternative::Specificity(Specificity::PatternOctets) => {
            "the longest pattern decides (octets of the pattern, `*` and `$` included)"
        }
        Alternative::Specificity(Specificity::TrailingWildcardIgnored) => {
            "the longest pattern decides, a `*` that ends it not counted"
        }
        Alternative::SectionFiveTwo(SectionFiveTwo::MatchRule) => {
            "rfc9309#5.2's example rule matches as every rule does"
        }
        Alternative::SectionFiveTwo(SectionFiveTwo::AsWritten) => {
            "rfc9309#5.2's example rule is used for the URI its prose names"
        }
        Alternative::Specificity(Specificity::MatchedOctets) => {
            "the rule whose match covers the most octets of the URL decides"
        }
        Alternative::MidDollar(MidDollar::Literal) => {
            "a `$` inside a pattern is an ordinary character"
        }
        Alternative::MidDollar(MidDollar::EndOfUrl) => {
            "every `$` is the end of the URL: only `*` and `$` may follow it"
        }
        Alternative::MidDollar(MidDollar::NeverMatches) => {
            "a pattern with a `$` before its end never matches"
        }
        Alternative::Encoding(Encoding::Rfc9309 { .. }) => {
            "percent-encoding normalised as RFC 9309 says (non-ASCII encoded, unreserved decoded)"
        }
        Alternative::Encoding(Encoding::NonAsciiOnly) => {
            "only non-ASCII octets are percent-encoded"
        }
        Alternative::Encoding(Encoding::DecodeAllButSlash) => "every `%xx` but `%2F` is decoded",
        Alternative::Encoding(Encoding::DecodeAll) => "every `%xx` is decoded, `%2F` too",
        Alternative::Encoding(Encoding::Raw) => "octets compared as written, no normalisation",
        Alternative::ReservedInPath(true) => "reserved characters in the path equal their escapes",
        Alternative::ReservedInPath(false) => {
            "reserved characters in the path differ from their escapes"
        }
        Alternative::ReservedInQuery(true) => {
            "reserved characters in the query equal their escapes"
        }
        Alternative::ReservedInQuery(false) => {
            "reserved characters in the query differ from their escapes"
        }
        Alternative::Rfc3986Spellings(true) => {
            "RFC 3986's equivalent spellings hold: a rule's escaped unreserved characters are decoded, hex case ignored"
        }
        Alternative::QueryColonSlashEncoded(true) => {
            "a raw `:` or `/` in a query equals its escape (Figure 4 row 2)"
        }
        Alternative::QueryColonSlashEncoded(false) => {
            "a raw `:` or `/` in a query is read like the query's other reserved characters"
        }
        Alternative::Rfc3986Spellings(false) => {
            "escapes RFC 9309 says nothing of compare as written: a rule's escaped unreserved characters and the hex case alike"
        }
        Alternative::AgentAfterRule(AgentAfterRule::StartsRecord) => {
            "a user-agent line after a rule starts a record"
        }
        Alternative::AgentAfterRule(AgentAfterRule::JoinsRecord) => {
            "a user-agent line after a rule joins the record"
        }
        Alternative::CommentLine(CommentLine::Blank) => {
            "a line holding only a comment is an empty line (it ends the record)"
        }
        Alternative::CommentLine(CommentLine::NotBlank) => {
            "a line holding only a comment is not an empty line"
        }
        Alternative::Charset(Charset::Octets) => "a body that is not UTF-8 is read as octets",
        Alternative::Charset(Charset::Latin1) => "a body that is not UTF-8 is read as Latin-1",
        Alternative::Charset(Charset::DropInvalidOctets) => "octets that are not UTF-8 are dropped",
        Alternative::Charset(Charset::DropInvalidLines) => {
            "lines holding octets that are not UTF-8 are dropped"
        }
        Alternative::MatchTarget(MatchTarget::PathAndQuery) => "rules match the path and query",
        Alternative::MatchTarget(MatchTarget::PathOnly) => "rules match the path only",
        Alternative::EmptyRule(EmptyRule::MatchesNothing) => "an empty rule matches nothing",
        Alternative::EmptyRule(EmptyRule::MatchesEverything) => "an empty rule matches every URL",
        Alternative::EmptyRule(EmptyRule::EmptyRecordAllowsAll) => {
            "a record whose only rules are empty Disallow lines allows every URL"
        }
        Alternative::RobotsTxtAllowed(true) => "`/robots.txt` is always allowed",
        Alternative::RobotsTxtAllowed(false) => "`/robots.txt` is matched like any URL",
        Alternative::Bom(Bom::Skip) => "a byte-order mark at the start is skipped",
        Alternative::Bom(Bom::KeepAsContent) => {
            "a byte-order mark at the start is kept, as part of the first line"
        }
        Alternative::FieldSpacing(FieldSpacing::Around) => {
            "white space may stand before the field and around the colon"
        }
        Alternative::FieldSpacing(FieldSpacing::AfterColonOnly) => {
            "white space may stand only after the colon"
        }
        Alternative::InvalidPattern(InvalidPattern::UseOctets) => {
            "a value with controls or inner spaces is still a rule"
        }
        Alternative::InvalidPattern(InvalidPattern::IgnoreLine) => {
            "a value with controls or inner spaces makes the line no rule"
        }
        Alternative::InvalidPattern(InvalidPattern::IgnoreLineOrNonAscii) => {
            "a value with controls, inner spaces or octets outside ASCII makes the line no rule"
        }
        Alternative::SizeLimit(Some(0)) => "none of a large body is read",
        Alternative::SizeLimit(Some(_)) => "only the first part of a large body is read",
        Alternative::SizeLimit(None) => "the whole body is read, whatever its size",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_any_search_tries_has_words() {
        for profile in ProfileId::ALL {
            for change in changes(profile) {
                let label = change.label();
                assert!(label_meaning(label).is_some(), "{label} has no meaning");
                let name = match change {
                    Change::Open(open) => format!("{open:?}"),
                    Change::Copied { from, .. } => format!("as {}", from.name()),
                    Change::Deviation(_) => "on".to_string(),
                };
                let words = alternative_words(label, &name);
                assert!(
                    !words.contains('(') || words.contains(' '),
                    "{label} {name}: {words}"
                );
                assert_ne!(words, name, "{label} {name} has no words");
            }
        }
    }

    #[test]
    fn russian_quotes_are_marked_as_a_translation_with_our_gloss() {
        let html = quotes_html(
            "norobots-1994#format: \"Нераспознанные строки игнорируются\" (unrecognised lines are ignored) <b>",
        );
        assert!(html.contains("<q lang=\"ru\" class=\"ru\""), "{html}");
        assert!(html.contains("Russian translation"), "{html}");
        assert!(html.contains("our gloss"), "{html}");
        assert!(html.ends_with("]</span>"), "{html}");
        assert!(
            html.contains("&lt;b&gt;") && !html.contains("<b>"),
            "escaped: {html}"
        );
        let english = quotes_html("rfc9309#2.2: \"MUST\" <i>");
        assert!(!english.contains("translation"), "{english}");
        assert!(english.contains("&lt;i&gt;"));
    }

    #[test]
    fn causes_read_as_words() {
        assert!(cause_words("K4 precedence").contains("which matching rule decides"));
        assert!(cause_words("K7 encoding + D-typo-fields").contains("misspelling"));
        assert!(cause_words("unexplained").contains("no knob"));
        assert_eq!(
            alternative_words("K12 bom", "Bom(KeepAsContent)"),
            "a byte-order mark at the start is kept, as part of the first line"
        );
        assert_eq!(
            alternative_words("D-typo-fields", "base"),
            "off: reads as the documents do"
        );
        assert_eq!(anchor("K4 precedence"), "g-K4-precedence");
        let labels = labels();
        assert!(labels.contains(&"K12 bom") && labels.contains(&"D-typo-fields"));
    }
}
