//! `realworld` and `merge` as a user runs them, on a directory of real-looking files made from the
//! corpus's bodies (every case's body, one file each) plus a few hostile ones: the summary line,
//! shards merged in any order equal to the single run (bucket counts and examples included), clear
//! errors, and the HTML page checked in headless Chromium with every body escaped.
//!
//! The runs over many files (shards, scheduling) take one case body in [`SAMPLE`] and two shards
//! instead of three unless `ROBOTSTXT_FULL_TESTS=1` (docs/commands.md, "Quick and full"); the
//! hostile files always. They and the page's test share one run over those files ([`shared`]):
//! most of a run's time is fixed (the cause search's sample questions, worked out and asked of
//! every parser once a run has a bucket), so these tests count runs more than files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::python_adapter;

use robotstxt_matrix::cases::Corpus;
use robotstxt_realworld::bench::IN_PROCESS as ADAPTERS;
use robotstxt_realworld::tally::Results;

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

/// A body that would run a script if a report rendered it unescaped.
const HOSTILE: &str = "<html><head><script>document.title='INJECTED'</script></head><body>\
                       <img src=x onerror=\"document.title='INJECTED'\">\nUser-agent: *\nDisallow: /<b>bold</b>\n";

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (docs/commands.md, "Quick and full").
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// How many shards the files are split into: three at full size, two in a quick run (each
/// shard is a run of its own, and a run's time is mostly fixed).
fn shards() -> usize {
    if full() {
        3
    } else {
        2
    }
}

/// One case body in how many a quick run writes (nine of the corpus's bodies, with the hostile and
/// AI-usage files seventeen files: enough for three processes to take a piece each).
const SAMPLE: usize = 48;

/// A file whose user-agent line and rule hold markup: the page must show them escaped.
const STAR: &str =
    "User-agent: <script>alert(1)</script>\nDisallow: /*<i>$\n\nUser-agent: *\nDisallow: /p\n";

/// Writes one file per corpus case body (one in [`SAMPLE`] of them in a quick run), plus hostile
/// ones, into `dir`; returns how many files.
fn corpus_dir(dir: &Path) -> usize {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases");
    let corpus = Corpus::load(&root).expect("the corpus loads");
    let mut n = 0;
    for (i, case) in corpus.cases.iter().enumerate() {
        if case.fetches.is_empty() && (full() || i % SAMPLE == 0) {
            let name = case.id.replace('/', "_");
            std::fs::write(dir.join(name), &case.body).unwrap();
            n += 1;
        }
    }
    std::fs::write(dir.join("hostile.example"), HOSTILE).unwrap();
    std::fs::write(dir.join("star.example"), STAR).unwrap();
    std::fs::write(
        dir.join("bom.example"),
        b"\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /x\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("latin1.example"),
        b"User-agent: *\r\nDisallow: /caf\xE9\r\n",
    )
    .unwrap();
    for (name, body) in AI_USAGE_FILES {
        std::fs::write(dir.join(name), body).unwrap();
    }
    n + 4 + AI_USAGE_FILES.len()
}

/// Files with AI-usage lines as sites write them (and one with a line without a colon), so that
/// every run over [`corpus_dir`] has some whatever the sample of case bodies.
const AI_USAGE_FILES: [(&str, &str); 4] = [
    (
        "ai-signal.example",
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n",
    ),
    (
        "ai-usage-before.example",
        "Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /p\n",
    ),
    (
        "ai-usage-crlf.example",
        "User-agent: FooBot\r\ncontent-usage : /private/ train-ai=y # why\r\nAllow: /private/open\r\n\
         Disallow: /private/\r\nContent-Usage train-ai=n\r\n\r\nUser-agent: *\r\nDisallow: /\r\n",
    ),
    (
        "no-ai-usage.example",
        "User-agent: *\nDisallow: /x\n",
    ),
];

fn realworld(args: &[&str]) -> Output {
    let mut command = Command::new(EXE);
    command.arg("realworld").args(args);
    for id in ADAPTERS {
        command.arg("--adapter").arg(id);
    }
    command.output().unwrap()
}

fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn results(path: &Path) -> Results {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The files of [`corpus_dir`] and one run over them with the default (adaptive) scheduling and
/// every file asked twice (`--determinism all`): the run the shards are merged into, the one the
/// other schedulings must equal, and the page checked in the browser.
struct Shared {
    /// Holds the files and the run's output (for as long as the process runs).
    _dir: tempfile::TempDir,
    /// The files.
    files: PathBuf,
    /// How many files.
    n: usize,
    /// The run's summary line.
    summary: serde_json::Value,
    /// Where the run wrote `realworld.json`, `realworld.md` and `realworld.html`.
    out: PathBuf,
}

/// Starts making [`shared`] in a thread of its own, for a test that mostly waits out timeouts (the
/// two hang tests, which start first: tests start in name order): the cores make the run
/// meanwhile, where they would otherwise idle until a test that reads it.
fn start_shared() {
    std::thread::spawn(|| {
        shared();
    });
}

/// `realworld` over the files in `files` with every file asked twice (`--determinism all`) and
/// `extra`, writing into `out`; its standard output (the summary line last).
fn asked_twice(files: &Path, out: &Path, extra: &[&str]) -> String {
    let (files, out) = (files.to_str().unwrap(), out.to_str().unwrap());
    let mut args = vec![
        "--corpus",
        files,
        "--determinism",
        "all",
        "--format",
        "json",
        "--out",
        out,
    ];
    args.extend(extra);
    ok(realworld(&args))
}

/// The files and the run over them, made once for the tests of this file that read them.
fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let files = dir.path().join("files");
        std::fs::create_dir(&files).unwrap();
        let n = corpus_dir(&files);
        let out = dir.path().join("single");
        let printed = asked_twice(&files, &out, &[]);
        let summary = serde_json::from_str(printed.lines().last().unwrap()).unwrap();
        Shared {
            _dir: dir,
            files,
            n,
            summary,
            out,
        }
    })
}

