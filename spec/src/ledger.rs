//! A parser's ledger: the divergences from the chosen profiles its authors accept, each with a
//! one-line reason, and the corpus version it was written against.
//!
//! One format serves `robotstxt-spec`'s suite, `certify` and the matrix's ledgers
//! (`adapters/expectations/`): the parser is named by `parser:` (what bless writes) or `adapter:`
//! (what `ledger rewrite` writes); a check by its test name `<profile>::<case-id>#<n>` (so a
//! failing test names its own entry), or by its id `<case-id>#<n>` when the file gives the one
//! `profile:` it is judged against. Either tool reads either form.
//! The ledger is strict: an unlisted divergence, a listed one that now passes, a listed answer that
//! changed, an entry naming no check, and an entry whose reason is still [`UNEXPLAINED`] all fail.
//!
//! An `error` or `crash` answer (a library's known exception) can be accepted too, by the pattern
//! its message must match (`message:`, `*` standing for any text), with a reason like any other
//! divergence: it is never a pass, and an error whose message the pattern does not match is
//! unexpected. A `timeout` is never accepted (it depends on the machine).
//!
//! This module is the one ledger model: the answer kinds, the file's groups and entries, parsing
//! with file and line in errors, the judgement of an answer against an entry ([`standing`]) and
//! the rewrite that keeps reasons and groups the rest by cause ([`regroup`]). The suite's ledger
//! ([`Ledger`], keyed by test name) and the matrix's (the repository's `src/ledger.rs`, one per
//! adapter, keyed by check id) are both read, judged and rewritten with it.
//!
//! ```yaml
//! parser: toy
//! corpus: 0.1.0
//! divergences:
//!   - reason: "`*` in a path is taken literally"
//!     checks:
//!       rfc9309::rfc9309/wildcards/star-in-middle#1: allowed
//!   - reason: "raises EmptyRobots on an empty file (upstream issue 12)"
//!     message: "EmptyRobots*"
//!     checks:
//!       rfc9309::rfc9309/groups/empty-body#1: error
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_oracle::{ProfileId, Verdict};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::answer::Answer;
pub use crate::answer::{is_failure, FAILURE_KINDS};

/// The reason bless gives a divergence it has no reason for; the check's test fails on it until a
/// person writes the reason.
pub const UNEXPLAINED: &str =
    "UNEXPLAINED: written by ROBOTSTXT_SPEC_BLESS=1; replace with the reason";

/// The answer kinds a ledger records as readings of the file: a verdict, or `unsupported`.
pub const KINDS: [&str; 3] = ["allowed", "disallowed", "unsupported"];

/// Every answer kind: [`KINDS`], then [`FAILURE_KINDS`].
pub const ALL_KINDS: [&str; 6] = [
    KINDS[0],
    KINDS[1],
    KINDS[2],
    FAILURE_KINDS[0],
    FAILURE_KINDS[1],
    FAILURE_KINDS[2],
];

/// The answer kinds a ledger may list: the readings ([`KINDS`]), and `error` and `crash` by their
/// message's pattern.
pub const LISTED_KINDS: [&str; 5] = [KINDS[0], KINDS[1], KINDS[2], "error", "crash"];

/// Whether `text` matches `pattern`, where `*` stands for any run of characters (none included)
/// and every other character for itself; the whole text must match (`*ValueError*` for a message
/// holding `ValueError`). Linear in the text for each `*`, no backtracking blow-up.
pub fn matches_pattern(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No `*`: the whole text is the pattern.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// A ledger as written in its file: the one format of the suite's, `certify`'s and the matrix's
/// ledgers (the module's documentation). Give the parser's name as `parser:` or `adapter:`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerFile {
    /// The parser's name (the form bless writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parser: Option<String>,
    /// The parser's name (the form `ledger rewrite` writes; the adapter's id or `--adapter-command`
    /// name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
    /// The one profile the file is judged against, when it names checks by id (`<case-id>#<n>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The corpus version the ledger was written against ([`crate::CORPUS_VERSION`] then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus: Option<String>,
    /// Groups of divergences sharing a reason.
    #[serde(default)]
    pub divergences: Vec<Group>,
}

