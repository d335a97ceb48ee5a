//! The corpus matrix: every check of the corpus asked of the oracle and of every adapter
//! ([`ask`]), each answer judged against the adapter's claimed profile and its ledger ([`run`],
//! [`ledger`]), and the results ([`results`]) rendered for people and machines ([`report`]):
//! results.json, Markdown, HTML, JUnit and badges. Fingerprints ([`fingerprint`]) name the profile
//! and knob readings an adapter's answers fit; [`preferences`] and [`aiusage`] are the AI-usage
//! questions.
//!
//! The oracle lives in `robotstxt-oracle`; the corpus loader, the oracle's verification and its
//! failure report in `robotstxt-spec` (the light crate parser authors depend on): its `cases` and
//! `render` are re-exported here, and [`verify`] builds on its verification. The real-world
//! report (`robotstxt-realworld`) and the site (`robotstxt-site`) build on this crate; the
//! command line (`src/`) runs all three.

pub use robotstxt_spec::{cases, render};

pub mod aiusage;
pub mod ask;
pub mod coverage;
pub mod fingerprint;
pub mod ledger;
pub mod preferences;
pub mod report;
pub mod results;
pub mod run;
pub mod stats;
pub mod verify;

use std::path::PathBuf;

/// The corpus directory: `$ROBOTSTXT_CASES` if set, else `spec-cases` in the current directory if it
/// exists, else the `spec-cases` this crate was built from.
pub fn default_cases_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOTSTXT_CASES") {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("spec-cases");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec-cases"))
}
