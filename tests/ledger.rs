//! Ledgers are strict: every way an answer can stand against a ledger, and every malformed ledger.

use robotstxt_adapters::{Adapter, Answer, Capabilities, Identity, Query, UrlForm};
use robotstxt_matrix::ask;
use robotstxt_matrix::cases::Corpus;
use robotstxt_matrix::ledger::{self, Entry, Ledger};
use robotstxt_matrix::results::Status;
use robotstxt_matrix::run::judge;
use robotstxt_oracle::{ProfileId, Verdict};

fn entry(answer: &str) -> Entry {
    Entry {
        answer: answer.to_string(),
        reason: "a reason".to_string(),
        id: None,
        message: None,
    }
}

/// An entry accepting an `error` or `crash` whose message matches `pattern`.
fn failure(answer: &str, pattern: &str) -> Entry {
    Entry {
        message: Some(pattern.to_string()),
        ..entry(answer)
    }
}

#[test]
fn every_answer_is_judged_against_the_profile_and_the_ledger() {
    use Verdict::*;
    let cases: [(Answer, Verdict, Option<Entry>, bool, Status); 12] = [
        (Answer::Allowed, Allowed, None, true, Status::Pass),
        (Answer::Disallowed, Either, None, true, Status::Pass),
        (
            Answer::Allowed,
            Disallowed,
            None,
            true,
            Status::UnexpectedDivergence,
        ),
        (
            Answer::Allowed,
            Disallowed,
            Some(entry("allowed")),
            true,
            Status::ExpectedDivergence,
        ),
        // Listed with another answer: the ledger is out of date.
        (
            Answer::Allowed,
            Disallowed,
            Some(entry("crash")),
            true,
            Status::UnexpectedDivergence,
        ),
        // Listed but passing now: the entry must go.
        (
            Answer::Disallowed,
            Disallowed,
            Some(entry("allowed")),
            true,
            Status::FixedDivergence,
        ),
        // Failures never agree, even with `either`.
        (
            Answer::Crash {
                message: "x".into(),
            },
            Either,
            None,
            true,
            Status::UnexpectedDivergence,
        ),
        // A known failure: accepted by its message's pattern, not by its kind alone.
        (
            Answer::Error {
                message: "ValueError: empty file".into(),
            },
            Allowed,
            Some(failure("error", "ValueError: *")),
            true,
            Status::ExpectedDivergence,
        ),
        (
            Answer::Error {
                message: "KeyError: 3".into(),
            },
            Allowed,
            Some(failure("error", "ValueError: *")),
            true,
            Status::UnexpectedDivergence,
        ),
        (
            Answer::Crash {
                message: "panicked: index out of bounds".into(),
            },
            Allowed,
            Some(failure("error", "*")),
            true,
            Status::UnexpectedDivergence,
        ),
        (
            Answer::Unsupported {
                reason: "the adapter does not take fetch outcomes (capability fetch_status)".into(),
            },
            Allowed,
            None,
            // A check the adapter lacks the capability for is not asked, hence not judged.
            false,
            Status::NotApplicable,
        ),
        // An `unsupported` answer to a check the adapter was asked is a divergence, whatever it says.
        (
            Answer::Unsupported {
                reason: "the adapter does not take fetch outcomes (capability fetch_status)".into(),
            },
            Allowed,
            None,
            true,
            Status::UnexpectedDivergence,
        ),
    ];
    for (answer, expected, entry, applicable, status) in cases {
        assert_eq!(
            judge(&answer, expected, entry.as_ref(), applicable).0,
            status,
            "{answer:?} vs {expected:?}"
        );
    }
}

fn load(text: &str) -> Result<Ledger, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.yaml"), text).unwrap();
    Ledger::load(dir.path(), "x")
}

