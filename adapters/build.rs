//! Builds the `google-cpp` adapter: Google's upstream `robots.cc` and our `cpp/shim.cc`, compiled
//! with `cc` against abseil (found with pkg-config).
//!
//! No Google code lives in this repository. The two upstream files come from a checkout named by
//! `ROBOTSTXT_GOOGLE_SRC`, or from the PyPI sdist `jwm_robotstxt-1.0.8.tar.gz`, which carries them
//! unmodified (upstream commit de56676). The sdist is kept in a download cache and checked by sha256
//! before anything is extracted; the two files are checked again after extraction.
//!
//! This script never fails the build. When something is missing it prints a `cargo:warning` and
//! hands the reason and the fix to the crate (`ROBOTSTXT_GOOGLE_CPP_UNAVAILABLE`,
//! `ROBOTSTXT_GOOGLE_CPP_FIX`); on success it sets `cfg(google_cpp)` and describes the source
//! (`ROBOTSTXT_GOOGLE_CPP_SOURCE`, `ROBOTSTXT_GOOGLE_CPP_VERSION`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

const UPSTREAM: &str = "upstream de56676 (2023-09-07)";
const SDIST: &str = "jwm_robotstxt-1.0.8.tar.gz";
const SDIST_SHA256: &str = "e0042e368bfab415e70ce393bd449959d534c343cdb0568c32efd84de6aac94d";
/// The sdist's address, as listed by <https://pypi.org/pypi/jwm.robotstxt/json> (the short
/// `packages/source/j/jwm.robotstxt/...` form answers 404 for this package).
const SDIST_URL: &str = "https://files.pythonhosted.org/packages/ea/b0/\
    df1f6e2485dc7ecbc1a71433d2f28e9541dce69e914c0b0bc5fa9fcbd98f/jwm_robotstxt-1.0.8.tar.gz";
/// The upstream files we compile, with their pinned sha256.
const FILES: [(&str, &str); 2] = [
    (
        "robots.cc",
        "a7c6aed20037648bd2297c9b897bfb157e97fed8210b5c7cf2cc4c532e99ac08",
    ),
    (
        "robots.h",
        "f3ded89bee67d53e6889fc564c286460639f8c0e21b94cf0ecf7972d844214e3",
    ),
];
/// How the user re-runs this script after fixing something it cannot see (a package, a file).
const REBUILD: &str = "cargo clean -p robotstxt-adapters && cargo build";

/// Why the adapter could not be built, and what fixes it.
struct Failure {
    reason: String,
    fix: String,
}

fn fail(reason: impl Into<String>, fix: impl Into<String>) -> Failure {
    Failure {
        reason: reason.into(),
        fix: fix.into(),
    }
}

/// Where the upstream files came from.
struct Source {
    dir: PathBuf,
    version: String,
    description: String,
}

fn main() {
    for var in [
        "ROBOTSTXT_GOOGLE_SRC",
        "ROBOTSTXT_GOOGLE_CACHE",
        "ROBOTSTXT_GOOGLE_OFFLINE",
        "XDG_CACHE_HOME",
        "HOME",
    ] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=cpp");
    println!("cargo::rustc-check-cfg=cfg(google_cpp)");
    let started = std::time::Instant::now();
    match source().and_then(|source| compile(&source).map(|()| source)) {
        Ok(source) => {
            println!("cargo::rustc-cfg=google_cpp");
            println!(
                "cargo::rustc-env=ROBOTSTXT_GOOGLE_CPP_VERSION={}",
                source.version
            );
            println!(
                "cargo::rustc-env=ROBOTSTXT_GOOGLE_CPP_SOURCE={}",
                source.description
            );
        }
        Err(failure) => {
            let (reason, fix) = (one_line(&failure.reason), one_line(&failure.fix));
            println!("cargo::warning=google-cpp adapter unavailable: {reason} (fix: {fix})");
            println!("cargo::rustc-env=ROBOTSTXT_GOOGLE_CPP_UNAVAILABLE={reason}");
            println!("cargo::rustc-env=ROBOTSTXT_GOOGLE_CPP_FIX={fix}");
        }
    }
    eprintln!("google-cpp build step took {:?}", started.elapsed());
}

/// Finds and verifies the upstream files: a local checkout, or the cached (or downloaded) sdist.
fn source() -> Result<Source, Failure> {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_GOOGLE_SRC").filter(|d| !d.is_empty()) {
        return local_checkout(PathBuf::from(dir));
    }
    let tarball = cached_sdist()?;
    let dir =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("google");
    extract(&tarball, &dir)?;
    let hashes = FILES.map(|(name, sha)| format!("{name} sha256 {sha}"));
    Ok(Source {
        dir,
        version: UPSTREAM.to_string(),
        description: format!(
            "PyPI sdist jwm.robotstxt 1.0.8 ({SDIST} sha256 {SDIST_SHA256}), upstream's files \
             unmodified: {}; = google/robotstxt {UPSTREAM}",
            hashes.join(", ")
        ),
    })
}

