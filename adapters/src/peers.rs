//! The adapter programs we ship for parsers in other languages, and their runtimes.
//!
//! The programs live in `adapters/programs/` and are embedded in the binary, so an installed
//! `robotstxt-conformance` needs no checkout: [`command`] writes the one an adapter needs into
//! `<peers dir>/programs/` and says how to start it. No third-party code is in the repository:
//! [`install`] fetches the Python and npm libraries from their registries, pinned by version and
//! hash, into the peers directory; the Perl and Ruby libraries come from Debian packages, so it only
//! checks them and names the package to install.
//!
//! Layout of the peers directory:
//!
//! | path | what |
//! |---|---|
//! | `programs/` | the adapter programs and the pinned requirements, as embedded |
//! | `python/` | a virtual environment with the PyPI peers (`requirements.txt`) |
//! | `node/` | `package.json`, `package-lock.json` and the `node_modules` `npm ci` made of them |
//! | `go/`, `java/` | the Go and Java programs built at install time (`peers/compiled.rs`) |
//! | `rust/` | the Rust adapter programs' build (`cargo build --release --locked`): `target/` |

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::adapter::Unavailable;

/// The subprocess adapters we ship, in report order.
pub const SUBPROCESS_IDS: [&str; 16] = [
    "py-urllib",
    "py-protego",
    "py-robotspy",
    "py-rerp",
    "py-jwm",
    "py-gpyrobotstxt",
    "py-fast-robotstxt",
    "py-fastrobots",
    "js-robots-parser",
    "js-robots-txt-guard",
    "pl-www-robotrules",
    "rb-webrobots",
    "rs-robotparser",
    "java-crawler-commons",
    "go-temoto",
    "go-grobotstxt",
];

/// Where peers are installed unless told otherwise: `$ROBOTSTXT_PEERS_DIR`, else
/// `$XDG_CACHE_HOME/robotstxt-conformance/peers`, else `~/.cache/robotstxt-conformance/peers`.
pub fn default_peers_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_PEERS_DIR") {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("robotstxt-conformance").join("peers")
}

/// The command that installs or repairs the registry peers.
const INSTALL_FIX: &str = "robotstxt-conformance peers install";

/// A file from `adapters/programs/`, embedded: its path below `programs/` and its text.
struct Embedded {
    path: &'static str,
    text: &'static str,
}

/// Embeds `adapters/programs/<path>`.
macro_rules! embed {
    ($path:literal) => {
        Embedded {
            path: $path,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/programs/", $path)),
        }
    };
}

mod compiled;

const PY_PROTOCOL: Embedded = embed!("python/robotstxt_adapter_protocol.py");
const PY_REQUIREMENTS_BUILD: Embedded = embed!("python/requirements-build.txt");
const PY_REQUIREMENTS: Embedded = embed!("python/requirements.txt");
const NODE_PACKAGE: Embedded = embed!("node/package.json");
const NODE_LOCK: Embedded = embed!("node/package-lock.json");