#[test]
fn shards_merged_in_any_order_equal_the_single_run() {
    let Shared {
        files,
        n,
        summary,
        out: single,
        ..
    } = shared();
    let (files, n) = (files.as_path(), *n);
    let tmp = tempfile::tempdir().unwrap();
    let corpus = files.to_str().unwrap();
    assert_eq!(summary["files"], n as u64, "{summary}");
    for key in [
        "files",
        "checks",
        "seconds",
        "adapters",
        "disagreement",
        "disagreement_all_kinds",
        "disagreement_by_kind",
    ] {
        assert!(
            summary.get(key).is_some(),
            "summary line lacks {key}: {summary}"
        );
    }
    let whole = results(&single.join("realworld.json"));
    // The headline figure is the one over URLs as written; every kind adds up to the whole.
    let rounded = |share: f64| (share * 10000.0).round() / 10000.0;
    assert_eq!(
        summary["disagreement"].as_f64().unwrap(),
        rounded(whole.disagreement_as_written())
    );
    assert_eq!(
        summary["disagreement_all_kinds"].as_f64().unwrap(),
        rounded(whole.disagreement())
    );
    assert_eq!(
        summary["disagreement_by_kind"]["as-written"]
            .as_f64()
            .unwrap(),
        rounded(whole.disagreement_as_written())
    );
    assert_eq!(whole.checks_by_kind.values().sum::<u64>(), whole.checks);
    assert!(whole.checks_by_kind["as-written"] > 0 && whole.checks_by_kind["query-added"] > 0);
    for (id, tally) in &whole.adapters {
        for (profile, against) in &tally.against {
            let kinds = &tally.against_by_kind[profile];
            let checks: u64 = kinds.values().map(|c| c.checks).sum();
            let disagree: u64 = kinds.values().map(|c| c.disagree).sum();
            assert_eq!(
                (checks, disagree),
                (against.checks, against.disagree),
                "{id} {profile}"
            );
        }
    }
    for (key, bucket) in &whole.buckets {
        let checks: u64 = bucket.by_kind.values().map(|c| c.checks).sum();
        assert_eq!(checks, bucket.checks, "{key}");
        assert!(bucket
            .by_kind
            .values()
            .all(|c| c.files <= bucket.files.count && c.files > 0));
    }
    let text = std::fs::read_to_string(single.join("realworld.md")).unwrap();
    assert!(text.contains("on URLs as written in the files"), "{text}");
    assert!(text.contains("## Disagreement by kind of URL"));
    let html = std::fs::read_to_string(single.join("realworld.html")).unwrap();
    assert!(html.contains("on URLs as written in the files"));
    assert!(html.contains("id=\"kinds\""));
    assert_eq!(whole.adapters.len(), ADAPTERS.len());
    assert!(
        !whole.buckets.is_empty(),
        "the corpus's edge cases must make parsers diverge"
    );
    assert!(
        whole
            .buckets
            .values()
            .any(|b| b.example.minimised && !b.example.case_yaml.is_empty()),
        "examples are minimised into cases"
    );
    // The files with AI-usage lines are counted, and every parser was asked about them twice.
    assert_eq!(whole.ai_usage.files.count, 3 + corpus_ai_usage_files(files));
    assert!(whole.ai_usage.content_usage >= 2 && whole.ai_usage.content_signal >= 1);
    for (id, tally) in &whole.adapters {
        assert_eq!(
            tally.ai_usage_removed.files, whole.ai_usage.files.count,
            "{id}"
        );
    }
    assert!(text.contains("## AI-usage lines"), "{text}");
    assert!(html.contains("id=\"ai-usage\""));
    for name in ["realworld.json", "realworld.md", "realworld.html"] {
        assert!(single.join(name).metadata().unwrap().len() > 0, "{name}");
    }

    let shards = shards();
    let mut partials = Vec::new();
    for k in 0..shards {
        let path = tmp.path().join(format!("part{k}.json"));
        ok(realworld(&[
            "--corpus",
            corpus,
            "--shard",
            &format!("{k}/{shards}"),
            "--determinism",
            "all",
            "--partial",
            path.to_str().unwrap(),
            "--format",
            "text",
        ]));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().count(),
            1,
            "one JSON line"
        );
        partials.push(path);
    }
    let shard_files: u64 = partials.iter().map(|p| results(p).files).sum();
    assert_eq!(shard_files, n as u64, "the shards split the files");
    assert!(
        partials.iter().all(|p| results(p).files > 0),
        "every shard takes some files"
    );

    // In order, and with the last shard first.
    let in_order: Vec<usize> = (0..shards).collect();
    let last_first: Vec<usize> = std::iter::once(shards - 1).chain(0..shards - 1).collect();
    for order in [in_order, last_first] {
        let merged = tmp.path().join(format!("merged{}", order[0]));
        let mut command = Command::new(EXE);
        command.arg("merge");
        for i in order {
            command.arg(&partials[i]);
        }
        ok(command.arg("--out").arg(&merged).output().unwrap());
        let merged = results(&merged.join("realworld.json"));
        assert_eq!(merged.without_timing(), whole.without_timing());
    }
}

/// How many of the case bodies written into `dir` carry AI-usage lines.
fn corpus_ai_usage_files(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            !AI_USAGE_FILES.iter().any(|(n, _)| *n == name)
                && robotstxt_matrix::aiusage::find(&std::fs::read(e.path()).unwrap()).count() > 0
        })
        .count() as u64
}

/// Both cores busy: with every adapter in three processes and the oracle in three threads, each
/// taking pieces of every chunk of files from a queue of its own (and the determinism sample on
/// every file, so second processes answer beside them), the results are exactly those of the
/// default (adaptive) scheduling ([`shared`]), and at full size of one process each too. A quick
/// run's files fit in one chunk (the adaptive scheduling adds a process only after one), so its
/// adaptive run already has one process of each adapter.
#[test]
fn the_scheduling_does_not_change_the_results() {
    let shared = shared();
    let n = shared.n;
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = tmp.path().join(name);
        asked_twice(&shared.files, &out, extra);
        results(&out.join("realworld.json"))
    };
    let adaptive = results(&shared.out.join("realworld.json"));
    assert!(
        adaptive.files == n as u64 && !adaptive.buckets.is_empty(),
        "{} of {n}",
        adaptive.files
    );
    let three = run("three", &["--processes", "3"]);
    assert_eq!(three.without_timing(), adaptive.without_timing());
    if full() {
        let one = run("one", &["--processes", "1"]);
        assert_eq!(one.without_timing(), adaptive.without_timing());
    }
}

