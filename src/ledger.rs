//! Expectation ledgers: each adapter's known divergences from the profile it claims, each with a
//! one-line reason (`adapters/expectations/<id>.yaml`).
//!
//! Ledgers are strict. A divergence the ledger does not list fails the run; so does a listed
//! divergence that now passes (the entry must go), a listed answer that changed, and an entry naming
//! a check the corpus does not have. `robotstxt-conformance ledger rewrite` writes a ledger from the
//! current answers, keeping the reasons of entries that still hold.
//!
//! ```yaml
//! adapter: robots-txt
//! profile: original-1994
//! divergences:
//!   - reason: "`*` in a path is taken literally"
//!     id: K6 wildcards
//!     checks:
//!       rfc9309/wildcards/star-in-middle#1: allowed
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_oracle::ProfileId;

use crate::cases::Corpus;

// The model the suite and the matrix share: the file format, answer kinds, entries and groups,
// the judgement.
pub use robotstxt_spec::ledger::{
    is_failure, is_unexplained, needs_reason, standing, still_holds, Entry,
    Group as DivergenceGroup, LedgerFile, Standing, ALL_KINDS, FAILURE_KINDS, LISTED_KINDS,
};

/// The reason `ledger rewrite` gives a divergence it has no reason for; the test harness fails on
/// it, so that every committed entry is explained by a person.
pub const UNEXPLAINED: &str = "UNEXPLAINED: written by `ledger rewrite`; replace with the reason";

/// A loaded, validated ledger.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// The file it came from (`None` when the adapter has none: every divergence is unexpected).
    pub path: Option<PathBuf>,
    /// The profile it is written against.
    pub profile: Option<ProfileId>,
    /// Check id → entry.
    pub entries: BTreeMap<String, Entry>,
}

/// The ledger directory: `$ROBOTSTXT_LEDGERS`, else `adapters/expectations` here if it exists, else
/// the one this crate was built from.
pub fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_LEDGERS") {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("adapters/expectations");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("adapters/expectations")
}

/// The ledger file of adapter `id` in `dir`.
pub fn path_of(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.yaml"))
}

impl Ledger {
    /// Loads adapter `id`'s ledger from `dir`; a missing file is an empty ledger. Errors name the
    /// file and, for YAML errors, line and column.
    pub fn load(dir: &Path, id: &str) -> Result<Ledger, String> {
        let path = path_of(dir, id);
        if !path.exists() {
            return Ok(Ledger::default());
        }
        Ledger::load_file(&path, id)
    }

    /// Loads the ledger file at `path`, which must exist and name adapter `id`, in either form
    /// (`robotstxt_spec::ledger::LedgerFile`): its profile is the file's `profile:`, else the one
    /// profile its test names (`<profile>::<case-id>#<n>`) name.
    pub fn load_file(path: &Path, id: &str) -> Result<Ledger, String> {
        Ledger::load_file_under(path, id, None)
    }

