//! `certify` as a CI system runs it, on the example adapters of docs/certify.md (Python and
//! JavaScript) with their ledgers: it passes with the ledger, prints the summary line and JUnit,
//! and fails (exit 1, naming the check) when a divergence is not listed or a listed one is fixed.
//! A missing `python3` or `node` is a failure that says how to install it or leave these out.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts that `program` runs here: these tests exist to run the Python and JavaScript examples,
/// so a missing runtime is a failure (never a skip counted as passing). Install it as README's
/// set-up says, or leave these tests out with `cargo test -- --skip certify`.
fn available(program: &str) -> bool {
    let ok = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{program}` does not run here: install it (README, set-up) or run `cargo test -- --skip certify`"
    );
    ok
}

fn certify(adapter: &str, profile: &str, ledger: &Path, junit: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robotstxt-conformance"));
    command
        .current_dir(root())
        .args([
            "certify",
            "--adapter-command",
            adapter,
            "--profile",
            profile,
        ])
        .arg("--ledger")
        .arg(ledger);
    if let Some(junit) = junit {
        command.arg("--junit").arg(junit);
    }
    command.output().expect("the binary runs")
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

/// Passes with the example's ledger; fails on a removed entry and on an entry for a check the
/// adapter agrees with (both in one run).
fn certify_example(adapter: &str, profile: &str, ledger: &str, summary: &str) {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let ledger_path = root().join(ledger);
    let out = certify(adapter, profile, &ledger_path, Some(&junit));
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(shown.contains(summary), "{shown}");
    assert!(!shown.contains("FAIL"), "{shown}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.starts_with("<?xml") && xml.contains("failures=\"0\""),
        "{xml}"
    );

    // One run, two edits: one entry taken out (that divergence is unlisted), and an entry for a
    // check the adapter agrees with (fixed). Each is named apart, so one run shows both; a run
    // over the corpus is most of this test's time.
    let original = std::fs::read_to_string(&ledger_path).unwrap();
    let (line, id) = original
        .lines()
        .find_map(|l| {
            let t = l.trim();
            t.contains('#')
                .then(|| {
                    t.split_once(": ")
                        .map(|(id, _)| (l.to_string(), id.to_string()))
                })
                .flatten()
                // A check entry, indented under its group's `checks:` (a reason may cite `#`).
                .filter(|_| !t.starts_with('#') && l.starts_with("    "))
        })
        .expect("an entry");
    let edited = dir.path().join("edited.yaml");
    std::fs::write(
        &edited,
        original.replacen(
            &format!("{line}\n"),
            "    rfc9309/longest-match/allow-wins-tie#1: disallowed\n",
            1,
        ),
    )
    .unwrap();
    let out = certify(adapter, profile, &edited, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains(&format!("FAIL {id}: unexpected divergence")),
        "{shown}"
    );
    assert!(
        shown.contains("FAIL rfc9309/longest-match/allow-wins-tie#1: fixed"),
        "{shown}"
    );
}

#[test]
fn the_python_example_certifies_under_its_ledger() {
    if available("python3") {
        certify_example(
            "py-example = python3 examples/adapters/my_adapter.py",
            "draft-1996",
            "examples/adapters/py-example.yaml",
            "1996 draft: 95.6% of 1,353 checks; 59 documented divergences; corpus 0.4.0",
        );
    }
}

#[test]
fn the_javascript_example_certifies_under_its_ledger() {
    if available("node") {
        certify_example(
            "js-example = node examples/adapters/my_adapter.js",
            "rfc9309",
            "examples/adapters/js-example.yaml",
            "RFC 9309: 96.5% of 1,356 checks; 47 documented divergences; corpus 0.4.0",
        );
    }
}

#[test]
fn a_ledger_for_another_profile_or_adapter_is_an_error() {
    let ledger = root().join("examples/adapters/js-example.yaml");
    let out = certify(
        "js-example = node examples/adapters/my_adapter.js",
        "google",
        &ledger,
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("written against rfc9309, but --profile is google"));
    let out = certify(
        "other = node examples/adapters/my_adapter.js",
        "rfc9309",
        &ledger,
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("other's ledger"), "{}", text(&out));
}

