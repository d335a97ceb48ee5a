//! Every available adapter against the corpus under its ledger: one named test per check,
//! `adapter::<id>::<case-id>#<n>`, judged against the profile the adapter claims.
//!
//! An adapter that cannot run here shows its tests as ignored, with the reason (set
//! `ROBOTSTXT_REQUIRE_ADAPTERS=1` to make that a failure, as CI does). Besides the checks: each
//! ledger has no stale entry and no unexplained reason, and `google-cpp` (our `cc` build) agrees with
//! `py-jwm` (the PyPI wheel of the same upstream commit) on every check.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use robotstxt_adapters::registry::Options;
use robotstxt_adapters::{Answer, Identity, BUILTIN_IDS};
use robotstxt_conformance::cases::Corpus;
use robotstxt_conformance::ledger::{self, Ledger};
use robotstxt_conformance::results::Status;
use robotstxt_conformance::run::{self, Selection};
use robotstxt_conformance::verify;

/// One adapter's answers to the whole corpus, or why it could not run.
struct AdapterRun {
    identity: Identity,
    ledger: Result<Ledger, String>,
    answers: BTreeMap<String, Answer>,
}

/// Each adapter's run, computed by the first of its tests to need it (leaked: lives for the process).
type Lazy = &'static OnceLock<Result<AdapterRun, String>>;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ledgers() -> PathBuf {
    root().join("adapters/expectations")
}

fn required() -> bool {
    std::env::var_os("ROBOTSTXT_REQUIRE_ADAPTERS").is_some_and(|v| v == "1")
}

fn options() -> Options {
    Options {
        worker: Some(vec![
            env!("CARGO_BIN_EXE_robotstxt-conformance").into(),
            "adapter".into(),
            "serve".into(),
        ]),
        // Far beyond what any check takes (the 500 KiB bodies included) even on a loaded machine:
        // an answer is judged on what it says, never on how fast it came.
        timeout: Duration::from_secs(120),
        ..Options::default()
    }
}

/// Opens and runs `id` over the corpus, once.
fn run_once(lazy: Lazy, id: &str, corpus: &Corpus) -> &'static Result<AdapterRun, String> {
    lazy.get_or_init(|| {
        let mut adapter = robotstxt_adapters::open(id, &options()).map_err(|e| e.to_string())?;
        let selection = Selection::new(corpus, None);
        let answers = run::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
        let identity = adapter.identity().clone();
        let ledger = Ledger::load(&ledgers(), id).and_then(|l| {
            run::check_ledger_profile(&l, &identity)?;
            Ok(l)
        });
        Ok(AdapterRun {
            identity,
            ledger,
            answers,
        })
    })
}

/// Ignored (with the reason) or, when adapters are required, failed.
fn unavailable(reason: &str) -> Result<Completion, Failed> {
    if required() {
        Err(format!("ROBOTSTXT_REQUIRE_ADAPTERS=1 but {reason}").into())
    } else {
        Ok(Completion::ignored_with(reason))
    }
}

