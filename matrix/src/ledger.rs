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

use std::collections::{BTreeMap, BTreeSet};
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
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../adapters/expectations"
    ))
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
        let read = robotstxt_spec::ledger::read(
            path,
            &text,
            Some(&|id: &str| {
                robotstxt_oracle::cause::is_label(id) || robotstxt_oracle::behaviour::is_id(id)
            }),
        )?;
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

/// The cause of each divergence in `examinable` (check id, request, whether the adapter
/// allowed), as the evidence has it ([`robotstxt_spec::causes::credited`]): the credited knob or
/// deviation label, or the behaviour group's id (`unexplained <key>`), with what it rests on in
/// words. The adapter is asked about each divergence's neighbours; its `answers` to the
/// `selection` of `corpus`, and to `questions` (`robotstxt_spec::causes::questions(corpus)`), are
/// the other answers every candidate is weighed against.
pub fn examine_divergences(
    adapter: &mut dyn robotstxt_adapters::Adapter,
    corpus: &Corpus,
    questions: &[robotstxt_spec::causes::Question],
    selection: &crate::ask::Selection,
    answers: &BTreeMap<String, robotstxt_adapters::Answer>,
    examinable: &[(String, robotstxt_oracle::Request<'_>, bool)],
) -> BTreeMap<String, robotstxt_spec::causes::Credited> {
    let profile = adapter.identity().profile;
    let mut others = robotstxt_oracle::evidence::OtherAnswers::none();
    for answered in crate::ask::answered(adapter.identity(), corpus, selection, answers) {
        let request = answered.request;
        others.push(
            request.body,
            request.agent,
            request.url,
            Some(answered.allowed),
        );
    }
    if !examinable.is_empty() {
        add_sample_answers(adapter, questions, &mut others);
    }
    let mut causes = BTreeMap::new();
    for (check, request, allowed) in examinable {
        let mut ask = |neighbours: &[robotstxt_oracle::evidence::Neighbour]| {
            answer_neighbours(&mut *adapter, neighbours)
        };
        let credited = robotstxt_spec::causes::credited(
            profile,
            request,
            *allowed,
            &mut ask,
            &mut [&mut others],
        );
        causes.insert(check.clone(), credited);
    }
    causes
}

/// `adapter`'s answers to `neighbours`, in one round trip: allowed or not, `None` where it gave no
/// verdict (an error, a crash, a timeout). A neighbour's URL is a corpus check's URL edited, often a
/// path (`/a`): it is asked as the run asks the check, made absolute on the corpus's origin
/// ([`crate::ask::absolute_url`]); a parser that takes only absolute URLs answered no neighbour
/// of a path before, and its divergences were weighed on its other answers alone.
pub fn answer_neighbours(
    adapter: &mut dyn robotstxt_adapters::Adapter,
    neighbours: &[robotstxt_oracle::evidence::Neighbour],
) -> Vec<Option<bool>> {
    let queries: Vec<[robotstxt_adapters::Query; 1]> = neighbours
        .iter()
        .map(|n| {
            [robotstxt_adapters::Query::new(
                n.agent.clone(),
                crate::ask::absolute_url(&n.url),
            )]
        })
        .collect();
    let items: Vec<(&[u8], &[robotstxt_adapters::Query])> = neighbours
        .iter()
        .zip(&queries)
        .map(|(n, q)| (&n.body[..], &q[..]))
        .collect();
    adapter
        .answer_many(&items)
        .iter()
        .map(|a| {
            a.first()
                .and_then(robotstxt_adapters::Answer::verdict)
                .map(|v| v == robotstxt_oracle::Verdict::Allowed)
        })
        .collect()
}

/// Asks `adapter` the `questions` of [`robotstxt_spec::causes::questions`] (the corpus's checks
/// and a sample of their neighbours; worked out once per corpus and shared by every adapter, as
/// working out the neighbours costs more than most parsers' answers) and adds its answers to
/// `others`.
pub fn add_sample_answers(
    adapter: &mut dyn robotstxt_adapters::Adapter,
    questions: &[robotstxt_spec::causes::Question],
    others: &mut robotstxt_oracle::evidence::OtherAnswers,
) {
    let queries: Vec<[robotstxt_adapters::Query; 1]> = questions
        .iter()
        .map(|(_, agent, url)| [robotstxt_adapters::Query::new(agent.clone(), url.clone())])
        .collect();
    let items: Vec<(&[u8], &[robotstxt_adapters::Query])> = questions
        .iter()
        .zip(&queries)
        .map(|((body, _, _), q)| (&body[..], &q[..]))
        .collect();
    for ((body, agent, url), answers) in questions.iter().zip(adapter.answer_many(&items)) {
        let allowed = answers
            .first()
            .and_then(robotstxt_adapters::Answer::verdict)
            .map(|v| v == robotstxt_oracle::Verdict::Allowed);
        others.push(body, agent, url, allowed);
    }
}

/// Writes a ledger for `adapter` (claiming `profile`) listing `divergences` (check id → answer
/// kind), keeping the reason of every entry of `old` that still holds with the same answer and
/// giving the others an UNEXPLAINED reason; `error`, `crash` and `timeout` answers are left out
/// unless `old` lists them with a reason and a message pattern their message matches (the caller
/// checks the message: [`keeps_failure`]). Groups come out sorted by reason, checks by id. A
/// group's `id` is the knob or deviation `causes` (check id → the credited label or the behaviour
/// group's id, [`examine_divergences`]) credits on some of the group's checks, when it credits no
/// other on any (checks it leaves unexplained do not veto it: a person grouped them); else the
/// behaviour group all its checks are in; else none. A group none of whose checks the cause search
/// can examine (fetch outcomes, `unsupported`) keeps the old entries' id. New and changed entries
/// get an UNEXPLAINED reason naming their cause in words
/// ([`robotstxt_spec::causes::unexplained_reason`]), one group per cause. `command` is the command
/// line the header gives for rewriting the file again.
pub fn rewrite(
    adapter: &str,
    profile: ProfileId,
    old: &Ledger,
    divergences: &BTreeMap<String, String>,
    causes: &BTreeMap<String, String>,
    command: &str,
) -> String {
    // `error`, `crash` and `timeout` are faults to fix: only a known failure stays.
    let divergences: BTreeMap<String, String> = divergences
        .iter()
        .filter(|(check, answer)| !is_failure(answer) || !needs_reason(&old.entries, check, answer))
        .map(|(check, answer)| (check.clone(), answer.clone()))
        .collect();
    let id_of = |checks: &BTreeMap<String, String>| {
        let known: Vec<&String> = checks.keys().filter_map(|c| causes.get(c)).collect();
        if known.is_empty() {
            // Nothing to examine: the id a person wrote stays.
            return checks
                .keys()
                .find_map(|c| old.entries.get(c).and_then(|e| e.id.clone()));
        }
        // The knobs and deviations credited on the group's checks.
        let credited: BTreeSet<&String> = known
            .iter()
            .copied()
            .filter(|c| robotstxt_oracle::cause::is_label(c))
            .collect();
        match credited.len() {
            // Evidence credits one cause on some of its checks and no other cause on any: the
            // group (checks a person or the cause put together) is named by it.
            1 => credited.first().map(|c| (*c).clone()),
            // Nothing credited: one behaviour group, if all its checks are in it.
            0 => (robotstxt_oracle::behaviour::is_id(known[0])
                && known.iter().all(|c| *c == known[0]))
            .then(|| known[0].clone()),
            // Two causes credited: the group mixes them, and names neither.
            _ => None,
        }
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
