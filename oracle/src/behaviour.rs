//! What an unexplained divergence shows: its behaviour group.
//!
//! A divergence that no knob or deviation is credited with ([`crate::evidence`]) still says
//! something: its (minimised) input, the lines it hangs on, and how the parser answers the input's
//! neighbours. Two unexplained divergences are one group only when they show the same: the same
//! **shape** of input (the lines as written, with each word of a value, the agent and the URL
//! replaced by a name for it, `w1`, `w2`, ..., the same word always the same name; field names,
//! punctuation, white space, line ends and other octets kept as they are), the same answer, and
//! the same **answers on the neighbours** (on each, whether the parser agrees with the profile's
//! base reading). Unrelated bugs show different inputs or answer the neighbours differently, so
//! they never share a group, a ledger group or an upstream report; the same bug met on `/a` and on
//! `/b` is one group.

use crate::body::lines_with_ends;
use crate::evidence::{Edit, Neighbour};
use crate::Request;

/// How a behaviour group is named where a cause label would stand (a fuzz bucket's cause, a
/// ledger group's `id`): `unexplained ` and the group's key.
pub const ID_PREFIX: &str = "unexplained ";

/// Whether `id` names a behaviour group: [`ID_PREFIX`] and 16 lower-case hex digits.
pub fn is_id(id: &str) -> bool {
    key_of(id).is_some()
}

/// The key of a behaviour group's id (`unexplained 1f0c...` gives `1f0c...`).
pub fn key_of(id: &str) -> Option<&str> {
    let key = id.strip_prefix(ID_PREFIX)?;
    (key.len() == 16 && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))).then_some(key)
}

/// An unexplained divergence's group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// A stable name for the group: 16 hex digits of a hash of what it shows (file names, ledger
    /// ids and links use it).
    pub key: String,
    /// The input's shape: body, agent and URL, each word replaced by its name.
    pub shape: String,
    /// The lines the divergence hangs on: those whose deletion makes the parser agree with the
    /// profile's base reading (numbered from 1), each with its text.
    pub deciding_lines: Vec<(usize, String)>,
}

impl Behaviour {
    /// The group's id where a cause label would stand: `unexplained <key>`.
    pub fn id(&self) -> String {
        format!("{ID_PREFIX}{}", self.key)
    }

    /// The group's name in words: `unexplained <key>`, and the first line it hangs on.
    pub fn title(&self) -> String {
        match self.deciding_lines.first() {
            Some((n, text)) => format!("unexplained {}: hangs on line {n}, `{text}`", self.key),
            None => format!("unexplained {}", self.key),
        }
    }
}

/// The behaviour group of a divergence: the parser answered `allowed` on `request`, `answers` on
/// its `neighbours` ([`crate::evidence::neighbours`]), where the profile's base reading answers
/// `base` on them ([`crate::evidence::Credit::base`]).
pub fn behaviour(
    request: &Request<'_>,
    allowed: bool,
    neighbours: &[Neighbour],
    answers: &[Option<bool>],
    base: &[bool],
) -> Behaviour {
    let shape = shape(request);
    // On each neighbour: `=` the parser agrees with the base reading, `x` it does not, `-` it gave
    // no verdict; in the neighbours' order, which depends only on the input's shape.
    let agreement: String = answers
        .iter()
        .zip(base)
        .map(|(answer, base)| match answer {
            Some(a) if a == base => '=',
            Some(_) => 'x',
            None => '-',
        })
        .collect();
    let lines = lines_with_ends(request.body);
    let deciding_lines = neighbours
        .iter()
        .zip(answers.iter().zip(base))
        .filter_map(|(n, (answer, base))| match (n.edit, answer) {
            (Edit::LineDeleted(line), Some(a)) if a == base => Some(line),
            _ => None,
        })
        .map(|line| {
            let text = lines.get(line - 1).map_or(&b""[..], |(content, _)| content);
            (line, printable(text))
        })
        .collect();
    let identity = format!(
        "{shape}\nanswer: {}\nneighbours: {agreement}",
        if allowed { "allowed" } else { "disallowed" }
    );
    Behaviour {
        key: format!("{:016x}", fnv1a(identity.as_bytes())),
        shape,
        deciding_lines,
    }
}

