//! The oracle compiled to WebAssembly for the site's playground (`site`, `site/src/playground.rs`).
//!
//! The page calls plain `extern "C"` exports, so no binding generator is needed: it copies the
//! body's octets and a JSON question into memory it got from [`alloc`], calls [`ask`], and reads
//! the JSON answer at [`answer_ptr`] for [`ask`]'s returned length. The same [`answer`] is what
//! the host tests call.

use robotstxt_oracle::{aipref, evaluate_all, evaluate_preference, Fetch, Request};
use serde::{Deserialize, Serialize};

/// What the page asks, besides the body's octets.
#[derive(Debug, Deserialize)]
pub struct Question {
    /// The crawler's product token.
    pub agent: String,
    /// The URL asked about.
    pub url: String,
    /// The fetch's HTTP status; `None` for a plain 200, `Some(0)` for no response at all.
    #[serde(default)]
    pub status: Option<u16>,
}

/// One profile's answer.
#[derive(Debug, Serialize)]
pub struct ProfileAnswer {
    /// The profile's name (`rfc9309`, `google`, `draft-1996`, `original-1994`).
    pub profile: &'static str,
    /// Its verdict (`allowed`, `disallowed`, `either`, `not-governed`).
    pub verdict: &'static str,
    /// The oracle's explanation, as `check` prints it.
    pub explanation: String,
}

/// One category's answer under the `aipref` reading (`docs/profiles.md`, "The `aipref` reading").
#[derive(Debug, Serialize)]
pub struct PreferenceAnswer {
    /// The category of use (`train-ai`, `search`).
    pub category: &'static str,
    /// The preference that applies: `y`, `n`, `none` or `either`.
    pub preference: &'static str,
    /// The oracle's explanation, as `check` prints it.
    pub explanation: String,
}

/// The question read, or the error to answer with: a malformed question, or a URL that cannot be
/// asked about (no host, an empty host, a port outside 0-65535: the test `check` applies,
/// [`robotstxt_oracle::url::check_request_url`]).
fn read_question(question: &[u8]) -> Result<(Question, Fetch), String> {
    let question: Question = serde_json::from_slice(question).map_err(|e| e.to_string())?;
    robotstxt_oracle::url::check_request_url(&question.url)?;
    let fetch = match question.status {
        None => Fetch::default(),
        Some(0) => Fetch::Unreachable,
        Some(status) => Fetch::Status {
            status,
            redirects: 0,
        },
    };
    Ok((question, fetch))
}

/// The oracle's four answers to a question about `body`, as JSON; a question [`read_question`]
/// refuses gives `{"error": "..."}`.
pub fn answer(body: &[u8], question: &[u8]) -> String {
    let (question, fetch) = match read_question(question) {
        Ok(read) => read,
        Err(message) => return serde_json::json!({ "error": message }).to_string(),
    };
    let request = Request::new(body, &question.agent, &question.url).with_fetch(fetch);
    let answers: Vec<ProfileAnswer> = evaluate_all(&request)
        .into_iter()
        .map(|explanation| ProfileAnswer {
            profile: explanation.profile.name(),
            verdict: explanation.verdict.name(),
            explanation: explanation.to_string(),
        })
        .collect();
    serde_json::to_string(&answers).expect("answers serialise")
}

/// The `aipref` reading's answer for each category the vocabulary defines
/// ([`aipref::CATEGORIES`]), as JSON; a question [`read_question`] refuses gives
/// `{"error": "..."}`.
pub fn preferences(body: &[u8], question: &[u8]) -> String {
    let (question, fetch) = match read_question(question) {
        Ok(read) => read,
        Err(message) => return serde_json::json!({ "error": message }).to_string(),
    };
    let request = Request::new(body, &question.agent, &question.url).with_fetch(fetch);
    let answers: Vec<PreferenceAnswer> = aipref::CATEGORIES
        .iter()
        .map(|&category| {
            let explanation = evaluate_preference(&request, category);
            PreferenceAnswer {
                category,
                preference: explanation.preference.name(),
                explanation: explanation.text(),
            }
        })
        .collect();
    serde_json::to_string(&answers).expect("answers serialise")
}

