//! `site`: the static site (`site/src/`, `docs/site.md`) from a `run` result directory and a
//! `realworld` result directory (running those commands first when not given). The playground's
//! two WebAssembly modules (the oracle and the Rust parsers) are built with cargo here, in their
//! own target directory (`target/playground`), unless `--wasm` and `--peers-wasm` give them.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use robotstxt_matrix::ledger::{self, Ledger};
use robotstxt_matrix::results::Results;
use robotstxt_realworld::tally::Results as RealWorld;
use robotstxt_site::{self as site, Inputs};

use super::options::CasesDir;

/// The `site` command's options.
#[derive(Args)]
pub struct SiteArgs {
    #[command(flatten)]
    pub corpus: CasesDir,
    /// Write the site here (created if needed).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// A `run --out` directory (its results.json), or a results.json file; default: run `run`
    /// now (every available adapter) into `<out>.inputs/run`.
    #[arg(long, value_name = "DIR|FILE")]
    pub run: Option<PathBuf>,
    /// A `realworld --out` directory (its realworld.json), or a realworld.json file; default: run
    /// `realworld` now (the protego data, every available adapter) into `<out>.inputs/realworld`.
    #[arg(long, value_name = "DIR|FILE")]
    pub realworld: Option<PathBuf>,
    /// The playground's module, already built (`cargo build --release --target
    /// wasm32-unknown-unknown -p robotstxt-playground`); default: build it now with cargo.
    #[arg(long, value_name = "FILE", requires = "peers_wasm")]
    pub wasm: Option<PathBuf>,
    /// The Rust parsers' module for the playground, already built (`cargo build --release
    /// --target wasm32-unknown-unknown -p robotstxt-rust-peers`); given with --wasm.
    #[arg(long, value_name = "FILE", requires = "wasm")]
    pub peers_wasm: Option<PathBuf>,
}

/// Runs `site`.
pub fn run(args: &SiteArgs) -> Result<ExitCode, String> {
    let corpus = args.corpus.load()?;
    let started = Instant::now();
    let run_dir = match &args.run {
        Some(dir) => dir.clone(),
        None => run_itself(&args.out, "run")?,
    };
    let realworld_dir = match &args.realworld {
        Some(dir) => dir.clone(),
        None => run_itself(&args.out, "realworld")?,
    };
    let results_file = in_dir(&run_dir, "results.json");
    let results: Results = read_json(&results_file)?;
    let realworld: RealWorld = read_json(&in_dir(&realworld_dir, "realworld.json"))?;
    let run_date = std::fs::metadata(&results_file)
        .and_then(|m| m.modified())
        .map(date_of)
        .unwrap_or_else(|_| "an unknown date".to_string());
    let (wasm_file, peers_file) = match (&args.wasm, &args.peers_wasm) {
        (Some(wasm), Some(peers)) => (wasm.clone(), peers.clone()),
        _ => build_wasm()?,
    };
    let read = |file: &Path| {
        std::fs::read(file).map_err(|e| {
            format!(
                "cannot read the playground's module {}: {e}",
                file.display()
            )
        })
    };
    let wasm = read(&wasm_file)?;
    let peers_wasm = read(&peers_file)?;
    let mut ledgers = std::collections::BTreeMap::new();
    for column in &results.adapters {
        let id = &column.identity.id;
        if let Ok(ledger) = Ledger::load(&ledger::default_dir(), id) {
            ledgers.insert(id.clone(), ledger);
        }
    }
    let inputs = Inputs {
        results,
        run_date,
        realworld,
        corpus,
        ledgers,
        wasm,
        peers_wasm,
    };
    let built = site::build(&inputs);
    built
        .write(&args.out)
        .map_err(|e| format!("cannot write the site to {}: {e}", args.out.display()))?;
    println!(
        "site: {} pages, {} files, {:.1} MB in {} ({:.1} s); open {}",
        built.pages(),
        built.files.len(),
        built.bytes() as f64 / 1e6,
        args.out.display(),
        started.elapsed().as_secs_f64(),
        args.out.join("index.html").display(),
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs this program's `command` (`run` or `realworld`) with `--out <out>.inputs/<command>`, its
/// report on standard error; the directory.
fn run_itself(out: &Path, command: &str) -> Result<PathBuf, String> {
    let mut dir = out.as_os_str().to_owned();
    dir.push(".inputs");
    let dir = PathBuf::from(dir).join(command);
    eprintln!("site: running `{command} --out {}` first", dir.display());
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let status = Command::new(exe)
        .arg(command)
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run `{command}`: {e}"))?;
    // `run` exits 1 when a ledger is contradicted; its results are written all the same.
    if !dir.is_dir() {
        return Err(format!("`{command}` failed ({status}) and wrote nothing"));
    }
    Ok(dir)
}

/// `path` itself when it is a file, else `path/name`.
fn in_dir(path: &Path, name: &str) -> PathBuf {
    if path.is_dir() {
        path.join(name)
    } else {
        path.to_path_buf()
    }
}

fn read_json<T: serde::de::DeserializeOwned>(file: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// Builds the playground's two modules with cargo (the oracle, `robotstxt-playground`, and the
/// Rust parsers, `robotstxt-rust-peers`), from this program's source tree, in their own target
/// directory (so it never waits on the lock of the build that runs this program), optimised for
/// size and without symbol names; their paths.
fn build_wasm() -> Result<(PathBuf, PathBuf), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("playground");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args([
            "build",
            "--quiet",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .args(["-p", "robotstxt-playground", "-p", "robotstxt-rust-peers"])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "s")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        // The published modules are built one way wherever they are built (CI lightens the
        // release profile for its own binary through these variables).
        .env("CARGO_PROFILE_RELEASE_LTO", "fat")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .status()
        .map_err(|e| format!("cannot run cargo to build the playground's modules: {e}"))?;
    if !status.success() {
        return Err(
            "building the playground's modules failed: it needs the wasm32-unknown-unknown \
target (`rustup target add wasm32-unknown-unknown`); or give them built with --wasm FILE \
--peers-wasm FILE"
                .to_string(),
        );
    }
    let out = target.join("wasm32-unknown-unknown/release");
    Ok((
        out.join("robotstxt_playground.wasm"),
        out.join("robotstxt_rust_peers.wasm"),
    ))
}

/// A file time as a UTC date, `2026-11-25`.
fn date_of(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_of(UNIX_EPOCH), "1970-01-01");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_764_028_800);
        assert_eq!(date_of(t), "2025-11-25");
    }
}
