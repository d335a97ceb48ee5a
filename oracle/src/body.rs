//! Step 1, the body: size limit, byte-order mark, charset, and lines.

use crate::deviation::{Deviation, Deviations};
use crate::knobs::{Bom, Charset, Knobs};

/// The UTF-8 encoding of U+FEFF, the byte-order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// One physical line of the body, without its line end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The line's octets, without CR or LF.
    pub bytes: &'a [u8],
}

/// What the body step did, for the explanation.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BodyNotes {
    /// Octets dropped by the size limit (K14).
    pub truncated_at: Option<usize>,
    /// A leading BOM was skipped (K12).
    pub bom_skipped: bool,
    /// The body was not UTF-8 and was read this way (K7).
    pub charset: Option<Charset>,
}

/// The knobs step 1 reads (K14, K12, K7 charset): readings that agree on them share one prepared
/// body (see [`crate::memo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyKnobs {
    /// K14: in a body over 500 KiB, octets after this many are ignored.
    pub size_limit: Option<usize>,
    /// K12: the UTF-8 byte-order mark.
    pub bom: Bom,
    /// K7: how a body that is not UTF-8 is read.
    pub charset: Charset,
    /// The deviations step 1 reads ([`crate::deviation::BODY`]).
    pub deviations: Deviations,
}

impl BodyKnobs {
    /// The step-1 knobs of a reading.
    pub fn of(knobs: &Knobs) -> BodyKnobs {
        BodyKnobs {
            size_limit: knobs.size_limit,
            bom: knobs.bom,
            charset: knobs.charset,
            deviations: knobs.deviations.only(crate::deviation::BODY),
        }
    }
}

/// Applies the size limit, BOM and charset knobs; returns the octets to split into lines.
///
/// K14 (`rfc9309#2.5`: the limit "MUST be at least 500 kibibytes"; `google#file-format`: "Content
/// which is after the maximum file size is ignored"; `draft-1996#5`: robots "are therefore
/// encouraged to place limits on the resources spent on processing of /robots.txt", no figure):
/// in a body over 500 KiB, octets after the limit are ignored. No document lets a parser stop
/// reading a smaller body, so none is cut (`docs/profiles.md` K14).
/// K12 (`google#file-format`: Google ignores "the Unicode Byte Order Mark (BOM) at the beginning of
/// the robots.txt file"): a leading BOM is skipped when the reading says so; the other documents
/// do not mention it (open, `docs/profiles.md` K12).
/// K7 (`rfc9309#2.2.2`: "Implementors MAY bridge encoding mismatches"; `google#file-format`: Google
/// "may ignore characters that are not part of the UTF-8 range"): a body that is not UTF-8 may be
/// read another way.
pub fn prepare_body<'a>(
    body: &'a [u8],
    knobs: BodyKnobs,
) -> (std::borrow::Cow<'a, [u8]>, BodyNotes) {
    let (bytes, notes) = cut_body(body, knobs);
    read_charset(bytes, knobs, std::str::from_utf8(bytes).is_ok(), notes)
}

/// The first half of [`prepare_body`]: the size limit (K14) and the BOM (K12).
pub fn cut_body(body: &[u8], knobs: BodyKnobs) -> (&[u8], BodyNotes) {
    let mut notes = BodyNotes::default();
    let mut bytes = body;
    if let Some(limit) = knobs.size_limit {
        if bytes.len() > limit && bytes.len() > crate::knobs::FIVE_HUNDRED_KIB {
            bytes = &bytes[..limit];
            if knobs.deviations.has(Deviation::SizeCutAtLineEnd) {
                // D-size-cut-at-line-end, breaks google#file-format: the part of the line that
                // crosses the limit is content before the limit, and is read.
                let end = memchr::memrchr2(b'\n', b'\r', bytes).map_or(0, |at| at + 1);
                bytes = &bytes[..end];
            }
            notes.truncated_at = Some(bytes.len());
        }
    }
    if knobs.bom == Bom::Skip && bytes.starts_with(UTF8_BOM) {
        bytes = &bytes[UTF8_BOM.len()..];
        notes.bom_skipped = true;
    }
    (bytes, notes)
}

/// The second half of [`prepare_body`]: the charset (K7) of the octets [`cut_body`] kept, `utf8`
/// saying whether they are valid UTF-8 (so that readings cutting the body alike validate it once).
pub fn read_charset(
    bytes: &[u8],
    knobs: BodyKnobs,
    utf8: bool,
    mut notes: BodyNotes,
) -> (std::borrow::Cow<'_, [u8]>, BodyNotes) {
    if knobs.charset == Charset::Octets || utf8 {
        return (std::borrow::Cow::Borrowed(bytes), notes);
    }
    notes.charset = Some(knobs.charset);
    (
        std::borrow::Cow::Owned(read_as(bytes, knobs.charset)),
        notes,
    )
}

