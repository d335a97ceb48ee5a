//! The fuzz command as a user runs it: a seeded run ends with its summary line, writes
//! summary.json, and every bucket's case.yaml is a valid corpus case; the batch size changes only
//! the speed. Every run here is bounded by `--execs` alone, never by the clock, so a slow or loaded
//! machine gives the same results.

use std::process::Command;

mod common;
use common::python_adapter;

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full"). Without it the runs that compare or read whole campaigns take fewer executions
/// ([`execs`]), the same seeds' first inputs (each of those runs still finds over 90 buckets).
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// `--execs` for a run: `full_size` at full size, else `quick`.
fn execs(full_size: u32, quick: u32) -> String {
    if full() { full_size } else { quick }.to_string()
}

/// Runs `fuzz` with `args` and `--out out`, checks that it succeeded, and returns its standard
/// output and the summary.json it wrote.
fn fuzz(args: &[&str], out: &std::path::Path) -> (String, serde_json::Value) {
    assert!(
        !args.contains(&"--seconds"),
        "a test bounds a run by --execs, not by the clock"
    );
    let run = Command::new(EXE)
        .arg("fuzz")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    (String::from_utf8_lossy(&run.stdout).into_owned(), summary)
}

#[test]
fn a_seeded_run_writes_loadable_cases_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    // More than one batch (1,024 inputs), and not a multiple of it.
    let execs = execs(3000, 1500);
    let args = ["--execs", &execs, "--seed", "7", "--format", "json"];
    let (stdout, summary) = fuzz(&args, dir.path());
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    for key in [
        "execs",
        "seconds",
        "execs_per_sec",
        "buckets",
        "findings_dir",
    ] {
        assert!(last.get(key).is_some(), "{key} missing from {last}");
    }
    // --execs is exact with one job, also when it is not a multiple of the batch size.
    assert_eq!(last["execs"].to_string(), execs);
    assert_eq!(summary["buckets"], last["buckets"]);
    // Every written case loads with the strict corpus loader (as spec-cases/regressions/ would).
    let corpus = dir.path().join("corpus");
    let mut written = 0;
    for bucket in std::fs::read_dir(dir.path().join("buckets")).unwrap() {
        let bucket = bucket.unwrap().path();
        // The files describe the minimal input: never a case beside a note that there is none.
        assert!(
            !(bucket.join("case.yaml").is_file() && bucket.join("not-a-case.txt").is_file()),
            "{} has both case.yaml and not-a-case.txt",
            bucket.display()
        );
        if !bucket.join("case.yaml").is_file() {
            // Only a non-token agent keeps a finding out of the corpus format, and it says so.
            assert!(
                bucket.join("not-a-case.txt").is_file(),
                "{}",
                bucket.display()
            );
            continue;
        }
        let target = corpus
            .join(bucket.file_name().unwrap())
            .with_extension("yaml");
        std::fs::create_dir_all(&corpus).unwrap();
        std::fs::copy(bucket.join("case.yaml"), target).unwrap();
        written += 1;
    }
    if written > 0 {
        if let Err(errors) = robotstxt_matrix::cases::Corpus::load(&corpus) {
            let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("written cases do not load:\n{}", text.join("\n"));
        }
    }
}