/// The page of the shared run ([`shared`]), whose files include [`HOSTILE`] and [`STAR`]: every
/// body shown escaped, and nothing of them runs in the browser.
#[test]
fn the_html_page_escapes_every_body_and_renders_in_a_browser() {
    let out = &shared().out;
    let tmp = tempfile::tempdir().unwrap();
    let page = std::fs::read_to_string(out.join("realworld.html")).unwrap();
    assert!(
        !page.contains("<script"),
        "a body's script reached the page unescaped"
    );
    assert!(
        !page.contains("<img"),
        "a body's tag reached the page unescaped"
    );
    assert!(
        page.contains("&lt;script&gt;"),
        "the body's text is shown, escaped"
    );

    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect(
            "a headless browser (Debian: apt-get install chromium) is needed to check the page",
        );
    let profile = tmp.path().join("browser-profile");
    let dom = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", out.join("realworld.html").display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("<title>Real-world divergence report</title>"),
        "no page rendered: {dom}"
    );
    assert!(
        !dom.contains("INJECTED"),
        "a body's script ran in the browser"
    );
    assert!(
        dom.contains("id=\"chart-adapters\""),
        "the chart of disagreement per parser"
    );
    assert!(
        dom.contains("id=\"chart-causes\""),
        "the chart of files per cause"
    );
}

#[test]
fn bad_arguments_get_clear_errors() {
    let missing = realworld(&["--corpus", "/no/such/dir"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/dir"));
    let shard = realworld(&["--corpus", ".", "--shard", "3/3"]);
    assert!(String::from_utf8_lossy(&shard.stderr).contains("3/3"));
    let tmp = tempfile::tempdir().unwrap();
    // An empty directory reads no file: an error, never an empty report.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = realworld(&[
        "--corpus",
        empty.to_str().unwrap(),
        "--adapter",
        "robotstxt",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no robots.txt file read"), "{err}");
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"robotstxt-realworld/1\", \"files\": ").unwrap();
    let merge = Command::new(EXE).arg("merge").arg(&bad).output().unwrap();
    assert!(!merge.status.success());
    assert!(String::from_utf8_lossy(&merge.stderr).contains("bad.json"));
}

/// An adapter whose answers change with a fresh process's hash seed is listed as nondeterministic
/// with its files; the same program deciding by length is not; a crashing adapter's failures are
/// listed with the files and the run goes on; and two runs give the same results (the first
/// processes' hash seeds are fixed).
#[test]
fn nondeterminism_and_crashes_are_reported_and_runs_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    for i in 0..12 {
        let body = format!("User-agent: *\nDisallow: /p{i}\nAllow: /p{i}/open$\n\nUser-agent: FaultBot\nDisallow: /\n");
        std::fs::write(files.join(format!("site{i:02}.example")), body).unwrap();
    }
    let hashy = python_adapter(tmp.path(), "hashy", true);
    let steady = python_adapter(tmp.path(), "steady", false);
    let run = |out: &Path| {
        let output = Command::new(EXE)
            .args(["realworld", "--determinism", "all", "--corpus"])
            .arg(&files)
            .args(["--adapter-command", &hashy, "--adapter-command", &steady])
            .args([
                "--adapter",
                "hashy",
                "--adapter",
                "steady",
                "--adapter",
                "fault-abort",
            ])
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        ok(output);
        results(&out.join("realworld.json"))
    };
    let first = run(&tmp.path().join("a"));
    assert_eq!(first.determinism_files, 12);
    assert_eq!(
        first.adapters["hashy"].nondeterministic.count, 12,
        "{:#?}",
        first.adapters["hashy"]
    );
    assert_eq!(first.adapters["steady"].nondeterministic.count, 0);
    let panics = &first.adapters["fault-abort"];
    let crashed: u64 = panics
        .failures
        .iter()
        .filter(|(k, _)| k.starts_with("crash"))
        .map(|(_, f)| f.count)
        .sum();
    assert_eq!(
        crashed, 12,
        "every file asks FaultBot: {:#?}",
        panics.failures
    );
    assert!(
        panics.answers.contains_key("allowed"),
        "the other checks are still answered"
    );
    let second = run(&tmp.path().join("b"));
    assert_eq!(
        first.without_timing(),
        second.without_timing(),
        "a run replays"
    );
    let page = std::fs::read_to_string(tmp.path().join("a").join("realworld.md")).unwrap();
    assert!(
        page.contains("`hashy` nondeterministic: 12 file(s)"),
        "{page}"
    );
}

