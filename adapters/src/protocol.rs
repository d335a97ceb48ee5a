//! The JSON-lines protocol between the runner and an adapter process (`PROTOCOL.md`).
//!
//! One JSON object per line, UTF-8, `\n`-terminated. The adapter speaks first ([`Handshake`]); then
//! the runner sends [`Request`]s (one body, many checks) and the adapter answers each check with one
//! [`Response`] line, in order, as soon as it has it. End of input means "exit now".

use base64::Engine;
use robotstxt_oracle::{Fetch, ProfileId};
use serde::{Deserialize, Serialize};

use crate::adapter::{Answer, Capabilities, Identity, Query, UrlForm};

/// The protocol name and version an adapter must announce.
pub const PROTOCOL_VERSION: &str = "robotstxt-adapter/1";

/// The adapter's first line: who it is and what it can do.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handshake {
    /// Always [`PROTOCOL_VERSION`].
    pub protocol: String,
    /// The adapter id.
    pub id: String,
    /// The library's own name.
    pub library: String,
    /// Its exact version.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// Its licence.
    pub licence: String,
    /// Where it came from.
    pub source: String,
    /// The profile it claims: `rfc9309`, `google`, `draft-1996` or `original-1994`.
    pub profile: ProfileId,
    /// What it can be asked.
    #[serde(default)]
    pub capabilities: Capabilities,
    /// `full` (the absolute URL) or `path-and-query`: what the library is given.
    pub url: UrlForm,
    /// Free text for readers of the results.
    #[serde(default)]
    pub notes: String,
}

impl Handshake {
    /// The handshake announcing `identity`.
    pub fn of(identity: &Identity) -> Handshake {
        Handshake {
            protocol: PROTOCOL_VERSION.to_string(),
            id: identity.id.clone(),
            library: identity.library.clone(),
            version: identity.version.clone(),
            language: identity.language.clone(),
            licence: identity.licence.clone(),
            source: identity.source.clone(),
            profile: identity.profile,
            capabilities: identity.capabilities,
            url: identity.url,
            notes: identity.notes.clone(),
        }
    }

    /// The identity it announces.
    pub fn identity(self) -> Identity {
        Identity {
            id: self.id,
            library: self.library,
            version: self.version,
            language: self.language,
            licence: self.licence,
            source: self.source,
            profile: self.profile,
            capabilities: self.capabilities,
            url: self.url,
            notes: self.notes,
        }
    }
}

/// One body and the checks about it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The body, when it is valid UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The body in standard base64, when it is not valid UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_base64: Option<String>,
    /// The checks, answered in order.
    pub checks: Vec<WireCheck>,
}

/// One check on the wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireCheck {
    /// The crawler's product token.
    pub agent: String,
    /// The absolute URL.
    pub url: String,
    /// The fetch outcome: sent only to adapters with the `fetch_status` capability, and only when
    /// it is not a plain 200.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch: Option<Fetch>,
    /// For an `aipref` check, the category of use (`train-ai`): sent only to adapters with the
    /// `preferences` capability, which answer it with a preference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

impl Request {
    /// The request for `queries` about `body`.
    pub fn new(body: &[u8], queries: &[Query]) -> Request {
        let (body, body_base64) = match std::str::from_utf8(body) {
            Ok(text) => (Some(text.to_string()), None),
            Err(_) => (
                None,
                Some(base64::engine::general_purpose::STANDARD.encode(body)),
            ),
        };
        Request {
            body,
            body_base64,
            checks: queries
                .iter()
                .map(|q| WireCheck {
                    agent: q.agent.clone(),
                    url: q.url.clone(),
                    fetch: (q.fetch != Fetch::default()).then_some(q.fetch),
                    category: q.category.clone(),
                })
                .collect(),
        }
    }

    /// The body's octets.
    pub fn body_bytes(&self) -> Result<Vec<u8>, String> {
        match (&self.body, &self.body_base64) {
            (Some(text), None) => Ok(text.as_bytes().to_vec()),
            (None, Some(encoded)) => base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map_err(|e| format!("body_base64 is not base64: {e}")),
            _ => Err("a request carries exactly one of body and body_base64".to_string()),
        }
    }

