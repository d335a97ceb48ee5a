//! Step 5, the URL: split by RFC 3986's generic syntax, octet for octet, with no normalisation
//! (resolving `..`, re-encoding or lower-casing would change what is matched).

use std::borrow::Cow;

use crate::deviation::{Deviation, Deviations};
use crate::encoding::{normalise, normalise_deviating, Side};
use crate::knobs::{Encoding, Knobs, MatchTarget};

/// The knobs the match target reads (K8, K7 encoding): readings that agree on them share one
/// normalised target (see [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetKnobs {
    /// K8: what part of the URL is matched.
    pub match_target: MatchTarget,
    /// K7: percent-encoding normalisation.
    pub encoding: Encoding,
    /// The deviations the match target reads ([`crate::deviation::TARGET`]).
    pub deviations: Deviations,
}

impl TargetKnobs {
    /// The target knobs of a reading.
    pub fn of(knobs: &Knobs) -> TargetKnobs {
        TargetKnobs {
            match_target: knobs.match_target,
            encoding: knobs.encoding,
            deviations: knobs.deviations.only(crate::deviation::TARGET),
        }
    }
}

/// The parts of a URL the oracle uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitUrl<'a> {
    /// The path; `/` when the URL's path is empty.
    pub path: &'a [u8],
    /// The query without its `?`, when the URL has one (possibly empty).
    pub query: Option<&'a [u8]>,
    /// The fragment with its `#`, when the URL has one (never matched but under
    /// D-fragment-kept).
    pub fragment: Option<&'a [u8]>,
    /// Whether the URL's path was empty (and `path` is the `/` it stands for).
    pub empty_path: bool,
}

/// Splits `url` (an absolute URL or an absolute path) into path and query; the fragment is dropped.
///
/// RFC 3986 3: `scheme ":" ["//" authority] path ["?" query] ["#" fragment]`.
pub fn split(url: &str) -> SplitUrl<'_> {
    let bytes = url.as_bytes();
    let mut rest = bytes;
    // RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) followed by ":".
    if let Some(colon) = scheme_end(bytes) {
        rest = &bytes[colon + 1..];
    }
    // RFC 3986 3.2: "//" authority, ending at the next "/", "?" or "#".
    if rest.starts_with(b"//") {
        let after = &rest[2..];
        let end = after
            .iter()
            .position(|b| b"/?#".contains(b))
            .unwrap_or(after.len());
        rest = &after[end..];
    }
    // RFC 3986 3.5: the fragment is never sent, never matched.
    let mut fragment = None;
    if let Some(hash) = memchr::memchr(b'#', rest) {
        fragment = Some(&rest[hash..]);
        rest = &rest[..hash];
    }
    // RFC 3986 3.4: the query follows the first "?".
    let (path, query) = match memchr::memchr(b'?', rest) {
        Some(q) => (&rest[..q], Some(&rest[q + 1..])),
        None => (rest, None),
    };
    SplitUrl {
        path: if path.is_empty() { b"/" } else { path },
        query,
        fragment,
        empty_path: path.is_empty(),
    }
}

/// The scheme and the authority of `url` as written, each when it has one (RFC 3986 3.1, 3.2):
/// what step 0 ([`crate::scope`]) compares. A path (`/a`) has neither; `//host/a` has no scheme.
pub fn scheme_and_authority(url: &str) -> (Option<&str>, Option<&str>) {
    let (scheme, rest) = match scheme_end(url.as_bytes()) {
        Some(colon) => (Some(&url[..colon]), &url[colon + 1..]),
        None => (None, url),
    };
    let authority = rest.strip_prefix("//").map(|after| {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        &after[..end]
    });
    (scheme, authority)
}

