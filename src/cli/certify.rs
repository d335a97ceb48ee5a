//! `certify`: one adapter of yours (any language, speaking adapters/PROTOCOL.md) through the
//! corpus compiled into this program, judged against one profile under your ledger: the CI recipe
//! of docs/certify.md. Exit status 1 exactly when the run finds an unlisted divergence, a fixed
//! entry or a stale entry.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use robotstxt_adapters::{Adapter, Answer, Identity, Query};
use robotstxt_conformance::ledger::Ledger;
use robotstxt_conformance::report::badge;
use robotstxt_conformance::results::{Results, Status};
use robotstxt_conformance::run::{self, Opened, RunOptions};
use robotstxt_oracle::ProfileId;

use super::AdapterArgs;

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
    let ledger = match &args.ledger {
        Some(path) => {
            let ledger = Ledger::load_file(path, &name)?;
            if ledger.profile != Some(profile) {
                return Err(format!(
                    "{}: written against {}, but --profile is {}",
                    path.display(),
                    ledger.profile.map_or("no profile", ProfileId::name),
                    profile.name()
                ));
            }
            ledger
        }
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
        std::fs::write(path, robotstxt_conformance::report::junit::render(&results))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.badge {
        std::fs::write(path, badge::svg(&results, &name, profile))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for line in failures(&results, &name) {
        println!("{line}");
    }
    println!("{}", badge::summary_line(&results, &name, profile));
    Ok(if results.has_unexpected() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One line per failing check and stale entry, saying what to do.
pub fn failures(results: &Results, adapter: &str) -> Vec<String> {
    let mut out = Vec::new();
    for row in &results.rows {
        let Some(cell) = row.adapters.get(adapter) else {
            continue;
        };
        let id = format!("{}#{}", row.case, row.check);
        match cell.status {
            Status::UnexpectedDivergence => out.push(format!(
                "FAIL {id}: unexpected divergence: answered {}, the profile expects {} ({} {}){}; \
                 fix the parser or list it with its reason in the ledger",
                cell.answer.kind(),
                row.expected[&results.profiles[0]].name(),
                row.agent,
                row.url,
                cell.reason
                    .as_ref()
                    .map_or(String::new(), |r| format!("; {r}"))
            )),
            Status::FixedDivergence => out.push(format!(
                "FAIL {id}: fixed: the ledger lists a divergence ({}), but the answer now agrees; \
                 remove the entry",
                cell.reason.as_deref().unwrap_or_default()
            )),
            _ => {}
        }
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