/// One format serves the suite and the matrix: a `robotstxt-spec` ledger (`parser:`, test names)
/// loads as an adapter's ledger under the profile its test names name, or the one asked for.
#[test]
fn a_robotstxt_spec_ledger_loads_as_an_adapter_ledger() {
    let text = "parser: x\ncorpus: 0.2.0\ndivergences:\n- reason: r\n  checks:\n    \
                google::a#1: allowed\n    rfc9309::b#2: disallowed\n- reason: throws\n  \
                message: 'Oops*'\n  checks:\n    google::c#3: error\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.yaml");
    std::fs::write(&path, text).unwrap();
    // Two profiles named: the one judged must be given.
    let e = Ledger::load_file(&path, "x").unwrap_err();
    assert!(e.contains("several profiles (rfc9309, google)"), "{e}");
    let google = Ledger::load_file_under(&path, "x", Some(ProfileId::Google)).unwrap();
    assert_eq!(google.profile, Some(ProfileId::Google));
    assert_eq!(
        google.entries.keys().collect::<Vec<_>>(),
        ["a#1", "c#3"],
        "{:?}",
        google.entries
    );
    assert_eq!(google.entries["c#3"].message.as_deref(), Some("Oops*"));
    let rfc = Ledger::load_file_under(&path, "x", Some(ProfileId::Rfc9309)).unwrap();
    assert_eq!(rfc.entries.keys().collect::<Vec<_>>(), ["b#2"]);
    // And an adapter's ledger reads as the suite's, keyed by test name.
    let suite = robotstxt_spec::ledger::Ledger::parse(
        &path,
        "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {a#1: allowed}\n",
    )
    .unwrap();
    assert_eq!(suite.entries.keys().collect::<Vec<_>>(), ["google::a#1"]);
}

