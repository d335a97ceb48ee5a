//! Evidence for a cause: a knob alternative or deviation is credited with a parser's answer only
//! when it predicts the parser's answers beyond that one verdict.
//!
//! One verdict is one bit, and with some thirty knob alternatives and forty deviations taken one,
//! two or three at a time, some reading nearly always gives the parser's answer on a single input
//! ([`crate::cause::cause_of`] finds the first). That is a candidate, not a cause. The evidence
//! here is the input's **neighbours** ([`neighbours`]): the same input with one small edit each (a
//! line deleted, repeated, moved or followed by a blank line, `Allow` and `Disallow` swapped, a
//! value one octet shorter or longer, the line ends respelled, the URL's path or query changed,
//! another agent, every line of one field or every blank line deleted). The parser is asked about
//! every neighbour (by the caller: the oracle does no I/O), and a set of changes is credited
//! ([`credit`]) only when
//!
//! 1. the oracle under it gives the parser's answer on the input **and on every neighbour the
//!    parser answered** (a neighbour it answered with an error or `unsupported` is no evidence
//!    either way);
//! 2. on at least one neighbour besides the input it **decides**: its answer differs from the
//!    profile's base reading there, and the parser gave that answer too (a second divergence,
//!    predicted and seen);
//! 3. the parser's answer **moves**: on at least one neighbour it answers otherwise than on the
//!    input, as the reading predicts (a parser that answers the same whatever the edit is not
//!    explained by a reading of the file);
//! 4. it is the **smallest** such set, and every smallest set that passes names the same knob or
//!    deviations (two different names that the neighbours cannot tell apart are not evidence for
//!    either), unless they are two readings of one step (they differ in one deviation each, both
//!    of the same step) and the parser's other answers tell them apart: where their verdicts
//!    differ it answered as one of them every time, and that one is credited (a deviation that
//!    ends a run of user-agent lines at every other line is borne out over one that spares
//!    `Sitemap` when the parser also ends it at `Sitemap`).
//!
//! Otherwise the divergence is unexplained, and [`Unexplained`] says why: no set gives the answer
//! even on the input, the neighbours refute every set that does (with the neighbour that refutes
//! each), a set fits but decides nothing beyond the input, or two names fit equally. An
//! unexplained divergence is grouped by what its input and neighbours show
//! ([`crate::behaviour`]), never with other unexplained ones.

use crate::body::lines_with_ends;
use crate::cause::{self, Change};
use crate::deviation::{Deviation, Deviations};
use crate::knobs::KnobId;
use crate::knobs::Knobs;
use crate::line::field_and_value_spans;
use crate::relevance::Inert;
use crate::{ProfileId, Request};

/// The most lines holding a field whose own edits (deleted, repeated, moved, ...) are made, with
/// every line before the last of them (blank lines, comments): a minimised input has a handful; a
/// larger one is judged on the edits of its first lines and its whole-file edits. Counting field
/// lines, not lines, reaches the rules of a file that opens with a long comment.
pub const LINES_EDITED: usize = 24;

/// The most lines edited one by one in all, however few of them hold a field.
pub const LINES_EDITED_AT_MOST: usize = 48;

/// How many of the input's first lines get their own edits: up to the [`LINES_EDITED`]th line
/// holding a field, at most [`LINES_EDITED_AT_MOST`].
fn lines_edited(pairs: &[(&[u8], &[u8])]) -> usize {
    let mut fields = 0;
    for (i, (content, _)) in pairs.iter().enumerate().take(LINES_EDITED_AT_MOST) {
        if field_and_value_spans(content).is_some() {
            fields += 1;
            if fields == LINES_EDITED {
                return i + 1;
            }
        }
    }
    pairs.len().min(LINES_EDITED_AT_MOST)
}

/// One neighbour of an input: the input with one edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbour {
    /// The body after the edit.
    pub body: Vec<u8>,
    /// The agent after the edit.
    pub agent: String,
    /// The URL after the edit.
    pub url: String,
    /// What was edited.
    pub edit: Edit,
}

impl Neighbour {
    /// The neighbour as a question for the oracle (a plain 200 fetch, as its input's).
    pub fn request(&self) -> Request<'_> {
        Request::new(&self.body, &self.agent, &self.url)
    }
}

/// One edit that makes a neighbour. Lines are numbered from 1, as a reader counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edit {
    /// The line is deleted.
    LineDeleted(usize),
    /// The line is written twice.
    LineRepeated(usize),
    /// A blank line is put after the line.
    BlankLineAfter(usize),
    /// The line and the next swap places.
    LinesSwapped(usize),
    /// The line moves to the end of the file.
    LineMovedToEnd(usize),
    /// `Allow` becomes `Disallow` on the line, or the other way round.
    RuleFlipped(usize),
    /// The line's field name written as the documents write it (`User-agent`, `Disallow`).
    FieldAsWritten(usize),
    /// The line written plainly: its field name as the documents write it, `: `, its value; no
    /// other white space, no comment.
    LinePlain(usize),
    /// The line's value replaced by `/zz`, a path the URL does not begin with.
    ValueUnmatched(usize),
    /// The line's value replaced by the URL's path.
    ValueAsPath(usize),
    /// The line's value loses its last octet.
    ValueShortened(usize),
    /// The line's value gains an `x` at its end.
    ValueExtended(usize),
    /// Every line end written CR LF.
    LineEndsCrLf,
    /// Every line end written LF.
    LineEndsLf,
    /// The byte order mark at the start removed.
    BomRemoved,
    /// The URL's path loses its last octet.
    PathShortened,
    /// The URL's path gains an `x` at its end.
    PathExtended,
    /// The URL's path gains a segment `x/` at its end.
    PathDeeper,
    /// The URL's path moves under `/a` (`/x` becomes `/a/x`).
    PathUnder,
    /// The URL's path with its octets outside printable ASCII percent-encoded (the same URL under
    /// RFC 3986, spelt as a rule would spell it).
    PathEncoded,
    /// The URL's path and query become `/`.
    PathRoot,
    /// The URL's query removed.
    QueryRemoved,
    /// A query `?x=1` added to the URL.
    QueryAdded,
    /// Another crawler asks (`OtherBot`).
    OtherAgent,
    /// The agent written in capitals.
    AgentInCapitals,
    /// The agent gains an `x` at its end.
    AgentExtended,
    /// The agent loses its last octet.
    AgentShortened,
    /// The agent written as a user-agent line of the file writes it (where the two differ only in
    /// case).
    AgentAsInFile,
    /// A probe of how rules match: the value of the file's first rule (the line given) replaced by
    /// [`PROBE_VALUES`]`[value]` and the URL's path and query by [`PROBE_PATHS`]`[path]`.
    Probe {
        /// The rule's line.
        line: usize,
        /// Whether the rule's `Allow` or `Disallow` is swapped too.
        flipped: bool,
        /// The place of its new value in [`PROBE_VALUES`].
        value: usize,
        /// The place of the URL's new path in [`PROBE_PATHS`].
        path: usize,
    },
    /// A copy of one line put after another (numbered as in the input): `(copied, after)`.
    LineCopiedAfter(usize, usize),
    /// Every line whose field is the field of the line given (its first, compared without regard
    /// to case) deleted: every `Disallow` line, say (never every `User-agent` line). One edit where
    /// a feature the cause names is written on several lines (every `Allow` of a file, every
    /// AI-usage line), which no one-line edit removes.
    FieldDeleted(usize),
    /// Every blank line (nothing, or only spaces and tabs, before its line end) deleted.
    BlankLinesDeleted,
}