/// A file that hangs an adapter is that file's failure: the process is restarted, answers a
/// trivial probe, and every later file gets definite answers (before, three timeouts in a row
/// declared the adapter hung and every later file went unasked). The report says what each
/// adapter's figures rest on.
#[test]
fn a_file_that_hangs_an_adapter_fails_alone_and_every_later_file_is_answered() {
    start_shared();
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    std::fs::write(
        files.join("a-first.example"),
        "User-agent: *\nCrawl-delay: 5\nDisallow: /private\nDisallow: /tmp\n",
    )
    .unwrap();
    for i in 0..8 {
        let body = format!("User-agent: *\nDisallow: /p{i}\nAllow: /p{i}/open\n");
        std::fs::write(files.join(format!("site{i:02}.example")), body).unwrap();
    }
    let id = "fault-hang-crawl-delay";
    let out = tmp.path().join("out");
    let output = Command::new(EXE)
        .args(["realworld", "--determinism", "off", "--processes", "1"])
        .args(["--timeout", "4", "--adapter", id, "--corpus"])
        .arg(&files)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let text = ok(output);
    let results = results(&out.join("realworld.json"));
    let tally = &results.adapters[id];
    assert_eq!(tally.files, 9);
    // Every later file answered with verdicts, every check of it.
    assert_eq!(tally.answered.files, 8, "{tally:#?}");
    assert_eq!(
        tally.answered.checks,
        tally.checks - tally.answers["timeout"],
        "{tally:#?}"
    );
    assert_eq!(
        tally.failed_files.first,
        ["files/a-first.example"],
        "{tally:#?}"
    );
    assert!(tally.not_asked.is_empty(), "{tally:#?}");
    assert!(!tally.answers.contains_key("not-asked"), "{tally:#?}");
    // One file of nine failed: its rates rest on eight, and every rendering says so.
    assert!(text.contains("UNDER 99% ANSWERED: answered"), "{text}");
    let markdown = std::fs::read_to_string(out.join("realworld.md")).unwrap();
    assert!(markdown.contains("⚠ under 99% answered"), "{markdown}");
    let html = std::fs::read_to_string(out.join("realworld.html")).unwrap();
    assert!(html.contains("id=\"answered\""), "{html}");
}