/// Divergences that share one reason (the same in the suite's and the matrix's ledgers).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Why the parser answers this way (one line).
    pub reason: String,
    /// The knob or deviation that explains the group's divergences, in the oracle's vocabulary
    /// (`K6 wildcards`, `D-typo-fields`, `D-typo-fields + D-space-for-colon`;
    /// `docs/deviations.md`), when bless or `ledger rewrite` could tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// For a group of `error` or `crash` answers (and only then; it is required there): the
    /// pattern their message must match, `*` for any text ([`matches_pattern`]). An answer of the
    /// kind listed whose message does not match is not the failure the ledger accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Check → the answer kind it gets (`allowed`, `disallowed`, `unsupported`, `error`,
    /// `crash`). A check is named by its test name (`<profile>::<case-id>#<n>`), or by its id
    /// (`<case-id>#<n>`) in a file that gives its `profile:`.
    pub checks: BTreeMap<String, String>,
}

/// An entry: the answer a check is known to get, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The answer kind.
    pub answer: String,
    /// The reason.
    pub reason: String,
    /// The group's knob or deviation id, if it has one.
    pub id: Option<String>,
    /// For an `error` or `crash`: the pattern the answer's message must match.
    pub message: Option<String>,
}

impl Entry {
    /// Whether `answer` is the one this entry records: the same kind and, for a failure, a message
    /// its pattern matches.
    pub fn accepts(&self, answer: &Answer) -> bool {
        if self.answer != answer.kind() {
            return false;
        }
        match (&self.message, answer.detail()) {
            (Some(pattern), Some(message)) => matches_pattern(pattern, message),
            (Some(_), None) => false,
            (None, _) => !answer.is_failure(),
        }
    }

    /// What it records, for messages: `error` matching `*pattern*`, or the kind.
    pub fn describe(&self) -> String {
        match &self.message {
            Some(pattern) => format!("`{}` with a message matching `{pattern}`", self.answer),
            None => format!("`{}`", self.answer),
        }
    }
}

/// A loaded, validated ledger.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// The file it came from.
    pub path: PathBuf,
    /// The corpus version it was written against (`None` when the file does not exist yet).
    pub corpus: Option<String>,
    /// Test name → entry.
    pub entries: BTreeMap<String, Entry>,
}

impl Ledger {
    /// Loads a ledger; a missing file is an empty ledger. Errors name the file and, for YAML
    /// errors, line and column.
    pub fn load(path: &Path) -> Result<Ledger, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Ledger {
                    path: path.to_path_buf(),
                    ..Ledger::default()
                })
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Ledger::parse(path, &text)
    }

    /// Parses a ledger's text (`path` names it in errors): either form ([`LedgerFile`]), entries
    /// keyed by test name.
    pub fn parse(path: &Path, text: &str) -> Result<Ledger, String> {
        let read = read(path, text, None)?;
        Ok(Ledger {
            path: path.to_path_buf(),
            corpus: Some(read.corpus.unwrap_or_default()).filter(|c| !c.is_empty()),
            entries: read.entries,
        })
    }
}

/// A ledger file read and checked ([`read`]): its header and its entries, keyed by test name.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The parser's name (`parser:` or `adapter:`).
    pub name: String,
    /// The file's `profile:`, when it gives one.
    pub profile: Option<ProfileId>,
    /// The file's `corpus:`, when it gives one.
    pub corpus: Option<String>,
    /// Test name (`<profile>::<case-id>#<n>`) → entry.
    pub entries: BTreeMap<String, Entry>,
}

impl Read {
    /// The profiles its entries name, in order.
    pub fn profiles(&self) -> Vec<ProfileId> {
        let mut profiles: Vec<ProfileId> = self
            .entries
            .keys()
            .filter_map(|k| k.split_once("::"))
            .filter_map(|(p, _)| ProfileId::from_name(p))
            .collect();
        profiles.sort_by_key(|p| p.index());
        profiles.dedup();
        profiles
    }

