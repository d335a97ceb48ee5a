//! `bench`: the oracle's checks per second on the whole corpus, per profile; with `--adapter`,
//! checks per second per adapter and for the oracle, as ratios to `google-cpp` measured in the same
//! run, on the corpus and on a typical 2 KB robots.txt; and the subprocess protocol's cost per check
//! against starting one process per check (the way Google's robotstxt-spec-test drives parsers).

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use robotstxt_adapters::inprocess::InProcess;
use robotstxt_adapters::registry::Options;
use robotstxt_adapters::{Adapter, Answer, Capabilities, Identity, Query, UrlForm};
use robotstxt_matrix::ask::{self, Selection};
use robotstxt_matrix::cases::Corpus;
use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};
use serde::Serialize;

use super::options::{AdapterArgs, CasesDir, Format};

/// The profile the oracle answers in the table: Google's, the document google-cpp implements.
const ORACLE_PROFILE: ProfileId = ProfileId::Google;

/// The adapters whose protocol is compared with a process per check, when they are measured.
const PROTOCOL_IDS: [&str; 2] = ["google-cpp", "py-urllib"];

/// The `bench` command's options.
#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    corpus: CasesDir,
    /// Seconds to measure for (at least one full pass is made).
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Also measure adapters (`--adapter all` or ids), and the oracle with them: checks per
    /// second as ratios to google-cpp in the same run, and the subprocess protocol against a
    /// process per check (not for in-process parsers under --no-isolation).
    #[command(flatten)]
    adapters: AdapterArgs,
}

/// Runs `bench`: the oracle alone, or with `--adapter` the table of adapters.
pub fn run(args: &BenchArgs) -> Result<ExitCode, String> {
    let corpus = args.corpus.load()?;
    let json = matches!(args.format, Format::Json);
    if args.adapters.adapters.is_empty() {
        oracle_alone(&corpus, args.seconds, json)
    } else {
        with_adapters(&corpus, &args.adapters, args.seconds, json)
    }
}

/// One adapter's speed.
#[derive(Debug, Serialize)]
pub struct AdapterSpeed {
    /// The adapter id.
    pub adapter: String,
    /// `in-process` or `subprocess` (a worker process or the adapter's own program).
    pub mode: &'static str,
    /// Checks per second over the whole corpus, one batch per case.
    pub corpus_checks_per_sec: f64,
    /// Checks per second on the typical 2 KB file, one check per request (parse + match each).
    pub typical_checks_per_sec: f64,
    /// google-cpp's time per check divided by this adapter's, on the corpus (same mode).
    pub corpus_vs_google: Option<f64>,
    /// The same on the typical file.
    pub typical_vs_google: Option<f64>,
}

/// The protocol against one process per check, for one adapter.
#[derive(Debug, Serialize)]
pub struct ProtocolSpeed {
    /// The adapter id.
    pub adapter: String,
    /// Microseconds per check over a persistent process, one check per request.
    pub persistent_us_per_check: f64,
    /// Microseconds per check when a process is started for each check.
    pub process_per_check_us: f64,
    /// How many times faster the persistent protocol is.
    pub speedup: f64,
}

/// A synthetic, typical robots.txt of about 2 KB: four groups, about forty rules, some wildcards.
pub fn typical_body() -> Vec<u8> {
    let mut body = String::from("# typical robots.txt\n");
    let groups: [(&str, &str); 4] = [
        ("*", "public"),
        ("Googlebot", "news"),
        ("Bingbot", "shop"),
        ("FooBot", "media"),
    ];
    for (agent, area) in groups {
        body.push_str(&format!("\nUser-agent: {agent}\n"));
        for i in 0..10 {
            match i % 4 {
                0 => body.push_str(&format!("Disallow: /{area}/private{i}/\n")),
                1 => body.push_str(&format!("Allow: /{area}/private{}/open-{i}.html\n", i - 1)),
                2 => body.push_str(&format!("Disallow: /*?session{i}=*\n")),
                _ => body.push_str(&format!("Disallow: /{area}/*.pdf$\n")),
            }
        }
    }
    body.push_str("\nSitemap: https://example.com/sitemap.xml\n");
    body.into_bytes()
}

