//! `certify`: one adapter of yours (any language, speaking adapters/PROTOCOL.md) through the
//! corpus compiled into this program, judged against one profile under your ledger: the CI recipe
//! of docs/certify.md. Exit status 1 exactly when the run finds an unlisted divergence, a fixed
//! entry, a stale entry, an entry still marked UNEXPLAINED, or an `error`, `crash` or `timeout`
//! answer the ledger does not accept (an `error` or `crash` is accepted only by its message's
//! pattern, with a reason, as a known failure: never a pass, never a documented divergence; a
//! `timeout` never). Its outputs say what its exit says: a failing run's badge says `failing`,
//! and its line to cite is marked as not certified.
//!
//! The adapter is judged by the same runner and judge as `run` (`crate::run::run_opened`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use robotstxt_adapters::{Adapter, Answer, Identity, Query};
use robotstxt_matrix::ledger::{self, Ledger};
use robotstxt_matrix::report::badge;
use robotstxt_matrix::results::{Results, Status};
use robotstxt_matrix::run::{self, Opened, RunOptions};
use robotstxt_oracle::ProfileId;

use super::options::AdapterArgs;

/// The `certify` command's options.
#[derive(Args)]
pub struct CertifyArgs {
    /// Your adapter: `name = command line` (exactly one; also --adapters-config, --timeout).
    #[command(flatten)]
    pub adapters: AdapterArgs,
    /// The profile to judge against: rfc9309, google, draft-1996 or original-1994.
    #[arg(long, value_name = "PROFILE")]
    pub profile: String,
    /// The ledger of divergences you accept (the format of adapters/expectations/*.yaml, with
    /// `adapter:` your adapter's name and `profile:` the one given here). Without it every
    /// divergence fails.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Also write the results as JUnit XML to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the badge (a self-contained SVG: the profile and the pass rate) to this file.
    #[arg(long, value_name = "FILE")]
    pub badge: Option<PathBuf>,
    /// Only checks whose id (`<case-id>#<n>`) contains this text.
    #[arg(long = "cases", value_name = "FILTER")]
    pub filter: Option<String>,
}

/// An adapter judged against a profile it may not claim: its identity says the chosen profile,
/// so that checks are asked and judged (not-governed included) under that profile.
struct UnderProfile {
    inner: Box<dyn Adapter>,
    identity: Identity,
}

impl Adapter for UnderProfile {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        self.inner.answer(body, queries)
    }
}

