//! Where real robots.txt files come from, and which shard takes which.

use std::path::{Path, PathBuf};

use robotstxt_oracle::Fetch;

/// One real robots.txt capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealFile {
    /// A stable id: the file's path relative to the directory it was found in (with the source's
    /// name in front, e.g. `protego/google.com`), or the WARC record id. Sharding and every
    /// report's ordering use it.
    pub id: String,
    /// The URL the body was fetched from, when known (a WARC record's target URI).
    pub robots_url: Option<String>,
    /// How the fetch went (a WARC record's HTTP status; a plain file is a 200).
    pub fetch: Fetch,
    /// The body's octets, exactly as served (after any transfer and content encoding is undone).
    pub body: Vec<u8>,
}

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

/// One shard of N: the files whose id hashes to `index` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// The whole input.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// The shard `K/N` names (K from 0 to N-1).
    pub fn parse(text: &str, _shards: Option<u32>) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("--shard `{text}`: expected K/N"))?;
        let index: u32 = k
            .parse()
            .map_err(|_| format!("--shard `{text}`: K is not a number"))?;
        let count: u32 = n
            .parse()
            .map_err(|_| format!("--shard `{text}`: N is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("--shard `{text}`: K must be from 0 to N-1"));
        }
        Ok(Shard { index, count })
    }

    /// Whether the file with this id belongs to this shard (a fixed hash of the id, the same on
    /// every machine and in every run).
    pub fn takes(&self, id: &str) -> bool {
        // FNV-1a, 64 bits: fixed by its definition, unlike std's hasher.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &byte in id.as_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash % u64::from(self.count) == u64::from(self.index)
    }
}

/// Every file of `sources` that `shard` takes, in input order (directories in file-name order),
/// each source cut to its first `limit` files before sharding; `each` is called once per file.
/// Errors name the file and what is wrong with it.
pub fn each_file(
    sources: &[Source],
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
) -> Result<(), String> {
    for source in sources {
        match source {
            Source::Dir(dir) => {
                let mut names = Vec::new();
                for entry in std::fs::read_dir(dir)
                    .map_err(|e| format!("{}: cannot read the directory: {e}", dir.display()))?
                {
                    let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
                    if entry.file_type().map(|t| t.is_file()).unwrap_or(false) {
                        names.push(entry.file_name());
                    }
                }
                names.sort();
                names.truncate(limit.unwrap_or(usize::MAX));
                let prefix = dir.file_name().map(|n| n.to_string_lossy().into_owned());
                for name in names {
                    let id = match &prefix {
                        Some(prefix) => format!("{prefix}/{}", name.to_string_lossy()),
                        None => name.to_string_lossy().into_owned(),
                    };
                    if !shard.takes(&id) {
                        continue;
                    }
                    let path = dir.join(&name);
                    let body = std::fs::read(&path)
                        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
                    each(RealFile {
                        id,
                        robots_url: None,
                        fetch: Fetch::default(),
                        body,
                    })?;
                }
            }
            Source::File(path) => {
                let id = path.display().to_string();
                if shard.takes(&id) {
                    let body = std::fs::read(path)
                        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
                    each(RealFile {
                        id,
                        robots_url: None,
                        fetch: Fetch::default(),
                        body,
                    })?;
                }
            }
            Source::Protego | Source::Warc(_) => {
                return Err("not yet: the protego data and WARC input".to_string())
            }
        }
    }
    Ok(())
}
