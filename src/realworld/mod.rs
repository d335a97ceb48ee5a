//! The real-world divergence report (`realworld`): every parser and every profile on real
//! robots.txt files, with checks derived from each file, disagreements bucketed by cause, and
//! results that shards compute separately and `merge` combines into exactly the single run's.
//!
//! - `corpus`: where files come from (the protego test data, a directory, WARC captures) and which
//!   shard takes which file;
//! - `facts`: file-level facts (BOM, line endings, invalid UTF-8, HTML, size, status).

pub mod bench;
pub mod corpus;
pub mod derive;
pub mod facts;
pub mod html;
pub mod report;
pub mod run;
pub mod tally;
