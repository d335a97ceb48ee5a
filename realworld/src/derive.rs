//! The checks asked about a real file, derived from the file itself.
//!
//! Real files come without questions, so each file's checks are made from its own lines, the same
//! way for every file and every run (nothing random, nothing from outside the body):
//!
//! - **Agents.** From each `user-agent` line (field name in any case, value up to a `#`, trimmed),
//!   in file order: the value's product token (its leading run of letters, `-` and `_`; rfc9309#2.2.1)
//!   and the whole value where it differs (e.g. `Mozilla/5.0 (compatible; FooBot/1.0)`). `*` gives
//!   none. Then one agent that no line names (`NoSuchRobot`, with a number added if a line contains
//!   that). At most [`MAX_AGENTS`] from the file, first ones first, duplicates (ignoring case)
//!   dropped.
//! - **URLs.** From each `allow` and `disallow` line's value (non-empty, up to a `#`, trimmed), in
//!   file order, at most [`MAX_PATTERNS`] distinct values: the path with every `*` filled by `x`
//!   and a final `$` dropped (a path the rule means to match); for a value ending in `$`, that path
//!   with `x` added (what the `$` excludes); the path with the query `?q=1`; and the path with its
//!   first letter or digit percent-encoded, or, when it holds escapes, with them decoded (the same
//!   resource written the other way). Then `/` and `/robots.txt`. Octets that cannot stand in a URL
//!   (controls, space, non-ASCII) are percent-encoded in the first form; the escaped/unescaped
//!   variant of a value holding non-ASCII characters keeps them raw. Duplicates are dropped.
//! - The URLs are absolute, on the file's own origin when it is known (the URL it was fetched
//!   from), else on `http://example.com`.
//!
//! Every agent is asked about every URL, agents in the outer loop.
//!
//! Each URL has a [`UrlKind`]: the path as the file writes it, `/` and `/robots.txt`, or one of the
//! respellings the derivation makes (`$` violated, a query added, escapes decoded, raw non-ASCII
//! characters, a first letter percent-encoded). Crawlers meet the first two; the respellings probe
//! how a parser normalises, and the report counts them apart (`docs/realworld.md`).

use serde::{Deserialize, Serialize};

/// At most this many agents are taken from one file's user-agent lines.
pub const MAX_AGENTS: usize = 6;
/// At most this many distinct rule values of one file give URLs.
pub const MAX_PATTERNS: usize = 24;
/// The agent no line names (a number is appended while some line contains it).
pub const UNNAMED_AGENT: &str = "NoSuchRobot";
/// The origin of the URLs when the file's own is not known.
pub const DEFAULT_ORIGIN: &str = "http://example.com";

/// What a derived URL is, relative to the rule value it comes from. The order is the order of
/// precedence: a URL derived several ways has the first kind that gives it (a path one rule writes
/// and another rule's respelling gives is `as-written`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UrlKind {
    /// The rule's path as the file writes it: `*` filled by `x`, a final `$` dropped, and only the
    /// octets that cannot stand in a URL percent-encoded (as a client sends them).
    AsWritten,
    /// `/` and `/robots.txt`, asked of every file.
    Root,
    /// A `$`-anchored path with `x` added: what the `$` excludes.
    DollarViolated,
    /// The path with the query `?q=1` (or `&q=1`) added.
    QueryAdded,
    /// The path's `%XX` escapes decoded (the same resource written the other way).
    EscapesDecoded,
    /// The path's non-ASCII characters raw, not percent-encoded.
    NonAsciiRaw,
    /// The path's first letter or digit percent-encoded (`/%61bc` for `/abc`).
    FirstLetterEncoded,
}

impl UrlKind {
    /// Every kind, in order of precedence.
    pub const ALL: [UrlKind; 7] = [
        UrlKind::AsWritten,
        UrlKind::Root,
        UrlKind::DollarViolated,
        UrlKind::QueryAdded,
        UrlKind::EscapesDecoded,
        UrlKind::NonAsciiRaw,
        UrlKind::FirstLetterEncoded,
    ];