/// The URLs asked about the typical file, and the agents asking.
pub fn typical_queries() -> Vec<Query> {
    let paths = [
        "/",
        "/public/private0/index.html",
        "/public/private0/open-1.html",
        "/news/item?session2=abc",
        "/shop/catalog/file.pdf",
        "/media/private4/a",
        "/media/private4/open-5.html",
        "/about/team",
        "/search?q=robots&session6=1",
        "/public/report.pdf?x=1",
    ];
    let agents = ["Googlebot", "FooBot", "OtherBot"];
    agents
        .iter()
        .flat_map(|a| {
            paths
                .iter()
                .map(move |p| Query::new(*a, format!("http://example.com{p}")))
        })
        .collect()
}

/// Times `work` (which returns how many checks it did) for about `budget`, at least once.
fn rate(budget: Duration, mut work: impl FnMut() -> usize) -> f64 {
    let started = Instant::now();
    let mut checks = 0;
    while checks == 0 || started.elapsed() < budget {
        checks += work();
    }
    checks as f64 / started.elapsed().as_secs_f64()
}

/// Measures one open adapter.
fn measure(adapter: &mut dyn Adapter, corpus: &Corpus, budget: Duration) -> (f64, f64) {
    let selection = Selection::new(corpus, None);
    let corpus_rate = rate(budget, || {
        ask::run_adapter(adapter, corpus, &selection, &|_| {}).len()
    });
    let body = typical_body();
    let queries = typical_queries();
    let typical_rate = rate(budget, || {
        for query in &queries {
            std::hint::black_box(adapter.answer(&body, std::slice::from_ref(query)));
        }
        queries.len()
    });
    (corpus_rate, typical_rate)
}

/// The oracle as an in-process adapter: one verdict per check under [`ORACLE_PROFILE`] (its fast,
/// verdict-only path), with google-cpp's capabilities, so that it is timed on the same checks and
/// in the same loop as the parsers.
fn oracle_adapter() -> InProcess {
    let identity = Identity {
        id: "oracle".to_string(),
        library: "robotstxt-oracle".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        language: "Rust".to_string(),
        licence: "MIT OR Apache-2.0".to_string(),
        source: "this repository".to_string(),
        profile: ORACLE_PROFILE,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: format!(
            "the oracle's {} profile, verdict only",
            ORACLE_PROFILE.name()
        ),
    };
    InProcess::new(identity, |body, agent, url| {
        let request = Request::new(body.octets(), agent, url);
        match robotstxt_oracle::verdict(ORACLE_PROFILE, &request) {
            Verdict::Disallowed => Answer::Disallowed,
            _ => Answer::Allowed,
        }
    })
}

/// Speeds of the oracle and of `ids`; in-process adapters are measured both in process and
/// through their worker.
pub fn adapter_speeds(
    corpus: &Corpus,
    ids: &[String],
    options: &Options,
    budget: Duration,
) -> (Vec<AdapterSpeed>, Vec<String>) {
    let mut skipped = Vec::new();
    // A parser's caught panic answers `crash`; printing each one would be timed with it.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    eprintln!("measuring the oracle (in-process)");
    let (corpus_rate, typical_rate) = measure(&mut oracle_adapter(), corpus, budget);
    let mut speeds = vec![AdapterSpeed {
        adapter: "oracle".to_string(),
        mode: "in-process",
        corpus_checks_per_sec: corpus_rate,
        typical_checks_per_sec: typical_rate,
        corpus_vs_google: None,
        typical_vs_google: None,
    }];
    let in_process = Options {
        worker: None,
        ..options.clone()
    };
    for id in ids {
        let in_process_id = robotstxt_adapters::registry::open_in_process(id).is_ok();
        let mut modes = vec![("subprocess", options)];
        if in_process_id {
            modes.insert(0, ("in-process", &in_process));
        }
        for (mode, opts) in modes {
            if mode == "subprocess" && opts.worker.is_none() && in_process_id {
                continue;
            }
            match robotstxt_adapters::open(id, opts) {
                Ok(mut adapter) => {
                    eprintln!("measuring {id} ({mode})");
                    let (corpus_rate, typical_rate) = measure(adapter.as_mut(), corpus, budget);
                    speeds.push(AdapterSpeed {
                        adapter: id.clone(),
                        mode,
                        corpus_checks_per_sec: corpus_rate,
                        typical_checks_per_sec: typical_rate,
                        corpus_vs_google: None,
                        typical_vs_google: None,
                    });
                }
                Err(why) => skipped.push(why.to_string()),
            }
        }
    }
    std::panic::set_hook(hook);
    // Ratios: google-cpp's time per check / this adapter's, in the same mode (>1 is faster).
    for mode in ["in-process", "subprocess"] {
        let google = speeds
            .iter()
            .find(|s| s.adapter == "google-cpp" && s.mode == mode)
            .map(|s| (s.corpus_checks_per_sec, s.typical_checks_per_sec));
        if let Some((corpus_google, typical_google)) = google {
            for s in speeds.iter_mut().filter(|s| s.mode == mode) {
                s.corpus_vs_google = Some(s.corpus_checks_per_sec / corpus_google);
                s.typical_vs_google = Some(s.typical_checks_per_sec / typical_google);
            }
        }
    }
    (speeds, skipped)
}

