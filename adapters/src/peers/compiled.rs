//! The adapter programs compiled at install time: Go programs built with `go build` against the
//! committed `go.mod`/`go.sum` (the Go module proxy and checksum database check every module), and a
//! Java program compiled with `javac` against jars Maven fetches from Maven Central (Central's
//! checksums checked by Maven, then each jar's sha256 checked against the committed
//! `checksums.txt`). No third-party code is in the repository.
//!
//! | path below the peers directory | what |
//! |---|---|
//! | `programs/go/`, `programs/java/` | the embedded sources, as committed |
//! | `go/bin/<id>` | the built Go programs; `go/mod`, `go/cache`: Go's module and build caches |
//! | `java/lib/` | the pinned jars; `java/classes/`: the compiled adapter; `java/m2`: Maven's repository |

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::{
    find_on_path, is_executable, programs_dir, run, write_if_changed, Embedded, Missing, Outcome,
    INSTALL_FIX,
};

/// The Go module: the shared protocol loop and one main package per library.
const GO_FILES: [Embedded; 5] = [
    embed!("go/go.mod"),
    embed!("go/go.sum"),
    embed!("go/protocol/protocol.go"),
    embed!("go/temoto/main.go"),
    embed!("go/grobotstxt/main.go"),
];

/// The Java program, its pinned dependencies and their sha256.
const JAVA_FILES: [Embedded; 3] = [
    embed!("java/pom.xml"),
    embed!("java/JavaCrawlerCommons.java"),
    embed!("java/checksums.txt"),
];

/// The Go programs: adapter id and the package directory (below `programs/go/`) that builds it.
pub(super) const GO_PROGRAMS: [(&str, &str); 2] =
    [("go-temoto", "temoto"), ("go-grobotstxt", "grobotstxt")];

/// The Java program's main class (its file name without `.java`).
const JAVA_MAIN: &str = "JavaCrawlerCommons";

/// The maven-dependency-plugin run to copy the pinned jars, named with its exact version.
const MAVEN_COPY: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies";

/// What builds a compiled adapter program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Toolchain {
    /// `go build` of the package `programs/go/<package>`.
    Go {
        /// The package directory below `programs/go/`.
        package: &'static str,
    },
    /// `javac` of `programs/java/JavaCrawlerCommons.java`, run by `java`.
    Java,
}

/// `<peers_dir>/go`.
fn go_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("go")
}

/// `<peers_dir>/java`.
fn java_dir(peers_dir: &Path) -> PathBuf {
    peers_dir.join("java")
}

/// The built Go program of adapter `id`.
fn go_binary(peers_dir: &Path, id: &str) -> PathBuf {
    go_dir(peers_dir).join("bin").join(id)
}

/// The stamp recording which sources a build used: the embedded files, verbatim, each after its
/// path. Written last, so an interrupted install is retried; a changed source rebuilds.
fn stamp_text(files: &[Embedded]) -> String {
    files
        .iter()
        .map(|f| format!("== {}\n{}", f.path, f.text))
        .collect()
}

/// The stamp file of a toolchain's build.
fn stamp(dir: &Path) -> PathBuf {
    dir.join("robotstxt-conformance-installed.txt")
}

/// Whether the build in `dir` was made from exactly `files`.
fn stamped(dir: &Path, files: &[Embedded]) -> bool {
    std::fs::read_to_string(stamp(dir)).is_ok_and(|s| s == stamp_text(files))
}

/// The command line that starts the compiled program, when it is built from the current sources.
pub(super) fn command(
    toolchain: Toolchain,
    id: &str,
    peers_dir: &Path,
) -> Result<Vec<String>, Missing> {
    match toolchain {
        Toolchain::Go { .. } => {
            let binary = go_binary(peers_dir, id);
            if !is_executable(&binary) || !stamped(&go_dir(peers_dir), &GO_FILES) {
                return Err((
                    format!(
                        "{} is not built (or not from these sources)",
                        binary.display()
                    ),
                    format!("install Go, then {INSTALL_FIX}"),
                ));
            }
            Ok(vec![binary.display().to_string()])
        }
        Toolchain::Java => {
            let java = find_on_path("java").ok_or_else(|| {
                (
                    "java is not on PATH".to_string(),
                    "apt-get install default-jdk-headless maven".to_string(),
                )
            })?;
            let dir = java_dir(peers_dir);
            if !dir
                .join("classes")
                .join(format!("{JAVA_MAIN}.class"))
                .exists()
                || !stamped(&dir, &JAVA_FILES)
            {
                return Err((
                    format!(
                        "{} is not built (or not from these sources)",
                        dir.join("classes").display()
                    ),
                    format!("install a JDK and Maven, then {INSTALL_FIX}"),
                ));
            }
            let classpath = format!(
                "{}:{}",
                dir.join("classes").display(),
                dir.join("lib").join("*").display()
            );
            Ok(vec![
                java.display().to_string(),
                // One collector thread and a bounded heap: many adapters share two cores.
                "-XX:+UseSerialGC".to_string(),
                "-Xmx512m".to_string(),
                "-cp".to_string(),
                classpath,
                JAVA_MAIN.to_string(),
            ])
        }
    }
}

