//! Real robots.txt files as seeds (`fuzz --seeds DIR`): loaded once, then mutated with
//! structure-aware edits, so the fuzzer starts from what sites really publish as well as from
//! nothing ([`crate::generate`]).
//!
//! A mutation takes one seed file and makes one to four edits, each on whole lines: a line from
//! another file added, a line dropped, duplicated or moved, a line's field name or its value
//! replaced by one taken from any file. The agent and the URL are then derived from the mutated
//! body as for generated ones ([`crate::generate::about`]). Every choice is drawn from the fuzzer's
//! bytes, so the same bytes give the same input.
//!
//! Limits: each file is cut after [`MAX_SEED_BODY`] octets (at a line end), lines with more than
//! [`crate::generate::MAX_STARS_PER_LINE`] stars are left out (some parsers are exponential in
//! `*`, see the performance facts), and a mutated body is cut to [`MAX_SEED_BODY`] again.

use std::path::Path;

use arbitrary::Unstructured;

use crate::edit::{split_lines, without_line_end};
use crate::generate::{self, MAX_STARS_PER_LINE};
use crate::input::Input;

/// The most octets of a seed file used, and of a mutated body.
pub const MAX_SEED_BODY: usize = 32 * 1024;
/// The most field names and values pooled from all the files.
const MAX_POOL: usize = 8192;

/// The seed files, as lines (each with its line end), and the field names and values of all of
/// them, for swapping between files.
#[derive(Debug)]
pub struct Seeds {
    files: Vec<Vec<Vec<u8>>>,
    fields: Vec<Vec<u8>>,
    values: Vec<Vec<u8>>,
}

