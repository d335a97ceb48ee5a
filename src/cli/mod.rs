//! The command line's adapter-facing commands: `run`, `certify`, `adapter`, `adapters`, `peers`, `ledger`,
//! and the options they share.

pub mod adapters;
pub mod bench;
pub mod certify;
pub mod fuzz;
pub mod realworld;
pub mod run;
pub mod site;

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use robotstxt_adapters::registry::{Options, UserAdapter};

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

/// An adapter `check` consults, or why it cannot.
pub struct CheckAdapter {
    /// The adapter id.
    pub id: String,
    /// The open adapter, or the reason it is unavailable.
    pub adapter: Result<Box<dyn robotstxt_adapters::Adapter>, robotstxt_adapters::Unavailable>,
}

/// Opens the adapters named by `check --adapter`, or your own (--adapter-command,
/// --adapters-config) when no --adapter is given; none when neither is.
pub fn open_for_check(args: &AdapterArgs) -> Result<Vec<CheckAdapter>, String> {
    if args.adapters.is_empty()
        && args.user.adapter_commands.is_empty()
        && args.user.adapters_config.is_none()
    {
        return Ok(Vec::new());
    }
    let options = args.options()?;
    Ok(args
        .ids(&options)?
        .into_iter()
        .map(|id| CheckAdapter {
            adapter: robotstxt_adapters::open(&id, &options),
            id,
        })
        .collect())
}

/// Asks every adapter one check; an unavailable adapter answers `unsupported` with its reason,
/// and so does one that cannot be asked (a fetch outcome it does not take, or a URL the oracle
/// finds `not-governed` under its claimed profile).
pub fn ask_adapters(
    adapters: &mut [CheckAdapter],
    request: &robotstxt_oracle::Request<'_>,
) -> Vec<(String, robotstxt_adapters::Answer)> {
    adapters
        .iter_mut()
        .map(|a| {
            let answer = match &mut a.adapter {
                Ok(adapter) => {
                    let identity = adapter.identity();
                    let not_governed = request.robots_url.is_some_and(|robots_url| {
                        robotstxt_oracle::scope::governs(identity.profile, robots_url, request.url)
                            .governs
                            == robotstxt_oracle::Governs::No
                    });
                    let skip = robotstxt_conformance::run::not_asked(
                        identity,
                        request.fetch,
                        request.robots_url,
                        not_governed,
                    );
                    match skip {
                        Some(answer) => answer,
                        None => {
                            let query = robotstxt_adapters::Query {
                                agent: request.agent.to_string(),
                                url: robotstxt_conformance::run::absolute_url(request.url),
                                fetch: request.fetch,
                            };
                            adapter.answer(request.body, &[query]).remove(0)
                        }
                    }
                }
                Err(why) => robotstxt_adapters::Answer::Unsupported {
                    reason: why.to_string(),
                },
            };
            (a.id.clone(), answer)
        })
        .collect()
}

/// `{"<id>": answer}`: a verdict as a string (`"allowed"`), anything else as an object
/// (`{"answer": "crash", "message": "..."}`).
pub fn answers_json(answers: &[(String, robotstxt_adapters::Answer)]) -> serde_json::Value {
    answers
        .iter()
        .map(|(id, answer)| {
            let value = match answer.verdict() {
                Some(_) => serde_json::Value::from(answer.kind()),
                None => serde_json::to_value(answer).unwrap_or_default(),
            };
            (id.clone(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
