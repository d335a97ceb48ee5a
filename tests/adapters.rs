//! Every available adapter against the corpus under its ledger: one named test per check,
//! `adapter::<id>::<case-id>#<n>`, judged against the profile the adapter claims.
//!
//! An adapter that cannot run here shows its tests as ignored, with the reason (set
//! `ROBOTSTXT_REQUIRE_ADAPTERS=1` to make that a failure, as CI does). Besides the checks: each
//! ledger has no stale entry and no unexplained reason, `google-cpp` (our `cc` build) agrees with
//! `py-jwm` (the PyPI wheel of the same upstream commit) on every check, and each other port of
//! Google's parser (`py-gpyrobotstxt`, `py-fast-robotstxt`) differs from it exactly on the checks
//! recorded as its findings ([`PORT_FINDINGS`]), each with whose bug it is.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use robotstxt_adapters::registry::Options;
use robotstxt_adapters::{Answer, Identity, BUILTIN_IDS};
use robotstxt_matrix::ask::{self, Selection};
use robotstxt_matrix::cases::Corpus;
use robotstxt_matrix::ledger::{self, Ledger};
use robotstxt_matrix::results::Status;
use robotstxt_matrix::run;
use robotstxt_matrix::verify;

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
        let answers = ask::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
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
                let check_id = ask::check_id(case, check);
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
                        let applicable = ask::applicable(&run.identity, case, check);
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
                    .filter(|(_, e)| ledger::is_unexplained(&e.reason))
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
const PORT_FINDINGS: &[(&str, &[(&str, &str)])] = &[
    (
        "py-gpyrobotstxt",
        &[
            ("google/file-format/html-body#1", GPY_NO_SEPARATOR),
            ("google/file-format/html-body#2", GPY_NO_SEPARATOR),
            ("google/file-format/html-body#3", GPY_NO_SEPARATOR),
            ("google/file-format/non-utf8-bytes#2", GPY_DECODES_LINES),
            (
                "knobs/k07-percent-encoding/latin1-body#1",
                GPY_DECODES_LINES,
            ),
            ("rfc9309/parsing/html-body#1", GPY_NO_SEPARATOR),
            ("rfc9309/parsing/html-body#2", GPY_NO_SEPARATOR),
            ("rfc9309/percent-encoding/latin-1-body#1", GPY_DECODES_LINES),
        ],
    ),
    (
        "py-fast-robotstxt",
        &[
            (
                "draft-1996/guide/table-9-3-escaped-tilde-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "draft-1996/guide/table-9-3-tilde-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "draft-1996/guide/table-9-3-tilde-rule#2",
                FORK_DECODES_RESERVED,
            ),
            (
                "draft-1996/matching/escaped-letter#1",
                FORK_DECODES_UNRESERVED,
            ),
            ("draft-1996/matching/non-ascii-escape#1", FORK_FIXES_GOOGLE),
            (
                "draft-1996/matching/non-ascii-escape#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "draft-1996/matching/table-encoded-slash#1",
                FORK_FIXES_GOOGLE,
            ),
            (
                "draft-1996/matching/table-encoded-slash#3",
                FORK_DECODES_RESERVED,
            ),
            (
                "draft-1996/matching/table-escape-lower-rule#1",
                FORK_FIXES_GOOGLE,
            ),
            (
                "draft-1996/matching/table-escape-lower-rule#3",
                FORK_FIXES_GOOGLE,
            ),
            (
                "draft-1996/matching/table-escape-upper-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "draft-1996/matching/table-tilde-escaped-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "draft-1996/matching/table-tilde-escaped-rule#2",
                FORK_FIXES_GOOGLE,
            ),
            (
                "draft-1996/matching/table-tilde-raw-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "google/path-matching/non-ascii-utf8-vs-escaped#1",
                FORK_FIXES_GOOGLE,
            ),
            (
                "google/path-matching/non-ascii-utf8-vs-escaped#3",
                FORK_FIXES_GOOGLE,
            ),
            (
                "google/path-matching/non-ascii-utf8-vs-escaped#4",
                FORK_FIXES_GOOGLE,
            ),
            (
                "google/path-matching/percent-encoding-open-points#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "google/path-matching/percent-encoding-open-points#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "google/path-matching/percent-encoding-open-points#4",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "google/path-matching/percent-encoding-open-points#6",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/encoded-slash#1",
                FORK_DECODES_RESERVED,
            ),
            (
                "knobs/k07-percent-encoding/encoded-slash#2",
                FORK_FIXES_GOOGLE,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-path#1",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-path#3",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-path#4",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-path#5",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-query#1",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-reserved-in-query#3",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-star-and-dollar#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/escaped-star-and-dollar#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/escaped-sub-delims-in-query#1",
                FORK_OPEN,
            ),
            (
                "knobs/k07-percent-encoding/escaped-sub-delims-in-query#3",
                FORK_OPEN,
            ),
            ("knobs/k07-percent-encoding/hex-case#2", FORK_FIXES_GOOGLE),
            (
                "knobs/k07-percent-encoding/non-ascii-utf8#2",
                FORK_FIXES_GOOGLE,
            ),
            (
                "knobs/k07-percent-encoding/non-ascii-utf8#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/non-ascii-utf8#4",
                FORK_FIXES_GOOGLE,
            ),
            (
                "knobs/k07-percent-encoding/tilde-escape#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/tilde-escape#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/tilde-escape#4",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/unreserved-escapes-decoded#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "knobs/k07-percent-encoding/unreserved-escapes-decoded#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "regressions/escaped-url-against-wildcard-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "regressions/escaped-url-against-wildcard-rule#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "regressions/google-cpp-lowercase-escape-in-rule-and-url#1",
                FORK_FIXES_GOOGLE,
            ),
            ("rfc9309/examples/figure-4-row-2-encoded-rule#2", FORK_OPEN),
            (
                "rfc9309/examples/figure-4-row-2-encoded-rule#3",
                FORK_DECODES_UNRESERVED,
            ),
            ("rfc9309/examples/figure-4-row-2-raw-rule#2", FORK_OPEN),
            (
                "rfc9309/examples/figure-4-row-3-non-ascii#2",
                FORK_FIXES_GOOGLE,
            ),
            (
                "rfc9309/examples/figure-4-row-3-non-ascii#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/examples/figure-4-row-4-encoded-non-ascii#2",
                FORK_FIXES_GOOGLE,
            ),
            (
                "rfc9309/examples/figure-4-row-4-encoded-non-ascii#3",
                FORK_FIXES_GOOGLE,
            ),
            (
                "rfc9309/examples/figure-4-row-5-encoded-unreserved#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/examples/figure-4-row-5-encoded-unreserved#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/examples/figure-6-percent-encoded-specials#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/examples/figure-6-percent-encoded-specials#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/examples/figure-6-percent-encoded-specials#7",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/longest-match/length-after-decoding#1",
                FORK_RAW_LENGTH,
            ),
            (
                "rfc9309/longest-match/length-after-decoding#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-slash#1",
                FORK_DECODES_RESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-slash#2",
                FORK_DECODES_RESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-slash#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-rule#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-rule#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-rule#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-url#1",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-url#2",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/encoded-unreserved-in-url#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/hex-case#2",
                FORK_DECODES_UNRESERVED,
            ),
            ("rfc9309/percent-encoding/hex-case#3", FORK_FIXES_GOOGLE),
            ("rfc9309/percent-encoding/hex-case#5", FORK_FIXES_GOOGLE),
            (
                "rfc9309/percent-encoding/non-ascii-both-spellings#1",
                FORK_FIXES_GOOGLE,
            ),
            (
                "rfc9309/percent-encoding/non-ascii-both-spellings#3",
                FORK_DECODES_UNRESERVED,
            ),
            (
                "rfc9309/percent-encoding/non-ascii-in-query#2",
                FORK_FIXES_GOOGLE,
            ),
        ],
    ),
];