/// The most lines whose copies are put after each of the others ([`Edit::LineCopiedAfter`]): the
/// pairs grow as the square.
pub const LINES_COPIED: usize = 10;

/// The values a matching probe gives the file's first rule ([`Edit::Probe`]): a plain path, a
/// directory, a query mark, and the two wildcards before and after.
pub const PROBE_VALUES: [&str; 6] = ["/a", "/a/", "/a?", "/a*", "/a$", "/*a"];

/// The paths (with a query) a matching probe asks about ([`Edit::Probe`]).
pub const PROBE_PATHS: [&str; 5] = ["/a", "/a/", "/ab", "/a?x", "/x/a"];

impl Edit {
    /// The edit in words: "line 2 deleted".
    pub fn words(self) -> String {
        match self {
            Edit::LineDeleted(n) => format!("line {n} deleted"),
            Edit::LineRepeated(n) => format!("line {n} written twice"),
            Edit::BlankLineAfter(n) => format!("a blank line after line {n}"),
            Edit::LinesSwapped(n) => format!("lines {n} and {} swapped", n + 1),
            Edit::LineMovedToEnd(n) => format!("line {n} moved to the end"),
            Edit::RuleFlipped(n) => format!("Allow and Disallow swapped on line {n}"),
            Edit::FieldAsWritten(n) => {
                format!("the field name of line {n} written as the documents write it")
            }
            Edit::LinePlain(n) => format!("line {n} written plainly (`Field: value`)"),
            Edit::ValueUnmatched(n) => format!("the value of line {n} replaced by `/zz`"),
            Edit::ValueAsPath(n) => format!("the value of line {n} replaced by the URL's path"),
            Edit::ValueShortened(n) => format!("the value of line {n} one octet shorter"),
            Edit::ValueExtended(n) => format!("`x` added to the value of line {n}"),
            Edit::LineEndsCrLf => "every line end written CR LF".to_string(),
            Edit::LineEndsLf => "every line end written LF".to_string(),
            Edit::BomRemoved => "the byte order mark removed".to_string(),
            Edit::PathShortened => "the URL's path one octet shorter".to_string(),
            Edit::PathExtended => "`x` added to the URL's path".to_string(),
            Edit::PathDeeper => "a segment `x/` added to the URL's path".to_string(),
            Edit::PathUnder => "the URL's path moved under `/a`".to_string(),
            Edit::PathEncoded => "the URL's path percent-encoded".to_string(),
            Edit::PathRoot => "the URL's path and query replaced by `/`".to_string(),
            Edit::QueryRemoved => "the URL's query removed".to_string(),
            Edit::QueryAdded => "a query `?x=1` added to the URL".to_string(),
            Edit::OtherAgent => "asked for another crawler".to_string(),
            Edit::AgentInCapitals => "the agent written in capitals".to_string(),
            Edit::AgentExtended => "`x` added to the agent".to_string(),
            Edit::AgentShortened => "the agent one octet shorter".to_string(),
            Edit::AgentAsInFile => "the agent written as the file writes it".to_string(),
            Edit::Probe {
                line,
                flipped,
                value,
                path,
            } => format!(
                "the value of line {line} `{}`{} and the URL's path `{}`",
                PROBE_VALUES[value],
                if flipped {
                    ", Allow and Disallow swapped,"
                } else {
                    ""
                },
                PROBE_PATHS[path]
            ),
            Edit::LineCopiedAfter(copied, after) => {
                format!("a copy of line {copied} put after line {after}")
            }
            Edit::FieldDeleted(n) => {
                format!("every line with the field of line {n} deleted")
            }
            Edit::BlankLinesDeleted => "every blank line deleted".to_string(),
        }
    }

    /// The line the edit is made on, for edits of one line.
    pub fn line(self) -> Option<usize> {
        match self {
            Edit::LineDeleted(n)
            | Edit::LineRepeated(n)
            | Edit::BlankLineAfter(n)
            | Edit::LinesSwapped(n)
            | Edit::LineMovedToEnd(n)
            | Edit::RuleFlipped(n)
            | Edit::FieldAsWritten(n)
            | Edit::LinePlain(n)
            | Edit::ValueUnmatched(n)
            | Edit::ValueAsPath(n)
            | Edit::ValueShortened(n)
            | Edit::ValueExtended(n)
            | Edit::Probe { line: n, .. }
            | Edit::LineCopiedAfter(n, _) => Some(n),
            _ => None,
        }
    }
}

/// The other rule's name in the same case style: `Disallow` for `Allow`, `allow` for `disallow`.
fn flipped_field(field: &[u8]) -> Option<Vec<u8>> {
    let other: &[u8] = if field.eq_ignore_ascii_case(b"allow") {
        b"disallow"
    } else if field.eq_ignore_ascii_case(b"disallow") {
        b"allow"
    } else {
        return None;
    };
    let mut out = other.to_vec();
    if field.iter().all(|b| b.is_ascii_uppercase()) {
        out.make_ascii_uppercase();
    } else if field[0].is_ascii_uppercase() {
        out[0].make_ascii_uppercase();
    }
    Some(out)
}

/// A field name as the documents write it, when it is one they name and written otherwise.
fn field_as_written(field: &[u8]) -> Option<&'static [u8]> {
    const NAMES: [&[u8]; 5] = [
        b"User-agent",
        b"Allow",
        b"Disallow",
        b"Sitemap",
        b"Crawl-delay",
    ];
    NAMES
        .into_iter()
        .find(|name| field.eq_ignore_ascii_case(name) && field != *name)
}

