//! A page per source document (`documents/<id>.html`) and their list (`documents/index.html`):
//! what the document is and where to read it, then an anchor per section a citation may name
//! (`rfc9309#2.2.2` is `documents/rfc9309.html#2.2.2`), with the section's heading, a link to it at
//! the canonical copy where it has its own anchor, RFC 9309's normative statements in our words,
//! the corpus's short quotes of it (each with the case that quotes it) and the cases that cite it.
//!
//! The documents' own text is not on the site: the repository holds no copy of it (most of it is
//! not ours to republish), and the site is built offline. Every citation on every page links here
//! ([`crate::page::link_citations`]); this page links to the document itself.

use std::collections::BTreeMap;

use robotstxt_spec::cases::citation::DOCUMENTS;
use robotstxt_spec::cases::statements::statements;

use crate::page::{attr, case_path, document_path, prose, shell, text, SitePath};
use crate::{Inputs, Site};

/// What the site says of one document besides its sections.
pub struct About {
    /// The citation id (`rfc9309`).
    pub id: &'static str,
    /// What the document is, in a sentence or two.
    pub what: &'static str,
    /// Which profile it defines, in words.
    pub role: &'static str,
    /// Where to read it.
    pub canonical: &'static str,
    /// How a section is linked at the canonical copy: `Some(prefix)` when each section has an
    /// anchor (`#section-` + the number; a figure keeps its own name), `None` when the copy has no
    /// anchors to link.
    pub anchors: Option<&'static str>,
    /// Each section a citation may name, with its heading (the document's, or ours in brackets).
    pub sections: &'static [(&'static str, &'static str)],
}

