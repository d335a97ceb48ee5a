//! Step 6a, percent-encoding (K7): both the pattern and the target are brought to one canonical
//! form before octets are compared.

use std::borrow::Cow;

use crate::deviation::{Deviation, Deviations};
use crate::knobs::Encoding;

/// Which side of the comparison is being normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A literal piece of a rule's pattern (never holds a wildcard `*` or an anchoring `$`).
    Pattern,
    /// The URL's path and query.
    Target,
}

/// RFC 3986 2.3: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 2.2's reserved characters that can be data where `in_query` says (Figure 4 of RFC 9309
/// encodes `:` and `/` in a query value): every reserved character but those with a fixed role. `#`
/// ends the URI's query (and starts a comment in a rule); `*` and `$` are rfc9309#2.2.3's special
/// characters, encoded in the target and special in a pattern on their own terms; in the path, `/`
/// separates segments and `?` starts the query (RFC 3986 3.3), while in the query both may be data
/// (RFC 3986 3.4).
/// The reserved characters of a query that RFC 9309 compares percent-encoded under every reading:
/// Figure 4 row 2 turns a query value's raw `https://foo.bar` into `https%3A%2F%2Ffoo.bar`, as 2.2.2
/// says ("Octets in the URI and robots.txt paths ... in the reserved range ... MUST be
/// percent-encoded ... prior to comparison"), while row 1 keeps `?` and `=` raw: the other reserved
/// characters of a query stay open (`reserved_in_query_equivalent`).
pub(crate) fn is_encoded_in_query(b: u8) -> bool {
    matches!(b, b':' | b'/')
}