/// A Python adapter whose every answer is `answer_line` (a Python expression of `i`, the check's
/// index, giving the JSON object to print).
fn python_adapter(dir: &Path, name: &str, answer: &str) -> String {
    let path = dir.join(format!("{name}.py"));
    std::fs::write(
        &path,
        format!(
            "import json, sys\n\
             def send(m):\n    sys.stdout.write(json.dumps(m) + '\\n'); sys.stdout.flush()\n\
             send({{'protocol': 'robotstxt-adapter/1', 'id': '{name}', 'library': 'x', 'version': '1', \
             'language': 'Python', 'licence': 'MIT', 'source': 'test', 'profile': 'rfc9309', 'url': 'full'}})\n\
             for line in sys.stdin:\n    request = json.loads(line)\n    for i, _ in enumerate(request['checks']):\n        send({answer})\n"
        ),
    )
    .unwrap();
    format!("{name} = python3 {}", path.display())
}

/// `ledger rewrite` for a user adapter into `dir`, as docs/certify.md says.
fn rewrite(adapter: &str, dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotstxt-conformance"))
        .current_dir(root())
        .args([
            "ledger",
            "rewrite",
            "--adapter-command",
            adapter,
            "--ledgers",
        ])
        .arg(dir)
        .output()
        .expect("the binary runs")
}

#[test]
fn an_adapter_answering_errors_never_certifies_and_its_errors_are_not_recorded() {
    if !available("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let adapter = python_adapter(
        dir.path(),
        "garbage",
        "{'check': i, 'answer': 'error', 'message': 'cannot parse that'}",
    );
    let out = rewrite(&adapter, dir.path());
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains("error, crash or timeout answers not recorded"),
        "{shown}"
    );
    let ledger = dir.path().join("garbage.yaml");
    let written = std::fs::read_to_string(&ledger).unwrap();
    assert!(!written.contains(": error"), "{written}");
    // The header names a command that works for this adapter.
    assert!(
        written.contains("ledger rewrite --adapter-command 'garbage = python3 "),
        "{written}"
    );
    let badge = dir.path().join("badge.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_robotstxt-conformance"))
        .current_dir(root())
        .args([
            "certify",
            "--adapter-command",
            &adapter,
            "--profile",
            "rfc9309",
        ])
        .arg("--ledger")
        .arg(&ledger)
        .arg("--badge")
        .arg(&badge)
        .output()
        .unwrap();
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("answered error (cannot parse that), the profile expects")
            && shown.contains("error answers (1,")
            && shown.contains("fix the adapter")
            && shown.contains("`message:`, the pattern the message must match"),
        "{shown}"
    );
    // The outputs say what the exit says: no passing badge, the line marked.
    assert!(
        shown.contains("NOT CERTIFIED (") && shown.contains("RFC 9309: 0.0% of 1,"),
        "{shown}"
    );
    let svg = std::fs::read_to_string(&badge).unwrap();
    assert!(svg.contains(">failing</text>"), "{svg}");
    assert!(shown.contains("; 0 documented divergences;"), "{shown}");

    // Listed by hand without a message pattern: the ledger is refused.
    let mut listed = written.replace("divergences: []\n", "divergences:\n");
    listed.push_str("- reason: the parser rejects everything\n  checks:\n    draft-1996/example/figtree#1: error\n");
    std::fs::write(&ledger, &listed).unwrap();
    let out = certify(&adapter, "rfc9309", &ledger, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("lists `error` or `crash` answers without `message:`"),
        "{shown}"
    );
    // A timeout is never listed.
    std::fs::write(&ledger, listed.replace(": error\n", ": timeout\n")).unwrap();
    let out = certify(&adapter, "rfc9309", &ledger, None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("a `timeout` cannot be listed"));
}

