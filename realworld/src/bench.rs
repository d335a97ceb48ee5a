//! `realworld --bench`: what a real-world run costs, as ratios measured in the same run.
//!
//! The run behind it asks the oracle and the adapters one after another (no threads), so each
//! one's time is its own on one core. Then today's path is run on the same files: every derived
//! check as one `check --batch` line, with the six in-process parsers, in a child process of this
//! program (each line parses the body again, once per profile and per adapter).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use base64::Engine as _;
use robotstxt_adapters::subprocess::process_cpu_time;
use robotstxt_oracle::Fetch;

use crate::corpus::each_file;
use crate::derive::derive;
use crate::report::thousands;
use crate::run::{Plan, Timing};
use crate::tally::Results;

/// The in-process parsers (Rust crates and Google's C++ library).
pub const IN_PROCESS: [&str; 6] = [
    "google-cpp",
    "robotstxt",
    "texting-robots",
    "robotxt",
    "robots-txt",
    "sim-codec-robots",
];

/// What the benchmark measured.
pub struct Measured {
    /// The run's results' totals.
    files: u64,
    checks: u64,
    /// The run's time split.
    timing: Timing,
    /// The peak resident memory of this process, in KiB (Linux).
    peak_kib: Option<u64>,
    /// Today's path on the same files: its wall time and how many checks it was given.
    today: Option<(Duration, u64)>,
    /// Why today's path was not measured.
    today_missing: Option<String>,
}

/// Measures `plan`'s run (already done: `results`, `timing`) and today's path on the same files.
pub fn measure(plan: &Plan, results: &Results, timing: &Timing) -> Result<Measured, String> {
    let six: Vec<&str> = IN_PROCESS
        .iter()
        .copied()
        .filter(|id| timing.adapters.contains_key(*id))
        .collect();
    // Before today's path, which this process prepares (its batch file) and waits for.
    let peak = peak_kib();
    let (today, today_missing) = match today_path(plan, &six) {
        Ok(measured) => (Some(measured), None),
        Err(why) => (None, Some(why)),
    };
    Ok(Measured {
        files: results.files,
        checks: results.checks,
        timing: timing.clone(),
        peak_kib: peak,
        today,
        today_missing,
    })
}