/// A checkout of google/robotstxt named by `ROBOTSTXT_GOOGLE_SRC`, pinned or not.
fn local_checkout(dir: PathBuf) -> Result<Source, Failure> {
    let mut hashes = Vec::new();
    let mut pinned = true;
    for (name, expected) in FILES {
        let path = dir.join(name);
        println!("cargo::rerun-if-changed={}", path.display());
        let bytes = std::fs::read(&path).map_err(|e| {
            fail(
                format!("ROBOTSTXT_GOOGLE_SRC: cannot read {}: {e}", path.display()),
                "point ROBOTSTXT_GOOGLE_SRC at a google/robotstxt checkout (the folder holding \
                 robots.cc and robots.h), or unset it to use the PyPI sdist",
            )
        })?;
        let actual = sha256(&bytes);
        pinned &= actual == expected;
        hashes.push(format!("{name} sha256 {actual}"));
    }
    let (version, verdict) = if pinned {
        (UPSTREAM.to_string(), format!("identical to {UPSTREAM}"))
    } else {
        let version = "local checkout (differs from de56676)".to_string();
        (version, format!("NOT the pinned {UPSTREAM}"))
    };
    let description = format!(
        "local checkout {} ({}; {verdict})",
        dir.display(),
        hashes.join(", ")
    );
    if !pinned {
        println!("cargo::warning=google-cpp: building an unpinned checkout: {description}");
    }
    Ok(Source {
        dir,
        version,
        description,
    })
}

/// The sdist from the cache, downloading it first unless `ROBOTSTXT_GOOGLE_OFFLINE` is set.
fn cached_sdist() -> Result<Vec<u8>, Failure> {
    let dir = cache_dir().ok_or_else(|| {
        fail(
            "no download cache: none of ROBOTSTXT_GOOGLE_CACHE, XDG_CACHE_HOME, HOME is set",
            format!("ROBOTSTXT_GOOGLE_CACHE=/some/dir {REBUILD}"),
        )
    })?;
    let path = dir.join(SDIST);
    if path.exists() {
        let bytes = std::fs::read(&path)
            .map_err(|e| fail(format!("cannot read {}: {e}", path.display()), REBUILD))?;
        let actual = sha256(&bytes);
        if actual != SDIST_SHA256 {
            return Err(fail(
                format!(
                    "cached {} has sha256 {actual}, expected {SDIST_SHA256}",
                    path.display()
                ),
                format!("rm {} && {REBUILD}", path.display()),
            ));
        }
        return Ok(bytes);
    }
    let offline =
        std::env::var("ROBOTSTXT_GOOGLE_OFFLINE").is_ok_and(|v| !v.is_empty() && v != "0");
    if offline {
        return Err(fail(
            format!(
                "ROBOTSTXT_GOOGLE_OFFLINE is set and {} is not cached",
                path.display()
            ),
            format!(
                "allow the download (`ROBOTSTXT_GOOGLE_OFFLINE=0 cargo build`), or \
                 `ROBOTSTXT_GOOGLE_SRC=/path/to/google/robotstxt cargo build`, or put {SDIST} \
                 (sha256 {SDIST_SHA256}, from {SDIST_URL}) at {} and `{REBUILD}`",
                path.display()
            ),
        ));
    }
    download(&path)
}

/// `$ROBOTSTXT_GOOGLE_CACHE`, else `$XDG_CACHE_HOME/...`, else `~/.cache/...`.
fn cache_dir() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("ROBOTSTXT_GOOGLE_CACHE").or_else(|| {
        var("XDG_CACHE_HOME")
            .or_else(|| var("HOME").map(|home| home.join(".cache")))
            .map(|cache| cache.join("robotstxt-conformance/google-robotstxt"))
    })
}