/// Runs it: prints each failing check, then the summary line ([`badge::summary_line`]); exit 1
/// on a failure.
pub fn run(args: &CertifyArgs) -> Result<ExitCode, String> {
    let profile = ProfileId::from_name(&args.profile).ok_or_else(|| {
        format!(
            "unknown profile `{}` (rfc9309, google, draft-1996, original-1994)",
            args.profile
        )
    })?;
    let open = args.adapters.options()?;
    if !args.adapters.adapters.is_empty() || open.user.len() != 1 {
        return Err(
            "certify takes exactly one adapter of yours: --adapter-command 'name = command line' \
             (or one line in --adapters-config)"
                .to_string(),
        );
    }
    let name = open.user[0].name.clone();
    let corpus = robotstxt_spec::embedded::corpus().map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    // Either ledger form: certify's (`adapter:`, `profile:`, check ids) or a `robotstxt-spec`
    // suite's (`parser:`, test names; the entries of --profile are the ones judged).
    let ledger = match &args.ledger {
        Some(path) => Ledger::load_file_under(path, &name, Some(profile))
            .map_err(|e| e.replace("but the profile judged is", "but --profile is"))?,
        None => Ledger::default(),
    };
    let inner = robotstxt_adapters::open(&name, &open)
        .map_err(|why| format!("adapter `{name}` did not start: {}", why.reason))?;
    let mut identity = inner.identity().clone();
    identity.profile = profile;
    let adapter = Box::new(UnderProfile { inner, identity });
    let options = RunOptions {
        profiles: vec![profile],
        adapters: vec![name.clone()],
        filter: args.filter.clone(),
        open,
        ledgers: args
            .ledger
            .as_ref()
            .and_then(|p| p.parent().map(PathBuf::from))
            .unwrap_or_default(),
    };
    let results = run::run_opened(
        &corpus,
        &options,
        vec![Opened { adapter, ledger }],
        Vec::new(),
        &run::Silent,
    );
    if results.rows.is_empty() {
        return Err(format!(
            "no check id contains `{}`",
            args.filter.as_deref().unwrap_or_default()
        ));
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, robotstxt_matrix::report::junit::render(&results))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let failed = failures(&results, &name, args.ledger.as_deref());
    // What the outputs say matches the exit: a failing run gets no passing badge, and its line is
    // marked as not certified.
    let advice = |l: &&String| {
        ledger::FAILURE_KINDS
            .iter()
            .any(|k| l.starts_with(&format!("FAIL {k} answers (")))
    };
    let failing = failed.iter().filter(|l| !advice(l)).count();
    if let Some(path) = &args.badge {
        let svg = if failed.is_empty() {
            badge::svg(&results, &name, profile)
        } else {
            badge::failing_svg(&results, &name, profile, failing)
        };
        std::fs::write(path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for line in &failed {
        println!("{line}");
    }
    let line = badge::summary_line(&results, &name, profile);
    if failed.is_empty() {
        println!("{line}");
    } else {
        println!(
            "NOT CERTIFIED ({failing} failing check{} or ledger entr{}): {line}",
            if failing == 1 { "" } else { "s" },
            if failing == 1 { "y" } else { "ies" },
        );
    }
    if let Some(summary) = results.summary.iter().find(|s| s.adapter == name) {
        if summary.ledger.known_failures > 0 {
            println!(
                "known failures (error or crash answers the ledger accepts by their message; \
                 not passes, not documented divergences, not counted above as either): {}",
                summary.ledger.known_failures
            );
        }
        if summary.ledger.unexplained > 0 {
            println!(
                "listed without a reason (UNEXPLAINED; not counted above as documented): {}",
                summary.ledger.unexplained
            );
        }
    }
    Ok(if !failed.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What to do about failure answers (`error`, `crash`, `timeout`) of a user's adapter that the
/// ledger does not accept.
fn failure_advice(kind: &str, file: &str) -> String {
    let listing = format!(
        "if it is a known exception of the library (it throws on an input it is documented to \
         refuse), list the check as `{kind}` by hand in {file}, in a group with its reason and \
         `message:`, the pattern the message must match (`*` for any text): a known failure is \
         reported apart, never a pass nor a documented divergence (docs/certify.md, \
         \"Known failures\")"
    );
    match kind {
        "crash" => format!(
            "the adapter or its parser crashed (a panic, an exception, a signal, or the process \
             ended): fix it so that it answers; {listing}"
        ),
        "timeout" => "no answer within --timeout: make the adapter answer each check and flush, \
             or raise --timeout; a timeout depends on the machine, so a ledger never accepts one \
             (adapters/PROTOCOL.md, failures)"
            .to_string(),
        _ => format!(
            "the adapter reported an error or wrote output the protocol does not allow: fix the \
             adapter (one response line per check, in order, with `check` counting from 0; \
             adapters/PROTOCOL.md); {listing}"
        ),
    }
}

/// One line per failing check and stale entry, saying what to do (`ledger`: the ledger file,
/// named in the advice).
pub fn failures(results: &Results, adapter: &str, ledger: Option<&Path>) -> Vec<String> {
    let file = ledger.map_or_else(
        || "a ledger file (--ledger)".to_string(),
        |p| p.display().to_string(),
    );
    let mut out = Vec::new();
    let mut failed: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for row in &results.rows {
        let Some(cell) = row.adapters.get(adapter) else {
            continue;
        };
        let id = format!("{}#{}", row.case, row.check);
        let kind = cell.answer.kind();
        let detail = cell
            .answer
            .detail()
            .map_or(String::new(), |d| format!(" ({d})"));
        let expected = row.expected[&results.profiles[0]].name();
        let asked = format!("{} {}", row.agent, row.url);
        match cell.status {
            Status::NotApplicable | Status::Pass => {}
            // A known failure with a reason: accepted by its message, reported apart.
            Status::ExpectedDivergence
                if ledger::is_failure(kind)
                    && !cell.reason.as_deref().is_some_and(ledger::is_unexplained) => {}
            Status::UnexpectedDivergence | Status::FixedDivergence if ledger::is_failure(kind) => {
                *failed.entry(kind).or_default() += 1;
                out.push(format!(
                    "FAIL {id}: answered {kind}{detail}, the profile expects {expected} ({asked}){}",
                    cell.reason
                        .as_ref()
                        .map_or(String::new(), |r| format!("; {r}"))
                ))
            }
            Status::UnexpectedDivergence => out.push(format!(
                "FAIL {id}: unexpected divergence: answered {kind}{detail}, the profile expects \
                 {expected} ({asked}){}; fix the parser, or, if the divergence is intended, list \
                 `{id}: {kind}` with its reason in {file}",
                cell.reason
                    .as_ref()
                    .map_or(String::new(), |r| format!("; {r}"))
            )),
            Status::FixedDivergence => out.push(format!(
                "FAIL {id}: fixed: the ledger lists a divergence ({}), but the answer now agrees; \
                 remove the entry",
                cell.reason.as_deref().unwrap_or_default()
            )),
            Status::ExpectedDivergence
                if cell.reason.as_deref().is_some_and(ledger::is_unexplained) =>
            {
                out.push(format!(
                    "FAIL {id}: unexplained: the ledger lists this divergence ({kind}, the \
                     profile expects {expected}) but gives no reason yet; replace the \
                     UNEXPLAINED reason of its group in {file} with the reason"
                ))
            }
            Status::ExpectedDivergence => {}
        }
    }
    // The advice for failures once per kind, after their lines.
    for (kind, n) in failed {
        out.push(format!(
            "FAIL {kind} answers ({}): {}",
            badge::thousands(n as u64),
            failure_advice(kind, &file)
        ));
    }
    for summary in results.summary.iter().filter(|s| s.adapter == adapter) {
        for id in &summary.ledger.stale {
            out.push(format!(
                "FAIL {id}: stale: the ledger lists a check the corpus does not have; remove the \
                 entry"
            ));
        }
    }
    out
}
