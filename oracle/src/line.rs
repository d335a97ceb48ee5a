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

/// Where [`field_and_value`]'s field and value lie in `line` (offsets), for tools that edit a line
/// (the cause search's neighbours, the mutant zoo).
pub fn field_and_value_spans(
    line: &[u8],
) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let (field, value) = field_and_value(line)?;
    let span = |part: &[u8]| {
        let start = part.as_ptr() as usize - line.as_ptr() as usize;
        start..start + part.len()
    };
    Some((span(field), span(value)))
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
    classify_noting_spacing(line, allow_directive, spacing).0
}

/// [`classify`], and, on the side, whether the line has white space before its field or its colon
/// (what K13's two settings read differently, [`spacing_can_matter`]), from one reading of the line.
pub fn classify_noting_spacing<'a>(
    line: &Line<'a>,
    allow_directive: bool,
    spacing: FieldSpacing,
) -> (LineKind<'a>, bool) {
    let bytes = line.bytes;
    if trim_ws(bytes).is_empty() {
        return (LineKind::Blank, false);
    }
    if trim_ws(bytes).first() == Some(&b'#') {
        return (LineKind::Comment, false);
    }
    match split_at_colon(bytes) {
        None => (LineKind::Invalid, false),
        Some((field, value, spaced)) => (
            kind_of(field, value, spaced, allow_directive, spacing),
            spaced,
        ),
    }
}

/// The kind of a line with a field and a value (`spaced`: white space before the field or colon).
fn kind_of<'a>(
    field: &'a [u8],
    value: &'a [u8],
    spaced: bool,
    allow_directive: bool,
    spacing: FieldSpacing,
) -> LineKind<'a> {
    if spacing == FieldSpacing::AfterColonOnly && spaced {
        // An unrecognised line: its field, as written, is no field the document names.
        return LineKind::Other(field);
    }
    field_kind(field, value, allow_directive, names_field)
}

/// The kind a field name gives its line, in the order user-agent, disallow, allow (a rule only
/// when K5 knows it); any other name is an other line. `names` says whether a field name names a
/// field: [`names_field`], or a deviation's [`names_field_deviating`].
fn field_kind<'a>(
    field: &'a [u8],
    value: &'a [u8],
    allow_directive: bool,
    names: impl Fn(&[u8], &[u8]) -> bool,
) -> LineKind<'a> {
    if names(field, b"user-agent") {
        LineKind::UserAgent(value)
    } else if names(field, b"disallow") {
        LineKind::Disallow(value)
    } else if names(field, b"allow") && allow_directive {
        LineKind::Allow(value)
    } else {
        LineKind::Other(field)
    }
}

/// [`classify`] under the deviations of [`crate::deviation::LINE`], each a layer around the
/// document's reading of the line: a line without a colon read again (D-space-for-colon, then
/// D-no-colon-line-is-blank), an other line's field name read again (D-field-prefix,
/// D-typo-fields), and the value trimmed further (D-vertical-tab-trimmed).
pub fn classify_deviating<'a>(
    line: &Line<'a>,
    allow_directive: bool,
    spacing: FieldSpacing,
    deviations: Deviations,
) -> LineKind<'a> {
    let kind = classify(line, allow_directive, spacing);
    if deviations.is_empty() {
        return kind;
    }
    let kind = match kind {
        LineKind::Invalid => match deviations
            .has(Deviation::SpaceForColon)
            .then(|| two_words(line.bytes))
            .flatten()
        {
            Some((field, value)) => field_kind(field, value, allow_directive, |field, name| {
                names_field_deviating(field, name, deviations)
            }),
            // D-no-colon-line-is-blank, breaks norobots-1994#format ("Нераспознанные строки
            // игнорируются": unrecognised lines are ignored, they do not separate records).
            None if deviations.has(Deviation::NoColonLineIsBlank)
                && memchr::memchr(b'#', line.bytes).is_none() =>
            {
                LineKind::Blank
            }
            None => LineKind::Invalid,
        },
        // D-field-prefix and D-typo-fields: a field name the document does not know, unless K13
        // already set the line aside for its white space, may name a field.
        LineKind::Other(_)
            if deviations.has(Deviation::FieldPrefix) || deviations.has(Deviation::TypoFields) =>
        {
            match split_at_colon(line.bytes) {
                Some((field, value, spaced))
                    if !(spacing == FieldSpacing::AfterColonOnly && spaced) =>
                {
                    field_kind(field, value, allow_directive, |field, name| {
                        names_field_deviating(field, name, deviations)
                    })
                }
                _ => kind,
            }
        }
        kind => kind,
    };
    if !deviations.has(Deviation::VerticalTabTrimmed) {
        return kind;
    }
    // D-vertical-tab-trimmed, breaks rfc9309#2.2 (`WS = %x20 / %x09`).
    match kind {
        LineKind::UserAgent(value) => LineKind::UserAgent(trim_ws_vt(value)),
        LineKind::Allow(value) => LineKind::Allow(trim_ws_vt(value)),
        LineKind::Disallow(value) => LineKind::Disallow(trim_ws_vt(value)),
        kind => kind,
    }
}

/// Whether `field` names the field `name`: the same letters, case aside (`rfc9309#2.2`: the
/// ABNF's literals are case-insensitive; `google#syntax`).
#[inline]
pub fn names_field(field: &[u8], name: &[u8]) -> bool {
    field.eq_ignore_ascii_case(name)
}

/// [`names_field`] under the deviations: under D-field-prefix (breaks rfc9309#2.2's literals and
/// `*WS ":"`), also a field that begins with `name`; under D-typo-fields (breaks rfc9309#2.2's
/// literals and google#syntax's list of fields), also one that begins with one of its frequent
/// misspellings.
#[inline]
pub fn names_field_deviating(field: &[u8], name: &[u8], deviations: Deviations) -> bool {
    let starts = |prefix: &[u8]| {
        field.len() >= prefix.len() && field[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    names_field(field, name)
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
/// without a colon that is exactly two words read as field and value, whatever the field
/// (`Disallow /a` a rule, `Content-Usage train-ai=n` an other line).
fn two_words(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let content = trim_ws(strip_comment(line));
    let space = content.iter().position(|&b| is_ws(b))?;
    let (field, value) = (&content[..space], trim_ws(&content[space..]));
    let one_word = !value.is_empty() && !value.iter().any(|&b| is_ws(b));
    one_word.then_some((field, value))
}

/// Trims spaces, tabs, vertical tabs and form feeds at both ends (D-vertical-tab-trimmed).
fn trim_ws_vt(s: &[u8]) -> &[u8] {
    let ws = |b: &u8| is_ws(*b) || *b == 0x0B || *b == 0x0C;
    let start = s.iter().position(|b| !ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !ws(b)).map_or(start, |at| at + 1);
    &s[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::ProfileId;

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
