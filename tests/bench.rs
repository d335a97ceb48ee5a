//! `bench --adapter` as a user runs it: the output's shape on a tiny run (no speed is judged).
//! It measures against google-cpp, so without Google's C++ built here (abseil missing) the test is
//! ignored with the reason, as the adapters' tests are; `ROBOTSTXT_REQUIRE_ADAPTERS=1` (CI) makes
//! that a failure.

use std::process::{Command, Output, Stdio};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

fn run(args: &[&str], _stdin: &[u8]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotstxt-conformance"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A one-case corpus for the tests that only check an output's shape.
fn tiny_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("one.yaml"),
        "title: t\ncite: [rfc9309#2.2.2]\nbody: |\n  User-agent: *\n  Disallow: /private\nchecks:\n  - agent: FooBot\n    url: /private/a\n    expect: disallowed\n",
    )
    .unwrap();
    dir
}

fn bench_measures_the_oracle_with_the_adapters_and_no_process_ratio_in_process() {
    // The output's shape on a tiny run; no speed is judged.
    let corpus = tiny_corpus();
    let args = |format: &'static str| {
        [
            "bench",
            "--adapter",
            "robots-txt",
            "--no-isolation",
            "--seconds",
            "0.01",
            "--format",
            format,
            "--cases-dir",
            corpus.path().to_str().unwrap(),
        ]
        .map(String::from)
    };
    let json = args("json");
    let out = run(&json.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let rows = value["adapters"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["adapter"] == id);
    let oracle = row("oracle").expect("the oracle is measured in the same run");
    assert_eq!(oracle["mode"], "in-process");
    assert_eq!(value["oracle_profile"], "google");
    assert!(oracle["corpus_checks_per_sec"].as_f64().unwrap() > 0.0);
    assert!(row("robots-txt").is_some(), "{value}");
    // With google-cpp built here, every in-process row has both ratios to it.
    if let Some(google) = row("google-cpp") {
        assert_eq!(google["corpus_vs_google"], 1.0);
        for id in ["oracle", "robots-txt"] {
            for ratio in ["corpus_vs_google", "typical_vs_google"] {
                assert!(row(id).unwrap()[ratio].is_f64(), "{id} {ratio}: {value}");
            }
        }
    }
    // Under --no-isolation google-cpp runs in this process: no process-per-check ratio, and why.
    assert_eq!(value["protocol"], serde_json::json!([]), "{value}");
    let omitted = value["protocol_omitted"].as_array().unwrap();
    assert_eq!(omitted.len(), 1, "{value}");
    assert!(
        omitted[0].as_str().unwrap().contains("--no-isolation"),
        "{value}"
    );
    let text = args("text");
    let out = run(&text.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    let shown = stdout(&out);
    assert!(shown.contains("\noracle "), "{shown}");
    assert!(
        shown.contains("no process-per-check ratio under --no-isolation"),
        "{shown}"
    );
    assert!(!shown.contains("µs/check process per check"), "{shown}");
}

fn main() {
    let args = Arguments::from_args();
    let trial = Trial::ignorable_test(
        "bench_measures_the_oracle_with_the_adapters_and_no_process_ratio_in_process",
        || match robotstxt_adapters::inprocess::google_cpp::available() {
            Ok(()) => {
                bench_measures_the_oracle_with_the_adapters_and_no_process_ratio_in_process();
                Ok(Completion::Completed)
            }
            Err(why)
                if std::env::var_os("ROBOTSTXT_REQUIRE_ADAPTERS").is_some_and(|v| v == "1") =>
            {
                Err(Failed::from(format!(
                    "ROBOTSTXT_REQUIRE_ADAPTERS=1 but {why}"
                )))
            }
            Err(why) => Ok(Completion::ignored_with(format!(
                "bench measures against google-cpp, which is not built here: {why}"
            ))),
        },
    );
    libtest_mimic::run(&args, vec![trial]).exit();
}
