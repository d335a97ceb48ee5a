//! Body and URL editing: one line splitter (for the relations, the minimiser, the seeds and the
//! generator's scan of raw bodies), one percent-escape, the parts of a URL, and the edits the
//! metamorphic relations ([`crate::relations`]) make, every choice drawn from a [`Choices`].
//!
//! Lines are found as the documents say: CR, LF or CRLF end a line (`rfc9309#2.2` `NL`,
//! `google#file-format`, `draft-1996#4.2`, `norobots-1994#format`). Inserted lines always end with
//! LF (or CRLF right after a lone CR, so that no line end merges with a neighbour's).
//!
//! Escapes are decoded with the oracle's own functions ([`escaped_octet`], the workspace's one
//! `%XX` decoder, and `robotstxt_oracle::url::unescape_unreserved`), so an edit reads an escape as
//! the oracle does.

use robotstxt_oracle::line::{strip_comment, trim_ws};

use crate::hash::Choices;

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

// ---------------------------------------------------------------------------------------------
// Lines

/// One physical line: `start..end` is its content, `end..next` its line end (empty for a last
/// line without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpan {
    /// Where its content starts.
    pub start: usize,
    /// Where its content ends (its line end starts).
    pub end: usize,
    /// Where the next line starts.
    pub next: usize,
}

/// The lines of `body` from offset `from` on ([`line_spans`]).
pub struct LineSpans<'a> {
    body: &'a [u8],
    /// Line ends found with `memchr2` (a body is read for every input the fuzzer checks).
    ends: memchr::Memchr2<'a>,
    start: usize,
}

/// The lines of `body[from..]`, split at CR, LF or CRLF; a final line end does not start an empty
/// line.
pub fn line_spans(body: &[u8], from: usize) -> LineSpans<'_> {
    LineSpans {
        body,
        ends: memchr::memchr2_iter(b'\n', b'\r', body),
        start: from,
    }
}

impl Iterator for LineSpans<'_> {
    type Item = LineSpan;

    fn next(&mut self) -> Option<LineSpan> {
        let body = self.body;
        for i in self.ends.by_ref() {
            if i < self.start {
                // The LF of a CRLF, already taken with its CR (or an end before `from`).
                continue;
            }
            let next = if body[i] == b'\r' && body.get(i + 1) == Some(&b'\n') {
                i + 2
            } else {
                i + 1
            };
            let line = LineSpan {
                start: self.start,
                end: i,
                next,
            };
            self.start = next;
            return Some(line);
        }
        if self.start < body.len() {
            let line = LineSpan {
                start: self.start,
                end: body.len(),
                next: body.len(),
            };
            self.start = body.len();
            return Some(line);
        }
        None
    }
}

/// The lines of a body as the relations read it: after a leading BOM.
pub fn body_lines(body: &[u8]) -> Vec<LineSpan> {
    let from = if body.starts_with(BOM) { BOM.len() } else { 0 };
    line_spans(body, from).collect()
}

/// Lines with their line ends (LF, CRLF or CR), so that concatenation gives the body back.
pub fn split_lines(body: &[u8]) -> Vec<Vec<u8>> {
    line_spans(body, 0)
        .map(|l| body[l.start..l.next].to_vec())
        .collect()
}

/// A line without its line end (LF, CRLF or CR).
pub fn without_line_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    &line[..end]
}

/// The offset of a line's field colon: the first `:` before any `#` (`rfc9309#2.2`: the comment
/// runs from `#` to the end of the line).
pub fn field_colon(line: &[u8]) -> Option<usize> {
    memchr::memchr(b':', strip_comment(line))
}

/// What a line is, for the structural relations (the same for rfc9309 and google).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A `user-agent` line.
    UserAgent,
    /// An `allow` or `disallow` line.
    Rule,
    /// Any other line: a comment, a blank line, another record.
    Other,
}

/// What `line` (its content, without the line end) is.
pub fn line_kind(line: &[u8]) -> LineKind {
    let Some(colon) = field_colon(line) else {
        return LineKind::Other;
    };
    let field = trim_ws(&line[..colon]);
    if field.eq_ignore_ascii_case(b"user-agent") {
        LineKind::UserAgent
    } else if field.eq_ignore_ascii_case(b"allow") || field.eq_ignore_ascii_case(b"disallow") {
        LineKind::Rule
    } else {
        LineKind::Other
    }
}

