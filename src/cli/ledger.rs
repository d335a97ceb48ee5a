//! `ledger rewrite`: each adapter's ledger (adapters/expectations/) rewritten from its answers on
//! the whole corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use robotstxt_matrix::ask::{self, Selection};
use robotstxt_matrix::ledger::{self, Ledger};
use robotstxt_matrix::run;
use robotstxt_oracle::Verdict;

use super::options::{AdapterArgs, CasesDir};

/// The `ledger` subcommands.
#[derive(Subcommand)]
pub enum LedgerCommand {
    /// Rewrite ledgers from the current answers on the whole corpus, keeping the reasons of entries
    /// that still hold; new entries are marked UNEXPLAINED until a person writes the reason.
    /// Never run on CI.
    Rewrite {
        #[command(flatten)]
        corpus: CasesDir,
        #[command(flatten)]
        adapters: AdapterArgs,
        /// The ledger directory (default: adapters/expectations).
        #[arg(long, value_name = "DIR")]
        ledgers: Option<PathBuf>,
    },
}

/// How many of a group's differing causes `ledger rewrite` explains in words.
const EXPLAINED_CAUSES: usize = 3;

/// `ledger rewrite`: runs each adapter over the whole corpus and rewrites its ledger from the
/// answers, keeping the reasons of entries that still hold. Never run on CI.
pub fn run(command: &LedgerCommand) -> Result<ExitCode, String> {
    let LedgerCommand::Rewrite {
        corpus,
        adapters,
        ledgers,
    } = command;
    let corpus = &corpus.load()?;
    let dir = &ledgers.clone().unwrap_or_else(ledger::default_dir);
    let options = adapters.options()?;
    let selection = Selection::new(corpus, None);
    // The sample questions every cause is weighed against: the same for every adapter, worked
    // out when a first adapter has a divergence to examine.
    let questions = std::cell::OnceCell::new();
    for id in adapters.ids(&options)? {
        let mut adapter = match robotstxt_adapters::open(&id, &options) {
            Ok(adapter) => adapter,
            Err(why) => {
                eprintln!("skipped: {why}");
                continue;
            }
        };
        let old = Ledger::load(dir, &id)?;
        let profile = adapter.identity().profile;
        let answers = ask::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
        let mut divergences = BTreeMap::new();
        let mut failures: Vec<String> = Vec::new();
        // The divergences whose cause can be examined: a verdict on a single 200 fetch of the
        // body, with no robots.txt URL to scope it.
        let mut examinable = Vec::new();
        for case in &corpus.cases {
            for check in &case.checks {
                let check_id = ask::check_id(case, check);
                let answer = &answers[&check_id];
                let applicable = ask::applicable(adapter.identity(), case, check);
                let (status, _) = run::judge(answer, check.expect[&profile], None, applicable);
                if status == robotstxt_matrix::results::Status::Pass
                    || status == robotstxt_matrix::results::Status::NotApplicable
                {
                    continue;
                }
                let kind = answer.kind();
                // A failure (error, crash, timeout) is never a divergence of the parser's
                // reading: kept only where the ledger already lists it, with a reason and a
                // message pattern its message matches, as a known failure.
                if ledger::is_failure(kind) {
                    if ledger::keeps_failure(&old, &check_id, answer) {
                        divergences.insert(check_id, kind.to_string());
                    } else {
                        failures.push(format!("{check_id}: {answer}"));
                    }
                    continue;
                }
                let simple = case.fetches.is_empty()
                    && case.robots_url.is_none()
                    && case.fetch == robotstxt_oracle::Fetch::default();
                if let (Some(verdict), true) = (answer.verdict(), simple) {
                    let request = robotstxt_matrix::verify::request(case, check);
                    examinable.push((check_id.clone(), request, verdict == Verdict::Allowed));
                }
                divergences.insert(check_id, kind.to_string());
            }
        }
        let questions: &[_] = if examinable.is_empty() {
            &[]
        } else {
            questions.get_or_init(|| robotstxt_spec::causes::questions(corpus))
        };
        let examined = ledger::examine_divergences(
            adapter.as_mut(),
            corpus,
            questions,
            &selection,
            &answers,
            &examinable,
        );
        let causes: BTreeMap<String, String> = examined
            .iter()
            .map(|(check, credited)| (check.clone(), credited.label.clone()))
            .collect();
        // The command that rewrites this very file again: a user adapter is named by its command.
        let command = match options.user.iter().find(|u| u.name == id) {
            Some(user) => format!(
                "robotstxt-conformance ledger rewrite --adapter-command '{} = {}' --ledgers {}",
                user.name,
                user.command,
                dir.display()
            ),
            None => format!("cargo run --release -- ledger rewrite --adapter {id}"),
        };
        let text = ledger::rewrite(&id, profile, &old, &divergences, &causes, &command);
        let path = ledger::path_of(dir, &id);
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        let unexplained = divergences
            .keys()
            .filter(|c| ledger::needs_reason(&old.entries, c, &divergences[*c]))
            .count();
        eprintln!(
            "{}: {} divergences ({unexplained} new or changed, marked UNEXPLAINED, one group per \
             cause)",
            path.display(),
            divergences.len()
        );
        // A group whose checks' causes differ gets no id: say which, so a person can split it.
        if let Ok(file) = serde_yaml::from_str::<ledger::LedgerFile>(&text) {
            for group in file.divergences.iter().filter(|g| g.id.is_none()) {
                let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
                for check in group.checks.keys() {
                    if let Some(cause) = causes.get(check) {
                        *counts.entry(cause).or_default() += 1;
                    }
                }
                if counts.len() > 1 {
                    let each: Vec<String> =
                        counts.iter().map(|(c, n)| format!("{c} on {n}")).collect();
                    eprintln!(
                        "  no id for the group \"{}\": its checks' causes differ ({})",
                        group.reason,
                        each.join(", ")
                    );
                    // What the first check of each cause rests on, so a person sees why.
                    for cause in counts.keys().take(EXPLAINED_CAUSES) {
                        let first = group
                            .checks
                            .keys()
                            .find(|check| causes.get(*check).map(String::as_str) == Some(cause));
                        if let Some(check) = first {
                            eprintln!("    {check}: {}", examined[check].words);
                        }
                    }
                    if counts.len() > EXPLAINED_CAUSES {
                        eprintln!(
                            "    ... and {} more causes",
                            counts.len() - EXPLAINED_CAUSES
                        );
                    }
                }
            }
        }
        if !failures.is_empty() {
            eprintln!(
                "{}: {} error, crash or timeout answers not recorded (a failure of the adapter is \
                 not a divergence; fix the adapter, or list a library's known exception by hand, \
                 in a group with its reason and `message:`, the pattern its message matches; \
                 docs/certify.md):",
                path.display(),
                failures.len()
            );
            for failure in failures.iter().take(20) {
                eprintln!("  {failure}");
            }
            if failures.len() > 20 {
                eprintln!("  ... and {} more", failures.len() - 20);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
