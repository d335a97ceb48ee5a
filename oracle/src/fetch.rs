//! Step 8, the fetch outcome (K15): what a non-success fetch of `/robots.txt` means; and, before
//! it, whether the `/robots.txt` URI itself stays allowed whatever the outcome says (K10 against
//! K15, [`robots_txt_exemption`]).

use serde::Serialize;

use crate::knobs::ProfileId;
use crate::request::Fetch;

/// Whether the `/robots.txt` URI itself is allowed before the fetch outcome is read, the rule that
/// says so, in words, and where the document says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Exemption {
    /// True when the URI is allowed whatever the fetch outcome (or the history) says.
    pub holds: bool,
    /// The deciding rule, in words.
    pub rule: &'static str,
    /// Where the document says so.
    pub citation: &'static str,
}

const fn exemption(holds: bool, rule: &'static str, citation: &'static str) -> Exemption {
    Exemption {
        holds,
        rule,
        citation,
    }
}

/// Whether the `/robots.txt` URI ([`crate::url::is_robots_txt_uri`]) is allowed under `profile`
/// before the fetch outcome decides, when the crawler's latest fetch of the file went as `latest`
/// (`None`: no fetch yet). The step order is scope, then this exemption, then the fetch outcome
/// (or the history), then the body; when it does not hold, the outcome and the body decide, the
/// body with its own reading of K10 (`decide::robots_txt_exempt`).
pub fn robots_txt_exemption(profile: ProfileId, latest: Option<Fetch>) -> Exemption {
    match profile {
        // rfc9309#2.2.2: "The /robots.txt URI is implicitly allowed", with no condition. The
        // "complete disallow" of rfc9309#2.3.1.4 is what the undefined file is assumed to say, and
        // no rule of a file reaches that URI; rfc9309#2.3.1.4's "undefined for a reasonably long
        // period" and rfc9309#2.4's "unless the robots.txt file is unreachable" have the crawler
        // fetch the file again.
        ProfileId::Rfc9309 => exemption(
            true,
            "the /robots.txt URI is implicitly allowed, whatever the fetch outcome: complete \
             disallow is what the undefined file is assumed to say, and no rule reaches that URI",
            "rfc9309#2.2.2",
        ),
        // guide-ch9#allow-disallow (the 1996 profile's secondary reading): "The robots.txt URL
        // always is allowed"; draft-1996#3.1 defers visits "until such time as the resource can be
        // retrieved", so it is fetched again.
        ProfileId::Draft1996 => exemption(
            true,
            "the robots.txt URL always is allowed, whatever the fetch outcome",
            "guide-ch9#allow-disallow",
        ),
        // google#status-codes: on a server error (and a network error, "treated as a server
        // error") "Google stops crawling the site but keeps trying to fetch the robots.txt file",
        // then uses the last good version "while still trying to fetch a new version", and after
        // 30 days keeps "checking for a new version" or "periodically requesting a robots.txt
        // file": the file's URI is fetched throughout. For other outcomes the page says nothing
        // of that URI: the outcome decides (and the body, where K10 is open).
        ProfileId::Google => match latest {
            Some(fetch) if is_server_error(profile, fetch) => exemption(
                true,
                "during server errors Google stops crawling the site but keeps trying to fetch \
                 the robots.txt file",
                "google#status-codes",
            ),
            _ => exemption(
                false,
                "the page exempts the robots.txt file only during server errors: the fetch \
                 outcome decides",
                "google#status-codes",
            ),
        },
        // norobots-1994#method: the file is fetched at the local URL /robots.txt; the text says
        // nothing of that URL's own access, nor of fetch outcomes but a missing file.
        ProfileId::Original1994 => exemption(
            false,
            "the 1994 text says nothing of the /robots.txt URL's own access: the fetch outcome \
             decides",
            "norobots-1994#method",
        ),
    }
}

/// A server error as `profile` counts one: a 5xx or no response (`rfc9309#2.3.1.4` "server or
/// network errors"; the 1996 draft's temporary failure). Google adds "invalid responses"
/// (`google#status-codes`, "Other errors": "cannot be fetched due to DNS or networking issues, such
/// as timeouts, invalid responses, ... is treated as a server error"): a status outside 100 to 599
/// is no HTTP status (RFC 9110 15: "Values outside the range 100..599 are invalid").
pub fn is_server_error(profile: ProfileId, fetch: Fetch) -> bool {
    match fetch {
        Fetch::Unreachable => true,
        Fetch::Status { status, .. } => {
            (500..=599).contains(&status)
                || (profile == ProfileId::Google && !(100..=599).contains(&status))
        }
    }
}

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
        // rfc9309#2.3.1.2: at least five hops are followed; after more, MAY treat as unavailable.
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
        // rfc9309#2.3.1.1: "the crawler MUST follow the parseable rules"; google#status-codes: 2xx
        // prompts the crawlers "to process the robots.txt file as provided"; draft-1996#3.1: "the
        // robot must read the content, parse it, and follow any instructions"; norobots-1994#method:
        // the file at /robots.txt holds the instructions.
        (ProfileId::Rfc9309, 200..=299) => (UseBody, "rfc9309#2.3.1.1"),
        (ProfileId::Google, 200..=299) => (UseBody, "google#status-codes"),
        (ProfileId::Draft1996, 200..=299) => (UseBody, "draft-1996#3.1"),
        (ProfileId::Original1994, 200..=299) => (UseBody, "norobots-1994#method"),
        // rfc9309#2.3.1.3: with a 400-499 status "the crawler MAY access any resources".
        (ProfileId::Rfc9309, 400..=499) => (Allowed, "rfc9309#2.3.1.3"),
        // rfc9309#2.3.1.4: server errors (500-599): "the crawler MUST assume complete disallow".
        (ProfileId::Rfc9309, 500..=599) => (Disallowed, "rfc9309#2.3.1.4"),
        // rfc9309#2.3.1: no other status is given a meaning.
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
        // google#status-codes, "Other errors": "invalid responses" are "treated as a server
        // error"; a status outside 100 to 599 is no HTTP status (RFC 9110 15).
        (ProfileId::Google, status) if !(100..=599).contains(&status) => {
            (Disallowed, "google#status-codes")
        }
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