/// gpyrobotstxt's bug: `get_key_and_value_from` compares `re.search(...)` with -1, so a line with
/// neither a colon nor white space (`<html>`) slices with `None`; the TypeError ends the parse.
const GPY_NO_SEPARATOR: &str = "gpyrobotstxt: a line without colon or white space raises TypeError";
/// gpyrobotstxt's bug: each line is decoded as UTF-8 with U+FFFD for invalid octets before it is
/// parsed, so a Latin-1 `é` in a rule becomes `%EF%BF%BD`, where Google's C++ escapes the octet as
/// `%E9` and matches `/caf%E9` (both profiles leave a non-UTF-8 body open: `either`).
const GPY_DECODES_LINES: &str = "gpyrobotstxt: lines decoded as UTF-8, invalid octets replaced";
/// The fork fixes Google's bug: it normalises escapes in the URL as in rules (non-ASCII octets
/// encoded, hex digits upper-cased), so raw and escaped spellings meet, as both documents ask
/// (google-cpp's ledger: D-url-non-ascii-raw, D-escape-case-rules-only).
const FORK_FIXES_GOOGLE: &str = "google-cpp's bug, fixed by the fork (escapes normalised in URLs)";
/// The fork decodes escaped unreserved characters (`%7E` is `~`, `%61` is `a`), as RFC 9309
/// 2.2.2 asks and Google's page leaves open: a change of the fork, neither's bug.
const FORK_DECODES_UNRESERVED: &str = "the fork decodes unreserved escapes (RFC 9309; Google open)";
/// The fork's bug: it decodes reserved escapes too, so `%2F` equals `/`, which both documents
/// keep apart (D-decode-reserved).
const FORK_DECODES_RESERVED: &str = "the fork's bug: `%2F` decoded to `/` (D-decode-reserved)";
/// The fork's bug: a rule's length is counted before decoding, so `Disallow: /%61b` outranks the
/// longer `Allow: /abc` now that it matches `/ab...` (D-raw-length).
const FORK_RAW_LENGTH: &str = "the fork's bug: rule length counted before decoding";
/// The fork decodes reserved escapes (`%3A`, `%3B`, `%26`, `%3D`) where both documents leave the
/// answer open: a change of the fork.
const FORK_OPEN: &str = "the fork decodes reserved escapes where both documents are open";

/// Checks that `ported` answers what `google` answers on every check except exactly `findings`.
fn port_differences(
    google: &AdapterRun,
    ported: &AdapterRun,
    port: &str,
    findings: &[(&str, &str)],
) -> Result<(), String> {
    // A check one side was not asked (its claimed profile's verdict is `not-governed`, or the
    // check needs what the adapter cannot be told) compares nothing.
    let asked = |a: &Answer| !matches!(a, Answer::Unsupported { .. });
    let differ: BTreeMap<&String, String> = google
        .answers
        .iter()
        .filter(|(id, a)| asked(a) && ported.answers.get(*id).is_some_and(asked))
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
