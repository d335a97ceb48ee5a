//! The case corpus: format, loading and validation (`spec-cases/README.md`).

pub mod case;
pub mod citation;
pub mod escape;
pub mod load;
pub mod locate;
pub mod model;
pub mod read;
pub mod statements;

pub use case::{Case, CaseFetch, Check, PreferenceCheck};
pub use citation::{Citation, DOCUMENTS};
pub use load::{Corpus, LoadError};
