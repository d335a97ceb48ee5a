//! `fuzz`: the differential fuzzer on stable Rust, seeded and reproducible.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use robotstxt_differential::campaign::{self, Options};
use robotstxt_differential::compare::{in_process_ids, Engines};
use robotstxt_differential::seeds::Seeds;

use super::options::{AdapterArgs, UserAdapterArgs};

/// How long a run without --seconds or --execs lasts.
const DEFAULT_SECONDS: u64 = 60;

/// The `fuzz` command's options.
#[derive(Args)]
pub struct FuzzArgs {
    /// How long to run (default: 60 seconds, or no time limit when --execs is given).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Stop after this many executions (with --seed and --jobs 1, an exact replay).
    #[arg(long)]
    pub execs: Option<u64>,
    /// The seed (default: from the clock; printed, so a run can be repeated).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Adapters to compare (repeatable, or a comma list): any id `run` takes (the in-process
    /// parsers, the py-*, js-*, pl-* and rb-* programs, your --adapter-command names), `all` for
    /// every one, `none` for the oracle alone. Default: your own adapters when
    /// --adapter-command or --adapters-config gives some, else the in-process parsers.
    #[arg(long = "adapter", value_name = "ID|all|none", value_delimiter = ',')]
    pub adapters: Vec<String>,
    /// Your own adapters and where the peers are.
    #[command(flatten)]
    pub user: UserAdapterArgs,
    /// Seconds an adapter process may take over one input before it is a timeout finding (the
    /// process is then restarted and the run goes on).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Ask a second, fresh process of each adapter process (other hash seeds) about one input in N,
    /// and report a different answer as `nondeterministic` (1: every input; 0: never).
    #[arg(long, value_name = "N", default_value_t = campaign::RECHECK_EVERY)]
    pub recheck_every: u64,
    /// A directory of real robots.txt files (one per site): half the inputs are these files
    /// mutated line by line (lines added, dropped, duplicated, moved; fields and values swapped).
    #[arg(long, value_name = "DIR")]
    pub seeds: Option<PathBuf>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Inputs each job generates before running them, stage by stage: parsers answer a whole batch
    /// in turn, which keeps their code in the CPU's caches. Results do not depend on it; 1 runs input
    /// by input.
    #[arg(long, default_value_t = campaign::BATCH)]
    pub batch: usize,
    /// Where buckets (case.yaml, finding.json) and summary.json are written.
    #[arg(long, default_value = "fuzz-findings")]
    pub out: PathBuf,
    /// Output format: `json` ends with one summary line.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FuzzFormat,
}

/// What `fuzz` prints at the end.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FuzzFormat {
    /// The summary, buckets and time split for a person.
    Text,
    /// One JSON line: execs, seconds, execs_per_sec, buckets, findings_dir, oracle_bugs,
    /// timeouts, not_asked, stopped, unexamined.
    Json,
}

