//! Step 5, the URL: split by RFC 3986's generic syntax, octet for octet, with no normalisation
//! (resolving `..`, re-encoding or lower-casing would change what is matched).

use crate::encoding::{normalise, Side};
use crate::profile::{Encoding, Knobs, MatchTarget};

/// The knobs the match target reads (K8, K7 encoding): readings that agree on them share one
/// normalised target (see [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetKnobs {
    /// K8: what part of the URL is matched.
    pub match_target: MatchTarget,
    /// K7: percent-encoding normalisation.
    pub encoding: Encoding,
}

impl TargetKnobs {
    /// The target knobs of a reading.
    pub fn of(knobs: &Knobs) -> TargetKnobs {
        TargetKnobs {
            match_target: knobs.match_target,
            encoding: knobs.encoding,
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
    if let Some(hash) = memchr::memchr(b'#', rest) {
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
    }
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

/// The octets rules are matched against (K8): the path, plus `?` and the query under
/// `PathAndQuery` (`rfc9309#2.2.2` Figure 4; `google#url-matching`).
pub fn match_target(split: &SplitUrl<'_>, match_target: MatchTarget) -> Vec<u8> {
    let mut target = split.path.to_vec();
    if match_target == MatchTarget::PathAndQuery {
        if let Some(query) = split.query {
            target.push(b'?');
            target.extend_from_slice(query);
        }
    }
    target
}

/// The match target normalised as rules are (K7, `rfc9309#2.2.2`): what patterns are matched
/// against.
pub fn normalised_target(split: &SplitUrl<'_>, knobs: TargetKnobs) -> Vec<u8> {
    let target = match_target(split, knobs.match_target);
    normalise(&target, Side::Target, knobs.encoding, false).0
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