/// Every document a case may cite, in [`DOCUMENTS`] order.
pub const ABOUT: &[About] = &[
    About {
        id: "rfc9309",
        what: "The IETF's Proposed Standard for the Robots Exclusion Protocol (RFC 9309, September 2022; M. Koster, G. Illyes, H. Zeller, L. Sassman). The first standards-track specification of robots.txt: MUST, SHOULD and MAY in the sense of RFC 2119.",
        role: "defines the rfc9309 profile",
        canonical: "https://www.rfc-editor.org/rfc/rfc9309",
        anchors: Some("#section-"),
        sections: &[
            ("1", "Introduction"),
            ("2", "Specification"),
            ("2.1", "Protocol Definition"),
            ("2.2", "Formal Syntax"),
            ("2.2.1", "The User-Agent Line"),
            ("2.2.2", "The \"Allow\" and \"Disallow\" Lines"),
            ("2.2.3", "Special Characters"),
            ("2.2.4", "Other Records"),
            ("2.3", "Access Method"),
            ("2.3.1", "Access Results"),
            ("2.3.1.1", "Successful Access"),
            ("2.3.1.2", "Redirects"),
            ("2.3.1.3", "\"Unavailable\" Status"),
            ("2.3.1.4", "\"Unreachable\" Status"),
            ("2.3.1.5", "Parsing Errors"),
            ("2.4", "Caching"),
            ("2.5", "Limits"),
            ("3", "Security Considerations"),
            ("5", "Examples"),
            ("5.1", "Simple Example"),
            ("5.2", "Longest Match"),
            ("figure-1", "Figure 1: a User-Agent HTTP header and a robots.txt user-agent line"),
            ("figure-2", "Figure 2: merging two groups that match the same product token"),
            ("figure-3", "Figure 3: no matching group other than \"*\""),
            ("figure-4", "Figure 4: matching percent-encoded URI components"),
            ("figure-5", "Figure 5: the special characters"),
            ("figure-6", "Figure 6: percent-encoding"),
        ],
    },
    About {
        id: "draft-2019",
        what: "draft-koster-rep-00 (July 2019), the first IETF Internet-Draft of what became RFC 9309. Cited for history only: to see what changed on the way to the RFC.",
        role: "history of the rfc9309 profile; no verdict rests on it",
        canonical: "https://datatracker.ietf.org/doc/html/draft-koster-rep-00",
        anchors: Some("#section-"),
        sections: &[
            ("2.1", "Protocol definition"),
            ("2.2", "Formal syntax"),
            ("2.2.1", "The user-agent line"),
            ("2.2.2", "The Allow and Disallow lines"),
            ("2.2.3", "Special characters"),
            ("2.2.4", "Other records"),
            ("2.3", "Access method"),
            ("2.3.1", "Access results"),
            ("2.4", "Caching"),
            ("2.5", "Limits"),
            ("3.1", "Simple example"),
            ("3.2", "Longest Match"),
        ],
    },
    About {
        id: "google",
        what: "\"How Google interprets the robots.txt specification\", Google's developer documentation: how Google's crawlers read robots.txt, with tables of examples. Not a standard; it describes one crawler, and where it is silent the profile is open.",
        role: "defines the google profile",
        canonical: "https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec",
        anchors: None,
        sections: &[
            ("intro", "[the opening paragraphs] What is a robots.txt file"),
            ("file-location", "File location and range of validity (with its examples of valid robots.txt URLs)"),
            ("status-codes", "Handling of errors and HTTP status codes"),
            ("caching", "Caching"),
            ("file-format", "File format"),
            ("syntax", "Syntax"),
            ("user-agent", "Syntax: user-agent"),
            ("disallow", "Syntax: disallow"),
            ("allow", "Syntax: allow"),
            ("sitemap", "Syntax: sitemap"),
            ("grouping", "Grouping of lines and rules"),
            ("user-agent-precedence", "Order of precedence for user agents (with its examples)"),
            ("url-matching", "URL matching based on path values"),
            ("rule-precedence", "Order of precedence for rules"),
            ("situation-1", "Order of precedence for rules: Situation 1"),
            ("situation-2", "Order of precedence for rules: Situation 2"),
            ("situation-3", "Order of precedence for rules: Situation 3"),
            ("situation-4", "Order of precedence for rules: Situation 4"),
            ("situation-5", "Order of precedence for rules: Situation 5"),
            ("situation-6", "Order of precedence for rules: Situation 6"),
        ],
    },
    About {
        id: "draft-1996",
        what: "M. Koster, \"A Method for Robots Exclusion\", Internet-Draft version 1 (15 November 1996), as posted to the robots mailing list. It added Allow and a formal syntax; it never became an RFC. Cited with a reply from the same list (arguing that no match must mean allowed). The link below is the nearest public copy: robotstxt.org's later revision of the draft, \"A Method for Web Robots Control\", whose wording and numbering may differ from the posted version the corpus cites.",
        role: "defines the draft-1996 profile (with HTTP: The Definitive Guide where it is silent)",
        canonical: "https://www.robotstxt.org/norobots-rfc.txt",
        anchors: None,
        sections: &[
            ("1", "1. Abstract"),
            ("3.1", "3.1 Access method"),
            ("3.2", "3.2 File Format Description"),
            ("3.2.1", "3.2.1 The User-agent line"),
            ("3.2.2", "3.2.2 The Allow and Disallow lines"),
            ("3.3", "3.3 File Format Syntax"),
            ("3.4", "3.4 Expiration"),
            ("4.1", "4.1 Backwards Compatibility"),
            ("4.2", "4.2 Interoperability"),
            ("5", "5. Security Considerations"),
            ("reply", "[the mailing-list reply above the draft] no match should mean allowed"),
        ],
    },
    About {
        id: "guide-ch9",
        what: "D. Gourley, B. Totty et al., HTTP: The Definitive Guide (O'Reilly, 2002), chapter 9 (\"Web Robots\"), its robots.txt section: a widely read description of the 1996 rules (\"v1.0\"), with worked tables. A book, not a standard; a secondary reading.",
        role: "read for the draft-1996 profile where the draft is silent",
        canonical: "https://www.oreilly.com/library/view/http-the-definitive/1565925092/",
        anchors: None,
        sections: &[
            ("web-sites", "Web Sites and robots.txt Files"),
            ("fetching", "Fetching robots.txt"),
            ("response-codes", "Response codes"),
            ("file-format", "robots.txt File Format"),
            ("user-agent", "The User-Agent line"),
            ("allow-disallow", "The Disallow and Allow lines"),
            ("prefix-matching", "Disallow/Allow prefix matching"),
            ("table-9-3", "Table 9-3. Robots.txt path matching examples"),
            ("table-9-4", "Table 9-4. Robot accessibility to the Mary's Antiques web site"),
            ("other-wisdom", "Other robots.txt Wisdom"),
            ("caching", "Caching and Expiration of robots.txt"),
        ],
    },
    About {
        id: "norobots-1994",
        what: "M. Koster, \"A Standard for Robot Exclusion\" (30 June 1994), the consensus of the robots mailing list: Disallow only, no wildcards. Not an official standard. The corpus has it in a Russian translation: its quotes are the translation's words, each followed by our English gloss, and the translator's note is the translator's, not Koster's.",
        role: "defines the original-1994 profile",
        canonical: "https://www.robotstxt.org/norobots.html",
        anchors: None,
        sections: &[
            ("method", "The Method (Метод)"),
            ("format", "The Format (Формат)"),
            ("example-1", "Examples: Example 1 (Пример 1)"),
            ("example-2", "Examples: Example 2 (Пример 2)"),
            ("example-3", "Examples: Example 3 (Пример 3)"),
            ("translator-note", "[the translator's note, not part of the 1994 text] Примечания переводчика: names separated by spaces"),
        ],
    },
    About {
        id: "aipref-attach",
        what: "\"Associating AI Usage Preferences with Content in HTTP\" (G. Illyes, M. Thomson), an Internet-Draft of the IETF AI Preferences working group, cited at revision 05 (the editor's copy of 19 August 2026). It adds a Content-Usage rule to robots.txt groups and a Content-Usage HTTP header field, and says it updates RFC 9309. A draft, not a standard: the four profiles read its lines as the fields their own documents do not define.",
        role: "is the source of the Content-Usage lines the corpus puts into robots.txt files (no verdict of the four profiles rests on it), and, with the vocabulary draft, of the aipref reading: which usage preference a file attaches to a URL",
        canonical: "https://datatracker.ietf.org/doc/html/draft-ietf-aipref-attach-05",
        anchors: Some("#section-"),
        sections: &[
            ("1", "Introduction"),
            ("1.1", "Statements of Preference"),
            ("1.2", "Examples"),
            ("2", "HTTP Content-Usage Header Field"),
            ("3", "Robots Exclusion Protocol Content-Usage Rule"),
            ("3.1", "Content-Usage Rule Semantics"),
            ("3.2", "Processing Content-Usage Rules"),
            ("3.3", "When Preferences Apply"),
            ("3.4", "Example"),
            ("4", "Security Considerations"),
        ],
    },
    About {
        id: "aipref-vocab",
        what: "\"A Vocabulary For Expressing AI Usage Preferences\" (P. Keller, M. Thomson), an Internet-Draft of the IETF AI Preferences working group, cited in the editor's copy of the same commit as aipref-attach (19 August 2026). It defines the categories of use (train-ai, search), the statement of preference as a Structured Fields Dictionary of y and n, and how several statements combine. A draft whose own note says its contents do not reflect consensus.",
        role: "decides, with aipref-attach, the aipref reading's preferences: the categories, the parsing of a statement, and the most restrictive preference winning",
        canonical: "https://ietf-wg-aipref.github.io/drafts/draft-ietf-aipref-vocab.html",
        anchors: None,
        sections: &[
            ("1", "Introduction"),
            ("2", "Conventions and Definitions"),
            ("3", "Statements of Preference"),
            ("3.1", "Understanding Preferences"),
            ("3.2", "Applying Preferences"),
            ("4", "Vocabulary Definition"),
            ("4.1", "AI Model Training"),
            ("4.2", "Search"),
            ("4.3", "Vocabulary Extensions"),
            ("5", "Applying Statements of Preference"),
            ("5.1", "Combining Preferences"),
            ("5.2", "More Specific Instructions"),
            ("6", "Exemplary Serialization Format"),
            ("6.1", "Usage Category Labels"),
            ("6.2", "Preference Labels"),
            ("6.3", "Text Encoding"),
            ("6.4", "Syntax Extensions"),
            ("6.5", "Processing Algorithm"),
            ("6.5.1", "Multiple Preferences"),
            ("6.5.2", "Preference Parameters"),
            ("6.6", "Alternative Formats"),
            ("7", "Security Considerations"),
        ],
    },
];