/// Variables removed from a compiled adapter's environment, so that a caller's settings cannot
/// change the pinned program: `GODEBUG` for Go (it switches library behaviour, `net/url` parsing
/// among it), the JVM's option and class path variables for Java.
pub(super) fn unset_variables(toolchain: Toolchain) -> Vec<String> {
    let names: &[&str] = match toolchain {
        Toolchain::Go { .. } => &["GODEBUG"],
        Toolchain::Java => &[
            "CLASSPATH",
            "JAVA_TOOL_OPTIONS",
            "_JAVA_OPTIONS",
            "JDK_JAVA_OPTIONS",
        ],
    };
    names.iter().map(|n| n.to_string()).collect()
}

/// Writes `files` below `programs/`; a Missing outcome when that fails.
fn write_sources(peers_dir: &Path, files: &[Embedded]) -> Result<(), Outcome> {
    for file in files {
        let path = programs_dir(peers_dir).join(file.path);
        write_if_changed(&path, file.text).map_err(|e| Outcome::Missing {
            reason: format!("cannot write {}: {e}", path.display()),
            fix: "make the peers directory writable".to_string(),
        })?;
    }
    Ok(())
}

/// Builds the Go programs with `go build` (modules from the Go module proxy, checked against the
/// committed `go.sum` and the checksum database), unless the stamp says they are built.
pub(super) fn install_go(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<Outcome> {
    let dir = go_dir(peers_dir);
    let built = GO_PROGRAMS
        .iter()
        .all(|(id, _)| is_executable(&go_binary(peers_dir, id)));
    if built && stamped(&dir, &GO_FILES) {
        return Ok(Outcome::AlreadyPresent);
    }
    let Some(go) = find_on_path("go") else {
        return Ok(Outcome::Missing {
            reason: "go is not on PATH".to_string(),
            fix: "apt-get install golang-go".to_string(),
        });
    };
    if let Err(missing) = write_sources(peers_dir, &GO_FILES) {
        return Ok(missing);
    }
    let source = programs_dir(peers_dir).join("go");
    for (id, package) in GO_PROGRAMS {
        let binary = go_binary(peers_dir, id);
        writeln!(
            out,
            "go: go build -mod=readonly -o {} ./{package} (modules from the Go module proxy, go.sum checked)",
            binary.display()
        )?;
        let mut build = Command::new(&go);
        build
            .args(["build", "-mod=readonly", "-modcacherw", "-trimpath", "-o"])
            .arg(&binary)
            .arg(format!("./{package}"))
            .current_dir(&source)
            // The machine's Go only (never a downloaded toolchain), its own caches, and checksums
            // always checked.
            .env("GOTOOLCHAIN", "local")
            .env("GOMODCACHE", dir.join("mod"))
            .env("GOCACHE", dir.join("cache"))
            .env("GOFLAGS", "-mod=readonly")
            .env_remove("GONOSUMDB")
            .env_remove("GOINSECURE")
            .env_remove("GOPRIVATE");
        if let Err(failure) = run(&mut build) {
            return Ok(Outcome::Missing {
                reason: format!("go build of {id} failed: {failure}"),
                fix: format!(
                    "make the Go module proxy reachable (or set GOPROXY), then {INSTALL_FIX}"
                ),
            });
        }
    }
    Ok(finish(&dir, &GO_FILES))
}

/// Fetches the pinned jars with Maven, checks them against `checksums.txt` and compiles the Java
/// program with `javac`, unless the stamp says it is built.
pub(super) fn install_java(peers_dir: &Path, out: &mut dyn Write) -> std::io::Result<Outcome> {
    let dir = java_dir(peers_dir);
    if dir
        .join("classes")
        .join(format!("{JAVA_MAIN}.class"))
        .exists()
        && stamped(&dir, &JAVA_FILES)
    {
        return Ok(Outcome::AlreadyPresent);
    }
    let tools: Vec<(&str, Option<PathBuf>)> = ["mvn", "javac", "java"]
        .into_iter()
        .map(|t| (t, find_on_path(t)))
        .collect();
    let absent: Vec<&str> = tools
        .iter()
        .filter(|(_, p)| p.is_none())
        .map(|(t, _)| *t)
        .collect();
    if !absent.is_empty() {
        return Ok(Outcome::Missing {
            reason: format!("{} not on PATH", absent.join(", ")),
            fix: "apt-get install default-jdk-headless maven".to_string(),
        });
    }
    let (mvn, javac) = (tools[0].1.clone().unwrap(), tools[1].1.clone().unwrap());
    if let Err(missing) = write_sources(peers_dir, &JAVA_FILES) {
        return Ok(missing);
    }
    let source = programs_dir(peers_dir).join("java");
    let lib = dir.join("lib");
    let _ = std::fs::remove_dir_all(&lib);
    writeln!(
        out,
        "java: mvn --strict-checksums {MAVEN_COPY} into {} (from Maven Central)",
        lib.display()
    )?;
    let mut maven = Command::new(mvn);
    maven
        .args(["-B", "-q", "--strict-checksums"])
        .arg(format!("-Dmaven.repo.local={}", dir.join("m2").display()))
        .arg("-f")
        .arg(source.join("pom.xml"))
        .arg(MAVEN_COPY)
        .arg(format!("-DoutputDirectory={}", lib.display()));
    if let Err(failure) = run(&mut maven) {
        return Ok(Outcome::Missing {
            reason: format!("mvn failed: {failure}"),
            fix: format!("make Maven Central reachable, then {INSTALL_FIX}"),
        });
    }
    if let Err(reason) = check_jars(&lib, JAVA_FILES[2].text) {
        let _ = std::fs::remove_dir_all(&lib);
        return Ok(Outcome::Missing {
            reason,
            fix: "a jar differs from its pinned sha256: check the mirror or proxy Maven used"
                .to_string(),
        });
    }
    writeln!(out, "java: javac {JAVA_MAIN}.java")?;
    let mut compile = Command::new(javac);
    compile
        .args(["-encoding", "UTF-8", "-d"])
        .arg(dir.join("classes"))
        .arg("-cp")
        .arg(lib.join("*"))
        .arg(source.join(format!("{JAVA_MAIN}.java")));
    if let Err(failure) = run(&mut compile) {
        return Ok(Outcome::Missing {
            reason: format!("javac failed: {failure}"),
            fix: "install a JDK (11 or newer): apt-get install default-jdk-headless".to_string(),
        });
    }
    Ok(finish(&dir, &JAVA_FILES))
}

/// Writes the stamp of a finished build.
fn finish(dir: &Path, files: &[Embedded]) -> Outcome {
    match write_if_changed(&stamp(dir), &stamp_text(files)) {
        Ok(()) => Outcome::Installed,
        Err(e) => Outcome::Missing {
            reason: format!("cannot write {}: {e}", stamp(dir).display()),
            fix: "make the peers directory writable".to_string(),
        },
    }
}

/// The `(sha256, file name)` pairs of a `sha256sum`-format list (`#` comment lines).
fn pinned_sha256(list: &str) -> Vec<(&str, &str)> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once("  "))
        .collect()
}