#[test]
fn the_same_seed_finds_the_same_buckets() {
    let execs = execs(2000, 700);
    let run = || {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--execs", &execs, "--seed", "11"];
        let (_, summary) = fuzz(&args, dir.path());
        let mut sigs: Vec<String> = summary["bucket_list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["signature"].to_string())
            .collect();
        sigs.sort();
        sigs
    };
    assert_eq!(run(), run());
}

/// Every file under `dir`, by path relative to it, with its contents.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap().to_path_buf();
                files.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_batch_size_changes_nothing_but_the_speed() {
    // Input by input, and in batches that do not divide the count: the same buckets, hit as often,
    // with byte-identical cases and findings.
    let execs = execs(1500, 500);
    let run = |batch: &str| {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--execs", &execs, "--seed", "5", "--batch", batch];
        let (_, summary) = fuzz(&args, dir.path());
        assert_eq!(summary["execs"].to_string(), execs);
        (
            summary["bucket_list"].clone(),
            files_under(&dir.path().join("buckets")),
        )
    };
    let (list, files) = run("1");
    assert!(!files.is_empty(), "{execs} executions found no bucket");
    for batch in ["64", "1024"] {
        let (batched_list, batched_files) = run(batch);
        assert!(
            batched_list == list,
            "--batch {batch} changed the bucket list:\n{batched_list:#}\ninput by input:\n{list:#}"
        );
        let paths = |files: &[(std::path::PathBuf, Vec<u8>)]| {
            files.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>()
        };
        assert_eq!(paths(&batched_files), paths(&files), "--batch {batch}");
        for ((path, one), (_, batched)) in files.iter().zip(&batched_files) {
            assert!(
                one == batched,
                "--batch {batch} changed {}:\n{}\ninput by input:\n{}",
                path.display(),
                String::from_utf8_lossy(batched),
                String::from_utf8_lossy(one)
            );
        }
    }
}

#[test]
fn a_zero_batch_is_refused() {
    let out = Command::new(EXE)
        .args(["fuzz", "--execs", "1", "--batch", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--batch"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn execs_alone_sets_no_time_limit() {
    // The run is bounded by its count only: the start line says so, and the count is reached.
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new(EXE)
        .args(["fuzz", "--execs", "50", "--seed", "3", "--adapter", "none"])
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("fuzzing for 50 executions (no time limit)"),
        "{stderr}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["execs"], 50);
}

#[test]
fn a_non_positive_time_limit_is_refused() {
    let out = Command::new(EXE)
        .args(["fuzz", "--seconds", "0", "--execs", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--seconds must be positive"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every bucket of a run, as (adapters, kind, cause, hits, minimal input), with each adapter id
/// renamed by `rename` (served name, in-process name).
fn buckets_of(
    dir: &std::path::Path,
    summary: &serde_json::Value,
    rename: &[(&str, &str)],
) -> Vec<String> {
    let name = |id: &serde_json::Value| {
        let id = id.as_str().unwrap_or("-");
        rename
            .iter()
            .find(|(served, _)| *served == id)
            .map_or(id, |(_, original)| original)
            .to_string()
    };
    let mut out: Vec<String> = summary["bucket_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let finding: serde_json::Value = serde_json::from_slice(
                &std::fs::read(dir.join(b["dir"].as_str().unwrap()).join("finding.json")).unwrap(),
            )
            .unwrap();
            let sig = &b["signature"];
            format!(
                "{} {} {} {} {} {}",
                name(&sig["adapter"]),
                name(&sig["other"]),
                sig["kind"],
                sig["cause"],
                b["hits"],
                finding["minimal"]
            )
        })
        .collect();
    out.sort();
    out
}

/// Adapter processes, asked a whole batch per round trip (and a whole round of minimisation
/// candidates per round trip), find exactly what the same parsers find in process, input by input:
/// the same buckets (pairs of adapters that disagree included), hit as often, minimised to the same
/// inputs.
#[test]
fn adapter_processes_find_what_the_same_parsers_find_in_process() {
    let in_process = tempfile::tempdir().unwrap();
    let (_, summary) = fuzz(
        &[
            "--execs",
            "800",
            "--seed",
            "3",
            "--batch",
            "1",
            "--adapter",
            "robotstxt",
            "--adapter",
            "texting-robots",
        ],
        in_process.path(),
    );
    let expected = buckets_of(in_process.path(), &summary, &[]);
    assert!(
        expected.iter().any(|b| b.contains("adapters-disagree")),
        "no pair bucket to compare: {expected:#?}"
    );
    let served = tempfile::tempdir().unwrap();
    let first = format!("served-a = '{EXE}' adapter serve robotstxt");
    let second = format!("served-b = '{EXE}' adapter serve texting-robots");
    let (stdout, summary) = fuzz(
        &[
            "--execs",
            "800",
            "--seed",
            "3",
            "--adapter-command",
            &first,
            "--adapter-command",
            &second,
            "--adapter",
            "served-a",
            "--adapter",
            "served-b",
            "--batch",
            "300",
        ],
        served.path(),
    );
    let rename = [("served-a", "robotstxt"), ("served-b", "texting-robots")];
    assert_eq!(buckets_of(served.path(), &summary, &rename), expected);
    // Their rates are measured and printed.
    assert!(
        summary["adapter_execs_per_sec"]["served-a"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("served-b") && l.contains("execs/s")),
        "{stdout}"
    );
}

/// A directory holding `files` (name, body).
fn seed_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    dir
}

/// An adapter process that exits on some inputs (the fault adapter served over the protocol, its
/// agent `FaultBot` drawn from a seed file) is a `crash` finding; the run goes on to its count. So
/// is a fault adapter asked by id, which the fuzzer runs in a worker process: its abort is a
/// finding, not the end of the run.
#[test]
fn a_crashing_adapter_process_is_a_finding_and_the_run_goes_on() {
    let seeds = seed_dir(&[
        ("a.txt", "User-agent: FaultBot\nDisallow: /x\n"),
        (
            "b.txt",
            "User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n",
        ),
    ]);
    let out = tempfile::tempdir().unwrap();
    let command = format!("exiting = '{EXE}' adapter serve fault-exit");
    let seeds_arg = seeds.path().display().to_string();
    let (_, summary) = fuzz(
        &[
            "--execs",
            "300",
            "--seed",
            "2",
            "--seeds",
            &seeds_arg,
            "--adapter-command",
            &command,
            "--adapter",
            "exiting",
            "--adapter",
            "fault-abort",
        ],
        out.path(),
    );
    assert_eq!(summary["execs"], 300);
    assert_eq!(summary["seed_files"], 2);
    let buckets = summary["bucket_list"].as_array().unwrap();
    let crash_of = |adapter: &str| {
        buckets
            .iter()
            .find(|b| b["signature"]["kind"] == "crash" && b["signature"]["adapter"] == adapter)
            .unwrap_or_else(|| panic!("no crash bucket for {adapter}: {summary:#}"))
    };
    assert!(
        crash_of("fault-abort")["signature"]["cause"]
            .as_str()
            .unwrap()
            .contains("killed by signal"),
        "{summary:#}"
    );
    let crash = crash_of("exiting");
    assert!(
        crash["signature"]["cause"]
            .as_str()
            .unwrap()
            .contains("exit status"),
        "{crash}"
    );
    // Crashes are a part of the inputs, not all: the restarted process answered the others.
    assert!(crash["hits"].as_u64().unwrap() < 300, "{crash}");
    let finding: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            out.path()
                .join(crash["dir"].as_str().unwrap())
                .join("finding.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(finding["minimal"]["agent"], "FaultBot", "{finding:#}");
}

/// An adapter whose answer changes with the hash seed of a fresh process is `nondeterministic`,
/// minimised to an input its two processes still disagree on; one whose answer does not change
/// (the same program deciding by length) never is.
#[test]
fn an_answer_that_changes_between_processes_is_nondeterministic() {
    let programs = tempfile::tempdir().unwrap();
    let hashy = python_adapter(programs.path(), "hashy", true);
    let steady = python_adapter(programs.path(), "steady", false);
    let out = tempfile::tempdir().unwrap();
    let (_, summary) = fuzz(
        &[
            "--execs",
            "200",
            "--seed",
            "4",
            "--recheck-every",
            "1",
            "--adapter-command",
            &hashy,
            "--adapter-command",
            &steady,
            "--adapter",
            "hashy",
            "--adapter",
            "steady",
        ],
        out.path(),
    );
    let buckets = summary["bucket_list"].as_array().unwrap();
    let nondeterministic: Vec<&serde_json::Value> = buckets
        .iter()
        .filter(|b| b["signature"]["kind"] == "nondeterministic")
        .collect();
    assert!(
        nondeterministic
            .iter()
            .all(|b| b["signature"]["adapter"] == "hashy"),
        "{nondeterministic:#?}"
    );
    assert!(!nondeterministic.is_empty(), "{summary:#}");
    assert_eq!(summary["time"]["second_inputs"], 200);
    for bucket in nondeterministic {
        let finding: serde_json::Value = serde_json::from_slice(
            &std::fs::read(
                out.path()
                    .join(bucket["dir"].as_str().unwrap())
                    .join("finding.json"),
            )
            .unwrap(),
        )
        .unwrap();
        let answers = &finding["answers"];
        assert_ne!(
            answers["hashy"], answers["hashy (second process)"],
            "{finding:#}"
        );
    }
}

#[test]
fn a_missing_or_empty_seed_directory_is_refused() {
    let empty = tempfile::tempdir().unwrap();
    for (dir, message) in [
        (
            std::path::PathBuf::from("/nonexistent/seeds"),
            "not a directory",
        ),
        (empty.path().to_path_buf(), "no non-empty file"),
    ] {
        let out = Command::new(EXE)
            .args(["fuzz", "--execs", "1", "--seeds"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn an_unknown_adapter_is_refused_with_the_known_ones() {
    let out = Command::new(EXE)
        .args(["fuzz", "--execs", "1", "--adapter", "no-such-parser"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no-such-parser") && stderr.contains("py-protego"),
        "{stderr}"
    );
}
