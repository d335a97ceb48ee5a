//! robotstxt-conformance: the case corpus, its loader, and the verification shared by the
//! `cargo test` harness, the command line and (later) the fuzzer and downstream crates.
//!
//! The oracle lives in the `robotstxt-oracle` crate; the corpus loader, the oracle's verification
//! and its failure report in `robotstxt-spec` (the light crate parser authors depend on),
//! re-exported here as `cases`, `render` and `verify`; this crate adds the adapters, the runner,
//! ledgers, reports and the command line.

pub use robotstxt_spec::{cases, render};

pub mod aiusage;
pub mod coverage;
pub mod fingerprint;
pub mod ledger;
pub mod preferences;
pub mod realworld;
pub mod report;
pub mod results;
pub mod run;
pub mod site;
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
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases")
}
