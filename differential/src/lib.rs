//! Differential fuzzing of robots.txt parsers against the oracle, as a library: fuzz targets
//! (`fuzz/`) and the `robotstxt-conformance fuzz` command are thin glue over it (wasmtime's layout).
//!
//! - [`input`]: what one execution asks: a body, an agent, a URL.
//! - [`generate`]: structure-aware generation (bodies people write and get wrong) and raw bytes.
//! - [`relations`]: metamorphic relations the oracle must satisfy; a violation is an oracle bug.
//! - [`invariants`]: the per-input policy: which relation, under which profile, and whether the
//!   literal mode is asked too ([`violation`]: what a broken invariant reports).
//! - [`edit`]: body and URL editing (one line splitter, one percent-escape) for the relations, the
//!   minimiser, the seeds and the generator; [`hash`]: the crate's stable hashes.
//! - [`compare`]: the oracle's four profiles against the adapters (in process, or processes asked a
//!   batch per round trip); disagreements, and a second process answering otherwise, are findings.
//! - [`signature`]: what makes two findings the same candidate divergence.
//! - [`examine`]: whether a divergence's candidate cause is a cause (the evidence of its
//!   neighbours and the parser's other answers), or its behaviour group: the bucket.
//! - [`seeds`]: real robots.txt files mutated line by line (`fuzz --seeds DIR`).
//! - [`minimize`]: delta debugging of a finding's input, keeping its signature.
//! - [`case`]: a minimised finding written as a ready-to-commit corpus case.
//! - [`campaign`]: a seeded, multi-threaded run on stable Rust (the `fuzz` command).

pub mod campaign;
pub mod case;
pub mod compare;
pub mod edit;
pub mod examine;
pub mod generate;
pub mod hash;
pub mod input;
pub mod invariants;
pub mod minimize;
pub mod relations;
pub mod seeds;
pub mod signature;
pub mod targets;
pub mod violation;

pub use input::Input;
pub use targets::{fuzz_differential, fuzz_oracle};