/// What an adapter program needs to run.
enum Runtime {
    /// Any `python3`: the standard library only (the peers venv's interpreter when there is one).
    Python,
    /// The peers venv's `python3` with this PyPI distribution at this version.
    PythonPackage {
        distribution: &'static str,
        version: &'static str,
    },
    /// `node`, with this npm package at this version in `<peers dir>/node/node_modules`.
    Node {
        package: &'static str,
        version: &'static str,
    },
    /// `perl` with these modules, each with the Debian package that provides it.
    Perl(&'static [(&'static str, &'static str)]),
    /// `ruby` with these libraries, each with the Debian package that provides it.
    Ruby(&'static [(&'static str, &'static str)]),
    /// A program compiled at install time (Go, Java): its files are the toolchain's own.
    Compiled(compiled::Toolchain),
    /// A Rust program of its own (files: `Cargo.toml`, `Cargo.lock`, `src/main.rs`), built by
    /// [`install`] with `cargo build --release --locked` outside the workspace: its binary,
    /// `<peers dir>/rust/target/release/<binary>`, is the command.
    Cargo { binary: &'static str },
}

/// One shipped adapter program: its id, its runtime and its files (the program first).
struct Program {
    id: &'static str,
    runtime: Runtime,
    files: &'static [Embedded],
}

/// The Perl modules `pl_www_robotrules.pl` loads, with their Debian packages.
const PERL_MODULES: &[(&str, &str)] = &[
    ("WWW::RobotRules", "libwww-robotrules-perl"),
    ("URI", "liburi-perl"),
    ("JSON::PP", "perl"),
    ("MIME::Base64", "perl"),
];

/// The Ruby libraries `rb_webrobots.rb` loads, with their Debian packages.
const RUBY_LIBRARIES: &[(&str, &str)] = &[
    ("webrobots", "ruby-webrobots"),
    ("json", "ruby"),
    ("base64", "ruby"),
];

/// The files of `rs-robotparser`: a cargo project of its own (`rust/robotparser/`).
const RS_ROBOTPARSER_FILES: &[Embedded] = &[
    embed!("rust/robotparser/Cargo.toml"),
    embed!("rust/robotparser/Cargo.lock"),
    embed!("rust/robotparser/src/main.rs"),
];

/// Every shipped program, in [`SUBPROCESS_IDS`] order.
const PROGRAMS: [Program; 16] = [
    Program {
        id: "py-urllib",
        runtime: Runtime::Python,
        files: &[embed!("python/py_urllib.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-protego",
        runtime: Runtime::PythonPackage {
            distribution: "protego",
            version: "0.7.0",
        },
        files: &[embed!("python/py_protego.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-robotspy",
        runtime: Runtime::PythonPackage {
            distribution: "robotspy",
            version: "0.13.0",
        },
        files: &[embed!("python/py_robotspy.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-rerp",
        runtime: Runtime::PythonPackage {
            distribution: "robotexclusionrulesparser",
            version: "1.7.1",
        },
        files: &[embed!("python/py_rerp.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-jwm",
        runtime: Runtime::PythonPackage {
            distribution: "jwm.robotstxt",
            version: "1.0.8",
        },
        files: &[embed!("python/py_jwm.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-gpyrobotstxt",
        runtime: Runtime::PythonPackage {
            distribution: "gpyrobotstxt",
            version: "1.0.0",
        },
        files: &[embed!("python/py_gpyrobotstxt.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-fast-robotstxt",
        runtime: Runtime::PythonPackage {
            distribution: "fast-robotstxt",
            version: "1.1.0",
        },
        files: &[embed!("python/py_fast_robotstxt.py"), PY_PROTOCOL],
    },
    Program {
        id: "py-fastrobots",
        runtime: Runtime::PythonPackage {
            distribution: "fastrobots",
            version: "0.3.0",
        },
        files: &[embed!("python/py_fastrobots.py"), PY_PROTOCOL],
    },
    Program {
        id: "js-robots-parser",
        runtime: Runtime::Node {
            package: "robots-parser",
            version: "3.0.1",
        },
        files: &[embed!("node/js_robots_parser.js")],
    },
    Program {
        id: "js-robots-txt-guard",
        runtime: Runtime::Node {
            package: "robots-txt-guard",
            version: "1.0.2",
        },
        files: &[embed!("node/js_robots_txt_guard.js")],
    },
    Program {
        id: "pl-www-robotrules",
        runtime: Runtime::Perl(PERL_MODULES),
        files: &[embed!("perl/pl_www_robotrules.pl")],
    },
    Program {
        id: "rb-webrobots",
        runtime: Runtime::Ruby(RUBY_LIBRARIES),
        files: &[embed!("ruby/rb_webrobots.rb")],
    },
    Program {
        id: "rs-robotparser",
        runtime: Runtime::Cargo {
            binary: "rs-robotparser-adapter",
        },
        files: RS_ROBOTPARSER_FILES,
    },
    Program {
        id: "java-crawler-commons",
        runtime: Runtime::Compiled(compiled::Toolchain::Java),
        files: &[],
    },
    Program {
        id: "go-temoto",
        runtime: Runtime::Compiled(compiled::Toolchain::Go { package: "temoto" }),
        files: &[],
    },
    Program {
        id: "go-grobotstxt",
        runtime: Runtime::Compiled(compiled::Toolchain::Go {
            package: "grobotstxt",
        }),
        files: &[],
    },
];

/// The command line (program and arguments) that starts adapter `id`, with its program file
/// written into `peers_dir`; unavailable when its runtime or library is missing.
pub fn command(id: &str, peers_dir: &Path) -> Result<Vec<String>, Unavailable> {
    let unavailable = |(reason, fix): (String, String)| Unavailable {
        id: id.to_string(),
        reason,
        fix,
    };
    let program = PROGRAMS.iter().find(|p| p.id == id).ok_or_else(|| {
        unavailable((
            "not a subprocess adapter we ship".to_string(),
            format!("use one of: {}", SUBPROCESS_IDS.join(", ")),
        ))
    })?;
    if let Runtime::Compiled(toolchain) = program.runtime {
        return compiled::command(toolchain, id, peers_dir).map_err(unavailable);
    }
    if let Runtime::Cargo { binary } = program.runtime {
        let built = cargo_binary(program.files, binary, peers_dir).map_err(unavailable)?;
        return Ok(vec![built.display().to_string()]);
    }
    let mut argv = interpreter(&program.runtime, peers_dir).map_err(unavailable)?;
    let main = write_programs(peers_dir, program.files).map_err(unavailable)?;
    argv.push(main.display().to_string());
    if let Runtime::Node { .. } = program.runtime {
        argv.push(node_dir(peers_dir).display().to_string());
    }
    Ok(argv)
}

/// The variables of this process's environment to remove from adapter `id`'s: for the Python
/// programs, every `PYTHON*` variable (what `python3 -E` would ignore), so that a caller's
/// PYTHONPATH or PYTHONHOME cannot change the pinned packages; none for the others.
pub fn unset_variables(id: &str) -> Vec<String> {
    if let Some(Runtime::Compiled(toolchain)) =
        PROGRAMS.iter().find(|p| p.id == id).map(|p| &p.runtime)
    {
        return compiled::unset_variables(*toolchain);
    }
    let python = PROGRAMS.iter().any(|p| {
        p.id == id && matches!(p.runtime, Runtime::Python | Runtime::PythonPackage { .. })
    });
    if !python {
        return Vec::new();
    }
    std::env::vars_os()
        .filter_map(|(name, _)| name.into_string().ok())
        .filter(|name| name.starts_with("PYTHON"))
        .collect()
}

/// A reason something is missing, and the command that fixes it.
type Missing = (String, String);

/// The interpreter and its options for `runtime`, after checking that the runtime and the library
/// are there (by looking for files, except for Perl and Ruby, which are asked once).
fn interpreter(runtime: &Runtime, peers_dir: &Path) -> Result<Vec<String>, Missing> {
    // -s: no user site. The caller's PYTHON* variables are removed from the process's environment
    // instead of ignored with -E ([`unset_variables`]), so that no PYTHONPATH shadows the pinned
    // packages while the suite can still set PYTHONHASHSEED.
    let python = |path: PathBuf| vec![path.display().to_string(), "-s".into()];
    match runtime {
        Runtime::Python => {
            let venv = venv_python(peers_dir);
            if venv.exists() {
                return Ok(python(venv));
            }
            find_on_path("python3").map(python).ok_or_else(|| {
                (
                    "python3 is not on PATH".to_string(),
                    "apt-get install python3 python3-venv".to_string(),
                )
            })
        }
        Runtime::PythonPackage {
            distribution,
            version,
        } => {
            let venv = venv_python(peers_dir);
            if !venv.exists() {
                return Err((
                    format!("the peers Python environment {} is missing", venv.display()),
                    INSTALL_FIX.to_string(),
                ));
            }
            if !python_package_installed(&python_dir(peers_dir), distribution, version) {
                return Err((
                    format!(
                        "{distribution}=={version} is not installed in {}",
                        python_dir(peers_dir).display()
                    ),
                    INSTALL_FIX.to_string(),
                ));
            }
            Ok(python(venv))
        }
        Runtime::Node { package, version } => {
            let node = find_on_path("node").ok_or_else(|| {
                (
                    "node is not on PATH".to_string(),
                    "apt-get install nodejs npm".to_string(),
                )
            })?;
            if !npm_package_installed(peers_dir, package, version) {
                return Err((
                    format!(
                        "{package}@{version} is not installed in {}",
                        node_dir(peers_dir).join("node_modules").display()
                    ),
                    INSTALL_FIX.to_string(),
                ));
            }
            Ok(vec![node.display().to_string()])
        }
        Runtime::Perl(modules) => {
            let perl = find_on_path("perl").ok_or_else(|| {
                (
                    "perl is not on PATH".to_string(),
                    "apt-get install perl".to_string(),
                )
            })?;
            let missing = missing_perl_modules(&perl, modules);
            if !missing.is_empty() {
                return Err(missing_libraries("Perl module", &missing));
            }
            Ok(vec![perl.display().to_string()])
        }
        Runtime::Ruby(libraries) => {
            let ruby = find_on_path("ruby").ok_or_else(|| {
                (
                    "ruby is not on PATH".to_string(),
                    "apt-get install ruby".to_string(),
                )
            })?;
            let missing = missing_ruby_libraries(&ruby, libraries);
            if !missing.is_empty() {
                return Err(missing_libraries("Ruby library", &missing));
            }
            Ok(vec![ruby.display().to_string()])
        }
        Runtime::Compiled(_) => Err((
            "a compiled program has no interpreter".to_string(),
            String::new(),
        )),
        // A built program is its own interpreter: [`command`] runs its binary.
        Runtime::Cargo { .. } => Ok(Vec::new()),
    }
}

/// `<peers_dir>/rust`, where the Rust adapter programs are built.
fn rust_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("rust")
}

/// The stamp recording which sources a Rust program's binary was built from: their texts,
/// verbatim, written after a successful build.
fn cargo_stamp(peers_dir: &Path, binary: &str) -> PathBuf {
    rust_dir(peers_dir).join(format!("{binary}.built-from.txt"))
}

/// The stamp's expected contents: every embedded file's path and text.
fn cargo_stamp_text(files: &[Embedded]) -> String {
    files
        .iter()
        .map(|f| format!("== {}\n{}", f.path, f.text))
        .collect()
}

/// The binary of a Rust program, when [`install`] built it from exactly these sources.
fn cargo_binary(files: &[Embedded], binary: &str, peers_dir: &Path) -> Result<PathBuf, Missing> {
    let built = rust_dir(peers_dir)
        .join("target")
        .join("release")
        .join(binary);
    let current = std::fs::read_to_string(cargo_stamp(peers_dir, binary))
        .is_ok_and(|stamp| stamp == cargo_stamp_text(files));
    if !is_executable(&built) || !current {
        return Err((
            format!(
                "{} is not built from this version's sources",
                built.display()
            ),
            INSTALL_FIX.to_string(),
        ));
    }
    Ok(built)
}

/// The reason and fix for missing Debian-packaged libraries (`(name, package)` pairs).
fn missing_libraries(kind: &str, missing: &[(&str, &str)]) -> Missing {
    let names: Vec<&str> = missing.iter().map(|(name, _)| *name).collect();
    let mut packages: Vec<&str> = missing.iter().map(|(_, package)| *package).collect();
    packages.dedup();
    (
        format!("{kind} {} is not installed", names.join(", ")),
        format!("apt-get install {}", packages.join(" ")),
    )
}

/// Writes `files` below `<peers_dir>/programs/` (each only when its contents differ) and returns
/// the path of the first, the program to run.
fn write_programs(peers_dir: &Path, files: &[Embedded]) -> Result<PathBuf, Missing> {
    let mut paths = Vec::new();
    for file in files {
        let path = programs_dir(peers_dir).join(file.path);
        write_if_changed(&path, file.text).map_err(|e| {
            (
                format!("cannot write {}: {e}", path.display()),
                "make the peers directory writable, or choose another with ROBOTSTXT_PEERS_DIR"
                    .to_string(),
            )
        })?;
        paths.push(path);
    }
    Ok(paths.swap_remove(0))
}

/// Writes `text` to `path` unless it already holds exactly that, creating its directory. The new
/// file is written aside and renamed into place, so a concurrent reader never sees half of it.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let aside = path.with_extension(format!(
        "tmp.{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&aside, text)?;
    std::fs::rename(&aside, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&aside);
    })
}

/// `<peers_dir>/programs`.
fn programs_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("programs")
}

/// `<peers_dir>/python`, the virtual environment.
fn python_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("python")
}

/// `<peers_dir>/node`, where `npm ci` runs.
fn node_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("node")
}

/// The interpreter of the peers virtual environment.
fn venv_python(peers_dir: &Path) -> PathBuf {
    if cfg!(windows) {
        python_dir(peers_dir).join("Scripts").join("python.exe")
    } else {
        python_dir(peers_dir).join("bin").join("python3")
    }
}

/// Whether the virtual environment at `venv` holds `distribution` at exactly `version`: its
/// `<name>-<version>.dist-info` directory exists (names compared as PyPI normalises them).
fn python_package_installed(venv: &Path, distribution: &str, version: &str) -> bool {
    let wanted = normalise_distribution(distribution);
    site_packages(venv).iter().any(|dir| {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".dist-info")
                    .and_then(|stem| stem.rsplit_once('-'))
                    .is_some_and(|(name, v)| normalise_distribution(name) == wanted && v == version)
            })
    })
}

/// A distribution name as PyPI compares them: lower case, runs of `-`, `_` and `.` as one `-`.
fn normalise_distribution(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// The site-packages directories of the virtual environment at `venv`.
fn site_packages(venv: &Path) -> Vec<PathBuf> {
    if cfg!(windows) {
        return vec![venv.join("Lib").join("site-packages")];
    }
    std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
        .map(|e| e.path().join("site-packages"))
        .collect()
}

/// Whether `<peers_dir>/node/node_modules/<package>` is installed at exactly `version`.
fn npm_package_installed(peers_dir: &Path, package: &str, version: &str) -> bool {
    let manifest = node_dir(peers_dir)
        .join("node_modules")
        .join(package)
        .join("package.json");
    std::fs::read(manifest)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .is_some_and(|json| json["version"] == version)
}

/// The modules (with their Debian packages) that `perl` cannot load; asks perl once.
fn missing_perl_modules<'a>(
    perl: &Path,
    modules: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut args: Vec<String> = modules.iter().map(|(m, _)| format!("-M{m}")).collect();
    args.push("-e1".to_string());
    match run(Command::new(perl).args(&args)) {
        Ok(_) => Vec::new(),
        Err(failure) => {
            let missing: Vec<_> = modules
                .iter()
                .filter(|(m, _)| failure.contains(&format!("{}.pm", m.replace("::", "/"))))
                .copied()
                .collect();
            if missing.is_empty() {
                modules.to_vec()
            } else {
                missing
            }
        }
    }
}

/// The libraries (with their Debian packages) that `ruby` cannot require; asks ruby once.
fn missing_ruby_libraries<'a>(
    ruby: &Path,
    libraries: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut args: Vec<String> = libraries.iter().map(|(l, _)| format!("-r{l}")).collect();
    args.extend(["-e".to_string(), "nil".to_string()]);
    match run(Command::new(ruby).args(&args)) {
        Ok(_) => Vec::new(),
        Err(failure) => {
            let missing: Vec<_> = libraries
                .iter()
                .filter(|(l, _)| failure.contains(&format!("-- {l}")))
                .copied()
                .collect();
            if missing.is_empty() {
                libraries.to_vec()
            } else {
                missing
            }
        }
    }
}

/// The first executable file named `program` in a `PATH` directory.
fn find_on_path(program: &str) -> Option<PathBuf> {
    let names = if cfg!(windows) {
        vec![format!("{program}.exe"), program.to_string()]
    } else {
        vec![program.to_string()]
    };
    std::env::split_paths(&std::env::var_os("PATH")?)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|path| is_executable(path))
}

/// Whether `path` is a file this user may execute.
fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Runs `command` to completion with no input; its combined output on success, else a short
/// description of the failure (exit status and the last lines it printed).
fn run(command: &mut Command) -> Result<String, String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if output.status.success() {
        return Ok(text);
    }
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().chars().take(300).collect())
        .collect();
    let tail = lines[lines.len().saturating_sub(4)..].join(" | ");
    Err(format!("{} ({tail})", output.status))
}

/// What [`install`] did and found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstallReport {
    /// One step per runtime: the Python environment and its packages, the npm packages, the Perl
    /// and Ruby libraries, the Go and Java builds.
    pub runtimes: Vec<Step>,
    /// Each shipped adapter afterwards, in [`SUBPROCESS_IDS`] order: ready, or what is missing.
    pub adapters: Vec<Step>,
}

