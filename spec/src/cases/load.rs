//! Loading the corpus: strict, with every problem of every file reported, each naming its file,
//! line and column. A YAML syntax error stops its file; in a file that parses, `read.rs` finds
//! every problem.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::case::Case;
use super::locate::{key_positions, locate};
use super::read::{read_case, Located};

/// Files in `spec-cases/` that are not cases.
pub const NOT_CASES: &[&str] = &["rfc9309-statements.yaml"];

/// A problem with a case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What is wrong and what to do.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// The loaded corpus.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// The directory it was loaded from.
    pub root: PathBuf,
    /// Cases sorted by id.
    pub cases: Vec<Case>,
}

impl Corpus {
    /// Loads every case under `root`, or every problem found in any of them.
    pub fn load(root: &Path) -> Result<Corpus, Vec<LoadError>> {
        let mut files = Vec::new();
        if let Err(e) = collect_files(root, &mut files) {
            return Err(vec![LoadError {
                file: root.to_path_buf(),
                line: None,
                column: None,
                message: format!("cannot read the corpus directory: {e}; pass the spec-cases directory with --cases-dir"),
            }]);
        }
        files.sort();
        let mut errors = Vec::new();
        let mut cases: Vec<Case> = Vec::new();
        let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
        for file in files {
            // Ids come from paths, so a duplicate is found whether or not either file loads.
            if let Ok(id) = case_id(root, &file) {
                if let Some(first) = seen.get(&id) {
                    errors.push(LoadError {
                        file: file.clone(),
                        line: None,
                        column: None,
                        message: format!(
                            "duplicate case id `{id}`: {} has the same id; rename one of them",
                            first.display()
                        ),
                    });
                } else {
                    seen.insert(id, file.clone());
                }
            }
            match load_case_file(root, &file) {
                Ok(case) => cases.push(case),
                Err(problems) => errors.extend(problems),
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

    /// Number of checks in all cases (the `aipref` checks aside: [`Corpus::preference_count`]).
    pub fn check_count(&self) -> usize {
        self.cases.iter().map(|c| c.checks.len()).sum()
    }

    /// Number of `aipref` checks in all cases.
    pub fn preference_count(&self) -> usize {
        self.cases.iter().map(|c| c.preferences.len()).sum()
    }
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) && !NOT_CASES.contains(&path.file_name().and_then(|n| n.to_str()).unwrap_or(""))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The case id of a file: its path below the root, without the extension.
pub fn case_id(root: &Path, file: &Path) -> Result<String, String> {
    let relative = file.strip_prefix(root).unwrap_or(file).with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let id = parts.join("/");
    let valid = parts.iter().all(|p| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    });
    if valid {
        Ok(id)
    } else {
        Err(format!(
            "case id `{id}` (from the file's path) may only hold lower-case letters, digits, `-` and `/`; rename the file"
        ))
    }
}

/// Loads and validates one case file: the case, or every problem in it.
pub fn load_case_file(root: &Path, file: &Path) -> Result<Case, Vec<LoadError>> {
    let error = |(line, column, message): Located| LoadError {
        file: file.to_path_buf(),
        line,
        column,
        message,
    };
    let id = case_id(root, file).map_err(|m| error((None, None, m)));
    let bytes = std::fs::read(file)
        .map_err(|e| vec![error((None, None, format!("cannot read the file: {e}")))])?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let message = "the file is not UTF-8; write raw octets with `body_escaped` (\\xHH)";
        vec![error((Some(line), None, message.to_string()))]
    })?;
    let case = parse_case(id.as_deref().unwrap_or(""), &text);
    match (id, case) {
        (Ok(_), Ok(mut case)) => {
            case.path = file.to_path_buf();
            Ok(case)
        }
        (id, case) => {
            // A bad file name and the problems inside the file are all reported.
            let mut problems: Vec<LoadError> = id.err().into_iter().collect();
            problems.extend(case.err().into_iter().flatten().map(error));
            Err(problems)
        }
    }
}

/// Parses and validates a case from its text (`id` comes from the path): the case, or every
/// problem in it (only the first when the YAML itself does not parse).
pub fn parse_case(id: &str, text: &str) -> Result<Case, Vec<Located>> {
    let value: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| vec![yaml_error(&e, text)])?;
    read_case(id, &value, text)
}

/// Turns a YAML syntax error into a located message.
fn yaml_error(error: &serde_yaml::Error, text: &str) -> Located {
    let mut message = error.to_string();
    // serde_yaml appends " at line L column C"; the location is reported separately.
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    let (mut line, mut column) = match error.location() {
        Some(l) => (Some(l.line()), Some(l.column())),
        None => (None, None),
    };
    // A duplicate key (`checks[0]: duplicate entry with key "agent"`) is located at its map;
    // point at the key's second occurrence in that map instead.
    let (path, rest) = match message.split_once(": ") {
        Some((p, r)) if is_value_path(p) => (p, r),
        _ => ("", message.as_str()),
    };
    if let Some(key) = rest
        .strip_prefix("duplicate entry with key \"")
        .and_then(|k| k.strip_suffix('"'))
    {
        let start = locate(text, path).map_or((1, 1), |spot| spot.value);
        let mut occurrences = key_positions(text, key)
            .into_iter()
            .filter(|&position| position >= start);
        if let Some(first) = occurrences.next() {
            if let Some(second) = occurrences.find(|p| p.1 == first.1) {
                (line, column) = (Some(second.0), Some(second.1));
            }
        }
        message = match path {
            "" => format!("duplicate field `{key}`; keep one"),
            _ => format!("{path}: duplicate field `{key}`; keep one"),
        };
    }
    (line, column, message)
}

fn is_value_path(candidate: &str) -> bool {
    !candidate.is_empty()
        && candidate
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_[].-".contains(&b))
}