    /// [`Ledger::load_file`] judged under `profile` when it is given (`certify --profile`): a
    /// file giving another `profile:` is an error; a file of test names (a `robotstxt-spec`
    /// ledger) gives the entries of that profile, its other profiles' entries left out.
    pub fn load_file_under(
        path: &Path,
        id: &str,
        profile: Option<ProfileId>,
    ) -> Result<Ledger, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let at = |message: String| format!("{}: {message}", path.display());
        let read =
            robotstxt_spec::ledger::read(path, &text, Some(&robotstxt_oracle::cause::is_label))?;
        if read.name != id {
            return Err(at(format!(
                "`{}` names the parser `{}`, but the file is {id}'s ledger",
                if text.lines().any(|l| l.starts_with("parser:")) {
                    "parser:"
                } else {
                    "adapter:"
                },
                read.name
            )));
        }
        let named = read.profiles();
        let profile = match (read.profile, profile) {
            (Some(file), Some(asked)) if file != asked => {
                return Err(at(format!(
                    "written against {}, but the profile judged is {}",
                    file.name(),
                    asked.name()
                )))
            }
            (Some(file), _) => file,
            (None, Some(asked)) => asked,
            (None, None) => match named.as_slice() {
                [one] => *one,
                [] => {
                    return Err(at(
                        "missing `profile:`, the profile the adapter is judged against".to_string(),
                    ))
                }
                _ => {
                    return Err(at(format!(
                        "its checks name several profiles ({}): give the one judged",
                        named
                            .iter()
                            .map(|p| p.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            },
        };
        Ok(Ledger {
            path: Some(path.to_path_buf()),
            profile: Some(profile),
            entries: read.entries_under(profile),
        })
    }

    /// Entries that name no check of `corpus`.
    pub fn stale(&self, corpus: &Corpus) -> Vec<String> {
        let known: std::collections::BTreeSet<String> = corpus
            .cases
            .iter()
            .flat_map(|c| {
                c.checks
                    .iter()
                    .map(move |k| format!("{}#{}", c.id, k.number))
            })
            .collect();
        self.entries
            .keys()
            .filter(|id| !known.contains(*id))
            .cloned()
            .collect()
    }
}

/// Whether `ledger rewrite` keeps a failure `answer` (`error`, `crash`) of `check`: only as a
/// known failure `old` already lists with a reason a person wrote and a message pattern the
/// answer's message matches. A new failure is never recorded: it is a fault to fix, or a known
/// exception of the library to list by hand with its message pattern.
pub fn keeps_failure(old: &Ledger, check: &str, answer: &robotstxt_spec::Answer) -> bool {
    still_holds(&old.entries, check, answer)
}

/// Writes a ledger for `adapter` (claiming `profile`) listing `divergences` (check id → answer
/// kind), keeping the reason of every entry of `old` that still holds with the same answer and
/// giving the others an UNEXPLAINED reason; `error`, `crash` and `timeout` answers are left out
/// unless `old` lists them with a reason (the caller checks their message: [`keeps_failure`]). Groups come out sorted by reason, checks by id. A group's
/// `id` is the cause `causes` (check id → the oracle's cause label) gives every check of the group
/// it knows, when they agree; else, when every check of the group has a cause, the group's most
/// frequent cause whose changes reproduce the parser's answer on every check (`reproduced`: check
/// id → the other cause labels whose readings give its answer); else the old entries' id.
/// New and changed entries get an UNEXPLAINED reason naming their cause in words
/// ([`robotstxt_spec::causes::unexplained_reason`]; `causes` may hold `unexplained`), one group
/// per cause. `command` is the command line the header gives for rewriting the file again.
#[allow(clippy::too_many_arguments)]
pub fn rewrite(
    adapter: &str,
    profile: ProfileId,
    old: &Ledger,
    divergences: &BTreeMap<String, String>,
    causes: &BTreeMap<String, String>,
    reproduced: &BTreeMap<String, std::collections::BTreeSet<String>>,
    command: &str,
) -> String {
    // `error`, `crash` and `timeout` are faults to fix: only a known failure stays.
    let divergences: BTreeMap<String, String> = divergences
        .iter()
        .filter(|(check, answer)| !is_failure(answer) || !needs_reason(&old.entries, check, answer))
        .map(|(check, answer)| (check.clone(), answer.clone()))
        .collect();
    let id_of = |checks: &BTreeMap<String, String>| {
        let known: Vec<(&String, &String)> = checks
            .keys()
            .filter_map(|c| causes.get(c).map(|cause| (c, cause)))
            .filter(|(_, cause)| robotstxt_oracle::cause::is_label(cause))
            .collect();
        // The group's causes, the most frequent first (then by label).
        let mut counts: BTreeMap<&String, usize> = BTreeMap::new();
        for (_, cause) in &known {
            *counts.entry(*cause).or_default() += 1;
        }
        let mut candidates: Vec<(&String, usize)> = counts.into_iter().collect();
        candidates.sort_by_key(|&(label, n)| (std::cmp::Reverse(n), label));
        let candidates_agree = |label: &String| known.iter().all(|(_, cause)| *cause == label);
        let explains_all = |label: &String| {
            known.iter().all(|(check, cause)| {
                *cause == label || reproduced.get(*check).is_some_and(|r| r.contains(label))
            })
        };
        // Only when every check of the group has a cause: a label never claims a check no
        // knob or deviation explains.
        let all_known = known.len() == checks.len();
        candidates
            .into_iter()
            .map(|(label, _)| label)
            .find(|label| explains_all(label) && (all_known || candidates_agree(label)))
            .cloned()
            .or_else(|| {
                checks
                    .keys()
                    .find_map(|c| old.entries.get(c).and_then(|e| e.id.clone()))
            })
    };
    let file = LedgerFile {
        adapter: Some(adapter.to_string()),
        profile: Some(profile.name().to_string()),
        divergences: robotstxt_spec::ledger::regroup(
            &old.entries,
            &divergences,
            causes,
            "`ledger rewrite`",
            id_of,
        ),
        ..LedgerFile::default()
    };
    let header = format!(
        "# Known divergences of `{adapter}` from the profile it claims ({}), one reason per group.\n\
         # Strict: an unlisted divergence, a listed one that now passes, or an entry naming no check\n\
         # fails the run. Rewrite from current results (never on CI):\n\
         #   {command}\n",
        profile.name()
    );
    robotstxt_spec::ledger::to_text(header, &file)
}
