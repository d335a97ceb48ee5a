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
        // RFC9309 2.3.1.1: "the crawler MUST follow the parseable rules"; google#status-codes: 2xx
        // prompts the crawlers "to process the robots.txt file as provided"; draft-1996#3.1: "the
        // robot must read the content, parse it, and follow any instructions"; norobots-1994#method:
        // the file at /robots.txt holds the instructions.
        (ProfileId::Rfc9309, 200..=299) => (UseBody, "rfc9309#2.3.1.1"),
        (ProfileId::Google, 200..=299) => (UseBody, "google#status-codes"),
        (ProfileId::Draft1996, 200..=299) => (UseBody, "draft-1996#3.1"),
        (ProfileId::Original1994, 200..=299) => (UseBody, "norobots-1994#method"),
        // RFC9309 2.3.1.3: with a 400-499 status "the crawler MAY access any resources".
        (ProfileId::Rfc9309, 400..=499) => (Allowed, "rfc9309#2.3.1.3"),
        // RFC9309 2.3.1.4: server errors (500-599): "the crawler MUST assume complete disallow".
        (ProfileId::Rfc9309, 500..=599) => (Disallowed, "rfc9309#2.3.1.4"),
        // RFC9309 2.3.1: no other status is given a meaning.
        (ProfileId::Rfc9309, _) => (open(), "rfc9309#2.3.1"),
        // google#status-codes: after the redirects Google "treats it as a 404".
        (ProfileId::Google, 300..=399) => (Allowed, "google#status-codes"),
        // google#status-codes: 429 is excluded from the 4xx rule and given no other meaning
        // (only "The 4xx status codes, except 429, have no effect on crawl rate"): silent, open.
        (ProfileId::Google, 429) => (open(), "google#status-codes"),
        // google#status-codes: "all 4xx errors, except 429, as if a valid robots.txt file didn't
        // exist ... no crawl restrictions".
        (ProfileId::Google, 400..=499) => (Allowed, "google#status-codes"),
        // google#status-codes: 5xx, "Google stops crawling the site" at first (a first fetch).
        (ProfileId::Google, 500..=599) => (Disallowed, "google#status-codes"),
        (ProfileId::Google, _) => (open(), "google#status-codes"),
        // draft-1996#3.1: "the resource does not exist (HTTP Status Code 404) ... access to the
        // site is unrestricted"; 410 says the same of the resource.
        (ProfileId::Draft1996, 404 | 410) => (Allowed, "draft-1996#3.1"),
        // draft-1996#3.1: 401 or 403 "should regard access to the site completely restricted"; a
        // temporary failure (503) "should defer visits".
        (ProfileId::Draft1996, 401 | 403 | 503) => (Disallowed, "draft-1996#3.1"),
        // draft-1996#3.1: "Specific behaviors for other server responses are not required".
        (ProfileId::Draft1996, _) => (open(), "draft-1996#3.1"),
        // norobots-1994#format: if the file "его не существует" (does not exist), "любой поисковый
        // робот будет работать по своему алгоритму": no rule restricts the robot.
        (ProfileId::Original1994, 404) => (Allowed, "norobots-1994#format"),
        // norobots-1994#method: the file is fetched over HTTP; no status is given a meaning.
        (ProfileId::Original1994, _) => (open(), "norobots-1994#method"),
    }
}