    /// The kind's name in `realworld.json` (`as-written`, `query-added`, ...).
    pub fn name(self) -> &'static str {
        match self {
            UrlKind::AsWritten => "as-written",
            UrlKind::Root => "root",
            UrlKind::DollarViolated => "dollar-violated",
            UrlKind::QueryAdded => "query-added",
            UrlKind::EscapesDecoded => "escapes-decoded",
            UrlKind::NonAsciiRaw => "non-ascii-raw",
            UrlKind::FirstLetterEncoded => "first-letter-encoded",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<UrlKind> {
        UrlKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What the kind is, in words, for the reports.
    pub fn meaning(self) -> &'static str {
        match self {
            UrlKind::AsWritten => {
                "the rule's path as the file writes it (`*` filled, a final `$` dropped)"
            }
            UrlKind::Root => "`/` and `/robots.txt`, asked of every file",
            UrlKind::DollarViolated => "a `$`-anchored path with `x` added (respelling)",
            UrlKind::QueryAdded => "the path with `?q=1` added (respelling)",
            UrlKind::EscapesDecoded => "the path with its `%XX` escapes decoded (respelling)",
            UrlKind::NonAsciiRaw => "the path with its non-ASCII characters raw (respelling)",
            UrlKind::FirstLetterEncoded => {
                "the path with its first letter percent-encoded (respelling)"
            }
        }
    }

    /// Whether crawlers meet such URLs as they are: the path as written, `/` and `/robots.txt`
    /// (the rest are respellings the derivation makes).
    pub fn is_plain(self) -> bool {
        matches!(self, UrlKind::AsWritten | UrlKind::Root)
    }
}

/// A file's derived questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The agents, the unnamed one last.
    pub agents: Vec<String>,
    /// The absolute URLs.
    pub urls: Vec<String>,
    /// Each URL's kind (as many as `urls`).
    pub kinds: Vec<UrlKind>,
}

impl Derived {
    /// Every (agent, URL), agents in the outer loop.
    pub fn checks(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.agents
            .iter()
            .flat_map(move |a| self.urls.iter().map(move |u| (a.as_str(), u.as_str())))
    }

    /// The kind of each check's URL, in [`Derived::checks`] order.
    pub fn check_kinds(&self) -> impl Iterator<Item = UrlKind> + '_ {
        self.agents
            .iter()
            .flat_map(move |_| self.kinds.iter().copied())
    }

    /// How many checks [`Derived::checks`] gives.
    pub fn len(&self) -> usize {
        self.agents.len() * self.urls.len()
    }

    /// Whether there are no checks (never: there is always an agent and `/`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The checks of a body fetched from `robots_url` (when known).
pub fn derive(body: &[u8], robots_url: Option<&str>) -> Derived {
    let lines = field_lines(body);
    let agents = agents(&lines);
    let origin = robots_url.and_then(origin_of).unwrap_or(DEFAULT_ORIGIN);
    let mut paths: Vec<(String, UrlKind)> = Vec::new();
    let mut values: Vec<&[u8]> = Vec::new();
    for (field, value) in &lines {
        if (field == "allow" || field == "disallow") && !value.is_empty() && !values.contains(value)
        {
            values.push(value);
        }
    }
    values.truncate(MAX_PATTERNS);
    for value in values {
        for (path, kind) in paths_of(value) {
            push_new(&mut paths, path, kind);
        }
    }
    push_new(&mut paths, "/".to_string(), UrlKind::Root);
    push_new(&mut paths, "/robots.txt".to_string(), UrlKind::Root);
    let (urls, kinds) = paths
        .into_iter()
        .map(|(p, kind)| (format!("{origin}{p}"), kind))
        .unzip();
    Derived {
        agents,
        urls,
        kinds,
    }
}

/// `(field name in lower case, value)` of every line with a colon: the value is what follows the
/// first colon up to a `#`, without spaces and tabs around it.
fn field_lines(body: &[u8]) -> Vec<(String, &[u8])> {
    body.split(|&b| b == b'\n' || b == b'\r')
        .filter_map(|line| {
            let colon = line.iter().position(|&b| b == b':')?;
            let field = trim(&line[..colon]);
            let rest = &line[colon + 1..];
            let value = trim(&rest[..rest.iter().position(|&b| b == b'#').unwrap_or(rest.len())]);
            Some((String::from_utf8_lossy(field).to_ascii_lowercase(), value))
        })
        .collect()
}

/// The agents of [`derive`].
fn agents(lines: &[(String, &[u8])]) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    let mut values = Vec::new();
    for (field, value) in lines {
        if field != "user-agent" || value.is_empty() {
            continue;
        }
        let value = String::from_utf8_lossy(value).into_owned();
        values.push(value.to_ascii_lowercase());
        let token: String = value
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '-' || *c == '_')
            .collect();
        for agent in [token, value] {
            let seen = agents.iter().any(|a| a.eq_ignore_ascii_case(&agent));
            if !agent.is_empty() && agent != "*" && !seen && agents.len() < MAX_AGENTS {
                agents.push(agent);
            }
        }
    }
    let mut unnamed = UNNAMED_AGENT.to_string();
    let mut n = 1;
    while values
        .iter()
        .any(|v| v.contains(&unnamed.to_ascii_lowercase()))
    {
        n += 1;
        unnamed = format!("{UNNAMED_AGENT}{n}");
    }
    agents.push(unnamed);
    agents
}