/// Why `url` cannot be asked about, or `Ok` when it can: the one test `check`, `check --batch`,
/// the playground and the corpus's loader apply before the oracle (which answers anything) is
/// asked. A path starting with `/` (a reference on the robots.txt file's own service) can always
/// be asked. An absolute URL (`scheme:`, RFC 3986 3.1) must name a host whose robots.txt file could
/// govern it (rfc9309#2.3: the file is at `scheme:[//authority]/robots.txt`):
/// - an authority (`//host`, RFC 3986 3.2), so `javascript:alert(1)` and `mailto:a@b` are refused;
/// - a host that is not empty (RFC 3986 3.2.2; RFC 9110 4.2.1: "A sender MUST NOT generate an
///   "http" URI with an empty host identifier"), so `http://` and `http://:80/` are refused;
/// - a host without white space, control characters or characters no host may hold, or a
///   bracketed IP literal (RFC 3986 3.2.2);
/// - a port, when given, of digits from 0 to 65535 (RFC 3986 3.2.3: `port = *DIGIT`; a TCP port is
///   16 bits, RFC 9293 3.1), so `http://example.com:99999/x` is refused; an empty port
///   (`http://example.com:/`) is the scheme's default (RFC 3986 3.2.3).
///
/// Other schemes with a host are asked about (`rfc9309#2.3` names FTP; scope, step 0, decides
/// whether a file governs them). The path and query may hold any octets (the corpus asks about raw
/// spaces and non-ASCII on purpose).
pub fn check_request_url(url: &str) -> Result<(), String> {
    if url.starts_with('/') {
        return Ok(());
    }
    let (scheme, authority) = scheme_and_authority(url);
    if scheme.is_none() {
        return Err(format!(
            "url `{url}` is neither an absolute URL (`https://example.com/a`) nor a path starting \
             with `/`"
        ));
    }
    check_authority(url, authority)
}

/// [`check_request_url`] for a URL that must be absolute (a robots.txt URL, or a URL compared
/// with one): a path alone is refused too.
pub fn check_absolute_url(url: &str) -> Result<(), String> {
    if scheme_and_authority(url).0.is_none() {
        return Err(format!(
            "`{url}` is not an absolute URL: write the scheme and host, e.g. \
             `https://example.com/robots.txt`"
        ));
    }
    check_request_url(url)
}

/// The authority test of [`check_request_url`] for an absolute `url`.
fn check_authority(url: &str, authority: Option<&str>) -> Result<(), String> {
    let refuse = |why: String| Err(format!("url `{url}` cannot be asked about: {why}"));
    let Some(authority) = authority else {
        return refuse(
            "it names no host (RFC 3986 3.2: no `//` authority), so no robots.txt file governs \
             it (rfc9309#2.3: the file is at scheme:[//authority]/robots.txt); ask about an \
             http or https URL such as `https://example.com/page`"
                .to_string(),
        );
    };
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if let Some(literal) = host_port.strip_prefix('[') {
        match literal.split_once(']') {
            Some(("", _)) => {
                return refuse("an empty IP literal `[]` (RFC 3986 3.2.2)".to_string())
            }
            Some((inner, "")) => (inner, None),
            Some((inner, rest)) => match rest.strip_prefix(':') {
                Some(port) => (inner, Some(port)),
                None => {
                    return refuse(
                        "text after the bracketed IP literal (RFC 3986 3.2.2)".to_string(),
                    )
                }
            },
            None => {
                return refuse(
                    "an IP literal `[` without its closing `]` (RFC 3986 3.2.2)".to_string(),
                )
            }
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    if host.is_empty() {
        return refuse(
            "the host is empty (RFC 3986 3.2.2; RFC 9110 4.2.1: \"A sender MUST NOT generate an \
             \"http\" URI with an empty host identifier\")"
                .to_string(),
        );
    }
    if host.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return refuse(
            "white space or a control character in the host (RFC 3986 3.2.2)".to_string(),
        );
    }
    if host.contains(['[', ']', '<', '>', '"', '{', '}', '|', '\\', '^', '`']) {
        return refuse("a character no host may hold (RFC 3986 3.2.2)".to_string());
    }
    if let Some(port) = port {
        if !port.chars().all(|c| c.is_ascii_digit()) {
            return refuse(format!(
                "the port `{port}` is not digits (RFC 3986 3.2.3: port = *DIGIT)"
            ));
        }
        // Leading zeros are allowed; a long run of digits is out of range however it starts.
        let value = port.trim_start_matches('0').parse::<u64>().unwrap_or(
            if port.trim_start_matches('0').is_empty() {
                0
            } else {
                u64::MAX
            },
        );
        if value > 65535 {
            return refuse(format!(
                "the port {port} is outside 0-65535 (RFC 3986 3.2.3; a TCP port is 16 bits, \
                 RFC 9293 3.1)"
            ));
        }
    }
    Ok(())
}

fn scheme_end(bytes: &[u8]) -> Option<usize> {
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let colon = bytes.iter().position(|&b| b == b':')?;
    bytes[..colon]
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        .then_some(colon)
}

/// K10: whether the URL names the robots.txt file itself, "the /robots.txt URI" that RFC 9309
/// exempts (`rfc9309#2.2.2`), whose form `rfc9309#2.3` gives as `scheme:[//authority]/robots.txt`,
/// all lower case. Two URIs are that URI when they are the same resource under RFC 3986:
/// - an escaped unreserved character is that character (RFC 3986 2.3 and 6.2.2.2; rfc9309#2.2.2
///   unencodes it before any comparison too), so `/%72obots.txt` is the file;
/// - the query is part of what identifies a resource (RFC 3986 3.4), so `/robots.txt?x=1` is
///   another URI, which the rules decide;
/// - the fragment is never sent (RFC 3986 3.5), and [`split`] has dropped it.
///
/// Which host's file it is, is a question of scope, not of this knob.
pub fn is_robots_txt_uri(split: &SplitUrl<'_>) -> bool {
    split.query.is_none() && unescape_unreserved(split.path).eq(b"/robots.txt".iter().copied())
}

/// `path` (or any component) with every `%xx` that encodes an unreserved character replaced by the
/// character (RFC 3986 6.2.2.2); other octets as they are. The fuzzer's edits use it too.
pub fn unescape_unreserved(path: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let mut i = 0;
    std::iter::from_fn(
        move || match path.get(i..).and_then(crate::encoding::escaped_octet) {
            Some(b) if crate::encoding::is_unreserved(b) => {
                i += 3;
                Some(b)
            }
            _ => {
                i += 1;
                path.get(i - 1).copied()
            }
        },
    )
}

/// `text` with every `%xx` replaced by its octet (a host's percent-encoded UTF-8, RFC 3986 3.2.2);
/// a `%` not followed by two hex digits is kept. The real-world report uses it too.
pub fn percent_decode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match crate::encoding::escaped_octet(&text[i..]) {
            Some(octet) => {
                out.push(octet);
                i += 3;
            }
            _ => {
                out.push(text[i]);
                i += 1;
            }
        }
    }
    out
}

