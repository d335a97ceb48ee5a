//! `adapter serve` (the isolated worker), `adapters list`, `peers install`, `ledger rewrite`.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

use robotstxt_adapters::registry;
use robotstxt_conformance::ledger::{self, Ledger};
use robotstxt_conformance::run::{self, Selection};

use super::AdapterArgs;

/// `adapter serve <id>`: serves an in-process parser over PROTOCOL.md on stdin/stdout. This is the
/// worker process the runner starts to isolate in-process parsers.
pub fn serve(id: &str) -> Result<ExitCode, String> {
    let mut adapter = registry::open_in_process(id).map_err(|e| e.to_string())?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    robotstxt_adapters::serve::serve(&mut adapter, stdin, stdout)
        .map_err(|e| format!("serving {id}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// `adapters list`: every adapter, whether it is available here, and who it is (or why not).
pub fn list(args: &AdapterArgs, json: bool) -> Result<ExitCode, String> {
    let options = args.options()?;
    let mut out = std::io::stdout().lock();
    let w = |e: std::io::Error| e.to_string();
    for id in args.ids(&options)? {
        match robotstxt_adapters::open(&id, &options) {
            Ok(adapter) => {
                let i = adapter.identity();
                if json {
                    let value = serde_json::json!({"id": id, "available": true, "identity": i});
                    writeln!(out, "{value}").map_err(w)?;
                } else {
                    writeln!(
                        out,
                        "{id:<20} available    {} {} ({}, {}), claims {}",
                        i.library,
                        i.version,
                        i.language,
                        i.licence,
                        i.profile.name()
                    )
                    .map_err(w)?;
                }
            }
            Err(why) => {
                if json {
                    let value =
                        serde_json::json!({"id": id, "available": false, "unavailable": why});
                    writeln!(out, "{value}").map_err(w)?;
                } else {
                    writeln!(
                        out,
                        "{id:<20} UNAVAILABLE  {}; fix: {}",
                        why.reason, why.fix
                    )
                    .map_err(w)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `fingerprint`: runs each adapter over the whole corpus and prints, for each knob and deviation,
/// where its answers stand ([`robotstxt_conformance::fingerprint`]), then its nearest profile.
pub fn fingerprint(
    args: &AdapterArgs,
    corpus: &robotstxt_conformance::cases::Corpus,
    json: bool,
) -> Result<ExitCode, String> {
    use robotstxt_conformance::fingerprint::{self, Standing};
    let options = args.options()?;
    let selection = Selection::new(corpus, None);
    // Your own adapters alone, when they are all that is named (AdapterArgs::ids).
    let ids = args.ids(&options)?;
    let mut skipped = Vec::new();
    for id in &ids {
        let mut adapter = match robotstxt_adapters::open(id, &options) {
            Ok(adapter) => adapter,
            Err(why) => {
                eprintln!("skipped: {why}");
                skipped.push(why.to_string());
                continue;
            }
        };
        let profile = adapter.identity().profile;
        let answers = run::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
        let answered = run::answered(adapter.identity(), corpus, &selection, &answers);
        let print = fingerprint::fingerprint(profile, &answered);
        if json {
            let line = serde_json::json!({"adapter": id, "fingerprint": print});
            println!("{line}");
            continue;
        }
        println!(
            "{id} (claims {}; {} checks answered): nearest profile {}",
            profile.name(),
            answered.len(),
            print.nearest.name()
        );
        for (p, agree, of) in &print.agreement {
            println!("  agrees with {:<14} {agree}/{of}", p.name());
        }
        let shown = |checks: &[String]| {
            let mut text = checks
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if checks.len() > 3 {
                text.push_str(&format!(", ... ({} checks)", checks.len()));
            }
            text
        };
        for (label, standing) in &print.dimensions {
            match standing {
                Standing::Undecided => {}
                Standing::Consistent {
                    alternatives,
                    checks,
                } => {
                    // A deviation that stays off is where the parser follows the profile.
                    if fingerprint::is_deviation(label) && alternatives.iter().any(|a| a == "base")
                    {
                        continue;
                    }
                    println!(
                        "  {label:<28} {}  [{}]",
                        alternatives.join(" | "),
                        shown(checks)
                    );
                }
                Standing::Inconsistent { checks } => {
                    println!("  {label:<28} inconsistent  [{}]", shown(checks));
                }
            }
        }
    }
    if skipped.len() == ids.len() {
        return Err(format!(
            "no adapter could be fingerprinted: {}",
            skipped.join("; ")
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// `ledger rewrite`: runs each adapter over the whole corpus and rewrites its ledger from the
/// answers, keeping the reasons of entries that still hold. Never run on CI.
pub fn rewrite(
    args: &AdapterArgs,
    corpus: &robotstxt_conformance::cases::Corpus,
    dir: &std::path::Path,
) -> Result<ExitCode, String> {
    let options = args.options()?;
    let selection = Selection::new(corpus, None);
    for id in args.ids(&options)? {
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
                    // reading: kept only where the ledger already lists it, with a reason, as a
                    // known failure.
                    if ledger::is_failure(kind) {
                        if ledger::keeps_failure(&old, &check_id, kind) {
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
            .filter(|c| {
                old.entries.get(*c).is_none_or(|e| {
                    e.answer != divergences[*c] || ledger::is_unexplained(&e.reason)
                })
            })
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
                 not a divergence; fix the adapter, or list a known failure by hand with its \
                 reason):",
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

/// `peers install`: provisions the Python and npm peers at their pinned versions and reports the
/// system runtimes and Debian packages that are missing. Exit status 1 when something is missing.
pub fn install(peers_dir: Option<std::path::PathBuf>) -> Result<ExitCode, String> {
    let dir = peers_dir.unwrap_or_else(robotstxt_adapters::peers::default_peers_dir);
    let mut err = std::io::stderr();
    let report = robotstxt_adapters::peers::install(&dir, &mut err)
        .map_err(|e| format!("installing peers into {}: {e}", dir.display()))?;
    for step in report.runtimes.iter().chain(&report.adapters) {
        println!("{step}");
    }
    Ok(if report.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
