//! The frame every page of the site shares: its place in the tree (for relative links), the
//! escaping of everything that comes from a case, a parser or a real file, and the HTML shell
//! (one small style sheet, a navigation bar, no external resource).

use std::borrow::Cow;

use robotstxt_spec::cases::citation::Citation;

/// Escapes text for an HTML element's content (`&`, `<`, `>`), by the `html-escape` crate.
pub fn text(value: &str) -> Cow<'_, str> {
    html_escape::encode_text(value)
}

/// Escapes text for a double-quoted attribute value (`&`, `<`, `>`, `"`).
pub fn attr(value: &str) -> Cow<'_, str> {
    html_escape::encode_double_quoted_attribute(value)
}

/// The site path of a document's page.
pub fn document_path(id: &str) -> String {
    format!("documents/{id}.html")
}

/// The site path a citation (`rfc9309#2.2.2`) links to, if it names a known section.
pub fn citation_path(citation: &str) -> Option<String> {
    let parsed = Citation::parse(citation).ok()?;
    Some(format!(
        "{}#{}",
        document_path(parsed.document),
        parsed.section
    ))
}

/// The playground's link for a corpus check, from the site's root.
pub fn check_link(case: &str, check: usize) -> String {
    format!(
        "playground.html#case={}&check={check}",
        fragment_value(case.as_bytes())
    )
}

/// The playground's link for a real-world bucket's example, from the site's root.
pub fn realworld_link(adapter: &str, cause: &str) -> String {
    format!(
        "playground.html#rw={}",
        fragment_value(format!("{adapter}|{cause}").as_bytes())
    )
}