/// `body` with `text` inserted at offset `at`.
pub fn insert(body: &[u8], at: usize, text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + text.len());
    out.extend_from_slice(&body[..at]);
    out.extend_from_slice(text);
    out.extend_from_slice(&body[at..]);
    out
}

/// Offsets where a whole line can be inserted: the start of every line (not the very start of a
/// body with a BOM), and the end of a body that is empty or ends with a line end.
pub fn line_starts(body: &[u8]) -> Vec<usize> {
    let mut starts: Vec<usize> = body_lines(body)
        .iter()
        .map(|l| l.start)
        .filter(|&s| !(s == BOM.len() && body.starts_with(BOM)))
        .collect();
    if body.is_empty() || body.ends_with(b"\n") || body.ends_with(b"\r") {
        starts.push(body.len());
    }
    starts.dedup();
    starts
}

/// Inserts `text` as a whole line at a line start chosen by `choices`. The inserted line ends with
/// LF; right after a lone CR an empty line gets CRLF, so the two line ends do not merge into one.
pub fn insert_line(body: &[u8], text: &[u8], choices: &mut Choices) -> Option<Vec<u8>> {
    let starts = line_starts(body);
    if starts.is_empty() {
        return None;
    }
    let at = starts[choices.below(starts.len())];
    let mut line = text.to_vec();
    if text.is_empty() && at > 0 && body[at - 1] == b'\r' {
        line.extend_from_slice(b"\r\n");
    } else {
        line.push(b'\n');
    }
    Some(insert(body, at, &line))
}

/// Rebuilds the body with `edit` applied to the content of every `field: value` line (a colon
/// before any `#`); `edit` gets the line and its colon offset.
pub fn edit_all_field_lines(
    body: &[u8],
    mut edit: impl FnMut(&[u8], usize, &mut Vec<u8>),
) -> Option<Vec<u8>> {
    let all = body_lines(body);
    if !all
        .iter()
        .any(|l| field_colon(&body[l.start..l.end]).is_some())
    {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() + body.len() / 8);
    let mut copied = 0;
    for l in &all {
        let line = &body[l.start..l.end];
        if let Some(colon) = field_colon(line) {
            out.extend_from_slice(&body[copied..l.start]);
            edit(line, colon, &mut out);
            copied = l.end;
        }
    }
    out.extend_from_slice(&body[copied..]);
    Some(out)
}

/// Rebuilds the body with `edit` applied to one `field: value` line chosen by `choices`.
pub fn edit_one_field_line(
    body: &[u8],
    choices: &mut Choices,
    edit: impl FnOnce(&[u8], &mut Vec<u8>),
) -> Option<Vec<u8>> {
    let candidates: Vec<LineSpan> = body_lines(body)
        .into_iter()
        .filter(|l| field_colon(&body[l.start..l.end]).is_some())
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let l = candidates[choices.below(candidates.len())];
    let mut out = Vec::with_capacity(body.len() + 16);
    out.extend_from_slice(&body[..l.start]);
    edit(&body[l.start..l.end], &mut out);
    out.extend_from_slice(&body[l.end..]);
    Some(out)
}

/// `optional-whitespace`: white space at the start of every line (`lead`), before every field's
/// colon (`before`) and at the end of every non-blank line (`trail`). Blank lines stay blank and
/// comment lines stay comment lines, so this only holds where blank lines mean nothing.
pub fn optional_whitespace(
    body: &[u8],
    ws: &[u8],
    lead: bool,
    before: bool,
    trail: bool,
) -> Option<Vec<u8>> {
    let all = body_lines(body);
    if all.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() + all.len() * 3 * ws.len());
    let mut copied = 0;
    for l in &all {
        let line = &body[l.start..l.end];
        out.extend_from_slice(&body[copied..l.start]);
        if lead {
            out.extend_from_slice(ws);
        }
        match field_colon(line) {
            Some(colon) if before => {
                out.extend_from_slice(&line[..colon]);
                out.extend_from_slice(ws);
                out.extend_from_slice(&line[colon..]);
            }
            _ => out.extend_from_slice(line),
        }
        if trail {
            out.extend_from_slice(ws);
        }
        copied = l.end;
    }
    out.extend_from_slice(&body[copied..]);
    Some(out)
}