impl InstallReport {
    /// Whether every runtime and every adapter is ready.
    pub fn is_complete(&self) -> bool {
        self.runtimes
            .iter()
            .chain(&self.adapters)
            .all(|step| !matches!(step.outcome, Outcome::Missing { .. }))
    }

    /// Whether this run installed anything (false when everything was already present).
    pub fn installed_anything(&self) -> bool {
        self.runtimes
            .iter()
            .any(|step| step.outcome == Outcome::Installed)
    }
}

/// One line of an [`InstallReport`]: what was looked at, and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The runtime (`python`, `node`, `perl`, `ruby`, `go`, `java`) or the adapter id.
    pub name: String,
    /// What was done or found.
    pub outcome: Outcome,
}

/// What [`install`] did about one runtime or adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Installed by this run.
    Installed,
    /// Already there at the pinned version: nothing was done.
    AlreadyPresent,
    /// Not there, and not installable by us: what is missing and the command that fixes it.
    Missing {
        /// What is missing.
        reason: String,
        /// The command to run.
        fix: String,
    },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.outcome {
            Outcome::Installed => write!(f, "{}: installed", self.name),
            Outcome::AlreadyPresent => write!(f, "{}: already present", self.name),
            Outcome::Missing { reason, fix } => {
                write!(f, "{}: MISSING: {reason} (fix: {fix})", self.name)
            }
        }
    }
}