/// The octets of a body that is not UTF-8 (or of one of its lines), read under `charset` (K7).
pub fn read_as(bytes: &[u8], charset: Charset) -> Vec<u8> {
    match charset {
        Charset::Octets => bytes.to_vec(),
        Charset::Latin1 => {
            // Each octet is the code point of the same value (ISO 8859-1), written as UTF-8: one
            // octet below 0x80, two from 0x80 on.
            // ASCII runs are copied whole.
            let mut out = Vec::with_capacity(bytes.len() * 2);
            let mut rest = bytes;
            while let Some(at) = rest.iter().position(|&b| b >= 0x80) {
                let b = rest[at];
                out.extend_from_slice(&rest[..at]);
                out.extend_from_slice(&[0xC0 | (b >> 6), 0x80 | (b & 0x3F)]);
                rest = &rest[at + 1..];
            }
            out.extend_from_slice(rest);
            out
        }
        Charset::DropInvalidOctets => {
            let mut out = Vec::with_capacity(bytes.len());
            for chunk in bytes.utf8_chunks() {
                out.extend_from_slice(chunk.valid().as_bytes());
            }
            out
        }
        Charset::DropInvalidLines => {
            let mut out = Vec::with_capacity(bytes.len());
            for line in bytes.split_inclusive(|&b| b == b'\n' || b == b'\r') {
                let (content, end) = line.split_at(
                    line.len() - usize::from(line.ends_with(b"\n") || line.ends_with(b"\r")),
                );
                if std::str::from_utf8(content).is_ok() {
                    out.extend_from_slice(content);
                }
                out.extend_from_slice(end);
            }
            out
        }
    }
}

/// Splits a body into lines at CR, LF or CRLF (`rfc9309#2.2` NL; `google#file-format`;
/// `draft-1996#4.2`; `norobots-1994#format`). A final line end does not start an empty line.
pub fn split_lines(body: &[u8]) -> Vec<Line<'_>> {
    // At most one line per LF or CR, plus a last line without a line end.
    let ends = memchr::memchr2_iter(b'\n', b'\r', body).count();
    let mut lines = Vec::with_capacity(ends + 1);
    lines.extend(lines_of(body));
    lines
}

/// [`split_lines`] under a set of deviations: D-lf-only-lines (breaks rfc9309#2.2's
/// `NL = %x0D / %x0A / %x0D.0A`: only LF ends a line, a CR before it is dropped and a lone CR is
/// an octet of the line) and D-nul-ends-line (breaks rfc9309#2.2's NL: a NUL octet ends the line
/// too, as where a line is read as a C string) and D-cr-kept-in-lines (breaks the same NL: only LF
/// ends a line and every CR stays in it).
pub fn split_lines_deviating(body: &[u8], deviations: Deviations) -> Vec<Line<'_>> {
    let cr_kept = deviations.has(Deviation::CrKeptInLines);
    let lf_only = deviations.has(Deviation::LfOnlyLines) || cr_kept;
    let nul = deviations.has(Deviation::NulEndsLine);
    if !lf_only && !nul {
        return split_lines(body);
    }
    let is_end = |b: u8| b == b'\n' || (b == b'\r' && !lf_only) || (b == 0 && nul);
    let mut lines = Vec::new();
    let mut start = 0;
    while start < body.len() {
        let rest = &body[start..];
        let (mut bytes, next) = match rest.iter().position(|&b| is_end(b)) {
            Some(end) if rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n') => {
                (&rest[..end], start + end + 2)
            }
            Some(end) => (&rest[..end], start + end + 1),
            None => (rest, body.len()),
        };
        if lf_only && !cr_kept && body.get(next - 1) == Some(&b'\n') {
            bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        }
        lines.push(Line {
            number: lines.len() + 1,
            bytes,
        });
        start = next;
    }
    lines
}

/// Each line of [`split_lines`] with its line end (CR, LF or CR LF; empty for a last line without
/// one), so that joining them gives the body back: for tools that edit a body line by line (the
/// cause search's neighbours, the test parsers of the mutant zoo), never for reading one.
pub fn lines_with_ends(body: &[u8]) -> Vec<(&[u8], &[u8])> {
    let offset = |part: &[u8]| part.as_ptr() as usize - body.as_ptr() as usize;
    let lines: Vec<Line<'_>> = lines_of(body).collect();
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let end = offset(line.bytes) + line.bytes.len();
            let next = lines.get(i + 1).map_or(body.len(), |l| offset(l.bytes));
            (line.bytes, &body[end..next])
        })
        .collect()
}

