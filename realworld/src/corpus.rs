//! Where real robots.txt files come from, and which shard takes which.

use std::path::{Path, PathBuf};

use robotstxt_oracle::Fetch;

use crate::file::{RealFile, Shard};
pub use crate::warc::Unreadable;

/// Where files come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Scrapy's protego test data, fetched from PyPI once, verified by hash and cached.
    Protego,
    /// A directory of robots.txt files, one per site.
    Dir(PathBuf),
    /// One robots.txt file.
    File(PathBuf),
    /// A WARC file (`.warc` or `.warc.gz`) of robots.txt captures.
    Warc(PathBuf),
}

impl Source {
    /// The source a `--corpus` argument names: a directory, a WARC file by its extension, or a
    /// single file.
    pub fn from_path(path: &Path) -> Source {
        let name = path.to_string_lossy();
        if path.is_dir() {
            Source::Dir(path.to_path_buf())
        } else if name.ends_with(".warc") || name.ends_with(".warc.gz") {
            Source::Warc(path.to_path_buf())
        } else {
            Source::File(path.to_path_buf())
        }
    }
}

/// The corpus paths of a `--corpus-list` (a file, or `-` for standard input): one path per line,
/// each given to [`Source::from_path`]; blank lines and lines starting with `#` are skipped.
/// A path that does not exist is an error naming the list and the line.
pub fn read_corpus_list(list: &str) -> Result<Vec<Source>, String> {
    let (name, text) = if list == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("standard input: {e}"))?;
        ("standard input".to_string(), text)
    } else {
        let text = std::fs::read_to_string(list).map_err(|e| format!("{list}: {e}"))?;
        (list.to_string(), text)
    };
    corpus_list(&name, &text)
}

/// The sources of the corpus list `text`, read from `name` (for errors).
pub fn corpus_list(name: &str, text: &str) -> Result<Vec<Source>, String> {
    let mut sources = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let path = line.trim();
        if path.is_empty() || path.starts_with('#') {
            continue;
        }
        let path = Path::new(path);
        if !path.exists() {
            return Err(format!(
                "{name}:{}: {}: no such file or directory",
                index + 1,
                path.display()
            ));
        }
        sources.push(Source::from_path(path));
    }
    Ok(sources)
}

/// Every file of `sources` that `shard` takes, in input order (directories in file-name order),
/// each source cut to its first `limit` files before sharding; `each` is called once per file.
/// Errors name the file and what is wrong with it; a WARC record that cannot be read is one.
pub fn each_file(
    sources: &[Source],
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
) -> Result<(), String> {
    each_file_in(sources, shard, limit, each, None)
}

/// [`each_file`], except that a WARC record that cannot be read is passed to `unreadable` (when
/// `shard` takes it) and the run goes on (see [`crate::warc`]). Files that cannot be opened are
/// still errors.
pub fn each_file_counting(
    sources: &[Source],
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
    unreadable: &mut dyn FnMut(Unreadable),
) -> Result<(), String> {
    each_file_in(sources, shard, limit, each, Some(unreadable))
}

/// [`each_file`] with the choice of what an unreadable record does.
fn each_file_in(
    sources: &[Source],
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
    mut unreadable: Option<&mut dyn FnMut(Unreadable)>,
) -> Result<(), String> {
    for source in sources {
        match source {
            Source::Dir(dir) => {
                let prefix = dir.file_name().map(|n| n.to_string_lossy().into_owned());
                each_in_dir(dir, prefix.as_deref(), None, shard, limit, each)?;
            }
            Source::Protego => {
                let dir = crate::protego::data_dir()?;
                let files = crate::protego::PROTEGO.files;
                each_in_dir(&dir, Some("protego"), Some(files), shard, limit, each)?;
            }
            Source::Warc(path) => {
                let unreadable = unreadable
                    .as_mut()
                    .map(|note| &mut **note as &mut dyn FnMut(Unreadable));
                crate::warc::each_response(path, shard, limit, each, unreadable)?
            }
            Source::File(path) => {
                // Its own name, never its path on this machine (the reports publish ids).
                let id = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                if shard.takes(&id) && limit != Some(0) {
                    each(plain_file(id, path)?)?;
                }
            }
        }
    }
    Ok(())
}

/// The files of `dir` in file-name order, cut to `limit`, that `shard` takes, with ids
/// `<prefix>/<name>`; `expected`, when given, is how many files the directory must hold (a cache
/// that lost files is an error, not a smaller corpus).
fn each_in_dir(
    dir: &Path,
    prefix: Option<&str>,
    expected: Option<usize>,
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
) -> Result<(), String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot read the directory: {e}", dir.display()))?
    {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        if entry.file_type().map(|t| t.is_file()).unwrap_or(false) {
            names.push(entry.file_name());
        }
    }
    if let Some(expected) = expected.filter(|&n| n != names.len()) {
        return Err(format!(
            "{}: {} files, expected {expected}: the cache is damaged; delete it and run again",
            dir.display(),
            names.len()
        ));
    }
    names.sort();
    names.truncate(limit.unwrap_or(usize::MAX));
    for name in names {
        let id = match prefix {
            Some(prefix) => format!("{prefix}/{}", name.to_string_lossy()),
            None => name.to_string_lossy().into_owned(),
        };
        if !shard.takes(&id) {
            continue;
        }
        each(plain_file(id, &dir.join(&name))?)?;
    }
    Ok(())
}