/// Installs the registry peers into `peers_dir` and checks the system ones, printing progress to
/// `out`: a virtual environment with the PyPI packages of `requirements.txt` (pinned by version and
/// sha256), the npm packages of `package-lock.json` (pinned by integrity hash), a check of the
/// Debian-packaged Perl and Ruby libraries, and the Go and Java programs built against pinned modules
/// and jars (`peers/compiled.rs`). Idempotent: when everything is already installed at
/// the pinned versions it does nothing and needs no network. A missing tool is a [`Outcome::Missing`]
/// line with its fix, never an error; the error is only for failing to write to `out`.
pub fn install(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<InstallReport> {
    writeln!(out, "peers directory: {}", peers_dir.display())?;
    let mut report = InstallReport::default();
    for (name, step) in [
        ("python", install_python as RuntimeStep),
        ("node", install_node),
        ("perl", check_perl),
        ("ruby", check_ruby),
        ("go", compiled::install_go),
        ("java", compiled::install_java),
        ("rust", install_rust),
    ] {
        let outcome = step(peers_dir, out)?;
        let step = Step {
            name: name.to_string(),
            outcome,
        };
        writeln!(out, "{step}")?;
        report.runtimes.push(step);
    }
    for program in &PROGRAMS {
        let outcome = match command(program.id, peers_dir) {
            Err(unavailable) => Outcome::Missing {
                reason: unavailable.reason,
                fix: unavailable.fix,
            },
            Ok(_)
                if report.runtimes[runtime_index(&program.runtime)].outcome
                    == Outcome::Installed =>
            {
                Outcome::Installed
            }
            Ok(_) => Outcome::AlreadyPresent,
        };
        let step = Step {
            name: program.id.to_string(),
            outcome,
        };
        writeln!(out, "  {step}")?;
        report.adapters.push(step);
    }
    Ok(report)
}

/// One runtime's part of [`install`].
type RuntimeStep = fn(&Path, &mut dyn Write) -> std::io::Result<Outcome>;

/// The index in [`InstallReport::runtimes`] of the step that provides `runtime`.
fn runtime_index(runtime: &Runtime) -> usize {
    match runtime {
        Runtime::Python | Runtime::PythonPackage { .. } => 0,
        Runtime::Node { .. } => 1,
        Runtime::Perl(_) => 2,
        Runtime::Ruby(_) => 3,
        Runtime::Compiled(compiled::Toolchain::Go { .. }) => 4,
        Runtime::Compiled(compiled::Toolchain::Java) => 5,
        Runtime::Cargo { .. } => 6,
    }
}

/// The file recording what the peers environment was installed from: the embedded requirements
/// files, verbatim. Written last, so an interrupted install is retried.
fn python_stamp(peers_dir: &Path) -> PathBuf {
    python_dir(peers_dir).join("robotstxt-conformance-installed.txt")
}

/// The stamp's expected contents.
fn python_stamp_text() -> String {
    format!("{}\n{}", PY_REQUIREMENTS_BUILD.text, PY_REQUIREMENTS.text)
}

/// Makes the peers virtual environment and installs `requirements.txt` into it, unless the stamp
/// says it is already done.
fn install_python(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<Outcome> {
    let stamp = python_stamp(peers_dir);
    if venv_python(peers_dir).exists()
        && std::fs::read_to_string(&stamp).is_ok_and(|s| s == python_stamp_text())
    {
        return Ok(Outcome::AlreadyPresent);
    }
    let Some(python3) = find_on_path("python3") else {
        return Ok(Outcome::Missing {
            reason: "python3 is not on PATH".to_string(),
            fix: "apt-get install python3 python3-venv".to_string(),
        });
    };
    if !venv_python(peers_dir).exists() {
        writeln!(
            out,
            "python: creating a virtual environment at {}",
            python_dir(peers_dir).display()
        )?;
        if let Err(failure) = run(Command::new(&python3)
            .args(["-m", "venv", "--clear"])
            .arg(python_dir(peers_dir)))
        {
            return Ok(Outcome::Missing {
                reason: format!("`python3 -m venv` failed: {failure}"),
                fix: "apt-get install python3-venv".to_string(),
            });
        }
    }
    let mut pinned = Vec::new();
    for file in [&PY_REQUIREMENTS_BUILD, &PY_REQUIREMENTS] {
        let path = programs_dir(peers_dir).join(file.path);
        if let Err(e) = write_if_changed(&path, file.text) {
            return Ok(Outcome::Missing {
                reason: format!("cannot write {}: {e}", path.display()),
                fix: "make the peers directory writable".to_string(),
            });
        }
        pinned.push(path);
    }
    // Step 1 installs the build backend; step 2 builds the one sdist with it, so that no unpinned
    // build dependency is ever fetched.
    for (requirements, extra) in [
        (&pinned[0], None),
        (&pinned[1], Some("--no-build-isolation")),
    ] {
        writeln!(
            out,
            "python: pip install --require-hashes -r {} (from PyPI)",
            requirements.display()
        )?;
        let mut pip = Command::new(venv_python(peers_dir));
        pip.args([
            "-m",
            "pip",
            "install",
            "--no-input",
            "--disable-pip-version-check",
        ])
        .args(["--require-hashes", "--no-deps"])
        .args(extra)
        .arg("-r")
        .arg(requirements);
        // The environment's own scripts first: maturin (step 1) builds fastrobots in step 2 by
        // running the `maturin` executable it installed there.
        if let (Some(bin), Some(path)) = (venv_python(peers_dir).parent(), std::env::var_os("PATH"))
        {
            let dirs = std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&path));
            if let Ok(joined) = std::env::join_paths(dirs) {
                pip.env("PATH", joined);
            }
        }
        if let Err(failure) = run(&mut pip) {
            return Ok(Outcome::Missing {
                reason: format!("pip install failed: {failure}"),
                fix: format!("make PyPI reachable (or set PIP_INDEX_URL), then {INSTALL_FIX}"),
            });
        }
    }
    match write_if_changed(&stamp, &python_stamp_text()) {
        Ok(()) => Ok(Outcome::Installed),
        Err(e) => Ok(Outcome::Missing {
            reason: format!("cannot write {}: {e}", stamp.display()),
            fix: "make the peers directory writable".to_string(),
        }),
    }
}

