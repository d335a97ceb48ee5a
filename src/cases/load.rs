//! Loading the corpus: strict, with every error naming its file, line and column.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use super::citation::Citation;
use super::model::{BodyPart, CaseFile, GeneratedBody, TextEncoding};

const EMPTY_LIST: &str = "the list is empty; give at least one entry";

/// Generated bodies may not exceed this (a typo in `repeat` must not exhaust memory).
pub const MAX_GENERATED_BODY: usize = 64 * 1024 * 1024;

/// Files in `spec-cases/` that are not cases.
pub const NOT_CASES: &[&str] = &["rfc9309-statements.yaml"];

/// A validated case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable id derived from the path, e.g. `rfc9309/longest-match/allow-wins-tie`.
    pub id: String,
    /// The file it came from.
    pub path: PathBuf,
    /// One line: what the case shows.
    pub title: String,
    /// Citations.
    pub cite: Vec<Citation>,
    /// Tags.
    pub tags: Vec<String>,
    /// RFC 9309 statement ids it tests.
    pub covers: Vec<String>,
    /// Free text.
    pub note: Option<String>,
    /// The body's octets.
    pub body: Vec<u8>,
    /// How the fetch went.
    pub fetch: Fetch,
    /// The checks, numbered from 1.
    pub checks: Vec<Check>,
}

/// One validated check.
#[derive(Debug, Clone)]
pub struct Check {
    /// 1-based position in the case.
    pub number: usize,
    /// The crawler's product token.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// The expected verdict per profile (every profile present).
    pub expect: BTreeMap<ProfileId, Verdict>,
    /// Free text.
    pub note: Option<String>,
}