    /// The entries judged under `profile`, keyed by check id (`<case-id>#<n>`).
    pub fn entries_under(&self, profile: ProfileId) -> BTreeMap<String, Entry> {
        let prefix = format!("{}::", profile.name());
        self.entries
            .iter()
            .filter_map(|(k, e)| {
                k.strip_prefix(&prefix)
                    .map(|id| (id.to_string(), e.clone()))
            })
            .collect()
    }
}

/// Reads a ledger file's text in either form ([`LedgerFile`]): the checks named by id are named
/// by test name under the file's `profile:`; a test name's profile must be a known one and, when
/// the file gives a `profile:`, that one. `known_id` checks each group's `id`
/// ([`entries_of`]). Errors name the file (`path`) and, for YAML errors, line and column.
pub fn read(
    path: &Path,
    text: &str,
    known_id: Option<&dyn Fn(&str) -> bool>,
) -> Result<Read, String> {
    let at = |message: String| format!("{}: {message}", path.display());
    let file: LedgerFile = parse_yaml(path, text)?;
    let name = match (file.parser, file.adapter) {
        (Some(name), None) | (None, Some(name)) => name,
        (Some(_), Some(_)) => {
            return Err(at(
                "give the parser's name as `parser:` or as `adapter:`, not both".to_string(),
            ))
        }
        (None, None) => {
            return Err(at(
                "missing `parser:` (or `adapter:`), the parser's name".to_string()
            ))
        }
    };
    let profile = match &file.profile {
        None => None,
        Some(p) => {
            Some(ProfileId::from_name(p).ok_or_else(|| at(format!("unknown profile `{p}`")))?)
        }
    };
    let written = entries_of(path, file.divergences, &LISTED_KINDS, known_id)?;
    let mut entries = BTreeMap::new();
    for (key, entry) in written {
        let name = match (key.split_once("::"), profile) {
            (Some((p, _)), _) if ProfileId::from_name(p).is_none() => {
                return Err(at(format!(
                    "{key}: `{p}` is not a profile (rfc9309, google, draft-1996, original-1994)"
                )))
            }
            (Some((p, _)), Some(file_profile)) if p != file_profile.name() => {
                return Err(at(format!(
                    "{key} names another profile than the file's `profile: {}`",
                    file_profile.name()
                )))
            }
            (Some(_), _) => key,
            (None, Some(file_profile)) => format!("{}::{key}", file_profile.name()),
            (None, None) => {
                return Err(at(format!(
                    "{key} names no profile: write it as `<profile>::{key}`, or give the file's \
                     `profile:`"
                )))
            }
        };
        if entries.insert(name.clone(), entry).is_some() {
            return Err(at(format!("{name} is listed twice")));
        }
    }
    Ok(Read {
        name,
        profile,
        corpus: file.corpus,
        entries,
    })
}

/// Reads a ledger file's text as `T` (the suite's [`LedgerFile`] or the matrix's): a check
/// listed twice is an error naming file and line ([`duplicate_key`]), a YAML error names file,
/// line and column.
pub fn parse_yaml<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, String> {
    if let Some(error) = duplicate_key(path, text) {
        return Err(error);
    }
    serde_yaml::from_str(text).map_err(|e| match e.location() {
        Some(l) => format!("{}:{}:{}: {e}", path.display(), l.line(), l.column()),
        None => format!("{}: {e}", path.display()),
    })
}

