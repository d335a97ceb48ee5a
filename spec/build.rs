//! Embeds the corpus: every case file under `spec-cases/` becomes an `include_str!` in
//! `$OUT_DIR/corpus.rs`, so a downstream crate needs no file of this repository at run time.
//! `spec-cases/VERSION` and `spec-cases/CHECKS` become constants beside it. `spec/spec-cases` is a
//! link to the repository's corpus, which `cargo package` copies into the packaged crate.

use std::path::{Path, PathBuf};

/// Files under `spec-cases/` that are not cases (`src/cases/load.rs` keeps the same list).
const NOT_CASES: &[&str] = &["rfc9309-statements.yaml"];

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus directory {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) && !NOT_CASES.contains(&path.file_name().and_then(|n| n.to_str()).unwrap_or(""))
        {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("spec-cases");
    println!("cargo:rerun-if-changed=spec-cases");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from(
        "/// Every case file of the corpus: (path below `spec-cases/`, text).\n\
         pub static FILES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        let relative = file.strip_prefix(&root).expect("below the root");
        let relative: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            relative.join("/"),
            file.display().to_string()
        ));
    }
    out.push_str("];\n");
    let version = std::fs::read_to_string(root.join("VERSION"))
        .expect("spec-cases/VERSION holds the corpus version");
    out.push_str(&format!(
        "/// The corpus version (`spec-cases/VERSION`).\npub const VERSION: &str = {:?};\n",
        version.trim()
    ));
    println!("cargo:rerun-if-changed=spec-cases/VERSION");
    // The record of the corpus version each check first shipped in (`src/versions.rs`).
    out.push_str(&format!(
        "/// `spec-cases/CHECKS`: each check's first corpus version.\npub const CHECKS: &str = include_str!({:?});\n",
        root.join("CHECKS").display().to_string()
    ));
    println!("cargo:rerun-if-changed=spec-cases/CHECKS");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("corpus.rs");
    std::fs::write(&dest, out).expect("write corpus.rs");
}
