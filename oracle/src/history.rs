//! Time: which of a crawler's robots.txt fetches decides a check asked at a given time
//! (`rfc9309#2.4`, `rfc9309#2.3.1.4`, `google#status-codes`, `google#caching`, `draft-1996#3.4`,
//! `draft-1996#3.1`).
//!
//! A history is every fetch of `/robots.txt` a crawler made, in time order, with its outcome: the
//! crawler made these and no others. Asked at time `t`, the latest fetch at or before `t` is what
//! the crawler knows now; the documents then say whether that fetch still decides (a copy is cached
//! for so long), whether an earlier one does instead (Google's "last good version" during server
//! errors, rfc9309#2.4's cached copy while the file is unreachable), or a fixed answer (the first
//! 12 hours of errors stop crawling). A copy past its lifetime no longer speaks for the site: the
//! crawler must fetch again before it crawls, so the answer is [`Basis::Expired`] (verdict
//! `not-governed`: the history's file does not govern the URL at that time).
//!
//! [`permitted`] is a plain function of (profile, the fetches' times and outcomes, the time).

use serde::Serialize;

use crate::knobs::ProfileId;
use crate::request::{Fetch, HistoryRequest};

/// A time, in minutes from the start of a history.
pub use crate::request::Minutes;

const HOUR: Minutes = 60;
const DAY: Minutes = 24 * HOUR;

/// One fetch of a history, as this step sees it: when, and how it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// When the crawler fetched `/robots.txt`.
    pub at: Minutes,
    /// How it went.
    pub fetch: Fetch,
}

/// The history's fetches as this step reads them: when, and how each went.
pub fn attempts(history: &HistoryRequest<'_>) -> Vec<Attempt> {
    history
        .fetches
        .iter()
        .map(|f| Attempt {
            at: f.at,
            fetch: f.fetch,
        })
        .collect()
}

/// What may decide a check at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Fetch number `n` (from 0) of the history, its outcome and body, as a single fetch decides.
    Fetch(usize),
    /// Everything is allowed.
    Allowed,
    /// Everything is disallowed.
    Disallowed,
    /// No fetch of the history speaks for the site at this time (the copy expired): the crawler
    /// must fetch again first (verdict `not-governed`).
    Expired,
}

/// This step's answer: every basis the document permits at the time (the verdict is `either`
/// when they disagree), the rule that says so, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Permitted {
    /// The permitted bases, each once.
    pub bases: Vec<Basis>,
    /// The rule, in words.
    pub rule: &'static str,
    /// Where the document says so.
    pub citation: &'static str,
}

/// The bases `profile` permits for a check asked at `at`, after `attempts` (in time order).
pub fn permitted(profile: ProfileId, attempts: &[Attempt], at: Minutes) -> Permitted {
    let known = attempts.iter().take_while(|a| a.at <= at).count();
    let Some(latest) = known.checked_sub(1) else {
        return decided(
            vec![Basis::Expired],
            "no fetch yet: the rules must be fetched before the site is crawled",
            match profile {
                ProfileId::Rfc9309 => "rfc9309#2.3.1",
                ProfileId::Google => "google#intro",
                ProfileId::Draft1996 => "draft-1996#3.1",
                ProfileId::Original1994 => "norobots-1994#method",
            },
        );
    };
    let history = History {
        profile,
        attempts: &attempts[..known],
        latest,
        at,
    };
    match profile {
        ProfileId::Rfc9309 => rfc9309(&history),
        ProfileId::Google => google(&history),
        ProfileId::Draft1996 => draft_1996(&history),
        ProfileId::Original1994 => original_1994(&history),
    }
}

/// The `/robots.txt` URI's exemption at `at`, before any basis (the step order is scope, then the
/// exemption, then the history): `Some` when `url` is that URI and the exemption holds against the
/// latest fetch at or before `at` (no fetch yet: `None` is given to
/// [`crate::fetch::robots_txt_exemption`]).
pub fn robots_txt_exemption(
    profile: ProfileId,
    attempts: &[Attempt],
    at: Minutes,
    url: &str,
) -> Option<crate::fetch::Exemption> {
    if !crate::url::is_robots_txt_uri(&crate::url::split(url)) {
        return None;
    }
    let latest = attempts.iter().take_while(|a| a.at <= at).last();
    let exemption = crate::fetch::robots_txt_exemption(profile, latest.map(|a| a.fetch));
    exemption.holds.then_some(exemption)
}

