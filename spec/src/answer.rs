//! A parser's answer to one check: the one answer model of the suite (what a downstream parser's
//! closure returns), the adapters (their JSON-lines wire protocol, `adapters/PROTOCOL.md`), the
//! matrix, the fuzzer and the real-world report, and the one rule they judge it by
//! ([`Answer::agrees`]).

use std::fmt;

use robotstxt_oracle::aipref::Preference;
use robotstxt_oracle::Verdict;
use serde::{Deserialize, Serialize};

/// The answer kinds that are a failure of the adapter or the parser (`error`, `crash`,
/// `timeout`), never a reading of the file: a ledger accepts an `error` or `crash` only by the
/// pattern of its message ([`crate::ledger::Group::message`]), as a known failure, never a documented divergence
/// (the line to cite does not count it, a rewrite never adds one), and never a `timeout`.
pub const FAILURE_KINDS: [&str; 3] = ["error", "crash", "timeout"];

/// Whether an answer kind is a failure ([`FAILURE_KINDS`]).
pub fn is_failure(kind: &str) -> bool {
    FAILURE_KINDS.contains(&kind)
}

/// A parser's answer to one check.
///
/// A verdict (`Allowed`, `Disallowed`), or no verdict: the parser cannot be asked this
/// (`Unsupported`), or it failed (`Error`, `Crash`, `Timeout`). Only a verdict can agree with
/// what a profile expects; a failure is a fault to fix, never a divergence a ledger documents.
///
/// A downstream parser's closure answers a `bool`, `Allowed`, `Disallowed` or
/// [`Answer::unsupported`]; the suite makes its panic a `Crash` ([`Answer::panicked`]) and fails
/// the check on every failure. `Error` and `Timeout` arise from adapters: an adapter whose parser
/// reports an error or whose output makes no sense, and an adapter process that gives no answer in
/// time (a closure called in-process cannot time out).
///
/// As JSON (the adapters' wire protocol and the results files) an answer is tagged by `answer`
/// with its kind ([`Answer::kind`]): `{"answer":"allowed"}`,
/// `{"answer":"unsupported","reason":"..."}`, `{"answer":"crash","message":"..."}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum Answer {
    /// The parser allows the URL: it may be crawled.
    Allowed,
    /// The parser disallows the URL: it may not be crawled.
    Disallowed,
    /// The parser cannot be asked this (e.g. a fetch outcome), with the reason; never agrees
    /// with a verdict. [`Answer::unsupported`] builds one.
    Unsupported {
        /// Why.
        reason: String,
    },
    /// The parser reported an error, or its adapter's output made no sense.
    Error {
        /// What it said.
        message: String,
    },
    /// The parser panicked, aborted, or its process died.
    Crash {
        /// How it died (`panicked: <message>` for a panic, see [`Answer::panicked`]; a signal,
        /// an exit status, the last lines of stderr).
        message: String,
    },
    /// The parser gave no answer within the per-check time limit (adapter processes only).
    Timeout {
        /// The limit that was exceeded.
        message: String,
    },
    /// The answer to an `aipref` check (which usage preference applies to the URL for the agent
    /// and a category of use, `docs/profiles.md`): `y`, `n` or `none`, never `either` (a parser
    /// gives one answer). It is no verdict: it never agrees with one ([`Answer::agrees`]), and an
    /// allowed/disallowed answer never agrees with a preference
    /// ([`Answer::agrees_with_preference`]).
    Preference {
        /// The preference the parser gives.
        preference: Preference,
    },
}

impl Answer {
    /// The answer for a boolean "is it allowed": `true` is allowed, `false` disallowed.
    pub fn from_allowed(allowed: bool) -> Answer {
        if allowed {
            Answer::Allowed
        } else {
            Answer::Disallowed
        }
    }

    /// The parser cannot be asked this, for `reason`.
    pub fn unsupported(reason: impl Into<String>) -> Answer {
        Answer::Unsupported {
            reason: reason.into(),
        }
    }

    /// The crash of a parser that panicked with `message`: its message is
    /// `panicked: <message>` ([`Answer::panic_message`] gives `message` back).
    pub fn panicked(message: impl fmt::Display) -> Answer {
        Answer::Crash {
            message: format!("panicked: {message}"),
        }
    }

    /// The panic's own message, when the answer is the crash of a panic ([`Answer::panicked`]).
    pub fn panic_message(&self) -> Option<&str> {
        match self {
            Answer::Crash { message } => message.strip_prefix("panicked: "),
            _ => None,
        }
    }

