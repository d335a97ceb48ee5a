//! `realworld`: every profile and parser on real robots.txt files, and the report that `merge`
//! also writes. `docs/realworld.md` is the user's guide.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use std::process::ExitCode;

use clap::Args;
use robotstxt_oracle::ProfileId;
use robotstxt_realworld::corpus::{read_corpus_list, Source};
use robotstxt_realworld::file::Shard;
use robotstxt_realworld::run::{self, Determinism, Plan, Scheduling};
use robotstxt_realworld::tally::Results;
use robotstxt_realworld::{bench, html, report};

use super::options::AdapterArgs;

/// The name protego's data goes by in results.
const PROTEGO_NAME: &str = "protego-0.7.0";

/// The `realworld` command's options.
#[derive(Args)]
pub struct RealworldArgs {
    /// A directory of robots.txt files (one per site), a robots.txt file, or a WARC file
    /// (`.warc`, `.warc.gz`) of robots.txt captures (repeatable). Default: Scrapy's protego test
    /// data (4,231 real files), fetched from PyPI once, verified and cached.
    #[arg(long = "corpus", value_name = "DIR|FILE|WARC")]
    pub corpus: Vec<PathBuf>,
    /// A file listing corpus paths, one per line (`-`: standard input), e.g. for Spark's pipe.
    #[arg(long, value_name = "FILE|-")]
    pub corpus_list: Option<String>,
    #[command(flatten)]
    pub adapters: AdapterArgs,
    /// The profiles reported (repeatable; default: all four).
    #[arg(long = "profile", value_name = "PROFILE")]
    pub profiles: Vec<String>,
    /// At most this many files of each corpus (the first, before sharding).
    #[arg(long)]
    pub limit: Option<usize>,
    /// This run's share of the input: `K/N` (K from 0 to N-1) or `auto` (from the scheduler:
    /// JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<String>,
    /// The number of shards, for `--shard auto` when the scheduler does not say it.
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Which files each adapter is asked twice, in fresh processes (other hash seeds), to catch
    /// nondeterminism: `sample` (one in 16), `all` or `off`.
    #[arg(long, default_value = "sample")]
    pub determinism: String,
    /// Write realworld.json, realworld.md and realworld.html here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// What to print.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// Write only the mergeable results, as one JSON line, to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE|-")]
    pub partial: Option<String>,
    /// Also measure: files/s and checks/s per adapter and for the oracle as ratios to google-cpp,
    /// memory, what dominates, and today's path (`check --batch`) on the same checks.
    #[arg(long)]
    pub bench: bool,
    /// Every adapter in exactly N processes (the oracle in N threads), each taking pieces of every
    /// chunk of files from a shared queue. Default: one process each, and one more (up to one per
    /// core) for an adapter that holds the others up.
    #[arg(long, value_name = "N")]
    pub processes: Option<usize>,
}

/// What `realworld` and `merge` print.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ReportFormat {
    /// A summary for a person.
    Text,
    /// The results (`docs/realworld.md`), then one summary line
    /// `{"files", "checks", "seconds", "adapters", "disagreement", "disagreement_all_kinds",
    /// "disagreement_by_kind"}` (`disagreement`: over URLs as written in the files).
    Json,
    /// The Markdown report.
    Markdown,
    /// The HTML page.
    Html,
}

