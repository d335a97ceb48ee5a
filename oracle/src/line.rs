//! Step 2, lines: comments, `field: value`, and what kind of line it is.

use crate::body::Line;
use crate::deviation::{Deviation, Deviations};
pub use crate::knobs::FieldSpacing;

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
    split_at_colon(line).map(|(field, value, _)| (field, value))
}

/// [`field_and_value`], with whether the line has white space before its field or its colon
/// ([`spacing_can_matter`]).
fn split_at_colon(line: &[u8]) -> Option<(&[u8], &[u8], bool)> {
    let content = strip_comment(line);
    let colon = memchr::memchr(b':', content)?;
    let spaced =
        content.first().is_some_and(|&b| is_ws(b)) || (colon > 0 && is_ws(content[colon - 1]));
    Some((
        trim_ws(&content[..colon]),
        trim_ws(&content[colon + 1..]),
        spaced,
    ))
}

/// Whether a (trimmed) field name makes a line a user-agent line or a rule (`Allow` counted), the
/// lines that take part in grouping.
pub fn names_a_group_line(field: &[u8]) -> bool {
    [&b"user-agent"[..], b"allow", b"disallow"]
        .iter()
        .any(|name| field.eq_ignore_ascii_case(name))
}

/// Whether `line` reads differently under the two [`FieldSpacing`] settings: white space before its
/// field or right before its first colon (the comment removed).
pub fn spacing_can_matter(line: &[u8]) -> bool {
    split_at_colon(line).is_some_and(|(_, _, spaced)| spaced)
}

/// Classifies one line (K13); `allow_directive` is K5, whether `Allow` is a rule, and `spacing` K13's
/// white space around the field. Field names compare case-insensitively and exactly:
/// `rfc9309#2.2.4` permits leniency only for records outside the protocol; `norobots-1994#format`:
/// "Поле `<field>` является регистронезависимым" (the field is case-insensitive); `draft-1996#3.3`
/// writes its literals by RFC 822's conventions, which ignore case.
pub fn classify<'a>(line: &Line<'a>, allow_directive: bool, spacing: FieldSpacing) -> LineKind<'a> {
    classify_with(line, allow_directive, spacing, Deviations::NONE)
}

/// [`classify`] under a set of deviations (those of [`crate::deviation::LINE`] matter).
pub fn classify_with<'a>(
    line: &Line<'a>,
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> LineKind<'a> {
    classify_noting_spacing(line, allow_directive, spacing, deviations).0
}

/// [`classify_with`], and whether the line reads differently under the two [`FieldSpacing`]
/// settings ([`spacing_can_matter`]), from one reading of the line.
pub fn classify_noting_spacing<'a>(
    line: &Line<'a>,
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> (LineKind<'a>, bool) {
    let bytes = line.bytes;
    if trim_ws(bytes).is_empty() {
        return (LineKind::Blank, false);
    }
    if trim_ws(bytes).first() == Some(&b'#') {
        return (LineKind::Comment, false);
    }
    let Some((field, value, spaced)) = split_at_colon(bytes).or_else(|| {
        deviations
            .has(Deviation::SpaceForColon)
            .then(|| two_words(bytes, deviations))
            .flatten()
            .map(|(field, value)| (field, value, false))
    }) else {
        if deviations.has(Deviation::NoColonLineIsBlank) && memchr::memchr(b'#', bytes).is_none() {
            // D-no-colon-line-is-blank, breaks norobots-1994#format ("Нераспознанные строки
            // игнорируются": unrecognised lines are ignored, they do not separate records).
            return (LineKind::Blank, false);
        }
        return (LineKind::Invalid, false);
    };
    (
        kind_of(field, value, spaced, allow_directive, spacing, deviations),
        spaced,
    )
}

/// The kind of a line with a field and a value (`spaced`: white space before the field or colon).
fn kind_of<'a>(
    field: &'a [u8],
    mut value: &'a [u8],
    spaced: bool,
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> LineKind<'a> {
    if spacing == FieldSpacing::AfterColonOnly && spaced {
        // An unrecognised line: its field, as written, is no field the document names.
        return LineKind::Other(field);
    }
    if deviations.has(Deviation::VerticalTabTrimmed) {
        // D-vertical-tab-trimmed, breaks rfc9309#2.2 (`WS = %x20 / %x09`).
        value = trim_ws_vt(value);
    }
    if is_field(field, b"user-agent", deviations) {
        LineKind::UserAgent(value)
    } else if is_field(field, b"disallow", deviations) {
        LineKind::Disallow(value)
    } else if is_field(field, b"allow", deviations) && allow_directive {
        LineKind::Allow(value)
    } else {
        LineKind::Other(field)
    }
}

