//! Step 2, lines: comments, `field: value`, and what kind of line it is.

use crate::body::Line;

/// What one line is, after comment removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind<'a> {
    /// Only spaces and tabs (a record separator for the 1994/1996 profiles).
    Blank,
    /// Only a comment (with optional leading white space).
    Comment,
    /// `user-agent: value`.
    UserAgent(&'a [u8]),
    /// `allow: value` (only when the profile knows `Allow`, K5).
    Allow(&'a [u8]),
    /// `disallow: value`.
    Disallow(&'a [u8]),
    /// Any other `field: value` line (sitemap, crawl-delay, misspellings, `Allow` under 1994).
    Other(&'a [u8]),
    /// No colon: not a record at all.
    Invalid,
}

/// Spaces and tabs (`rfc9309#2.2` WS; `draft-1996#3.3` space).
pub fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Trims spaces and tabs at both ends.
pub fn trim_ws(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if is_ws(*first) {
            s = rest
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if is_ws(*last) {
            s = rest
        } else {
            break;
        }
    }
    s
}

/// Removes the comment: `#` to the end of the line (`rfc9309#2.2.3`, `google#syntax`,
/// `draft-1996#3.2`, `norobots-1994#format`).
pub fn strip_comment(line: &[u8]) -> &[u8] {
    match memchr::memchr(b'#', line) {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Splits a line into its trimmed field name and value at the first colon, after removing the
/// comment (`rfc9309#2.2`: `*WS field *WS ":" *WS value`). `None` when the line has no colon.
pub fn field_and_value(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let content = strip_comment(line);
    let colon = memchr::memchr(b':', content)?;
    Some((trim_ws(&content[..colon]), trim_ws(&content[colon + 1..])))
}

/// Whether a (trimmed) field name makes a line a user-agent line or a rule (`Allow` counted), the
/// lines that take part in grouping.
pub fn names_a_group_line(field: &[u8]) -> bool {
    [&b"user-agent"[..], b"allow", b"disallow"]
        .iter()
        .any(|name| field.eq_ignore_ascii_case(name))
}

/// Classifies one line (K13); `allow_directive` is K5, whether `Allow` is a rule. Field names compare
/// case-insensitively and exactly: `rfc9309#2.2.4` permits leniency only for records outside the
/// protocol.
pub fn classify<'a>(line: &Line<'a>, allow_directive: bool) -> LineKind<'a> {
    let bytes = line.bytes;
    if trim_ws(bytes).is_empty() {
        return LineKind::Blank;
    }
    if trim_ws(bytes).first() == Some(&b'#') {
        return LineKind::Comment;
    }
    let Some((field, value)) = field_and_value(bytes) else {
        return LineKind::Invalid;
    };
    if field.eq_ignore_ascii_case(b"user-agent") {
        LineKind::UserAgent(value)
    } else if field.eq_ignore_ascii_case(b"disallow") {
        LineKind::Disallow(value)
    } else if field.eq_ignore_ascii_case(b"allow") && allow_directive {
        LineKind::Allow(value)
    } else {
        LineKind::Other(field)
    }
}

/// The kinds of `lines` under `allow_directive` (K5), from their kinds `other` under the other K5
/// setting. K5 decides only what a line whose field is `allow` is, so only those lines are
/// classified again; every other kind is the same under both settings.
pub fn reclassify<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
) -> Vec<LineKind<'a>> {
    lines
        .iter()
        .zip(other)
        .map(|(line, &kind)| match kind {
            LineKind::Allow(_) => classify(line, allow_directive),
            LineKind::Other(field) if field.eq_ignore_ascii_case(b"allow") => {
                classify(line, allow_directive)
            }
            kind => kind,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfileId;

    fn kind(text: &[u8], profile: ProfileId) -> LineKind<'_> {
        classify(
            &Line {
                number: 1,
                bytes: text,
            },
            profile.base_knobs().allow_directive,
        )
    }

    #[test]
    fn fields_are_case_insensitive_and_trimmed() {
        assert_eq!(
            kind(b" DisAllow \t:\t/a # c", ProfileId::Rfc9309),
            LineKind::Disallow(b"/a")
        );
        assert_eq!(
            kind(b"USER-AGENT:*", ProfileId::Rfc9309),
            LineKind::UserAgent(b"*")
        );
    }

    #[test]
    fn blank_comment_invalid_other() {
        assert_eq!(kind(b" \t", ProfileId::Rfc9309), LineKind::Blank);
        assert_eq!(kind(b"  # x", ProfileId::Rfc9309), LineKind::Comment);
        assert_eq!(kind(b"Disallow /a", ProfileId::Rfc9309), LineKind::Invalid);
        assert_eq!(
            kind(b"disalow: /a", ProfileId::Rfc9309),
            LineKind::Other(b"disalow")
        );
    }

    #[test]
    fn reclassifying_for_the_other_allow_setting_is_classifying() {
        let body: &[u8] = b"Allow: /a\n ALLOW :/b # c\nallow\nAllowed: /c\nDisallow: /d\n\
            User-agent: *\n# allow: /e\nSitemap: /f\n\n\tallow\t:\n";
        let lines = crate::body::split_lines(body);
        for allow in [false, true] {
            let other: Vec<_> = lines.iter().map(|l| classify(l, !allow)).collect();
            let direct: Vec<_> = lines.iter().map(|l| classify(l, allow)).collect();
            assert_eq!(reclassify(&lines, &other, allow), direct, "allow {allow}");
        }
    }

    #[test]
    fn allow_is_unknown_in_1994() {
        assert_eq!(
            kind(b"Allow: /a", ProfileId::Original1994),
            LineKind::Other(b"Allow")
        );
        assert_eq!(
            kind(b"Allow: /a", ProfileId::Draft1996),
            LineKind::Allow(b"/a")
        );
    }
}