thread_local! {
    /// The last answer, kept until the next call so the page can read it.
    static ANSWER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reserves `len` octets for the page to write into; give them back with [`release`].
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back `len` octets reserved by [`alloc`].
///
/// # Safety
/// `ptr` and `len` must be what one [`alloc`] call gave and took, released once.
#[no_mangle]
pub unsafe extern "C" fn release(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Answers the question (JSON, [`Question`]) about the body; returns the answer's length, to be
/// read at [`answer_ptr`].
///
/// # Safety
/// Each pointer must point to as many initialised octets as its length says (from [`alloc`]).
#[no_mangle]
pub unsafe extern "C" fn ask(
    body_ptr: *const u8,
    body_len: usize,
    question_ptr: *const u8,
    question_len: usize,
) -> usize {
    keep(answer(
        std::slice::from_raw_parts(body_ptr, body_len),
        std::slice::from_raw_parts(question_ptr, question_len),
    ))
}

/// Answers the question (JSON, [`Question`]) about the body with [`preferences`]; returns the
/// answer's length, to be read at [`answer_ptr`].
///
/// # Safety
/// Each pointer must point to as many initialised octets as its length says (from [`alloc`]).
#[no_mangle]
pub unsafe extern "C" fn ask_preferences(
    body_ptr: *const u8,
    body_len: usize,
    question_ptr: *const u8,
    question_len: usize,
) -> usize {
    keep(preferences(
        std::slice::from_raw_parts(body_ptr, body_len),
        std::slice::from_raw_parts(question_ptr, question_len),
    ))
}

/// Keeps `text` as the last answer, for [`answer_ptr`]; its length.
fn keep(text: String) -> usize {
    ANSWER.with(|cell| {
        *cell.borrow_mut() = text.into_bytes();
        cell.borrow().len()
    })
}

/// Where the last answer of [`ask`] or [`ask_preferences`] is.
#[no_mangle]
pub extern "C" fn answer_ptr() -> *const u8 {
    ANSWER.with(|cell| cell.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_every_profile_with_its_explanation() {
        let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n";
        let out: serde_json::Value =
            serde_json::from_str(&answer(body, br#"{"agent":"bot","url":"/a/b"}"#)).unwrap();
        let profiles: Vec<&str> = out
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["profile"].as_str().unwrap())
            .collect();
        assert_eq!(
            profiles,
            ["rfc9309", "google", "draft-1996", "original-1994"]
        );
        assert_eq!(out[0]["verdict"], "allowed");
        assert!(out[0]["explanation"]
            .as_str()
            .unwrap()
            .starts_with("profile rfc9309: allowed"));
    }

    #[test]
    fn a_status_and_a_malformed_question() {
        let out: serde_json::Value =
            serde_json::from_str(&answer(b"", br#"{"agent":"bot","url":"/","status":503}"#))
                .unwrap();
        assert_eq!(out[0]["verdict"], "disallowed");
        let out: serde_json::Value = serde_json::from_str(&answer(b"", b"{")).unwrap();
        assert!(out["error"].is_string());
    }

    /// The attachment draft's own example shape: a group-wide statement and a narrower path that
    /// says otherwise; the longest matching path decides (`aipref-attach#3.1`).
    #[test]
    fn answers_each_category_with_its_explanation() {
        let body = b"User-Agent: *\nContent-Usage: train-ai=n\nContent-Usage: /public/ train-ai=y\nAllow: /\n";
        let ask = |url: &str| -> serde_json::Value {
            let question = serde_json::json!({ "agent": "ExampleBot", "url": url }).to_string();
            serde_json::from_str(&preferences(body, question.as_bytes())).unwrap()
        };
        let out = ask("https://example.com/private");
        let categories: Vec<&str> = out
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["category"].as_str().unwrap())
            .collect();
        assert_eq!(categories, ["train-ai", "search"]);
        assert_eq!(out[0]["preference"], "n");
        assert_eq!(out[1]["preference"], "none");
        assert!(out[0]["explanation"]
            .as_str()
            .unwrap()
            .contains("preference for train-ai: n"));
        assert_eq!(ask("https://example.com/public/x")[0]["preference"], "y");
        let refused: serde_json::Value =
            serde_json::from_str(&preferences(body, br#"{"agent":"bot","url":"http://"}"#))
                .unwrap();
        assert!(refused["error"].is_string());
    }

    #[test]
    fn a_url_that_names_no_host_or_a_port_out_of_range_is_refused() {
        for (url, why) in [
            ("http://", "the host is empty"),
            ("http://example.com:99999/x", "outside 0-65535"),
            ("javascript:alert(1)", "names no host"),
        ] {
            let question = serde_json::json!({ "agent": "bot", "url": url }).to_string();
            let out: serde_json::Value =
                serde_json::from_str(&answer(b"", question.as_bytes())).unwrap();
            let error = out["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{url}: {out}"));
            assert!(error.contains(why) && error.contains("RFC 3986"), "{error}");
        }
    }
}
