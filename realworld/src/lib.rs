//! The real-world divergence report (`realworld`): every parser and every profile on real
//! robots.txt files, with checks derived from each file, disagreements bucketed by cause, and
//! results that shards compute separately and `merge` combines into exactly the single run's.
//!
//! - `corpus`: where files come from (the protego test data, a directory, WARC captures), each a
//!   `file` (`RealFile`) that a `Shard` takes or not;
//! - `facts`: file-level facts (BOM, line endings, invalid UTF-8, HTML, size, status);
//! - `protego`: the protego test data, fetched from PyPI once and cached;
//! - `warc`: robots.txt responses from WARC files, and `http` the HTTP responses inside them;
//! - `derive`: the checks asked of a file, made from its own lines;
//! - `run`: one run, the oracle and every adapter side by side, files in and [`tally::Results`] out;
//! - `tally`: the results, built so that shards merge into exactly the single run's;
//! - `report` and `html`: the results for a person (text, Markdown, a summary line; one HTML page);
//! - `bench`: what a run costs (`--bench`), as ratios measured in the same run.
//!
//! The commands are in `src/cli/realworld.rs` and `src/cli/merge.rs`.

pub mod bench;
pub mod corpus;
pub mod derive;
pub mod facts;
pub mod file;
pub mod html;
pub mod http;
pub mod protego;
pub mod report;
pub mod run;
pub mod tally;
pub mod warc;