impl Measured {
    /// The benchmark's report.
    pub fn text(&self) -> String {
        let t = &self.timing;
        let mut out = String::new();
        let secs = |d: Duration| d.as_secs_f64().max(1e-9);
        let google = t.adapters.get("google-cpp").copied();
        let ratio = |d: Duration| match google {
            Some(g) => format!("{:.2}x", secs(d) / secs(g)),
            None => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "realworld --bench: {} files, {} checks, wall {:.1} s (one thread: oracle and adapters one after another)",
            thousands(self.files),
            thousands(self.checks),
            secs(t.wall)
        );
        let _ = writeln!(
            out,
            "{:<20} {:>9} {:>10} {:>12} {:>12}",
            "", "seconds", "files/s", "checks/s", "vs google-cpp"
        );
        let mut line = |name: &str, d: Duration| {
            let _ = writeln!(
                out,
                "{name:<20} {:>9.2} {:>10.0} {:>12.0} {:>12}",
                secs(d),
                self.files as f64 / secs(d),
                self.checks as f64 / secs(d),
                ratio(d)
            );
        };
        line("oracle (4 profiles)", t.oracle);
        for (id, d) in &t.adapters {
            line(id, *d);
        }
        let six: Duration = t
            .adapters
            .iter()
            .filter(|(id, _)| IN_PROCESS.contains(&id.as_str()))
            .map(|(_, d)| *d)
            .sum();
        let all: Duration = t.adapters.values().copied().sum();
        let _ = writeln!(
            out,
            "\nreading and deriving {:.2} s, tally and causes {:.2} s, minimising examples {:.2} s",
            secs(t.reading),
            secs(t.tally),
            secs(t.minimising)
        );
        let parts = [
            ("the oracle", t.oracle),
            ("the adapters", all),
            ("tally and causes", t.tally),
            ("minimising", t.minimising),
            ("reading", t.reading),
        ];
        let dominant = parts.iter().max_by_key(|(_, d)| *d).expect("parts");
        let _ = writeln!(
            out,
            "dominated by {} ({:.0}% of the wall time)",
            dominant.0,
            100.0 * secs(dominant.1) / secs(t.wall)
        );
        if let Some(g) = google {
            let _ = writeln!(
                out,
                "oracle / google-cpp: {:.2}x (goal: at most 1.0x)",
                secs(t.oracle) / secs(g)
            );
        }
        let _ = writeln!(
            out,
            "all {} adapters / the six in-process: {:.2}x (goal: at most 4x)",
            t.adapters.len(),
            secs(all) / secs(six)
        );
        let own = t.reading + t.oracle + t.tally;
        let _ = writeln!(
            out,
            "our side (reading and deriving {:.2} s, oracle {:.2} s, causes and tallies {:.2} s) / all {} parsers' time ({:.2} s): {:.2}x",
            secs(t.reading),
            secs(t.oracle),
            secs(t.tally),
            t.adapters.len(),
            secs(all),
            secs(own) / secs(all)
        );
        match (&self.today, &self.today_missing) {
            (Some((today, checks)), _) => {
                let ours = t.oracle + six;
                let _ = writeln!(
                    out,
                    "today's path (check --batch, {} checks, the six in-process parsers): {:.2} s; oracle + the six here: {:.2} s; speed-up {:.2}x (goal: at least 2.5x)",
                    thousands(*checks),
                    secs(*today),
                    secs(ours),
                    secs(*today) / secs(ours)
                );
            }
            (None, Some(why)) => {
                let _ = writeln!(out, "today's path not measured: {why}");
            }
            (None, None) => {}
        }
        match self.peak_kib {
            Some(kib) => {
                let _ = writeln!(
                    out,
                    "peak memory of this process: {:.1} MiB (adapter processes not included)",
                    kib as f64 / 1024.0
                );
            }
            None => {
                let _ = writeln!(out, "peak memory: not available on this system");
            }
        }
        out
    }
}

/// The scheduled run (`--bench` runs the plan a second time, parallel): its wall time against the
/// CPU time it used over the cores.
pub struct Scheduled {
    /// The parallel run's wall time.
    pub wall: Duration,
    /// CPU time of this process and its adapter processes during the run (Linux), if known.
    pub cpu: Option<Duration>,
    /// The cores.
    pub cores: usize,
    /// Whether its results equal the one-thread run's (timing aside).
    pub same_results: bool,
    /// Where they differ: the adapters whose tallies differ (with their answer kinds in each run),
    /// or the other parts of the results.
    pub differences: Vec<String>,
    /// The machine's load average over the last minute before and after the run (Linux), if
    /// known: other work on the cores makes the wall time longer than the scheduling's own.
    pub load: Option<(f64, f64)>,
    /// How many answering processes each adapter ended the run with (`Scheduling`).
    pub processes: BTreeMap<String, usize>,
}

impl Scheduled {
    /// Runs `plan` (made parallel) and measures it; `one_thread` is the benchmark's first run.
    pub fn measure(plan: &Plan, one_thread: &Results) -> Result<Scheduled, String> {
        let load_before = load_average();
        let before = process_cpu_time(std::process::id());
        let start = Instant::now();
        let (results, _, timing) = crate::run::run(plan, &mut |_| {})?;
        let wall = start.elapsed();
        let load = load_before.zip(load_average());
        let cpu = match (before, process_cpu_time(std::process::id())) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        let (ours, theirs) = (results.without_timing(), one_thread.without_timing());
        let mut differences: Vec<String> = ours
            .adapters
            .iter()
            .filter(|(id, tally)| theirs.adapters.get(*id) != Some(tally))
            .map(|(id, tally)| {
                let before = theirs.adapters.get(id).map(|t| &t.answers);
                format!("{id} (answers {:?}, one thread {before:?})", tally.answers)
            })
            .collect();
        if ours.buckets != theirs.buckets {
            differences.push("buckets".to_string());
        }
        if ours.pairs != theirs.pairs {
            differences.push("pairs".to_string());
        }
        if ours.oracle != theirs.oracle {
            differences.push("oracle".to_string());
        }
        Ok(Scheduled {
            wall,
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            same_results: ours == theirs,
            differences,
            load,
            processes: timing.processes,
        })
    }

