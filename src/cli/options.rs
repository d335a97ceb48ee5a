//! The options several commands share: the corpus directory, the output format, and which
//! adapters to open and how.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use robotstxt_adapters::registry::{Options, UserAdapter};
use robotstxt_matrix::cases::{Corpus, LoadError};
use robotstxt_matrix::default_cases_dir;

/// Where the case corpus is.
#[derive(Args)]
pub struct CasesDir {
    /// The corpus directory (default: $ROBOTSTXT_CASES, else ./spec-cases).
    #[arg(long, value_name = "DIR")]
    cases_dir: Option<PathBuf>,
}

impl CasesDir {
    /// Loads the corpus strictly; every problem, with file, line and column, is in the error.
    pub fn load(&self) -> Result<Corpus, String> {
        let root = self.cases_dir.clone().unwrap_or_else(default_cases_dir);
        Corpus::load(&root).map_err(|errors| corpus_problems(&errors))
    }
}

/// The corpus's problems, one a line, then their count.
fn corpus_problems(errors: &[LoadError]) -> String {
    let mut text: String = errors.iter().map(|e| format!("{e}\n")).collect();
    text.push_str(&format!("{} problem(s) in the corpus", errors.len()));
    text
}

/// Text for a person or JSON for a program.
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Which adapters, and how to open them.
#[derive(Args, Clone, Debug)]
pub struct AdapterArgs {
    /// An adapter id, or `all` (repeatable, or a comma list: `google-cpp,py-jwm`). Without it,
    /// `run`, `adapters` and `ledger rewrite` take all, or only your own adapters when
    /// --adapter-command or --adapters-config gives some; `check` and `bench` ask no adapter.
    #[arg(long = "adapter", value_name = "ID|all", value_delimiter = ',')]
    pub adapters: Vec<String>,
    /// Your own adapters and where the peers are.
    #[command(flatten)]
    pub user: UserAdapterArgs,
    /// Seconds one check may take before it is a timeout (the first check of a body gets one
    /// more timeout per 64 KiB of body: parsing it is part of that answer).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Run the in-process parsers in this process instead of a worker process: faster, but an
    /// abort, segfault or hang in a parser then ends the run (panics are still caught).
    #[arg(long)]
    pub no_isolation: bool,
}

/// Your own adapters and where the installed peers are: what every command that opens adapters
/// takes (`run`, `fuzz`, ...).
#[derive(Args, Clone, Debug)]
pub struct UserAdapterArgs {
    /// Your own adapter speaking adapters/PROTOCOL.md: `name = command line` (repeatable).
    #[arg(long = "adapter-command", value_name = "NAME = COMMAND")]
    pub adapter_commands: Vec<String>,
    /// A file of your own adapters, one `name = command line` per line.
    #[arg(long, value_name = "FILE")]
    pub adapters_config: Option<PathBuf>,
    /// Where `peers install` put the Python and npm peers (default: $ROBOTSTXT_PEERS_DIR, else
    /// ~/.cache/robotstxt-conformance/peers).
    #[arg(long, value_name = "DIR")]
    pub peers_dir: Option<PathBuf>,
}

impl AdapterArgs {
    /// The options for opening adapters.
    pub fn options(&self) -> Result<Options, String> {
        let mut user = Vec::new();
        if let Some(path) = &self.user.adapters_config {
            user.extend(UserAdapter::read_config(path)?);
        }
        for text in &self.user.adapter_commands {
            user.push(UserAdapter::parse(text).map_err(|e| format!("--adapter-command {e}"))?);
        }
        if !(self.timeout > 0.0 && self.timeout.is_finite()) {
            return Err("--timeout must be a positive number of seconds".to_string());
        }
        let worker = if self.no_isolation {
            None
        } else {
            let exe = std::env::current_exe()
                .map_err(|e| format!("cannot find this program to start workers: {e}"))?;
            Some(vec![
                exe.display().to_string(),
                "adapter".to_string(),
                "serve".to_string(),
            ])
        };
        Ok(Options {
            worker,
            peers_dir: self
                .user
                .peers_dir
                .clone()
                .unwrap_or_else(robotstxt_adapters::peers::default_peers_dir),
            timeout: Duration::from_secs_f64(self.timeout),
            user,
            env: Vec::new(),
        })
    }

    /// The adapter ids asked for: `all` means every built-in and user adapter; nothing means
    /// your own adapters when you gave some (a user adapter given is an adapter asked, and alone),
    /// else every adapter.
    pub fn ids(&self, options: &Options) -> Result<Vec<String>, String> {
        if self.adapters.is_empty() && !options.user.is_empty() {
            return Ok(options.user.iter().map(|u| u.name.clone()).collect());
        }
        if self.adapters.is_empty() || self.adapters.iter().any(|a| a == "all") {
            return Ok(options.all_ids());
        }
        let mut ids = Vec::new();
        for id in &self.adapters {
            if !robotstxt_adapters::registry::is_known(id, options) {
                return Err(format!(
                    "unknown adapter `{id}`; known: {}",
                    options.all_ids().join(", ")
                ));
            }
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        Ok(ids)
    }
}