/// Checks that `lib` holds exactly the jars of `list`, each with its sha256.
fn check_jars(lib: &Path, list: &str) -> Result<(), String> {
    let pinned = pinned_sha256(list);
    let mut present: Vec<String> = std::fs::read_dir(lib)
        .map_err(|e| format!("{}: {e}", lib.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    present.sort();
    let mut expected: Vec<String> = pinned.iter().map(|(_, name)| name.to_string()).collect();
    expected.sort();
    if present != expected {
        return Err(format!(
            "Maven copied {present:?}, checksums.txt pins {expected:?}"
        ));
    }
    for (sha, name) in pinned {
        let bytes = std::fs::read(lib.join(name)).map_err(|e| format!("{name}: {e}"))?;
        let actual: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if actual != sha {
            return Err(format!("{name} has sha256 {actual}, pinned {sha}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pinned_jar_is_a_dependency_of_the_pom_at_its_version() {
        let pins = pinned_sha256(JAVA_FILES[2].text);
        assert_eq!(pins.len(), 5);
        for (sha, name) in pins {
            assert_eq!(sha.len(), 64, "{name}");
            let (artifact, version) = name
                .strip_suffix(".jar")
                .and_then(|stem| stem.rsplit_once('-'))
                .unwrap();
            assert!(
                JAVA_FILES[0].text.contains(&format!(
                    "<artifactId>{artifact}</artifactId>\n      <version>{version}</version>"
                )),
                "{name} is not pinned in pom.xml"
            );
        }
    }

    #[test]
    fn go_sum_pins_both_libraries_at_the_go_mod_versions() {
        for module in [
            "github.com/temoto/robotstxt v1.1.2",
            "github.com/jimsmart/grobotstxt v1.0.3",
        ] {
            assert!(GO_FILES[0].text.contains(module), "{module} in go.mod");
            assert!(
                GO_FILES[1].text.contains(&format!("{module} h1:")),
                "{module} in go.sum"
            );
        }
    }

    #[test]
    fn a_jar_that_differs_from_its_pin_is_refused() {
        let lib = std::env::temp_dir().join(format!("i26a-jars-{}", std::process::id()));
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(lib.join("a-1.jar"), b"jar").unwrap();
        let good =
            "# sha256\n5ec1a3cb7ff9f3d5bc24ea2ef4c5c4b3cf0bd4ff2b9ce6e3c1a5c1f0c5d0e8c2  a-1.jar\n";
        let sha: String = Sha256::digest(b"jar")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert!(check_jars(&lib, good).unwrap_err().contains("pinned"));
        assert_eq!(check_jars(&lib, &format!("{sha}  a-1.jar\n")), Ok(()));
        assert!(check_jars(&lib, &format!("{sha}  a-1.jar\n{sha}  b-2.jar\n")).is_err());
        std::fs::remove_dir_all(&lib).unwrap();
    }
}
