//! The fuzz command as a user runs it: a seeded run ends with its summary line, writes
//! summary.json, and every bucket's case.yaml is a valid corpus case.

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

#[test]
fn a_seeded_run_writes_loadable_cases_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(EXE)
        .args([
            "fuzz",
            "--seconds",
            "30",
            "--execs",
            "3000",
            "--seed",
            "7",
            "--format",
            "json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
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
    assert!(last["execs"].as_u64().unwrap() >= 3000);
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["buckets"], last["buckets"]);
    // Every written case loads with the strict corpus loader (as spec-cases/regressions/ would).
    let corpus = dir.path().join("corpus");
    let mut written = 0;
    for bucket in std::fs::read_dir(dir.path().join("buckets")).unwrap() {
        let bucket = bucket.unwrap().path();
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
        if let Err(errors) = robotstxt_conformance::cases::Corpus::load(&corpus) {
            let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("written cases do not load:\n{}", text.join("\n"));
        }
    }
}

#[test]
fn the_same_seed_finds_the_same_buckets() {
    let run = || {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(EXE)
            .args([
                "fuzz",
                "--seconds",
                "30",
                "--execs",
                "2000",
                "--seed",
                "11",
                "--out",
            ])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("summary.json")).unwrap())
                .unwrap();
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