    /// The report's lines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let wall = self.wall.as_secs_f64().max(1e-9);
        match self.cpu {
            Some(cpu) => {
                let per_core = cpu.as_secs_f64() / self.cores as f64;
                let _ = writeln!(
                    out,
                    "scheduled run (adapters' processes and the oracle's threads side by side): wall {wall:.2} s, CPU {:.2} s (this process and the adapter processes) over {} cores = {per_core:.2} s each; wall / (CPU / cores) = {:.2}x (1.00x: every core busy to the end)",
                    cpu.as_secs_f64(),
                    self.cores,
                    wall / per_core.max(1e-9)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "scheduled run: wall {wall:.2} s (CPU time not available on this system)"
                );
            }
        }
        if let Some((before, after)) = self.load {
            let _ = writeln!(
                out,
                "load average (1 min) before and after the scheduled run: {before:.2} and {after:.2} on {} cores (work of other programs on the same cores makes wall / (CPU / cores) larger than the scheduling's own)",
                self.cores
            );
        }
        let several: Vec<String> = self
            .processes
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(id, n)| format!("{id} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "processes per parser at the end (the others: 1): {}",
            if several.is_empty() {
                "none more than 1".to_string()
            } else {
                several.join(", ")
            }
        );
        let _ = writeln!(
            out,
            "scheduled run's results equal the one-thread run's: {}",
            if self.same_results { "yes" } else { "NO" }
        );
        for difference in &self.differences {
            let _ = writeln!(out, "  differs: {difference}");
        }
        out
    }
}

/// The load average over the last minute (`/proc/loadavg`'s first field), if known.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Today's path: every derived check of the plan's files as a `check --batch` line, answered by
/// the oracle and `adapters` in a child process. Files fetched with other than a plain 200 are
/// left out (a batch line has no fetch outcome).
fn today_path(plan: &Plan, adapters: &[&str]) -> Result<(Duration, u64), String> {
    let dir = tempfile_dir()?;
    let path = dir.join("batch.jsonl");
    let file = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = std::io::BufWriter::new(file);
    let mut checks = 0u64;
    each_file(&plan.sources, plan.shard, plan.limit, &mut |file| {
        if file.fetch != Fetch::default() {
            return Ok(());
        }
        let derived = derive(&file.body, file.robots_url.as_deref());
        let body = match std::str::from_utf8(&file.body) {
            Ok(text) => serde_json::json!({ "robots": text }),
            Err(_) => serde_json::json!({
                "robots_base64": base64::engine::general_purpose::STANDARD.encode(&file.body)
            }),
        };
        for (agent, url) in derived.checks() {
            let mut line = body.clone();
            line["agent"] = agent.into();
            line["url"] = url.into();
            writeln!(lines, "{line}").map_err(|e| format!("{}: {e}", path.display()))?;
            checks += 1;
        }
        Ok(())
    })?;
    lines
        .flush()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    drop(lines);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut command = std::process::Command::new(exe);
    command.arg("check").arg("--batch").arg(&path);
    for id in adapters {
        command.arg("--adapter").arg(id);
    }
    if plan.options.worker.is_none() {
        command.arg("--no-isolation");
    }
    command.stdout(std::process::Stdio::null());
    let start = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot start check --batch: {e}"))?;
    let elapsed = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    if !status.success() {
        return Err(format!("check --batch exited with {status}"));
    }
    Ok((elapsed, checks))
}

/// A fresh temporary directory.
fn tempfile_dir() -> Result<std::path::PathBuf, String> {
    let dir =
        std::env::temp_dir().join(format!("robotstxt-realworld-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// `VmHWM` of `/proc/self/status`, in KiB.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