/// The lines of [`split_lines`], one at a time.
pub fn lines_of(body: &[u8]) -> impl Iterator<Item = Line<'_>> {
    // Every CR and LF of the body, found in one pass (the LF of a CRLF is passed over below).
    let mut ends = memchr::memchr2_iter(b'\n', b'\r', body);
    let mut start = 0;
    let mut number = 0;
    std::iter::from_fn(move || {
        if start >= body.len() {
            return None;
        }
        let end = ends.by_ref().find(|&end| end >= start);
        let (bytes, next) = match end {
            // CRLF is one line end.
            Some(end) if body[end] == b'\r' && body.get(end + 1) == Some(&b'\n') => {
                (&body[start..end], end + 2)
            }
            Some(end) => (&body[start..end], end + 1),
            None => (&body[start..], body.len()),
        };
        start = next;
        number += 1;
        Some(Line { number, bytes })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::ProfileId;

    #[test]
    fn lines_with_ends_give_the_body_back() {
        for body in [&b"a\r\nb\rc\nd"[..], b"", b"\n\n", b"x\r", b"\r\n\ry"] {
            let lines = lines_with_ends(body);
            let joined: Vec<u8> = lines.iter().flat_map(|(l, e)| [*l, *e].concat()).collect();
            assert_eq!(joined, body);
            assert_eq!(lines.len(), split_lines(body).len());
        }
        assert_eq!(
            lines_with_ends(b"a\r\nb\rc"),
            [(&b"a"[..], &b"\r\n"[..]), (b"b", b"\r"), (b"c", b"")]
        );
    }

    fn texts(body: &[u8]) -> Vec<&[u8]> {
        split_lines(body).into_iter().map(|l| l.bytes).collect()
    }

    #[test]
    fn every_line_end_splits() {
        assert_eq!(texts(b"a\nb\rc\r\nd"), vec![&b"a"[..], b"b", b"c", b"d"]);
        assert_eq!(texts(b"a\r\r\nb\n"), vec![&b"a"[..], b"", b"b"]);
        assert_eq!(texts(b""), Vec::<&[u8]>::new());
    }

    /// The one-pass splitter gives the lines a line-end search from each line's start gives, on
    /// every string of up to six octets over `a`, CR and LF.
    #[test]
    fn splitting_in_one_pass_is_splitting_line_by_line() {
        fn line_by_line(body: &[u8]) -> Vec<&[u8]> {
            let mut lines = Vec::new();
            let mut rest = body;
            while !rest.is_empty() {
                match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                    Some(end) => {
                        lines.push(&rest[..end]);
                        let crlf = rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n');
                        rest = &rest[end + 1 + usize::from(crlf)..];
                    }
                    None => {
                        lines.push(rest);
                        rest = &[];
                    }
                }
            }
            lines
        }
        let mut bodies: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..6 {
            let longer: Vec<Vec<u8>> = bodies
                .iter()
                .flat_map(|b| {
                    [b'a', b'\r', b'\n'].map(|o| {
                        let mut b = b.clone();
                        b.push(o);
                        b
                    })
                })
                .collect();
            bodies.extend(longer);
        }
        for body in &bodies {
            assert_eq!(texts(body), line_by_line(body), "{body:?}");
            let numbers: Vec<usize> = split_lines(body).iter().map(|l| l.number).collect();
            assert_eq!(numbers, (1..=numbers.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn google_truncates_and_skips_bom() {
        let knobs = ProfileId::Google.base_knobs();
        let mut body = UTF8_BOM.to_vec();
        body.extend(std::iter::repeat_n(b'x', 600 * 1024));
        let (prepared, notes) = prepare_body(&body, BodyKnobs::of(&knobs));
        assert_eq!(prepared.len(), 500 * 1024 - 3);
        assert!(notes.bom_skipped);
        assert_eq!(notes.truncated_at, Some(500 * 1024));
    }

    #[test]
    fn latin1_bridge_reencodes() {
        let mut knobs = ProfileId::Rfc9309.base_knobs();
        knobs.charset = Charset::Latin1;
        let (prepared, notes) = prepare_body(b"/caf\xE9", BodyKnobs::of(&knobs));
        assert_eq!(&*prepared, "/café".as_bytes());
        assert_eq!(notes.charset, Some(Charset::Latin1));
        // Every octet becomes the code point of its value.
        let all: Vec<u8> = (0..=255u8).collect();
        let expected: String = all.iter().map(|&b| char::from(b)).collect();
        assert_eq!(
            &*prepare_body(&all, BodyKnobs::of(&knobs)).0,
            expected.as_bytes()
        );
        // ASCII runs of every length between other octets, at both ends.
        let mixed: &[u8] = b"\xFFa\xE9bc\x80\x81def\xC3";
        let expected: String = mixed.iter().map(|&b| char::from(b)).collect();
        assert_eq!(
            &*prepare_body(mixed, BodyKnobs::of(&knobs)).0,
            expected.as_bytes()
        );
        knobs.charset = Charset::DropInvalidOctets;
        assert_eq!(
            &*prepare_body(b"/caf\xE9\n", BodyKnobs::of(&knobs)).0,
            b"/caf\n"
        );
        knobs.charset = Charset::DropInvalidLines;
        assert_eq!(
            &*prepare_body(b"a\n/caf\xE9\r\nb", BodyKnobs::of(&knobs)).0,
            b"a\n\r\nb"
        );
    }
}
