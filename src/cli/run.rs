//! `run`: the corpus through the oracle and every available adapter, judged under the ledgers,
//! written as results.json, summary.md, matrix.html, junit.xml and a badge per adapter.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_matrix::run::{self, Progress, RunOptions};
use robotstxt_oracle::ProfileId;

use super::options::{AdapterArgs, CasesDir};

/// The `run` command's options.
#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub corpus: CasesDir,
    #[command(flatten)]
    pub adapters: AdapterArgs,
    /// Oracle profiles to show as columns (repeatable; default: all four).
    #[arg(long = "profile", value_name = "PROFILE")]
    pub profiles: Vec<String>,
    /// Only checks whose id (`<case-id>#<n>`) contains this text.
    #[arg(long = "cases", value_name = "FILTER")]
    pub filter: Option<String>,
    /// Where to write results.json, summary.md, matrix.html, junit.xml and badges/<adapter>.svg.
    #[arg(long, value_name = "DIR", default_value = "conformance-results")]
    pub out: PathBuf,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// The ledger directory (default: adapters/expectations).
    #[arg(long, value_name = "DIR")]
    pub ledgers: Option<PathBuf>,
}

/// A report format for standard output.
#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormat {
    /// A summary table for the terminal.
    Text,
    /// results.json.
    Json,
    /// The Markdown summary.
    Markdown,
    /// The HTML matrix.
    Html,
    /// JUnit XML.
    Junit,
}

/// Runs it. Exit status: 0, or 1 when an answer contradicts a ledger.
pub fn run(args: &RunArgs) -> Result<ExitCode, String> {
    let corpus = &args.corpus.load()?;
    let open = args.adapters.options()?;
    let adapters = args.adapters.ids(&open)?;
    let profiles = if args.profiles.is_empty() {
        ProfileId::ALL.to_vec()
    } else {
        args.profiles
            .iter()
            .map(|p| {
                ProfileId::from_name(p).ok_or_else(|| {
                    format!("unknown profile `{p}` (rfc9309, google, draft-1996, original-1994)")
                })
            })
            .collect::<Result<_, _>>()?
    };
    let options = RunOptions {
        profiles,
        adapters,
        filter: args.filter.clone(),
        open,
        ledgers: args
            .ledgers
            .clone()
            .unwrap_or_else(robotstxt_matrix::ledger::default_dir),
    };
    let bar = Bar::new();
    let results = run::run(corpus, &options, &bar)?;
    if results.rows.is_empty() && results.preference_rows.is_empty() {
        return Err(format!(
            "no check id contains `{}`",
            args.filter.as_deref().unwrap_or_default()
        ));
    }
    for why in &results.unavailable {
        eprintln!("unavailable: {why}");
    }
    let written = robotstxt_matrix::report::write_all(&args.out, &results)
        .map_err(|e| format!("writing reports into {}: {e}", args.out.display()))?;
    let format = match args.format {
        ReportFormat::Text => robotstxt_matrix::report::Format::Text,
        ReportFormat::Json => robotstxt_matrix::report::Format::Json,
        ReportFormat::Markdown => robotstxt_matrix::report::Format::Markdown,
        ReportFormat::Html => robotstxt_matrix::report::Format::Html,
        ReportFormat::Junit => robotstxt_matrix::report::Format::Junit,
    };
    print!("{}", robotstxt_matrix::report::render(format, &results));
    eprintln!(
        "wrote {}",
        written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(if results.has_unexpected() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The progress bar on stderr (indicatif hides it when stderr is not a terminal).
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{bar:40}] {pos}/{len} answers ({eta})")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        Bar(bar)
    }
}

impl Progress for Bar {
    fn message(&self, text: &str) {
        self.0.set_message(text.to_string());
        self.0.tick();
    }
    fn start(&self, total: u64) {
        self.0.set_length(total);
        self.0.set_message("running");
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
