//! The command line, run as a user would: `check`, `check --batch`, and the `cases` commands.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The per-check `--timeout` of tests that ask adapters (in a worker process): far beyond what a
/// healthy check takes on a loaded machine, so no test here depends on speed.
const GENEROUS_TIMEOUT: &str = "120";

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robotstxt-conformance"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    match input.write_all(stdin) {
        // A command that fails on its arguments (say, an unknown adapter) exits before it reads
        // its input; the test then checks that failure, so a closed pipe is not an error here.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        result => result.expect("the input is written"),
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_prints_a_verdict_per_profile() {
    let body = b"User-agent: *\nDisallow: /page\nAllow: /page\n";
    let out = run(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "ExampleBot",
            "--url",
            "https://example.com/page",
        ],
        body,
    );
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "rfc9309: allowed\ngoogle: allowed\ndraft-1996: disallowed\noriginal-1994: disallowed\n"
    );
}

#[test]
fn check_warns_when_the_agent_is_not_a_product_token() {
    let body = b"User-agent: *\nDisallow: /page\n";
    for agent in ["Foo Bar", "foo/1.0"] {
        let out = run(
            &["check", "--robots", "-", "--agent", agent, "--url", "/page"],
            body,
        );
        // A warning, not an error: the verdicts are still printed and the exit status is 0.
        assert!(out.status.success(), "{agent}");
        assert_eq!(stdout(&out).lines().count(), 4, "{agent}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("warning: agent `{agent}` is not a product token"))
                && stderr.contains("rfc9309#2.2.1")
                && stderr.contains("The product token MUST contain only"),
            "{agent}: {stderr}"
        );
    }
    let line =
        "{\"robots\": \"User-agent: *\\nDisallow: /\", \"agent\": \"foo/1.0\", \"url\": \"/\"}\n";
    let out = run(&["check", "--batch", "-"], line.as_bytes());
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("\"rfc9309\":\"disallowed\""),
        "{}",
        stdout(&out)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("`foo/1.0` is not a product token"));
    // A batch warns once per agent, not once per line (a real-world batch asks thousands).
    let out = run(&["check", "--batch", "-"], line.repeat(3).as_bytes());
    assert_eq!(stdout(&out).lines().count(), 3, "{}", stdout(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("is not a product token").count(),
        1,
        "{stderr}"
    );
    // A product token gets no warning.
    let out = run(
        &[
            "check", "--robots", "-", "--agent", "FooBot", "--url", "/page",
        ],
        body,
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_explains_and_filters_profiles() {
    let body = b"User-agent: *\nAllow: /p\nDisallow: /\n";
    let out = run(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "a",
            "--url",
            "/page",
            "--profile",
            "google",
            "--explain",
        ],
        body,
    );
    let text = stdout(&out);
    assert!(text.starts_with("profile google: allowed"), "{text}");
    assert!(text.contains("=> line 2: Allow \"/p\""), "{text}");
    assert!(!text.contains("rfc9309"), "{text}");
}

/// The oracle answers every profile at once; `check` shows the profiles asked for, in the order
/// asked (a profile asked twice, twice), each with its own explanation.
#[test]
fn check_answers_the_profiles_asked_in_the_order_asked() {
    let body = b"User-agent: *\nDisallow: /page\nAllow: /page\n";
    let ask = |extra: &[&str]| {
        let mut args = vec!["check", "--robots", "-", "--agent", "a", "--url", "/page"];
        args.extend(extra);
        run(&args, body)
    };
    let profiles = [
        "--profile",
        "original-1994",
        "--profile",
        "google",
        "--profile",
        "original-1994",
    ];
    let out = ask(&profiles);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "original-1994: disallowed\ngoogle: allowed\noriginal-1994: disallowed\n"
    );
    let out = ask(&[&profiles[..], &["--explain", "--format", "json"]].concat());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let explained: Vec<&str> = value["explanations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["profile"].as_str().unwrap())
        .collect();
    assert_eq!(explained, ["original-1994", "google", "original-1994"]);
    // Each explanation is the one `check` gives for its profile asked alone.
    for profile in ["original-1994", "google"] {
        let alone = ask(&["--profile", profile, "--explain"]);
        let together = ask(&[&profiles[..], &["--explain"]].concat());
        assert!(
            stdout(&together).contains(&stdout(&alone)),
            "{profile}: {}",
            stdout(&together)
        );
    }
}

#[test]
fn check_json_and_fetch_outcome() {
    let out = run(
        &[
            "check", "--robots", "-", "--agent", "a", "--url", "/", "--status", "503", "--format",
            "json",
        ],
        b"",
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["oracle"]["rfc9309"], "disallowed");
    assert_eq!(value["oracle"]["original-1994"], "either");
}

#[test]
fn check_takes_any_status_and_exempts_the_robots_txt_uri() {
    // A status no HTTP defines: Google reads an invalid response as a server error.
    let ask = |url: &str, status: &str| {
        let out = run(
            &[
                "check", "--robots", "-", "--agent", "a", "--url", url, "--status", status,
                "--format", "json",
            ],
            b"",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        value["oracle"].clone()
    };
    for status in ["0", "600"] {
        let page = ask("/page", status);
        assert_eq!(page["google"], "disallowed", "{status}");
        assert_eq!(page["rfc9309"], "either", "{status}");
        // The /robots.txt URI: allowed before the fetch outcome (rfc9309#2.2.2).
        let uri = ask("/robots.txt", status);
        assert_eq!(uri["rfc9309"], "allowed", "{status}");
        assert_eq!(uri["google"], "allowed", "{status}");
        assert_eq!(uri["draft-1996"], "allowed", "{status}");
        assert_eq!(uri["original-1994"], "either", "{status}");
    }
}

#[test]
fn check_with_a_robots_url_answers_not_governed_and_says_why() {
    let body = b"User-agent: *\nDisallow: /\n";
    let ask = |url: &str, extra: &[&str]| {
        let mut args = vec![
            "check",
            "--robots",
            "-",
            "--agent",
            "ExampleBot",
            "--robots-url",
            "https://www.example.com/robots.txt",
            "--url",
            url,
        ];
        args.extend_from_slice(extra);
        run(&args, body)
    };
    let out = ask("https://www.example.com/a", &[]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "rfc9309: disallowed\ngoogle: disallowed\ndraft-1996: disallowed\noriginal-1994: disallowed\n"
    );
    let out = ask(
        "https://example.com/a",
        &["--profile", "google", "--explain"],
    );
    let text = stdout(&out);
    assert!(text.starts_with("profile google: not-governed\n"), "{text}");
    assert!(
        text.contains("scope: https://www.example.com/robots.txt does not govern this URL"),
        "{text}"
    );
    let out = ask("https://example.com/a", &["--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["oracle"]["rfc9309"], "not-governed");
    assert_eq!(value["robots_url"], "https://www.example.com/robots.txt");
    // With a robots.txt URL a path says nothing about the host: an error, not a guess.
    let out = ask("/a", &[]);
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(
        error.contains("url: `/a` is not an absolute URL"),
        "{error}"
    );
}

#[test]
fn batch_lines_may_give_a_robots_url() {
    let input = concat!(
        r#"{"robots": "User-agent: *\nDisallow: /\n", "agent": "a", "url": "https://example.com:8181/x", "robots_url": "https://example.com/robots.txt"}"#,
        "\n",
        r#"{"robots": "User-agent: *\nDisallow: /\n", "agent": "a", "url": "/x", "robots_url": "https://example.com/robots.txt"}"#,
        "\n",
        r#"{"robots": "User-agent: *\nDisallow: /\n", "agent": "a", "url": "/x", "robots_url": 7}"#,
        "\n",
    );
    let out = run(&["check", "--batch", "-"], input.as_bytes());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["oracle"]["google"], "not-governed");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("is not an absolute URL"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("must be a string"));
}

#[test]
fn batch_answers_every_line_in_order_and_survives_bad_lines() {
    let input = concat!(
        r#"{"robots": "User-agent: *\nDisallow: /x\n", "agent": "a", "url": "/x", "extra": 1}"#,
        "\n",
        "not json\n",
        r#"{"robots_base64": "VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=", "agent": "a", "url": "/y"}"#,
        "\n",
        r#"{"agent": "a", "url": "/y"}"#,
        "\n",
        r#"{"robots_base64": "!!", "agent": "a", "url": "/y"}"#,
        "\n",
    );
    let out = run(&["check", "--batch", "-"], input.as_bytes());
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["oracle"]["rfc9309"], "disallowed");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("not a JSON object"));
    assert_eq!(lines[2]["oracle"]["google"], "disallowed");
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("missing string field `robots`"));
    assert!(lines[4]["error"]
        .as_str()
        .unwrap()
        .contains("not valid base64"));
}

