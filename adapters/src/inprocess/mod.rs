//! Parsers called in this process: the Rust crates and Google's C++ (through `cc`).
//!
//! Each parser is one small file with two functions: `identity()` and `check(body, agent, url)`,
//! the body a [`Body`] (octets, and text converted once for all the parsers that take `&str`).
//! [`InProcess`] turns such a pair into an [`Adapter`], catching panics so that a parser that
//! panics answers `crash` instead of unwinding into the runner. (Aborts and segfaults cannot be
//! caught in process: that is why the registry runs these adapters in a worker process by default.)

pub mod fast_robots;
pub mod google_cpp;
pub mod robots_txt;
pub mod robotstxt;
pub mod robotxt;
pub mod sim_codec_robots;
pub mod texting_robots;

use robotstxt_spec::ask::catch_quietly;

use crate::adapter::{Adapter, Answer, Body, Identity, Query, Unavailable};

/// One check, in process: body, product token, absolute URL → answer.
pub type CheckFn = fn(body: &Body<'_>, agent: &str, url: &str) -> Answer;

/// A check that holds state of its own (the mutant zoo's parsers, each a reading).
pub type CheckClosure = std::sync::Arc<dyn Fn(&Body<'_>, &str, &str) -> Answer + Send + Sync>;

/// An in-process parser: its identity and its check function.
pub struct InProcess {
    identity: Identity,
    check: CheckClosure,
}

impl InProcess {
    /// The adapter for `check`, announcing `identity`.
    pub fn new(identity: Identity, check: CheckFn) -> InProcess {
        InProcess::with_closure(identity, std::sync::Arc::new(check))
    }

    /// The adapter for a check that holds state of its own, announcing `identity`.
    pub fn with_closure(identity: Identity, check: CheckClosure) -> InProcess {
        InProcess { identity, check }
    }

    /// One check, a panic answering `crash` ([`Adapter::answer`] for a single query, without
    /// building the query and answer lists: the fuzzer's path, where every adapter is given the
    /// same [`Body`]).
    pub fn answer_one(&self, body: &Body<'_>, agent: &str, url: &str) -> Answer {
        // The panic hook stays quiet: the panic is the answer, its message kept.
        catch_quietly(|| (self.check)(body, agent, url))
            .unwrap_or_else(|payload| Answer::panicked(panic_message(&*payload)))
    }
}

impl Adapter for InProcess {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        let body = Body::new(body);
        queries
            .iter()
            .map(|q| self.answer_one(&body, &q.agent, &q.url))
            .collect()
    }
}

/// A Rust parser's result (`robotstxt-rust-peers`) as an answer: its verdict, or its error.
pub fn answer(result: Result<bool, String>) -> Answer {
    match result {
        Ok(allowed) => Answer::from_allowed(allowed),
        Err(message) => Answer::Error { message },
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".to_string()
    }
}

/// An in-process parser the registry knows: how to check availability and open it.
pub struct Builtin {
    /// Its stable id.
    pub id: &'static str,
    /// Its identity.
    pub identity: fn() -> Identity,
    /// Its check function.
    pub check: CheckFn,
    /// Whether it can run here (Google's C++ needs its source and abseil at build time).
    pub available: fn() -> Result<(), Unavailable>,
}

/// Always available.
pub fn always() -> Result<(), Unavailable> {
    Ok(())
}

/// The in-process parsers, in report order.
pub const BUILTINS: [Builtin; 7] = [
    Builtin {
        id: "google-cpp",
        identity: google_cpp::identity,
        check: google_cpp::check,
        available: google_cpp::available,
    },
    Builtin {
        id: "robotstxt",
        identity: robotstxt::identity,
        check: robotstxt::check,
        available: always,
    },
    Builtin {
        id: "texting-robots",
        identity: texting_robots::identity,
        check: texting_robots::check,
        available: always,
    },
    Builtin {
        id: "robotxt",
        identity: robotxt::identity,
        check: robotxt::check,
        available: always,
    },
    Builtin {
        id: "sim-codec-robots",
        identity: sim_codec_robots::identity,
        check: sim_codec_robots::check,
        available: always,
    },
    Builtin {
        id: "robots-txt",
        identity: robots_txt::identity,
        check: robots_txt::check,
        available: always,
    },
    Builtin {
        id: "fast-robots",
        identity: fast_robots::identity,
        check: fast_robots::check,
        available: always,
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_playground_puts_a_path_on_the_host_run_puts_it_on() {
        for url in ["/a?b", "//host/x", "https://example.org/", "", "x"] {
            assert_eq!(
                robotstxt_rust_peers::absolute_url(url),
                robotstxt_spec::verify::absolute_url(url),
                "{url}"
            );
        }
    }
}
