//! `cases list|lint|coverage|stats|schema`: the case corpus (spec-cases/).

use std::io::Write;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use robotstxt_conformance::{coverage, stats};

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
    let mut out = std::io::stdout().lock();
    let w = |e: std::io::Error| e.to_string();
    match command {
        CasesCommand::List {
            corpus,
            filter,
            format,
        } => {
            let corpus = corpus.load()?;
            let cases = corpus
                .cases
                .iter()
                .filter(|c| filter.as_ref().is_none_or(|f| c.id.contains(f.as_str())));
            for case in cases {
                match format {
                    Format::Text => writeln!(out, "{}  ({} checks)  {}", case.id, case.checks.len(), case.title).map_err(w)?,
                    Format::Json => writeln!(
                        out,
                        "{}",
                        serde_json::json!({ "id": case.id, "checks": case.checks.len(), "title": case.title,
                            "cite": case.cite.iter().map(ToString::to_string).collect::<Vec<_>>(), "tags": case.tags })
                    )
                    .map_err(w)?,
                }
            }
        }
        CasesCommand::Lint { corpus } => {
            let corpus = corpus.load()?;
            writeln!(
                out,
                "ok: {} cases, {} checks",
                corpus.cases.len(),
                corpus.check_count()
            )
            .map_err(w)?;
        }
        CasesCommand::Coverage { corpus, format } => {
            let corpus = corpus.load()?;
            let rows = coverage::coverage(&corpus);
            match format {
                CoverageFormat::Markdown => {
                    write!(out, "{}", coverage::to_markdown(&rows)).map_err(w)?
                }
                CoverageFormat::Json => writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                )
                .map_err(w)?,
                CoverageFormat::Text => {
                    for row in &rows {
                        let status = match (&row.untestable, row.cases.len()) {
                            (Some(_), 0) => "not testable".to_string(),
                            (None, 0) => "NO CASE".to_string(),
                            (_, n) => format!("{n} case(s)"),
                        };
                        writeln!(out, "{:<48} {:<10} {status}", row.id, row.level).map_err(w)?;
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
        }
        CasesCommand::Stats { corpus, format } => {
            let corpus = corpus.load()?;
            let s = stats::stats(&corpus);
            match format {
                Format::Json => writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&s).map_err(|e| e.to_string())?
                )
                .map_err(w)?,
                Format::Text => {
                    writeln!(out, "cases: {}\nchecks: {}", s.cases, s.checks).map_err(w)?;
                    writeln!(
                        out,
                        "checks whose profiles disagree: {}",
                        s.checks_with_divergent_profiles
                    )
                    .map_err(w)?;
                    writeln!(
                        out,
                        "checks with `either` somewhere: {}",
                        s.checks_with_either
                    )
                    .map_err(w)?;
                    writeln!(
                        out,
                        "checks with `not-governed` somewhere: {}",
                        s.checks_with_not_governed
                    )
                    .map_err(w)?;
                    writeln!(out, "checks per cited document:").map_err(w)?;
                    for (doc, n) in &s.by_document {
                        writeln!(out, "  {doc}: {n}").map_err(w)?;
                    }
                    writeln!(out, "  draft-1996 or guide-ch9: {}", s.draft_1996_or_guide)
                        .map_err(w)?;
                    writeln!(
                        out,
                        "checks per corpus directory (where the case was drawn from):"
                    )
                    .map_err(w)?;
                    for (dir, n) in &s.by_directory {
                        writeln!(out, "  {dir}/: {n}").map_err(w)?;
                    }
                }
            }
        }
        CasesCommand::Schema => {
            let schema = robotstxt_conformance::cases::model::case_schema();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?
            )
            .map_err(w)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
