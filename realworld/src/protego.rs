//! Scrapy's protego test data: 4,231 robots.txt files fetched from real sites in July 2019, in
//! the `tests/test_data/` directory of the `protego==0.7.0` source distribution on PyPI.
//!
//! The sdist is downloaded once with pip, verified by its size and sha256 here (not only by pip),
//! and its `tests/test_data/` is extracted into a cache directory; later uses read the cache and
//! need no network. The data is never committed: each body's text belongs to its site (the package
//! is BSD-3-Clause).
//!
//! Cache layout (`<cache>` is [`default_cache_dir`]):
//!
//! | path | what |
//! |---|---|
//! | `<cache>/protego-0.7.0.tar.gz` | the verified sdist (kept, so a damaged extraction is redone offline) |
//! | `<cache>/protego-0.7.0/test_data/` | the 4,231 files, one per host name |
//! | `<cache>/protego-0.7.0/COMPLETE` | the marker, written after every file; without it the directory is not used |
//!
//! The extraction happens in a directory of its own and is renamed into place whole, so shards
//! starting together on one machine never read a half-written cache.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

/// One pinned source distribution and the data directory inside it.
#[derive(Clone, Copy, Debug)]
pub struct Pinned {
    /// The PyPI distribution name.
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// The sdist's size in bytes.
    pub size: u64,
    /// The sdist's sha256, lower-case hex.
    pub sha256: &'static str,
    /// The data directory inside the archive, below the top-level `<name>-<version>/`.
    pub data_dir: &'static str,
    /// How many files that directory holds.
    pub files: usize,
}

/// `protego==0.7.0`, as published on PyPI.
pub const PROTEGO: Pinned = Pinned {
    name: "protego",
    version: "0.7.0",
    size: 3_144_321,
    sha256: "2c032d9736a1f4f0c4318f3558353ae34da5cd038f1a5e064ded7548df315e5a",
    data_dir: "tests/test_data",
    files: 4231,
};

/// The environment variable that chooses the cache directory.
pub const CACHE_ENV: &str = "ROBOTSTXT_REALWORLD_DIR";

/// Where real-world data is cached unless told otherwise: `$ROBOTSTXT_REALWORLD_DIR`, else
/// `$XDG_CACHE_HOME/robotstxt-conformance/realworld`, else
/// `~/.cache/robotstxt-conformance/realworld` (beside the peers' cache).
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(CACHE_ENV) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("robotstxt-conformance").join("realworld")
}

/// Downloads a pinned sdist into a directory and returns the downloaded file's path.
pub type Download<'a> = &'a dyn Fn(&Pinned, &Path) -> Result<PathBuf, String>;

/// The protego data directory in the default cache, fetching it from PyPI first when it is not
/// there (or is incomplete).
pub fn data_dir() -> Result<PathBuf, String> {
    ensure(&PROTEGO, &default_cache_dir(), &pip_download)
}

impl Pinned {
    /// `<name>-<version>`.
    fn stem(&self) -> String {
        format!("{}-{}", self.name, self.version)
    }

    /// The marker's expected contents: what the directory was extracted from and how many files
    /// it holds.
    fn marker_text(&self) -> String {
        format!(
            "{} sha256 {}\n{} files in {}\n",
            self.stem(),
            self.sha256,
            self.files,
            self.data_dir
        )
    }
}