/// What the site says of document `id`.
pub fn about(id: &str) -> Option<&'static About> {
    ABOUT.iter().find(|a| a.id == id)
}

/// Adds every document's page and their list.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let list_path = SitePath("documents/index.html".to_string());
    let mut list = String::from(
        "<h1>The documents</h1>\n<p>Every verdict of the corpus rests on these documents' words. A citation such as <code>rfc9309#2.2.2</code> names a document and a section; each links to the section's anchor on the document's page here, which says what the document is, links to the document itself, and lists the cases that cite the section and the corpus's quotes of it. The documents' text is not copied here: read them at their source.</p>\n<ul>\n",
    );
    let cited = cited_by(inputs);
    let quotes = quotes(inputs);
    for about in ABOUT {
        let title = DOCUMENTS
            .iter()
            .find(|d| d.id == about.id)
            .map_or(about.id, |d| d.title);
        list.push_str(&format!(
            "<li><a href=\"{}\">{}</a> (<code>{}#…</code>): {}</li>\n",
            attr(&list_path.to(&document_path(about.id))),
            text(title),
            text(about.id),
            text(about.role)
        ));
        add_page(site, about, title, &cited, &quotes);
    }
    list.push_str("</ul>\n");
    site.add(
        list_path.0.clone(),
        shell(&list_path, "The documents", &list),
    );
}

