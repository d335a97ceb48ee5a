//! AI-usage lines: the `Content-Usage` lines of the IETF AI Preferences attachment draft
//! (`aipref-attach#3`) and the `Content-Signal` lines hosting providers write, found in a body
//! and removed from it, so that a parser can be asked the same question with and without them
//! (issue 38's question 1: does adding these lines change what a crawler may fetch?).
//!
//! What counts, exactly ([`find`]):
//! - lines end at LF, CRLF or a CR no LF follows (RFC 9309's `EOL`, `rfc9309#2.2`); the last line
//!   may have no end;
//! - an **AI-usage line** is one that, after a UTF-8 byte order mark on the first line and any
//!   spaces and tabs, starts with the field name `Content-Usage` or `Content-Signal` in any letter
//!   case, then any spaces and tabs, then a colon; whatever follows (a value, a comment, nothing)
//!   is part of the line;
//! - a line that starts with one of those names but has no colon after it (`Content-Usage
//!   train-ai=n`) is **not** an AI-usage line: it is no field line at all (`google#syntax`), it is
//!   counted apart ([`Found::without_colon`]) and never removed, so the comparison is about the
//!   lines the draft and the hosting providers write;
//! - a commented-out line (`# Content-Usage: ...`) is a comment, not an AI-usage line.
//!
//! [`Found::removed`] is the body without the AI-usage lines, each taken out with its own line
//! end; every other octet is kept as it was, in order (a BOM before a removed first line stays).

/// The corpus's folder of cases that put AI-usage lines into ordinary files (issue 38, part 1).
pub const CASES_DIR: &str = "rfc9309/other-records-aipref/";

/// Whether `run` also asks a case's checks on its body without the AI-usage lines: a case of
/// [`CASES_DIR`] tagged `aipref` whose body has at least one AI-usage line (a case whose lines
/// all lack a colon has nothing to remove).
pub fn asked_without_lines(case: &crate::cases::Case) -> bool {
    case.id.starts_with(CASES_DIR)
        && case.tags.iter().any(|t| t == "aipref")
        && case.fetches.is_empty()
        && find(&case.body).count() > 0
}

/// The field names that make an AI-usage line, lower-case.
pub const FIELDS: [&str; 2] = ["content-usage", "content-signal"];

/// The AI-usage lines of one body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// `Content-Usage` lines.
    pub content_usage: u64,
    /// `Content-Signal` lines.
    pub content_signal: u64,
    /// Lines that start with one of the names but have no colon after it (kept, not removed).
    pub without_colon: u64,
    /// The AI-usage lines themselves, without their line ends, in order.
    pub lines: Vec<Vec<u8>>,
    /// The body with the AI-usage lines (and their line ends) removed.
    pub removed: Vec<u8>,
}

impl Found {
    /// The AI-usage lines found (`Content-Usage` and `Content-Signal`).
    pub fn count(&self) -> u64 {
        self.content_usage + self.content_signal
    }
}

/// The field an AI-usage line names, or whether a line only starts with such a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    ContentUsage,
    ContentSignal,
    WithoutColon,
}

/// The kind of one line (without its line end), `None` when it is no AI-usage line.
fn kind_of(line: &[u8]) -> Option<Kind> {
    let start = line
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(line.len());
    let rest = &line[start..];
    for (i, field) in FIELDS.iter().enumerate() {
        let n = field.len();
        if rest.len() < n || !rest[..n].eq_ignore_ascii_case(field.as_bytes()) {
            continue;
        }
        let after = &rest[n..];
        let colon = after
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .map(|p| after[p]);
        return match colon {
            Some(b':') if i == 0 => Some(Kind::ContentUsage),
            Some(b':') => Some(Kind::ContentSignal),
            // `Content-Usages: ...` names another field; `Content-Usage x` has no colon.
            Some(b) if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' => {
                if after[0] == b' ' || after[0] == b'\t' {
                    Some(Kind::WithoutColon)
                } else {
                    None
                }
            }
            _ => Some(Kind::WithoutColon),
        };
    }
    None
}

