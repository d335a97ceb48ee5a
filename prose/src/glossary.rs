//! Words for the labels the reports show: knobs (`K4 precedence`), their alternatives as the
//! fingerprints record them (`Bom(KeepAsContent)`, `as draft-1996`), deviations (`D-typo-fields`)
//! and causes (`K7 encoding + D-typo-fields`). The results keep the stable ids; the pages show
//! these words beside them, each id linked to its glossary entry ([`anchor`]). The words of a knob
//! setting or alternative are the oracle's (`robotstxt_oracle::words`).
//!
//! A quote of the 1994 standard is marked as taken from its Russian translation, the text we have
//! ([`TRANSLATION_NOTE`]).

use robotstxt_oracle::cause::{changes, Change};
use robotstxt_oracle::knobs::{Alternative, KnobId};
use robotstxt_oracle::{words, Deviation, ProfileId};

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
                format!("<code>{}</code>", crate::html::escape(piece))
            } else {
                crate::html::escape(piece)
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
            crate::html::escape(TRANSLATION_NOTE)
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

/// A behaviour group (`unexplained 1f0c...`, `robotstxt_oracle::behaviour`) in words: "a behaviour
/// no knob or deviation explains, group 1f0c...".
pub fn behaviour_words(key: &str) -> String {
    format!("a behaviour no knob or deviation explains, group {key}")
}

/// A cause (`K7 encoding + D-typo-fields`, `unexplained`, a behaviour group's
/// `unexplained 1f0c...`) in words, its parts joined by "; and ".
pub fn cause_words(cause: &str) -> String {
    if cause == "unexplained" {
        return "no knob alternative or named deviation (up to three together) gives this answer"
            .to_string();
    }
    if let Some(key) = robotstxt_oracle::behaviour::key_of(cause) {
        return behaviour_words(key);
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
/// for the dimension `label` (`K12 bom`, `D-typo-fields`): the one way a report names a reading.
/// The fingerprint keeps the value's spelling as its stable id; a reader sees these words.
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
        return match KnobId::from_label(label) {
            Some(knob) => format!(
                "as {} reads it: {}",
                profile_title(profile),
                words::setting(knob, &profile.base_knobs())
            ),
            None => format!("as {} reads it", profile_title(profile)),
        };
    }
    match open_alternative(alternative) {
        Some(open) => words::alternative(open),
        None => alternative.to_string(),
    }
}

/// The open alternative whose value is spelt `name` (`Bom(KeepAsContent)`, as fingerprints keep
/// it), if some profile leaves it open.
fn open_alternative(name: &str) -> Option<Alternative> {
    ProfileId::ALL.into_iter().find_map(|profile| {
        changes(profile).iter().find_map(|change| match change {
            Change::Open(open) if format!("{open:?}") == name => Some(*open),
            _ => None,
        })
    })
}

/// A change the cause search tries, in words: `K4 precedence: as the 1996 Internet-Draft reads
/// it: the first matching rule in file order decides`, `D-typo-fields: misspelt field names ...`.
pub fn change_words(change: Change) -> String {
    match change {
        Change::Copied { knob, from } => format!(
            "{}: as {} reads it: {}",
            knob.label(),
            profile_title(from),
            words::setting(knob, &from.base_knobs())
        ),
        Change::Open(open) => format!("{}: {}", open.knob().label(), words::alternative(open)),
        Change::Deviation(d) => format!("{}: {}", d.id(), d.entry().summary),
    }
}

/// Every place `text` spells a Rust value instead of words: `Name(Variant`, `Name(true`,
/// `Name(Some(`, `Name { field:` (a name starting with a capital letter). What a person reads never
/// holds one; the tests run this on every page and text output.
pub fn code_spellings(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_uppercase()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len() && (chars[end].is_ascii_alphanumeric() || chars[end] == '_') {
            end += 1;
        }
        let rest: String = chars[end..chars.len().min(end + 24)].iter().collect();
        let value = rest.strip_prefix('(').is_some_and(|inner| {
            let word: String = inner
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let after = inner[word.len()..].chars().next();
            let capital = word.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            (capital || word == "true" || word == "false")
                && matches!(after, Some(')' | '(' | ' ' | ','))
        }) || rest.strip_prefix(" { ").is_some_and(|inner| {
            let field: String = inner
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            !field.is_empty() && inner[field.len()..].starts_with(':')
        });
        if value {
            let shown: String = chars[i..chars.len().min(end + 24)].iter().collect();
            found.push(shown);
        }
        i = end.max(i + 1);
    }
    found
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
    fn code_spellings_are_found_and_words_are_not() {
        for code in [
            "Bom(KeepAsContent)",
            "x Encoding(Rfc9309 { … })",
            "SizeLimit(Some(512000))",
            "ReservedInPath(true)",
            "fetch Status { status: 404, redirects: 0 }",
        ] {
            assert_eq!(code_spellings(code).len(), 1, "{code}");
        }
        for words in [
            "RFC 9309 (2022)",
            "DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url)",
            "Google (the crawler)",
            "as Google's documentation reads it: only non-ASCII octets are percent-encoded",
            "HTTP: The Definitive Guide (O'Reilly, 2002)",
        ] {
            assert!(code_spellings(words).is_empty(), "{words}");
        }
    }

    #[test]
    fn causes_read_as_words() {
        assert!(cause_words("K4 precedence").contains("which matching rule decides"));
        assert!(cause_words("K7 encoding + D-typo-fields").contains("misspelling"));
        assert!(cause_words("unexplained").contains("no knob"));
        assert_eq!(
            cause_words("unexplained 1f0c2d3e4f5a6b7c"),
            "a behaviour no knob or deviation explains, group 1f0c2d3e4f5a6b7c"
        );
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