/// The file recording which lock file `npm ci` installed: a verbatim copy, written last.
fn node_stamp(peers_dir: &Path) -> PathBuf {
    node_dir(peers_dir).join("robotstxt-conformance-installed.json")
}

/// Copies `package.json` and `package-lock.json` into the peers node directory and runs `npm ci`
/// there, unless the stamp says it is already done.
fn install_node(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<Outcome> {
    let stamp = node_stamp(peers_dir);
    let installed = PROGRAMS.iter().all(|p| match p.runtime {
        Runtime::Node { package, version } => npm_package_installed(peers_dir, package, version),
        _ => true,
    });
    if installed && std::fs::read_to_string(&stamp).is_ok_and(|s| s == NODE_LOCK.text) {
        return Ok(Outcome::AlreadyPresent);
    }
    let missing: Vec<&str> = ["node", "npm"]
        .into_iter()
        .filter(|program| find_on_path(program).is_none())
        .collect();
    let npm = match find_on_path("npm") {
        Some(npm) if missing.is_empty() => npm,
        _ => {
            return Ok(Outcome::Missing {
                reason: format!("{} not on PATH", missing.join(" and ")),
                fix: "apt-get install nodejs npm".to_string(),
            })
        }
    };
    for (file, name) in [
        (&NODE_PACKAGE, "package.json"),
        (&NODE_LOCK, "package-lock.json"),
    ] {
        let path = node_dir(peers_dir).join(name);
        if let Err(e) = write_if_changed(&path, file.text) {
            return Ok(Outcome::Missing {
                reason: format!("cannot write {}: {e}", path.display()),
                fix: "make the peers directory writable".to_string(),
            });
        }
    }
    writeln!(
        out,
        "node: npm ci --ignore-scripts in {} (from the npm registry)",
        node_dir(peers_dir).display()
    )?;
    let mut npm_ci = Command::new(npm);
    npm_ci
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .current_dir(node_dir(peers_dir));
    if let Err(failure) = run(&mut npm_ci) {
        return Ok(Outcome::Missing {
            reason: format!("npm ci failed: {failure}"),
            fix: format!("make the npm registry reachable, then {INSTALL_FIX}"),
        });
    }
    match write_if_changed(&stamp, NODE_LOCK.text) {
        Ok(()) => Ok(Outcome::Installed),
        Err(e) => Ok(Outcome::Missing {
            reason: format!("cannot write {}: {e}", stamp.display()),
            fix: "make the peers directory writable".to_string(),
        }),
    }
}

/// Builds each Rust adapter program whose binary is missing or was built from other sources:
/// writes its files below `<peers dir>/programs/` and runs `cargo build --release --locked` there,
/// with `<peers dir>/rust/target` as the target directory (crates from crates.io, as its committed
/// Cargo.lock pins them).
fn install_rust(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<Outcome> {
    let mut outcome = Outcome::AlreadyPresent;
    for program in &PROGRAMS {
        let Runtime::Cargo { binary } = program.runtime else {
            continue;
        };
        if cargo_binary(program.files, binary, peers_dir).is_ok() {
            continue;
        }
        let Some(cargo) = find_on_path("cargo") else {
            return Ok(Outcome::Missing {
                reason: "cargo is not on PATH".to_string(),
                fix: "install Rust (rustup)".to_string(),
            });
        };
        let manifest = match write_programs(peers_dir, program.files) {
            Ok(manifest) => manifest,
            Err((reason, fix)) => return Ok(Outcome::Missing { reason, fix }),
        };
        writeln!(
            out,
            "rust: cargo build --release --locked --manifest-path {} (from crates.io)",
            manifest.display()
        )?;
        let mut build = Command::new(cargo);
        build
            .args([
                "build",
                "--release",
                "--locked",
                "--quiet",
                "--manifest-path",
            ])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", rust_dir(peers_dir).join("target"));
        if let Err(failure) = run(&mut build) {
            return Ok(Outcome::Missing {
                reason: format!("cargo build of {} failed: {failure}", program.id),
                fix: format!(
                    "apt-get install libssl-dev pkg-config, make crates.io reachable, then {INSTALL_FIX}"
                ),
            });
        }
        let stamp = cargo_stamp(peers_dir, binary);
        if let Err(e) = write_if_changed(&stamp, &cargo_stamp_text(program.files)) {
            return Ok(Outcome::Missing {
                reason: format!("cannot write {}: {e}", stamp.display()),
                fix: "make the peers directory writable".to_string(),
            });
        }
        outcome = Outcome::Installed;
    }
    Ok(outcome)
}

/// Checks that perl can load the modules `pl-www-robotrules` needs (Debian packages: not ours to
/// install).
fn check_perl(_peers_dir: &Path, _out: &mut dyn Write) -> std::io::Result<Outcome> {
    Ok(debian_runtime(&Runtime::Perl(PERL_MODULES)))
}

/// Checks that ruby can load the libraries `rb-webrobots` needs (Debian packages: not ours to
/// install).
fn check_ruby(_peers_dir: &Path, _out: &mut dyn Write) -> std::io::Result<Outcome> {
    Ok(debian_runtime(&Runtime::Ruby(RUBY_LIBRARIES)))
}

/// Present, or missing with the apt-get command, for a runtime whose libraries Debian provides.
fn debian_runtime(runtime: &Runtime) -> Outcome {
    match interpreter(runtime, Path::new("")) {
        Ok(_) => Outcome::AlreadyPresent,
        Err((reason, fix)) => Outcome::Missing { reason, fix },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_follow_the_subprocess_ids() {
        let ids: Vec<&str> = PROGRAMS.iter().map(|p| p.id).collect();
        assert_eq!(ids, SUBPROCESS_IDS);
    }

    #[test]
    fn pinned_versions_agree_with_the_requirements_and_the_lock() {
        for program in &PROGRAMS {
            match program.runtime {
                Runtime::PythonPackage {
                    distribution,
                    version,
                } => assert!(
                    PY_REQUIREMENTS
                        .text
                        .contains(&format!("\n{distribution}=={version} \\")),
                    "{distribution}=={version} is not pinned in requirements.txt"
                ),
                Runtime::Node { package, version } => {
                    let lock: serde_json::Value = serde_json::from_str(NODE_LOCK.text).unwrap();
                    assert_eq!(
                        lock["packages"][format!("node_modules/{package}")]["version"],
                        version
                    );
                    assert!(
                        lock["packages"][format!("node_modules/{package}")]["integrity"]
                            .as_str()
                            .is_some_and(|i| i.starts_with("sha512-"))
                    );
                }
                _ => {}
            }
        }
    }

    #[test]
    fn every_pinned_python_requirement_has_a_hash() {
        for text in [PY_REQUIREMENTS.text, PY_REQUIREMENTS_BUILD.text] {
            let joined = text.replace("\\\n", " ");
            for line in joined.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') || line.starts_with("--") {
                    continue;
                }
                assert!(line.contains("=="), "not pinned: {line}");
                assert!(line.contains("--hash=sha256:"), "no hash: {line}");
            }
        }
    }

    #[test]
    fn distribution_names_normalise_like_pypi() {
        assert_eq!(normalise_distribution("jwm.robotstxt"), "jwm-robotstxt");
        assert_eq!(normalise_distribution("Jwm__Robotstxt"), "jwm-robotstxt");
        assert_eq!(normalise_distribution("Protego"), "protego");
    }

    #[test]
    fn an_unknown_id_is_unavailable() {
        let err = command("py-nothing", Path::new("/nonexistent")).unwrap_err();
        assert_eq!(err.id, "py-nothing");
    }
}
