//! Real-world impact: the buckets of a `realworld` run (`realworld.json`) a cause shows up in.

use robotstxt_realworld::tally::{Bucket, Results as RealWorld};

use crate::causes::Cause;

/// The buckets whose example examining credited with `cause` (every part of it, for a
/// combination), or, for a behaviour group, whose example fell in that group, for `adapter` (every
/// adapter when `None`), largest first. A bucket whose example credits nothing counts towards no
/// cause: a candidate is not a cause.
pub fn buckets<'a>(
    realworld: &'a RealWorld,
    adapter: Option<&str>,
    cause: &Cause,
) -> Vec<&'a Bucket> {
    let mut found: Vec<&Bucket> = realworld
        .buckets
        .values()
        .filter(|b| adapter.is_none_or(|a| b.adapter == a))
        .filter(|b| match cause {
            Cause::Behaviour(key) => {
                robotstxt_oracle::behaviour::key_of(&b.example.cause) == Some(key.as_str())
            }
            _ => b.example.credited().is_some_and(|c| cause.in_bucket(c)),
        })
        .collect();
    found.sort_by(|a, b| {
        b.files
            .count
            .cmp(&a.files.count)
            .then(a.cause.cmp(&b.cause))
    });
    found
}

/// A sentence on how many real files the buckets hold: "12 files of 4,231 real files (0.3%), 40
/// checks" for one bucket; for several, the largest (a file may be in more than one bucket, so
/// their files are not added up); or that none of the real files shows it.
pub fn sentence(realworld: &RealWorld, buckets: &[&Bucket]) -> String {
    let thousands = robotstxt_matrix::report::badge::thousands;
    let Some(largest) = buckets.first() else {
        return format!(
            "None of the {} real files showed it.",
            thousands(realworld.files)
        );
    };
    let one = format!(
        "{} of {} real files ({}), {} checks",
        thousands(largest.files.count),
        thousands(realworld.files),
        robotstxt_realworld::report::percent(largest.files.count, realworld.files),
        thousands(largest.checks),
    );
    if buckets.len() == 1 {
        format!("{one}.")
    } else {
        format!(
            "{} buckets; the largest ({}, {}): {one}.",
            buckets.len(),
            largest.adapter,
            largest.cause
        )
    }
}