/// Percent-encodes every octet but ASCII letters, digits and `-._~`: a value as a URL fragment
/// parameter (`playground.html#body=...`), read back by the playground's script.
pub fn fragment_value(octets: &[u8]) -> String {
    let mut out = String::with_capacity(octets.len());
    for &b in octets {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A page's path inside the site, `/`-separated (`cases/rfc9309/longest-match/x.html`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SitePath(pub String);

impl SitePath {
    /// The prefix that leads from this page back to the site's root (`../../`, or empty).
    pub fn root(&self) -> String {
        "../".repeat(self.0.matches('/').count())
    }

    /// A relative link from this page to `target` (a site path, possibly with a fragment).
    pub fn to(&self, target: &str) -> String {
        format!("{}{}", self.root(), target)
    }
}

/// The site path of a parser's page.
pub fn parser_path(adapter: &str) -> String {
    format!("parsers/{}.html", file_safe(adapter))
}

/// The site path of a case's page.
pub fn case_path(case: &str) -> String {
    let parts: Vec<String> = case.split('/').map(file_safe).collect();
    format!("cases/{}.html", parts.join("/"))
}

/// The site path of a check's anchor on its case's page (the check id, as `matrix.html` has it).
pub fn check_path(case: &str, check: usize) -> String {
    format!("{}#{}#{}", case_path(case), case, check)
}

/// The site path of a knob's or a deviation's page (`K7`, `D-typo-fields`).
pub fn cause_path(slug: &str) -> String {
    format!("causes/{}.html", file_safe(slug))
}

/// A name with every character but ASCII letters, digits, `-`, `_` and `.` replaced by `_`, and
/// no leading dot: safe as a file name on any host.
pub fn file_safe(name: &str) -> String {
    let out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.trim_start_matches('.').to_string()
}

/// The navigation bar every page of the site has, its links relative to `root`.
pub fn nav(root: &str) -> String {
    format!(
        "<nav><a href=\"{root}index.html\">Parsers</a> <a href=\"{root}cases/index.html\">Cases</a> \
<a href=\"{root}causes/index.html\">Knobs and deviations</a> <a href=\"{root}realworld.html\">Real world</a> \
<a href=\"{root}documents/index.html\">Documents</a> <a href=\"{root}playground.html\">Playground</a></nav>"
    )
}

/// A whole page: the shell around `body` (already escaped HTML), for the page at `path`, its
/// citations linked to the documents' pages ([`link_citations`]).
pub fn shell(path: &SitePath, title: &str, body: &str) -> String {
    let root = path.root();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self' data: blob:; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:\">\n\
<title>{title}</title>\n<link rel=\"stylesheet\" href=\"{root}style.css\">\n</head>\n<body>\n{nav}\n\
<main>\n{body}\n</main>\n</body>\n</html>\n",
        title = text(title),
        nav = nav(&root),
        body = link_citations(body, &root),
    )
}

/// `html` with every citation in its text (`rfc9309#2.2.2`, outside tags, links, scripts and text
/// areas) made a link to its section on the document's page (`<root>documents/rfc9309.html#2.2.2`).
/// A `document#section` that names no known section is left as it is.
pub fn link_citations(html: &str, root: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut in_link = 0usize;
    while !rest.is_empty() {
        if rest.starts_with('<') {
            let end = rest.find('>').map_or(rest.len(), |i| i + 1);
            let tag = &rest[..end];
            let name: String = tag[1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '/')
                .collect::<String>()
                .to_ascii_lowercase();
            out.push_str(tag);
            rest = &rest[end..];
            match name.as_str() {
                "a" => in_link += 1,
                "/a" => in_link = in_link.saturating_sub(1),
                "script" | "style" | "textarea" => {
                    // Raw text up to the closing tag, copied as it is.
                    let close = format!("</{name}");
                    let stop = rest.find(&close).unwrap_or(rest.len());
                    out.push_str(&rest[..stop]);
                    rest = &rest[stop..];
                }
                _ => {}
            }
            continue;
        }
        let stop = rest.find('<').unwrap_or(rest.len());
        let piece = &rest[..stop];
        if in_link > 0 {
            out.push_str(piece);
        } else {
            out.push_str(&link_in_text(piece, root));
        }
        rest = &rest[stop..];
    }
    out
}

/// One run of escaped text with its citations linked.
fn link_in_text(piece: &str, root: &str) -> String {
    let mut out = String::with_capacity(piece.len());
    // Each citation is a slice of `piece`: its offset, in text order.
    let mut found: Vec<(usize, &str)> = robotstxt_matrix::cases::citation::cited_in(piece)
        .into_iter()
        .map(|c| (c.as_ptr() as usize - piece.as_ptr() as usize, c))
        .collect();
    found.sort();
    let mut from = 0;
    for (at, citation) in found {
        if at < from {
            continue;
        }
        let Some(target) = citation_path(citation) else {
            continue;
        };
        out.push_str(&piece[from..at]);
        out.push_str(&format!(
            "<a class=\"citation\" href=\"{}\">{citation}</a>",
            attr(&format!("{root}{target}"))
        ));
        from = at + citation.len();
    }
    out.push_str(&piece[from..]);
    out
}

/// A `<pre>` block of escaped text.
pub fn pre(value: &str) -> String {
    format!("<pre>{}</pre>", text(value))
}

/// Free text from a case or a document: escaped, `backticks` shown as code.
pub fn prose(value: &str) -> String {
    let mut out = String::new();
    for (n, part) in value.split('`').enumerate() {
        if n % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", text(part)));
        } else {
            out.push_str(&text(part));
        }
    }
    out
}