/// The URL's path as a rule would write it: `/` for an empty path, every octet outside printable
/// ASCII percent-encoded (`rfc9309#2.2.2` compares the two spellings alike).
fn path_as_rule(url: &str) -> Vec<u8> {
    let (path, query, _) = url_parts(url);
    if path == query {
        return b"/".to_vec();
    }
    let mut out = Vec::new();
    for &b in &url.as_bytes()[path..query] {
        if b.is_ascii_graphic() {
            out.push(b);
        } else {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    out
}

/// The offsets of a URL's path start, query start and fragment start (each the URL's length when
/// absent): after `scheme://authority`, or 0 for a URL that is a path.
fn url_parts(url: &str) -> (usize, usize, usize) {
    let bytes = url.as_bytes();
    // A scheme is a letter, then letters, digits, `+`, `-` and `.` (RFC 3986 3.1); a `://` after
    // anything else (`/a?u=https://b`) is part of a path or query.
    let is_scheme = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    };
    // The authority ends at the first `/`, `?` or `#` after `//` (RFC 3986 3.2).
    let path = match url.find("://").filter(|&at| is_scheme(&url[..at])) {
        Some(at) => url[at + 3..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |p| at + 3 + p),
        None => 0,
    };
    let fragment = url[path..].find('#').map_or(url.len(), |f| path + f);
    let query = bytes[path..fragment]
        .iter()
        .position(|&b| b == b'?')
        .map_or(fragment, |q| path + q);
    (path, query, fragment)
}

/// The input's neighbours, each the input with one edit, in a fixed order: the edits of each of
/// its first lines ([`LINES_EDITED`]), then the line ends and a BOM, then the URL, then the agent,
/// then the probes of the first rule, the copies of lines after others, every line of one field
/// deleted, and every blank line deleted.
/// An edit that leaves the input as it is, or gives a neighbour an earlier edit gave, is left
/// out. The same input always gives the same neighbours.
pub fn neighbours(request: &Request<'_>) -> Vec<Neighbour> {
    neighbours_kept(request, &mut |_, _, _| true)
}

/// What [`neighbours_kept`] asks about each neighbour: its body as parts written one after
/// another, its agent and its URL; whether to keep it.
pub type Keep<'a> = dyn FnMut(&[&[u8]], &str, &str) -> bool + 'a;

/// The neighbours of [`neighbours`] that `keep` takes, in the same order. `keep` is asked about
/// each neighbour before its body is made, once: the body as parts written one after another, the
/// agent and the URL. The neighbours of a large body are then made only when kept (a body can be
/// 500 KiB, and an input has hundreds of neighbours). (`keep` is a trait object so that this
/// function is compiled, and optimised, with the oracle, not in each crate that calls it.)
pub fn neighbours_kept(request: &Request<'_>, keep: &mut Keep<'_>) -> Vec<Neighbour> {
    let body = request.body;
    let pairs = lines_with_ends(body);
    // Where each line starts (content and line end: joining them gives the body back), and the
    // body's end: the lines before line i are `body[..starts[i]]`, those after it
    // `body[starts[i + 1]..]`.
    let mut starts = vec![0];
    for (content, end) in &pairs {
        starts.push(starts[starts.len() - 1] + content.len() + end.len());
    }
    debug_assert_eq!(starts[pairs.len()], body.len());
    // Every neighbour so far, kept or not, to leave out an edit that gives one again.
    let mut earlier: Vec<Written> = Vec::new();
    let mut out: Vec<Neighbour> = Vec::new();
    let mut add = |parts: &[&[u8]], agent: &str, url: &str, edit: Edit| {
        let written = Written::of(body, parts, agent, url);
        // The URL and the agent first: most neighbours share the body of another (every URL
        // and agent edit, each probe's five paths).
        let same_as_input = url == request.url
            && agent == request.agent
            && written.len == body.len()
            && same_octets(written.parts(body), [body].into_iter());
        let seen = earlier.iter().any(|e| e.same_as(&written, body));
        if same_as_input || seen {
            return;
        }
        earlier.push(written);
        if keep(parts, agent, url) {
            out.push(Neighbour {
                body: parts.concat(),
                agent: agent.to_string(),
                url: url.to_string(),
                edit,
            });
        }
    };
    let (agent, url) = (request.agent, request.url);
    for (i, &(content, own_end)) in pairs.iter().enumerate().take(lines_edited(&pairs)) {
        let n = i + 1;
        // A line with no line end of its own (the last) gets LF where it is repeated or followed.
        let end: &[u8] = if own_end.is_empty() { b"\n" } else { own_end };
        let before = &body[..starts[i]];
        let after = &body[starts[i + 1]..];
        add(&[before, after], agent, url, Edit::LineDeleted(n));
        add(
            &[before, content, end, content, own_end, after],
            agent,
            url,
            Edit::LineRepeated(n),
        );
        if i + 1 < pairs.len() {
            add(
                &[before, content, own_end, end, after],
                agent,
                url,
                Edit::BlankLineAfter(n),
            );
            let (next_content, next_end) = pairs[i + 1];
            let next_end: &[u8] = if next_end.is_empty() { end } else { next_end };
            add(
                &[
                    before,
                    next_content,
                    next_end,
                    content,
                    end,
                    &body[starts[i + 2]..],
                ],
                agent,
                url,
                Edit::LinesSwapped(n),
            );
            let last_has_no_end = pairs[pairs.len() - 1].1.is_empty();
            add(
                &[
                    before,
                    after,
                    if last_has_no_end { end } else { b"" },
                    content,
                    own_end,
                ],
                agent,
                url,
                Edit::LineMovedToEnd(n),
            );
        }
        if let Some((field, value)) = field_and_value_spans(content) {
            let mut rebuilt = |new_content: &[u8], edit: Edit| {
                add(&[before, new_content, own_end, after], agent, url, edit);
            };
            if let Some(other) = flipped_field(&content[field.clone()]) {
                let new = [&content[..field.start], &other[..], &content[field.end..]].concat();
                rebuilt(&new, Edit::RuleFlipped(n));
                let new = [&content[..value.start], b"/zz", &content[value.end..]].concat();
                rebuilt(&new, Edit::ValueUnmatched(n));
                let new = [
                    &content[..value.start],
                    &path_as_rule(url)[..],
                    &content[value.end..],
                ]
                .concat();
                rebuilt(&new, Edit::ValueAsPath(n));
            }
            let written = field_as_written(&content[field.clone()]);
            if let Some(name) = written {
                let new = [&content[..field.start], name, &content[field.end..]].concat();
                rebuilt(&new, Edit::FieldAsWritten(n));
            }
            let name = written.unwrap_or(&content[field.clone()]);
            let plain = [name, b": ", &content[value.clone()]].concat();
            rebuilt(&plain, Edit::LinePlain(n));
            if value.len() >= 2 {
                let new = [&content[..value.end - 1], &content[value.end..]].concat();
                rebuilt(&new, Edit::ValueShortened(n));
            }
            if !value.is_empty() {
                let new = [&content[..value.end], b"x", &content[value.end..]].concat();
                rebuilt(&new, Edit::ValueExtended(n));
            }
        }
    }
    // The whole file: its line ends, its BOM.
    let respelled = |nl: &[u8]| -> Vec<u8> {
        pairs
            .iter()
            .flat_map(|(content, end)| {
                let end: &[u8] = if end.is_empty() { b"" } else { nl };
                [*content, end].concat()
            })
            .collect()
    };
    add(&[&respelled(b"\r\n")], agent, url, Edit::LineEndsCrLf);
    add(&[&respelled(b"\n")], agent, url, Edit::LineEndsLf);
    if let Some(rest) = request.body.strip_prefix(crate::body::UTF8_BOM) {
        add(&[rest], agent, url, Edit::BomRemoved);
    }
    // The URL.
    let (path, query, fragment) = url_parts(url);
    let with = |p: &str, q: &str| format!("{}{p}{q}{}", &url[..path], &url[fragment..]);
    let (path_text, query_text) = (&url[path..query], &url[query..fragment]);
    if path_text.len() > 1 {
        let mut shorter = path_text.to_string();
        shorter.pop();
        add(
            &[body],
            agent,
            &with(&shorter, query_text),
            Edit::PathShortened,
        );
    }
    add(
        &[body],
        agent,
        &with(&format!("{path_text}x"), query_text),
        Edit::PathExtended,
    );
    let deeper = if path_text.ends_with('/') {
        format!("{path_text}x/")
    } else {
        format!("{path_text}/x/")
    };
    add(&[body], agent, &with(&deeper, query_text), Edit::PathDeeper);
    let under = if path_text.starts_with('/') {
        format!("/a{path_text}")
    } else {
        format!("/a/{path_text}")
    };
    add(&[body], agent, &with(&under, query_text), Edit::PathUnder);
    if let Ok(encoded) = String::from_utf8(path_as_rule(url)) {
        if path_text.len() > 1 {
            add(
                &[body],
                agent,
                &with(&encoded, query_text),
                Edit::PathEncoded,
            );
        }
    }
    add(&[body], agent, &with("/", ""), Edit::PathRoot);
    if query_text.is_empty() {
        add(&[body], agent, &with(path_text, "?x=1"), Edit::QueryAdded);
    } else {
        add(&[body], agent, &with(path_text, ""), Edit::QueryRemoved);
    }
    // The agent.
    let other = if agent.eq_ignore_ascii_case("OtherBot") {
        "ThirdBot"
    } else {
        "OtherBot"
    };
    add(&[body], other, url, Edit::OtherAgent);
    add(
        &[body],
        &agent.to_ascii_uppercase(),
        url,
        Edit::AgentInCapitals,
    );
    add(&[body], &format!("{agent}x"), url, Edit::AgentExtended);
    if agent.len() > 1 && agent.is_char_boundary(agent.len() - 1) {
        add(
            &[body],
            &agent[..agent.len() - 1],
            url,
            Edit::AgentShortened,
        );
    }
    let as_in_file = pairs.iter().find_map(|(content, _)| {
        let (field, value) = field_and_value_spans(content)?;
        let value = std::str::from_utf8(&content[value]).ok()?;
        (content[field].eq_ignore_ascii_case(b"user-agent")
            && value.eq_ignore_ascii_case(agent)
            && value != agent)
            .then(|| value.to_string())
    });
    if let Some(written) = as_in_file {
        add(&[body], &written, url, Edit::AgentAsInFile);
    }
    // How the file's first rule matches: a small battery of values and paths.
    let first_rule = pairs.iter().position(|(content, _)| {
        field_and_value_spans(content)
            .is_some_and(|(field, _)| flipped_field(&content[field]).is_some())
    });
    if let Some(i) = first_rule {
        let (content, end) = pairs[i];
        let (field, value) = field_and_value_spans(content).expect("a rule line");
        let other = flipped_field(&content[field.clone()]).expect("a rule's field");
        for flipped in [false, true] {
            let name: &[u8] = if flipped {
                &other
            } else {
                &content[field.clone()]
            };
            for (v, probe_value) in PROBE_VALUES.iter().enumerate() {
                let line = [
                    &content[..field.start],
                    name,
                    &content[field.end..value.start],
                    probe_value.as_bytes(),
                    &content[value.end..],
                    end,
                ]
                .concat();
                let probed: [&[u8]; 3] = [&body[..starts[i]], &line, &body[starts[i + 1]..]];
                for (p, probe_path) in PROBE_PATHS.iter().enumerate() {
                    let edit = Edit::Probe {
                        line: i + 1,
                        flipped,
                        value: v,
                        path: p,
                    };
                    let probe_url = format!("{}{probe_path}", &url[..path]);
                    add(&probed, agent, &probe_url, edit);
                }
            }
        }
    }
    // A copy of each line after each other line: a user-agent line after a blank line, a rule
    // after another group's user-agent line.
    let copied = pairs.len().min(LINES_COPIED);
    for i in 0..copied {
        for j in 0..copied {
            if j == i || j + 1 == i {
                // After itself is a repeat; after the line before is where it already stands.
                continue;
            }
            let (content, end) = pairs[i];
            let end: &[u8] = if end.is_empty() { b"\n" } else { end };
            // Line i's copy after line j (LF first where line j has no line end, its own line
            // end after it unless line j is the last).
            let lf: &[u8] = if pairs[j].1.is_empty() { b"\n" } else { b"" };
            let copy_end: &[u8] = if j + 1 < pairs.len() { end } else { b"" };
            add(
                &[
                    &body[..starts[j + 1]],
                    lf,
                    content,
                    copy_end,
                    &body[starts[j + 1]..],
                ],
                agent,
                url,
                Edit::LineCopiedAfter(i + 1, j + 1),
            );
        }
    }
    // Every line of one field deleted, for each field written on more than one line (on one
    // line, it is that line deleted, made above); not `User-agent`: a file without any is a
    // question of its own (rules outside every group, K2), which a parser with a second bug there
    // answers otherwise than a reading that is right about the input.
    let fields: Vec<Option<Vec<u8>>> = pairs
        .iter()
        .map(|(content, _)| {
            field_and_value_spans(content).map(|(field, _)| content[field].to_ascii_lowercase())
        })
        .collect();
    // Each field's first line and how many lines hold it, in one pass (a large body has
    // thousands of lines).
    let mut counted: std::collections::HashMap<&[u8], (usize, usize)> =
        std::collections::HashMap::new();
    for (i, field) in fields.iter().enumerate() {
        if let Some(field) = field {
            counted.entry(&field[..]).or_insert((i, 0)).1 += 1;
        }
    }
    let mut repeated: Vec<(usize, &[u8])> = counted
        .into_iter()
        .filter(|(field, (_, n))| *n >= 2 && *field != b"user-agent")
        .map(|(field, (first, _))| (first, field))
        .collect();
    repeated.sort_unstable();
    // The body with the lines `deleted` says (by their place) left out, each kept line whole.
    let without = |deleted: &dyn Fn(usize) -> bool| -> Vec<u8> {
        let kept = (0..pairs.len()).filter(|&k| !deleted(k));
        kept.flat_map(|k| body[starts[k]..starts[k + 1]].iter().copied())
            .collect()
    };
    for (i, field) in repeated {
        let body = without(&|k| fields[k].as_deref() == Some(field));
        add(&[&body], agent, url, Edit::FieldDeleted(i + 1));
    }
    // Every blank line deleted: the file as one record, for a parser that reads records apart
    // otherwise (or stops at the first blank line).
    let is_blank = |k: usize| pairs[k].0.iter().all(|&b| crate::line::is_ws(b));
    if (0..pairs.len()).any(is_blank) {
        add(&[&without(&is_blank)], agent, url, Edit::BlankLinesDeleted);
    }
    out
}

/// A neighbour as [`neighbours_kept`] remembers it: its body as pieces (those of the input's body
/// by where they are in it, which copies nothing), its agent and its URL.
struct Written {
    /// The body's pieces, in order.
    pieces: Vec<Piece>,
    /// The body's length in octets.
    len: usize,
    /// The agent.
    agent: String,
    /// The URL.
    url: String,
}

/// A piece of a neighbour's body: octets of the input's body, or octets of its own.
#[derive(PartialEq, Eq, Hash)]
pub(crate) enum Piece {
    /// The input's body from the first offset to the second.
    Input(usize, usize),
    /// Octets written for this neighbour.
    Own(Vec<u8>),
}

impl Written {
    /// The neighbour whose body is `parts` written one after another, of the input whose body
    /// is `body`.
    fn of(body: &[u8], parts: &[&[u8]], agent: &str, url: &str) -> Written {
        Written {
            pieces: pieces(body, parts),
            len: parts.iter().map(|part| part.len()).sum(),
            agent: agent.to_string(),
            url: url.to_string(),
        }
    }

    /// The body's pieces as octets.
    fn parts<'a>(&'a self, body: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
        self.pieces.iter().map(move |piece| match piece {
            Piece::Input(from, to) => &body[*from..*to],
            Piece::Own(octets) => &octets[..],
        })
    }

    /// Whether `other` is the same neighbour: the same agent, URL and body.
    fn same_as(&self, other: &Written, body: &[u8]) -> bool {
        self.url == other.url
            && self.agent == other.agent
            && self.len == other.len
            && same_octets(self.parts(body), other.parts(body))
    }
}

