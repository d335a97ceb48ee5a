//! `merge`: the results of `realworld` shards into the report a single run gives
//! (`docs/realworld.md`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use robotstxt_realworld::tally::Results;

use super::realworld::{write_report, ReportFormat};

/// The `merge` command's options.
#[derive(Args)]
pub struct MergeArgs {
    /// Results to merge: `realworld.json` files or `--partial` outputs (one JSON object each).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write realworld.json, realworld.md and realworld.html here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// What to print.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Runs `merge`.
pub fn run(args: &MergeArgs) -> Result<ExitCode, String> {
    let mut merged: Option<Results> = None;
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let results: Results = serde_json::from_str(text.trim())
            .map_err(|e| format!("{}: not realworld results: {e}", path.display()))?;
        match &mut merged {
            None => merged = Some(results),
            Some(m) => m
                .merge(&results)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        }
    }
    let merged = merged.ok_or("no results to merge")?;
    write_report(&merged, args.out.as_deref(), args.format)
}
