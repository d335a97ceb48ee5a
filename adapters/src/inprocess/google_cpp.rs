//! `google-cpp`: Google's own C++ matcher (google/robotstxt `robots.cc`), compiled by `build.rs`
//! with our `cpp/shim.cc` and called through a C interface.
//!
//! The crate always compiles. When `build.rs` could not get the source, abseil or a compiler, the
//! `google_cpp` cfg is off, every check answers `error`, and [`available`] says what is missing and
//! the command that fixes it.

use robotstxt_oracle::ProfileId;

use crate::adapter::{Answer, Body, Capabilities, Identity, Unavailable, UrlForm};

/// Who it is.
pub fn identity() -> Identity {
    Identity {
        id: "google-cpp".to_string(),
        library: "google/robotstxt (robots.cc)".to_string(),
        version: VERSION.to_string(),
        language: "C++".to_string(),
        licence: "Apache-2.0".to_string(),
        source: SOURCE.to_string(),
        profile: ProfileId::Google,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: "RobotsMatcher::OneAgentAllowedByRobots, a fresh matcher per check; the product token \
                and the URL are passed as given (Google expects an already percent-encoded URL and \
                encodes nothing); the body is passed as raw bytes (NUL and invalid UTF-8 included); \
                compiled by cc at -O2 with assertions on, so a failed assertion aborts the process"
            .to_string(),
    }
}

/// One check.
pub fn check(body: &Body<'_>, agent: &str, url: &str) -> Answer {
    match decide(body.octets(), agent, url) {
        Ok((allowed, _line)) => Answer::from_allowed(allowed),
        Err(message) => Answer::Error { message },
    }
}

/// Whether it can run here: it needs upstream's source, abseil and a C++17 compiler at build time.
pub fn available() -> Result<(), Unavailable> {
    match UNAVAILABLE {
        None => Ok(()),
        Some((reason, fix)) => Err(Unavailable {
            id: "google-cpp".to_string(),
            reason: reason.to_string(),
            fix: fix.to_string(),
        }),
    }
}

/// Google's verdict (`true`: allowed) and the body line that decided it (0 when no rule matched).
#[cfg(google_cpp)]
pub fn decide(body: &[u8], agent: &str, url: &str) -> Result<(bool, u32), String> {
    let mut line: std::ffi::c_int = 0;
    // SAFETY: each pointer comes with its slice's length, and the shim copies all three before use;
    // `line` outlives the call.
    let status = unsafe {
        robotstxt_google_one_agent_allowed(
            body.as_ptr(),
            body.len(),
            agent.as_ptr(),
            agent.len(),
            url.as_ptr(),
            url.len(),
            &mut line,
        )
    };
    match status {
        0 | 1 => Ok((status == 1, u32::try_from(line).unwrap_or(0))),
        -1 => Err("robots.cc ran out of memory (std::bad_alloc)".to_string()),
        _ => Err(format!(
            "robots.cc threw a C++ exception (shim status {status})"
        )),
    }
}

/// Google's verdict: unavailable in this build, so always the reason.
#[cfg(not(google_cpp))]
pub fn decide(_body: &[u8], _agent: &str, _url: &str) -> Result<(bool, u32), String> {
    Err(format!(
        "google-cpp is not built: {}",
        UNAVAILABLE.map_or("", |(reason, _)| reason)
    ))
}

#[cfg(google_cpp)]
extern "C" {
    /// `cpp/shim.cc`: 1 allowed, 0 disallowed, negative on a caught C++ exception.
    fn robotstxt_google_one_agent_allowed(
        body: *const u8,
        body_len: usize,
        agent: *const u8,
        agent_len: usize,
        url: *const u8,
        url_len: usize,
        matching_line: *mut std::ffi::c_int,
    ) -> std::ffi::c_int;
}

#[cfg(google_cpp)]
const VERSION: &str = env!("ROBOTSTXT_GOOGLE_CPP_VERSION");
#[cfg(google_cpp)]
const SOURCE: &str = env!("ROBOTSTXT_GOOGLE_CPP_SOURCE");
#[cfg(google_cpp)]
const UNAVAILABLE: Option<(&str, &str)> = None;

#[cfg(not(google_cpp))]
const VERSION: &str = "upstream de56676 (2023-09-07), not built";
#[cfg(not(google_cpp))]
const SOURCE: &str = concat!("not built: ", env!("ROBOTSTXT_GOOGLE_CPP_UNAVAILABLE"));
#[cfg(not(google_cpp))]
const UNAVAILABLE: Option<(&str, &str)> = Some((
    env!("ROBOTSTXT_GOOGLE_CPP_UNAVAILABLE"),
    env!("ROBOTSTXT_GOOGLE_CPP_FIX"),
));

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether to run the Google tests: yes when built; a failure when unavailable and
    /// `ROBOTSTXT_REQUIRE_GOOGLE=1`; otherwise skipped with the reason printed.
    fn built() -> bool {
        match available() {
            Ok(()) => true,
            Err(why) if std::env::var("ROBOTSTXT_REQUIRE_GOOGLE").as_deref() == Ok("1") => {
                panic!("ROBOTSTXT_REQUIRE_GOOGLE=1 but {why}")
            }
            Err(why) => {
                eprintln!("skipped: {why}");
                false
            }
        }
    }

    #[test]
    fn probe_sample_answers_d_d_a_d_a() {
        if !built() {
            return;
        }
        let body =
            b"User-agent: *\nDisallow: /private\nAllow: /private/public$\nDisallow: /*.pdf$\n\n\
                     User-agent: FooBot\nDisallow: /\n";
        let answers: Vec<_> = [
            ("FooBot", "http://example.com/x"),
            ("BarBot", "http://example.com/private/a"),
            ("BarBot", "http://example.com/private/public"),
            ("BarBot", "http://example.com/doc.pdf"),
            ("BarBot", "http://example.com/doc.pdf?x=1"),
        ]
        .iter()
        .map(|(agent, url)| check(&Body::new(body), agent, url).kind())
        .collect();
        assert_eq!(
            answers,
            [
                "disallowed",
                "disallowed",
                "allowed",
                "disallowed",
                "allowed"
            ]
        );
        assert_eq!(
            decide(body, "FooBot", "http://example.com/x"),
            Ok((false, 7))
        );
    }

    #[test]
    fn nul_and_invalid_utf8_in_the_body_get_a_verdict() {
        if !built() {
            return;
        }
        let body = b"User-agent: *\nDisallow: /c\n\0\xff\xfe\nDisallow: /a\xc3\x28\0b\n";
        for url in [
            "http://example.com/c",
            "http://example.com/a%C3(",
            "http://example.com/",
        ] {
            let answer = check(&Body::new(body), "FooBot", url);
            assert!(answer.verdict().is_some(), "{url}: {answer}");
        }
        assert_eq!(
            check(&Body::new(body), "FooBot", "http://example.com/c"),
            Answer::Disallowed
        );
        assert!(check(&Body::new(b""), "", "").verdict().is_some());
    }

    #[test]
    fn identity_and_availability_agree() {
        let identity = identity();
        assert_eq!(identity.id, "google-cpp");
        match available() {
            Ok(()) => assert!(identity.source.contains("sha256"), "{}", identity.source),
            Err(why) => {
                assert!(!why.reason.is_empty() && !why.fix.is_empty());
                let message = format!("google-cpp is not built: {}", why.reason);
                assert_eq!(
                    check(&Body::new(b""), "a", "http://x/"),
                    Answer::Error { message }
                );
            }
        }
    }
}