#[test]
fn missing_robots_file_is_a_clear_error() {
    let out = run(
        &[
            "check",
            "--robots",
            "/nonexistent/robots.txt",
            "--agent",
            "a",
            "--url",
            "/",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/robots.txt"));
}

#[test]
fn cases_stats_json_has_the_documented_shape() {
    let out = run(&["cases", "stats", "--format", "json"], b"");
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(value["cases"].as_u64().unwrap() >= 120);
    assert!(value["checks"].as_u64().unwrap() >= 500);
    for doc in ["rfc9309", "google", "draft-1996", "original-1994"] {
        assert!(
            value["by_document"][doc].as_u64().is_some(),
            "{doc} missing from {value}"
        );
    }
}

#[test]
fn cases_lint_and_coverage_pass_on_the_corpus() {
    let lint = run(&["cases", "lint"], b"");
    assert!(
        lint.status.success(),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    assert!(stdout(&lint).starts_with("ok: "));
    let coverage = run(&["cases", "coverage"], b"");
    assert!(
        coverage.status.success(),
        "{}",
        String::from_utf8_lossy(&coverage.stderr)
    );
    assert!(!stdout(&coverage).contains("NO CASE"));
}

#[test]
fn cases_lint_reports_a_broken_corpus() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.yaml"),
        "title: t\ncite: [rfc9309#2.2, nope#1]\ntags: [Bad]\nbody: x\nchecks: []\n",
    )
    .unwrap();
    let out = run(
        &["cases", "lint", "--cases-dir", dir.path().to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    // Every problem of the file, not only the first.
    let stderr = String::from_utf8_lossy(&out.stderr);
    for line in [
        "bad.yaml:2:21: cite[1]: unknown document `nope`",
        "bad.yaml:3:8: tags[0]: tag `Bad` must be lower-case",
        "bad.yaml:5:9: checks: the list is empty",
        "3 problem(s) in the corpus",
    ] {
        assert!(stderr.contains(line), "{line} missing from:\n{stderr}");
    }
}

#[test]
fn adapters_lists_every_id_with_availability() {
    let out = run(
        &[
            "adapters",
            "--format",
            "json",
            "--peers-dir",
            "/nonexistent",
        ],
        b"",
    );
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, robotstxt_adapters::BUILTIN_IDS);
    // Without a peers directory, the venv-based peers say exactly what is missing and how to fix it.
    let line = |id: &str| lines.iter().find(|l| l["id"] == id).unwrap();
    // So does the Rust program that `peers install` builds.
    for id in ["py-protego", "rs-robotparser"] {
        assert_eq!(line(id)["available"], false, "{id}");
        assert!(
            line(id)["unavailable"]["fix"]
                .as_str()
                .unwrap()
                .contains("peers install"),
            "{id}"
        );
    }
    // The Rust crates are always there.
    assert_eq!(line("robots-txt")["identity"]["library"], "robots_txt");
    assert_eq!(line("fast-robots")["identity"]["library"], "fast-robots");
}

#[test]
fn check_asks_adapters_and_batch_lines_gain_adapters() {
    let body = b"User-agent: *\nDisallow: /*.pdf$\n";
    let out = run(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "FooBot",
            "--url",
            "/a.pdf",
            "--profile",
            "rfc9309",
            "--adapter",
            "robots-txt",
            "--adapter",
            "robotxt",
            "--timeout",
            GENEROUS_TIMEOUT,
        ],
        body,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout(&out),
        "rfc9309: disallowed\nadapter robots-txt: allowed\nadapter robotxt: disallowed\n"
    );
    let line = br#"{"robots":"User-agent: *\nDisallow: /x\n","agent":"A","url":"/x"}"#;
    let out = run(
        &[
            "check",
            "--batch",
            "-",
            "--adapter",
            "robots-txt",
            "--timeout",
            GENEROUS_TIMEOUT,
        ],
        line,
    );
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["adapters"]["robots-txt"], "disallowed");
    let out = run(&["check", "--batch", "-", "--adapter", "no-such"], line);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown adapter `no-such`"));
}