/// `duplicate-rule`: a copy of one allow/disallow line inserted just before it. Not the first line
/// (a rule there belongs to no group, and it may carry the BOM).
pub fn duplicate_rule(body: &[u8], choices: &mut Choices) -> Option<Vec<u8>> {
    let rules: Vec<LineSpan> = body_lines(body)
        .into_iter()
        .skip(1)
        .filter(|l| line_kind(&body[l.start..l.end]) == LineKind::Rule)
        .collect();
    if rules.is_empty() {
        return None;
    }
    let l = rules[choices.below(rules.len())];
    let mut copy = body[l.start..l.end].to_vec();
    copy.push(b'\n');
    Some(insert(body, l.start, &copy))
}

/// The groups of a body as RFC 9309 builds them (`rfc9309#2.1`, `rfc9309#2.2`; the same for
/// google, `google#grouping`): a user-agent line starts a group when no group is open or the open
/// group has a rule; every other line (rules, comments, blank lines, other records) stays in the
/// open group. Returns the line index where each group starts and whether the group has a rule.
pub fn rfc_groups(body: &[u8], all: &[LineSpan]) -> Vec<(usize, bool)> {
    let mut groups: Vec<(usize, bool)> = Vec::new();
    for (i, l) in all.iter().enumerate() {
        match line_kind(&body[l.start..l.end]) {
            LineKind::UserAgent => {
                if groups.last().is_none_or(|&(_, has_rules)| has_rules) {
                    groups.push((i, false));
                }
            }
            LineKind::Rule => {
                if let Some(last) = groups.last_mut() {
                    last.1 = true;
                }
            }
            LineKind::Other => {}
        }
    }
    groups
}

/// Concatenates whole lines; a line without a line end (the body's last) gets LF when another
/// line follows it.
pub fn rebuild(body: &[u8], all: &[LineSpan], order: &[std::ops::Range<usize>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 1);
    let total: usize = order.iter().map(|r| r.len()).sum();
    let mut emitted = 0;
    for range in order {
        for l in &all[range.clone()] {
            out.extend_from_slice(&body[l.start..l.next]);
            emitted += 1;
            if l.next == l.end && emitted < total {
                out.push(b'\n');
            }
        }
    }
    out
}

/// `group-order`: permutes whole groups (each group with the comment, blank and other lines that
/// follow it). The lines before the first group stay first; a last group without rules stays
/// last (moved anywhere else, its user-agent lines would join the next group). A line end that
/// merges with a moved empty line only removes a blank line, which means nothing here either.
pub fn group_order(body: &[u8], choices: &mut Choices) -> Option<Vec<u8>> {
    if body.starts_with(BOM) {
        return None;
    }
    let all = body_lines(body);
    let groups = rfc_groups(body, &all);
    let ranges: Vec<std::ops::Range<usize>> = groups
        .iter()
        .enumerate()
        .map(|(k, &(start, _))| start..groups.get(k + 1).map_or(all.len(), |g| g.0))
        .collect();
    let fixed_last = groups.last().is_some_and(|&(_, has_rules)| !has_rules);
    let movable = ranges.len() - usize::from(fixed_last);
    if movable < 2 {
        return None;
    }
    let mut order: Vec<std::ops::Range<usize>> = ranges[..movable].to_vec();
    match choices.below(3) {
        0 => order.reverse(),
        1 => order.rotate_left(1 + choices.below(movable - 1)),
        _ => {
            let i = choices.below(movable);
            let j = (i + 1 + choices.below(movable - 1)) % movable;
            order.swap(i, j);
        }
    }
    let mut full = Vec::with_capacity(movable + 2);
    full.push(0..groups[0].0);
    full.extend(order);
    if fixed_last {
        full.push(ranges[movable].clone());
    }
    Some(rebuild(body, &all, &full))
}