/// Runs `realworld`.
pub fn run(args: &RealworldArgs) -> Result<ExitCode, String> {
    let options = args.adapters.options()?;
    let adapters = args.adapters.ids(&options)?;
    let profiles = profiles(&args.profiles)?;
    let shard = match &args.shard {
        None => Shard::ALL,
        Some(text) => Shard::parse(text, args.shards)?,
    };
    let determinism = match args.determinism.as_str() {
        "sample" => Determinism::Sample(16),
        "all" => Determinism::All,
        "off" => Determinism::Off,
        other => {
            return Err(format!(
                "--determinism must be sample, all or off, not `{other}`"
            ))
        }
    };
    let mut sources = Vec::new();
    for path in &args.corpus {
        if !path.exists() {
            return Err(format!(
                "--corpus {}: no such file or directory",
                path.display()
            ));
        }
        sources.push(Source::from_path(path));
    }
    if let Some(list) = &args.corpus_list {
        // An empty list is an empty corpus, not the default one.
        sources.extend(read_corpus_list(list)?);
    }
    if args.corpus.is_empty() && args.corpus_list.is_none() {
        sources.push(Source::Protego);
    }
    let corpus_names = sources.iter().map(source_name).collect();
    let plan = Plan {
        sources,
        corpus_names,
        shard,
        limit: args.limit,
        profiles,
        adapters,
        options,
        determinism,
        ledgers: Some(robotstxt_matrix::ledger::default_dir()),
        parallel: !args.bench,
        scheduling: match args.processes {
            Some(n) => Scheduling::Fixed(n.max(1)),
            None => Scheduling::per_core(),
        },
    };
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |files: u64| {
        if terminal {
            eprint!("\r{files} files");
        }
    };
    let (mut results, unavailable, timing) = run::run(&plan, &mut progress)?;
    results.limit = args.limit.map(|n| n as u64);
    if terminal {
        eprintln!();
    }
    // An empty corpus reports nothing: an error, as `fuzz --seeds` treats an empty directory (a
    // shard that takes no file of a corpus list is not: the list decides what the shard holds).
    if results.files == 0 && !args.corpus.is_empty() && args.shard.is_none() {
        return Err(format!(
            "--corpus {}: no robots.txt file read (an empty directory, or no file in it)",
            args.corpus
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for why in &unavailable {
        eprintln!("warning: {why}");
    }
    if let Some(target) = &args.partial {
        let line = serde_json::to_string(&results).map_err(|e| e.to_string())?;
        write_target(target, &format!("{line}\n"))?;
        if target == "-" {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if args.bench {
        let measured = bench::measure(&plan, &results, &timing)?;
        print!("{}", measured.text());
        let plan = Plan {
            parallel: true,
            ..plan
        };
        print!("{}", bench::Scheduled::measure(&plan, &results)?.text());
        return Ok(ExitCode::SUCCESS);
    }
    write_report(&results, args.out.as_deref(), args.format)
}

/// Writes the report's files into `out` when given, and prints it in `format` (`realworld` and
/// `merge`).
pub fn write_report(
    results: &Results,
    out: Option<&Path>,
    format: ReportFormat,
) -> Result<ExitCode, String> {
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let json = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
        for (name, text) in [
            ("realworld.json", json + "\n"),
            ("realworld.md", report::markdown(results)),
            ("realworld.html", html::render_with_case_files(results)),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        for (name, yaml) in html::case_files(results) {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&path, yaml).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let text = match format {
        ReportFormat::Text => report::text(results),
        ReportFormat::Json => format!(
            "{}\n{}\n",
            serde_json::to_string_pretty(results).map_err(|e| e.to_string())?,
            report::summary_line(results)
        ),
        ReportFormat::Markdown => report::markdown(results),
        ReportFormat::Html => html::render(results),
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// The profiles named (all four when none).
fn profiles(names: &[String]) -> Result<Vec<ProfileId>, String> {
    if names.is_empty() {
        return Ok(ProfileId::ALL.to_vec());
    }
    let mut profiles = Vec::new();
    for name in names {
        let p = ProfileId::from_name(name).ok_or_else(|| {
            format!("unknown profile `{name}`; known: rfc9309, google, draft-1996, original-1994")
        })?;
        if !profiles.contains(&p) {
            profiles.push(p);
        }
    }
    profiles.sort_by_key(|p| p.index());
    Ok(profiles)
}

/// How a source is named in the results: the protego data by its release, a directory or a file
/// by its own name (never by its path on this machine, which the reports would publish).
fn source_name(source: &Source) -> String {
    match source {
        Source::Protego => PROTEGO_NAME.to_string(),
        Source::Dir(path) | Source::File(path) | Source::Warc(path) => {
            robotstxt_realworld::report::corpus_label(&path.display().to_string())
        }
    }
}

/// Writes `text` to a file, or to standard output for `-`.
fn write_target(target: &str, text: &str) -> Result<(), String> {
    if target == "-" {
        std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())
    } else {
        std::fs::write(target, text).map_err(|e| format!("{target}: {e}"))
    }
}