/// The style sheet of every page (`style.css`): small, readable on a phone.
pub const STYLE: &str = r#"*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#fff}
nav{background:#1f3a5f;padding:.5em 1em;display:flex;flex-wrap:wrap;gap:.3em 1.2em}
nav a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:72em;margin:0 auto;padding:1em}
h1{font-size:1.5em;margin:.3em 0 .5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}h3{font-size:1.05em}
code,pre,textarea,input{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f5f5f2;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;max-height:30em}
.table{overflow-x:auto}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f0f0ec}
table.kv th{white-space:nowrap}
td a,td code,h1{overflow-wrap:anywhere}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.allowed{color:#17611d;font-weight:600}.disallowed{color:#a11a1a;font-weight:600}
.either{color:#7a5b00;font-weight:600}.not-governed{color:#555;font-weight:600}
.pass{background:#e7f4e4}.expected-divergence{background:#fff1d6}.unexpected-divergence,.fixed-divergence{background:#fbd9d9}.not-applicable{color:#777}
.cite{font-size:.95em;background:#f5f7fb;border-left:3px solid #1f3a5f;padding:.3em .6em;margin:.4em 0}
.muted{color:#666}
details{margin:.4em 0}summary{cursor:pointer}
label{display:block;font-weight:600;margin-top:.6em}
textarea{width:100%;min-height:10em}
input[type=text]{width:100%;padding:.3em}
input.short{width:8em}
.badge{vertical-align:middle}
@media (max-width:40em){main{padding:.5em}th,td{padding:.2em .3em}body{font-size:15px}}
"#;

/// A few paragraphs of the project's Markdown (a section of `docs/profiles.md`) as HTML:
/// paragraphs, `- ` list items, `**bold**` and `code`; everything else as escaped text.
pub fn markdown(source: &str) -> String {
    let mut out = String::new();
    for block in source.split("\n\n") {
        let mut items: Vec<String> = Vec::new();
        let mut paragraph = String::new();
        for line in block.lines() {
            let line = line.trim();
            if let Some(item) = line.strip_prefix("- ") {
                items.push(item.to_string());
            } else if let Some(last) = items.last_mut() {
                last.push(' ');
                last.push_str(line);
            } else {
                if !paragraph.is_empty() {
                    paragraph.push(' ');
                }
                paragraph.push_str(line);
            }
        }
        if !paragraph.is_empty() {
            out.push_str(&format!("<p>{}</p>\n", bold(&prose(&paragraph))));
        }
        if !items.is_empty() {
            out.push_str("<ul>\n");
            for item in items {
                out.push_str(&format!("<li>{}</li>\n", bold(&prose(&item))));
            }
            out.push_str("</ul>\n");
        }
    }
    out
}

/// `**x**` as `<strong>x</strong>` in escaped HTML (the asterisks survive escaping).
fn bold(html: &str) -> String {
    let mut out = String::new();
    for (n, part) in html.split("**").enumerate() {
        if n % 2 == 1 {
            out.push_str(&format!("<strong>{part}</strong>"));
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_from_a_file_is_shown_not_run() {
        let hostile = "<script>x()</script> `<img src=x onerror=y>` **\"a\"**";
        for html in [
            text(hostile).into_owned(),
            prose(hostile),
            markdown(hostile),
            pre(hostile),
            shell(&SitePath("a/b.html".into()), hostile, ""),
        ] {
            assert!(!html.contains("<script>x"), "{html}");
            assert!(!html.contains("<img"), "{html}");
        }
        assert!(!attr("\" onmouseover=\"x").contains('"'));
        assert_eq!(
            markdown("- a **b**\n- `c`"),
            "<ul>\n<li>a <strong>b</strong></li>\n<li><code>c</code></li>\n</ul>\n"
        );
    }

    #[test]
    fn citations_become_links_outside_tags_and_links() {
        let html =
            "<p title=\"rfc9309#2.2\">see rfc9309#2.2.2 and <a href=\"x\">google#syntax</a>; \
                    norobots-1994#format.</p><pre>(rfc9309#figure-4)</pre> rfc9309#9.9";
        let linked = link_citations(html, "../");
        assert!(linked.contains("<p title=\"rfc9309#2.2\">"), "{linked}");
        assert!(linked.contains(
            "see <a class=\"citation\" href=\"../documents/rfc9309.html#2.2.2\">rfc9309#2.2.2</a>"
        ));
        assert!(
            linked.contains("<a href=\"x\">google#syntax</a>"),
            "{linked}"
        );
        assert!(linked.contains(
            "<a class=\"citation\" href=\"../documents/norobots-1994.html#format\">norobots-1994#format</a>."
        ));
        assert!(linked.contains("documents/rfc9309.html#figure-4"));
        assert!(linked.ends_with(" rfc9309#9.9"), "{linked}");
    }

    #[test]
    fn links_are_relative_to_the_page() {
        let page = SitePath(case_path("rfc9309/longest-match/allow-wins-tie"));
        assert_eq!(page.0, "cases/rfc9309/longest-match/allow-wins-tie.html");
        assert_eq!(page.to("index.html"), "../../../index.html");
        assert_eq!(fragment_value(b"a b/\xFF"), "a%20b%2F%FF");
    }
}
