//! `adapter serve <id>` (hidden): the worker process that runs an in-process parser isolated.

use std::process::ExitCode;

use clap::Subcommand;
use robotstxt_adapters::registry;

/// The `adapter` subcommands.
#[derive(Subcommand)]
pub enum AdapterCommand {
    /// Serve an in-process parser over adapters/PROTOCOL.md on standard input and output.
    Serve {
        /// The adapter id.
        id: String,
    },
}

/// `adapter serve <id>`: serves an in-process parser over PROTOCOL.md on stdin/stdout. This is the
/// worker process the runner starts to isolate in-process parsers.
pub fn run(command: &AdapterCommand) -> Result<ExitCode, String> {
    let AdapterCommand::Serve { id } = command;
    let mut adapter = registry::open_in_process(id).map_err(|e| e.to_string())?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    robotstxt_adapters::serve::serve(&mut adapter, stdin, stdout)
        .map_err(|e| format!("serving {id}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
