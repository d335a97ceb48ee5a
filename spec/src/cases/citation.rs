//! Citations: `document#section`, checked against the sections each source document has.

use std::fmt;

/// A source document the corpus cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Document {
    /// The citation prefix, e.g. `rfc9309`.
    pub id: &'static str,
    /// The document's title.
    pub title: &'static str,
    /// Valid sections or anchors.
    pub sections: &'static [&'static str],
}

/// Every document a case may cite (`spec-cases/README.md`, "Citations").
pub const DOCUMENTS: &[Document] = &[
    Document {
        id: "rfc9309",
        title: "RFC 9309, Robots Exclusion Protocol (2022)",
        sections: &[
            "1", "2", "2.1", "2.2", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.3", "2.3.1", "2.3.1.1",
            "2.3.1.2", "2.3.1.3", "2.3.1.4", "2.3.1.5", "2.4", "2.5", "3", "5", "5.1", "5.2",
            "figure-1", "figure-2", "figure-3", "figure-4", "figure-5", "figure-6",
        ],
    },
    Document {
        id: "draft-2019",
        title: "draft-koster-rep-00 (2019)",
        sections: &[
            "2.1", "2.2", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.3", "2.3.1", "2.4", "2.5", "3.1",
            "3.2",
        ],
    },
    Document {
        id: "google",
        title: "How Google interprets the robots.txt specification",
        sections: &[
            "intro",
            "file-location",
            "status-codes",
            "caching",
            "file-format",
            "syntax",
            "user-agent",
            "disallow",
            "allow",
            "sitemap",
            "grouping",
            "user-agent-precedence",
            "url-matching",
            "rule-precedence",
            "situation-1",
            "situation-2",
            "situation-3",
            "situation-4",
            "situation-5",
            "situation-6",
        ],
    },
    Document {
        id: "draft-1996",
        title: "M. Koster, A Method for Robots Exclusion, draft 1 (1996)",
        sections: &[
            "1", "3.1", "3.2", "3.2.1", "3.2.2", "3.3", "3.4", "4.1", "4.2", "5", "reply",
        ],
    },
    Document {
        id: "guide-ch9",
        title: "HTTP: The Definitive Guide, chapter 9 (2002)",
        sections: &[
            "web-sites",
            "fetching",
            "response-codes",
            "file-format",
            "user-agent",
            "allow-disallow",
            "prefix-matching",
            "table-9-3",
            "table-9-4",
            "other-wisdom",
            "caching",
        ],
    },
    Document {
        id: "norobots-1994",
        title: "A Standard for Robot Exclusion (1994)",
        sections: &[
            "method",
            "format",
            "example-1",
            "example-2",
            "example-3",
            "translator-note",
        ],
    },
    Document {
        id: "aipref-attach",
        title: "draft-ietf-aipref-attach, revision 05 (2026): Associating AI Usage Preferences with Content in HTTP",
        sections: &[
            "1", "1.1", "1.2", "2", "3", "3.1", "3.2", "3.3", "3.4", "4",
        ],
    },
    Document {
        id: "aipref-vocab",
        title: "draft-ietf-aipref-vocab, the editor's copy matching aipref-attach revision 05 (2026): A Vocabulary For Expressing AI Usage Preferences",
        sections: &[
            "1", "2", "3", "3.1", "3.2", "4", "4.1", "4.2", "4.3", "5", "5.1", "5.2", "6", "6.1",
            "6.2", "6.3", "6.4", "6.5", "6.5.1", "6.5.2", "6.6", "7",
        ],
    },
];

/// The reported errata of RFC 9309 and their readings: a case whose verdict under `rfc9309` would
/// change under an erratum's reading carries its tag (`docs/profiles.md`, "Errata").
pub use robotstxt_oracle::knobs::{Erratum, ERRATA};

/// Every `document#section` written in `text` (a note or a comment): each document id of
/// [`DOCUMENTS`] followed by `#` and the section's characters (letters, digits, `.` and `-`; a
/// final `.` or `-` is punctuation).
pub fn cited_in(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for document in DOCUMENTS {
        let prefix = format!("{}#", document.id);
        let mut from = 0;
        while let Some(at) = text[from..].find(&prefix) {
            let start = from + at;
            // Only a whole id: `xrfc9309#1` is not a citation of rfc9309.
            let whole = text[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
            let rest = &text[start + prefix.len()..];
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(rest.len());
            let section = rest[..len].trim_end_matches(['.', '-']);
            if whole && !section.is_empty() {
                found.push(&text[start..start + prefix.len() + section.len()]);
            }
            from = start + prefix.len();
        }
    }
    found
}

/// A validated citation such as `rfc9309#2.2.2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Citation {
    /// The document.
    pub document: &'static str,
    /// The section or anchor within it.
    pub section: String,
}

impl Citation {
    /// Parses and validates a citation.
    pub fn parse(text: &str) -> Result<Citation, String> {
        let Some((doc, section)) = text.split_once('#') else {
            return Err(format!(
                "citation `{text}` has no `#section`; write e.g. `rfc9309#2.2.2` (see spec-cases/README.md, \"Citations\")"
            ));
        };
        let Some(document) = DOCUMENTS.iter().find(|d| d.id == doc) else {
            let known: Vec<&str> = DOCUMENTS.iter().map(|d| d.id).collect();
            return Err(format!(
                "unknown document `{doc}` in citation `{text}`; known documents: {}",
                known.join(", ")
            ));
        };
        if !document.sections.contains(&section) {
            return Err(format!(
                "unknown section `{section}` of `{doc}` in citation `{text}`; valid: {}",
                document.sections.join(", ")
            ));
        }
        Ok(Citation {
            document: document.id,
            section: section.to_string(),
        })
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.document, self.section)
    }
}

impl TryFrom<String> for Citation {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Citation::parse(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_citations_in_a_text() {
        assert_eq!(
            cited_in("see rfc9309#2.2.2. Also (google#url-matching) and draft-1996#3.2.2's table"),
            vec!["rfc9309#2.2.2", "google#url-matching", "draft-1996#3.2.2"]
        );
        assert_eq!(
            cited_in("xrfc9309#1 and rfc9309# alone"),
            Vec::<&str>::new()
        );
        for erratum in ERRATA {
            assert!(Citation::parse(erratum.cites).is_ok(), "{}", erratum.tag);
            assert_eq!(erratum.tag, format!("erratum-{}", erratum.number));
        }
    }

    #[test]
    fn parses_known_and_rejects_unknown() {
        assert_eq!(
            Citation::parse("rfc9309#2.2.2").unwrap().to_string(),
            "rfc9309#2.2.2"
        );
        assert!(Citation::parse("rfc9309#9.9")
            .unwrap_err()
            .contains("unknown section"));
        assert!(Citation::parse("rfc1234#1")
            .unwrap_err()
            .contains("unknown document"));
        assert!(Citation::parse("rfc9309")
            .unwrap_err()
            .contains("no `#section`"));
    }
}