fn decided(bases: Vec<Basis>, rule: &'static str, citation: &'static str) -> Permitted {
    let mut unique: Vec<Basis> = Vec::with_capacity(bases.len());
    for basis in bases {
        if !unique.contains(&basis) {
            unique.push(basis);
        }
    }
    Permitted {
        bases: unique,
        rule,
        citation,
    }
}

/// rfc9309#2.4: "Crawlers MAY cache the fetched robots.txt file's contents" and SHOULD NOT use
/// "the cached version" for more than 24 hours "unless the robots.txt file is unreachable". A
/// fetch that gave contents (a 2xx) decides for 24 hours; one that gave none (a 4xx, a redirect
/// chain without a file) has no "cached version", and rfc9309#2.4 gives its answer no lifetime:
/// past 24 hours it may still decide or the crawler fetches again first (open). Unreachable (a
/// 5xx or a network error): the crawler "MUST assume complete disallow" (rfc9309#2.3.1.4);
/// rfc9309#2.4's exception lets a cached copy outlive its 24 hours while the file is unreachable,
/// so a crawler holding one may keep using it: both are permitted. "If the robots.txt file is
/// undefined for a reasonably long period of time (for example, 30 days)", it "MAY assume that the
/// robots.txt file is unavailable" (allowed) "or continue to use a cached copy": 30 days is an
/// example, so from the end of rfc9309#2.4's 24 hours on the period may already be reasonably long
/// (open).
fn rfc9309(history: &History<'_>) -> Permitted {
    if !history.latest_is_error() {
        return if history.age_of_latest() <= DAY {
            decided(
                vec![Basis::Fetch(history.latest)],
                "the latest fetch decides: the crawler MAY cache it and uses it for up to 24 hours",
                "rfc9309#2.4",
            )
        } else if history.is_success(history.latest) {
            decided(
                vec![Basis::Expired],
                "the latest fetch is more than 24 hours old: a cached copy SHOULD NOT be used for \
                 more than 24 hours, so it no longer speaks for the site",
                "rfc9309#2.4",
            )
        } else {
            decided(
                vec![Basis::Fetch(history.latest), Basis::Expired],
                "the latest fetch, more than 24 hours old, gave no contents: 2.4's 24 hours are \
                 those of \"the cached version\" of the file's contents, and no lifetime is given \
                 to an answer without them, so it may still decide or be fetched again first",
                "rfc9309#2.4",
            )
        };
    }
    let cached = history
        .before_errors()
        .filter(|&n| history.is_success(n))
        .map(Basis::Fetch);
    let errors = history.errors_last();
    if errors <= DAY {
        let mut bases = vec![Basis::Disallowed];
        bases.extend(cached);
        decided(
            bases,
            "unreachable: the crawler MUST assume complete disallow; one holding a cached copy may \
             keep using it while the file is unreachable (2.4: \"unless the robots.txt file is \
             unreachable\")",
            "rfc9309#2.3.1.4",
        )
    } else if errors < 30 * DAY {
        let mut bases = vec![Basis::Disallowed, Basis::Allowed];
        bases.extend(cached);
        decided(
            bases,
            "unreachable for more than 24 hours: \"a reasonably long period of time (for example, \
             30 days)\" gives 30 days as an example, not as the limit, so the crawler may already \
             assume the file is unavailable (allowed), keep to complete disallow, or use a cached \
             copy",
            "rfc9309#2.3.1.4",
        )
    } else {
        let mut bases = vec![Basis::Disallowed, Basis::Allowed];
        bases.extend(cached);
        decided(
            bases,
            "unreachable for 30 days or more: the crawler MAY assume the file is unavailable \
             (allowed) or continue to use a cached copy, or keep assuming complete disallow",
            "rfc9309#2.3.1.4",
        )
    }
}

