//! The Rust route, whole: a parser certified through `robotstxt-spec` is fuzzed, fingerprinted,
//! run on real files and certified by this program through its own test binary, with no protocol
//! program written by hand (`ROBOTSTXT_SPEC_ADAPTER=1` makes `Suite::run` serve
//! `adapters/PROTOCOL.md`), and its suite's ledger is the ledger `certify` reads.
//!
//! This file is such a test binary (`harness = false`): started with the variable set it is the
//! toy parser's suite serving the protocol; started by `cargo test` it runs the tests below, which
//! start it again as an adapter.

use std::path::Path;
use std::process::{Command, Output};

use libtest_mimic::{Arguments, Failed, Trial};
use robotstxt_adapters::registry::{Options, UserAdapter};
use robotstxt_adapters::Query;
use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};
use robotstxt_spec::{Answer, Suite};

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

/// The toy parser: the 1994 standard's reading (`either` read as allowed), and a panic for the
/// agent `PanicBot`.
fn toy(body: &[u8], agent: &str, url: &str) -> Answer {
    assert!(agent != "PanicBot", "the toy panics for PanicBot");
    match evaluate(ProfileId::Original1994, &Request::new(body, agent, url)).verdict {
        Verdict::Disallowed => Answer::Disallowed,
        _ => Answer::Allowed,
    }
}

/// The toy's suite, as a downstream crate writes it.
fn suite(ledger: Option<&Path>) -> Suite {
    let suite = Suite::new("toy").profile(ProfileId::Rfc9309);
    match ledger {
        Some(path) => suite.ledger(path),
        None => suite,
    }
}

/// The `--adapter-command` that starts this binary as the toy's adapter.
fn adapter_command() -> String {
    let me = std::env::current_exe().expect("this test binary's path");
    format!(
        "toy = env {}=1 '{}'",
        robotstxt_spec::serve::SERVE_VAR,
        me.display()
    )
}