#[test]
fn run_writes_the_four_reports_for_a_filtered_selection() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = run(
        &[
            "run",
            "--adapter",
            "robots-txt",
            "--timeout",
            GENEROUS_TIMEOUT,
            "--cases",
            "rfc9309/longest-match/",
            "--out",
            out_dir,
            "--format",
            "markdown",
        ],
        b"",
    );
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("robots-txt"));
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("results.json")).unwrap()).unwrap();
    assert_eq!(results["schema"], "robotstxt-conformance/results");
    assert_eq!(results["version"], 1);
    let rows = results["rows"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["case"]
        .as_str()
        .unwrap()
        .starts_with("rfc9309/longest-match/")));
    // The fingerprint comes from this run's answers: its deciding checks are selected ones.
    let print = &results["summary"][0]["fingerprint"];
    assert_eq!(print["claimed"], results["adapters"][0]["profile"]);
    let dimensions = print["dimensions"].as_array().unwrap();
    assert!(!dimensions.is_empty());
    let decided: Vec<&str> = dimensions
        .iter()
        .flat_map(|d| d[1]["checks"].as_array().into_iter().flatten())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(!decided.is_empty(), "{print}");
    assert!(
        decided
            .iter()
            .all(|c| c.starts_with("rfc9309/longest-match/")),
        "{decided:?}"
    );
    for file in [
        "summary.md",
        "matrix.html",
        "junit.xml",
        "badges/robots-txt.svg",
    ] {
        assert!(dir.path().join(file).is_file(), "{file} missing");
    }
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(summary.contains("documented divergence"), "{summary}");
    let out = run(
        &[
            "run",
            "--cases",
            "no-such-check-anywhere",
            "--adapter",
            "robots-txt",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    // A selection of `aipref` checks alone is a run too: the adapter, which does not answer
    // preferences, is reported as asked none of them, and nothing fails.
    let aipref = tempfile::tempdir().unwrap();
    let out = run(
        &[
            "run",
            "--cases",
            "aipref/attach/longest-match",
            "--adapter",
            "robots-txt",
            "--out",
            aipref.path().to_str().unwrap(),
            "--format",
            "text",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("robots-txt: asked none of the") && text.contains("(capability preferences)"),
        "{text}"
    );
}

/// `fingerprint --adapter-command` fingerprints that adapter alone (the Python example, which
/// claims draft-1996), not every built-in one with it. Needs `python3` (a missing one is a failure).
#[test]
fn fingerprint_takes_a_users_adapter_alone() {
    let out = run(
        &[
            "fingerprint",
            "--adapter-command",
            "py-example = python3 examples/adapters/my_adapter.py",
            "--timeout",
            GENEROUS_TIMEOUT,
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["adapter"], "py-example");
    let print = &lines[0]["fingerprint"];
    assert_eq!(print["claimed"], "draft-1996");
    // urllib reads the first match and no wildcard, as the 1996 draft does.
    let standing = |label: &str| {
        print["dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d[0] == label)
            .map(|d| d[1].clone())
            .unwrap()
    };
    assert_eq!(standing("K4 precedence")["standing"], "consistent");
    assert_eq!(standing("K4 precedence")["alternatives"][0], "base");
    assert_eq!(standing("K6 wildcards")["alternatives"][0], "base");
}

#[test]
fn an_unparseable_url_is_an_error_not_an_answer() {
    for url in ["not a url", "http://exa mple.com/x", "http://[::1"] {
        let out = run(
            &["check", "--robots", "-", "--agent", "a", "--url", url],
            b"User-agent: *\nDisallow: /\n",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {err}");
        assert!(stdout(&out).is_empty(), "{url}: answered {}", stdout(&out));
        assert!(err.contains(&format!("url `{url}`")), "{err}");
    }
    // A raw space or non-ASCII in the path is a question the corpus asks: still answered.
    let out = run(
        &[
            "check",
            "--robots",
            "-",
            "--agent",
            "a",
            "--url",
            "https://example.com/a b/é",
        ],
        b"User-agent: *\nDisallow: /\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let input = concat!(
        r#"{"robots": "User-agent: *\nDisallow: /\n", "agent": "a", "url": "http://exa mple.com/x"}"#,
        "\n",
        r#"{"robots": "User-agent: *\nDisallow: /\n", "agent": "a", "url": "http://[::1]:80/x"}"#,
        "\n",
    );
    let out = run(&["check", "--batch", "-"], input.as_bytes());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("cannot be asked about"),
        "{:?}",
        lines[0]
    );
    assert_eq!(lines[1]["oracle"]["rfc9309"], "disallowed");
}

#[test]
fn a_url_with_no_host_an_empty_host_or_a_port_out_of_range_is_refused() {
    let urls = [
        ("http://", "the host is empty"),
        ("http://example.com:99999/x", "outside 0-65535"),
        ("javascript:alert(1)", "names no host"),
    ];
    for (url, why) in urls {
        let out = run(
            &["check", "--robots", "-", "--agent", "a", "--url", url],
            b"User-agent: *\nDisallow: /\n",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {err}");
        assert!(stdout(&out).is_empty(), "{url}: answered {}", stdout(&out));
        assert!(err.contains(why) && err.contains("RFC 3986"), "{err}");
    }
    // The batch answers each such line with its error and goes on.
    let mut input = String::new();
    for (url, _) in urls {
        input.push_str(&serde_json::json!({"robots": "", "agent": "a", "url": url}).to_string());
        input.push('\n');
    }
    input.push_str(r#"{"robots": "", "agent": "a", "url": "https://example.com:443/x"}"#);
    input.push('\n');
    let out = run(&["check", "--batch", "-"], input.as_bytes());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    for ((_, why), line) in urls.iter().zip(&lines) {
        let error = line["error"].as_str().unwrap_or_default();
        assert!(error.contains(why), "{line}");
    }
    assert_eq!(lines[3]["oracle"]["rfc9309"], "allowed");
}

#[test]
fn fingerprint_with_no_available_adapter_is_an_error() {
    let out = run(
        &[
            "fingerprint",
            "--adapter-command",
            "gone = /no/such/program --x",
        ],
        b"",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no adapter could be fingerprinted: gone is unavailable"),
        "{err}"
    );
}

#[test]
fn adapter_lists_may_be_comma_separated() {
    let out = run(
        &[
            "adapters",
            "--adapter",
            "robotstxt,texting-robots",
            "--format",
            "json",
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ids: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, ["robotstxt", "texting-robots"]);
}