/// `unrelated-group`: a group for a product token that is not the crawler's name, inserted just
/// before the first group (or at the end when there is none: after the rules outside groups, so
/// they stay outside every group it could select). It has a rule, so the next user-agent line
/// starts a new group.
pub fn unrelated_group(body: &[u8], agent: &str, choices: &mut Choices) -> Option<Vec<u8>> {
    if body.starts_with(BOM) {
        return None;
    }
    let leading: String = agent
        .bytes()
        .take_while(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
        .map(char::from)
        .collect();
    let candidates = [
        format!("{leading}-Other"),
        "UnrelatedBot".to_string(),
        "zzyzx".to_string(),
        "A".to_string(),
    ];
    let start = choices.below(candidates.len());
    let name = (0..candidates.len())
        .map(|k| &candidates[(start + k) % candidates.len()])
        .find(|name| {
            // rfc9309#2.2.1 identifier: letters, `_`, `-`; and not the crawler's name.
            name.bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
                && !name.is_empty()
                && !name.eq_ignore_ascii_case(agent)
        })?;
    let rules = [
        "Disallow: /",
        "Allow: /",
        "Disallow: /*",
        "Disallow:",
        "disallow: /x\nallow: /",
    ][choices.below(5)];
    let group = format!("User-agent: {name}\n{rules}\n");
    let all = body_lines(body);
    let at = match rfc_groups(body, &all).first() {
        Some(&(line, _)) => all[line].start,
        None => body.len(),
    };
    let mut text = Vec::new();
    if at == body.len() && !body.is_empty() && !body.ends_with(b"\n") && !body.ends_with(b"\r") {
        text.push(b'\n');
    }
    text.extend_from_slice(group.as_bytes());
    Some(insert(body, at, &text))
}

// ---------------------------------------------------------------------------------------------
// Percent-escapes

/// The case of an escape's hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexCase {
    /// `%2F`.
    Upper,
    /// `%2f`.
    Lower,
}

/// The escape `%XX` of octet `b`.
pub fn percent_escape(b: u8, case: HexCase) -> [u8; 3] {
    let digits: &[u8; 16] = match case {
        HexCase::Upper => b"0123456789ABCDEF",
        HexCase::Lower => b"0123456789abcdef",
    };
    [
        b'%',
        digits[usize::from(b >> 4)],
        digits[usize::from(b & 15)],
    ]
}

/// Appends the escape of `b` to a string.
fn push_str_escape(out: &mut String, b: u8, case: HexCase) {
    out.extend(percent_escape(b, case).map(char::from));
}

pub use robotstxt_oracle::encoding::{escaped_octet, is_unreserved};

// ---------------------------------------------------------------------------------------------
// URLs

/// Where the path starts in an absolute URL (after `scheme://authority`): what the minimiser keeps.
pub fn path_start(url: &str) -> Option<usize> {
    let after_scheme = url.find("://")? + 3;
    Some(
        url[after_scheme..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |i| after_scheme + i),
    )
}

/// The path-and-query range of a URL by RFC 3986's generic syntax (section 3): after the scheme
/// and the authority, up to the fragment.
pub fn path_and_query(url: &[u8]) -> std::ops::Range<usize> {
    let mut start = 0;
    if url.first().is_some_and(u8::is_ascii_alphabetic) {
        if let Some(colon) = memchr::memchr(b':', url) {
            if url[..colon]
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            {
                start = colon + 1;
            }
        }
    }
    if url[start..].starts_with(b"//") {
        let after = start + 2;
        start = url[after..]
            .iter()
            .position(|b| b"/?#".contains(b))
            .map_or(url.len(), |p| after + p);
    }
    let end = memchr::memchr(b'#', &url[start..]).map_or(url.len(), |p| start + p);
    start..end
}

/// Whether `path_and_query` (the raw octets) is `/robots.txt` once unreserved escapes are decoded.
pub fn is_robots_txt_path(url: &[u8]) -> bool {
    let range = path_and_query(url);
    let part = &url[range];
    let path = &part[..memchr::memchr(b'?', part).unwrap_or(part.len())];
    robotstxt_oracle::url::unescape_unreserved(path).eq(b"/robots.txt".iter().copied())
}

/// `percent-encode-unreserved`: one unreserved character of the path or query written as `%XX`
/// (hex case from `choices`). RFC 3986 2.3: the two forms are equivalent; `rfc9309#2.2.2` decodes
/// such escapes before comparing; `draft-1996#3.2.2` decodes every escape but `%2F`. Not the
/// hex digits of an existing escape (that would change the escape), never `%` itself.
///
/// Skipped for the `/robots.txt` path (its query ignored). The oracle's implicit allow (K10,
/// `rfc9309#2.2.2`) now decodes unreserved escapes first (`url::is_robots_txt_uri`), so
/// `/%72obots.txt` is the same URI to it; the skip stays so that the relation picks the inputs
/// and characters it always has (a fixed seed checks the same relations).
pub fn percent_encode_unreserved(url: &str, choices: &mut Choices) -> Option<String> {
    let bytes = url.as_bytes();
    if is_robots_txt_path(bytes) {
        return None;
    }
    let range = path_and_query(bytes);
    let candidates: Vec<usize> = range
        .filter(|&i| {
            is_unreserved(bytes[i])
                && !(i >= 1 && bytes[i - 1] == b'%')
                && !(i >= 2 && bytes[i - 2] == b'%')
        })
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let at = candidates[choices.below(candidates.len())];
    let mut out = String::with_capacity(url.len() + 2);
    out.push_str(&url[..at]);
    let case = if choices.below(2) == 0 {
        HexCase::Upper
    } else {
        HexCase::Lower
    };
    push_str_escape(&mut out, bytes[at], case);
    out.push_str(&url[at + 1..]);
    Some(out)
}