/// A library's known exception, listed by the pattern of its message with a reason: `certify`
/// passes, counting it apart (never a pass, never a documented divergence); the same check with a
/// message the pattern does not match fails. The adapter (`fault-error-empty`, this program's
/// test adapter) answers like the oracle's RFC 9309 profile but throws on an empty body.
#[test]
fn a_known_exception_listed_by_its_message_certifies_and_another_message_fails() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_robotstxt-conformance");
    let adapter = format!("thrower = '{exe}' adapter serve fault-error-empty");
    let ledger = dir.path().join("thrower.yaml");
    std::fs::write(
        &ledger,
        "adapter: thrower\nprofile: rfc9309\ndivergences: []\n",
    )
    .unwrap();
    let out = certify(&adapter, "rfc9309", &ledger, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    // Every failing check is an empty body's error.
    let failing: Vec<&str> = shown
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .filter(|l| !l.starts_with("error answers"))
        .collect();
    assert!(!failing.is_empty(), "{shown}");
    let ids: Vec<&str> = failing
        .iter()
        .map(|l| {
            assert!(
                l.contains("answered error (EmptyRobotsError: robots.txt is empty)"),
                "{l}"
            );
            l.split_once(':').unwrap().0
        })
        .collect();
    let write = |pattern: &str| {
        let mut text = format!(
            "adapter: thrower\nprofile: rfc9309\ndivergences:\n- reason: throws on an empty \
             file (the library's documented refusal)\n  message: '{pattern}'\n  checks:\n"
        );
        for id in &ids {
            text.push_str(&format!("    {id}: error\n"));
        }
        std::fs::write(&ledger, text).unwrap();
    };
    write("EmptyRobotsError*");
    let badge = dir.path().join("badge.svg");
    let out = Command::new(exe)
        .current_dir(root())
        .args([
            "certify",
            "--adapter-command",
            &adapter,
            "--profile",
            "rfc9309",
        ])
        .arg("--ledger")
        .arg(&ledger)
        .arg("--badge")
        .arg(&badge)
        .output()
        .unwrap();
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        !shown.contains("FAIL") && !shown.contains("NOT CERTIFIED"),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "known failures (error or crash answers the ledger accepts by their message; not \
             passes, not documented divergences, not counted above as either): {}",
            ids.len()
        )),
        "{shown}"
    );
    assert!(shown.contains("; 0 documented divergences;"), "{shown}");
    let svg = std::fs::read_to_string(&badge).unwrap();
    assert!(!svg.contains(">failing</text>"), "{svg}");
    // Another message: not the failure the ledger accepts.
    write("*SomethingElse*");
    let out = certify(&adapter, "rfc9309", &ledger, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("the ledger expects `error` with a message matching `*SomethingElse*`"),
        "{shown}"
    );
}

/// The line to cite counts only the entries a person explained: an UNEXPLAINED entry is listed
/// apart, and the run fails on it.
/// A Python adapter that allows everything, and the ledger `ledger rewrite` writes for it: made
/// once for the tests that read it (the rewrite examines each of its hundreds of divergences).
fn always_allowed() -> (&'static str, &'static str) {
    static MADE: OnceLock<(tempfile::TempDir, String, String)> = OnceLock::new();
    let (_, adapter, ledger) = MADE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let adapter = python_adapter(dir.path(), "yes", "{'check': i, 'answer': 'allowed'}");
        assert_eq!(rewrite(&adapter, dir.path()).status.code(), Some(0));
        let ledger = std::fs::read_to_string(dir.path().join("yes.yaml")).unwrap();
        (dir, adapter, ledger)
    });
    (adapter, ledger)
}

#[test]
fn the_line_to_cite_counts_no_unexplained_entry() {
    if !available("python3") {
        return;
    }
    let (adapter, written) = always_allowed();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("yes.yaml");
    std::fs::write(&ledger, written).unwrap();
    // Explain every group but the first.
    let mut groups = 0;
    let explained: String = written
        .lines()
        .map(|l| {
            if l.starts_with("- reason:") {
                groups += 1;
                if groups > 1 {
                    return "- reason: explained by a person".to_string();
                }
            }
            l.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&ledger, explained + "\n").unwrap();
    let out = certify(adapter, "rfc9309", &ledger, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    let unexplained: usize = shown
        .lines()
        .find_map(|l| {
            l.strip_prefix(
                "listed without a reason (UNEXPLAINED; not counted above as documented): ",
            )
        })
        .unwrap_or_else(|| panic!("{shown}"))
        .parse()
        .unwrap();
    let failing = shown
        .lines()
        .filter(|l| l.contains(": unexplained: "))
        .count();
    assert_eq!(unexplained, failing, "{shown}");
    let line = shown
        .lines()
        .find(|l| l.contains("documented divergences"))
        .unwrap();
    let documented: usize = line
        .split("; ")
        .find_map(|p| p.strip_suffix(" documented divergences"))
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let listed = written
        .lines()
        .filter(|l| l.starts_with("    ") && l.contains('#'))
        .count();
    assert_eq!(documented + unexplained, listed, "{shown}");
}

#[test]
fn a_ledger_still_unexplained_never_certifies() {
    if !available("python3") {
        return;
    }
    let (adapter, written) = always_allowed();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("yes.yaml");
    std::fs::write(&ledger, written).unwrap();
    // Grouped by cause, each group UNEXPLAINED with the cause in words.
    assert!(written.contains("UNEXPLAINED (oracle cause: "), "{written}");
    assert!(written.matches("- reason:").count() > 3, "{written}");
    let out = certify(adapter, "rfc9309", &ledger, None);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains(": unexplained: the ledger lists this divergence"),
        "{shown}"
    );
}
