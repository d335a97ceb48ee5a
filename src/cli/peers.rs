//! `peers install`: the peer parsers at their pinned versions, and what the system lacks.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

/// The `peers` subcommands.
#[derive(Subcommand)]
pub enum PeersCommand {
    /// Install the pinned peers (PyPI and npm), build the Go and Java ones (Go module proxy, Maven
    /// Central) and check the Debian-packaged ones.
    Install {
        /// The peers directory (default: $ROBOTSTXT_PEERS_DIR, else
        /// ~/.cache/robotstxt-conformance/peers).
        #[arg(long, value_name = "DIR")]
        peers_dir: Option<PathBuf>,
    },
}

/// `peers install`: provisions the Python and npm peers at their pinned versions and reports the
/// system runtimes and Debian packages that are missing. Exit status 1 when something is missing.
pub fn run(command: &PeersCommand) -> Result<ExitCode, String> {
    let PeersCommand::Install { peers_dir } = command;
    let dir = peers_dir
        .clone()
        .unwrap_or_else(robotstxt_adapters::peers::default_peers_dir);
    let mut err = std::io::stderr();
    let report = robotstxt_adapters::peers::install(&dir, &mut err)
        .map_err(|e| format!("installing peers into {}: {e}", dir.display()))?;
    for step in report.runtimes.iter().chain(&report.adapters) {
        println!("{step}");
    }
    Ok(if report.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