/// `parts` as pieces of a neighbour of the input whose body is `body` (empty parts left out).
pub(crate) fn pieces(body: &[u8], parts: &[&[u8]]) -> Vec<Piece> {
    parts
        .iter()
        .filter(|part| !part.is_empty())
        .map(|part| match in_input(body, part) {
            Some((from, to)) => Piece::Input(from, to),
            None => Piece::Own(part.to_vec()),
        })
        .collect()
}

/// Where `part` is in `body` (from, to), when it is a piece of it.
pub(crate) fn in_input(body: &[u8], part: &[u8]) -> Option<(usize, usize)> {
    let at = (part.as_ptr() as usize).wrapping_sub(body.as_ptr() as usize);
    (at <= body.len() && part.len() <= body.len() - at).then(|| (at, at + part.len()))
}

/// Whether two sequences of parts, each written one after another, are the same octets.
fn same_octets<'a, 'b>(
    mut a: impl Iterator<Item = &'a [u8]>,
    mut b: impl Iterator<Item = &'b [u8]>,
) -> bool {
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    loop {
        while x.is_empty() {
            match a.next() {
                Some(part) => x = part,
                None => break,
            }
        }
        while y.is_empty() {
            match b.next() {
                Some(part) => y = part,
                None => break,
            }
        }
        if x.is_empty() || y.is_empty() {
            return x.is_empty() && y.is_empty();
        }
        let n = x.len().min(y.len());
        if x[..n] != y[..n] {
            return false;
        }
        (x, y) = (&x[n..], &y[n..]);
    }
}

