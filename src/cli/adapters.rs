//! `adapters`: every adapter, whether it is available here, and who it is.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;

use super::options::{AdapterArgs, Format};

/// The `adapters` command's options.
#[derive(Args)]
pub struct AdaptersArgs {
    #[command(flatten)]
    adapters: AdapterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `adapters`: every adapter, whether it is available here, and who it is (or why not).
pub fn run(args: &AdaptersArgs) -> Result<ExitCode, String> {
    let json = matches!(args.format, Format::Json);
    let adapters = &args.adapters;
    let options = adapters.options()?;
    let mut out = std::io::stdout().lock();
    let w = |e: std::io::Error| e.to_string();
    for id in adapters.ids(&options)? {
        match robotstxt_adapters::open(&id, &options) {
            Ok(adapter) => {
                let i = adapter.identity();
                if json {
                    let value = serde_json::json!({"id": id, "available": true, "identity": i});
                    writeln!(out, "{value}").map_err(w)?;
                } else {
                    writeln!(
                        out,
                        "{id:<20} available    {} {} ({}, {}), claims {}",
                        i.library,
                        i.version,
                        i.language,
                        i.licence,
                        i.profile.name()
                    )
                    .map_err(w)?;
                }
            }
            Err(why) => {
                if json {
                    let value =
                        serde_json::json!({"id": id, "available": false, "unavailable": why});
                    writeln!(out, "{value}").map_err(w)?;
                } else {
                    writeln!(
                        out,
                        "{id:<20} UNAVAILABLE  {}; fix: {}",
                        why.reason, why.fix
                    )
                    .map_err(w)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
