//! The stable adapter ids and how each is opened: in process, in an isolated worker process, or as
//! a subprocess speaking `PROTOCOL.md`.

use std::path::PathBuf;
use std::time::Duration;

use crate::adapter::{Adapter, Unavailable};
use crate::faults;
use crate::inprocess::{InProcess, BUILTINS};
use crate::peers;
use crate::subprocess::{Environment, Subprocess};
use crate::zoo;

/// Every adapter we ship, in report order: the in-process ones ([`BUILTINS`]), then the subprocess
/// programs ([`peers::SUBPROCESS_IDS`]). Built from those two lists at compile time, so the three
/// can never disagree.
pub const BUILTIN_IDS: [&str; BUILTINS.len() + peers::SUBPROCESS_IDS.len()] = {
    let mut ids = [""; BUILTINS.len() + peers::SUBPROCESS_IDS.len()];
    let mut i = 0;
    while i < BUILTINS.len() {
        ids[i] = BUILTINS[i].id;
        i += 1;
    }
    let mut j = 0;
    while j < peers::SUBPROCESS_IDS.len() {
        ids[i + j] = peers::SUBPROCESS_IDS[j];
        j += 1;
    }
    ids
};

/// A user's own adapter: a name and the command line that starts a program speaking `PROTOCOL.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserAdapter {
    /// The id it is reported under.
    pub name: String,
    /// The command line, split like a POSIX shell would (no shell is run).
    pub command: String,
}

impl UserAdapter {
    /// Parses `name = command line` (the flag's and the config file's form).
    pub fn parse(text: &str) -> Result<UserAdapter, String> {
        let (name, command) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}`: expected `name = command line`"))?;
        let (name, command) = (name.trim(), command.trim());
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        {
            return Err(format!(
                "`{name}`: an adapter name is letters, digits, `-`, `_` and `.`"
            ));
        }
        if BUILTIN_IDS.contains(&name) {
            return Err(format!(
                "`{name}` is a built-in adapter id; choose another name"
            ));
        }
        if command.is_empty() {
            return Err(format!("adapter `{name}` has an empty command line"));
        }
        Ok(UserAdapter {
            name: name.to_string(),
            command: command.to_string(),
        })
    }

    /// Reads a config file: one `name = command line` per line; `#` starts a comment line.
    pub fn read_config(path: &std::path::Path) -> Result<Vec<UserAdapter>, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(n, l)| {
                UserAdapter::parse(l).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))
            })
            .collect()
    }
}

/// How adapters are opened.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run in-process parsers in a worker process (this command line plus `<id>`) so that an abort
    /// or segfault kills only the worker. `None` runs them in this process (panics still caught).
    pub worker: Option<Vec<String>>,
    /// Where the subprocess peers are installed (`peers install`).
    pub peers_dir: PathBuf,
    /// How long one check may take before it is a `timeout`.
    pub timeout: Duration,
    /// Users' own adapters.
    pub user: Vec<UserAdapter>,
    /// Environment variables added to every adapter process's environment (the fuzzer sets hash
    /// seeds here); empty by default.
    pub env: Vec<(String, String)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            worker: None,
            peers_dir: peers::default_peers_dir(),
            timeout: Duration::from_secs(10),
            user: Vec::new(),
            env: Vec::new(),
        }
    }
}

impl Options {
    /// Every id these options can open, in report order: the built-ins, then users' adapters.
    pub fn all_ids(&self) -> Vec<String> {
        BUILTIN_IDS
            .iter()
            .map(|s| s.to_string())
            .chain(self.user.iter().map(|u| u.name.clone()))
            .collect()
    }
}

/// Whether `id` names an adapter (built-in, fault-injecting, a mutant of the zoo, or the user's).
pub fn is_known(id: &str, options: &Options) -> bool {
    BUILTIN_IDS.contains(&id)
        || faults::is_fault_id(id)
        || zoo::is_zoo_id(id)
        || options.user.iter().any(|u| u.name == id)
}

/// Opens adapter `id`, or says why it cannot run here and what fixes it.
pub fn open(id: &str, options: &Options) -> Result<Box<dyn Adapter>, Unavailable> {
    if let Some(user) = options.user.iter().find(|u| u.name == id) {
        let argv = shell_words::split(&user.command).map_err(|e| Unavailable {
            id: id.to_string(),
            reason: format!("its command line does not parse: {e}"),
            fix: "quote the command line as a POSIX shell would".to_string(),
        })?;
        return Ok(Box::new(start(id, argv, Vec::new(), options)?));
    }
    if BUILTINS.iter().any(|b| b.id == id) || faults::is_fault_id(id) || zoo::is_zoo_id(id) {
        return match &options.worker {
            Some(worker) => {
                // Fail fast, with the real reason, before starting a worker that would only say it.
                open_in_process(id)?;
                let mut argv = worker.clone();
                argv.push(id.to_string());
                Ok(Box::new(start(id, argv, Vec::new(), options)?))
            }
            None => Ok(Box::new(open_in_process(id)?)),
        };
    }
    if peers::SUBPROCESS_IDS.contains(&id) {
        let argv = peers::command(id, &options.peers_dir)?;
        return Ok(Box::new(start(
            id,
            argv,
            peers::unset_variables(id),
            options,
        )?));
    }
    Err(Unavailable {
        id: id.to_string(),
        reason: "no adapter has this id".to_string(),
        fix: format!("use one of: {}", BUILTIN_IDS.join(", ")),
    })
}

/// Starts an adapter process with the options' timeout and environment, the variables named in
/// `unset` removed from it first.
fn start(
    id: &str,
    argv: Vec<String>,
    unset: Vec<String>,
    options: &Options,
) -> Result<Subprocess, Unavailable> {
    let env = Environment {
        unset,
        set: options.env.clone(),
    };
    Subprocess::start_with_env(id, argv, env, options.timeout)
}

/// Opens an in-process parser (built-in, fault-injecting or a mutant of the zoo) in this process.
pub fn open_in_process(id: &str) -> Result<InProcess, Unavailable> {
    if let Some(fault) = faults::open(id) {
        return Ok(fault);
    }
    if let Some(mutant) = crate::zoo::open(id) {
        return Ok(mutant);
    }
    let builtin = BUILTINS
        .iter()
        .find(|b| b.id == id)
        .ok_or_else(|| Unavailable {
            id: id.to_string(),
            reason: "not an in-process adapter".to_string(),
            fix: String::new(),
        })?;
    (builtin.available)()?;
    Ok(InProcess::new((builtin.identity)(), builtin.check))
}
