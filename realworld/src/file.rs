//! One real robots.txt file, and which shard of a run takes it.

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

    /// The shard a `--shard` argument names: `K/N` (shard K of N, counted from 0, so
    /// `0/4` .. `3/4`), or `auto`, which asks the scheduler: a Kubernetes Indexed Job's
    /// `JOB_COMPLETION_INDEX`, or a Slurm job array's `SLURM_ARRAY_TASK_ID` (less
    /// `SLURM_ARRAY_TASK_MIN`, so `--array=1-8` works too). The count is `shards` (`--shards N`),
    /// or `SLURM_ARRAY_TASK_COUNT` when Slurm gives it; when both are given they must agree.
    pub fn parse(text: &str, shards: Option<u32>) -> Result<Shard, String> {
        Shard::parse_in(text, shards, &|name| std::env::var(name).ok())
    }

    /// [`Shard::parse`] with the environment given as a lookup (the tests' own environment).
    pub fn parse_in(
        text: &str,
        shards: Option<u32>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Shard, String> {
        let number = |what: &str, value: &str| {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("{what} is {value:?}, not a whole number"))
        };
        let (index, count) = if text.trim() == "auto" {
            if let Some(index) = env("JOB_COMPLETION_INDEX") {
                let index = number("JOB_COMPLETION_INDEX", &index)?;
                let count = shards.ok_or(
                    "--shard auto in a Kubernetes Indexed Job needs --shards N (the Job's \
                     `completions`)",
                )?;
                (index, count)
            } else if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
                let id = number("SLURM_ARRAY_TASK_ID", &id)?;
                let min = match env("SLURM_ARRAY_TASK_MIN") {
                    Some(min) => number("SLURM_ARRAY_TASK_MIN", &min)?,
                    None => 0,
                };
                let index = id.checked_sub(min).ok_or_else(|| {
                    format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}")
                })?;
                let given = match env("SLURM_ARRAY_TASK_COUNT") {
                    Some(count) => Some(number("SLURM_ARRAY_TASK_COUNT", &count)?),
                    None => None,
                };
                let count = match (given, shards) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(format!("SLURM_ARRAY_TASK_COUNT is {a} but --shards is {b}"))
                    }
                    (Some(count), _) | (None, Some(count)) => count,
                    (None, None) => {
                        return Err("--shard auto under Slurm needs SLURM_ARRAY_TASK_COUNT \
                                    or --shards N"
                            .to_string())
                    }
                };
                (index, count)
            } else {
                return Err(
                    "--shard auto: neither JOB_COMPLETION_INDEX (a Kubernetes Indexed \
                            Job) nor SLURM_ARRAY_TASK_ID (a Slurm job array) is set; give \
                            the shard as K/N"
                        .to_string(),
                );
            }
        } else {
            let (k, n) = text.split_once('/').ok_or_else(|| {
                format!("--shard {text:?}: expected K/N (shard K of N, from 0) or auto")
            })?;
            let (index, count) = (number("K", k)?, number("N", n)?);
            if let Some(shards) = shards.filter(|&s| s != count) {
                return Err(format!("--shard {text} but --shards {shards}"));
            }
            (index, count)
        };
        if count == 0 {
            return Err(format!(
                "--shard {text}: the shard count is 0; it must be at least 1"
            ));
        }
        if index >= count {
            return Err(format!(
                "--shard {text}: shard {index} of {count}, but shards are counted from 0, so \
                 the last is {}",
                count - 1
            ));
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
