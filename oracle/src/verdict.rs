//! The oracle's answer to one request: allowed, disallowed, either (the documents permit both),
//! or not governed by the robots.txt file at all.

use serde::{Deserialize, Serialize};

/// The oracle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The URL may be crawled.
    Allowed,
    /// The URL may not be crawled.
    Disallowed,
    /// The document permits more than one answer.
    Either,
    /// The robots.txt file does not govern the URL at all (step 0, [`crate::scope`]): it says nothing
    /// about it.
    #[serde(rename = "not-governed")]
    NotGoverned,
}

impl Verdict {
    /// The verdict's name as cases and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
            Verdict::Either => "either",
            Verdict::NotGoverned => "not-governed",
        }
    }

    /// The verdict named `name` as cases and reports write it.
    pub fn from_name(name: &str) -> Option<Verdict> {
        [
            Verdict::Allowed,
            Verdict::Disallowed,
            Verdict::Either,
            Verdict::NotGoverned,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }

    /// `Allowed` when `allowed`, else `Disallowed`.
    pub(crate) fn from_allowed(allowed: bool) -> Verdict {
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    }
}