/// The data directory of `pinned` under `cache`: used as it is when its marker is there;
/// otherwise extracted from the cached sdist, or from one `download` fetches, after checking the
/// sdist's size and hash. Errors say what is wrong and what fixes it.
pub fn ensure(pinned: &Pinned, cache: &Path, download: Download) -> Result<PathBuf, String> {
    let root = cache.join(pinned.stem());
    let data = root.join("test_data");
    if is_complete(pinned, &root) {
        return Ok(data);
    }
    std::fs::create_dir_all(cache).map_err(|e| {
        format!(
            "{}: cannot create the cache directory: {e} (choose another with {CACHE_ENV})",
            cache.display()
        )
    })?;
    let sdist = cache.join(format!("{}.tar.gz", pinned.stem()));
    if verify(pinned, &sdist).is_err() {
        let staging = cache.join(format!(".download-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&staging);
        // The first run waits on PyPI for a while: say what is happening.
        eprintln!(
            "downloading the {}=={} sdist from PyPI with pip (once; cached in {})...",
            pinned.name,
            pinned.version,
            cache.display()
        );
        let fetched = download(pinned, &staging);
        let fetched = fetched.and_then(|path| {
            verify(pinned, &path)?;
            std::fs::rename(&path, &sdist)
                .map_err(|e| format!("{}: cannot move into the cache: {e}", path.display()))
        });
        let _ = std::fs::remove_dir_all(&staging);
        fetched.map_err(|e| {
            format!(
                "the {} test data is not in the cache ({}) and could not be fetched: {e}. \
                 Make PyPI reachable (pip honours PIP_INDEX_URL) and run again, or put the sdist \
                 there yourself: `pip download --no-deps --no-binary :all: {}=={} -d {}`",
                pinned.name,
                root.display(),
                pinned.name,
                pinned.version,
                cache.display()
            )
        })?;
    }
    extract(pinned, &sdist, cache)?;
    Ok(data)
}

/// Whether `root` holds a finished extraction of `pinned`.
fn is_complete(pinned: &Pinned, root: &Path) -> bool {
    std::fs::read_to_string(root.join("COMPLETE")).is_ok_and(|text| text == pinned.marker_text())
}

/// Checks the size and sha256 of the file at `path` against `pinned`.
fn verify(pinned: &Pinned, path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 != pinned.size {
        return Err(format!(
            "{}: {} bytes, expected {}",
            path.display(),
            bytes.len(),
            pinned.size
        ));
    }
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    if hex != pinned.sha256 {
        return Err(format!(
            "{}: sha256 {hex}, expected {}",
            path.display(),
            pinned.sha256
        ));
    }
    Ok(())
}

/// Extracts the data directory of the verified `sdist` into `cache/<stem>/test_data`, through a
/// staging directory renamed into place after the marker is written.
fn extract(pinned: &Pinned, sdist: &Path, cache: &Path) -> Result<(), String> {
    let root = cache.join(pinned.stem());
    let staging = cache.join(format!(".{}-{}", pinned.stem(), std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let result = extract_into(pinned, sdist, &staging.join("test_data")).and_then(|()| {
        std::fs::write(staging.join("COMPLETE"), pinned.marker_text())
            .map_err(|e| format!("{}: {e}", staging.display()))?;
        if root.exists() && !is_complete(pinned, &root) {
            // An older, unfinished extraction: replaced whole.
            std::fs::remove_dir_all(&root).map_err(|e| {
                format!("{}: cannot remove an incomplete cache: {e}", root.display())
            })?;
        }
        match std::fs::rename(&staging, &root) {
            Ok(()) => Ok(()),
            // Another process finished first: its copy is the same data.
            Err(_) if is_complete(pinned, &root) => Ok(()),
            Err(e) => Err(format!("{}: cannot move into place: {e}", root.display())),
        }
    });
    let _ = std::fs::remove_dir_all(&staging);
    result
}

/// Writes every regular file under `<stem>/<data_dir>/` of the tar.gz `sdist` into `out`, by its
/// file name; checks that the count is the pinned one.
fn extract_into(pinned: &Pinned, sdist: &Path, out: &Path) -> Result<(), String> {
    let at = |e: std::io::Error| format!("{}: {e}", sdist.display());
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let file = std::fs::File::open(sdist).map_err(at)?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let prefix = format!("{}/{}/", pinned.stem(), pinned.data_dir);
    let mut count = 0;
    for entry in archive.entries().map_err(at)? {
        let mut entry = entry.map_err(at)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().map_err(at)?.to_string_lossy().into_owned();
        let Some(name) = path.strip_prefix(&prefix) else {
            continue;
        };
        // One plain file name: nothing in a subdirectory, nothing that climbs out.
        if name.is_empty() || name.contains('/') || name == "." || name == ".." {
            continue;
        }
        let mut body = Vec::new();
        entry.read_to_end(&mut body).map_err(at)?;
        std::fs::write(out.join(name), body).map_err(|e| format!("{}: {e}", out.display()))?;
        count += 1;
    }
    if count != pinned.files {
        return Err(format!(
            "{}: {count} files under {prefix}, expected {}",
            sdist.display(),
            pinned.files
        ));
    }
    Ok(())
}

/// Downloads the sdist of `pinned` from PyPI into `dir` with pip (`--require-hashes`, no wheel,
/// no dependencies), using `python3 -m pip`, or a virtual environment made for it under `dir`
/// when this Python has no pip (Debian's).
pub fn pip_download(pinned: &Pinned, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut python = PathBuf::from("python3");
    if run(Command::new(&python).args(["-m", "pip", "--version"])).is_err() {
        let venv = dir.join("venv");
        run(Command::new(&python).args(["-m", "venv"]).arg(&venv))
            .map_err(|e| format!("`python3 -m venv` failed (apt-get install python3-venv): {e}"))?;
        python = venv.join("bin").join("python3");
    }
    let requirements = dir.join("requirements.txt");
    std::fs::write(
        &requirements,
        format!(
            "{}=={} --hash=sha256:{}\n",
            pinned.name, pinned.version, pinned.sha256
        ),
    )
    .map_err(|e| format!("{}: {e}", requirements.display()))?;
    let out = dir.join("sdist");
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-input",
            "--disable-pip-version-check",
        ])
        .args([
            "--no-deps",
            "--no-binary",
            ":all:",
            "--require-hashes",
            "-r",
        ])
        .arg(&requirements)
        .arg("-d")
        .arg(&out))
    .map_err(|e| format!("pip download failed: {e}"))?;
    Ok(out.join(format!("{}.tar.gz", pinned.stem())))
}

/// Runs `command` with no input; on failure, its status and the last lines it printed.
fn run(command: &mut Command) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
    if output.status.success() {
        return Ok(());
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    Err(format!("{} ({tail})", output.status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A small sdist-like tar.gz: `<stem>/tests/test_data/{a.example,b.example}`, a file outside
    /// the data directory, and one in a subdirectory of it (neither is extracted).
    fn tarball(dir: &Path) -> (PathBuf, Pinned) {
        let path = dir.join("toy.tar.gz");
        let file = std::fs::File::create(&path).unwrap();
        let mut builder =
            tar::Builder::new(flate2::write::GzEncoder::new(file, Default::default()));
        for (name, body) in [
            (
                "toy-1.0/tests/test_data/a.example",
                &b"User-agent: *\nDisallow: /a\n"[..],
            ),
            (
                "toy-1.0/tests/test_data/b.example",
                b"\xEF\xBB\xBFDisallow: /b\r\n",
            ),
            ("toy-1.0/setup.py", b"print()"),
            ("toy-1.0/tests/test_data/sub/c.example", b"x"),
        ] {
            let mut header = tar::Header::new_gnu();
            header.set_size(body.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, name, body).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let hex: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let pinned = Pinned {
            name: "toy",
            version: "1.0",
            size: bytes.len() as u64,
            sha256: Box::leak(hex.into_boxed_str()),
            data_dir: "tests/test_data",
            files: 2,
        };
        (path, pinned)
    }

    /// A download that copies `source` (counting its calls).
    fn copying<'a>(
        source: &'a Path,
        calls: &'a Cell<u32>,
    ) -> impl Fn(&Pinned, &Path) -> Result<PathBuf, String> + 'a {
        move |pinned, dir| {
            calls.set(calls.get() + 1);
            std::fs::create_dir_all(dir).unwrap();
            let to = dir.join(format!("{}.tar.gz", pinned.stem()));
            std::fs::copy(source, &to).unwrap();
            Ok(to)
        }
    }

    fn offline(_: &Pinned, _: &Path) -> Result<PathBuf, String> {
        Err("no network".to_string())
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_first_use_downloads_verifies_and_extracts_the_second_needs_no_network() {
        let tmp = tempfile::tempdir().unwrap();
        let (source, pinned) = tarball(tmp.path());
        let cache = tmp.path().join("cache");
        let calls = Cell::new(0);
        let data = ensure(&pinned, &cache, &copying(&source, &calls)).unwrap();
        assert_eq!(calls.get(), 1);
        assert_eq!(names(&data), ["a.example", "b.example"]);
        assert_eq!(
            std::fs::read(data.join("b.example")).unwrap(),
            b"\xEF\xBB\xBFDisallow: /b\r\n"
        );
        assert_eq!(names(&cache), ["toy-1.0", "toy-1.0.tar.gz"]);
        // Second use: the populated cache, no network.
        assert_eq!(ensure(&pinned, &cache, &offline).unwrap(), data);
    }

    #[test]
    fn an_incomplete_cache_is_extracted_again_from_the_kept_sdist_offline() {
        let tmp = tempfile::tempdir().unwrap();
        let (source, pinned) = tarball(tmp.path());
        let cache = tmp.path().join("cache");
        let calls = Cell::new(0);
        let data = ensure(&pinned, &cache, &copying(&source, &calls)).unwrap();
        // An interrupted extraction: a file missing and no marker.
        std::fs::remove_file(data.join("a.example")).unwrap();
        std::fs::remove_file(cache.join("toy-1.0").join("COMPLETE")).unwrap();
        assert_eq!(ensure(&pinned, &cache, &offline).unwrap(), data);
        assert_eq!(names(&data), ["a.example", "b.example"]);
        assert_eq!(calls.get(), 1);
    }

    #[test]
    fn no_cache_and_no_network_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let (_, pinned) = tarball(tmp.path());
        let error = ensure(&pinned, &tmp.path().join("cache"), &offline).unwrap_err();
        assert!(
            error.contains("could not be fetched: no network"),
            "{error}"
        );
        assert!(
            error.contains("pip download --no-deps --no-binary :all: toy==1.0"),
            "{error}"
        );
    }

    #[test]
    fn a_download_with_another_hash_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let (source, mut pinned) = tarball(tmp.path());
        pinned.sha256 = "00";
        let calls = Cell::new(0);
        let cache = tmp.path().join("cache");
        let error = ensure(&pinned, &cache, &copying(&source, &calls)).unwrap_err();
        assert!(error.contains("expected 00"), "{error}");
        assert!(!cache.join("toy-1.0").exists());
        assert!(!cache.join("toy-1.0.tar.gz").exists());
    }

    #[test]
    fn a_file_count_other_than_the_pinned_one_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let (source, mut pinned) = tarball(tmp.path());
        pinned.files = 3;
        let calls = Cell::new(0);
        let cache = tmp.path().join("cache");
        let error = ensure(&pinned, &cache, &copying(&source, &calls)).unwrap_err();
        assert!(
            error.contains("2 files under toy-1.0/tests/test_data/, expected 3"),
            "{error}"
        );
        assert!(!is_complete(&pinned, &cache.join("toy-1.0")));
    }
}

/// The real fetch from PyPI (network; run with `cargo test -- --ignored protego`).
#[cfg(test)]
mod network {
    use super::*;

    #[test]
    #[ignore = "needs PyPI"]
    fn protego_0_7_0_from_pypi() {
        let tmp = tempfile::tempdir().unwrap();
        let data = ensure(&PROTEGO, tmp.path(), &pip_download).unwrap();
        assert_eq!(std::fs::read_dir(&data).unwrap().count(), 4231);
        assert!(data.join("www.google.com").is_file());
        // The second use needs no network.
        let offline = |_: &Pinned, _: &Path| -> Result<PathBuf, String> { Err("offline".into()) };
        assert_eq!(ensure(&PROTEGO, tmp.path(), &offline).unwrap(), data);
    }
}