/// The entries of a ledger file's groups (check → entry), validated: every group has a one-line
/// reason, every answer is one of `kinds`, no check is listed twice, and, when `known_id` is
/// given, every group's `id` is one it knows (the matrix: a knob or deviation label). Errors name
/// the file (`path`).
pub fn entries_of(
    path: &Path,
    groups: Vec<Group>,
    kinds: &[&str],
    known_id: Option<&dyn Fn(&str) -> bool>,
) -> Result<BTreeMap<String, Entry>, String> {
    let at = |message: String| format!("{}: {message}", path.display());
    let mut entries = BTreeMap::new();
    for group in groups {
        if group.reason.trim().is_empty() || group.reason.contains('\n') {
            return Err(at(
                "every divergence group needs a one-line reason".to_string()
            ));
        }
        if let Some((check, _)) = group.checks.iter().find(|(_, a)| *a == "timeout") {
            return Err(at(format!(
                "{check}: a `timeout` cannot be listed: how long a check takes depends on the \
                 machine; raise --timeout, or fix the adapter or parser"
            )));
        }
        let failures = group.checks.values().filter(|a| is_failure(a)).count();
        match (&group.message, failures) {
            (Some(_), n) if n < group.checks.len() => {
                return Err(at(format!(
                    "the group `{}` gives `message:`, the pattern of an `error` or `crash` \
                     answer's message, but lists other answers too: put them in a group of their \
                     own",
                    group.reason
                )))
            }
            (Some(pattern), _) if pattern.trim().is_empty() || pattern.contains('\n') => {
                return Err(at(format!(
                    "the group `{}` gives an empty `message:` pattern (`*` matches any message)",
                    group.reason
                )))
            }
            (None, n) if n > 0 => {
                return Err(at(format!(
                    "the group `{}` lists `error` or `crash` answers without `message:`, the \
                     pattern their message must match (`*` for any text, e.g. \
                     `message: \"ValueError: *\"`): a ledger accepts a known failure by its \
                     message, not any failure of the kind",
                    group.reason
                )))
            }
            _ => {}
        }
        if let (Some(id), Some(known_id)) = (&group.id, known_id) {
            if !known_id(id) {
                return Err(at(format!(
                    "`id: {id}` names no knob or deviation (e.g. `K4 precedence`, \
                     `D-typo-fields`, `D-typo-fields + D-space-for-colon`; docs/deviations.md)"
                )));
            }
        }
        for (check, answer) in group.checks {
            if !kinds.contains(&answer.as_str()) {
                return Err(at(format!(
                    "{check}: `{answer}` is not an answer kind a ledger lists ({})",
                    kinds.join(", ")
                )));
            }
            let entry = Entry {
                answer,
                reason: group.reason.clone(),
                id: group.id.clone(),
                message: group.message.clone(),
            };
            if entries.insert(check.clone(), entry).is_some() {
                return Err(at(format!("{check} is listed twice")));
            }
        }
    }
    Ok(entries)
}