/// Google: "generally caches the contents of robots.txt file for up to 24 hours, but may cache
/// it longer in situations where refreshing the cached version isn't possible" (`google#caching`).
/// On a server error, or a network error treated as one (`google#status-codes`): "For the first 12
/// hours, Google stops crawling the site"; then "for the next 30 days Google will use the last
/// good version", and "If there's no cached version available Google assumes there's no crawl
/// restrictions"; "after 30 days" it behaves as if there were no robots.txt file if the site is
/// generally available, and stops crawling if not, which is outside what a case states.
fn google(history: &History<'_>) -> Permitted {
    if !history.latest_is_error() {
        return if history.age_of_latest() <= DAY {
            decided(
                vec![Basis::Fetch(history.latest)],
                "the latest fetch decides: Google caches it for up to 24 hours",
                "google#caching",
            )
        } else {
            decided(
                vec![Basis::Fetch(history.latest), Basis::Expired],
                "the latest fetch is more than 24 hours old: Google \"generally\" caches for up to \
                 24 hours, so it may still use it or fetch again first",
                "google#caching",
            )
        };
    }
    let errors = history.errors_last();
    if errors < 12 * HOUR {
        decided(
            vec![Basis::Disallowed],
            "server errors for less than 12 hours: Google stops crawling the site",
            "google#status-codes",
        )
    } else if errors < 30 * DAY {
        match history.last_good_version() {
            LastGood::Latest(n) => decided(
                vec![Basis::Fetch(n)],
                "server errors for 12 hours to 30 days: Google uses the last good version (the \
                 latest 2xx, the fetch before the errors)",
                "google#status-codes",
            ),
            LastGood::Earlier(n) => decided(
                vec![Basis::Fetch(n), Basis::Allowed],
                "server errors for 12 hours to 30 days: the last good version is an earlier 2xx, \
                 and fetches that gave no file came after it (a 4xx, a 429, redirects without a \
                 file); the page caches \"the cached response\" and says a 4xx is \"as if a valid \
                 robots.txt file didn't exist\", so whether one of them left \"no cached version \
                 available\" (no crawl restrictions) it does not say",
                "google#status-codes",
            ),
            LastGood::None => decided(
                vec![Basis::Allowed],
                "server errors for 12 hours to 30 days with no cached version (no 2xx before the \
                 errors; a 4xx, a 429 or redirects without a file are no version of it): Google \
                 assumes there are no crawl restrictions",
                "google#status-codes",
            ),
        }
    } else {
        decided(
            vec![Basis::Allowed, Basis::Disallowed],
            "server errors for more than 30 days: as if there were no robots.txt file if the site \
             is generally available, stop crawling if not (the site's availability is outside \
             the case)",
            "google#status-codes",
        )
    }
}

/// The 1996 draft: "Robots should cache /robots.txt files, but if they do they must periodically
/// verify the cached copy is fresh before using its contents", and with no cache-control
/// directives "robots should default to an expiry of 7 days" (3.4). On a temporary failure the
/// robot "should defer visits to the site until such time as the resource can be retrieved"
/// (3.1): the failed fetch decides, however long it lasts.
fn draft_1996(history: &History<'_>) -> Permitted {
    if history.latest_is_error() {
        return decided(
            vec![Basis::Fetch(history.latest)],
            "the latest fetch failed: its outcome decides until the file can be retrieved",
            "draft-1996#3.1",
        );
    }
    if history.age_of_latest() <= 7 * DAY {
        decided(
            vec![Basis::Fetch(history.latest)],
            "the latest fetch decides: a cached copy expires after 7 days by default",
            "draft-1996#3.4",
        )
    } else {
        decided(
            vec![Basis::Expired],
            "the latest fetch is more than 7 days old: the cached copy has expired and must be \
             verified before its contents are used",
            "draft-1996#3.4",
        )
    }
}

/// The 1994 standard describes one request for the file and says nothing of caching or of
/// fetching again: the latest fetch decides, for as long as no other is made.
fn original_1994(history: &History<'_>) -> Permitted {
    decided(
        vec![Basis::Fetch(history.latest)],
        "the latest fetch decides: the standard states no expiry",
        "norobots-1994#method",
    )
}

