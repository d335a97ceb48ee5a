//! The command line's commands, one module each (`src/main.rs` parses the arguments and picks
//! one), and what they share: `options` (the corpus directory, the output format, the adapters to
//! open) and `exit` (how the program ends).

pub mod adapter;
pub mod adapters;
pub mod bench;
pub mod cases;
pub mod certify;
pub mod check;
pub mod exit;
pub mod fingerprint;
pub mod fuzz;
pub mod ledger;
pub mod merge;
pub mod options;
pub mod peers;
pub mod realworld;
pub mod run;
pub mod site;