/// The octets rules are matched against (K8): the path, plus `?` and the query under
/// `PathAndQuery` (`rfc9309#2.2.2` Figure 4; `google#url-matching`).
pub fn match_target<'u>(split: &SplitUrl<'u>, match_target: MatchTarget) -> Cow<'u, [u8]> {
    match (match_target, split.query) {
        (MatchTarget::PathAndQuery, Some(query)) => Cow::Owned([split.path, b"?", query].concat()),
        _ => Cow::Borrowed(split.path),
    }
}

/// The match target normalised as rules are (K7, `rfc9309#2.2.2`): what patterns are matched
/// against.
pub fn normalised_target<'u>(split: &SplitUrl<'u>, knobs: TargetKnobs) -> Cow<'u, [u8]> {
    normalised(match_target(split, knobs.match_target), |t| {
        normalise(t, Side::Target, knobs.encoding, false).0
    })
}

/// [`normalised_target`] under the deviations of [`crate::deviation::TARGET`], each a layer
/// around it: a rewritten match target (D-empty-path-not-slash, D-fragment-kept), normalised under
/// the encoding deviations ([`normalise_deviating`]). Under no deviation it is
/// [`normalised_target`].
pub fn normalised_target_deviating<'u>(split: &SplitUrl<'u>, knobs: TargetKnobs) -> Cow<'u, [u8]> {
    if knobs.deviations.is_empty() {
        return normalised_target(split, knobs);
    }
    let mut target = match_target(split, knobs.match_target);
    if split.empty_path && knobs.deviations.has(Deviation::EmptyPathNotSlash) {
        // D-empty-path-not-slash, breaks rfc9309#2.2.2 (RFC 3986 6.2.3: an empty path is `/`).
        target.to_mut().remove(0);
    }
    if let (Some(fragment), true) = (
        split.fragment,
        knobs.deviations.has(Deviation::FragmentKept),
    ) {
        // D-fragment-kept, breaks rfc9309#2.2.2 (RFC 3986 3.5: the fragment is not sent).
        target.to_mut().extend_from_slice(fragment);
    }
    normalised(target, |t| {
        normalise_deviating(t, Side::Target, knobs.encoding, false, knobs.deviations).0
    })
}