impl Case {
    /// The documents this case cites, each once.
    pub fn documents(&self) -> Vec<&'static str> {
        let mut docs: Vec<&'static str> = self.cite.iter().map(|c| c.document).collect();
        docs.sort();
        docs.dedup();
        docs
    }
}

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
    /// Loads every case under `root`, or every error found.
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
            match load_case_file(root, &file) {
                Ok(case) => {
                    if let Some(first) = seen.get(&case.id) {
                        errors.push(LoadError {
                            file: file.clone(),
                            line: None,
                            column: None,
                            message: format!(
                                "duplicate case id `{}`: {} has the same id; rename one of them",
                                case.id,
                                first.display()
                            ),
                        });
                    } else {
                        seen.insert(case.id.clone(), file.clone());
                        cases.push(case);
                    }
                }
                Err(error) => errors.push(error),
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

    /// Number of checks in all cases.
    pub fn check_count(&self) -> usize {
        self.cases.iter().map(|c| c.checks.len()).sum()
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

/// Loads and validates one case file.
pub fn load_case_file(root: &Path, file: &Path) -> Result<Case, LoadError> {
    let error = |line, column, message: String| LoadError {
        file: file.to_path_buf(),
        line,
        column,
        message,
    };
    let id = case_id(root, file).map_err(|m| error(None, None, m))?;
    let bytes =
        std::fs::read(file).map_err(|e| error(None, None, format!("cannot read the file: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        error(
            Some(line),
            None,
            "the file is not UTF-8; write raw octets with `body_escaped` (\\xHH)".to_string(),
        )
    })?;
    parse_case(&id, &text)
        .map_err(|(line, column, message)| error(line, column, message))
        .map(|mut case| {
            case.path = file.to_path_buf();
            case
        })
}

type Located = (Option<usize>, Option<usize>, String);

/// Parses and validates a case from its text (`id` comes from the path).
pub fn parse_case(id: &str, text: &str) -> Result<Case, Located> {
    let raw: CaseFile = serde_yaml::from_str(text).map_err(|e| yaml_error(&e, text))?;
    let at_key = |key: &str| key_position(text, key);
    for (key, empty) in [
        ("cite", raw.cite.is_empty()),
        ("checks", raw.checks.is_empty()),
    ] {
        if empty {
            let (l, c) =
                resolve_path(text, key).map_or((Some(1), Some(1)), |(l, c)| (Some(l), Some(c)));
            return Err((l, c, format!("{key}: {EMPTY_LIST}")));
        }
    }
    let bodies = [
        raw.body.is_some(),
        raw.body_escaped.is_some(),
        raw.body_generated.is_some(),
    ];
    let fetch = match &raw.fetch {
        None => Fetch::default(),
        Some(spec) => match (spec.unreachable, spec.status, spec.redirects) {
            (Some(true), None, None) => Fetch::Unreachable,
            (Some(true), _, _) => {
                let (l, c) = at_key("fetch");
                return Err((
                    l,
                    c,
                    "fetch: `unreachable: true` cannot have a status or redirects".into(),
                ));
            }
            (Some(false), _, _) => {
                let (l, c) = at_key("fetch");
                return Err((
                    l,
                    c,
                    "fetch: write `unreachable: true` or leave it out".into(),
                ));
            }
            (None, status, redirects) => {
                let status = status.unwrap_or(200);
                if !(100..=599).contains(&status) {
                    let (l, c) = at_key("fetch");
                    return Err((
                        l,
                        c,
                        format!("fetch: status {status} is not an HTTP status (100 to 599)"),
                    ));
                }
                Fetch::Status {
                    status,
                    redirects: redirects.unwrap_or(0),
                }
            }
        },
    };
    let success = matches!(
        fetch,
        Fetch::Status {
            status: 200..=299,
            ..
        }
    );
    match bodies.iter().filter(|&&b| b).count() {
        0 if success => {
            return Err((
                Some(1),
                Some(1),
                "the case has no body: give one of `body`, `body_escaped` or `body_generated`"
                    .into(),
            ))
        }
        0 | 1 => {}
        _ => {
            let key = if raw.body_escaped.is_some() {
                "body_escaped"
            } else {
                "body_generated"
            };
            let (l, c) = at_key(key);
            return Err((l, c, "the case has more than one body: keep exactly one of `body`, `body_escaped`, `body_generated`".into()));
        }
    }
    let body = if let Some(text) = raw.body {
        text.into_bytes()
    } else if let Some(escaped) = raw.body_escaped {
        escaped.0
    } else if let Some(generated) = raw.body_generated {
        generate(&generated).map_err(|m| {
            let (l, c) = at_key("body_generated");
            (l, c, m)
        })?
    } else {
        Vec::new()
    };
    let checks = raw
        .checks
        .into_iter()
        .enumerate()
        .map(|(i, c)| Check {
            number: i + 1,
            agent: c.agent.0,
            url: c.url.0,
            expect: c.expect.0,
            note: c.note,
        })
        .collect();
    Ok(Case {
        id: id.to_string(),
        path: PathBuf::new(),
        title: raw.title,
        cite: raw.cite,
        tags: raw.tags.into_iter().map(|t| t.0).collect(),
        covers: raw.covers.into_iter().map(|s| s.0).collect(),
        note: raw.note,
        body,
        fetch,
        checks,
    })
}

/// Builds a generated body.
pub fn generate(spec: &GeneratedBody) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    if spec.parts.is_empty() {
        return Err(format!("body_generated.parts: {EMPTY_LIST}"));
    }
    for (i, part) in spec.parts.iter().enumerate() {
        let piece = part_bytes(part, spec.encoding)
            .map_err(|m| format!("body_generated part {}: {m}", i + 1))?;
        let total = piece
            .len()
            .saturating_mul(part.repeat as usize)
            .saturating_add(out.len());
        if total > MAX_GENERATED_BODY {
            return Err(format!(
                "body_generated is larger than {MAX_GENERATED_BODY} octets; lower `repeat`"
            ));
        }
        for _ in 0..part.repeat {
            out.extend_from_slice(&piece);
        }
    }
    Ok(out)
}

fn part_bytes(part: &BodyPart, encoding: TextEncoding) -> Result<Vec<u8>, String> {
    let text_bytes = |text: &str| match encoding {
        TextEncoding::Utf8 => text.as_bytes().to_vec(),
        TextEncoding::Utf16le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        TextEncoding::Utf16be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
    };
    match (&part.text, &part.escaped) {
        (Some(text), None) => Ok(text_bytes(text)),
        (None, Some(escaped)) => match encoding {
            TextEncoding::Utf8 => Ok(escaped.0.clone()),
            _ => Err(
                "`escaped` parts are raw octets and cannot be transcoded; use `text` with utf-16"
                    .into(),
            ),
        },
        _ => Err("give exactly one of `text` or `escaped`".into()),
    }
}

/// Turns a YAML error into a located message, with a hint.
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
    // serde_yaml prefixes errors inside the document with the path of the enclosing value
    // (`checks[0]: `) and may locate them at that value's start; our own errors name their field
    // (`[agent] `). The field, resolved in the text, is more precise.
    let (path, rest) = match message.split_once(": ") {
        Some((p, r)) if is_value_path(p) => (p.to_string(), r.to_string()),
        _ => (String::new(), message.clone()),
    };
    if let Some((field, detail)) = rest.strip_prefix('[').and_then(|r| r.split_once("] ")) {
        let field = if field == "escaped" && path.is_empty() {
            "body_escaped"
        } else {
            field
        };
        let last = path.rsplit('.').next().unwrap_or("");
        let full = match path.as_str() {
            "" => field.to_string(),
            _ if last == field || last.starts_with(&format!("{field}[")) => path.clone(),
            _ => format!("{path}.{field}"),
        };
        if let Some((l, c)) = resolve_path(text, &full) {
            if line.is_none_or(|serde_line| (serde_line, column.unwrap_or(0)) < (l, c)) {
                (line, column) = (Some(l), Some(c));
            }
        }
        message = format!("{full}: {detail}");
    }
    if let Some(field) = message
        .strip_prefix("duplicate field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        // Point at the second occurrence of the key.
        if let Some((l, c)) = key_positions(text, field).get(1) {
            (line, column) = (Some(*l), Some(*c));
        }
        message = format!("duplicate field `{field}`; keep one");
    } else if message.contains("unknown field") {
        message.push_str(" (see spec-cases/README.md for the fields)");
    } else if message.contains("missing field") {
        message.push_str(
            " (every case needs title, cite and checks; every check agent, url and expect)",
        );
    }
    (line, column, message)
}