/// A robots.txt file read from disk: a plain 200. A file says nothing of its URL: the protego
/// files are named after the host of the final response (fetched over https, or http when that
/// failed, after any redirects), so neither the scheme nor the path is known and none is claimed.
fn plain_file(id: String, path: &Path) -> Result<RealFile, String> {
    let body = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Ok(RealFile {
        id,
        robots_url: None,
        fetch: Fetch::default(),
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(text: &str, shards: Option<u32>, vars: &[(&str, &str)]) -> Result<Shard, String> {
        let env: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Shard::parse_in(text, shards, &|name| env.get(name).cloned())
    }

    fn shard(index: u32, count: u32) -> Result<Shard, String> {
        Ok(Shard { index, count })
    }

    #[test]
    fn explicit_shards_count_from_zero() {
        assert_eq!(parse("0/4", None, &[]), shard(0, 4));
        assert_eq!(parse("3/4", None, &[]), shard(3, 4));
        assert_eq!(parse("3/4", Some(4), &[]), shard(3, 4));
        assert_eq!(parse("0/1", None, &[]), Ok(Shard::ALL));
    }

    #[test]
    fn bad_explicit_shards_are_clear_errors() {
        for (text, shards, error) in [
            (
                "4/4",
                None,
                "--shard 4/4: shard 4 of 4, but shards are counted from 0, so the last is 3",
            ),
            ("0/0", None, "the shard count is 0"),
            ("1", None, "expected K/N"),
            ("a/2", None, "K is \"a\", not a whole number"),
            ("1/-2", None, "N is \"-2\""),
            ("1/4", Some(5), "--shard 1/4 but --shards 5"),
        ] {
            let got = parse(text, shards, &[]).unwrap_err();
            assert!(got.contains(error), "{text}: {got}");
        }
    }

    #[test]
    fn auto_reads_a_kubernetes_indexed_job() {
        let env = [("JOB_COMPLETION_INDEX", "2")];
        assert_eq!(parse("auto", Some(3), &env), shard(2, 3));
        let error = parse("auto", None, &env).unwrap_err();
        assert!(error.contains("needs --shards N"), "{error}");
        let error = parse("auto", Some(2), &env).unwrap_err();
        assert!(error.contains("--shard auto: shard 2 of 2"), "{error}");
    }

    #[test]
    fn auto_reads_a_slurm_job_array() {
        let env = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(parse("auto", None, &env), shard(1, 4));
        assert_eq!(parse("auto", Some(4), &env), shard(1, 4));
        let error = parse("auto", Some(5), &env).unwrap_err();
        assert!(
            error.contains("SLURM_ARRAY_TASK_COUNT is 4 but --shards is 5"),
            "{error}"
        );
        // --array=1-4: ids 1..4 are shards 0..3.
        let env = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(parse("auto", None, &env), shard(3, 4));
        // No count from Slurm: --shards gives it.
        assert_eq!(
            parse("auto", Some(2), &[("SLURM_ARRAY_TASK_ID", "0")]),
            shard(0, 2)
        );
        let error = parse("auto", None, &[("SLURM_ARRAY_TASK_ID", "0")]).unwrap_err();
        assert!(
            error.contains("needs SLURM_ARRAY_TASK_COUNT or --shards N"),
            "{error}"
        );
    }

    #[test]
    fn auto_without_a_scheduler_is_a_clear_error() {
        let error = parse("auto", Some(4), &[("HOME", "/root")]).unwrap_err();
        assert!(error.contains("neither JOB_COMPLETION_INDEX"), "{error}");
        let error = parse("auto", Some(4), &[("JOB_COMPLETION_INDEX", "x")]).unwrap_err();
        assert!(
            error.contains("JOB_COMPLETION_INDEX is \"x\", not a whole number"),
            "{error}"
        );
    }

    #[test]
    fn shards_partition_the_ids() {
        let ids: Vec<String> = (0..1000)
            .map(|i| format!("protego/host{i}.example"))
            .collect();
        let mut sizes = Vec::new();
        for index in 0..4 {
            let shard = Shard { index, count: 4 };
            sizes.push(ids.iter().filter(|id| shard.takes(id)).count());
        }
        assert_eq!(sizes.iter().sum::<usize>(), 1000, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n > 150), "{sizes:?}");
    }

    #[test]
    fn a_corpus_list_names_paths_one_per_line() {
        let dir = tempfile::tempdir().unwrap();
        let robots = dir.path().join("a.txt");
        std::fs::write(&robots, "Disallow: /\n").unwrap();
        let warc = dir.path().join("b.warc.gz");
        std::fs::write(&warc, "").unwrap();
        let text = format!(
            "# the list\n{}\n\n  {}  \r\n{}\n",
            robots.display(),
            warc.display(),
            dir.path().display()
        );
        assert_eq!(
            corpus_list("list", &text).unwrap(),
            [
                Source::File(robots.clone()),
                Source::Warc(warc),
                Source::Dir(dir.path().to_path_buf())
            ]
        );
        let missing = dir.path().join("gone.txt");
        let text = format!("{}\n{}\n", robots.display(), missing.display());
        let error = corpus_list("list.txt", &text).unwrap_err();
        assert_eq!(
            error,
            format!(
                "list.txt:2: {}: no such file or directory",
                missing.display()
            )
        );
        let error = read_corpus_list(&dir.path().join("none").display().to_string()).unwrap_err();
        assert!(error.contains("none: "), "{error}");
    }

    #[test]
    fn each_file_reads_directories_files_and_warcs_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("sites");
        std::fs::create_dir(&site).unwrap();
        std::fs::write(site.join("b.example"), "Disallow: /b\n").unwrap();
        std::fs::write(site.join("a.example"), "Disallow: /a\n").unwrap();
        let warc = dir.path().join("one.warc");
        crate::warc::tests::write_warc(
            &warc,
            &[crate::warc::tests::response(
                "<urn:x:1>",
                "http://w.example/robots.txt",
                "HTTP/1.1 410 Gone",
                b"gone",
            )],
            false,
        );
        let sources = [Source::from_path(&site), Source::from_path(&warc)];
        let mut seen = Vec::new();
        each_file(&sources, Shard::ALL, None, &mut |f| {
            seen.push((f.id, f.robots_url, f.fetch, f.body));
            Ok(())
        })
        .unwrap();
        let ok = Fetch::default();
        assert_eq!(
            seen,
            [
                (
                    "sites/a.example".to_string(),
                    None,
                    ok,
                    b"Disallow: /a\n".to_vec()
                ),
                (
                    "sites/b.example".to_string(),
                    None,
                    ok,
                    b"Disallow: /b\n".to_vec()
                ),
                (
                    "<urn:x:1>".to_string(),
                    Some("http://w.example/robots.txt".to_string()),
                    Fetch::Status {
                        status: 410,
                        redirects: 0
                    },
                    b"gone".to_vec()
                ),
            ]
        );
        // A directory with an expected count that differs (a damaged cache) is an error.
        let error = each_in_dir(
            &site,
            Some("protego"),
            Some(3),
            Shard::ALL,
            None,
            &mut |_| Ok(()),
        )
        .unwrap_err();
        assert!(
            error.contains("2 files, expected 3: the cache is damaged"),
            "{error}"
        );
    }

    /// The value after `flag` in `args`.
    fn after<'a>(args: &[&'a str], flag: &str) -> &'a str {
        let at = args
            .iter()
            .position(|a| *a == flag)
            .unwrap_or_else(|| panic!("no {flag}"));
        args[at + 1]
    }

    #[test]
    fn the_kubernetes_example_parses_and_its_counts_agree() {
        let text = include_str!("../../examples/kubernetes/indexed-job.yaml");
        let job: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
        assert_eq!(job["kind"].as_str(), Some("Job"));
        assert_eq!(job["spec"]["completionMode"].as_str(), Some("Indexed"));
        let completions = job["spec"]["completions"].as_u64().unwrap() as u32;
        let container = &job["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(
            container["command"][0].as_str(),
            Some("robotstxt-conformance")
        );
        let args: Vec<&str> = container["args"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(args[0], "realworld");
        assert_eq!(after(&args, "--shard"), "auto");
        let shards: u32 = after(&args, "--shards").parse().unwrap();
        assert_eq!(shards, completions);
        assert_eq!(after(&args, "--out"), "/results/$(JOB_COMPLETION_INDEX)");
        // Every pod's index names a shard.
        for index in 0..completions {
            let env = [("JOB_COMPLETION_INDEX", index.to_string())];
            let shard = Shard::parse_in("auto", Some(shards), &|name| {
                env.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone())
            });
            assert_eq!(
                shard,
                Ok(Shard {
                    index,
                    count: completions
                })
            );
        }
    }

    #[test]
    fn the_slurm_example_array_matches_its_shard_count() {
        let text = include_str!("../../examples/slurm/array.sh");
        let array = text
            .lines()
            .find_map(|l| l.strip_prefix("#SBATCH --array="))
            .unwrap();
        let (first, last) = array.split_once('-').unwrap();
        let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
        // The command, not the comments.
        let words: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        let shards: u32 = after(&words, "--shards").parse().unwrap();
        assert_eq!(
            last - first + 1,
            shards,
            "--array={array} against --shards {shards}"
        );
        assert_eq!(after(&words, "--shard"), "auto");
        for id in first..=last {
            let env = [
                ("SLURM_ARRAY_TASK_ID", id.to_string()),
                ("SLURM_ARRAY_TASK_MIN", first.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", shards.to_string()),
            ];
            let shard = Shard::parse_in("auto", Some(shards), &|name| {
                env.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone())
            });
            assert_eq!(
                shard,
                Ok(Shard {
                    index: id - first,
                    count: shards
                })
            );
        }
    }
}