/// `percent-encode-non-ascii`: one non-ASCII character of the path or query written as its UTF-8
/// octets in upper-case `%XX` form. `rfc9309#2.2.2`: octets outside ASCII are percent-encoded
/// before comparing; `google#url-matching`: UTF-8 and percent-escaped UTF-8 are the same (upper
/// case, because Google's document does not say that hex case is irrelevant).
pub fn percent_encode_non_ascii(url: &str, choices: &mut Choices) -> Option<String> {
    let range = path_and_query(url.as_bytes());
    let candidates: Vec<(usize, char)> = url[range.clone()]
        .char_indices()
        .filter(|(_, c)| !c.is_ascii())
        .map(|(i, c)| (range.start + i, c))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let (at, c) = candidates[choices.below(candidates.len())];
    let mut out = String::with_capacity(url.len() + 12);
    out.push_str(&url[..at]);
    let mut buf = [0u8; 4];
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        push_str_escape(&mut out, b, HexCase::Upper);
    }
    out.push_str(&url[at + c.len_utf8()..]);
    Some(out)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_at_cr_lf_and_crlf() {
        let body = b"\xEF\xBB\xBFa\nb\rc\r\nd";
        let texts: Vec<&[u8]> = body_lines(body)
            .iter()
            .map(|l| &body[l.start..l.end])
            .collect();
        assert_eq!(texts, vec![&b"a"[..], b"b", b"c", b"d"]);
        assert_eq!(line_starts(body), vec![5, 7, 10]);
        assert_eq!(line_starts(b"a\r\r\n"), vec![0, 2, 4]);
        assert_eq!(line_starts(b""), vec![0]);
        // A BOM alone is no line for the relations; it is one for the minimiser.
        assert!(body_lines(BOM).is_empty());
        assert_eq!(split_lines(BOM), vec![BOM.to_vec()]);
    }

    /// The one splitter gives what an octet-by-octet reading gives: every line with its end (a CR
    /// followed by LF is one end), the body back when they are joined.
    #[test]
    fn the_splitter_reads_every_line_end() {
        let mut state = 7u64;
        for _ in 0..2_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (state >> 58) as usize;
            let body: Vec<u8> = (0..len)
                .map(|k| b"a\r\n:"[((state >> (2 * (k % 28))) & 3) as usize])
                .collect();
            let mut expected: Vec<Vec<u8>> = Vec::new();
            let (mut start, mut i) = (0, 0);
            while i < body.len() {
                let end = match body[i] {
                    b'\n' => i + 1,
                    b'\r' if body.get(i + 1) == Some(&b'\n') => i + 2,
                    b'\r' => i + 1,
                    _ => {
                        i += 1;
                        continue;
                    }
                };
                expected.push(body[start..end].to_vec());
                (start, i) = (end, end);
            }
            if start < body.len() {
                expected.push(body[start..].to_vec());
            }
            assert_eq!(split_lines(&body), expected, "{body:?}");
            assert_eq!(split_lines(&body).concat(), body);
            for (line, span) in expected.iter().zip(line_spans(&body, 0)) {
                assert_eq!(without_line_end(line), &body[span.start..span.end]);
            }
        }
    }

    #[test]
    fn escapes_in_either_case() {
        assert_eq!(&percent_escape(0x2F, HexCase::Upper), b"%2F");
        assert_eq!(&percent_escape(0xE9, HexCase::Lower), b"%e9");
        assert_eq!(escaped_octet(b"%2fx"), Some(0x2F));
        assert_eq!(escaped_octet(b"%2"), None);
        assert_eq!(escaped_octet(b"%zz"), None);
        assert_eq!(escaped_octet(b"%fA"), Some(0xFA));
        assert!(is_robots_txt_path(b"http://h/%72obots.tx%74"));
        assert!(!is_robots_txt_path(b"http://h/robots.txt2"));
    }
}
