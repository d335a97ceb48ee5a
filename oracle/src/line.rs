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
/// comment. `None` when the line has no colon. The value's white space is never part of it:
/// `rfc9309#2.2` (`":" *WS value` then `EOL = *WS`), `google#syntax`, `norobots-1994#format`
/// (`<optional_space><value><optional_space>`), `draft-1996#3.3` (`*space path *space`). Whether
/// white space may stand before the field or the colon is K13's [`FieldSpacing`], which
/// [`classify`] applies.
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

/// K13: where spaces and tabs may stand around a line's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum FieldSpacing {
    /// Before the field, around the colon and after the value: `rfc9309#2.2`'s ABNF
    /// (`*WS "user-agent" *WS ":" *WS`); `google#syntax`: "Space at the beginning and at the end of
    /// the line is ignored", "Spaces are optional".
    Around,
    /// Only after the colon and after the value: the field starts the line and ends at the colon.
    /// `norobots-1994#format`: lines "в форме `"<field>:<optional_space><value><optional_space>"`"
    /// (in the form); `draft-1996#3.3`: `"Disallow:" *space path *space`. A line with white space
    /// before its field or its colon names no field these documents know: an unrecognised line
    /// ("Нераспознанные строки игнорируются", unrecognised lines are ignored).
    AfterColonOnly,
}

/// Whether `line` reads differently under the two [`FieldSpacing`] settings: white space before its
/// field or right before its first colon (the comment removed).
pub fn spacing_can_matter(line: &[u8]) -> bool {
    let content = strip_comment(line);
    match memchr::memchr(b':', content) {
        Some(colon) => {
            content.first().is_some_and(|&b| is_ws(b)) || (colon > 0 && is_ws(content[colon - 1]))
        }
        None => false,
    }
}

/// Classifies one line (K13); `allow_directive` is K5, whether `Allow` is a rule, and `spacing` K13's
/// white space around the field. Field names compare case-insensitively and exactly:
/// `rfc9309#2.2.4` permits leniency only for records outside the protocol; `norobots-1994#format`:
/// "Поле `<field>` является регистронезависимым" (the field is case-insensitive); `draft-1996#3.3`
/// writes its literals by RFC 822's conventions, which ignore case.
pub fn classify<'a>(line: &Line<'a>, allow_directive: bool, spacing: FieldSpacing) -> LineKind<'a> {
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
    if spacing == FieldSpacing::AfterColonOnly && spacing_can_matter(bytes) {
        // An unrecognised line: its field, as written, is no field the document names.
        return LineKind::Other(field);
    }
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
/// setting and the same `spacing` (K13). K5 decides only what a line whose field is `allow` is, so only those lines are
/// classified again; every other kind is the same under both settings.
pub fn reclassify<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
    spacing: FieldSpacing,
) -> Vec<LineKind<'a>> {
    lines
        .iter()
        .zip(other)
        .map(|(line, &kind)| match kind {
            LineKind::Allow(_) => classify(line, allow_directive, spacing),
            LineKind::Other(field) if field.eq_ignore_ascii_case(b"allow") => {
                classify(line, allow_directive, spacing)
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
            profile.base_knobs().field_spacing,
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
            for spacing in [FieldSpacing::Around, FieldSpacing::AfterColonOnly] {
                let other: Vec<_> = lines.iter().map(|l| classify(l, !allow, spacing)).collect();
                let direct: Vec<_> = lines.iter().map(|l| classify(l, allow, spacing)).collect();
                assert_eq!(
                    reclassify(&lines, &other, allow, spacing),
                    direct,
                    "allow {allow}, {spacing:?}"
                );
            }
        }
    }

    #[test]
    fn the_1994_form_has_no_white_space_before_the_field_or_the_colon() {
        for line in [
            &b" Disallow: /a"[..],
            b"\tUser-agent: x",
            b"Disallow : /a",
            b"Disallow\t:/a",
        ] {
            assert!(spacing_can_matter(line), "{line:?}");
            assert!(
                matches!(kind(line, ProfileId::Original1994), LineKind::Other(_)),
                "{line:?}"
            );
            assert!(
                !matches!(kind(line, ProfileId::Rfc9309), LineKind::Other(_)),
                "{line:?}"
            );
        }
        for line in [
            &b"Disallow:  /a  "[..],
            b"Disallow:\t/a",
            b"Disallow: /a # x : y",
            b"  # a: b",
        ] {
            assert!(
                !matches!(kind(line, ProfileId::Original1994), LineKind::Other(_)),
                "{line:?}"
            );
        }
        assert!(!spacing_can_matter(b"Disallow: /a # x :"));
        assert!(!spacing_can_matter(b"no colon"));
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
