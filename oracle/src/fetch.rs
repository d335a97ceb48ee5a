//! Step 8, the fetch outcome (K15): what a non-success fetch of `/robots.txt` means.

use crate::profile::ProfileId;
use crate::request::Fetch;

/// What a fetch outcome means for every URL of the site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchEffect {
    /// The body's rules decide.
    UseBody,
    /// Everything is allowed.
    Allowed,
    /// Everything is disallowed.
    Disallowed,
    /// The document permits any of these.
    Open(Vec<FetchEffect>),
}

/// The effect of `fetch` under `profile`, with the citation that says so.
pub fn fetch_effect(profile: ProfileId, fetch: Fetch) -> (FetchEffect, &'static str) {
    use FetchEffect::*;
    let open = || Open(vec![Allowed, Disallowed]);
    let (status, redirects) = match fetch {
        Fetch::Unreachable => {
            return match profile {
                ProfileId::Rfc9309 => (Disallowed, "rfc9309#2.3.1.4"),
                ProfileId::Google => (Disallowed, "google#status-codes"),
                ProfileId::Draft1996 => (Disallowed, "draft-1996#3.1"),
                ProfileId::Original1994 => (open(), "norobots-1994#method"),
            }
        }
        Fetch::Status { status, redirects } => (status, redirects),
    };
    let final_status = status_effect(profile, status);
    if redirects == 0 {
        return final_status;
    }
    match profile {
        // RFC9309 2.3.1.2: at least five hops are followed; after more, MAY treat as unavailable.
        ProfileId::Rfc9309 if redirects > 5 => {
            (Open(vec![Allowed, final_status.0]), "rfc9309#2.3.1.2")
        }
        ProfileId::Rfc9309 => (final_status.0, "rfc9309#2.3.1.2"),
        // google#status-codes: at least five hops, then treated as a 404.
        ProfileId::Google if redirects > 5 => {
            (Open(vec![Allowed, final_status.0]), "google#status-codes")
        }
        ProfileId::Google => (final_status.0, "google#status-codes"),
        // draft-1996#3.1: follow the redirects until a resource is found.
        ProfileId::Draft1996 => (final_status.0, "draft-1996#3.1"),
        ProfileId::Original1994 => (open(), "norobots-1994#method"),
    }
}

fn status_effect(profile: ProfileId, status: u16) -> (FetchEffect, &'static str) {
    use FetchEffect::*;
    let open = || Open(vec![Allowed, Disallowed]);
    match (profile, status) {
        (ProfileId::Rfc9309, 200..=299) => (UseBody, "rfc9309#2.3.1.1"),
        (ProfileId::Google, 200..=299) => (UseBody, "google#status-codes"),
        (ProfileId::Draft1996, 200..=299) => (UseBody, "draft-1996#3.1"),
        (ProfileId::Original1994, 200..=299) => (UseBody, "norobots-1994#method"),
        (ProfileId::Rfc9309, 400..=499) => (Allowed, "rfc9309#2.3.1.3"),
        (ProfileId::Rfc9309, 500..=599) => (Disallowed, "rfc9309#2.3.1.4"),
        (ProfileId::Rfc9309, _) => (open(), "rfc9309#2.3.1"),
        (ProfileId::Google, 300..=399) => (Allowed, "google#status-codes"),
        (ProfileId::Google, 429) => (Disallowed, "google#status-codes"),
        (ProfileId::Google, 400..=499) => (Allowed, "google#status-codes"),
        (ProfileId::Google, 500..=599) => (Disallowed, "google#status-codes"),
        (ProfileId::Google, _) => (open(), "google#status-codes"),
        // draft-1996#3.1: the resource does not exist (404; 410 says the same).
        (ProfileId::Draft1996, 404 | 410) => (Allowed, "draft-1996#3.1"),
        (ProfileId::Draft1996, 401 | 403 | 503) => (Disallowed, "draft-1996#3.1"),
        (ProfileId::Draft1996, _) => (open(), "draft-1996#3.1"),
        (ProfileId::Original1994, 404) => (Allowed, "norobots-1994#format"),
        (ProfileId::Original1994, _) => (open(), "norobots-1994#method"),
    }
}