/// The paths one rule value gives, with their kinds (see the module's description).
fn paths_of(value: &[u8]) -> Vec<(String, UrlKind)> {
    let (pattern, anchored) = match value.strip_suffix(b"$") {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    let mut filled: Vec<u8> = Vec::new();
    for &b in pattern {
        if b == b'*' {
            filled.push(b'x');
        } else {
            filled.push(b);
        }
    }
    if !filled.starts_with(b"/") {
        filled.insert(0, b'/');
    }
    let mut paths = vec![(encoded(&filled), UrlKind::AsWritten)];
    if anchored {
        let mut beyond = filled.clone();
        beyond.push(b'x');
        paths.push((encoded(&beyond), UrlKind::DollarViolated));
    }
    let query_separator = if filled.contains(&b'?') { "&" } else { "?" };
    paths.push((
        format!("{}{query_separator}q=1", encoded(&filled)),
        UrlKind::QueryAdded,
    ));
    paths.push(other_writing(&filled));
    paths
}

/// `path` with the octets that cannot stand in a URL percent-encoded (controls, space, `"`, `<`,
/// `>`, `\`, `^`, backtick, `{`, `|`, `}`, DEL and non-ASCII); escapes already there are kept.
fn encoded(path: &[u8]) -> String {
    let mut out = String::new();
    for &b in path {
        if b <= b' ' || b >= 0x7f || b"\"<>\\^`{|}".contains(&b) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(b as char);
        }
    }
    out
}

/// The same path written the other way: escapes decoded when it holds any (octets that cannot
/// stand in a URL encoded again), raw non-ASCII characters when it holds any, else its first letter
/// or digit after the leading `/` percent-encoded.
fn other_writing(path: &[u8]) -> (String, UrlKind) {
    if let Some(decoded) = decoded(path) {
        return (encoded(&decoded), UrlKind::EscapesDecoded);
    }
    if !path.is_ascii() {
        // The raw characters, the controls and spaces still encoded.
        let text = String::from_utf8_lossy(path);
        let mut out = String::new();
        for c in text.chars() {
            if c.is_ascii() {
                out.push_str(&encoded(&[c as u8]));
            } else {
                out.push(c);
            }
        }
        return (out, UrlKind::NonAsciiRaw);
    }
    let mut out = encoded(path);
    if let Some(at) = out
        .bytes()
        .enumerate()
        .skip(1)
        .find(|(_, b)| b.is_ascii_alphanumeric())
        .map(|(at, _)| at)
    {
        let b = out.as_bytes()[at];
        out.replace_range(at..at + 1, &format!("%{b:02X}"));
    }
    (out, UrlKind::FirstLetterEncoded)
}

/// `path` with its `%XX` escapes decoded, or `None` when it holds none.
fn decoded(path: &[u8]) -> Option<Vec<u8>> {
    // Each escape decoded shortens the path by two octets.
    let out = robotstxt_oracle::url::percent_decode(path);
    (out.len() != path.len()).then_some(out)
}