/// Google's "last good version" (`google#status-codes`): a version of the file is what a fetch
/// gave Google "to process the robots.txt file as provided by the server", a 2xx (after more than
/// five hops Google may instead have treated it "as a 404", which that fetch's own reading already
/// permits). A 4xx ("as if a valid robots.txt file didn't exist"), a 429 (no meaning given) or a
/// redirect chain ending without a file (a final 3xx) gave no file, so they are no version of it.
enum LastGood {
    /// The fetch just before the errors is a version.
    Latest(usize),
    /// The latest version is earlier, with fetches that gave none between it and the errors.
    Earlier(usize),
    /// No fetch before the errors gave a version.
    None,
}

/// The fetches made up to the time asked about.
struct History<'a> {
    /// The profile reading them (what counts as a server error differs).
    profile: ProfileId,
    /// The fetches at or before `at`, in time order (at least one).
    attempts: &'a [Attempt],
    /// The index of the latest.
    latest: usize,
    /// The time asked about.
    at: Minutes,
}

impl History<'_> {
    fn age_of_latest(&self) -> Minutes {
        self.at - self.attempts[self.latest].at
    }

    fn is_success(&self, n: usize) -> bool {
        matches!(
            self.attempts[n].fetch,
            Fetch::Status {
                status: 200..=299,
                ..
            }
        )
    }

    /// A server or network error: a 5xx, or no response (`rfc9309#2.3.1.4`; for Google, "Other
    /// errors ... treated as a server error", invalid responses among them; for the 1996 draft, a
    /// temporary failure): [`crate::fetch::is_server_error`].
    fn is_error(&self, n: usize) -> bool {
        crate::fetch::is_server_error(self.profile, self.attempts[n].fetch)
    }

    /// Whether fetch `n` gave Google a version of the file: a 2xx.
    fn is_version(&self, n: usize) -> bool {
        self.is_success(n)
    }

    /// Google's last good version before the run of errors the latest fetch ends.
    fn last_good_version(&self) -> LastGood {
        let Some(before) = self.before_errors() else {
            return LastGood::None;
        };
        match (0..=before).rev().find(|&n| self.is_version(n)) {
            Some(n) if n == before => LastGood::Latest(n),
            Some(n) => LastGood::Earlier(n),
            None => LastGood::None,
        }
    }

    fn latest_is_error(&self) -> bool {
        self.is_error(self.latest)
    }

    /// The first fetch of the run of errors the latest fetch ends.
    fn first_error(&self) -> usize {
        (0..=self.latest)
            .rev()
            .take_while(|&n| self.is_error(n))
            .last()
            .unwrap_or(self.latest)
    }

    /// How long the errors have lasted: from the first failed fetch of the run to the time asked.
    fn errors_last(&self) -> Minutes {
        self.at - self.attempts[self.first_error()].at
    }

    /// The latest fetch before the run of errors, when there is one.
    fn before_errors(&self) -> Option<usize> {
        self.first_error().checked_sub(1)
    }
}

/// `minutes` as cases write a time: `0h`, `90m`, `13h`, `30d12h`.
pub fn format_minutes(minutes: Minutes) -> String {
    if minutes == 0 {
        return "0h".to_string();
    }
    let (days, hours, mins) = (minutes / DAY, minutes % DAY / HOUR, minutes % HOUR);
    let mut out = String::new();
    for (value, unit) in [(days, 'd'), (hours, 'h'), (mins, 'm')] {
        if value > 0 {
            out.push_str(&format!("{value}{unit}"));
        }
    }
    out
}

