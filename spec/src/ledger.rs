//! A downstream parser's ledger: the divergences from the chosen profiles its authors accept, each
//! with a one-line reason, and the corpus version it was written against.
//!
//! Keys are the test names (`<profile>::<case-id>#<n>`), so a failing test names its own entry.
//! The ledger is strict: an unlisted divergence, a listed one that now passes, a listed answer that
//! changed, an entry naming no check, and an entry whose reason is still [`UNEXPLAINED`] all fail.
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
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The reason bless gives a divergence it has no reason for; the check's test fails on it until a
/// person writes the reason.
pub const UNEXPLAINED: &str =
    "UNEXPLAINED: written by ROBOTSTXT_SPEC_BLESS=1; replace with the reason";

/// The answer kinds a ledger records as readings of the file: a verdict, or `unsupported`.
pub const KINDS: [&str; 3] = ["allowed", "disallowed", "unsupported"];

/// The answer kinds that are a failure of the adapter or the parser (`error`, `crash`,
/// `timeout`), never a reading of the file: the matrix's ledgers may list them as known failures,
/// but they are not documented divergences (the line to cite does not count them, `certify` fails
/// on them, a rewrite never adds them); the suite's ledger never lists them.
pub const FAILURE_KINDS: [&str; 3] = ["error", "crash", "timeout"];

/// Every answer kind: [`KINDS`], then [`FAILURE_KINDS`] (what the matrix's ledgers may record).
pub const ALL_KINDS: [&str; 6] = [
    KINDS[0],
    KINDS[1],
    KINDS[2],
    FAILURE_KINDS[0],
    FAILURE_KINDS[1],
    FAILURE_KINDS[2],
];

/// Whether an answer kind is a failure ([`FAILURE_KINDS`]).
pub fn is_failure(kind: &str) -> bool {
    FAILURE_KINDS.contains(&kind)
}

/// A ledger as written in its file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerFile {
    /// The parser's name.
    pub parser: String,
    /// The corpus version the ledger was written against ([`crate::CORPUS_VERSION`] then).
    pub corpus: String,
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
    /// Check → the answer kind it gets (`allowed`, `disallowed`, `unsupported`; in the matrix's
    /// ledgers also `error`, `crash`, `timeout`). The suite names a check by its test name
    /// (`<profile>::<case-id>#<n>`), the matrix by its id (`<case-id>#<n>`).
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

    /// Parses a ledger's text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Ledger, String> {
        let file: LedgerFile = parse_yaml(path, text)?;
        Ok(Ledger {
            path: path.to_path_buf(),
            corpus: Some(file.corpus),
            entries: entries_of(path, file.divergences, &KINDS, None)?,
        })
    }
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
                    "{check}: `{answer}` is not an answer kind ({})",
                    kinds.join(", ")
                )));
            }
            let entry = Entry {
                answer,
                reason: group.reason.clone(),
                id: group.id.clone(),
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

/// Where an answer of kind `kind` stands ([`Standing`]): `agrees` is whether it is what the
/// profile expects ([`crate::Answer::agrees`]), `entry` the ledger's entry for its check.
pub fn standing<'e>(agrees: bool, kind: &str, entry: Option<&'e Entry>) -> Standing<'e> {
    match (agrees, entry) {
        (true, None) => Standing::Pass,
        (true, Some(entry)) => Standing::Fixed(entry),
        (false, Some(entry)) if entry.answer == kind => Standing::Listed(entry),
        (false, Some(entry)) => Standing::Changed(entry),
        (false, None) => Standing::Unlisted,
    }
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
    let mut groups: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (check, answer) in divergences {
        let reason = if needs_reason(old, check, answer) {
            crate::causes::unexplained_reason(causes.get(check).map(String::as_str), written_by)
        } else {
            old[check].reason.clone()
        };
        groups
            .entry(reason)
            .or_default()
            .insert(check.clone(), answer.clone());
    }
    groups
        .into_iter()
        .map(|(reason, checks)| Group {
            reason,
            id: id_of(&checks),
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
        parser: parser.to_string(),
        corpus: corpus.to_string(),
        divergences: regroup(
            &old.entries,
            divergences,
            causes,
            "ROBOTSTXT_SPEC_BLESS=1",
            id_of,
        ),
    };
    let header = format!(
        "# Known divergences of `{parser}` from the robotstxt-spec corpus, one reason per group.\n\
         # Strict: an unlisted divergence, a listed one that now passes, or an entry naming no check\n\
         # fails the tests. Rewrite from the current answers (never on CI):\n\
         #   ROBOTSTXT_SPEC_BLESS=1 cargo test --test <this suite's test>\n"
    );
    to_text(header, &file)
}
