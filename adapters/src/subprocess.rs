//! The client side of `PROTOCOL.md`. TODO: being written.

use std::time::Duration;

use crate::adapter::{Adapter, Answer, Identity, Query, Unavailable};

/// An adapter process.
pub struct Subprocess {
    identity: Identity,
}

impl Subprocess {
    /// Starts it.
    pub fn start(
        id: &str,
        argv: Vec<String>,
        timeout: Duration,
    ) -> Result<Subprocess, Unavailable> {
        let _ = (argv, timeout);
        Err(Unavailable {
            id: id.to_string(),
            reason: "todo".into(),
            fix: String::new(),
        })
    }
}

impl Adapter for Subprocess {
    fn identity(&self) -> &Identity {
        &self.identity
    }
    fn answer(&mut self, _body: &[u8], queries: &[Query]) -> Vec<Answer> {
        queries
            .iter()
            .map(|_| Answer::Error {
                message: "todo".into(),
            })
            .collect()
    }
}