    /// The answer's kind, as ledgers and the wire protocol write it: `allowed`, `disallowed`,
    /// `unsupported`, `error`, `crash`, `timeout` or `preference`.
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Allowed => "allowed",
            Answer::Disallowed => "disallowed",
            Answer::Unsupported { .. } => "unsupported",
            Answer::Error { .. } => "error",
            Answer::Crash { .. } => "crash",
            Answer::Timeout { .. } => "timeout",
            Answer::Preference { .. } => "preference",
        }
    }

    /// The preference, when the parser answered an `aipref` check with one.
    pub fn preference(&self) -> Option<Preference> {
        match self {
            Answer::Preference { preference } => Some(*preference),
            _ => None,
        }
    }

    /// Whether the answer is the preference an `aipref` check expects: `either` accepts any
    /// preference; an answer that is no preference never agrees.
    pub fn agrees_with_preference(&self, expected: Preference) -> bool {
        match self.preference() {
            Some(preference) => expected == Preference::Either || preference == expected,
            None => false,
        }
    }

    /// The verdict, when the parser gave one.
    pub fn verdict(&self) -> Option<Verdict> {
        match self {
            Answer::Allowed => Some(Verdict::Allowed),
            Answer::Disallowed => Some(Verdict::Disallowed),
            _ => None,
        }
    }

    /// Whether the answer is a failure of the parser or its adapter (`error`, `crash`,
    /// `timeout`; [`FAILURE_KINDS`]), not a reading of the file.
    pub fn is_failure(&self) -> bool {
        is_failure(self.kind())
    }

    /// Whether the answer is what a profile expects: `either` accepts both verdicts; an answer
    /// that is not a verdict never agrees. The one rule the suite and the matrix judge by.
    pub fn agrees(&self, expected: Verdict) -> bool {
        match self.verdict() {
            Some(verdict) => expected == Verdict::Either || verdict == expected,
            None => false,
        }
    }

    /// The detail carried by an answer that is not a verdict (the reason, the message, or the
    /// preference's name).
    pub fn detail(&self) -> Option<&str> {
        match self {
            Answer::Allowed | Answer::Disallowed => None,
            Answer::Preference { preference } => Some(preference.name()),
            Answer::Unsupported { reason } => Some(reason),
            Answer::Error { message } | Answer::Crash { message } | Answer::Timeout { message } => {
                Some(message)
            }
        }
    }
}

impl fmt::Display for Answer {
    /// The kind, then the detail in parentheses: `allowed`, `unsupported (no fetch outcomes)`,
    /// `crash (panicked: index out of bounds)`; a preference as `preference n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Answer::Preference { preference } = self {
            return write!(f, "preference {}", preference.name());
        }
        match self.detail() {
            None => f.write_str(self.kind()),
            Some(detail) => write!(f, "{} ({detail})", self.kind()),
        }
    }
}

impl From<bool> for Answer {
    /// `true` is allowed, `false` disallowed ([`Answer::from_allowed`]).
    fn from(allowed: bool) -> Answer {
        Answer::from_allowed(allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_is_tagged_by_kind_with_the_detail_beside_it() {
        let cases = [
            (Answer::Allowed, r#"{"answer":"allowed"}"#),
            (Answer::Disallowed, r#"{"answer":"disallowed"}"#),
            (
                Answer::unsupported("no fetch"),
                r#"{"answer":"unsupported","reason":"no fetch"}"#,
            ),
            (
                Answer::Error {
                    message: "bad".into(),
                },
                r#"{"answer":"error","message":"bad"}"#,
            ),
            (
                Answer::panicked("boom"),
                r#"{"answer":"crash","message":"panicked: boom"}"#,
            ),
            (
                Answer::Timeout {
                    message: "5 s".into(),
                },
                r#"{"answer":"timeout","message":"5 s"}"#,
            ),
            (
                Answer::Preference {
                    preference: Preference::N,
                },
                r#"{"answer":"preference","preference":"n"}"#,
            ),
        ];
        for (answer, json) in cases {
            assert_eq!(serde_json::to_string(&answer).unwrap(), json);
            assert_eq!(serde_json::from_str::<Answer>(json).unwrap(), answer);
        }
    }

    #[test]
    fn a_preference_is_no_verdict_and_a_verdict_is_no_preference() {
        let n = Answer::Preference {
            preference: Preference::N,
        };
        assert!(!n.agrees(Verdict::Either));
        assert!(n.agrees_with_preference(Preference::N));
        assert!(n.agrees_with_preference(Preference::Either));
        assert!(!n.agrees_with_preference(Preference::Unknown));
        assert!(!Answer::Disallowed.agrees_with_preference(Preference::Either));
        assert!(!n.is_failure());
        assert_eq!(n.to_string(), "preference n");
    }

    #[test]
    fn display_is_the_kind_then_the_detail() {
        assert_eq!(Answer::Allowed.to_string(), "allowed");
        assert_eq!(Answer::unsupported("why").to_string(), "unsupported (why)");
        assert_eq!(
            Answer::panicked("boom").to_string(),
            "crash (panicked: boom)"
        );
        assert_eq!(Answer::panicked("boom").panic_message(), Some("boom"));
        let died = Answer::Crash {
            message: "killed by signal 9".into(),
        };
        assert_eq!(died.panic_message(), None);
    }

    #[test]
    fn only_a_verdict_agrees_and_either_takes_both() {
        assert!(Answer::Allowed.agrees(Verdict::Allowed));
        assert!(Answer::Disallowed.agrees(Verdict::Either));
        assert!(!Answer::Disallowed.agrees(Verdict::Allowed));
        assert!(!Answer::unsupported("x").agrees(Verdict::Either));
        assert!(!Answer::panicked("x").agrees(Verdict::Either));
        assert!(Answer::panicked("x").is_failure());
        assert!(!Answer::unsupported("x").is_failure());
        for kind in FAILURE_KINDS {
            let answer: Answer =
                serde_json::from_str(&format!(r#"{{"answer":"{kind}","message":"m"}}"#)).unwrap();
            assert!(answer.is_failure() && is_failure(answer.kind()));
        }
        assert_eq!(Answer::from(true), Answer::Allowed);
        assert_eq!(Answer::from(false), Answer::Disallowed);
    }
}