/// Other questions the parser answered (the fuzzer's first inputs, the corpus's checks, the first
/// checks of a real-world run), each with its answer, and what has been worked out from them:
/// where a candidate reading answers otherwise than the profile's base reading, the parser must
/// answer as the reading does. What a reading predicts there does not depend on the divergence
/// being weighed, so each reading is checked once ([`OtherAnswers::check`]).
#[derive(Clone, Debug, Default)]
pub struct OtherAnswers {
    /// The questions (body, agent, URL; a plain 200 fetch) and the parser's answers (`None`: not
    /// a verdict).
    questions: Vec<(Vec<u8>, String, String, Option<bool>)>,
    /// Per question, what can matter on it: the knob fields (a bit per place in `KnobId::ALL`)
    /// and the deviations that can read it otherwise than the base reading ([`Inert`]). A reading
    /// that changes nothing that can matter answers as the base reading does, and is not asked.
    live: Vec<(u32, Deviations)>,
    /// Each reading checked so far (by the profile and the complete knobs): `Ok(n)`, the parser
    /// showed all `n` divergences it predicts; `Err(place)`, the first question where it did not.
    checked: std::collections::HashMap<(ProfileId, Knobs), Result<usize, usize>>,
}

impl OtherAnswers {
    /// No other answers: only the neighbours are evidence.
    pub fn none() -> OtherAnswers {
        OtherAnswers::default()
    }

    /// Adds a question and the parser's answer (`Some(true)` allowed; `None` not a verdict).
    pub fn push(&mut self, body: &[u8], agent: &str, url: &str, allowed: Option<bool>) {
        let inert = Inert::of(&Request::new(body, agent, url));
        let knobs = KnobId::ALL
            .iter()
            .filter(|&&k| !inert.knob(k))
            .fold(0u32, |mask, k| mask | 1 << k.index());
        let deviations = Deviation::ALL
            .iter()
            .filter(|&&d| !inert.deviation(d))
            .fold(Deviations::NONE, |set, &d| set.with(d));
        self.questions
            .push((body.to_vec(), agent.to_string(), url.to_string(), allowed));
        self.live.push((knobs, deviations));
        self.checked.clear();
    }

    /// How many questions the parser answered with a verdict.
    pub fn answered(&self) -> usize {
        self.questions.iter().filter(|q| q.3.is_some()).count()
    }

    /// How many questions are held.
    pub fn len(&self) -> usize {
        self.questions.len()
    }

    /// Whether no question is held.
    pub fn is_empty(&self) -> bool {
        self.questions.is_empty()
    }

    /// For `profile`'s reading `knobs`: `Ok(n)` when on every question where it answers otherwise
    /// than the base reading the parser answered as it does (`n` such questions), else
    /// `Err(place)`, the first question where the parser did not.
    pub fn check(&mut self, profile: ProfileId, knobs: Knobs) -> Result<usize, usize> {
        if let Some(known) = self.checked.get(&(profile, knobs)) {
            return *known;
        }
        let base = profile.base_knobs();
        let mut result = Ok(0);
        for (at, request, answer) in
            self.where_can_matter(changed_knobs(knobs, base), knobs.deviations)
        {
            let verdicts = cause::verdicts_under(&request, &[base, knobs]);
            if verdicts[1] == verdicts[0] {
                continue;
            }
            if verdicts[1] != answer {
                result = Err(at);
                break;
            }
            result = result.map(|shown| shown + 1);
        }
        self.checked.insert((profile, knobs), result);
        result
    }

    /// Where `profile`'s readings `a` and `b` give different verdicts: on how many questions the
    /// parser answered as `a` does, and on how many as `b` does. Two readings that both fit
    /// ([`OtherAnswers::check`]) differ only where one of them predicts a divergence the parser
    /// showed and the other the base reading's verdict.
    fn sided(&self, profile: ProfileId, a: Knobs, b: Knobs) -> (usize, usize) {
        let base = profile.base_knobs();
        let changed = changed_knobs(a, base) | changed_knobs(b, base);
        let mut sides = (0, 0);
        for (_, request, answer) in self.where_can_matter(changed, a.deviations.union(b.deviations))
        {
            let verdicts = cause::verdicts_under(&request, &[a, b]);
            if verdicts[0] == verdicts[1] {
                continue;
            }
            if verdicts[0] == answer {
                sides.0 += 1;
            } else {
                sides.1 += 1;
            }
        }
        sides
    }

    /// The questions the parser answered with a verdict on which a reading that changes the knob
    /// fields `changed` (a bit per place in `KnobId::ALL`) and holds `deviations` can answer
    /// otherwise than the base reading: (place, question, whether it allowed).
    fn where_can_matter(
        &self,
        changed: u32,
        deviations: Deviations,
    ) -> impl Iterator<Item = (usize, Request<'_>, bool)> {
        self.questions
            .iter()
            .zip(&self.live)
            .enumerate()
            .filter_map(
                move |(at, ((body, agent, url, allowed), (live_knobs, live_deviations)))| {
                    let can_matter = changed & live_knobs != 0
                        || !deviations.only_in(*live_deviations).is_empty();
                    match allowed {
                        Some(answer) if can_matter => {
                            Some((at, Request::new(body, agent, url), *answer))
                        }
                        _ => None,
                    }
                },
            )
    }

    /// The question at `place`, as a refutation.
    fn refutation_at(&self, place: usize) -> Refutation {
        let (body, agent, url, _) = &self.questions[place];
        Refutation::Elsewhere(body.clone(), agent.clone(), url.clone())
    }
}

/// A body in one line for words: line ends as ` / `, other invisible octets escaped, cut after
/// 120 characters.
fn shown_body(body: &[u8]) -> String {
    let mut out = String::new();
    for chunk in body.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str(" / "),
                '\r' => out.push_str("<CR>"),
                c if c.is_control() => out.push_str(&format!("<U+{:04X}>", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("<{b:02X}>"));
        }
    }
    if let Some((cut, _)) = out.char_indices().nth(120) {
        out.truncate(cut);
        out.push_str(" ...");
    }
    out
}

/// Where a candidate was refuted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// On the neighbour at this place of the neighbour list: the reading predicts one answer, the
    /// parser gave the other.
    Neighbour(usize),
    /// On another question the parser answered (its body, agent and URL): the reading predicts a
    /// divergence from the profile there, and the parser did not show it.
    Elsewhere(Vec<u8>, String, String),
}