/// The input's shape: `body | agent | url`, each word (a run of ASCII letters and digits) in a
/// value, the agent or the URL replaced by `w` and the number of its first appearance (the same
/// word, whatever its case, the same number; its case kept as `w` for lower case, `W` for upper,
/// `Ww` for mixed); field names (before a line's first colon) as written; every other octet as
/// written, invisible ones escaped.
pub fn shape(request: &Request<'_>) -> String {
    let mut words: Vec<(Vec<u8>, String)> = Vec::new();
    let mut out = String::new();
    for (content, end) in lines_with_ends(request.body) {
        let line = [content, end].concat();
        let line = &line[..];
        let colon = line.iter().position(|&b| b == b':');
        let (field, rest) = match colon {
            Some(at) if !line[..at].contains(&b'#') => line.split_at(at),
            _ => (&b""[..], line),
        };
        out.push_str(&printable(field));
        out.push_str(&abstracted(rest, &mut words));
    }
    out.push_str(" | ");
    out.push_str(&abstracted(request.agent.as_bytes(), &mut words));
    out.push_str(" | ");
    out.push_str(&abstracted(request.url.as_bytes(), &mut words));
    out
}

/// `text` with every word replaced by its name: `w` and the number of its first appearance
/// (`words` holds each word seen, case folded, with its name), or, for a new word that extends an
/// earlier one or begins it, that word's name and `+` or `-` (`googlebote` after `googlebot` is
/// `w1+`, `googlebo` is `w1-`): what a parser that compares names by prefix reads.
fn abstracted(text: &[u8], words: &mut Vec<(Vec<u8>, String)>) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_alphanumeric() {
            out.push_str(&printable(&text[i..=i]));
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && text[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let word = &text[start..i];
        let folded = word.to_ascii_lowercase();
        let name = match words.iter().find(|(w, _)| *w == folded) {
            Some((_, name)) => name.clone(),
            None => {
                let related = words.iter().find_map(|(w, name)| {
                    if folded.starts_with(w) {
                        Some(format!("{name}+"))
                    } else if w.starts_with(&folded) {
                        Some(format!("{name}-"))
                    } else {
                        None
                    }
                });
                let name = related.unwrap_or_else(|| format!("{}", words.len() + 1));
                words.push((folded, name.clone()));
                name
            }
        };
        let letters = word.iter().filter(|b| b.is_ascii_alphabetic());
        let upper = letters.clone().filter(|b| b.is_ascii_uppercase()).count();
        let lower = letters.filter(|b| b.is_ascii_lowercase()).count();
        let case = match (upper, lower) {
            (0, _) => "w",
            (_, 0) => "W",
            _ => "Ww",
        };
        out.push_str(&format!("{case}{name}"));
    }
    out
}

