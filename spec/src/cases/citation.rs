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
            "3.1", "3.2", "3.2.1", "3.2.2", "3.3", "3.4", "4.1", "4.2", "5", "reply",
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
];

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
