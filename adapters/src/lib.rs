//! robots.txt parsers behind one interface.
//!
//! Every parser, whether a Rust crate called in process, Google's C++ compiled with `cc`, or a
//! program in another language speaking the JSON-lines protocol of `PROTOCOL.md`, is an
//! [`Adapter`]: it says who it is ([`Identity`]) and answers a batch of checks about one body
//! ([`Query`] → [`Answer`]). The runner, the ledgers, the matrix and the fuzzer see nothing else.
//!
//! - [`adapter`]: the trait and the values it speaks in.
//! - [`registry`]: the stable adapter ids and how each is opened.
//! - [`inprocess`]: the Rust crates and Google's C++, one small file each.
//! - [`protocol`], [`subprocess`], [`serve`]: the JSON-lines protocol, its client and its server.
//! - [`peers`]: the adapter programs we ship for other languages and how their runtimes are installed.
//! - [`faults`]: adapters that misbehave on purpose, to prove the runner survives them.

pub mod adapter;
pub mod faults;
pub mod inprocess;
pub mod peers;
pub mod protocol;
pub mod registry;
pub mod serve;
pub mod subprocess;
pub mod zoo;

pub use adapter::{Adapter, Answer, Capabilities, Identity, Query, Unavailable, UrlForm};
pub use registry::{open, Options, BUILTIN_IDS};