fn key_positions(text: &str, key: &str) -> Vec<(usize, usize)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let trimmed = l.trim_start().trim_start_matches("- ");
            let indent = l.len() - trimmed.len();
            (trimmed.starts_with(key) && trimmed[key.len()..].trim_start().starts_with(':'))
                .then_some((i + 1, indent + 1))
        })
        .collect()
}

fn key_position(text: &str, key: &str) -> (Option<usize>, Option<usize>) {
    match key_positions(text, key).first() {
        Some((l, c)) => (Some(*l), Some(*c)),
        None => (Some(1), Some(1)),
    }
}

fn is_value_path(candidate: &str) -> bool {
    !candidate.is_empty()
        && candidate
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_[].-".contains(&b))
}

/// Finds where the value at `path` (`cite`, `checks[2].agent`, `body_generated.parts[0]`) starts in a
/// case file written in block style: the value's first character, or its key when the value is on
/// the following lines.
fn resolve_path(text: &str, path: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    // The block being searched: lines [from, to) whose content is indented at least `indent`.
    let (mut from, mut to, mut indent) = (0, lines.len(), 0);
    let mut found = None;
    for segment in path.split('.') {
        let (key, index) = match segment.split_once('[') {
            Some((k, i)) => (k, Some(i.trim_end_matches(']').parse::<usize>().ok()?)),
            None => (segment, None),
        };
        // The key's line within the block, at the block's indentation (after any "- ").
        let (key_line, key_column, value_column) = (from..to).find_map(|i| {
            let line = lines[i];
            let content = line.trim_start_matches([' ', '-']);
            let column = line.len() - content.len();
            let after = content.strip_prefix(key)?.trim_start().strip_prefix(':')?;
            (column >= indent
                && (column == indent
                    || line[indent..column]
                        .trim_start_matches([' ', '-'])
                        .is_empty()))
            .then(|| (i, column, line.len() - after.trim_start().len()))
        })?;
        let block_end = (key_line + 1..to)
            .find(|&i| {
                let l = lines[i];
                !l.trim().is_empty()
                    && l.len() - l.trim_start().len() <= key_column
                    && !l.trim_start().starts_with("- ")
            })
            .unwrap_or(to);
        let value_on_line = value_column < lines[key_line].len();
        found = Some((
            key_line + 1,
            if value_on_line {
                value_column + 1
            } else {
                key_column + 1
            },
        ));
        (from, to, indent) = (key_line + 1, block_end, key_column + 1);
        if let Some(n) = index {
            if value_on_line {
                break; // a flow sequence: point at it
            }
            let items: Vec<usize> = (from..to)
                .filter(|&i| lines[i].trim_start().starts_with("- "))
                .collect();
            let item = *items.get(n)?;
            let item_indent = lines[item].len() - lines[item].trim_start().len();
            let item_end = items.iter().copied().find(|&i| i > item).unwrap_or(to);
            found = Some((item + 1, item_indent + 3));
            (from, to, indent) = (item, item_end, item_indent + 2);
        }
    }
    found
}