    /// The checks as queries.
    pub fn queries(&self) -> Vec<Query> {
        self.checks
            .iter()
            .map(|c| Query {
                agent: c.agent.clone(),
                url: c.url.clone(),
                fetch: c.fetch.unwrap_or_default(),
                category: c.category.clone(),
            })
            .collect()
    }
}

/// The answer to one check: its index in the request and the answer. (serde cannot deny unknown
/// fields next to a flattened enum; [`Response::parse`] does.)
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Response {
    /// The check's index in its request, from 0.
    pub check: usize,
    /// The answer, flattened: `"answer": "allowed"`, or `"answer": "error", "message": "..."`.
    /// An adapter may send any [`Answer`] but `timeout`, which is the runner's to give.
    #[serde(flatten)]
    pub answer: Answer,
}

impl Response {
    /// The fields a response line may have.
    pub const FIELDS: [&'static str; 5] = ["check", "answer", "reason", "message", "preference"];

    /// Decodes a response line strictly: a JSON object with only [`Response::FIELDS`].
    pub fn parse(line: &[u8]) -> Result<Response, String> {
        let value: serde_json::Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        let object = value
            .as_object()
            .ok_or_else(|| "not a JSON object".to_string())?;
        if let Some(unknown) = object.keys().find(|k| !Self::FIELDS.contains(&k.as_str())) {
            return Err(format!("unknown field `{unknown}`"));
        }
        let response: Response = serde_json::from_value(value).map_err(|e| e.to_string())?;
        if matches!(response.answer, Answer::Timeout { .. }) {
            return Err("`timeout` is the runner's answer, not an adapter's".to_string());
        }
        if response.answer.preference() == Some(robotstxt_oracle::aipref::Preference::Either) {
            return Err("a parser's preference is `y`, `n` or `none`, not `either`".to_string());
        }
        Ok(response)
    }
}

/// The answer recorded for `query`: an adapter that answers a verdict to an `aipref` check (one
/// with a category), or a preference to any other check, answered another question, which is an
/// `error` naming both.
pub fn answer_to(query: &Query, answer: Answer) -> Answer {
    let asked_preference = query.category.is_some();
    let gave_preference = answer.preference().is_some();
    let gave_verdict = answer.verdict().is_some();
    if asked_preference && gave_verdict {
        return Answer::Error {
            message: format!(
                "asked which usage preference applies (category {}), the adapter answered `{}`",
                query.category.as_deref().unwrap_or_default(),
                answer.kind()
            ),
        };
    }
    if !asked_preference && gave_preference {
        return Answer::Error {
            message: format!(
                "asked whether the URL is allowed, the adapter answered a preference ({answer})"
            ),
        };
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotstxt_oracle::aipref::Preference;

    #[test]
    fn a_preference_check_goes_on_the_wire_with_its_category_and_comes_back() {
        let query = Query::preference("bot", "http://example.com/a", "train-ai");
        let request = Request::new(b"User-agent: *\n", std::slice::from_ref(&query));
        let line = serde_json::to_string(&request).unwrap();
        assert!(line.contains(r#""category":"train-ai""#), "{line}");
        assert_eq!(request.queries(), std::slice::from_ref(&query));
        let response =
            Response::parse(br#"{"check":0,"answer":"preference","preference":"n"}"#).unwrap();
        assert_eq!(
            answer_to(&query, response.answer),
            Answer::Preference {
                preference: Preference::N
            }
        );
    }

    #[test]
    fn either_is_no_parser_answer_and_a_crossed_answer_is_an_error() {
        assert!(
            Response::parse(br#"{"check":0,"answer":"preference","preference":"either"}"#).is_err()
        );
        assert!(
            Response::parse(br#"{"check":0,"answer":"preference","preference":"maybe"}"#).is_err()
        );
        let preference = Query::preference("bot", "http://example.com/a", "search");
        let verdict = Query::new("bot", "http://example.com/a");
        assert_eq!(answer_to(&preference, Answer::Allowed).kind(), "error");
        let n = Answer::Preference {
            preference: Preference::N,
        };
        assert_eq!(answer_to(&verdict, n.clone()).kind(), "error");
        assert_eq!(answer_to(&verdict, Answer::Allowed), Answer::Allowed);
        let unsupported = Answer::unsupported("no");
        assert_eq!(answer_to(&preference, unsupported.clone()), unsupported);
    }
}