/// Why a divergence is credited to no knob or deviation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unexplained {
    /// No set of changes gives the parser's answer even on the input itself.
    NoReading,
    /// Sets give the answer on the input, but the parser's other answers refute each: the first
    /// few, each with where it was refuted.
    Refuted(Vec<(Vec<Change>, Refutation)>),
    /// A set fits every answer, but decides nothing beyond the input (on no neighbour and no other
    /// question does it answer otherwise than the profile's base reading): one verdict, no
    /// evidence.
    OneVerdict(Vec<Change>),
    /// The parser gives its answer on the input whatever the edit: no reading of the file
    /// explains a parser that does not respond to it.
    Unmoved(Vec<Change>),
    /// Sets with different names fit every answer equally; nothing tells them apart.
    Ambiguous(Vec<Vec<Change>>),
}

/// The result of weighing a divergence's candidates against its neighbours and the parser's other
/// answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credit {
    /// The credited changes, or why none are.
    pub outcome: Result<Vec<Change>, Unexplained>,
    /// The neighbours asked about.
    pub asked: usize,
    /// Those the parser answered with a verdict.
    pub answered: usize,
    /// Neighbours where the credited reading differs from the profile's base reading (and the
    /// parser answered as it predicts); 0 when nothing is credited.
    pub deciding: usize,
    /// The other questions where the credited reading differs from the base reading (and the
    /// parser answered as it predicts), of `elsewhere` looked at; 0 when nothing is credited.
    pub deciding_elsewhere: usize,
    /// The other questions the parser answered, looked at.
    pub elsewhere: usize,
    /// The profile's base reading on each neighbour (true: allowed): what [`crate::behaviour`]
    /// compares the parser's answers with.
    pub base: Vec<bool>,
}

impl Credit {
    /// The credited cause's label (`K4 precedence`, `D-typo-fields + D-space-for-colon`), or
    /// `unexplained`.
    pub fn label(&self) -> String {
        cause::cause_label(self.outcome.as_ref().ok().map(Vec::as_slice))
    }

