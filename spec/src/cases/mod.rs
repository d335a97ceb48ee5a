//! The case corpus: format, loading and validation (`spec-cases/README.md`).

pub mod citation;
pub mod escape;
pub mod load;
pub mod locate;
pub mod model;
pub mod read;
pub mod statements;

pub use citation::{Citation, DOCUMENTS};
pub use load::{Case, Check, Corpus, LoadError, PreferenceCheck};