/// An adapter whose first process hangs (its hash seed is 1) and whose second answers: the first
/// is declared hung after a timeout and a failed probe, the report says from which file on no
/// file was asked, and the determinism check, which compares only files both asks answered, finds
/// nothing (before, every file was "nondeterministic": the second ask answered where the first
/// was not asked).
#[test]
fn a_hung_adapter_is_reported_from_its_first_file_not_asked_and_is_not_nondeterministic() {
    start_shared();
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    for i in 0..6 {
        let body = format!("User-agent: *\nDisallow: /p{i}\n");
        std::fs::write(files.join(format!("site{i:02}.example")), body).unwrap();
    }
    let program = tmp.path().join("first-hangs.py");
    std::fs::write(
        &program,
        r#"import json, os, sys, time
print(json.dumps({"protocol": "robotstxt-adapter/1", "id": "x", "library": "x", "version": "1",
    "language": "Python", "licence": "MIT", "source": "a test", "profile": "rfc9309",
    "url": "full"}), flush=True)
for line in sys.stdin:
    if os.environ.get("PYTHONHASHSEED") == "1":
        time.sleep(3600)
    for index, _ in enumerate(json.loads(line)["checks"]):
        print(json.dumps({"check": index, "answer": "allowed"}), flush=True)
"#,
    )
    .unwrap();
    let out = tmp.path().join("out");
    let output = Command::new(EXE)
        .args(["realworld", "--determinism", "all", "--processes", "1"])
        .args(["--timeout", "3", "--adapter-command"])
        .arg(format!("x = python3 '{}'", program.display()))
        .arg("--corpus")
        .arg(&files)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let text = ok(output);
    let results = results(&out.join("realworld.json"));
    let tally = &results.adapters["x"];
    assert_eq!(tally.nondeterministic.count, 0, "{tally:#?}");
    assert_eq!(tally.answered.files, 0, "{tally:#?}");
    let hung = &tally.not_asked["the adapter was declared hung"];
    // The first file's first check timed out (a failure); its other checks and every later file
    // were not asked.
    assert_eq!(hung.count, 6, "{tally:#?}");
    assert_eq!(hung.first[0], "files/site00.example", "{tally:#?}");
    assert_eq!(
        tally.failed_files.first,
        ["files/site00.example"],
        "{tally:#?}"
    );
    assert!(
        text.contains(
            "6 file(s) not asked from files/site00.example on (the adapter was declared hung)"
        ),
        "{text}"
    );
}

/// A toy parser in Python (longest match, `*` group as fallback) that ends its group at an
/// unknown line when `ends_group`, as issue 38 fears some parsers do, and otherwise skips unknown
/// lines as `rfc9309#2.2.4` says; with `crash_without`, it exits on one body: `ai-signal.example`
/// with its AI-usage line removed.
fn toy_parser(dir: &Path, name: &str, ends_group: bool, crash_without: bool) -> String {
    let program = format!(
        r##"import json, sys, urllib.parse
ENDS = {ends}
CRASH = {crash}
print(json.dumps({{"protocol": "robotstxt-adapter/1", "id": "{name}", "library": "{name}",
    "version": "1", "language": "Python", "licence": "MIT", "source": "a test",
    "profile": "rfc9309", "url": "full"}}), flush=True)
def groups_of(body):
    groups, current, in_rules = [], None, False
    for raw in body.splitlines():
        line = raw.split("#")[0].strip()
        if not line or ":" not in line:
            continue
        key, value = line.split(":", 1)
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if current is None or in_rules:
                current, in_rules = {{"agents": [], "rules": []}}, False
                groups.append(current)
            current["agents"].append(value.lower())
        elif key in ("allow", "disallow"):
            if current is not None:
                current["rules"].append((key == "allow", value))
                in_rules = True
        elif ENDS:
            current = None
    return groups
def allowed(groups, agent, url):
    parts = urllib.parse.urlsplit(url)
    path = (parts.path or "/") + ("?" + parts.query if parts.query else "")
    token = agent.lower()
    chosen = [g for g in groups if token in g["agents"]] or [g for g in groups if "*" in g["agents"]]
    best = None
    for group in chosen:
        for allow, value in group["rules"]:
            if value and path.startswith(value):
                if best is None or len(value) > len(best[1]) or (len(value) == len(best[1]) and allow):
                    best = (allow, value)
    return best is None or best[0]
for line in sys.stdin:
    request = json.loads(line)
    body = request.get("body", "")
    if CRASH and body == "User-agent: *\nDisallow: /private/\n":
        sys.exit(3)
    groups = groups_of(body)
    for index, check in enumerate(request["checks"]):
        answer = "allowed" if allowed(groups, check["agent"], check["url"]) else "disallowed"
        print(json.dumps({{"check": index, "answer": answer}}), flush=True)
"##,
        ends = if ends_group { "True" } else { "False" },
        crash = if crash_without { "True" } else { "False" },
    );
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, program).unwrap();
    format!("{name} = python3 '{}'", path.display())
}