/// `scheme://authority` of an absolute URL.
fn origin_of(url: &str) -> Option<&str> {
    let scheme_end = url.find("://")?;
    let rest = &url[scheme_end + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&url[..scheme_end + 3 + end])
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// Adds a path not yet there; one already there keeps its place and takes the kind that comes
/// first in [`UrlKind`]'s order.
fn push_new(items: &mut Vec<(String, UrlKind)>, item: String, kind: UrlKind) {
    match items.iter_mut().find(|(path, _)| *path == item) {
        Some((_, known)) => *known = (*known).min(kind),
        None => items.push((item, kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_from_user_agent_lines_and_one_that_none_names() {
        let body = b"User-agent: *\nuser-agent: Mozilla/5.0 (compatible; FooBot)\nUSER-AGENT: googlebot # x\nUser-agent: GoogleBot\n";
        let d = derive(body, None);
        assert_eq!(
            d.agents,
            [
                "Mozilla",
                "Mozilla/5.0 (compatible; FooBot)",
                "googlebot",
                "NoSuchRobot"
            ]
        );
    }

    #[test]
    fn the_unnamed_agent_is_one_no_line_contains() {
        let d = derive(b"User-agent: NoSuchRobotX\n", None);
        assert_eq!(d.agents.last().unwrap(), "NoSuchRobot2");
    }

    #[test]
    fn agents_are_capped() {
        let body: String = (0..20).map(|i| format!("User-agent: bot{i}\n")).collect();
        let d = derive(body.as_bytes(), None);
        // "bot0" is token "bot" and value "bot0": two agents per line.
        assert_eq!(d.agents.len(), MAX_AGENTS + 1);
    }

    #[test]
    fn urls_fill_stars_honour_and_violate_dollar_add_a_query_and_escape() {
        let d = derive(b"User-agent: *\nDisallow: /a*b$\nAllow: /%7Ex\n", None);
        assert_eq!(
            d.urls,
            [
                "http://example.com/axb",
                "http://example.com/axbx",
                "http://example.com/axb?q=1",
                "http://example.com/%61xb",
                "http://example.com/%7Ex",
                "http://example.com/%7Ex?q=1",
                "http://example.com/~x",
                "http://example.com/",
                "http://example.com/robots.txt",
            ]
        );
        assert_eq!(d.len(), d.urls.len());
        use UrlKind::*;
        assert_eq!(
            d.kinds,
            [
                AsWritten,
                DollarViolated,
                QueryAdded,
                FirstLetterEncoded,
                AsWritten,
                QueryAdded,
                EscapesDecoded,
                Root,
                Root
            ]
        );
        assert_eq!(d.check_kinds().count(), d.len());
    }

    #[test]
    fn a_path_one_rule_writes_is_as_written_whatever_respelling_gave_it_first() {
        // `/%61` decoded is `/a`, which the second rule writes; `Disallow: /` is `/` as written.
        let d = derive(
            b"Disallow: /%61
Disallow: /a
Disallow: /
",
            None,
        );
        let kind_of = |path: &str| {
            let at = d
                .urls
                .iter()
                .position(|u| u == &format!("{DEFAULT_ORIGIN}{path}"))
                .unwrap();
            d.kinds[at]
        };
        assert_eq!(kind_of("/%61"), UrlKind::AsWritten);
        assert_eq!(kind_of("/a"), UrlKind::AsWritten);
        assert_eq!(kind_of("/%61?q=1"), UrlKind::QueryAdded);
        assert_eq!(kind_of("/"), UrlKind::AsWritten);
        assert_eq!(kind_of("/robots.txt"), UrlKind::Root);
        assert_eq!(d.urls.len(), d.kinds.len());
        let names: Vec<&str> = UrlKind::ALL.iter().map(|k| k.name()).collect();
        for name in names {
            assert_eq!(UrlKind::from_name(name).unwrap().name(), name);
        }
    }

    #[test]
    fn non_ascii_values_give_an_encoded_and_a_raw_url() {
        let d = derive("Disallow: /ä ö\n".as_bytes(), None);
        assert_eq!(d.urls[0], "http://example.com/%C3%A4%20%C3%B6");
        assert_eq!(d.urls[2], "http://example.com/ä%20ö");
        assert_eq!(
            d.kinds[..3],
            [
                UrlKind::AsWritten,
                UrlKind::QueryAdded,
                UrlKind::NonAsciiRaw
            ]
        );
    }

    #[test]
    fn the_origin_is_the_files_own_when_known() {
        let d = derive(
            b"Disallow: x\n",
            Some("https://example.org:8443/robots.txt"),
        );
        assert_eq!(d.urls[0], "https://example.org:8443/x");
        assert!(d
            .urls
            .contains(&"https://example.org:8443/robots.txt".to_string()));
    }

    #[test]
    fn a_query_in_the_rule_gets_an_ampersand_and_empty_rules_give_nothing() {
        let d = derive(b"Disallow:\nDisallow: /p?a=1\n", None);
        assert_eq!(d.urls[1], "http://example.com/p?a=1&q=1");
        assert_eq!(d.urls.len(), 5);
    }

    #[test]
    fn rule_values_are_capped_and_derivation_is_deterministic() {
        let body: String = (0..100).map(|i| format!("Disallow: /p{i}\n")).collect();
        let d = derive(body.as_bytes(), None);
        assert_eq!(d.urls.len(), MAX_PATTERNS * 3 + 2);
        assert_eq!(d, derive(body.as_bytes(), None));
    }
}