/// The persistent protocol against a process per check, for `id` (which must run as a process).
pub fn protocol_speed(id: &str, options: &Options, checks: usize) -> Result<ProtocolSpeed, String> {
    let body = typical_body();
    let queries = typical_queries();
    let mut persistent = robotstxt_adapters::open(id, options).map_err(|e| e.to_string())?;
    let started = Instant::now();
    for query in queries.iter().cycle().take(checks) {
        std::hint::black_box(persistent.answer(&body, std::slice::from_ref(query)));
    }
    let persistent_us = started.elapsed().as_secs_f64() * 1e6 / checks as f64;
    drop(persistent);
    let per_process_checks = checks.clamp(1, 50);
    let started = Instant::now();
    for query in queries.iter().cycle().take(per_process_checks) {
        let mut fresh = robotstxt_adapters::open(id, options).map_err(|e| e.to_string())?;
        std::hint::black_box(fresh.answer(&body, std::slice::from_ref(query)));
    }
    let fresh_us = started.elapsed().as_secs_f64() * 1e6 / per_process_checks as f64;
    Ok(ProtocolSpeed {
        adapter: id.to_string(),
        persistent_us_per_check: persistent_us,
        process_per_check_us: fresh_us,
        speedup: fresh_us / persistent_us,
    })
}