/// Issue 38's question 1 on real files: a parser that ends its group at an unknown line changes
/// verdicts when the AI-usage lines are removed (with the file and URL as examples), one that
/// skips them changes none, and one that crashes on the body without them is reported as not
/// compared, never as unchanged; the oracle changes no verdict; every rendering says so.
#[test]
fn removing_the_ai_usage_lines_changes_verdicts_only_where_a_parser_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir(&files).unwrap();
    for (name, body) in AI_USAGE_FILES {
        std::fs::write(files.join(name), body).unwrap();
    }
    let ends = toy_parser(tmp.path(), "ends-group", true, false);
    let skips = toy_parser(tmp.path(), "skips", false, false);
    let crashes = toy_parser(tmp.path(), "crashes", false, true);
    let out = tmp.path().join("out");
    let text = ok(Command::new(EXE)
        .args(["realworld", "--determinism", "off", "--processes", "1"])
        .args(["--adapter-command", &ends, "--adapter-command", &skips])
        .args(["--adapter-command", &crashes])
        .args(["--adapter", "ends-group", "--adapter", "skips"])
        .args(["--adapter", "crashes", "--corpus"])
        .arg(&files)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    let results = results(&out.join("realworld.json"));
    let ai = &results.ai_usage;
    assert_eq!(ai.files.count, 3, "{ai:#?}");
    assert_eq!((ai.content_usage, ai.content_signal), (2, 1), "{ai:#?}");
    assert_eq!(
        (ai.without_colon, ai.files_without_colon),
        (1, 1),
        "{ai:#?}"
    );
    for (profile, compared) in &ai.oracle {
        assert!(compared.checks > 0, "{profile}");
        assert_eq!(compared.disagree, 0, "the oracle under {profile}");
    }
    let ends = &results.adapters["ends-group"].ai_usage_removed;
    let skips = &results.adapters["skips"].ai_usage_removed;
    let crashes = &results.adapters["crashes"].ai_usage_removed;
    assert_eq!(ends.files, 3);
    assert!(ends.compared.disagree > 0, "{ends:#?}");
    assert_eq!(
        ends.changed.first,
        ["files/ai-signal.example", "files/ai-usage-crlf.example"],
        "{ends:#?}"
    );
    let example = &ends.examples[0];
    assert_eq!(example.file, "files/ai-signal.example");
    assert!(example.url.contains("/private/"), "{example:#?}");
    assert_eq!(
        (example.with_lines.as_str(), example.without_lines.as_str()),
        ("allowed", "disallowed")
    );
    assert_eq!(example.lines, ["Content-Signal: search=yes, ai-train=no"]);
    assert!(ends.not_compared.is_empty(), "{ends:#?}");
    assert_eq!(skips.compared.disagree, 0, "{skips:#?}");
    assert_eq!(skips.compared.checks, skips.checks, "{skips:#?}");
    assert_eq!(skips.compared.checks, ends.compared.checks);
    // Crashing on one file without its lines is no answer, so those checks are not compared.
    assert!(
        crashes.not_compared["crash without the lines"] > 0,
        "{crashes:#?}"
    );
    assert_eq!(
        crashes.compared.checks + crashes.not_compared_checks(),
        crashes.checks,
        "{crashes:#?}"
    );
    assert_eq!(crashes.compared.disagree, 0, "{crashes:#?}");
    let line = format!(
        "removing the AI-usage lines changes {} of {} verdicts, on 2 of 3 files",
        ends.compared.disagree, ends.compared.checks
    );
    assert!(text.contains(&line), "{line}\n{text}");
    assert!(text.contains("not compared, no verdict obtained (crash without the lines"));
    let markdown = std::fs::read_to_string(out.join("realworld.md")).unwrap();
    assert!(markdown.contains(&line), "{markdown}");
    assert!(
        markdown.contains("files/ai-signal.example check"),
        "{markdown}"
    );
    let html = std::fs::read_to_string(out.join("realworld.html")).unwrap();
    assert!(html.contains(&line) && html.contains("id=\"ai-usage\""));
}
