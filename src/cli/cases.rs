//! `cases list|lint|coverage|stats|schema`: the case corpus (spec-cases/).

use std::io::Write;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use robotstxt_matrix::cases::Corpus;

use super::options::{CasesDir, Format};

/// The `cases` subcommands.
#[derive(Subcommand)]
pub enum CasesCommand {
    /// List the cases: id, number of checks, title.
    List {
        #[command(flatten)]
        corpus: CasesDir,
        /// Only ids containing this text.
        filter: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Load every case strictly and report every problem with file, line and column.
    Lint {
        #[command(flatten)]
        corpus: CasesDir,
    },
    /// Map each RFC 9309 normative statement to the cases that test it; exits 1 on a gap.
    Coverage {
        #[command(flatten)]
        corpus: CasesDir,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: CoverageFormat,
    },
    /// Count cases, checks, and checks per cited document.
    Stats {
        #[command(flatten)]
        corpus: CasesDir,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the JSON Schema of a case file (spec-cases/schema.json).
    Schema,
}

/// What `cases coverage` prints.
#[derive(Clone, Copy, ValueEnum)]
pub enum CoverageFormat {
    Text,
    Markdown,
    Json,
}

/// Runs one `cases` subcommand. Exit status 1 when `coverage` finds a statement with no case and
/// no reason.
pub fn run(command: &CasesCommand) -> Result<ExitCode, String> {
    match command {
        CasesCommand::List {
            corpus,
            filter,
            format,
        } => list(&corpus.load()?, filter.as_deref(), *format),
        CasesCommand::Lint { corpus } => lint(&corpus.load()?),
        CasesCommand::Coverage { corpus, format } => coverage(&corpus.load()?, *format),
        CasesCommand::Stats { corpus, format } => stats(&corpus.load()?, *format),
        CasesCommand::Schema => schema(),
    }
}

/// A write to standard output that failed, as the error message.
fn io_error(e: std::io::Error) -> String {
    e.to_string()
}

/// `cases list`: a line per case whose id contains `filter`.
fn list(corpus: &Corpus, filter: Option<&str>, format: Format) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let cases = corpus
        .cases
        .iter()
        .filter(|c| filter.is_none_or(|f| c.id.contains(f)));
    for case in cases {
        match format {
            Format::Text => writeln!(out, "{}  ({} checks)  {}", case.id, case.checks.len(), case.title).map_err(io_error)?,
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({ "id": case.id, "checks": case.checks.len(), "title": case.title,
                    "cite": case.cite.iter().map(ToString::to_string).collect::<Vec<_>>(), "tags": case.tags })
            )
            .map_err(io_error)?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `cases lint`: the corpus loaded strictly (a problem is an error); its counts.
fn lint(corpus: &Corpus) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "ok: {} cases, {} checks, {} aipref checks",
        corpus.cases.len(),
        corpus.check_count(),
        corpus.preference_count()
    )
    .map_err(io_error)?;
    Ok(ExitCode::SUCCESS)
}

/// `cases coverage`: each RFC 9309 statement and its cases; exit status 1 on a gap.
fn coverage(corpus: &Corpus, format: CoverageFormat) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let rows = robotstxt_matrix::coverage::coverage(corpus);
    match format {
        CoverageFormat::Markdown => {
            write!(out, "{}", robotstxt_matrix::coverage::to_markdown(&rows)).map_err(io_error)?
        }
        CoverageFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        )
        .map_err(io_error)?,
        CoverageFormat::Text => {
            for row in &rows {
                let status = match (&row.untestable, row.cases.len()) {
                    (Some(_), 0) => "not testable".to_string(),
                    (None, 0) => "NO CASE".to_string(),
                    (_, n) => format!("{n} case(s)"),
                };
                writeln!(out, "{:<48} {:<10} {status}", row.id, row.level).map_err(io_error)?;
            }
        }
    }
    let gaps: Vec<&str> = rows
        .iter()
        .filter(|r| r.is_gap())
        .map(|r| r.id.as_str())
        .collect();
    if !gaps.is_empty() {
        eprintln!(
            "error: statements with no case and no reason: {}",
            gaps.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `cases stats`: cases, checks, and checks per cited document and per directory.
fn stats(corpus: &Corpus, format: Format) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let s = robotstxt_matrix::stats::stats(corpus);
    match format {
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string(&s).map_err(|e| e.to_string())?
        )
        .map_err(io_error)?,
        Format::Text => {
            writeln!(
                out,
                "cases: {}\nchecks: {}\naipref checks (asked of the oracle's aipref reading only): {}",
                s.cases, s.checks, s.preference_checks
            )
            .map_err(io_error)?;
            writeln!(
                out,
                "checks whose profiles disagree: {}",
                s.checks_with_divergent_profiles
            )
            .map_err(io_error)?;
            writeln!(
                out,
                "checks with `either` somewhere: {}",
                s.checks_with_either
            )
            .map_err(io_error)?;
            writeln!(
                out,
                "checks with `not-governed` somewhere: {}",
                s.checks_with_not_governed
            )
            .map_err(io_error)?;
            writeln!(out, "checks per cited document:").map_err(io_error)?;
            for (doc, n) in &s.by_document {
                writeln!(out, "  {doc}: {n}").map_err(io_error)?;
            }
            writeln!(out, "  draft-1996 or guide-ch9: {}", s.draft_1996_or_guide)
                .map_err(io_error)?;
            writeln!(
                out,
                "checks per corpus directory (where the case was drawn from):"
            )
            .map_err(io_error)?;
            for (dir, n) in &s.by_directory {
                writeln!(out, "  {dir}/: {n}").map_err(io_error)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `cases schema`: the JSON Schema of a case file.
fn schema() -> Result<ExitCode, String> {
    let schema = robotstxt_matrix::cases::model::case_schema();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?
    )
    .map_err(io_error)?;
    Ok(ExitCode::SUCCESS)
}