/// Citation (`rfc9309#2.2.2`) → the ids of the cases that cite it, in corpus order.
fn cited_by(inputs: &Inputs) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for case in &inputs.corpus.cases {
        for citation in &case.cite {
            out.entry(citation.to_string())
                .or_default()
                .push((case.id.clone(), case.title.clone()));
        }
    }
    out
}

/// Citation → the corpus's short quotes of it: a `"..."` right after the citation in a case's or a
/// check's note (`rfc9309#2.2.2: "..."`), with the case it is in.
fn quotes(inputs: &Inputs) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for case in &inputs.corpus.cases {
        let notes = case
            .note
            .iter()
            .chain(case.checks.iter().filter_map(|c| c.note.as_ref()));
        for note in notes {
            for (citation, quote) in quotes_in(note) {
                let list = out.entry(citation).or_default();
                if !list.iter().any(|(_, q)| *q == quote) {
                    list.push((case.id.clone(), quote));
                }
            }
        }
    }
    out
}

/// Each `citation: "quote"` (or `citation "quote"`, `citation ("quote"`) in `note`.
fn quotes_in(note: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for citation in robotstxt_spec::cases::citation::cited_in(note) {
        let Some(at) = note.find(citation) else {
            continue;
        };
        let mut from = at;
        while let Some(offset) = note[from..].find(citation) {
            let after = &note[from + offset + citation.len()..];
            let rest = after.trim_start_matches([':', ' ', '(', ',']);
            if let Some(quoted) = rest.strip_prefix('"') {
                if let Some(end) = quoted.find('"') {
                    let quote = quoted[..end].trim();
                    if !quote.is_empty() && quote.chars().count() <= 400 {
                        found.push((citation.to_string(), quote.to_string()));
                    }
                }
            }
            from += offset + citation.len();
        }
    }
    found
}