/// `bench` without `--adapter`: the oracle's checks per second on the corpus, per profile and for
/// all four.
fn oracle_alone(corpus: &Corpus, seconds: f64, json: bool) -> Result<ExitCode, String> {
    // The single-fetch pipeline is what is measured; a case with a history of fetches runs it once
    // per permitted fetch and is left out.
    let requests: Vec<Request<'_>> = corpus
        .cases
        .iter()
        .filter(|case| case.fetches.is_empty())
        .flat_map(|case| {
            case.checks
                .iter()
                .map(move |check| robotstxt_matrix::verify::request(case, check))
        })
        .collect();
    let mut per_profile = std::collections::BTreeMap::new();
    for profile in ProfileId::ALL {
        let started = Instant::now();
        let mut done = 0usize;
        let budget = seconds / ProfileId::ALL.len() as f64;
        while done == 0 || started.elapsed().as_secs_f64() < budget {
            for request in &requests {
                std::hint::black_box(evaluate(profile, request).verdict);
                done += 1;
            }
        }
        per_profile.insert(
            profile.name(),
            done as f64 / started.elapsed().as_secs_f64(),
        );
    }
    let checks = requests.len() * ProfileId::ALL.len();
    // Harmonic combination: checks per second when all four profiles are answered.
    let per_pass: f64 = ProfileId::ALL
        .iter()
        .map(|p| requests.len() as f64 / per_profile[p.name()])
        .sum();
    let overall = checks as f64 / per_pass;
    let mut out = std::io::stdout().lock();
    if json {
        let value = serde_json::json!({ "checks": checks, "checks_per_sec": overall,
            "by_profile": per_profile, "release_build": !cfg!(debug_assertions) });
        writeln!(out, "{value}").map_err(|e| e.to_string())?;
    } else {
        writeln!(out, "{checks} (profile, check) evaluations in the corpus")
            .map_err(|e| e.to_string())?;
        for (name, rate) in &per_profile {
            writeln!(out, "  {name:<14} {rate:>12.0} checks/s").map_err(|e| e.to_string())?;
        }
        writeln!(out, "  all profiles   {overall:>12.0} checks/s").map_err(|e| e.to_string())?;
        if cfg!(debug_assertions) {
            writeln!(
                out,
                "note: a debug build; run `cargo run --release -- bench` for real numbers"
            )
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `bench --adapter ...`: prints the speed table and the protocol comparison.
fn with_adapters(
    corpus: &Corpus,
    args: &AdapterArgs,
    seconds: f64,
    json: bool,
) -> Result<ExitCode, String> {
    let options = args.options()?;
    let mut ids = args.ids(&options)?;
    // The reference is always measured in the same run.
    if !ids.iter().any(|id| id == "google-cpp") {
        ids.insert(0, "google-cpp".to_string());
    }
    let budget = Duration::from_secs_f64(seconds.max(0.1));
    let (speeds, skipped) = adapter_speeds(corpus, &ids, &options, budget);
    // Under --no-isolation an in-process adapter runs in this process: there is no process to start
    // per check, so that comparison would mean nothing and is not made.
    let (in_this_process, as_processes): (Vec<&str>, Vec<&str>) = PROTOCOL_IDS
        .into_iter()
        .filter(|id| ids.iter().any(|asked| asked == id))
        .partition(|id| {
            args.no_isolation && robotstxt_adapters::registry::open_in_process(id).is_ok()
        });
    let protocol: Vec<ProtocolSpeed> = as_processes
        .iter()
        .filter_map(|id| protocol_speed(id, &options, 2000).ok())
        .collect();
    let protocol_omitted: Vec<String> = in_this_process
        .iter()
        .map(|id| {
            format!(
                "{id}: no process-per-check ratio under --no-isolation, where {id} runs in this process and no process is started for any check"
            )
        })
        .collect();
    if json {
        let value = serde_json::json!({
            "adapters": speeds, "oracle_profile": ORACLE_PROFILE.name(),
            "protocol": protocol, "protocol_omitted": protocol_omitted, "unavailable": skipped,
            "release_build": !cfg!(debug_assertions),
            "typical_body_bytes": typical_body().len(),
        });
        println!("{value}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "checks per second; ratio = google-cpp's time per check / the adapter's, same mode (>1 is faster);\n\
         oracle: its {} profile, one verdict per check, timed like the parsers",
        ORACLE_PROFILE.name()
    );
    println!(
        "{:<18} {:<10} {:>12} {:>8} {:>14} {:>8}",
        "adapter", "mode", "corpus c/s", "ratio", "2 KB file c/s", "ratio"
    );
    let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.2}x"));
    for s in &speeds {
        println!(
            "{:<18} {:<10} {:>12.0} {:>8} {:>14.0} {:>8}",
            s.adapter,
            s.mode,
            s.corpus_checks_per_sec,
            ratio(s.corpus_vs_google),
            s.typical_checks_per_sec,
            ratio(s.typical_vs_google)
        );
    }
    println!("\nthe protocol (one persistent process) against one process per check:");
    for why in &protocol_omitted {
        println!("{why}");
    }
    for p in &protocol {
        println!(
            "{:<18} {:>10.1} µs/check persistent, {:>10.1} µs/check process per check: {:.0}x faster",
            p.adapter, p.persistent_us_per_check, p.process_per_check_us, p.speedup
        );
    }
    for why in &skipped {
        println!("skipped: {why}");
    }
    if cfg!(debug_assertions) {
        println!("note: a debug build; run `cargo run --release -- bench --adapter all` for real numbers");
    }
    Ok(ExitCode::SUCCESS)
}