/// Downloads the sdist with `curl` (else `python3`) into a temporary file, checks its sha256, and
/// only then renames it into the cache.
fn download(path: &Path) -> Result<Vec<u8>, Failure> {
    let fix = format!(
        "check access to files.pythonhosted.org and `{REBUILD}`; or fetch it yourself: \
         `curl -fL --create-dirs -o {} {SDIST_URL}` then `{REBUILD}`; or \
         `ROBOTSTXT_GOOGLE_SRC=/path/to/google/robotstxt cargo build`",
        path.display()
    );
    let dir = path.parent().expect("the cache path has a folder");
    std::fs::create_dir_all(dir)
        .map_err(|e| fail(format!("cannot create {}: {e}", dir.display()), fix.clone()))?;
    let tmp = dir.join(format!(".{SDIST}.{}.tmp", std::process::id()));
    let tmp_arg = tmp.to_str().expect("a UTF-8 cache path");
    let python = "import sys, urllib.request as u\n\
                  open(sys.argv[2], 'wb').write(u.urlopen(sys.argv[1], timeout=120).read())";
    let attempts: [(&str, Vec<&str>); 2] = [
        (
            "curl",
            vec![
                "-fsSL",
                "--connect-timeout",
                "20",
                "--max-time",
                "120",
                "-o",
                tmp_arg,
                SDIST_URL,
            ],
        ),
        ("python3", vec!["-c", python, SDIST_URL, tmp_arg]),
    ];
    let mut errors = Vec::new();
    let fetched = attempts.iter().any(|(program, args)| {
        match Command::new(program).args(args).output() {
            Ok(out) if out.status.success() => return true,
            Ok(out) => errors.push(format!(
                "{program}: {} {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => errors.push(format!("{program}: {e}")),
        }
        false
    });
    let bytes = match fetched.then(|| std::fs::read(&tmp)) {
        Some(Ok(bytes)) => bytes,
        read => {
            let _ = std::fs::remove_file(&tmp);
            if let Some(Err(e)) = read {
                errors.push(format!("reading {}: {e}", tmp.display()));
            }
            let reason = format!("downloading {SDIST_URL} failed: {}", errors.join("; "));
            return Err(fail(reason, fix));
        }
    };
    let actual = sha256(&bytes);
    if actual != SDIST_SHA256 {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(
            format!("downloaded {SDIST} has sha256 {actual}, expected {SDIST_SHA256}"),
            "the file on PyPI is not the pinned one: build from a checkout instead, \
             `ROBOTSTXT_GOOGLE_SRC=/path/to/google/robotstxt cargo build`",
        ));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        fail(
            format!("cannot move {} into the cache: {e}", tmp.display()),
            fix,
        )
    })?;
    Ok(bytes)
}

/// Writes `*/robotstxt/robots.cc` and `robots.h` of the (verified) sdist into `dir`, checking each.
fn extract(tarball: &[u8], dir: &Path) -> Result<(), Failure> {
    let bad = |what: String| {
        fail(
            format!("{SDIST}: {what}"),
            "build from a checkout instead: `ROBOTSTXT_GOOGLE_SRC=/path/to/google/robotstxt cargo build`",
        )
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| bad(format!("cannot create {}: {e}", dir.display())))?;
    let mut found = 0;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(tarball));
    for entry in archive.entries().map_err(|e| bad(e.to_string()))? {
        let mut entry = entry.map_err(|e| bad(e.to_string()))?;
        let path = entry.path().map_err(|e| bad(e.to_string()))?.into_owned();
        let parts: Vec<_> = path.iter().filter_map(|p| p.to_str()).collect();
        let Some(&(name, expected)) = FILES
            .iter()
            .find(|(name, _)| matches!(parts[..], [_, "robotstxt", file] if file == *name))
        else {
            continue;
        };
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| bad(e.to_string()))?;
        let actual = sha256(&bytes);
        if actual != expected {
            return Err(bad(format!(
                "{name} has sha256 {actual}, expected {expected}"
            )));
        }
        std::fs::write(dir.join(name), bytes).map_err(|e| bad(e.to_string()))?;
        found += 1;
    }
    match found {
        2 => Ok(()),
        _ => Err(bad(
            "expected robotstxt/robots.cc and robots.h once each".to_string()
        )),
    }
}

/// Compiles upstream's `robots.cc` and our shim, then links abseil after them (GNU ld wants a
/// library after the objects that use it, so pkg-config's link directives come last).
fn compile(source: &Source) -> Result<(), Failure> {
    let no_abseil = |e: pkg_config::Error| {
        fail(
            format!("abseil not found by pkg-config (absl_strings): {e}"),
            format!(
                "apt-get install libabsl-dev pkg-config && {REBUILD} (elsewhere: install abseil \
                 with its .pc files and set PKG_CONFIG_PATH)"
            ),
        )
    };
    let absl = pkg_config::Config::new()
        .cargo_metadata(false)
        .probe("absl_strings")
        .map_err(no_abseil)?;
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(2) // Google's C++ is the speed reference, even in debug builds.
        .warnings(false) // upstream's code, not ours to fix
        .include(&source.dir)
        .includes(&absl.include_paths)
        .file(source.dir.join("robots.cc"))
        .file("cpp/shim.cc");
    for (name, value) in &absl.defines {
        build.define(name, value.as_deref());
    }
    build.try_compile("robotstxt_google_cpp").map_err(|e| {
        fail(
            format!("compiling robots.cc failed: {e}"),
            format!("apt-get install g++ (a C++17 compiler) && {REBUILD}"),
        )
    })?;
    pkg_config::Config::new()
        .probe("absl_strings")
        .map_err(no_abseil)?;
    Ok(())
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A message fit for one `cargo::` line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