/// Octets as text: printable ASCII as it is, everything else as `\n`, `\r`, `\t` or `\xHH`.
fn printable(octets: &[u8]) -> String {
    let mut out = String::new();
    for &b in octets {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
    out
}

/// FNV-1a, 64 bits: a fixed hash, the same on every machine and in every version, for names that
/// must stay stable.
pub fn fnv1a(octets: &[u8]) -> u64 {
    fnv1a_of_parts(&[octets])
}

/// [`fnv1a`] of the parts written one after another, without copying them into one buffer.
pub fn fnv1a_of_parts(parts: &[&[u8]]) -> u64 {
    fnv1a_continued(FNV1A_OF_NOTHING, parts)
}

/// [`fnv1a`] of no octet.
pub const FNV1A_OF_NOTHING: u64 = 0xcbf2_9ce4_8422_2325;

/// [`fnv1a_of_parts`] of the octets whose hash is `hash` followed by `parts`: FNV-1a takes the
/// octets one by one, so the hash of a beginning shared by several strings can be taken once and
/// continued for each.
pub fn fnv1a_continued(hash: u64, parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|part| part.iter())
        .fold(hash, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// The hashes ([`fnv1a_of_parts`]) of the bodies of one input body's neighbours,
/// each body's kept by its pieces: the checks of one body have neighbours with the same bodies
/// (their agents and URLs differ), and a body can be 500 KiB, so each is hashed once.
pub struct BodyHashes<'b> {
    /// The input's body.
    body: &'b [u8],
    /// The hashes taken, by the body's pieces.
    known: std::collections::HashMap<Vec<crate::evidence::Piece>, u64>,
}

impl<'b> BodyHashes<'b> {
    /// No hash taken yet, for the neighbours of the input whose body is `body`.
    pub fn new(body: &'b [u8]) -> BodyHashes<'b> {
        BodyHashes {
            body,
            known: std::collections::HashMap::new(),
        }
    }

    /// The hash of the body `parts` writes (as [`crate::evidence::neighbours_kept`] gives a body to its filter),
    /// taken once. A body with a long part of its own (a whole body rewritten) is hashed each
    /// time: only the input's body's pieces are cheap to compare.
    pub fn of(&mut self, parts: &[&[u8]]) -> u64 {
        let long_own = parts
            .iter()
            .any(|part| part.len() > 256 && crate::evidence::in_input(self.body, part).is_none());
        if long_own {
            return fnv1a_of_parts(parts);
        }
        *self
            .known
            .entry(crate::evidence::pieces(self.body, parts))
            .or_insert_with(|| fnv1a_of_parts(parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_shape_whatever_the_words() {
        let a = Request::new(b"User-agent: *\nDisallow: /ab\n", "FooBot", "/ab/cd");
        let b = Request::new(b"User-agent: *\nDisallow: /xy\n", "BarBot", "/xy/z");
        assert_eq!(shape(&a), shape(&b));
        assert_eq!(shape(&a), "User-agent: *\\nDisallow: /w1\\n | Ww2 | /w1/w3");
        // Another line end, another field spelling, a repeated word where there was a new one:
        // other shapes.
        let c = Request::new(b"User-agent: *\r\nDisallow: /ab\r\n", "FooBot", "/ab/cd");
        let d = Request::new(b"User-agent: *\nDisalow: /ab\n", "FooBot", "/ab/cd");
        let e = Request::new(b"User-agent: *\nDisallow: /ab\n", "FooBot", "/ab/ab");
        for other in [c, d, e] {
            assert_ne!(shape(&a), shape(&other));
        }
        // A word that extends an earlier one, or begins it, says so.
        let longer = Request::new(b"User-agent: googlebote\n", "googlebot", "/");
        let shorter = Request::new(b"User-agent: googlebo\n", "googlebot", "/");
        assert_eq!(shape(&longer), "User-agent: w1\\n | w1- | /");
        assert_eq!(shape(&shorter), "User-agent: w1\\n | w1+ | /");
    }

    #[test]
    fn ids_name_groups() {
        assert!(is_id("unexplained 0123456789abcdef"));
        assert_eq!(
            key_of("unexplained 0123456789abcdef"),
            Some("0123456789abcdef")
        );
        for not in [
            "unexplained",
            "unexplained 0123",
            "K4 precedence",
            "unexplained 0123456789ABCDEF",
        ] {
            assert!(!is_id(not), "{not}");
        }
    }

    #[test]
    fn the_key_is_stable() {
        // A fixed value: a changed hash or shape would rename every group on the site.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(format!("{:016x}", fnv1a(b"a")), "af63dc4c8601ec8c");
        assert_eq!(fnv1a_of_parts(&[b"ab", b"", b"c"]), fnv1a(b"abc"));
        assert_eq!(fnv1a_continued(fnv1a(b"ab"), &[b"c"]), fnv1a(b"abc"));
    }
}