/// The first check key a ledger's text lists twice, as `file:line: ... listed twice (first at
/// line N)`: YAML maps keep the last of duplicate keys silently, so the text is read for them
/// before it is parsed. A key is a check id (`<case-id>#<n>`, `<profile>::<case-id>#<n>`)
/// followed by `: <answer kind>`, in block style or in a one-line flow map.
pub fn duplicate_key(path: &Path, text: &str) -> Option<String> {
    let unquote = |t: &str| {
        let t = t.trim();
        t.strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .or_else(|| t.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
            .unwrap_or(t)
            .to_string()
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.split(" #").next().unwrap_or_default();
        let inner = match (line.find('{'), line.rfind('}')) {
            (Some(open), Some(close)) if open < close => &line[open + 1..close],
            _ => line,
        };
        for item in inner.split(',') {
            let Some((key, value)) = item.rsplit_once(':') else {
                continue;
            };
            let (key, value) = (unquote(key), unquote(value));
            if !key.contains('#') || !ALL_KINDS.contains(&value.as_str()) {
                continue;
            }
            if let Some(first) = seen.insert(key.clone(), number) {
                return Some(format!(
                    "{}:{number}: {key} is listed twice (first at line {first}); a check has \
                     one entry",
                    path.display()
                ));
            }
        }
    }
    None
}

/// Whether a reason is still the placeholder bless or `ledger rewrite` writes (it starts with
/// `UNEXPLAINED`): such an entry explains nothing, and fails the suite, the harness and
/// `certify`.
pub fn is_unexplained(reason: &str) -> bool {
    reason.trim_start().starts_with("UNEXPLAINED")
}

/// Where an answer stands against what the profile expects and the ledger's entry for its check:
/// the judgement the suite ([`crate::suite::judge`]) and the matrix specialise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing<'e> {
    /// The answer agrees and the ledger lists nothing.
    Pass,
    /// The answer agrees but the ledger lists a divergence: the entry must go.
    Fixed(&'e Entry),
    /// The answer diverges, as the ledger's entry says (with the same answer).
    Listed(&'e Entry),
    /// The answer diverges, with another answer than the ledger's entry says.
    Changed(&'e Entry),
    /// The answer diverges and the ledger lists nothing.
    Unlisted,
}

/// Where `answer` stands ([`Standing`]) against `expected`, the profile's verdict
/// ([`crate::Answer::agrees`]), and `entry`, the ledger's entry for its check: listed when the
/// entry accepts it ([`Entry::accepts`]: the same kind and, for a failure, a matching message).
pub fn standing<'e>(answer: &Answer, expected: Verdict, entry: Option<&'e Entry>) -> Standing<'e> {
    match (answer.agrees(expected), entry) {
        (true, None) => Standing::Pass,
        (true, Some(entry)) => Standing::Fixed(entry),
        (false, Some(entry)) if entry.accepts(answer) => Standing::Listed(entry),
        (false, Some(entry)) => Standing::Changed(entry),
        (false, None) => Standing::Unlisted,
    }
}

/// Whether `old` still holds for `check` answered `answer` with a reason a person wrote: its entry
/// accepts the answer ([`Entry::accepts`]) and is not [`UNEXPLAINED`]. A rewrite keeps such an
/// entry; it is the only way an `error` or `crash` stays in a ledger.
pub fn still_holds(old: &BTreeMap<String, Entry>, check: &str, answer: &Answer) -> bool {
    old.get(check)
        .is_some_and(|e| e.accepts(answer) && !is_unexplained(&e.reason))
}

/// Whether a rewrite gives `check`, answered `kind`, a new UNEXPLAINED reason: `old` does not
/// list it with that answer and a reason a person wrote.
pub fn needs_reason(old: &BTreeMap<String, Entry>, check: &str, kind: &str) -> bool {
    old.get(check)
        .is_none_or(|e| e.answer != kind || is_unexplained(&e.reason))
}

/// The groups a rewrite writes for `divergences` (check → answer kind): each check keeps the
/// reason of its entry in `old` when that still holds ([`needs_reason`] is false); the others get
/// an UNEXPLAINED reason naming their cause in words ([`crate::causes::unexplained_reason`];
/// `causes`: check → the oracle's cause label, `written_by` names the rewrite), so that a person
/// writes one reason per knob or deviation. Groups come out sorted by reason, checks by name;
/// `id_of` gives each group's id from its checks.
pub fn regroup(
    old: &BTreeMap<String, Entry>,
    divergences: &BTreeMap<String, String>,
    causes: &BTreeMap<String, String>,
    written_by: &str,
    id_of: impl Fn(&BTreeMap<String, String>) -> Option<String>,
) -> Vec<Group> {
    // A failure keeps its entry's message pattern: groups are by reason and pattern.
    let mut groups: BTreeMap<(String, Option<String>), BTreeMap<String, String>> = BTreeMap::new();
    for (check, answer) in divergences {
        let (reason, message) = if needs_reason(old, check, answer) {
            let reason = crate::causes::unexplained_reason(
                causes.get(check).map(String::as_str),
                written_by,
            );
            (reason, None)
        } else {
            (old[check].reason.clone(), old[check].message.clone())
        };
        groups
            .entry((reason, message))
            .or_default()
            .insert(check.clone(), answer.clone());
    }
    groups
        .into_iter()
        .map(|((reason, message), checks)| Group {
            reason,
            id: id_of(&checks),
            message,
            checks,
        })
        .collect()
}

/// A ledger file's text: `header` (comment lines), then `file` as YAML.
pub fn to_text(header: String, file: &impl Serialize) -> String {
    header + &serde_yaml::to_string(file).expect("a ledger serialises")
}

/// Writes a ledger for `parser` listing `divergences` (test name → answer kind) against corpus
/// `corpus`, keeping the reason of every entry of `old` that still holds with the same answer.
/// The others are grouped by their cause (`causes`: test name → the oracle's cause label, see
/// [`crate::causes`]), each group with an UNEXPLAINED reason that names the cause in words and
/// the cause as its `id`, so that a person writes one reason per cause ([`regroup`]). Groups come
/// out sorted by reason, checks by name; a group whose checks share one cause label gets it as
/// `id`.
pub fn rewrite(
    parser: &str,
    corpus: &str,
    old: &Ledger,
    divergences: &BTreeMap<String, String>,
    causes: &BTreeMap<String, String>,
) -> String {
    let id_of = |checks: &BTreeMap<String, String>| {
        let mut labels = checks.keys().map(|c| causes.get(c));
        let first = labels.next().flatten()?;
        (crate::causes::is_label(first) && labels.all(|l| l == Some(first))).then(|| first.clone())
    };
    let file = LedgerFile {
        parser: Some(parser.to_string()),
        corpus: Some(corpus.to_string()),
        ..LedgerFile::default()
    };
    let file = LedgerFile {
        divergences: regroup(
            &old.entries,
            divergences,
            causes,
            "ROBOTSTXT_SPEC_BLESS=1",
            id_of,
        ),
        ..file
    };
    let header = format!(
        "# Known divergences of `{parser}` from the robotstxt-spec corpus, one reason per group.\n\
         # Strict: an unlisted divergence, a listed one that now passes, or an entry naming no check\n\
         # fails the tests. Rewrite from the current answers (never on CI):\n\
         #   ROBOTSTXT_SPEC_BLESS=1 cargo test --test <this suite's test>\n"
    );
    to_text(header, &file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matches_the_whole_message_with_stars_for_any_text() {
        for (pattern, text, matches) in [
            ("*", "", true),
            ("*", "anything at all", true),
            ("ValueError: *", "ValueError: empty file", true),
            ("ValueError: *", "KeyError: ValueError: x", false),
            ("*ValueError*", "KeyError: ValueError: x", true),
            ("exact", "exact", true),
            ("exact", "exactly", false),
            ("a*b*c", "abc", true),
            ("a*b*c", "a-b-b-c", true),
            ("a*a", "a", false),
            (
                "Parse error(s): *before User-agent*",
                "Parse error(s): \nDisallow before User-agent at token #2.\n",
                true,
            ),
            ("", "", true),
            ("", "x", false),
        ] {
            assert_eq!(
                matches_pattern(pattern, text),
                matches,
                "{pattern:?} on {text:?}"
            );
        }
    }

    #[test]
    fn an_entry_accepts_a_failure_only_by_its_message() {
        let entry = Entry {
            answer: "error".into(),
            reason: "r".into(),
            id: None,
            message: Some("Oops*".into()),
        };
        let error = |m: &str| Answer::Error { message: m.into() };
        assert!(entry.accepts(&error("Oops: bad")));
        assert!(!entry.accepts(&error("Other")));
        assert!(!entry.accepts(&Answer::Crash {
            message: "Oops".into()
        }));
        let verdict = Entry {
            answer: "allowed".into(),
            message: None,
            ..entry.clone()
        };
        assert!(verdict.accepts(&Answer::Allowed));
        // A failure entry with no pattern accepts nothing (the loader refuses one anyway).
        let bare = Entry {
            message: None,
            ..entry
        };
        assert!(!bare.accepts(&error("Oops")));
    }
}