/// Parses a time as cases write it: days, hours and minutes in that order, each optional but not
/// all absent (`0h`, `13h`, `30d`, `1d12h`, `90m`).
pub fn parse_minutes(text: &str) -> Option<Minutes> {
    let mut rest = text;
    let mut total: Minutes = 0;
    let mut any = false;
    for (unit, size) in [('d', DAY), ('h', HOUR), ('m', 1)] {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(unit) {
            let value: Minutes = rest[..digits].parse().ok()?;
            total = total.checked_add(value.checked_mul(size)?)?;
            rest = &rest[digits + 1..];
            any = true;
        }
    }
    (any && rest.is_empty()).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Basis::*;
    use ProfileId::*;

    fn ok(at: Minutes) -> Attempt {
        Attempt {
            at,
            fetch: crate::Fetch::default(),
        }
    }

    fn status(at: Minutes, status: u16) -> Attempt {
        Attempt {
            at,
            fetch: crate::Fetch::Status {
                status,
                redirects: 0,
            },
        }
    }

    fn bases(profile: ProfileId, attempts: &[Attempt], at: Minutes) -> Vec<Basis> {
        permitted(profile, attempts, at).bases
    }

    #[test]
    fn times_parse_and_print() {
        for (text, minutes) in [
            ("0h", 0),
            ("90m", 90),
            ("13h", 780),
            ("30d", 30 * DAY),
            ("1d12h", DAY + 12 * HOUR),
            ("2d3h4m", 2 * DAY + 3 * HOUR + 4),
        ] {
            assert_eq!(parse_minutes(text), Some(minutes), "{text}");
        }
        for text in ["", "h", "12", "12x", "1h2d", "1h1h", "-1h", "1.5h", " 1h"] {
            assert_eq!(parse_minutes(text), None, "{text}");
        }
        assert_eq!(format_minutes(DAY + 12 * HOUR), "1d12h");
        assert_eq!(format_minutes(0), "0h");
        assert_eq!(format_minutes(90), "1h30m");
    }

    #[test]
    fn google_5xx_timeline_after_a_good_fetch() {
        let history = [ok(0), status(HOUR, 503)];
        assert_eq!(bases(Google, &history, 0), [Fetch(0)]);
        assert_eq!(bases(Google, &history, 2 * HOUR), [Disallowed]);
        assert_eq!(bases(Google, &history, 13 * HOUR), [Fetch(0)]);
        assert_eq!(bases(Google, &history, 20 * DAY), [Fetch(0)]);
        assert_eq!(
            bases(Google, &history, 31 * DAY + HOUR),
            [Allowed, Disallowed]
        );
        // Network errors are server errors; the clock starts at the first failed fetch.
        let history = [
            ok(0),
            Attempt {
                at: HOUR,
                fetch: crate::Fetch::Unreachable,
            },
            status(5 * HOUR, 500),
        ];
        assert_eq!(bases(Google, &history, 12 * HOUR), [Disallowed]);
        assert_eq!(bases(Google, &history, 14 * HOUR), [Fetch(0)]);
        // A good fetch ends the run.
        let history = [
            ok(0),
            status(HOUR, 503),
            ok(20 * HOUR),
            status(21 * HOUR, 503),
        ];
        assert_eq!(bases(Google, &history, 22 * HOUR), [Disallowed]);
        assert_eq!(bases(Google, &history, 34 * HOUR), [Fetch(2)]);
    }

    #[test]
    fn google_5xx_without_a_cached_version_means_no_restrictions() {
        let history = [status(0, 503)];
        assert_eq!(bases(Google, &history, HOUR), [Disallowed]);
        assert_eq!(bases(Google, &history, 13 * HOUR), [Allowed]);
    }

    #[test]
    fn cache_lifetimes() {
        let history = [ok(0)];
        for (at, expected) in [
            (
                23 * HOUR,
                [[Fetch(0)].as_slice(), &[Fetch(0)], &[Fetch(0)], &[Fetch(0)]],
            ),
            (
                25 * HOUR,
                [
                    &[Expired][..],
                    &[Fetch(0), Expired],
                    &[Fetch(0)],
                    &[Fetch(0)],
                ],
            ),
            (
                8 * DAY,
                [
                    &[Expired][..],
                    &[Fetch(0), Expired],
                    &[Expired],
                    &[Fetch(0)],
                ],
            ),
        ] {
            for (profile, expected) in ProfileId::ALL.into_iter().zip(expected) {
                assert_eq!(
                    bases(profile, &history, at),
                    expected,
                    "{profile:?} at {at}"
                );
            }
        }
    }

    #[test]
    fn rfc9309_unreachable_with_and_without_a_cached_copy() {
        let history = [ok(0), status(2 * HOUR, 500)];
        assert_eq!(bases(Rfc9309, &history, 3 * HOUR), [Disallowed, Fetch(0)]);
        assert_eq!(bases(Rfc9309, &history, DAY + HOUR), [Disallowed, Fetch(0)]);
        // rfc9309#2.4's exception: past 24 hours the cached copy is still permitted while
        // unreachable, and "for example, 30 days" sets no limit: the file may be taken as
        // unavailable.
        assert_eq!(
            bases(Rfc9309, &history, 5 * DAY),
            [Disallowed, Allowed, Fetch(0)]
        );
        assert_eq!(
            bases(Rfc9309, &history, 31 * DAY),
            [Disallowed, Allowed, Fetch(0)]
        );
        let history = [status(0, 500)];
        assert_eq!(bases(Rfc9309, &history, HOUR), [Disallowed]);
        assert_eq!(bases(Rfc9309, &history, 10 * DAY), [Disallowed, Allowed]);
        assert_eq!(bases(Rfc9309, &history, 30 * DAY), [Disallowed, Allowed]);
        // A 404 before the errors is no cached copy.
        let history = [ok(0), status(HOUR, 404), status(2 * HOUR, 503)];
        assert_eq!(bases(Rfc9309, &history, 3 * HOUR), [Disallowed]);
    }

    #[test]
    fn rfc9309_gives_no_lifetime_to_an_answer_without_contents() {
        let history = [status(0, 404)];
        assert_eq!(bases(Rfc9309, &history, 12 * HOUR), [Fetch(0)]);
        assert_eq!(bases(Rfc9309, &history, 3 * DAY), [Fetch(0), Expired]);
        assert_eq!(bases(Rfc9309, &[ok(0)], 3 * DAY), [Expired]);
    }

    #[test]
    fn google_last_good_version_is_a_2xx() {
        let redirect_loop = Attempt {
            at: 2 * HOUR,
            fetch: crate::Fetch::Status {
                status: 301,
                redirects: 20,
            },
        };
        // No fetch before the errors gave a file: no cached version, no crawl restrictions.
        let history = [
            status(0, 404),
            redirect_loop,
            status(3 * HOUR, 429),
            status(4 * HOUR, 503),
        ];
        assert_eq!(bases(Google, &history, 17 * HOUR), [Allowed]);
        // A 2xx just before the errors is the last good version.
        let history = [status(0, 429), ok(HOUR), status(2 * HOUR, 503)];
        assert_eq!(bases(Google, &history, 15 * HOUR), [Fetch(1)]);
        // An earlier 2xx with a fetch that gave no file after it: open.
        for between in [404, 429] {
            let history = [ok(0), status(HOUR, between), status(2 * HOUR, 503)];
            assert_eq!(
                bases(Google, &history, 15 * HOUR),
                [Fetch(0), Allowed],
                "{between}"
            );
        }
        // A 2xx after more than five hops is a version, read as its single fetch is (which
        // permits Google's "treats it as a 404" too).
        let far = Attempt {
            at: 0,
            fetch: crate::Fetch::Status {
                status: 200,
                redirects: 6,
            },
        };
        assert_eq!(
            bases(Google, &[far, status(HOUR, 503)], 14 * HOUR),
            [Fetch(0)]
        );
    }

    #[test]
    fn google_counts_invalid_statuses_as_server_errors() {
        for invalid in [0, 99, 600, 999] {
            let history = [ok(0), status(HOUR, invalid)];
            assert_eq!(bases(Google, &history, 2 * HOUR), [Disallowed], "{invalid}");
            assert_eq!(bases(Google, &history, 14 * HOUR), [Fetch(0)], "{invalid}");
            // Not under RFC 9309: the latest fetch decides (its status is open, K15).
            assert_eq!(bases(Rfc9309, &history, 2 * HOUR), [Fetch(1)], "{invalid}");
        }
    }

    #[test]
    fn draft_1996_defers_on_failure_however_long() {
        let history = [ok(0), status(HOUR, 503)];
        assert_eq!(bases(Draft1996, &history, 20 * DAY), [Fetch(1)]);
        assert_eq!(bases(Original1994, &history, 20 * DAY), [Fetch(1)]);
    }

    #[test]
    fn before_the_first_fetch_nothing_speaks_for_the_site() {
        for profile in ProfileId::ALL {
            assert_eq!(bases(profile, &[ok(HOUR)], 0), [Expired]);
        }
    }
}
