//! TODO(helper): google_cpp adapter.

use crate::adapter::{Answer, Identity, Unavailable};

/// Who it is.
pub fn identity() -> Identity {
    crate::inprocess::robotstxt::identity()
}

/// One check.
pub fn check(_body: &[u8], _agent: &str, _url: &str) -> Answer {
    Answer::Unsupported {
        reason: "not written yet".into(),
    }
}

/// Whether it can run here.
pub fn available() -> Result<(), Unavailable> {
    Ok(())
}
