//! File-level facts of a real robots.txt capture: what a parser meets besides rules.
//!
//! Each fact is a name from [`FACTS`] with a one-line meaning; [`of`] lists those that hold for a
//! file. They describe the capture only (its octets and its fetch), never what a parser made of it.

use robotstxt_oracle::Fetch;

use crate::file::RealFile;

/// Every fact, in the order [`of`] lists them, with what it means.
pub const FACTS: &[(&str, &str)] = &[
    ("utf8-bom", "the body starts with the UTF-8 byte order mark EF BB BF"),
    (
        "utf16-bom",
        "the body starts with a UTF-16 byte order mark (FF FE or FE FF)",
    ),
    ("crlf", "some line ends with CR LF"),
    ("cr-only", "some line ends with a CR that no LF follows"),
    ("invalid-utf8", "the body is not valid UTF-8"),
    (
        "html",
        "the body looks like an HTML page: its first non-blank octet (after any BOM) is `<` and its \
         first 1,024 octets hold `<html`, `<!doctype html`, `<head` or `<body` in any case",
    ),
    (
        "gzip",
        "the body is still gzip-compressed: it starts with the gzip magic number 1F 8B",
    ),
    (
        "over-500kib",
        "the body is longer than 500 KiB (512,000 octets), the least parsing limit RFC 9309 2.5 allows",
    ),
    ("non-2xx", "the fetch ended with an HTTP status outside 200-299"),
    (
        "redirect",
        "the fetch followed a redirect, or ended with a 3xx status no hop followed",
    ),
    (
        "unreachable",
        "the fetch got no HTTP response at all (no status)",
    ),
    ("empty", "the body has no octets"),
];

/// The names of the facts that hold for `file`, in [`FACTS`] order.
pub fn of(file: &RealFile) -> Vec<&'static str> {
    let body = file.body.as_slice();
    let mut facts = Vec::new();
    let mut note = |name: &'static str, holds: bool| {
        if holds {
            debug_assert!(FACTS.iter().any(|(n, _)| *n == name), "{name}");
            facts.push(name);
        }
    };
    note("utf8-bom", body.starts_with(b"\xEF\xBB\xBF"));
    note(
        "utf16-bom",
        body.starts_with(b"\xFF\xFE") || body.starts_with(b"\xFE\xFF"),
    );
    note("crlf", body.windows(2).any(|pair| pair == b"\r\n"));
    note(
        "cr-only",
        body.iter()
            .enumerate()
            .any(|(i, &b)| b == b'\r' && body.get(i + 1) != Some(&b'\n')),
    );
    note("invalid-utf8", std::str::from_utf8(body).is_err());
    note("html", looks_like_html(body));
    note("gzip", body.starts_with(b"\x1F\x8B"));
    note("over-500kib", body.len() > 500 * 1024);
    let (status, redirects) = match file.fetch {
        Fetch::Status { status, redirects } => (Some(status), redirects),
        Fetch::Unreachable => (None, 0),
    };
    note("non-2xx", status.is_some_and(|s| !(200..=299).contains(&s)));
    note(
        "redirect",
        redirects > 0 || status.is_some_and(|s| (300..=399).contains(&s)),
    );
    note("unreachable", status.is_none());
    note("empty", body.is_empty());
    facts
}

/// Whether `body` looks like an HTML page (see [`FACTS`]).
fn looks_like_html(body: &[u8]) -> bool {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_none_or(|i| body[i] != b'<') {
        return false;
    }
    let head = body[..body.len().min(1024)].to_ascii_lowercase();
    [&b"<html"[..], b"<!doctype html", b"<head", b"<body"]
        .iter()
        .any(|tag| head.windows(tag.len()).any(|w| w == *tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(body: &[u8]) -> RealFile {
        fetched(body, Fetch::default())
    }

    fn fetched(body: &[u8], fetch: Fetch) -> RealFile {
        RealFile {
            id: "t".to_string(),
            robots_url: None,
            fetch,
            body: body.to_vec(),
        }
    }

    fn status(status: u16, redirects: u32) -> Fetch {
        Fetch::Status { status, redirects }
    }

    #[test]
    fn a_plain_file_has_no_fact() {
        assert!(of(&file(b"User-agent: *\nDisallow: /private\n")).is_empty());
    }

    #[test]
    fn each_fact_on_a_body_that_has_it() {
        let cases: &[(&[u8], &[&str])] = &[
            (b"\xEF\xBB\xBFUser-agent: *\n", &["utf8-bom"]),
            (b"\xFF\xFEU\0s\0", &["utf16-bom", "invalid-utf8"]),
            (b"\xFE\xFF\0U\0s", &["utf16-bom", "invalid-utf8"]),
            (b"User-agent: *\r\nDisallow: /\r\n", &["crlf"]),
            (b"User-agent: *\rDisallow: /\r", &["cr-only"]),
            (
                b"User-agent: *\r\nDisallow: /\rAllow: /a\n",
                &["crlf", "cr-only"],
            ),
            (b"Disallow: /caf\xE9\n", &["invalid-utf8"]),
            (
                b"\n  <!DOCTYPE html>\n<html><body>404</body></html>",
                &["html"],
            ),
            (
                b"\xEF\xBB\xBF<HTML><HEAD><TITLE>x</TITLE>",
                &["utf8-bom", "html"],
            ),
            (
                b"\x1F\x8B\x08\x00\x00\x00\x00\x00",
                &["invalid-utf8", "gzip"],
            ),
            (b"", &["empty"]),
        ];
        for (body, expected) in cases {
            assert_eq!(of(&file(body)), *expected, "{body:?}");
        }
    }

    #[test]
    fn html_is_a_page_not_a_tag_in_a_comment_or_an_xml_file() {
        assert!(of(&file(b"# see <html> pages\nDisallow: /\n")).is_empty());
        assert!(of(&file(b"<?xml version=\"1.0\"?><urlset/>")).is_empty());
    }

    #[test]
    fn size_over_500_kib() {
        assert!(of(&file(&vec![b'#'; 500 * 1024])).is_empty());
        assert_eq!(of(&file(&vec![b'#'; 500 * 1024 + 1])), ["over-500kib"]);
    }

    #[test]
    fn the_fetch_facts() {
        let body = b"Disallow: /\n";
        assert!(of(&fetched(body, status(204, 0))).is_empty());
        assert_eq!(of(&fetched(body, status(404, 0))), ["non-2xx"]);
        assert_eq!(of(&fetched(body, status(503, 0))), ["non-2xx"]);
        assert_eq!(of(&fetched(body, status(301, 0))), ["non-2xx", "redirect"]);
        assert_eq!(of(&fetched(body, status(200, 2))), ["redirect"]);
        assert_eq!(
            of(&fetched(b"", Fetch::Unreachable)),
            ["unreachable", "empty"]
        );
    }

    #[test]
    fn every_fact_is_documented_once() {
        for (i, (name, doc)) in FACTS.iter().enumerate() {
            assert!(!doc.is_empty(), "{name}");
            assert!(FACTS[..i].iter().all(|(n, _)| n != name), "{name} twice");
        }
    }
}