/// Runs it. Exit status: 0 (findings are not failures), 1 on an oracle bug, 2 on bad arguments.
pub fn run(args: &FuzzArgs) -> Result<ExitCode, String> {
    // The built-in parsers are called in this process (a panic is caught); the fault adapters run
    // in a worker process of this program (an abort or a hang is a finding); the others are
    // processes of their own.
    let adapter_args = AdapterArgs {
        adapters: Vec::new(),
        user: args.user.clone(),
        timeout: args.timeout,
        no_isolation: false,
    };
    let adapter_options = adapter_args.options()?;
    let adapters: Vec<String> = if args.adapters.iter().any(|a| a == "none") {
        Vec::new()
    } else if args.adapters.is_empty() && !adapter_options.user.is_empty() {
        // A user adapter given is an adapter asked.
        adapter_options
            .user
            .iter()
            .map(|u| u.name.clone())
            .collect()
    } else if args.adapters.is_empty() {
        in_process_ids().iter().map(|s| s.to_string()).collect()
    } else {
        AdapterArgs {
            adapters: args.adapters.clone(),
            ..adapter_args
        }
        .ids(&adapter_options)?
    };
    let seeds = match &args.seeds {
        Some(dir) => Some(std::sync::Arc::new(Seeds::load(dir)?)),
        None => None,
    };
    // Unavailable adapters (Google's C++ without abseil, peers not installed) are reported and
    // left out; the processes started to find out are closed again.
    let ids: Vec<&str> = adapters.iter().map(String::as_str).collect();
    let (_, unavailable) = Engines::open(&ids, &adapter_options, false);
    for why in &unavailable {
        eprintln!("left out: {why}");
    }
    let adapters: Vec<String> = adapters
        .into_iter()
        .filter(|id| !unavailable.iter().any(|u| &u.id == id))
        .collect();
    if args.seconds.is_some_and(|s| !(s > 0.0 && s.is_finite()))
        || args.jobs == 0
        || args.batch == 0
    {
        return Err("--seconds must be positive, and --jobs and --batch at least 1".to_string());
    }
    // A count alone bounds the run by work, not by the clock: the same on a slow machine.
    let duration = match (args.seconds, args.execs) {
        (Some(seconds), _) => Some(Duration::from_secs_f64(seconds)),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs(DEFAULT_SECONDS)),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    });
    let limit = match (args.execs, duration) {
        (Some(n), None) => format!("{n} executions (no time limit)"),
        (Some(n), Some(d)) => format!(
            "{n} executions or {}s, whichever comes first",
            d.as_secs_f64()
        ),
        (None, d) => format!("{}s", d.unwrap_or_default().as_secs_f64()),
    };
    eprintln!(
        "fuzzing for {limit} with seed {seed}, {} job(s), adapters: {}{}",
        args.jobs,
        if adapters.is_empty() {
            "none (oracle alone)".to_string()
        } else {
            adapters.join(", ")
        },
        match (&seeds, &args.seeds) {
            (Some(seeds), Some(dir)) => format!(
                "; half the inputs mutated from {} seed files in {}",
                seeds.len(),
                dir.display()
            ),
            _ => String::new(),
        }
    );
    // Parsers that panic are caught and reported as findings; keep their messages off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    // Findings are written as they are found: an output directory we cannot write is an error now,
    // not a silent loss later.
    std::fs::create_dir_all(args.out.join("buckets"))
        .map_err(|e| format!("cannot create {}: {e}", args.out.join("buckets").display()))?;
    let options = Options {
        duration,
        max_execs: args.execs,
        seed,
        adapters,
        adapter_options,
        recheck_every: args.recheck_every,
        pairs: true,
        seeds,
        jobs: args.jobs,
        batch: args.batch,
        out: args.out.clone(),
    };
    // One line rewritten in place on a terminal; a line every ten seconds in a log.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let last_logged = std::sync::atomic::AtomicU64::new(0);
    let progress = |execs: u64, buckets: usize, elapsed: Duration| {
        let rate = execs as f64 / elapsed.as_secs_f64().max(1e-9);
        let line = format!(
            "{:>6.1}s  {execs} execs  {rate:.0} execs/s  {buckets} buckets",
            elapsed.as_secs_f64()
        );
        if terminal {
            eprint!("\r{line}   ");
            let _ = std::io::stderr().flush();
        } else if elapsed.as_secs() >= last_logged.load(std::sync::atomic::Ordering::Relaxed) + 10 {
            last_logged.store(elapsed.as_secs(), std::sync::atomic::Ordering::Relaxed);
            eprintln!("{line}");
        }
    };
    let summary = campaign::run(&options, &progress);
    if terminal {
        eprintln!();
    }
    for bug in &summary.oracle_bugs {
        eprintln!(
            "ORACLE BUG ({} inputs): {}\n  first input: {}",
            bug.hits,
            bug.message,
            bug.path.display()
        );
    }
    match args.format {
        FuzzFormat::Json => {
            let line = serde_json::json!({
                "execs": summary.execs, "seconds": summary.seconds,
                "execs_per_sec": summary.execs_per_sec, "buckets": summary.buckets,
                "findings_dir": summary.findings_dir,
                "adapter_execs_per_sec": summary.adapter_execs_per_sec,
                "oracle_bugs": summary.oracle_bugs.len(),
                "timeouts": summary.timeouts, "not_asked": summary.not_asked,
                "stopped": summary.stopped, "unexamined": summary.unexamined,
            });
            println!("{line}");
        }
        FuzzFormat::Text => {
            println!(
                "{} execs in {:.1}s ({:.0} execs/s, seed {seed}, {} job(s)); {} buckets in {}",
                summary.execs,
                summary.seconds,
                summary.execs_per_sec,
                summary.jobs,
                summary.buckets,
                summary.findings_dir
            );
            let total: u64 = summary.time.generate
                + summary.time.oracle
                + summary.time.findings
                + summary.time.adapters.values().sum::<u64>()
                + summary.time.second_processes.values().sum::<u64>();
            let share = |ns: u64| 100.0 * ns as f64 / total.max(1) as f64;
            println!(
                "time: generate {:.0}%, oracle (claimed profiles + invariants) {:.0}%, findings {:.0}% (minimising new buckets {:.0}%)",
                share(summary.time.generate),
                share(summary.time.oracle),
                share(summary.time.findings),
                share(summary.time.minimise)
            );
            // An adapter's own rate: the executions over the time it took to answer them (for an
            // adapter process, writing the batch and reading the answers).
            for (id, ns) in &summary.time.adapters {
                let rate = summary
                    .adapter_execs_per_sec
                    .get(id)
                    .copied()
                    .unwrap_or(0.0);
                println!("  {id:<18} {:>3.0}%  {rate:>10.0} execs/s", share(*ns));
            }
            let second: u64 = summary.time.second_processes.values().sum();
            if !summary.time.second_processes.is_empty() {
                println!(
                    "second processes (nondeterminism check, 1 input in {}): {} inputs each, {:.0}% of the time",
                    args.recheck_every,
                    summary.time.second_inputs,
                    share(second)
                );
            }
            let parsers = summary.time.parsers();
            if parsers > 0 {
                println!(
                    "own side (generate + oracle + findings, less the parsers' answers while minimising: {:.0}%) / parsers: {:.2}x",
                    share(summary.time.minimise_answers),
                    summary.time.own_side() as f64 / parsers as f64
                );
            }
            // What the figures rest on: answers that were not readings of the file.
            for (id, n) in &summary.timeouts {
                println!("{id}: {n} input(s) timed out (each a finding, in a timeout bucket)");
            }
            for (id, n) in &summary.not_asked {
                println!(
                    "{id}: {n} input(s) not asked{}",
                    summary
                        .stopped
                        .get(id)
                        .map_or(" (the deadline passed)".to_string(), |why| format!(
                            ": {why}"
                        ))
                );
            }
            if summary.unexamined > 0 {
                println!(
                    "{} input(s) generated but not examined: the deadline passed before any \
                     adapter answered them (not counted as executions)",
                    summary.unexamined
                );
            }
            println!(
                "hits: {}, unexplained: {} ({:.1}%)",
                summary.hits,
                summary.unexplained_hits,
                100.0 * summary.unexplained_hits as f64 / summary.hits.max(1) as f64
            );
            for (adapter, n) in &summary.buckets_per_adapter {
                println!("buckets for {adapter}: {n}");
            }
            // Unexplained buckets come first: they are the work to do.
            for bucket in &summary.bucket_list {
                println!(
                    "  [{} hits] {}  (first: {} says {} where {} says {}; {})",
                    bucket.hits,
                    bucket.signature,
                    bucket.signature.adapter,
                    bucket.first.got,
                    bucket.first.profile,
                    bucket.first.expected,
                    bucket.dir
                );
            }
        }
    }
    Ok(if summary.oracle_bugs.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