    /// What the credit rests on, in words.
    pub fn words(&self, neighbours: &[Neighbour]) -> String {
        let name = |set: &[Change]| cause::cause_label(Some(set));
        match &self.outcome {
            Ok(set) => format!(
                "{}: the oracle under it gives the parser's answer on this input and on all {} \
                 of its {} neighbours the parser answered (one edit each), {} of them where it \
                 answers otherwise than the profile; on the parser's {} other answers looked at, \
                 it predicts {} divergences and the parser shows each; no smaller set does, and \
                 no other name fits",
                name(set),
                self.answered,
                self.asked,
                self.deciding,
                self.elsewhere,
                self.deciding_elsewhere
            ),
            Err(Unexplained::NoReading) => "no knob alternative or named deviation, alone or with \
                 one or two others, gives the parser's answer on this input"
                .to_string(),
            Err(Unexplained::Refuted(refuted)) => {
                let each: Vec<String> = refuted
                    .iter()
                    .map(|(set, at)| match at {
                        Refutation::Neighbour(at) => format!(
                            "{} gives the answer here, but not with {}",
                            name(set),
                            neighbours
                                .get(*at)
                                .map_or(String::new(), |n| n.edit.words())
                        ),
                        Refutation::Elsewhere(body, agent, url) => format!(
                            "{} gives the answer here, but predicts a divergence the parser does \
                             not show on another question (`{}`, agent `{agent}`, URL `{url}`)",
                            name(set),
                            shown_body(body)
                        ),
                    })
                    .collect();
                format!(
                    "no reading gives the parser's answers on this input, its {} answered \
                     neighbours and its other answers: {}",
                    self.answered,
                    each.join("; ")
                )
            }
            Err(Unexplained::OneVerdict(set)) => format!(
                "{} fits, but decides nothing among the {} answered neighbours and {} other \
                 answers: one verdict is not evidence",
                name(set),
                self.answered,
                self.elsewhere
            ),
            Err(Unexplained::Unmoved(set)) => format!(
                "{} fits, but the parser gives the same answer on all {} answered neighbours, \
                 whatever the edit",
                name(set),
                self.answered
            ),
            Err(Unexplained::Ambiguous(sets)) => format!(
                "{} fit equally; nothing tells them apart",
                sets.iter()
                    .map(|s| name(s))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        }
    }
}

/// The knob fields (a bit per place in `KnobId::ALL`) `knobs` sets otherwise than `base`.
fn changed_knobs(knobs: Knobs, base: Knobs) -> u32 {
    KnobId::ALL
        .iter()
        .filter(|&&k| {
            let mut back = knobs;
            k.copy(&mut back, &base);
            back != knobs
        })
        .fold(0u32, |mask, k| mask | 1 << k.index())
}

/// Whether two sets of changes differ in one deviation each, both read by the same step
/// (`D-other-line-ends-agents` and `D-group-line-ends-agents`, say): two readings of one thing,
/// which the parser's other answers may tell apart. Sets that differ otherwise are two accounts of
/// the input, and a parser's other divergences, explained by one of them, say nothing about which
/// is this one's cause.
fn one_step_apart(a: &[Change], b: &[Change]) -> bool {
    let only = |x: &[Change], y: &[Change]| -> Vec<Change> {
        x.iter().filter(|c| !y.contains(c)).cloned().collect()
    };
    match (only(a, b).as_slice(), only(b, a).as_slice()) {
        ([Change::Deviation(x)], [Change::Deviation(y)]) => crate::deviation::STEPS
            .iter()
            .any(|step| step.contains(x) && step.contains(y)),
        _ => false,
    }
}

/// How many refuted candidates [`Unexplained::Refuted`] keeps.
const REFUTED_KEPT: usize = 3;

/// Weighs the candidates for the parser's answer `allowed` on `request` where `profile` says
/// otherwise, against its answers on the input's `neighbours` (`answers[i]`: `Some(true)` for
/// allowed, `None` for an answer that is not a verdict) and on `elsewhere`, other questions it
/// answered: the rules of this module's heading.
pub fn credit(
    profile: ProfileId,
    request: &Request<'_>,
    allowed: bool,
    neighbours: &[Neighbour],
    answers: &[Option<bool>],
    elsewhere: &mut [&mut OtherAnswers],
) -> Credit {
    assert_eq!(neighbours.len(), answers.len(), "one answer per neighbour");
    let base_knobs = profile.base_knobs();
    let base: Vec<bool> = neighbours
        .iter()
        .map(|n| cause::verdicts_under(&n.request(), &[base_knobs])[0])
        .collect();
    let answered = answers.iter().filter(|a| a.is_some()).count();
    let moved = answers.contains(&Some(!allowed));
    let mut credit = Credit {
        outcome: Err(Unexplained::NoReading),
        asked: neighbours.len(),
        answered,
        deciding: 0,
        deciding_elsewhere: 0,
        elsewhere: elsewhere.iter().map(|e| e.answered()).sum(),
        base,
    };
    let mut refuted: Vec<(Vec<Change>, Refutation)> = Vec::new();
    for size in 1..=3 {
        let sets = cause::sets_giving(profile, request, allowed, size);
        if sets.is_empty() {
            continue;
        }
        let readings: Vec<Knobs> = sets.iter().map(|s| cause::reading_of(profile, s)).collect();
        // Per set: where it was refuted, and on how many neighbours and other questions it
        // decides.
        let mut refuted_at: Vec<Option<Refutation>> = vec![None; sets.len()];
        let mut deciding = vec![0usize; sets.len()];
        let mut deciding_elsewhere = vec![0usize; sets.len()];
        for (at, (neighbour, answer)) in neighbours.iter().zip(answers).enumerate() {
            let Some(answer) = *answer else {
                continue;
            };
            let live: Vec<usize> = (0..sets.len())
                .filter(|&s| refuted_at[s].is_none())
                .collect();
            if live.is_empty() {
                break;
            }
            let knobs: Vec<Knobs> = live.iter().map(|&s| readings[s]).collect();
            let verdicts = cause::verdicts_under(&neighbour.request(), &knobs);
            for (&s, verdict) in live.iter().zip(verdicts) {
                if verdict != answer {
                    refuted_at[s] = Some(Refutation::Neighbour(at));
                } else if verdict != credit.base[at] {
                    deciding[s] += 1;
                }
            }
        }
        // The parser's other answers: where a reading that fits so far predicts a divergence
        // from the base reading, the parser must show it.
        for s in 0..sets.len() {
            if refuted_at[s].is_some() {
                continue;
            }
            for others in elsewhere.iter_mut() {
                match others.check(profile, readings[s]) {
                    Ok(shown) => deciding_elsewhere[s] += shown,
                    Err(at) => {
                        refuted_at[s] = Some(others.refutation_at(at));
                        break;
                    }
                }
            }
        }
        let fitting: Vec<usize> = (0..sets.len())
            .filter(|&s| refuted_at[s].is_none())
            .collect();
        if fitting.is_empty() {
            for (set, at) in sets.iter().zip(&refuted_at) {
                if let (Some(at), true) = (at, refuted.len() < REFUTED_KEPT) {
                    refuted.push((set.clone(), at.clone()));
                }
            }
            continue;
        }
        let evidenced: Vec<usize> = fitting
            .iter()
            .copied()
            .filter(|&s| deciding[s] + deciding_elsewhere[s] > 0)
            .collect();
        credit.outcome = if evidenced.is_empty() {
            Err(Unexplained::OneVerdict(sets[fitting[0]].clone()))
        } else if !moved {
            Err(Unexplained::Unmoved(sets[evidenced[0]].clone()))
        } else {
            // One set per name, the first found.
            let mut named: Vec<usize> = Vec::new();
            for &s in &evidenced {
                let label = cause::cause_label(Some(&sets[s]));
                if named
                    .iter()
                    .all(|&n| cause::cause_label(Some(&sets[n])) != label)
                {
                    named.push(s);
                }
            }
            // Rule 4's exception: of two names that fit and differ only in two readings of one
            // step, the one the parser's other answers bear out wherever the two differ.
            let borne_out = |a: usize, b: usize, elsewhere: &[&mut OtherAnswers]| {
                if !one_step_apart(&sets[a], &sets[b]) {
                    return false;
                }
                let (for_a, for_b) = elsewhere
                    .iter()
                    .map(|e| e.sided(profile, readings[a], readings[b]))
                    .fold((0, 0), |(x, y), (a, b)| (x + a, y + b));
                for_a > 0 && for_b == 0
            };
            let winner = if named.len() == 1 {
                Some(named[0])
            } else {
                named
                    .iter()
                    .copied()
                    .find(|&a| named.iter().all(|&b| b == a || borne_out(a, b, elsewhere)))
            };
            match winner {
                Some(s) => {
                    credit.deciding = deciding[s];
                    credit.deciding_elsewhere = deciding_elsewhere[s];
                    Ok(sets[s].clone())
                }
                None => Err(Unexplained::Ambiguous(
                    named.iter().map(|&s| sets[s].clone()).collect(),
                )),
            }
        };
        return credit;
    }
    if !refuted.is_empty() {
        credit.outcome = Err(Unexplained::Refuted(refuted));
    }
    credit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers a parser reading `knobs` gives on the neighbours.
    fn answers_under(knobs: Knobs, neighbours: &[Neighbour]) -> Vec<Option<bool>> {
        neighbours
            .iter()
            .map(|n| Some(cause::verdicts_under(&n.request(), &[knobs])[0]))
            .collect()
    }

    #[test]
    fn a_url_that_is_a_path_keeps_a_scheme_in_its_query() {
        let url = "/foo?u=https://b/c";
        assert_eq!(url_parts(url), (0, 4, url.len()));
        let url = "https://example.com/a?u=http://b";
        assert_eq!(url_parts(url), (19, 21, url.len()));
    }

    #[test]
    fn every_line_of_a_field_and_every_blank_line_can_go_at_once() {
        let body = b"User-agent: *\nAllow: /a\nDisallow: /\n\nUser-agent: b\nallow: /b\n \n";
        let all = neighbours(&Request::new(body, "FooBot", "/a"));
        let field = all
            .iter()
            .find(|n| n.edit == Edit::FieldDeleted(2))
            .expect("every Allow line deleted");
        assert_eq!(
            field.body,
            b"User-agent: *\nDisallow: /\n\nUser-agent: b\n \n"
        );
        let blank = all
            .iter()
            .find(|n| n.edit == Edit::BlankLinesDeleted)
            .expect("both blank lines deleted");
        assert_eq!(
            blank.body,
            b"User-agent: *\nAllow: /a\nDisallow: /\nUser-agent: b\nallow: /b\n"
        );
        // A field on one line only: deleting it is `LineDeleted`, made once (as is one blank line);
        // every user-agent line is never deleted at once.
        assert!(!all.iter().any(|n| n.edit == Edit::FieldDeleted(3)));
        assert!(!all.iter().any(|n| n.edit == Edit::FieldDeleted(1)));
    }

    #[test]
    fn the_lines_edited_reach_past_a_long_comment() {
        let mut body = "# a comment\n".repeat(30);
        body.push_str("User-agent: *\nDisallow: /a\n");
        let all = neighbours(&Request::new(body.as_bytes(), "FooBot", "/a"));
        assert!(all.iter().any(|n| n.edit == Edit::RuleFlipped(32)));
        let mut long = "# a comment\n".repeat(60);
        long.push_str("User-agent: *\nDisallow: /a\n");
        let all = neighbours(&Request::new(long.as_bytes(), "FooBot", "/a"));
        assert!(!all
            .iter()
            .any(|n| n.edit.line().is_some_and(|l| l > LINES_EDITED_AT_MOST)
                && !matches!(n.edit, Edit::Probe { .. })));
    }

    #[test]
    fn neighbours_are_distinct_and_in_order() {
        let request = Request::new(
            b"User-agent: *\nDisallow: /a\n",
            "FooBot",
            "https://example.com/a?q",
        );
        let all = neighbours(&request);
        let words: Vec<String> = all.iter().map(|n| n.edit.words()).collect();
        assert_eq!(words[0], "line 1 deleted");
        assert!(words.contains(&"Allow and Disallow swapped on line 2".to_string()));
        let flipped = all
            .iter()
            .find(|n| n.edit == Edit::RuleFlipped(2))
            .expect("flipped");
        assert_eq!(flipped.body, b"User-agent: *\nAllow: /a\n");
        let shorter = all.iter().find(|n| n.edit == Edit::PathShortened).unwrap();
        assert_eq!(shorter.url, "https://example.com/?q");
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..]
                .iter()
                .all(|b| (&a.body, &a.url, &a.agent) != (&b.body, &b.url, &b.agent)));
        }
    }

    /// The neighbours a filter keeps are those of [`neighbours`] it takes, in order, each asked
    /// about once, with the body as parts that join to the neighbour's: on bodies with repeated
    /// lines (edits that give one neighbour again), CR LF and CR line ends, no final line end,
    /// a BOM.
    #[test]
    fn the_neighbours_kept_are_the_neighbours_the_filter_takes() {
        let bodies: [&[u8]; 5] = [
            b"User-agent: *\nDisallow: /a\nDisallow: /a\nDisallow: /a\n\nDisallow: /a",
            b"\xEF\xBB\xBFUser-agent: FooBot\r\nAllow: /a$\r\nDisallow: /\r\n",
            b"# c\rUser-agent: *\rDisallow: /*a\r\r",
            b"",
            b"Disallow: /a\n",
        ];
        for body in bodies {
            let request = Request::new(body, "FooBot", "https://example.com/a?q");
            let all = neighbours(&request);
            // Every other one asked about, by its place among those asked.
            let mut asked: Vec<(Vec<u8>, String, String)> = Vec::new();
            let kept = neighbours_kept(&request, &mut |parts, agent, url| {
                asked.push((parts.concat(), agent.to_string(), url.to_string()));
                asked.len() % 2 == 1
            });
            let as_asked: Vec<(Vec<u8>, String, String)> = all
                .iter()
                .map(|n| (n.body.clone(), n.agent.clone(), n.url.clone()))
                .collect();
            assert_eq!(asked, as_asked, "{:?}", String::from_utf8_lossy(body));
            let taken: Vec<&Neighbour> = all.iter().step_by(2).collect();
            assert_eq!(kept.iter().collect::<Vec<_>>(), taken);
        }
    }

    #[test]
    fn a_parser_reading_a_deviation_is_credited_with_it() {
        // A parser that accepts `Disalow` (D-typo-fields), on the input that shows it.
        let request = Request::new(b"User-agent: *\nDisalow: /a\n", "FooBot", "/a");
        let neighbours = neighbours(&request);
        let mut knobs = ProfileId::Rfc9309.base_knobs();
        knobs.deviations = knobs.deviations.with(crate::Deviation::TypoFields);
        let credit = credit(
            ProfileId::Rfc9309,
            &request,
            false,
            &neighbours,
            &answers_under(knobs, &neighbours),
            &mut [&mut OtherAnswers::none()],
        );
        assert_eq!(
            credit.label(),
            "D-typo-fields",
            "{}",
            credit.words(&neighbours)
        );
        assert!(credit.deciding > 0);
    }

    #[test]
    fn of_two_names_the_neighbours_cannot_tell_apart_the_other_answers_decide() {
        // A parser that ends a run of user-agent lines at every other line (D-other-line-ends-
        // agents), `Sitemap` included, on an input with `Crawl-delay` there: the neighbours do not
        // tell it from D-group-line-ends-agents, which spares `Sitemap`.
        let request = Request::new(
            b"User-agent: FooBot\nCrawl-delay: 5\nUser-agent: OtherBot\nDisallow: /a\n",
            "FooBot",
            "/a",
        );
        let neighbours = neighbours(&request);
        let mut knobs = ProfileId::Rfc9309.base_knobs();
        knobs.deviations = knobs.deviations.with(crate::Deviation::OtherLineEndsAgents);
        let answers = answers_under(knobs, &neighbours);
        let sitemap: &[u8] =
            b"User-agent: FooBot\nSitemap: /s.xml\nUser-agent: OtherBot\nDisallow: /a\n";
        // The credit, given the parser's answer on a `Sitemap` line between two user-agent lines
        // as its one other answer, or no other answer.
        let credited = |on_sitemap: Option<bool>| {
            let mut others = OtherAnswers::none();
            if let Some(allowed) = on_sitemap {
                others.push(sitemap, "FooBot", "http://example.com/a", Some(allowed));
            }
            let credit = credit(
                ProfileId::Rfc9309,
                &request,
                true,
                &neighbours,
                &answers,
                &mut [&mut others],
            );
            let words = credit.words(&neighbours);
            (credit, words)
        };
        let (alone, words) = credited(None);
        assert!(
            matches!(alone.outcome, Err(Unexplained::Ambiguous(_))),
            "{words}"
        );
        // Its answer on the `Sitemap` input tells them apart.
        let shown = cause::verdicts_under(&Request::new(sitemap, "FooBot", "/a"), &[knobs])[0];
        let (told, words) = credited(Some(shown));
        assert_eq!(told.label(), "D-other-line-ends-agents", "{words}");
        // A parser that spares `Sitemap` is credited with the other name, on the same evidence.
        let (spared, words) = credited(Some(false));
        assert_eq!(spared.label(), "D-group-line-ends-agents", "{words}");
    }

    /// Whether `pattern` (`*` any octets, `$` the end) matches somewhere in `text`, unanchored.
    fn unanchored(pattern: &[u8], text: &[u8]) -> bool {
        fn at(p: &[u8], t: &[u8]) -> bool {
            match p.split_first() {
                None => true,
                Some((b'*', rest)) => (0..=t.len()).any(|i| at(rest, &t[i..])),
                Some((b'$', rest)) => t.is_empty() && at(rest, t),
                Some((c, rest)) => t.first() == Some(c) && at(rest, &t[1..]),
            }
        }
        (0..=text.len()).any(|i| at(pattern, &text[i..]))
    }

    #[test]
    fn a_coincidence_is_refuted_by_the_neighbours() {
        // A parser that matches every rule as an unanchored pattern against the whole URL (the
        // longest matching rule wins, `Allow` on a tie). With `https://example.com`, its
        // `Disallow: /` matches the `/` of `https://` and its `Allow: /$` matches nothing.
        let request = Request::new(
            b"User-agent: *\nAllow: /$\nDisallow: /\n",
            "FooBot",
            "https://example.com",
        );
        let parser = |n: &Neighbour| {
            let mut best: Option<(usize, bool)> = None;
            for (content, _) in lines_with_ends(&n.body) {
                let Some((f, v)) = field_and_value_spans(content) else {
                    continue;
                };
                let allow = content[f.clone()].eq_ignore_ascii_case(b"allow");
                if !allow && !content[f].eq_ignore_ascii_case(b"disallow") {
                    continue;
                }
                let value = &content[v];
                if value.is_empty() || !unanchored(value, n.url.as_bytes()) {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((len, was_allow)) => {
                        value.len() > len || (value.len() == len && allow && !was_allow)
                    }
                };
                if better {
                    best = Some((value.len(), allow));
                }
            }
            Some(best.is_none_or(|(_, allow)| allow))
        };
        assert_eq!(
            parser(&Neighbour {
                body: request.body.to_vec(),
                agent: "FooBot".into(),
                url: request.url.into(),
                edit: Edit::OtherAgent
            }),
            Some(false)
        );
        let neighbours = neighbours(&request);
        let answers: Vec<Option<bool>> = neighbours.iter().map(parser).collect();
        // The one-verdict search names a candidate...
        let candidate = cause::cause_of(ProfileId::Rfc9309, &request, false);
        assert!(candidate.is_some());
        // ... which the neighbours refute.
        let credit = credit(
            ProfileId::Rfc9309,
            &request,
            false,
            &neighbours,
            &answers,
            &mut [&mut OtherAnswers::none()],
        );
        assert_eq!(
            credit.label(),
            "unexplained",
            "{}",
            credit.words(&neighbours)
        );
        assert!(
            matches!(credit.outcome, Err(Unexplained::Refuted(_))),
            "{}",
            credit.words(&neighbours)
        );
    }
}