/// `target` normalised by `normalise`, kept as it is (borrowed or owned) when it is its own normal
/// form.
fn normalised<'u>(
    target: Cow<'u, [u8]>,
    normalise: impl for<'t> Fn(&'t [u8]) -> Cow<'t, [u8]>,
) -> Cow<'u, [u8]> {
    match target {
        Cow::Borrowed(target) => normalise(target),
        Cow::Owned(target) => {
            let rewritten = match normalise(&target) {
                Cow::Owned(rewritten) => Some(rewritten),
                Cow::Borrowed(_) => None,
            };
            Cow::Owned(rewritten.unwrap_or(target))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_urls_that_name_no_host_an_empty_host_or_a_port_out_of_range() {
        for ok in [
            "/a",
            "//x/a",
            "https://example.com/a b",
            "http://example.com:/x",
            "http://example.com:0/x",
            "http://example.com:00080/x",
            "http://example.com:65535/x",
            "http://user@example.com/x",
            "http://[::1]:8080/x",
            "ftp://ftp.example.com/pub/file.txt",
            "gopher://example.com/page",
        ] {
            assert_eq!(check_request_url(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("http://", "the host is empty"),
            ("http://:80/x", "the host is empty"),
            ("http://user@/x", "the host is empty"),
            ("https:///x", "the host is empty"),
            ("http://example.com:99999/x", "outside 0-65535"),
            ("http://example.com:65536/x", "outside 0-65535"),
            (
                "http://example.com:123456789012345678901234/x",
                "outside 0-65535",
            ),
            ("http://example.com:8o/x", "not digits"),
            ("javascript:alert(1)", "names no host"),
            ("mailto:a@example.com", "names no host"),
            ("http:/x", "names no host"),
            ("http://[]/x", "empty IP literal"),
            ("http://[::1/x", "without its closing"),
            ("http://exa mple.com/x", "white space"),
            ("not a url", "neither an absolute URL"),
        ] {
            let message = check_request_url(bad).unwrap_err();
            assert!(message.contains(why), "{bad}: {message}");
            assert!(
                message.contains("RFC 3986") || why == "neither an absolute URL",
                "{message}"
            );
        }
        assert!(check_absolute_url("/robots.txt").is_err());
        assert_eq!(check_absolute_url("https://example.com/robots.txt"), Ok(()));
    }

    #[test]
    fn splits_absolute_urls_and_paths() {
        let s = split("https://example.com:8080/a/b?c=d#frag");
        assert_eq!((s.path, s.query), (&b"/a/b"[..], Some(&b"c=d"[..])));
        let s = split("https://example.com");
        assert_eq!((s.path, s.query), (&b"/"[..], None));
        let s = split("https://example.com?x");
        assert_eq!((s.path, s.query), (&b"/"[..], Some(&b"x"[..])));
        let s = split("/p/../q?");
        assert_eq!((s.path, s.query), (&b"/p/../q"[..], Some(&b""[..])));
        let s = split("/a:b");
        assert_eq!(s.path, b"/a:b");
    }

    #[test]
    fn the_robots_txt_uri_is_its_path_up_to_unreserved_escapes_and_without_a_query() {
        let is = |url| is_robots_txt_uri(&split(url));
        for url in [
            "/robots.txt",
            "https://example.com/robots.txt",
            "https://example.com/robots.txt#top",
            "/%72obots.txt",
            "/robots%2Etxt",
            "/robots%2etxt",
            "/%72%6F%62%6f%74%73%2E%74%78%74",
        ] {
            assert!(is(url), "{url} is the robots.txt URI");
        }
        for url in [
            "/robots.txt?x=1",
            "/robots.txt?",
            "/ROBOTS.TXT",
            "/robots.txt/",
            "/robots.txt.bak",
            "/folder/robots.txt",
            "//robots.txt",
            "/%2Frobots.txt",
            "%2Frobots.txt",
            "/robots.txt%00",
            "/robots%2",
        ] {
            assert!(!is(url), "{url} is not the robots.txt URI");
        }
    }
}