#[test]
fn malformed_ledgers_are_errors_naming_the_problem() {
    let bad = [
        ("adapter: y\nprofile: google\n", "the file is x's ledger"),
        ("adapter: x\nprofile: google-2019\n", "unknown profile"),
        ("adapter: x\nprofile: google\nextra: 1\n", "unknown field"),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {a#1: maybe}\n",
            "not an answer kind",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: ''\n  checks: {a#1: allowed}\n",
            "one-line reason",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {a#1: allowed}\n- reason: s\n  checks: {a#1: allowed}\n",
            "listed twice",
        ),
        ("adapter: x\nprofile: google\ndivergences: [\n", "x.yaml:"),
        // Failures: only `error` and `crash`, only by their message's pattern, in a group of
        // their own; never a timeout.
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {a#1: error}\n",
            "without `message:`",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  message: '*'\n  checks: {a#1: error, a#2: allowed}\n",
            "lists other answers too",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  message: '*'\n  checks: {a#1: timeout}\n",
            "a `timeout` cannot be listed",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  message: ''\n  checks: {a#1: crash}\n",
            "empty `message:` pattern",
        ),
        // The one format's header: a name, a profile the checks agree with.
        ("parser: x\nadapter: x\nprofile: google\n", "not both"),
        ("profile: google\n", "missing `parser:`"),
        (
            "adapter: x\ndivergences:\n- reason: r\n  checks: {a#1: allowed}\n",
            "names no profile",
        ),
        (
            "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {rfc9309::a#1: allowed}\n",
            "names another profile than the file's `profile: google`",
        ),
    ];
    for (text, message) in bad {
        let error = load(text).expect_err(text);
        assert!(error.contains(message), "`{error}` should say `{message}`");
    }
}

#[test]
fn a_check_listed_twice_in_one_group_is_an_error_naming_file_and_line() {
    // YAML keeps the last of duplicate keys: without the check the first entry vanished silently.
    let error = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks:\n    a#1: allowed\n    a#2: allowed\n    a#1: disallowed\n",
    )
    .unwrap_err();
    assert!(
        error.ends_with("x.yaml:8: a#1 is listed twice (first at line 6); a check has one entry"),
        "{error}"
    );
    let error = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks: {a#1: allowed, 'a#1': crash}\n",
    )
    .unwrap_err();
    assert!(error.contains("x.yaml:5: a#1 is listed twice"), "{error}");
}

#[test]
fn a_missing_ledger_is_empty_so_every_divergence_is_unexpected() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::load(dir.path(), "nobody").unwrap();
    assert!(ledger.entries.is_empty() && ledger.path.is_none());
}

#[test]
fn entries_naming_no_check_are_stale() {
    let corpus =
        Corpus::load(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases"))
            .unwrap();
    // The first case asked of parsers (an `aipref` case's checks are asked of none).
    let case = corpus.cases.iter().find(|c| !c.checks.is_empty()).unwrap();
    let text = format!(
        "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  checks:\n    {}#1: allowed\n    no/such/case#1: allowed\n    {}#999: allowed\n",
        case.id, case.id
    );
    let ledger = load(&text).unwrap();
    assert_eq!(
        ledger.stale(&corpus),
        vec![format!("{}#999", case.id), "no/such/case#1".to_string()]
    );
}

#[test]
fn rewrite_keeps_reasons_that_still_hold_and_marks_the_rest() {
    let old = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: keeps\n  checks: {a#1: allowed}\n- reason: panics\n  message: 'panicked: *'\n  checks: {a#2: crash}\n",
    )
    .unwrap();
    let now = [("a#1", "allowed"), ("a#2", "allowed"), ("b#1", "error")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let text = ledger::rewrite(
        "x",
        ProfileId::Google,
        &old,
        &now,
        &Default::default(),
        "cargo run --release -- ledger rewrite --adapter x",
    );
    let reloaded = load(&text).unwrap();
    assert_eq!(reloaded.entries["a#1"].reason, "keeps");
    assert!(ledger::is_unexplained(&reloaded.entries["a#2"].reason));
    // A new error answer is a fault of the adapter, never recorded as a divergence.
    assert!(!reloaded.entries.contains_key("b#1"), "{text}");
    assert_eq!(reloaded.entries.len(), 2);
}

#[test]
fn rewrite_keeps_a_known_failure_and_drops_a_new_or_unexplained_one() {
    let old = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: panics on a char boundary\n  message: 'panicked: *'\n  checks: {a#1: crash}\n- reason: 'UNEXPLAINED: x'\n  message: '*'\n  checks: {a#2: error}\n",
    )
    .unwrap();
    let now = [("a#1", "crash"), ("a#2", "error"), ("a#3", "timeout")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let text = ledger::rewrite(
        "x",
        ProfileId::Google,
        &old,
        &now,
        &Default::default(),
        "cmd",
    );
    let reloaded = load(&text).unwrap();
    assert_eq!(reloaded.entries.len(), 1, "{text}");
    assert_eq!(reloaded.entries["a#1"].reason, "panics on a char boundary");
    // Its message pattern goes with it.
    assert_eq!(
        reloaded.entries["a#1"].message.as_deref(),
        Some("panicked: *")
    );
}

#[test]
fn rewrite_groups_new_divergences_by_cause_with_its_words() {
    let now = [
        ("a#1", "allowed"),
        ("a#2", "allowed"),
        ("b#1", "disallowed"),
        ("c#1", "allowed"),
        ("d#1", "unsupported"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let causes = [
        ("a#1", "K6 wildcards"),
        ("a#2", "K6 wildcards"),
        ("b#1", "D-typo-fields"),
        ("c#1", "unexplained"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let text = ledger::rewrite(
        "mine",
        ProfileId::Rfc9309,
        &Ledger::default(),
        &now,
        &causes,
        "robotstxt-conformance ledger rewrite --adapter-command 'mine = python3 a.py' --ledgers .",
    );
    let file: ledger::LedgerFile = serde_yaml::from_str(&text).unwrap();
    // One group per cause, each UNEXPLAINED, naming the knob or deviation in words.
    assert_eq!(file.divergences.len(), 4, "{text}");
    let k6 = file
        .divergences
        .iter()
        .find(|g| g.id.as_deref() == Some("K6 wildcards"))
        .expect("a K6 group");
    assert_eq!(k6.checks.len(), 2);
    assert!(ledger::is_unexplained(&k6.reason));
    assert!(
        k6.reason.contains("`*` and `$`") && k6.reason.contains("rfc9309#2.2.3"),
        "{}",
        k6.reason
    );
    let typo = file
        .divergences
        .iter()
        .find(|g| g.id.as_deref() == Some("D-typo-fields"))
        .expect("a D-typo-fields group");
    assert!(
        typo.reason.contains("docs/deviations.md"),
        "{}",
        typo.reason
    );
    assert!(file
        .divergences
        .iter()
        .any(|g| g.id.is_none() && g.reason.contains("unexplained by the oracle")));
    // The header names a command that works for a user adapter.
    assert!(
        text.contains("--adapter-command 'mine = python3 a.py'"),
        "{text}"
    );
}

#[test]
fn rewrite_names_a_group_by_the_cause_its_checks_share() {
    let old = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: typos\n  checks: {a#1: disallowed, a#2: disallowed}\n- reason: mixed\n  id: K4 precedence\n  checks: {b#1: allowed, b#2: allowed}\n- reason: fetch outcomes\n  id: K4 precedence\n  checks: {c#1: allowed}\n- reason: one behaviour\n  checks: {d#1: allowed, d#2: allowed}\n- reason: partly credited\n  checks: {e#1: allowed, e#2: allowed}\n",
    )
    .unwrap();
    let now = [
        ("a#1", "disallowed"),
        ("a#2", "disallowed"),
        ("b#1", "allowed"),
        ("b#2", "allowed"),
        ("c#1", "allowed"),
        ("d#1", "allowed"),
        ("d#2", "allowed"),
        ("e#1", "allowed"),
        ("e#2", "allowed"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let group = "unexplained 0123456789abcdef";
    let causes = [
        ("a#1", "D-typo-fields"),
        ("a#2", "D-typo-fields"),
        ("b#1", "K4 precedence"),
        ("b#2", "D-raw-length"),
        ("d#1", group),
        ("d#2", group),
        ("e#1", "K6 wildcards"),
        ("e#2", group),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let text = ledger::rewrite("x", ProfileId::Google, &old, &now, &causes, "cmd");
    let reloaded = load(&text).unwrap();
    // Every check has the credited cause: the id is filled.
    assert_eq!(reloaded.entries["a#1"].id.as_deref(), Some("D-typo-fields"));
    // Two causes credited: no id claims the group, not even the old one.
    assert_eq!(reloaded.entries["b#1"].id, None, "{text}");
    // No check can be examined (a fetch outcome): the id a person wrote stays.
    assert_eq!(reloaded.entries["c#1"].id.as_deref(), Some("K4 precedence"));
    // One behaviour group: its id.
    assert_eq!(reloaded.entries["d#1"].id.as_deref(), Some(group));
    // One cause credited on some checks, none on the others: the cause.
    assert_eq!(reloaded.entries["e#2"].id.as_deref(), Some("K6 wildcards"));
}

#[test]
fn an_id_naming_no_knob_or_deviation_is_refused() {
    let error = load(
        "adapter: x\nprofile: google\ndivergences:\n- reason: r\n  id: D-no-such-thing\n  checks: {a#1: allowed}\n",
    )
    .unwrap_err();
    assert!(error.contains("D-no-such-thing"), "{error}");
    load("adapter: x\nprofile: google\ndivergences:\n- reason: r\n  id: K4 precedence + D-typo-fields\n  checks: {a#1: allowed}\n").unwrap();
}

/// A parser that disallows everything and remembers the URLs it was asked about.
struct Recording {
    identity: Identity,
    asked: Vec<String>,
}

impl Recording {
    fn claiming(profile: ProfileId) -> Recording {
        Recording {
            identity: Identity {
                id: "recording".into(),
                library: "recording".into(),
                version: "0".into(),
                language: "Rust".into(),
                licence: "MIT".into(),
                source: "tests/ledger.rs".into(),
                profile,
                capabilities: Capabilities::default(),
                url: UrlForm::Full,
                notes: String::new(),
            },
            asked: Vec::new(),
        }
    }
}

impl Adapter for Recording {
    fn identity(&self) -> &Identity {
        &self.identity
    }
    fn answer(&mut self, _body: &[u8], queries: &[Query]) -> Vec<Answer> {
        self.asked.extend(queries.iter().map(|q| q.url.clone()));
        queries.iter().map(|_| Answer::Disallowed).collect()
    }
}

#[test]
fn checks_not_governed_under_the_claimed_profile_are_not_asked_and_not_judged() {
    let corpus =
        Corpus::load(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases"))
            .unwrap();
    let case = |id: &str| corpus.cases.iter().find(|c| c.id == id).unwrap();
    // Google's general case: the first two URLs are governed (disallowed), the other three not.
    let general = case("google/file-location/general-case");
    // The FTP example: governed under rfc9309 and google, not under draft-1996 and 1994.
    let ftp = case("rfc9309/access-method/ftp-example");
    for (case, profile, asked) in [
        (general, ProfileId::Google, vec![0, 1]),
        (general, ProfileId::Original1994, vec![0, 1]),
        (ftp, ProfileId::Rfc9309, vec![0, 1]),
        (ftp, ProfileId::Draft1996, vec![]),
    ] {
        let mut adapter = Recording::claiming(profile);
        let all: Vec<usize> = (0..case.checks.len()).collect();
        let answers = ask::answer_case(&mut adapter, case, &all);
        let urls: Vec<String> = asked
            .iter()
            .map(|&i: &usize| case.checks[i].url.clone())
            .collect();
        assert_eq!(adapter.asked, urls, "{} under {profile:?}", case.id);
        for (check, answer) in case.checks.iter().zip(&answers) {
            let not_governed = check.expect[&profile] == Verdict::NotGoverned;
            let applicable = ask::applicable(&adapter.identity, case, check);
            assert_eq!(applicable, !not_governed);
            let (status, _) = judge(answer, check.expect[&profile], None, applicable);
            if not_governed {
                match answer {
                    Answer::Unsupported { reason } => {
                        assert!(reason.contains("does not govern this URL"), "{reason}")
                    }
                    other => panic!("{}#{}: {other:?}", case.id, check.number),
                }
                assert_eq!(status, Status::NotApplicable);
            } else {
                assert_eq!(status, Status::Pass, "{}#{}", case.id, check.number);
            }
        }
    }
}

#[test]
fn checks_asked_at_a_time_after_a_history_are_never_asked() {
    let corpus =
        Corpus::load(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases"))
            .unwrap();
    let case = corpus
        .cases
        .iter()
        .find(|c| c.id == "google/status-codes/server-errors-after-a-good-fetch")
        .unwrap();
    for profile in ProfileId::ALL {
        let mut adapter = Recording::claiming(profile);
        let all: Vec<usize> = (0..case.checks.len()).collect();
        let answers = ask::answer_case(&mut adapter, case, &all);
        assert!(adapter.asked.is_empty(), "{profile:?}: {:?}", adapter.asked);
        for (check, answer) in case.checks.iter().zip(&answers) {
            match answer {
                Answer::Unsupported { reason } => assert!(
                    reason.contains("after a history of robots.txt fetches"),
                    "{reason}"
                ),
                other => panic!("{}#{}: {other:?}", case.id, check.number),
            }
            assert!(!ask::applicable(&adapter.identity, case, check));
            let (status, _) = judge(answer, check.expect[&profile], None, false);
            assert_eq!(status, Status::NotApplicable);
        }
    }
}

#[test]
fn a_divergence_s_neighbours_are_asked_as_absolute_urls() {
    // A corpus check's URL is often a path; the run asks it on the corpus's origin, and so must
    // the cause search ask its neighbours: a parser that takes only absolute URLs answered none
    // of them when they were asked as paths, and its causes rested on its other answers alone.
    let request = robotstxt_oracle::Request::new(b"User-agent: *\nDisallow: /a\n", "FooBot", "/a");
    let neighbours = robotstxt_oracle::evidence::neighbours(&request);
    let mut adapter = Recording::claiming(ProfileId::Rfc9309);
    let answers = ledger::answer_neighbours(&mut adapter, &neighbours);
    assert_eq!(answers.len(), neighbours.len());
    assert!(!adapter.asked.is_empty());
    for url in &adapter.asked {
        assert!(url.starts_with("http://example.com/"), "{url}");
    }
}