pub(crate) fn is_reserved_data(b: u8, in_query: bool) -> bool {
    match b {
        b':' | b'@' | b'[' | b']' | b'!' | b'&' | b'\'' | b'(' | b')' | b'+' | b',' | b';'
        | b'=' => true,
        b'/' | b'?' => in_query,
        _ => false,
    }
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The octet a percent-escape at the start of `bytes` encodes (`%7E` is `~`, `%7e` too: RFC 3986
/// 2.1 makes the hex digits' case irrelevant); `None` when `bytes` does not start with one. The
/// one `%XX` decoder of the workspace: the fuzzer's edits and the real-world report use it too.
pub fn escaped_octet(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [b'%', h, l, ..] => Some(hex_value(*h)? * 16 + hex_value(*l)?),
        _ => None,
    }
}

fn push_escaped(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

/// Normalises `input` for comparison. `in_query` says whether `input` starts inside the query
/// (after the first `?`); the return value says whether it ends there.
pub fn normalise(
    input: &[u8],
    side: Side,
    encoding: Encoding,
    in_query: bool,
) -> (Cow<'_, [u8]>, bool) {
    // Most pieces hold no octet any rule below rewrites: they are their own normal form. In the
    // others, the octets before the first such octet are copied as they are.
    let Some(first) = input
        .iter()
        .position(|&b| !kept_as_is(b, encoding, in_query))
    else {
        return (Cow::Borrowed(input), in_query);
    };
    let rest = &input[first..];
    let mut out = Vec::with_capacity(input.len() + rest.len() / 4);
    out.extend_from_slice(&input[..first]);
    let in_query = normalise_each_octet(rest, side, encoding, in_query, Deviations::NONE, &mut out);
    (Cow::Owned(out), in_query)
}

/// [`normalise`] under a set of deviations (those of [`crate::deviation::TARGET`] and
/// [`crate::deviation::PATTERN`] that concern encoding matter).
pub fn normalise_deviating(
    input: &[u8],
    side: Side,
    encoding: Encoding,
    in_query: bool,
    deviations: Deviations,
) -> (Cow<'_, [u8]>, bool) {
    let encoding_deviations = deviations.only(&[
        Deviation::DecodeReserved,
        Deviation::EscapeCaseRulesOnly,
        Deviation::UrlNonAsciiRaw,
        Deviation::UrlSpecialsRaw,
    ]);
    let (mut out, in_query) = if encoding_deviations.is_empty() {
        normalise(input, side, encoding, in_query)
    } else {
        let decoded;
        let input = if deviations.has(Deviation::DecodeReserved) {
            // D-decode-reserved, breaks rfc9309#2.2.2 ("unless it is a reserved character") and
            // draft-1996#3.2.2 ("except %2F"): every escape is decoded first (but those of `%`,
            // `*` and `$`, whose decoding would make them special), then normalised as usual.
            decoded = decode_all(input);
            &decoded[..]
        } else {
            input
        };
        let mut out = Vec::with_capacity(input.len() + input.len() / 4);
        let in_query = normalise_each_octet(
            input,
            side,
            encoding,
            in_query,
            encoding_deviations,
            &mut out,
        );
        (Cow::Owned(out), in_query)
    };
    if deviations.has(Deviation::CaseInsensitivePaths) && out.iter().any(u8::is_ascii_uppercase) {
        // D-case-insensitive-paths, breaks rfc9309#2.2.2 ("The matching SHOULD be case
        // sensitive"): both sides are folded to lower case.
        out.to_mut().make_ascii_lowercase();
    }
    (out, in_query)
}

/// Every `%xx` decoded but those of `%`, `*` and `$` (D-decode-reserved).
fn decode_all(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        match escaped_octet(&input[i..]) {
            Some(value) if !matches!(value, b'%' | b'*' | b'$') => {
                out.push(value);
                i += 3;
            }
            _ => {
                out.push(input[i]);
                i += 1;
            }
        }
    }
    out
}

/// Whether [`normalise_each_octet`] copies `b` unchanged and stays in or out of the query, whatever
/// the side and the octets around it (a conservative test: a `false` only means "look closer").
fn kept_as_is(b: u8, encoding: Encoding, in_query: bool) -> bool {
    match encoding {
        Encoding::Rfc9309 {
            reserved_in_path_equivalent,
            reserved_in_query_equivalent,
            query_colon_slash_encoded,
            ..
        } => {
            let reserved_encoded = if in_query {
                reserved_in_query_equivalent
            } else {
                reserved_in_path_equivalent
            };
            let rewritten = b >= 0x80
                || matches!(b, b'%' | b'?' | b'*' | b'$')
                || (reserved_encoded && is_reserved_data(b, true))
                || (query_colon_slash_encoded && in_query && is_encoded_in_query(b));
            !rewritten
        }
        Encoding::NonAsciiOnly => b < 0x80 && b != b'%',
        Encoding::DecodeAllButSlash | Encoding::DecodeAll => b != b'%',
        Encoding::Raw => true,
    }
}

/// [`normalise`], octet by octet: the rules themselves. The normal form is appended to `out`; the
/// return value says whether `input` ends inside the query.
fn normalise_each_octet(
    input: &[u8],
    side: Side,
    encoding: Encoding,
    in_query: bool,
    deviations: Deviations,
    out: &mut Vec<u8>,
) -> bool {
    let target = side == Side::Target;
    // D-url-non-ascii-raw, breaks rfc9309#2.2.2 (octets outside ASCII "MUST be percent-encoded")
    // and google#url-matching: the URL's non-ASCII octets are compared as they are.
    let raw_non_ascii = target && deviations.has(Deviation::UrlNonAsciiRaw);
    // D-url-specials-raw, breaks rfc9309#2.2.3 (Figure 6): the URL's `*` and `$` stay raw.
    let raw_specials = target && deviations.has(Deviation::UrlSpecialsRaw);
    // D-escape-case-rules-only, breaks rfc9309#2.2.2 (RFC 3986 2.1: hex case is irrelevant):
    // escapes are upper-cased in rules and copied as written from the URL.
    let escape_case = deviations.has(Deviation::EscapeCaseRulesOnly);
    let mut in_query = in_query;
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        let escaped = escaped_octet(&input[i..]);
        match encoding {
            Encoding::Rfc9309 {
                reserved_in_path_equivalent,
                reserved_in_query_equivalent,
                rfc3986_spellings,
                query_colon_slash_encoded,
            } => {
                if let Some(value) = escaped {
                    // rfc9309#2.2.2: a percent-encoded unreserved ASCII octet "in the URI" is
                    // decoded; any other escape stays encoded. No sentence decodes one in a rule,
                    // nor upper-cases an escape, while RFC 3986 2.3 and 2.1 make those spellings
                    // equivalent: K7, open (`rfc3986_spellings`).
                    if is_unreserved(value) && (target || rfc3986_spellings) {
                        out.push(value);
                    } else if (escape_case && target) || !rfc3986_spellings {
                        out.extend_from_slice(&input[i..i + 3]);
                    } else {
                        push_escaped(out, value);
                    }
                    i += 3;
                    continue;
                }
                if b == b'?' && !in_query {
                    in_query = true;
                    out.push(b);
                } else if b >= 0x80 && raw_non_ascii {
                    out.push(b);
                } else if b >= 0x80 {
                    // rfc9309#2.2.2: octets outside ASCII are compared percent-encoded.
                    push_escaped(out, b);
                } else if side == Side::Target && (b == b'*' || b == b'$') && !raw_specials {
                    // rfc9309#2.2.3 Figure 6: a literal `*` or `$` in the URI is what a pattern's
                    // `%2A` or `%24` matches; bare `*` and `$` in a pattern stay special.
                    push_escaped(out, b);
                } else if side == Side::Pattern && b == b'$' {
                    // A `$` inside a pattern (K6, MidDollar::Literal) is a literal `$`.
                    push_escaped(out, b);
                } else if query_colon_slash_encoded && in_query && is_encoded_in_query(b) {
                    // rfc9309#2.2.2 and rfc9309#figure-4 (row 2): `:` and `/` in the query are
                    // compared percent-encoded (erratum 7128 questions the row).
                    push_escaped(out, b);
                } else if is_reserved_data(b, in_query)
                    && (if in_query {
                        reserved_in_query_equivalent
                    } else {
                        reserved_in_path_equivalent
                    })
                {
                    // rfc9309#2.2.2, read literally: reserved octets "MUST be percent-encoded ...
                    // prior to comparison", so a raw reserved character that is data equals its
                    // escape (Figure 4 row 2 does so in a query value). K7, open: see
                    // `docs/profiles.md`.
                    push_escaped(out, b);
                } else {
                    out.push(b);
                }
            }
            Encoding::NonAsciiOnly => {
                if let (Some(value), true, false) = (escaped, escape_case, target) {
                    push_escaped(out, value);
                    i += 3;
                    continue;
                }
                // google#url-matching: non-ASCII characters may be written "as percent-escaped
                // UTF-8 encoded characters per RFC 3986", whose 2.1 makes the hex digits' case
                // equivalent: such an escape is compared in upper case (escapes of ASCII octets
                // the page does not discuss: kept as written, K7 open).
                if let Some(value) = escaped.filter(|&v| v >= 0x80 && !(escape_case && target)) {
                    push_escaped(out, value);
                    i += 3;
                    continue;
                }
                // google#url-matching: UTF-8 and percent-escaped UTF-8 are the same.
                if b >= 0x80 && !raw_non_ascii {
                    push_escaped(out, b);
                } else {
                    out.push(b);
                }
            }
            Encoding::DecodeAllButSlash | Encoding::DecodeAll => {
                // draft-1996#3.2.2: %xx is decoded before comparing, except %2F; hex case is
                // irrelevant. The 1994 text has no exception (`DecodeAll`, one of its readings).
                match escaped {
                    Some(b'/') if encoding == Encoding::DecodeAllButSlash => {
                        out.extend_from_slice(b"%2F");
                        i += 3;
                        continue;
                    }
                    Some(value) => {
                        out.push(value);
                        i += 3;
                        continue;
                    }
                    None => out.push(b),
                }
            }
            Encoding::Raw => out.push(b),
        }
        i += 1;
    }
    in_query
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC: Encoding = crate::knobs::RFC9309_ENCODING;

    /// RFC 9309's encoding with the reserved-character readings given.
    fn rfc(path: bool, query: bool, spellings: bool) -> Encoding {
        Encoding::Rfc9309 {
            reserved_in_path_equivalent: path,
            reserved_in_query_equivalent: query,
            rfc3986_spellings: spellings,
            query_colon_slash_encoded: true,
        }
    }

    fn target(s: &str, e: Encoding) -> String {
        String::from_utf8(
            normalise(s.as_bytes(), Side::Target, e, false)
                .0
                .into_owned(),
        )
        .unwrap()
    }

    #[test]
    fn rfc9309_figure_4() {
        assert_eq!(target("/foo/bar?baz=quz", RFC), "/foo/bar?baz=quz");
        assert_eq!(target("/foo/bar/ツ", RFC), "/foo/bar/%E3%83%84");
        assert_eq!(target("/foo/bar/%e3%83%84", RFC), "/foo/bar/%E3%83%84");
        assert_eq!(target("/foo/bar/%62%61%7A", RFC), "/foo/bar/baz");
        assert_eq!(target("/a%2fb", RFC), "/a%2Fb");
        // Row 2: `:` and `/` in the query are compared percent-encoded under every reading; `?`
        // and `=` stay as row 1 writes them.
        assert_eq!(
            target("/foo/bar?baz=https://foo.bar", RFC),
            "/foo/bar?baz=https%3A%2F%2Ffoo.bar"
        );
        let fig4 = rfc(false, true, true);
        assert_eq!(
            target("/foo/bar?baz=https://foo.bar", fig4),
            "/foo/bar?baz%3Dhttps%3A%2F%2Ffoo.bar"
        );
        let in_path = rfc(true, false, true);
        // In the path `/` separates segments and is never encoded; in the query it is data, and
        // `:` there is encoded under every reading (row 2).
        assert_eq!(
            target("/a:b/c;d=e?f=g:h", in_path),
            "/a%3Ab/c%3Bd%3De?f=g%3Ah"
        );
        assert_eq!(target("/a%3ab", in_path), "/a%3Ab");
    }

    #[test]
    fn rfc9309_figure_6_specials_in_target() {
        assert_eq!(
            target("/path/file-with-a-*.html", RFC),
            "/path/file-with-a-%2A.html"
        );
        assert_eq!(target("/path/foo-$", RFC), "/path/foo-%24");
    }

    #[test]
    fn draft_1996_decodes_all_but_slash() {
        let d = Encoding::DecodeAllButSlash;
        assert_eq!(target("/%7ejoe/a%3Cd", d), "/~joe/a<d");
        assert_eq!(target("/a%2fb", d), "/a%2Fb");
    }

    #[test]
    fn the_shortcut_agrees_with_the_rules() {
        let encodings = [
            RFC,
            rfc(false, true, true),
            rfc(true, false, false),
            Encoding::Rfc9309 {
                reserved_in_path_equivalent: false,
                reserved_in_query_equivalent: true,
                rfc3986_spellings: false,
                query_colon_slash_encoded: false,
            },
            Encoding::NonAsciiOnly,
            Encoding::DecodeAllButSlash,
            Encoding::DecodeAll,
            Encoding::Raw,
        ];
        // Every string of up to three octets from a set holding each kind of octet the rules treat
        // apart, plus plain ones.
        let octets = b"a/%2F?*$:@[]~=;\x80\xE3 zA";
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..3 {
            let longer: Vec<Vec<u8>> = inputs
                .iter()
                .flat_map(|s| {
                    octets.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            inputs.extend(longer);
        }
        for input in &inputs {
            for encoding in encodings {
                for side in [Side::Pattern, Side::Target] {
                    for in_query in [false, true] {
                        let (fast, fast_in_query) = normalise(input, side, encoding, in_query);
                        let mut each = Vec::new();
                        let each_in_query = normalise_each_octet(
                            input,
                            side,
                            encoding,
                            in_query,
                            Deviations::NONE,
                            &mut each,
                        );
                        assert_eq!(
                            (fast.into_owned(), fast_in_query),
                            (each, each_in_query),
                            "{input:?} {encoding:?} {side:?} {in_query}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_rules_unreserved_escape_is_decoded_only_under_rfc_3986s_spellings() {
        let pattern = |s: &str, spellings: bool| {
            let encoding = rfc(false, false, spellings);
            normalise(s.as_bytes(), Side::Pattern, encoding, false)
                .0
                .into_owned()
        };
        assert_eq!(pattern("/%7ejoe", true), b"/~joe");
        // Kept as written, hex case too.
        assert_eq!(pattern("/%7ejoe", false), b"/%7ejoe");
        // The URI's are always decoded (rfc9309#2.2.2).
        assert_eq!(target("/%7ejoe", RFC), "/~joe");
        assert_eq!(target("/%7ejoe", rfc(false, false, false)), "/~joe");
    }

    #[test]
    fn google_compares_non_ascii_escapes_in_upper_case_and_others_as_written() {
        let google = Encoding::NonAsciiOnly;
        assert_eq!(target("/caf%c3%a9", google), "/caf%C3%A9");
        assert_eq!(target("/caf\u{e9}", google), "/caf%C3%A9");
        assert_eq!(target("/a%3cd%7e", google), "/a%3cd%7e");
    }

    #[test]
    fn hex_case_is_kept_only_under_its_reading() {
        let kept = rfc(false, false, false);
        assert_eq!(target("/a%3cd/%e3%83%84", RFC), "/a%3Cd/%E3%83%84");
        assert_eq!(target("/a%3cd/%e3%83%84", kept), "/a%3cd/%e3%83%84");
        // The crawler's own escapes are upper-case, and unreserved ones are still decoded.
        assert_eq!(target("/ツ/%7e", kept), "/%E3%83%84/~");
    }

    #[test]
    fn erratum_7128_leaves_colon_and_slash_in_a_query_to_the_reserved_reading() {
        let erratum = |query: bool| Encoding::Rfc9309 {
            reserved_in_path_equivalent: false,
            reserved_in_query_equivalent: query,
            rfc3986_spellings: true,
            query_colon_slash_encoded: false,
        };
        assert_eq!(target("/a?b=https://c", erratum(false)), "/a?b=https://c");
        assert_eq!(
            target("/a?b=https://c", erratum(true)),
            "/a?b%3Dhttps%3A%2F%2Fc"
        );
    }

    #[test]
    fn the_1994_decoding_has_no_exception() {
        assert_eq!(target("/a%2fb/%7e", Encoding::DecodeAll), "/a/b/~");
    }

    #[test]
    fn stray_percent_is_kept() {
        assert_eq!(target("/100%", RFC), "/100%");
        assert_eq!(target("/%zz", Encoding::DecodeAllButSlash), "/%zz");
    }
}