fn main() {
    let args = Arguments::from_args();
    let corpus: &'static Corpus = match Corpus::load(&root().join("spec-cases")) {
        Ok(corpus) => Box::leak(Box::new(corpus)),
        Err(errors) => {
            let message: String = errors.iter().map(|e| format!("{e}\n")).collect();
            let trial = Trial::test("adapter::corpus-loads", move || Err(message.into()));
            libtest_mimic::run(&args, vec![trial]).exit();
        }
    };
    let lazies: BTreeMap<&str, Lazy> = BUILTIN_IDS
        .iter()
        .map(|&id| (id, &*Box::leak(Box::new(OnceLock::new()))))
        .collect();
    let mut trials = Vec::new();
    for &id in &BUILTIN_IDS {
        for case in &corpus.cases {
            for check in &case.checks {
                let lazy = lazies[id];
                let check_id = run::check_id(case, check);
                trials.push(Trial::ignorable_test(
                    format!("adapter::{id}::{check_id}"),
                    move || {
                        let run = match run_once(lazy, id, corpus) {
                            Ok(run) => run,
                            Err(reason) => return unavailable(reason),
                        };
                        let ledger = run.ledger.as_ref().map_err(|e| Failed::from(e.as_str()))?;
                        let answer = &run.answers[&check_id];
                        let expected = check.expect[&run.identity.profile];
                        let entry = ledger.entries.get(&check_id);
                        let applicable = run::applicable(&run.identity, case, check);
                        let (status, note) = run::judge(answer, expected, entry, applicable);
                        match status {
                            Status::UnexpectedDivergence | Status::FixedDivergence => {
                                Err(verify::adapter_failure_report(
                                    case,
                                    check,
                                    &run.identity,
                                    answer,
                                    status,
                                    note.as_deref(),
                                )
                                .into())
                            }
                            // Never counted as passing: a check not put to the adapter, and a
                            // divergence its ledger lists, show as ignored with the reason.
                            Status::NotApplicable => Ok(Completion::ignored_with(
                                "not applicable: the adapter cannot be asked this check (a fetch \
                                 outcome or history it does not model, or a URL the file does not \
                                 govern)",
                            )),
                            Status::ExpectedDivergence => Ok(Completion::ignored_with(format!(
                                "known divergence ({answer}), in the ledger: {}",
                                note.unwrap_or_default()
                            ))),
                            Status::Pass => Ok(Completion::Completed),
                        }
                    },
                ));
            }
        }
        let lazy = lazies[id];
        trials.push(Trial::ignorable_test(
            format!("ledger::{id}::tidy"),
            move || {
                let run = match run_once(lazy, id, corpus) {
                    Ok(run) => run,
                    Err(reason) => return unavailable(reason),
                };
                let ledger = run.ledger.as_ref().map_err(|e| Failed::from(e.as_str()))?;
                let stale = ledger.stale(corpus);
                if !stale.is_empty() {
                    return Err(format!(
                        "{}: entries naming no check of the corpus: {}",
                        ledger::path_of(&ledgers(), id).display(),
                        stale.join(", ")
                    )
                    .into());
                }
                let unexplained: Vec<&String> = ledger
                    .entries
                    .iter()
                    .filter(|(_, e)| e.reason == ledger::UNEXPLAINED)
                    .map(|(k, _)| k)
                    .collect();
                if !unexplained.is_empty() {
                    return Err(format!(
                        "{} entries of {} have no reason yet, e.g. {}",
                        unexplained.len(),
                        ledger::path_of(&ledgers(), id).display(),
                        unexplained[0]
                    )
                    .into());
                }
                Ok(Completion::Completed)
            },
        ));
    }
    let (google, jwm) = (lazies["google-cpp"], lazies["py-jwm"]);
    trials.push(Trial::ignorable_test(
        "fidelity::google-cpp-agrees-with-py-jwm",
        move || {
            let (google, jwm) = match (
                run_once(google, "google-cpp", corpus),
                run_once(jwm, "py-jwm", corpus),
            ) {
                (Ok(g), Ok(j)) => (g, j),
                (Err(reason), _) | (_, Err(reason)) => return unavailable(reason),
            };
            let differ: Vec<String> = google
                .answers
                .iter()
                .filter(|(id, a)| jwm.answers.get(*id) != Some(a))
                .map(|(id, a)| format!("{id}: google-cpp {a}, py-jwm {}", jwm.answers[id]))
                .collect();
            if differ.is_empty() {
                Ok(Completion::Completed)
            } else {
                Err(format!(
                    "{} checks differ, e.g.\n{}",
                    differ.len(),
                    differ
                        .iter()
                        .take(20)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n")
                )
                .into())
            }
        },
    ));
    for &(port, findings) in PORT_FINDINGS {
        let (google, ported) = (lazies["google-cpp"], lazies[port]);
        trials.push(Trial::ignorable_test(
            format!("fidelity::{port}-differs-from-google-cpp-only-where-recorded"),
            move || {
                let (google, ported) = match (
                    run_once(google, "google-cpp", corpus),
                    run_once(ported, port, corpus),
                ) {
                    (Ok(g), Ok(p)) => (g, p),
                    (Err(reason), _) | (_, Err(reason)) => return unavailable(reason),
                };
                port_differences(google, ported, port, findings).map_err(Failed::from)?;
                Ok(Completion::Completed)
            },
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// The ports of Google's C++ parser, and the checks where each is known to answer otherwise than
/// `google-cpp` (Google's own code): each such check is a finding about the port, with whose bug it
/// is. A port that now agrees on a recorded check, or differs on another, fails its test.
const PORT_FINDINGS: &[(&str, &[(&str, &str)])] =
    &[("py-gpyrobotstxt", &[]), ("py-fast-robotstxt", &[])];

/// Checks that `ported` answers what `google` answers on every check except exactly `findings`.
fn port_differences(
    google: &AdapterRun,
    ported: &AdapterRun,
    port: &str,
    findings: &[(&str, &str)],
) -> Result<(), String> {
    let differ: BTreeMap<&String, String> = google
        .answers
        .iter()
        .filter(|(id, a)| ported.answers.get(*id).map(Answer::kind) != Some(a.kind()))
        .map(|(id, a)| (id, format!("google-cpp {a}, {port} {}", ported.answers[id])))
        .collect();
    let recorded: Vec<&str> = findings.iter().map(|(id, _)| *id).collect();
    let new: Vec<String> = differ
        .iter()
        .filter(|(id, _)| !recorded.contains(&id.as_str()))
        .map(|(id, what)| format!("{id}: {what}"))
        .collect();
    let gone: Vec<&str> = recorded
        .iter()
        .copied()
        .filter(|id| !differ.keys().any(|d| d.as_str() == *id))
        .collect();
    if new.is_empty() && gone.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{port} against google-cpp: {} unrecorded differences{}{}",
        new.len(),
        new.iter().map(|d| format!("\n  {d}")).collect::<String>(),
        if gone.is_empty() {
            String::new()
        } else {
            format!("\nrecorded but now agreeing: {}", gone.join(", "))
        }
    ))
}