impl Seeds {
    /// Reads every file under `dir` (recursively, in path order). A missing directory, or one
    /// holding no non-empty file, is an error naming it.
    pub fn load(dir: &Path) -> Result<Seeds, String> {
        if !dir.is_dir() {
            return Err(format!(
                "--seeds {}: not a directory (give a directory of robots.txt files, one per site)",
                dir.display()
            ));
        }
        let mut paths = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(next) = pending.pop() {
            let entries =
                std::fs::read_dir(&next).map_err(|e| format!("--seeds {}: {e}", next.display()))?;
            for entry in entries {
                let path = entry
                    .map_err(|e| format!("--seeds {}: {e}", next.display()))?
                    .path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.is_file() {
                    paths.push(path);
                }
            }
        }
        paths.sort();
        let mut bodies = Vec::with_capacity(paths.len());
        for path in &paths {
            bodies.push(std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        Seeds::from_bodies(bodies).map_err(|e| format!("--seeds {}: {e}", dir.display()))
    }

    /// Seeds from bodies in memory; empty bodies are skipped, and none left is an error.
    pub fn from_bodies(bodies: Vec<Vec<u8>>) -> Result<Seeds, String> {
        let mut seeds = Seeds {
            files: Vec::new(),
            fields: Vec::new(),
            values: Vec::new(),
        };
        for body in bodies {
            let mut lines = Vec::new();
            let mut size = 0;
            for line in split_lines(&body) {
                size += line.len();
                if size > MAX_SEED_BODY {
                    break;
                }
                if line.iter().filter(|&&b| b == b'*').count() > MAX_STARS_PER_LINE {
                    continue;
                }
                if let Some((field, value)) = field_and_value(&line) {
                    if seeds.fields.len() < MAX_POOL {
                        seeds.fields.push(field.to_vec());
                    }
                    if seeds.values.len() < MAX_POOL {
                        seeds.values.push(value.to_vec());
                    }
                }
                lines.push(line);
            }
            if !lines.is_empty() {
                seeds.files.push(lines);
            }
        }
        if seeds.files.is_empty() {
            return Err("no non-empty file to start from".to_string());
        }
        Ok(seeds)
    }

    /// How many seed files there are.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there are none (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Every line of every seed file, without line ends (for tests and reports).
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.files.iter().flatten().map(|l| without_line_end(l))
    }
}

/// What one edit does.
#[derive(Clone, Copy, Debug)]
enum Edit {
    /// A line of another (or the same) file inserted.
    Add,
    /// A line removed.
    Drop,
    /// A line copied to another place.
    Duplicate,
    /// A line moved to another place.
    Move,
    /// A line's field name replaced by one from any file.
    SwapField,
    /// A line's value replaced by one from any file.
    SwapValue,
}

const EDITS: [Edit; 6] = [
    Edit::Add,
    Edit::Drop,
    Edit::Duplicate,
    Edit::Move,
    Edit::SwapField,
    Edit::SwapValue,
];

/// A mutated seed and the agent and URL derived from it.
pub fn mutate(seeds: &Seeds, u: &mut Unstructured<'_>) -> Input {
    let mut lines = seeds.files[pick(u, seeds.files.len())].clone();
    let edits = 1 + pick(u, 4);
    for _ in 0..edits {
        edit(seeds, &mut lines, EDITS[pick(u, EDITS.len())], u);
    }
    // A line that lost its end by moving off the last place gets one, so lines stay lines.
    let last = lines.len().saturating_sub(1);
    for line in &mut lines[..last] {
        if !matches!(line.last(), Some(b'\n' | b'\r')) {
            line.push(b'\n');
        }
    }
    let mut body = Vec::new();
    for line in lines {
        if body.len() + line.len() > MAX_SEED_BODY {
            break;
        }
        body.extend_from_slice(&line);
    }
    generate::about(body, u)
}

/// Applies one edit to `lines`.
fn edit(seeds: &Seeds, lines: &mut Vec<Vec<u8>>, edit: Edit, u: &mut Unstructured<'_>) {
    match edit {
        Edit::Add => {
            let file = &seeds.files[pick(u, seeds.files.len())];
            let line = file[pick(u, file.len())].clone();
            let at = pick(u, lines.len() + 1);
            lines.insert(at, line);
        }
        Edit::Drop if lines.len() > 1 => {
            let at = pick(u, lines.len());
            lines.remove(at);
        }
        Edit::Duplicate if !lines.is_empty() => {
            let line = lines[pick(u, lines.len())].clone();
            let at = pick(u, lines.len() + 1);
            lines.insert(at, line);
        }
        Edit::Move if lines.len() > 1 => {
            let line = lines.remove(pick(u, lines.len()));
            let at = pick(u, lines.len() + 1);
            lines.insert(at, line);
        }
        Edit::SwapField | Edit::SwapValue => {
            let with_colon: Vec<usize> = (0..lines.len())
                .filter(|&i| field_and_value(&lines[i]).is_some())
                .collect();
            let pool = match edit {
                Edit::SwapField => &seeds.fields,
                _ => &seeds.values,
            };
            if with_colon.is_empty() || pool.is_empty() {
                return;
            }
            let at = with_colon[pick(u, with_colon.len())];
            let replacement = &pool[pick(u, pool.len())];
            let line = &lines[at];
            let (field, value) = field_and_value(line).expect("has a colon");
            let end = &line[field.len() + 1 + value.len()..];
            let mut out = Vec::with_capacity(line.len() + replacement.len());
            match edit {
                Edit::SwapField => {
                    out.extend_from_slice(replacement);
                    out.push(b':');
                    out.extend_from_slice(value);
                }
                _ => {
                    out.extend_from_slice(field);
                    out.push(b':');
                    out.extend_from_slice(replacement);
                }
            }
            out.extend_from_slice(end);
            lines[at] = out;
        }
        // Nothing to drop, duplicate or move.
        _ => {}
    }
}

/// A line's field name (before its first colon) and value (after it, without the line end).
fn field_and_value(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let text = without_line_end(line);
    let colon = text.iter().position(|&b| b == b':')?;
    Some((&text[..colon], &text[colon + 1..]))
}

/// A number in `0..n` (`n` at least 1) from the fuzzer's bytes; 0 once they run out.
fn pick(u: &mut Unstructured<'_>, n: usize) -> usize {
    u.choose_index(n.max(1)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds() -> Seeds {
        Seeds::from_bodies(vec![
            b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n".to_vec(),
            b"# shop\r\nUser-agent: FooBot\r\nDisallow: /cart\r\nCrawl-delay: 5\r\n".to_vec(),
            b"User-agent: Googlebot\nDisallow: /*.gif$\nSitemap: http://example.com/s.xml".to_vec(),
            Vec::new(),
        ])
        .unwrap()
    }

    /// The `n`-th mutation of a fixed byte stream.
    fn nth(seeds: &Seeds, n: u64) -> Input {
        let bytes: Vec<u8> = (0..256u64)
            .map(|i| (i.wrapping_mul(2654435761).wrapping_add(n * 97) >> 3) as u8)
            .collect();
        mutate(seeds, &mut Unstructured::new(&bytes))
    }

    #[test]
    fn the_same_bytes_give_the_same_mutation() {
        let seeds = seeds();
        for n in 0..50 {
            assert_eq!(nth(&seeds, n), nth(&seeds, n));
        }
    }

    #[test]
    fn mutations_differ_from_the_seeds_and_from_each_other() {
        let seeds = seeds();
        let originals: Vec<Vec<u8>> = seeds.files.iter().map(|f| f.concat()).collect();
        let bodies: std::collections::BTreeSet<Vec<u8>> =
            (0..200).map(|n| nth(&seeds, n).body).collect();
        let changed = bodies.iter().filter(|b| !originals.contains(b)).count();
        assert!(
            changed >= 100,
            "only {changed} of 200 mutations changed their seed"
        );
    }

    #[test]
    fn mutations_are_made_of_the_seeds_lines_fields_and_values() {
        let seeds = seeds();
        let lines: Vec<&[u8]> = seeds.lines().collect();
        let (mut kept, mut total) = (0, 0);
        for n in 0..200 {
            let input = nth(&seeds, n);
            for line in split_lines(&input.body) {
                total += 1;
                let text = without_line_end(&line);
                if lines.contains(&text) {
                    kept += 1;
                    continue;
                }
                // Not a seed line: a seed line with its field or its value swapped.
                let (field, value) = field_and_value(&line).expect("a swapped line has a colon");
                assert!(
                    seeds.fields.iter().any(|f| f == field)
                        && seeds.values.iter().any(|v| v == value),
                    "{:?} is not made of the seeds",
                    String::from_utf8_lossy(text)
                );
            }
            assert!(input.url.starts_with("http"), "{}", input.url);
        }
        // Edits touch a few lines: most lines are the seeds' own.
        assert!(
            2 * kept > total,
            "only {kept} of {total} lines kept as written"
        );
    }

    #[test]
    fn no_files_is_an_error() {
        assert!(Seeds::from_bodies(vec![Vec::new()]).is_err());
        let missing = Seeds::load(Path::new("/nonexistent/seeds")).unwrap_err();
        assert!(missing.contains("not a directory"), "{missing}");
        let empty = tempfile::tempdir().unwrap();
        let error = Seeds::load(empty.path()).unwrap_err();
        assert!(error.contains("no non-empty file"), "{error}");
    }

    #[test]
    fn star_heavy_lines_are_left_out() {
        let seeds =
            Seeds::from_bodies(vec![b"Disallow: /*a*b*c*d*e\nAllow: /x\n".to_vec()]).unwrap();
        assert_eq!(seeds.lines().collect::<Vec<_>>(), vec![&b"Allow: /x"[..]]);
    }
}