fn add_page(
    site: &mut Site,
    about: &About,
    title: &str,
    cited: &BTreeMap<String, Vec<(String, String)>>,
    quotes: &BTreeMap<String, Vec<(String, String)>>,
) {
    let path = SitePath(document_path(about.id));
    let mut body = format!(
        "<h1>{}</h1>\n<p>{}</p>\n<p>Citation id <code>{}</code>; it {}. Read it at <a href=\"{}\">{}</a>.</p>\n",
        text(title),
        prose(about.what),
        text(about.id),
        text(about.role),
        attr(about.canonical),
        text(about.canonical),
    );
    if about.id == "norobots-1994" {
        body.push_str(&format!(
            "<p class=\"cite\">{}</p>\n",
            text(robotstxt_prose::glossary::TRANSLATION_NOTE)
        ));
    }
    body.push_str("<h2>Sections</h2>\n<ul>\n");
    for (section, heading) in about.sections {
        body.push_str(&format!(
            "<li><a href=\"#{}\"><code>{}#{}</code> {}</a></li>\n",
            attr(section),
            text(about.id),
            text(section),
            text(heading)
        ));
    }
    body.push_str("</ul>\n");
    for (section, heading) in about.sections {
        let citation = format!("{}#{}", about.id, section);
        body.push_str(&format!(
            "<section id=\"{}\">\n<h2>{} <span class=\"muted\">({})</span></h2>\n",
            attr(section),
            text(heading),
            text(&citation)
        ));
        let at_source = match about.anchors {
            Some(_) if section.starts_with("figure-") => {
                format!("{}#{}", about.canonical, section)
            }
            Some(prefix) => format!("{}{}{}", about.canonical, prefix, section),
            None => about.canonical.to_string(),
        };
        body.push_str(&format!(
            "<p>At the source: <a href=\"{}\">{}</a>{}.</p>\n",
            attr(&at_source),
            text(&at_source),
            if about.anchors.is_none() {
                " (the copy has no anchor per section: look for the heading)"
            } else {
                ""
            }
        ));
        if about.id == "norobots-1994" && *section == "translator-note" {
            body.push_str("<p class=\"cite\">This section is the Russian translator's note, not the 1994 standard's text. The corpus reads it as one of the open readings of the 1994 profile (several names on one User-agent line).</p>\n");
        }
        if about.id == "rfc9309" {
            let own: Vec<_> = statements()
                .iter()
                .filter(|s| s.section == *section)
                .collect();
            if !own.is_empty() {
                body.push_str("<p>Its normative statements, in our words:</p>\n<ul>\n");
                for statement in own {
                    body.push_str(&format!(
                        "<li><strong>{}</strong> {}{}</li>\n",
                        text(&statement.level),
                        prose(&statement.summary),
                        statement
                            .untestable
                            .as_ref()
                            .map(|u| format!(
                                " <span class=\"muted\">(no check can observe it: {})</span>",
                                prose(u)
                            ))
                            .unwrap_or_default()
                    ));
                }
                body.push_str("</ul>\n");
            }
        }
        if let Some(quotes) = quotes.get(&citation) {
            body.push_str("<p>Quoted in the corpus:</p>\n<ul>\n");
            for (case, quote) in quotes {
                body.push_str(&format!(
                    "<li>{} (<a href=\"{}\">{}</a>)</li>\n",
                    robotstxt_prose::glossary::quotes_html(&format!("\"{quote}\"")),
                    attr(&path.to(&case_path(case))),
                    text(case)
                ));
            }
            body.push_str("</ul>\n");
        }
        match cited.get(&citation) {
            Some(cases) => {
                body.push_str(&format!(
                    "<details><summary>Cited by {} case{}</summary>\n<ul>\n",
                    cases.len(),
                    if cases.len() == 1 { "" } else { "s" }
                ));
                for (case, case_title) in cases {
                    body.push_str(&format!(
                        "<li><a href=\"{}\">{}</a>: {}</li>\n",
                        attr(&path.to(&case_path(case))),
                        text(case),
                        prose(case_title)
                    ));
                }
                body.push_str("</ul></details>\n");
            }
            None => body.push_str("<p class=\"muted\">No case cites this section itself.</p>\n"),
        }
        body.push_str("</section>\n");
    }
    site.add(path.0.clone(), shell(&path, title, &body));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::citation_path;

    #[test]
    fn every_section_a_citation_may_name_has_a_heading_and_a_page() {
        assert_eq!(ABOUT.len(), DOCUMENTS.len());
        for document in DOCUMENTS {
            let about = about(document.id).expect(document.id);
            let named: Vec<&str> = about.sections.iter().map(|(s, _)| *s).collect();
            assert_eq!(named, document.sections, "{}", document.id);
            for section in document.sections {
                assert_eq!(
                    citation_path(&format!("{}#{section}", document.id)).unwrap(),
                    format!("documents/{}.html#{section}", document.id)
                );
            }
        }
        assert_eq!(citation_path("rfc9309#9.9"), None);
    }

    #[test]
    fn quotes_follow_their_citation() {
        assert_eq!(
            quotes_in("as rfc9309#2.2.2: \"MUST be unencoded\" says; google#syntax no quote"),
            [("rfc9309#2.2.2".to_string(), "MUST be unencoded".to_string())]
        );
    }
}
