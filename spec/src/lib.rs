//! Certify a robots.txt parser from `cargo test`.
//!
//! This crate carries the robotstxt-conformance corpus (every case file, compiled in) and runs it
//! against your parser through [libtest-mimic](https://docs.rs/libtest-mimic): each check is a
//! named test, and a failure prints the case, its citations, the body with invisible characters
//! shown, the expected and actual verdicts and the reference oracle's explanation. See the crate's
//! README for the ten lines a test file needs.
//!
//! The modules below [`Suite`] are the corpus loader and the verification the repository's own
//! harness uses; they are public so that both share one implementation.

#![deny(missing_docs)]

pub mod answer;
pub mod ask;
pub mod badge;
pub mod cases;
pub mod causes;
pub mod embedded;
pub mod ledger;
pub mod parser;
pub mod render;
pub mod serve;
pub mod suite;
pub mod verify;
pub mod versions;

pub use answer::Answer;
pub use embedded::CORPUS_VERSION;
pub use parser::Parser;
pub use robotstxt_oracle::{Fetch, ProfileId, Verdict};
pub use suite::Suite;
