//! Asking a parser one question: the check's body, agent and URL through [`Parser::check`] (or
//! [`Parser::check_fetch`] for another fetch outcome), a panic caught and made the answer. The
//! suite's trials, the protocol server and the cause search's neighbour questions all ask here.

use robotstxt_oracle::Fetch;

use crate::answer::Answer;
use crate::cases::{Case, Check};
use crate::parser::Parser;
use crate::verify::absolute_url;

/// Asks `parser` one check (which must be askable, see [`crate::suite::not_asked`]); a panic is the check's
/// answer, [`Answer::panicked`] with the panic's message.
pub fn ask(parser: &dyn Parser, case: &Case, check: &Check) -> Answer {
    ask_raw(
        parser,
        case.fetch,
        &case.body,
        &check.agent,
        &absolute_url(&check.url),
    )
}

/// Asks `parser` about `body` fetched as `fetch` (a plain 200 asks [`Parser::check`], anything
/// else [`Parser::check_fetch`]), `agent` and the absolute `url`; a panic is the answer,
/// [`Answer::panicked`] with the panic's message. What [`ask`] and the protocol server
/// ([`crate::serve`]) both call.
pub fn ask_raw(parser: &dyn Parser, fetch: Fetch, body: &[u8], agent: &str, url: &str) -> Answer {
    let asked = catch_quietly(|| {
        if fetch == Fetch::default() {
            parser.check(body, agent, url)
        } else {
            parser.check_fetch(fetch, body, agent, url)
        }
    });
    match asked {
        // A preference answers another question (which usage preference applies): no verdict.
        Ok(Answer::Preference { preference }) => Answer::Error {
            message: format!(
                "asked whether the URL is allowed, the parser answered a preference ({})",
                preference.name()
            ),
        },
        Ok(answer) => answer,
        Err(payload) => Answer::panicked(panic_message(payload.as_ref())),
    }
}

/// The parser's answer for `body`, fetched with HTTP 200, `agent` and the absolute `url`, a panic
/// answering `crash` ([`ask_raw`] with a plain 200: how the cause search asks a check's neighbours).
pub fn ask_one(parser: &dyn Parser, body: &[u8], agent: &str, url: &str) -> Answer {
    ask_raw(parser, Fetch::default(), body, agent, url)
}

/// Runs `asking` (a parser asked one question) with its panic caught and the panic hook quiet
/// about it: a parser's panic is its `crash` answer, message included, so printing it (with
/// `RUST_BACKTRACE` set, a symbolised backtrace) is noise and costs time. Every other panic is
/// printed by the hook that was there. What [`ask_raw`] and the in-process adapters both call.
pub fn catch_quietly<T>(asking: impl FnOnce() -> T) -> std::thread::Result<T> {
    quiet_panics_while_asking();
    ASKING.with(|flag| flag.set(true));
    let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(asking));
    ASKING.with(|flag| flag.set(false));
    asked
}

thread_local! {
    /// Whether this thread is inside [`catch_quietly`]: a panic there is the parser's answer, so
    /// the panic hook stays quiet about it.
    static ASKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Wraps the panic hook (once) so that a panic inside [`catch_quietly`] prints nothing; every
/// other panic is printed by the hook that was there.
fn quiet_panics_while_asking() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !ASKING.with(|asking| asking.get()) {
                previous(info);
            }
        }));
    });
}

/// A panic's message (`&str` or `String` payloads; anything else is named as such).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a payload that is not text".to_string()
    }
}
