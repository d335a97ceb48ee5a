//! `ledger rewrite`: each adapter's ledger (adapters/expectations/) rewritten from its answers on
//! the whole corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use robotstxt_conformance::ledger::{self, Ledger};
use robotstxt_conformance::run::{self, Selection};

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
        let answers = run::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
        let mut divergences = BTreeMap::new();
        let mut causes = BTreeMap::new();
        let mut failures: Vec<String> = Vec::new();
        // Each explained divergence's request and answer, and each cause's changes by label.
        let mut explained = Vec::new();
        let mut changes_of = BTreeMap::new();
        for case in &corpus.cases {
            for check in &case.checks {
                let check_id = run::check_id(case, check);
                let answer = &answers[&check_id];
                let applicable = run::applicable(adapter.identity(), case, check);
                let (status, _) = run::judge(answer, check.expect[&profile], None, applicable);
                if status != robotstxt_conformance::results::Status::Pass
                    && status != robotstxt_conformance::results::Status::NotApplicable
                {
                    // The cause, where the oracle can tell: an answer on a single 200 fetch of
                    // the body, with no robots.txt URL to scope it.
                    let simple = case.fetches.is_empty()
                        && case.robots_url.is_none()
                        && case.fetch == robotstxt_oracle::Fetch::default();
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
                    if let (Some(allowed), true) = (answer.verdict(), simple) {
                        let request = robotstxt_conformance::verify::request(case, check);
                        let allowed = allowed == robotstxt_oracle::Verdict::Allowed;
                        match robotstxt_oracle::cause::cause_of(profile, &request, allowed) {
                            Some(cause) => {
                                let label = robotstxt_oracle::cause::cause_label(Some(&cause));
                                causes.insert(check_id.clone(), label.clone());
                                changes_of.insert(label, cause);
                                explained.push((check_id.clone(), request, allowed));
                            }
                            None => {
                                causes.insert(
                                    check_id.clone(),
                                    robotstxt_oracle::cause::UNEXPLAINED.to_string(),
                                );
                            }
                        }
                    }
                    divergences.insert(check_id, kind.to_string());
                }
            }
        }
        // Which of the adapter's causes also give its answer on each explained divergence.
        let mut reproduced: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        for (check_id, request, allowed) in &explained {
            let readings: Vec<(&String, robotstxt_oracle::Knobs)> = changes_of
                .iter()
                .map(|(label, cause)| {
                    let knobs = cause
                        .iter()
                        .fold(profile.base_knobs(), |knobs, c| c.apply(knobs));
                    (label, knobs)
                })
                .collect();
            let knobs: Vec<robotstxt_oracle::Knobs> = readings.iter().map(|(_, k)| *k).collect();
            let verdicts = robotstxt_oracle::cause::verdicts_under(request, &knobs);
            reproduced.insert(
                check_id.clone(),
                readings
                    .iter()
                    .zip(verdicts)
                    .filter(|(_, verdict)| verdict == allowed)
                    .map(|((label, _), _)| (*label).clone())
                    .collect(),
            );
        }
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
        let text = ledger::rewrite(
            &id,
            profile,
            &old,
            &divergences,
            &causes,
            &reproduced,
            &command,
        );
        let path = ledger::path_of(dir, &id);
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
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