fn main() {
    if robotstxt_spec::serve::requested() {
        suite(None).run(toy as fn(&[u8], &str, &str) -> Answer);
    }
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test(
            "spec_adapter::the_served_parser_answers_as_in_process",
            the_served_parser_answers_as_in_process,
        ),
        Trial::test(
            "spec_adapter::certify_fuzz_fingerprint_and_realworld_take_it",
            certify_fuzz_fingerprint_and_realworld_take_it,
        ),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// Opened through the protocol client every command uses, the served parser gives the answers
/// the parser gives in process: on text and on octets that are not UTF-8, a panic as `crash`.
fn the_served_parser_answers_as_in_process() -> Result<(), Failed> {
    let options = Options {
        user: vec![UserAdapter::parse(&adapter_command())?],
        ..Options::default()
    };
    let mut adapter = robotstxt_adapters::open("toy", &options).map_err(|e| e.to_string())?;
    let identity = adapter.identity().clone();
    if identity.id != "toy" || identity.profile != ProfileId::Rfc9309 {
        return Err(format!("{identity:?}").into());
    }
    let bodies: [&[u8]; 3] = [
        b"User-agent: *\nDisallow: /private\nAllow: /private/open\n",
        b"User-agent: *\nDisallow: /caf\xE9\n",
        b"",
    ];
    let queries = [
        Query::new("FooBot", "http://example.com/private/open"),
        Query::new("FooBot", "http://example.com/private/x"),
        Query::new("FooBot", "http://example.com/caf%E9"),
        Query::new("PanicBot", "http://example.com/"),
    ];
    for body in bodies {
        let served = adapter.answer(body, &queries);
        for (query, answer) in queries.iter().zip(&served) {
            if query.agent == "PanicBot" {
                let panicked = matches!(answer, Answer::Crash { message } if message.starts_with("panicked: the toy panics"));
                if !panicked {
                    return Err(format!("PanicBot: {answer:?}").into());
                }
                continue;
            }
            let direct = toy(body, &query.agent, &query.url);
            if *answer != direct {
                return Err(
                    format!("{query:?} on {body:?}: served {answer:?}, direct {direct:?}").into(),
                );
            }
        }
    }
    Ok(())
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(EXE)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn shown(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

/// The suite's own ledger, blessed and explained, is the ledger `certify` judges by; `fuzz`,
/// `fingerprint` and `realworld` take the served parser like any adapter.
fn certify_fuzz_fingerprint_and_realworld_take_it() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let ledger = dir.path().join("robotstxt-spec.yaml");
    let corpus = robotstxt_spec::embedded::corpus().map_err(|e| format!("{e:?}"))?;
    let suite = suite(Some(&ledger));
    suite.bless(&corpus, &(toy as fn(&[u8], &str, &str) -> Answer))?;
    let written = std::fs::read_to_string(&ledger)?;
    let explained = written
        .lines()
        .map(|l| match l.strip_prefix("- reason: ") {
            Some(_) => "- reason: the toy reads the 1994 standard".to_string(),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&ledger, explained + "\n")?;
    let (figures, failed) = suite.figures(toy as fn(&[u8], &str, &str) -> Answer);
    if failed > 0 {
        return Err(format!("the suite fails {failed} tests").into());
    }
    let command = adapter_command();
    let ledger_arg = ledger.display().to_string();
    // The four commands share nothing but the ledger, which none writes: they run side by side
    // (each is a debug build's work of seconds on one core).
    let certified = || -> Result<(), String> {
        let out = run(
            &[
                "certify",
                "--adapter-command",
                &command,
                "--profile",
                "rfc9309",
                "--ledger",
                &ledger_arg,
            ],
            dir.path(),
        );
        // The same line as the suite's: one ledger, one judgement.
        let line = robotstxt_spec::badge::line(&figures[ProfileId::Rfc9309.index()]);
        if out.status.code() != Some(0) || !shown(&out).contains(&line) {
            return Err(format!("certify (expected `{line}`): {}", shown(&out)));
        }
        Ok(())
    };
    let fuzzed = || -> Result<(), String> {
        let findings = dir.path().join("findings");
        let findings_arg = findings.display().to_string();
        let out = run(
            &[
                "fuzz",
                "--execs",
                "300",
                "--seed",
                "1",
                "--format",
                "json",
                "--adapter-command",
                &command,
                "--out",
                &findings_arg,
            ],
            dir.path(),
        );
        let last = String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string();
        if !out.status.success() || !last.contains("\"execs\":300") {
            return Err(format!("fuzz: {}", shown(&out)));
        }
        Ok(())
    };
    let fingerprinted = || -> Result<(), String> {
        let out = run(&["fingerprint", "--adapter-command", &command], dir.path());
        if !out.status.success() || !shown(&out).contains("toy") {
            return Err(format!("fingerprint: {}", shown(&out)));
        }
        Ok(())
    };
    let files = dir.path().join("files");
    std::fs::create_dir(&files)?;
    for i in 0..4 {
        std::fs::write(
            files.join(format!("site{i}.example")),
            format!("User-agent: *\nDisallow: /p{i}*\n"),
        )?;
    }
    let files_arg = files.display().to_string();
    let realworld = || -> Result<(), String> {
        let out = run(
            &[
                "realworld",
                "--corpus",
                &files_arg,
                "--determinism",
                "off",
                "--format",
                "json",
                "--adapter-command",
                &command,
            ],
            dir.path(),
        );
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() || !report.contains("\"toy\"") {
            return Err(format!("realworld: {}", shown(&out)));
        }
        Ok(())
    };
    let outcomes: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let commands: [&(dyn Fn() -> Result<(), String> + Sync); 4] =
            [&certified, &fuzzed, &fingerprinted, &realworld];
        let running: Vec<_> = commands
            .into_iter()
            .map(|command| scope.spawn(command))
            .collect();
        running
            .into_iter()
            .map(|r| r.join().expect("a command's thread"))
            .collect()
    });
    let failures: Vec<String> = outcomes.into_iter().filter_map(Result::err).collect();
    if !failures.is_empty() {
        return Err(failures.join("\n").into());
    }
    Ok(())
}
