//! Adapters that misbehave on purpose, one per failure kind, to prove that a run survives them.
//!
//! Each answers like the oracle's RFC 9309 profile, except for checks whose agent is
//! [`FAULT_AGENT`]: there it panics, aborts, segfaults, hangs, prints garbage or exits, as its id
//! says. The input faults ([`INPUT_FAULT_IDS`]) misbehave on some bodies instead, as real parsers
//! do: one hangs on bodies holding a `Crawl-delay` line, one garbles its answers on every body or
//! on bodies holding `Sitemap`, one answers `error` on an empty body. They are not in the default
//! adapter list; ask for them by id (`fault-panic`, ...).

use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};

use crate::adapter::{Answer, Body, Capabilities, Identity, UrlForm};
use crate::inprocess::InProcess;

/// The agent that triggers the fault.
pub const FAULT_AGENT: &str = "FaultBot";

/// The fault kinds, as `fault-<kind>` ids.
pub const FAULT_IDS: [&str; 6] = [
    "fault-panic",
    "fault-abort",
    "fault-segfault",
    "fault-hang",
    "fault-garbage",
    "fault-exit",
];

/// The faults triggered by the body, whatever the agent, as `fault-<kind>` ids.
pub const INPUT_FAULT_IDS: [&str; 4] = [
    "fault-hang-crawl-delay",
    "fault-garble",
    "fault-garble-sitemap",
    "fault-error-empty",
];

/// The message `fault-error-empty` answers an empty body with (as a library's exception reads).
pub const EMPTY_BODY_ERROR: &str = "EmptyRobotsError: robots.txt is empty";

/// Whether `id` names a fault-injecting adapter.
pub fn is_fault_id(id: &str) -> bool {
    FAULT_IDS.contains(&id) || INPUT_FAULT_IDS.contains(&id)
}

/// Whether `body` holds `field` (ASCII case-insensitive) anywhere.
fn holds(body: &Body<'_>, field: &[u8]) -> bool {
    body.octets()
        .windows(field.len())
        .any(|w| w.eq_ignore_ascii_case(field))
}

/// Never returns: the hang of a parser stuck on an input.
fn hang() -> Answer {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

/// Writes a line the protocol does not allow where the answer belongs (then the answer, which
/// the runner must not trust).
fn garble() -> Answer {
    println!("\u{1}garbage{{not json");
    Answer::Allowed
}

/// The fault-injecting adapter `id`, if it is one.
pub fn open(id: &str) -> Option<InProcess> {
    let check: crate::inprocess::CheckFn = match id {
        "fault-panic" => |b, a, u| fault_or_oracle(b, a, u, || panic!("injected panic")),
        "fault-abort" => |b, a, u| fault_or_oracle(b, a, u, || std::process::abort()),
        "fault-segfault" => |b, a, u| fault_or_oracle(b, a, u, segfault),
        "fault-hang" => |b, a, u| {
            fault_or_oracle(b, a, u, || loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            })
        },
        "fault-garbage" => |b, a, u| {
            fault_or_oracle(b, a, u, || {
                // Garbage where an answer belongs, then an ordinary answer the runner must not trust.
                println!("\u{1}garbage{{not json");
                Answer::Allowed
            })
        },
        "fault-exit" => |b, a, u| fault_or_oracle(b, a, u, || std::process::exit(3)),
        "fault-hang-crawl-delay" => |b, a, u| match holds(b, b"crawl-delay") {
            true => hang(),
            false => oracle(b, a, u),
        },
        "fault-garble" => |_, _, _| garble(),
        "fault-garble-sitemap" => |b, a, u| match holds(b, b"sitemap") {
            true => garble(),
            false => oracle(b, a, u),
        },
        "fault-error-empty" => |b, a, u| match b.octets().is_empty() {
            true => Answer::Error {
                message: EMPTY_BODY_ERROR.to_string(),
            },
            false => oracle(b, a, u),
        },
        _ => return None,
    };
    Some(InProcess::new(identity(id), check))
}

/// Who a fault adapter is.
fn identity(id: &str) -> Identity {
    Identity {
        id: id.to_string(),
        library: "robotstxt-oracle with an injected fault".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        language: "Rust".to_string(),
        licence: "MIT OR Apache-2.0".to_string(),
        source: "this repository (test adapter)".to_string(),
        profile: ProfileId::Rfc9309,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: match id {
            "fault-hang-crawl-delay" => "hangs on bodies holding `Crawl-delay`".to_string(),
            "fault-garble" => "garbles every answer".to_string(),
            "fault-garble-sitemap" => "garbles its answers on bodies holding `Sitemap`".to_string(),
            "fault-error-empty" => format!("answers `error` ({EMPTY_BODY_ERROR}) on an empty body"),
            _ => format!("misbehaves when the agent is {FAULT_AGENT}"),
        },
    }
}

/// The fault for [`FAULT_AGENT`], the oracle's RFC 9309 answer otherwise.
fn fault_or_oracle(
    body: &Body<'_>,
    agent: &str,
    url: &str,
    fault: impl FnOnce() -> Answer,
) -> Answer {
    if agent == FAULT_AGENT {
        return fault();
    }
    oracle(body, agent, url)
}

/// The oracle's RFC 9309 answer (`either` as `allowed`).
fn oracle(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    match evaluate(ProfileId::Rfc9309, &Request::new(body.octets(), agent, url)).verdict {
        Verdict::Disallowed => Answer::Disallowed,
        _ => Answer::Allowed,
    }
}

/// Dereferences a null pointer: a real SIGSEGV, as a buggy C parser would give.
fn segfault() -> Answer {
    // SAFETY: none; this is the fault being injected. `write_volatile` keeps the compiler from
    // reasoning the write away.
    unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
    Answer::Error {
        message: "the segfault did not happen".to_string(),
    }
}