/// Whether `field` names `name` (case-insensitively); under D-field-prefix (breaks rfc9309#2.2's
/// literals and `*WS ":"`), also a field that begins with `name`; under D-typo-fields (breaks
/// rfc9309#2.2's literals and google#syntax's list of fields), also one that begins with one of
/// its frequent misspellings.
fn is_field(field: &[u8], name: &[u8], deviations: Deviations) -> bool {
    let starts = |prefix: &[u8]| {
        field.len() >= prefix.len() && field[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    field.eq_ignore_ascii_case(name)
        || (deviations.has(Deviation::FieldPrefix) && starts(name))
        || (deviations.has(Deviation::TypoFields)
            && TYPOS.iter().any(|&(of, typo)| of == name && starts(typo)))
}

/// The misspellings D-typo-fields reads as fields: (field, misspelling).
pub const TYPOS: &[(&[u8], &[u8])] = &[
    (b"user-agent", b"useragent"),
    (b"user-agent", b"user agent"),
    (b"disallow", b"disalow"),
    (b"disallow", b"dissallow"),
    (b"disallow", b"dissalow"),
    (b"disallow", b"diasllow"),
    (b"disallow", b"disallaw"),
];

/// D-space-for-colon (breaks rfc9309#2.2's `":"`, google#syntax's `<field>:<value>`): a line
/// without a colon that is exactly two words, the first a field of the protocol, read as field
/// and value.
fn two_words(line: &[u8], deviations: Deviations) -> Option<(&[u8], &[u8])> {
    let content = trim_ws(strip_comment(line));
    let space = content.iter().position(|&b| is_ws(b))?;
    let (field, value) = (&content[..space], trim_ws(&content[space..]));
    let one_word = !value.is_empty() && !value.iter().any(|&b| is_ws(b));
    let known = [&b"user-agent"[..], b"allow", b"disallow"]
        .iter()
        .any(|name| is_field(field, name, deviations));
    (one_word && known).then_some((field, value))
}

/// Trims spaces, tabs, vertical tabs and form feeds at both ends (D-vertical-tab-trimmed).
fn trim_ws_vt(s: &[u8]) -> &[u8] {
    let ws = |b: &u8| is_ws(*b) || *b == 0x0B || *b == 0x0C;
    let start = s.iter().position(|b| !ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !ws(b)).map_or(start, |at| at + 1);
    &s[start..end]
}

/// The kinds of `lines` under `allow_directive` (K5), from their kinds `other` under the other K5
/// setting, the same `spacing` (K13) and the same `deviations`. K5 decides only what a line whose
/// field names `allow` is, so only those lines are classified again; every other kind is the same
/// under both settings.
pub fn reclassify<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> Vec<LineKind<'a>> {
    classify_again_where(
        lines,
        other,
        allow_directive,
        spacing,
        deviations,
        |_, kind| match kind {
            LineKind::Allow(_) => true,
            LineKind::Other(field) => is_field(field, b"allow", deviations),
            _ => false,
        },
    )
}

/// The kinds of `lines` under `spacing` (K13), from their kinds `other` under the other K13
/// setting, the same `allow_directive` (K5) and the same `deviations`. K13 decides only what a line
/// with white space before its field or its colon is ([`spacing_can_matter`], `spaced` per line),
/// so only those lines are classified again.
pub fn respace<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    spaced: &[bool],
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> Vec<LineKind<'a>> {
    classify_again_where(
        lines,
        other,
        allow_directive,
        spacing,
        deviations,
        |at, _| spaced[at],
    )
}

/// The kinds of `lines` under K5 `allow_directive`, K13 `spacing` and `deviations`, from their kinds
/// `other` under other settings: a line for which `again` (its place and kind) holds is classified
/// again, every other keeps its kind.
fn classify_again_where<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
    again: impl Fn(usize, LineKind<'a>) -> bool,
) -> Vec<LineKind<'a>> {
    lines
        .iter()
        .zip(other)
        .enumerate()
        .map(|(at, (line, &kind))| match again(at, kind) {
            true => classify_with(line, allow_directive, spacing, deviations),
            false => kind,
        })
        .collect()
}

/// The other setting of K13.
pub fn other_spacing(spacing: FieldSpacing) -> FieldSpacing {
    match spacing {
        FieldSpacing::Around => FieldSpacing::AfterColonOnly,
        FieldSpacing::AfterColonOnly => FieldSpacing::Around,
    }
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
    fn reclassifying_for_the_other_allow_or_spacing_setting_is_classifying() {
        let body: &[u8] = b"Allow: /a\n ALLOW :/b # c\nallow\nAllowed: /c\nDisallow: /d\n\
            User-agent: *\n# allow: /e\nSitemap: /f\n\n\tallow\t:\nallowance: /g\n\
            \tdisalow : /h\nuser-agent x\n  Disallow:\x0b/i\n";
        let lines = crate::body::split_lines(body);
        let spaced: Vec<bool> = lines.iter().map(|l| spacing_can_matter(l.bytes)).collect();
        let spacings = [FieldSpacing::Around, FieldSpacing::AfterColonOnly];
        let deviation_sets = [
            Deviations::NONE,
            Deviations::NONE.with(Deviation::FieldPrefix),
            Deviations::NONE.with(Deviation::TypoFields),
            Deviations::NONE.with(Deviation::SpaceForColon),
            Deviations::NONE.with(Deviation::VerticalTabTrimmed),
            Deviations::NONE.with(Deviation::NoColonLineIsBlank),
        ];
        for deviations in deviation_sets {
            let kinds = |allow: bool, spacing: FieldSpacing| -> Vec<_> {
                lines
                    .iter()
                    .map(|l| classify_with(l, allow, spacing, deviations))
                    .collect()
            };
            for allow in [false, true] {
                for spacing in spacings {
                    let direct = kinds(allow, spacing);
                    let other_allow = kinds(!allow, spacing);
                    let other_spacing = kinds(allow, super::other_spacing(spacing));
                    let what = format!("allow {allow}, {spacing:?}, {deviations:?}");
                    assert_eq!(
                        reclassify(&lines, &other_allow, allow, spacing, deviations),
                        direct,
                        "{what}"
                    );
                    assert_eq!(
                        respace(&lines, &other_spacing, &spaced, allow, spacing, deviations),
                        direct,
                        "{what}"
                    );
                }
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
