//! A downstream parser's ledger: the divergences from the chosen profiles its authors accept, each
//! with a one-line reason, and the corpus version it was written against.
//!
//! Keys are the test names (`<profile>::<case-id>#<n>`), so a failing test names its own entry.
//! The ledger is strict: an unlisted divergence, a listed one that now passes, a listed answer that
//! changed, an entry naming no check, and an entry whose reason is still [`UNEXPLAINED`] all fail.
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

use serde::{Deserialize, Serialize};

/// The reason bless gives a divergence it has no reason for; the check's test fails on it until a
/// person writes the reason.
pub const UNEXPLAINED: &str =
    "UNEXPLAINED: written by ROBOTSTXT_SPEC_BLESS=1; replace with the reason";

/// The answer kinds a ledger records.
pub const KINDS: [&str; 3] = ["allowed", "disallowed", "unsupported"];

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

/// Divergences that share one reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Why the parser answers this way (one line).
    pub reason: String,
    /// The knob or deviation that explains the group's divergences, in the oracle's vocabulary
    /// (`K6 wildcards`, `D-typo-fields`; `docs/deviations.md`), when bless could tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Test name (`<profile>::<case-id>#<n>`) → the answer it gets (`allowed`, `disallowed`,
    /// `unsupported`).
    pub checks: BTreeMap<String, String>,
}

/// An entry: the answer a check is known to get, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The answer kind.
    pub answer: String,
    /// The reason.
    pub reason: String,
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
        let at = |message: String| format!("{}: {message}", path.display());
        if let Some(error) = duplicate_key(path, text) {
            return Err(error);
        }
        let file: LedgerFile = serde_yaml::from_str(text).map_err(|e| match e.location() {
            Some(l) => format!("{}:{}:{}: {e}", path.display(), l.line(), l.column()),
            None => at(e.to_string()),
        })?;
        let mut entries = BTreeMap::new();
        for group in file.divergences {
            if group.reason.trim().is_empty() || group.reason.contains('\n') {
                return Err(at(
                    "every divergence group needs a one-line reason".to_string()
                ));
            }
            for (check, answer) in group.checks {
                if !KINDS.contains(&answer.as_str()) {
                    return Err(at(format!(
                        "{check}: `{answer}` is not an answer kind ({})",
                        KINDS.join(", ")
                    )));
                }
                let entry = Entry {
                    answer,
                    reason: group.reason.clone(),
                };
                if entries.insert(check.clone(), entry).is_some() {
                    return Err(at(format!("{check} is listed twice")));
                }
            }
        }
        Ok(Ledger {
            path: path.to_path_buf(),
            corpus: Some(file.corpus),
            entries,
        })
    }
}

/// The first check key a ledger's text lists twice, as `file:line: ... listed twice (first at
/// line N)`: YAML maps keep the last of duplicate keys silently, so the text is read for them
/// before it is parsed. A key is a check id (`<case-id>#<n>`, `<profile>::<case-id>#<n>`)
/// followed by `: <answer kind>`, in block style or in a one-line flow map.
pub fn duplicate_key(path: &Path, text: &str) -> Option<String> {
    const ANY_KIND: [&str; 6] = [
        "allowed",
        "disallowed",
        "unsupported",
        "error",
        "crash",
        "timeout",
    ];
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
            if !key.contains('#') || !ANY_KIND.contains(&value.as_str()) {
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

/// Whether a reason is still the placeholder bless writes (it starts with `UNEXPLAINED`).
pub fn is_unexplained(reason: &str) -> bool {
    reason.trim_start().starts_with("UNEXPLAINED")
}

/// Writes a ledger for `parser` listing `divergences` (test name → answer kind) against corpus
/// `corpus`, keeping the reason of every entry of `old` that still holds with the same answer.
/// The others are grouped by their cause (`causes`: test name → the oracle's cause label, see
/// [`crate::causes`]), each group with an UNEXPLAINED reason that names the cause in words and
/// the cause as its `id`, so that a person writes one reason per cause. Groups come out sorted by
/// reason, checks by name; a group whose checks share one cause label gets it as `id`.
pub fn rewrite(
    parser: &str,
    corpus: &str,
    old: &Ledger,
    divergences: &BTreeMap<String, String>,
    causes: &BTreeMap<String, String>,
) -> String {
    let mut groups: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (check, answer) in divergences {
        let reason = match old.entries.get(check) {
            Some(entry) if &entry.answer == answer && !is_unexplained(&entry.reason) => {
                entry.reason.clone()
            }
            _ => crate::causes::unexplained_reason(
                causes.get(check).map(String::as_str),
                "ROBOTSTXT_SPEC_BLESS=1",
            ),
        };
        groups
            .entry(reason)
            .or_default()
            .insert(check.clone(), answer.clone());
    }
    let id_of = |checks: &BTreeMap<String, String>| {
        let mut labels = checks.keys().map(|c| causes.get(c));
        let first = labels.next().flatten()?;
        (robotstxt_oracle::cause::is_label(first) && labels.all(|l| l == Some(first)))
            .then(|| first.clone())
    };
    let file = LedgerFile {
        parser: parser.to_string(),
        corpus: corpus.to_string(),
        divergences: groups
            .into_iter()
            .map(|(reason, checks)| Group {
                reason,
                id: id_of(&checks),
                checks,
            })
            .collect(),
    };
    let header = format!(
        "# Known divergences of `{parser}` from the robotstxt-spec corpus, one reason per group.\n\
         # Strict: an unlisted divergence, a listed one that now passes, or an entry naming no check\n\
         # fails the tests. Rewrite from the current answers (never on CI):\n\
         #   ROBOTSTXT_SPEC_BLESS=1 cargo test --test <this suite's test>\n"
    );
    header + &serde_yaml::to_string(&file).expect("a ledger serialises")
}
