//! The corpus compiled into this crate (`build.rs` embeds every case file of `spec-cases/`), so a
//! downstream crate reads no file of this repository at run time.

use std::path::{Path, PathBuf};

use crate::cases::load::{case_id, parse_case};
use crate::cases::{Corpus, LoadError};
use crate::versions::{CheckVersions, Version};

mod files {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

/// The corpus version (`spec-cases/VERSION`): see the crate README, "Versioning", for what a
/// patch, minor and major change mean.
pub const CORPUS_VERSION: &str = files::VERSION;

/// The embedded `spec-cases/CHECKS`: the corpus version each check first shipped in.
pub fn check_versions() -> Result<CheckVersions, Vec<String>> {
    CheckVersions::parse(files::CHECKS)
}

/// [`CORPUS_VERSION`] parsed.
pub fn corpus_version() -> Version {
    CORPUS_VERSION
        .parse()
        .expect("spec-cases/VERSION holds MAJOR.MINOR.PATCH (the tidy test checks it)")
}

/// The embedded case files: (path below `spec-cases/`, text).
pub fn files() -> &'static [(&'static str, &'static str)] {
    files::FILES
}

/// Loads the embedded corpus, validated exactly as [`Corpus::load`] validates a directory; case
/// paths read `spec-cases/<id>.yaml`.
pub fn corpus() -> Result<Corpus, Vec<LoadError>> {
    let root = Path::new("spec-cases");
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for (relative, text) in files() {
        let path: PathBuf = root.join(relative);
        let located = |(line, column, message): crate::cases::read::Located| LoadError {
            file: path.clone(),
            line,
            column,
            message,
        };
        let id = match case_id(root, &path) {
            Ok(id) => id,
            Err(message) => {
                errors.push(located((None, None, message)));
                continue;
            }
        };
        match parse_case(&id, text) {
            Ok(mut case) => {
                case.path = path.clone();
                cases.push(case);
            }
            Err(problems) => errors.extend(problems.into_iter().map(located)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Corpus {
        root: root.to_path_buf(),
        cases,
    })
}