/// The AI-usage lines of `body` and the body without them (the module's doc says what counts).
pub fn find(body: &[u8]) -> Found {
    let mut found = Found::default();
    let mut pos = 0;
    while pos < body.len() {
        // The line's content, then its end (LF, CRLF, a lone CR, or none at the body's end).
        let end = body[pos..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(body.len(), |p| pos + p);
        let next = match body.get(end) {
            Some(b'\r') if body.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
        let bom = if pos == 0 && body.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let content = &body[pos + bom..end];
        match kind_of(content) {
            Some(kind @ (Kind::ContentUsage | Kind::ContentSignal)) => {
                if kind == Kind::ContentUsage {
                    found.content_usage += 1;
                } else {
                    found.content_signal += 1;
                }
                found.lines.push(content.to_vec());
                found.removed.extend_from_slice(&body[pos..pos + bom]);
            }
            Some(Kind::WithoutColon) => {
                found.without_colon += 1;
                found.removed.extend_from_slice(&body[pos..next]);
            }
            None => found.removed.extend_from_slice(&body[pos..next]),
        }
        pos = next;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removed(body: &str) -> String {
        String::from_utf8(find(body.as_bytes()).removed).unwrap()
    }

    #[test]
    fn removes_each_line_with_its_own_end_and_keeps_every_other_octet() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /x\n";
        let found = find(body.as_bytes());
        assert_eq!((found.content_usage, found.content_signal), (1, 0));
        assert_eq!(found.lines, [b"Content-Usage: train-ai=n".to_vec()]);
        assert_eq!(removed(body), "User-agent: *\nDisallow: /x\n");
        // CRLF and lone CR line ends are the line's own.
        assert_eq!(
            removed("User-agent: *\r\nContent-Signal: search=yes\r\nDisallow: /x\r\n"),
            "User-agent: *\r\nDisallow: /x\r\n"
        );
        assert_eq!(
            removed("User-agent: *\rcontent-signal: ai-train=no\rDisallow: /x\r"),
            "User-agent: *\rDisallow: /x\r"
        );
        // Mixed ends: each line keeps or loses exactly its own.
        assert_eq!(
            removed("a: 1\r\nContent-Usage: y\nb: 2\rContent-Signal: x\r\nc: 3"),
            "a: 1\r\nb: 2\rc: 3"
        );
    }

    #[test]
    fn a_last_line_without_an_end_and_a_body_of_only_such_lines() {
        assert_eq!(
            removed("User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n"),
            "User-agent: *\nDisallow: /x\n"
        );
        assert_eq!(removed("Content-Usage: a\nContent-Signal: b"), "");
        assert_eq!(find(b"").count(), 0);
        assert!(find(b"").removed.is_empty());
    }

    #[test]
    fn a_bom_stays_when_the_first_line_goes() {
        let found = find(b"\xEF\xBB\xBFContent-Signal: search=yes\nUser-agent: *\nDisallow: /\n");
        assert_eq!(found.content_signal, 1);
        assert_eq!(found.lines, [b"Content-Signal: search=yes".to_vec()]);
        assert_eq!(found.removed, b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n");
        // A BOM anywhere else is an octet of its line: that line is no AI-usage line.
        assert_eq!(find(b"a: 1\n\xEF\xBB\xBFContent-Usage: x\n").count(), 0);
    }

    #[test]
    fn any_case_spaces_around_the_colon_and_comments_count() {
        let body = "  content-usage: train-ai=n\n\tCONTENT-SIGNAL :search=yes\n\
                    cOnTeNt-UsAgE\t :  /p y # why\nContent-Usage:\nContent-Usage: # only a comment\n";
        let found = find(body.as_bytes());
        assert_eq!((found.content_usage, found.content_signal), (4, 1));
        assert_eq!(found.removed, b"");
        // A commented-out line, another field, and a name inside a value are not AI-usage lines.
        for other in [
            "# Content-Usage: train-ai=n\n",
            "Content-Usages: x\n",
            "Content-Usage-Extra: x\n",
            "X-Content-Usage: x\n",
            "Disallow: /Content-Usage: x\n",
            "Content Usage: x\n",
        ] {
            let found = find(other.as_bytes());
            assert_eq!(found.count() + found.without_colon, 0, "{other:?}");
            assert_eq!(found.removed, other.as_bytes(), "{other:?}");
        }
    }

    #[test]
    fn lines_without_a_colon_are_counted_apart_and_kept() {
        let body = "User-agent: *\nContent-Usage train-ai=n\nContent-Signal\nDisallow: /x\n";
        let found = find(body.as_bytes());
        assert_eq!(found.count(), 0);
        assert_eq!(found.without_colon, 2);
        assert_eq!(found.removed, body.as_bytes());
    }
}
