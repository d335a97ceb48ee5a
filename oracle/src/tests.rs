//! Unit tests of the whole pipeline, one or more per knob of `docs/profiles.md`.

use crate::{evaluate, Fetch, ProfileId, Request, Verdict};
use ProfileId::*;
use Verdict::*;

fn verdicts(body: &str, agent: &str, url: &str) -> [Verdict; 4] {
    verdicts_bytes(body.as_bytes(), agent, url, Fetch::default())
}

fn verdicts_bytes(body: &[u8], agent: &str, url: &str, fetch: Fetch) -> [Verdict; 4] {
    let request = Request::new(body, agent, url).with_fetch(fetch);
    ProfileId::ALL.map(|p| evaluate(p, &request).verdict)
}

#[test]
fn k01_grouping_blank_lines() {
    // A blank line inside a group means nothing to RFC 9309, but ends a 1996/1994 record.
    let body = "User-agent: a\n\nDisallow: /x\n";
    assert_eq!(
        verdicts(body, "a", "/x"),
        [Disallowed, Disallowed, Allowed, Allowed]
    );
}

#[test]
fn k02_rules_outside_groups_are_ignored() {
    assert_eq!(
        verdicts("Disallow: /\nUser-agent: b\nDisallow: /b\n", "a", "/x"),
        [Allowed; 4]
    );
}

#[test]
fn k03_group_selection() {
    // RFC 9309 merges both groups; 1996 takes the first record only (the Guide); under 1994 every
    // record naming the robot applies.
    let body = "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n";
    assert_eq!(
        verdicts(body, "A", "/y"),
        [Disallowed, Disallowed, Allowed, Disallowed]
    );
    // Google ignores text after the token; for RFC 9309 and the 1996 draft (whose token grammar
    // excludes `/`) that is open; 1994 compares the whole value.
    let body = "User-agent: googlebot/1.2\nDisallow: /\n";
    assert_eq!(
        verdicts(body, "googlebot", "/x"),
        [Either, Disallowed, Either, Allowed]
    );
    // `*` is no tspecial: `googlebot*` is a token of the draft's grammar, a name compared whole.
    let body = "User-agent: googlebot*\nDisallow: /\n";
    assert_eq!(verdicts(body, "googlebot", "/x")[2], Allowed);
}

#[test]
fn k03_names_compare_whole_in_every_profile() {
    // The 1996 draft's robot scans "for records with: User-agent: figtree", its own name, and the
    // 1994 text asks for the robot's name: the Guide's substring reading is no profile's
    // (D-agent-substring).
    let body = "User-agent: bot\nDisallow: /\n";
    assert_eq!(verdicts(body, "Spambot", "/x"), [Allowed; 4]);
}

#[test]
fn k04_precedence() {
    let body = "User-agent: *\nDisallow: /page\nAllow: /page\n";
    assert_eq!(
        verdicts(body, "a", "/page"),
        [Allowed, Allowed, Disallowed, Disallowed]
    );
    // google#situation-4: equal pattern lengths, allow wins; "matched octets" would disagree.
    let body = "User-agent: *\nAllow: /page\nDisallow: /*.ph\n";
    assert_eq!(
        verdicts(body, "a", "/page.php5"),
        [Either, Allowed, Allowed, Allowed]
    );
}

#[test]
fn k05_allow_is_unknown_in_1994() {
    let body = "User-agent: *\nAllow: /a\nDisallow: /\n";
    assert_eq!(
        verdicts(body, "x", "/a"),
        [Allowed, Allowed, Allowed, Disallowed]
    );
}

#[test]
fn k06_wildcards() {
    let body = "User-agent: *\nDisallow: /*.gif$\n";
    assert_eq!(
        verdicts(body, "x", "/a/b.gif"),
        [Disallowed, Disallowed, Allowed, Allowed]
    );
    assert_eq!(verdicts(body, "x", "/a/b.gif?x"), [Allowed; 4]);
}

#[test]
fn k07_percent_encoding() {
    let body = "User-agent: *\nDisallow: /foo/bar/baz\n";
    assert_eq!(
        verdicts(body, "x", "/foo/bar/%62%61%7A"),
        [Disallowed, Either, Disallowed, Either]
    );
    // `%2F` stays apart from `/` for RFC 9309 (reserved) and the 1996 draft (its one exception);
    // the 1994 text says nothing of escapes, so it may decode every one.
    let body = "User-agent: *\nDisallow: /a%2fb\n";
    assert_eq!(
        verdicts(body, "x", "/a/b"),
        [Allowed, Allowed, Allowed, Either]
    );
    // The hex case of an escape: open for RFC 9309 (no sentence upper-cases it), settled for
    // Google's non-ASCII escapes ("per RFC 3986"), open for its ASCII ones.
    let body = "User-agent: *\nDisallow: /a%3cd/%e3%83%84\n";
    assert_eq!(
        verdicts(body, "x", "/a%3Cd/%E3%83%84"),
        [Either, Either, Disallowed, Either]
    );
    let body = "User-agent: *\nDisallow: /a/%e3%83%84\n";
    assert_eq!(
        verdicts(body, "x", "/a/%E3%83%84"),
        [Either, Disallowed, Disallowed, Either]
    );
}

#[test]
fn k08_match_target() {
    let body = "User-agent: *\nDisallow: /p?q\n";
    assert_eq!(
        verdicts(body, "x", "/p?q=1"),
        [Disallowed, Disallowed, Either, Disallowed]
    );
}

#[test]
fn k09_empty_rule() {
    let body = "User-agent: *\nDisallow:\n";
    assert_eq!(
        verdicts(body, "x", "/a"),
        [Allowed, Allowed, Either, Allowed]
    );
}

#[test]
fn k10_robots_txt() {
    let body = "User-agent: *\nDisallow: /\n";
    assert_eq!(
        verdicts(body, "x", "/robots.txt"),
        [Allowed, Either, Allowed, Either]
    );
}

#[test]
fn k13_white_space_before_a_field() {
    // The 1994 form has no white space before the field: the indented Disallow is unrecognised,
    // which leaves a record without rules (open: applies or skipped; both allow here, as there is
    // no `*` record). The 1996 BNF has none either, but robustness is asked: open.
    let body = "User-agent: a\n Disallow: /x\n";
    assert_eq!(
        verdicts(body, "a", "/x"),
        [Disallowed, Disallowed, Either, Allowed]
    );
    // The ruleless record it leaves is only seen by the strict reading; with a `*` record the
    // 1994 knob on rule-less records is what decides.
    let body = "User-agent: a\nDisallow : /x\n\nUser-agent: *\nDisallow: /\n";
    assert_eq!(
        verdicts(body, "a", "/x"),
        [Disallowed, Disallowed, Either, Either]
    );
}

#[test]
fn k12_bom() {
    let body = b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n";
    assert_eq!(
        verdicts_bytes(body, "x", "/a", Fetch::default()),
        [Either, Disallowed, Either, Either]
    );
}

#[test]
fn k14_size_limit() {
    let mut body = b"User-agent: *\n".to_vec();
    while body.len() < 520 * 1024 {
        body.extend_from_slice(b"Disallow: /filler\n");
    }
    body.extend_from_slice(b"Disallow: /late\n");
    assert_eq!(
        verdicts_bytes(&body, "x", "/late", Fetch::default()),
        [Either, Allowed, Either, Disallowed]
    );
    // The 1996 draft gives its limit no figure: a large body may be cut anywhere.
    assert_eq!(
        verdicts_bytes(&body, "x", "/filler", Fetch::default()),
        [Disallowed, Disallowed, Either, Disallowed]
    );
}

#[test]
fn k15_fetch_outcomes() {
    let body = b"User-agent: *\nDisallow: /\n";
    let status = |status, redirects| Fetch::Status { status, redirects };
    assert_eq!(
        verdicts_bytes(b"", "x", "/", status(404, 0)),
        [Allowed, Allowed, Allowed, Allowed]
    );
    assert_eq!(
        verdicts_bytes(b"", "x", "/", status(503, 0)),
        [Disallowed, Disallowed, Disallowed, Either]
    );
    assert_eq!(
        verdicts_bytes(b"", "x", "/", status(429, 0)),
        [Allowed, Either, Either, Either]
    );
    assert_eq!(
        verdicts_bytes(body, "x", "/", status(200, 6)),
        [Either, Either, Disallowed, Either]
    );
    assert_eq!(
        verdicts_bytes(body, "x", "/", status(200, 5)),
        [Disallowed, Disallowed, Disallowed, Either]
    );
    assert_eq!(
        verdicts_bytes(b"", "x", "/", Fetch::Unreachable),
        [Disallowed, Disallowed, Disallowed, Either]
    );
}

#[test]
fn rfc9309_section_5_1() {
    let body = "User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n\
                User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n\
                User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n";
    let rfc = |agent, url| evaluate(Rfc9309, &Request::new(body.as_bytes(), agent, url)).verdict;
    assert_eq!(rfc("foobot", "/example/page.html"), Allowed);
    assert_eq!(rfc("foobot", "/other"), Disallowed);
    assert_eq!(rfc("bazbot", "/example/page.html"), Disallowed);
    assert_eq!(rfc("quxbot", "/example/x"), Allowed);
    assert_eq!(rfc("other", "/example/x"), Disallowed);
    assert_eq!(rfc("other", "/publications/x.gif"), Either);
}

#[test]
fn explanation_names_the_deciding_rule() {
    let body = b"User-agent: *\nAllow: /p\nDisallow: /\n";
    let explanation = evaluate(Google, &Request::new(body, "x", "/page"));
    let text = explanation.to_string();
    assert!(text.contains("=> line 2: Allow \"/p\""), "{text}");
    assert!(text.contains("reading's verdict: allowed"), "{text}");
}

#[test]
fn total_on_garbage() {
    let bodies: [&[u8]; 4] = [
        b"\xFF\xFE\x00\x00",
        b"\r\r\r:::\n#",
        b"User-agent:\nDisallow:%",
        b"*$*$",
    ];
    for body in bodies {
        for url in ["", "%", "http://", "*", "/%zz?#", "a:b"] {
            for p in ProfileId::ALL {
                let _ = evaluate(p, &Request::new(body, "", url));
            }
        }
    }
}

/// Found by the fuzzer's `percent-encode-non-ascii` invariant: raw non-ASCII in the URL must open
/// Google's percent-encoding knob, as its escaped form does (`google#url-matching`).
#[test]
fn raw_non_ascii_url_opens_the_same_knobs_as_its_escaped_form() {
    let body = "User-Agent: *\nDisallow:*/caf\u{e9}\n".as_bytes();
    let raw = evaluate(
        ProfileId::Google,
        &Request::new(body, "FooBot", "http://example.com/?/caf\u{e9}"),
    );
    let escaped = evaluate(
        ProfileId::Google,
        &Request::new(body, "FooBot", "http://example.com/?/caf%C3%A9"),
    );
    assert_eq!(raw.verdict, escaped.verdict);
}

/// Found by the fuzzer's invariants: reserved characters in the query open Google's
/// percent-encoding knob, whose RFC 9309 reading treats them differently (`google#url-matching`).
#[test]
fn reserved_characters_in_the_query_open_googles_encoding_knob() {
    let body = b"User-agent: *\nDisallow: /*/x\n";
    let verdict = evaluate(ProfileId::Google, &Request::new(body, "FooBot", "/a?/x")).verdict;
    let rfc = evaluate(ProfileId::Rfc9309, &Request::new(body, "FooBot", "/a?/x")).verdict;
    assert_eq!(verdict, Verdict::Either);
    // RFC 9309 itself compares a `/` in the query percent-encoded (rfc9309#figure-4, row 2), while
    // the rule's `/x` has no `?` before it and is path: they never meet.
    assert_eq!(rfc, Verdict::Allowed);
}

/// K7's reserved-in-path reading is tried when the match target holds a reserved character that
/// is data (`/*3A` meets `/:` only once `:` is written `%3A`), in the query or the fragment only
/// when a rule has a `*`, and not for one in the scheme or the authority, which are never matched.
#[test]
fn reserved_characters_in_the_path_open_the_reserved_in_path_knob() {
    let opened = |body: &[u8], url: &str| {
        evaluate(Rfc9309, &Request::new(body, "FooBot", url))
            .variants
            .iter()
            .any(|v| v.applied.iter().any(|a| a.knob == "reserved-in-path"))
    };
    let body = b"User-agent: *\nDisallow: /*3A\n";
    let url = "http://example.com/:";
    assert!(opened(body, url));
    assert_eq!(
        evaluate(Rfc9309, &Request::new(body, "FooBot", url)).verdict,
        Either
    );
    let plain = b"User-agent: *\nDisallow: /a:b\n";
    assert!(!opened(plain, "http://user:pw@example.com:80/a"));
    // The query and the fragment count only when a rule has a `*`, whose pieces can reach them.
    assert!(!opened(plain, "http://example.com/a?x=1"));
    assert!(!opened(plain, "http://example.com/a#b=c"));
    let star = b"User-agent: *\nDisallow: /a*x\n";
    assert!(opened(star, "http://example.com/a?x=1"));
    assert!(opened(star, "http://example.com/a#b=c"));
}

/// K1's agent-after-rule and K3's readings of records and values are tried only for what some
/// reading can select for the crawler, K4's specificity only where an allow and a disallow can
/// both match, and the 1996 draft's K8 only where a rule can reach into the query.
#[test]
fn record_and_precedence_knobs_open_only_where_they_can_decide() {
    let opens_at = |profile: ProfileId, body: &str, agent: &str, url: &str, knob: &str| {
        profile
            .open_knobs(&Request::new(body.as_bytes(), agent, url))
            .iter()
            .any(|k| k.name == knob)
    };
    let opens = |profile: ProfileId, body: &str, agent: &str, knob: &str| {
        opens_at(profile, body, agent, "/a", knob)
    };
    let ruleless = "User-agent: BarBot\n\nUser-agent: *\nDisallow: /a\n";
    assert!(opens(Draft1996, ruleless, "BarBot", "ruleless-record"));
    assert!(opens(Draft1996, ruleless, "XBarBotY", "ruleless-record"));
    assert!(!opens(Draft1996, ruleless, "FooBot", "ruleless-record"));
    let listed = "User-agent: BarBot *\n\nUser-agent: *\nDisallow: /a\n";
    assert!(opens(Original1994, listed, "FooBot", "ruleless-record"));
    let joined = "User-agent: BarBot\nDisallow: /a\nUser-agent: BazBot\nDisallow: /b\n";
    assert!(opens(Draft1996, joined, "BarBot", "agent-after-rule"));
    assert!(opens(Original1994, joined, "BazBot", "agent-after-rule"));
    assert!(!opens(Draft1996, joined, "FooBot", "agent-after-rule"));
    let odd = "User-agent: BarBot/1.0\nDisallow: /a\n";
    assert!(opens(Rfc9309, odd, "BarBot", "agent-value"));
    assert!(!opens(Rfc9309, odd, "FooBot", "agent-value"));
    let spaced = "User-agent: BarBot BazBot\nDisallow: /a\n";
    assert!(opens(Original1994, spaced, "BazBot", "agent-list"));
    assert!(!opens(Original1994, spaced, "FooBot", "agent-list"));
    let query = |rule: &str| {
        let body = format!("User-agent: *\nDisallow: {rule}\n");
        opens_at(Draft1996, &body, "FooBot", "/a?b", "match-target")
    };
    assert!(query("/a?b"));
    assert!(query("/a%3Fb"));
    assert!(!query("/a"));
    let versioned = "User-agent: BarBot/1.0\n\nUser-agent: *\nDisallow: /a\n";
    assert!(opens(Draft1996, versioned, "XBarBot", "ruleless-record"));
    let specificity = |rules: &str| {
        let body = format!("User-agent: *\n{rules}");
        opens(Rfc9309, &body, "FooBot", "specificity")
    };
    assert!(specificity("Allow: /a*\nDisallow: /\n"));
    assert!(!specificity("Disallow: /a*\nDisallow: /\n"));
}

/// Several requests on one body, read once, answer as each request read alone: the memo forgets
/// the selection and the match target between requests and keeps the body's steps.
#[test]
fn requests_on_one_body_answer_as_each_alone() {
    let bodies: [&[u8]; 4] = [
        b"User-agent: FooBot\nDisallow: /a\nAllow: /a/b$\n\nUser-agent: *\nDisallow: /*.gif$\n",
        b"\xEF\xBB\xBFuser-agent: foo bar\nDisallow: /%61\n\xFF\nUser-agent: BarBot\nDisallow: /\n",
        b"Disallow: /x\nUser-agent: foobot/1.2\ndisallow: /robots.txt\nallow: /\n",
        b"",
    ];
    let queries = [
        ("FooBot", "http://example.com/a/b"),
        ("foobot", "http://example.com/a/b#frag"),
        ("BarBot", "http://example.com/%61?q=1"),
        ("Other", "http://example.com/x.gif"),
        ("FooBot", "http://example.com/robots.txt"),
    ];
    let some: &[ProfileId] = &[Google, Original1994];
    for body in bodies {
        let requests: Vec<Request<'_>> = queries
            .iter()
            .map(|(agent, url)| Request::new(body, agent, url))
            .collect();
        let asks: Vec<(&[ProfileId], &Request<'_>)> = requests
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    if i % 2 == 0 {
                        &ProfileId::ALL[..]
                    } else {
                        some
                    },
                    r,
                )
            })
            .collect();
        let together = crate::verdicts_on_one_body(&asks);
        for ((profiles, request), got) in asks.iter().zip(&together) {
            let alone: Vec<Verdict> = profiles
                .iter()
                .map(|&p| evaluate(p, request).verdict)
                .collect();
            assert_eq!(got, &alone, "{request:?}");
        }
    }
}

#[test]
fn k07_charset_knobs_open_only_where_a_line_could_change() {
    let charset_knobs = |body: &[u8]| -> Vec<&'static str> {
        let request = Request::new(body, "FooBot", "/a");
        [Rfc9309, Google]
            .into_iter()
            .flat_map(|p| p.open_knobs(&request))
            .map(|k| k.name)
            .filter(|name| *name == "bridge-encoding" || *name == "non-utf8")
            .collect()
    };
    let both = vec!["bridge-encoding", "non-utf8"];
    for (body, opens) in [
        // Invalid octets only in a comment, an unknown field, a line without a colon, or a line
        // that dropping empties between a CR and an LF: no reading groups differently.
        (
            &b"User-agent: *\nDisallow: /a # caf\xC3\xA9\nSitemap: /\xFF\n"[..],
            false,
        ),
        (b"User-agent: *\nSitemap: /\xFF\nDisallow: /a\n", false),
        (b"\xFF\xFE garbage\nUser-agent: *\nDisallow: /a\n", false),
        (b"User-agent: *\r\xFF\nDisallow: /a\n", false),
        (b"Cr\xE9dit: x\nUser-agent: *\nDisallow: /a\n", false),
        // A rule or user-agent line with a non-ASCII octet, a field that names one once its
        // invalid octets are dropped (even with white space between), or a body cut before K7.
        (b"User-agent: *\nDisallow: /caf\xE9\n", true),
        (b"User-agent: *\nDisallow: /a # \xFF\n", true),
        (b"User-agent: b\xFFt\nDisallow: /a\n", true),
        (b"User-agent: *\nDis\xFFallow: /a\n", true),
        (b"\xFF User-agent: *\nDisallow: /a\n", true),
        (b"\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n# \xFF\n", true),
    ] {
        let expected = if opens { both.clone() } else { Vec::new() };
        assert_eq!(charset_knobs(body), expected, "{body:?}");
    }
    // Dropping the invalid line drops the rule: Google's verdict is open.
    assert_eq!(
        verdicts_bytes(
            b"User-agent: *\nDisallow: /a # \xFF\n",
            "FooBot",
            "/a",
            Fetch::default()
        )[1],
        Either
    );
}

#[test]
fn k12_a_skipped_bom_leaves_the_first_line_its_open_knobs() {
    // Under the RFC the BOM is skipped, so the first line is a user-agent line whose value is not a
    // product token (K3 agent-value is open) exactly as without the BOM.
    let body = "User-agent: FooBot/1.0\nDisallow: /\n";
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), body.as_bytes()].concat();
    let plain = verdicts(body, "FooBot", "/x");
    assert_eq!(plain[0], Either);
    assert_eq!(
        verdicts_bytes(&with_bom, "FooBot", "/x", Fetch::default()),
        plain
    );
}

#[test]
fn step_0_scope_comes_before_the_fetch_and_the_body() {
    let body = b"User-agent: *\nDisallow: /\n";
    let file = "https://www.example.com/robots.txt";
    let ask = |url: &'static str, fetch: Fetch| {
        let request = Request::new(body, "FooBot", url)
            .with_fetch(fetch)
            .with_robots_url(file);
        ProfileId::ALL.map(|p| evaluate(p, &request).verdict)
    };
    // Governed: the body decides; not governed: nothing the file says matters, not even a 503.
    assert_eq!(
        ask("https://www.example.com/a", Fetch::default()),
        [Disallowed; 4]
    );
    assert_eq!(
        ask("https://example.com/a", Fetch::default()),
        [NotGoverned; 4]
    );
    let unavailable = Fetch::Status {
        status: 503,
        redirects: 0,
    };
    assert_eq!(ask("https://example.com/a", unavailable), [NotGoverned; 4]);
    // Open scope (Google alone says an IDN is its punycode form) is `either`.
    let idn = Request::new(body, "FooBot", "https://www.xn--exmple-cua.com/")
        .with_robots_url("https://www.exämple.com/robots.txt");
    assert_eq!(
        ProfileId::ALL.map(|p| evaluate(p, &idn).verdict),
        [Either, Disallowed, Either, Either]
    );
    // Without the robots.txt URL, nothing changes.
    let plain = Request::new(body, "FooBot", "https://example.com/a");
    assert_eq!(
        ProfileId::ALL.map(|p| evaluate(p, &plain).verdict),
        [Disallowed; 4]
    );
}

#[test]
fn every_path_answers_step_0_alike_and_the_explanation_names_the_rule() {
    let body = b"User-agent: *\nDisallow: /private\n";
    let file = "https://example.com:8181/robots.txt";
    let urls = [
        "https://example.com:8181/private",
        "https://example.com/private",
        "https://example.com./private",
        "https://example.com:8181/public",
    ];
    let requests: Vec<Request<'_>> = urls
        .iter()
        .map(|url| Request::new(body, "FooBot", url).with_robots_url(file))
        .collect();
    let asks: Vec<(&[ProfileId], &Request<'_>)> =
        requests.iter().map(|r| (&ProfileId::ALL[..], r)).collect();
    let together = crate::verdicts_on_one_body(&asks);
    for (request, together) in requests.iter().zip(&together) {
        let explained: Vec<Verdict> = ProfileId::ALL
            .iter()
            .map(|&p| evaluate(p, request).verdict)
            .collect();
        assert_eq!(&explained, together, "{request:?}");
        assert_eq!(crate::verdicts_all(request).to_vec(), explained);
        assert_eq!(crate::verdict(Google, request), explained[1]);
    }
    assert_eq!(together[0], [Disallowed; 4]);
    assert_eq!(together[1], [NotGoverned; 4]);
    assert_eq!(together[2], [Either; 4]);
    assert_eq!(together[3], [Allowed; 4]);
    let text = evaluate(Google, &requests[1]).to_string();
    assert!(text.starts_with("profile google: not-governed\n"), "{text}");
    assert!(
        text.contains(
            "scope: https://example.com:8181/robots.txt does not govern this URL: the rules apply \
             only to the port number"
        ),
        "{text}"
    );
    assert!(text.contains("(google#file-location)"), "{text}");
    // A governed URL's explanation says so and goes on to the body's reading.
    let text = evaluate(Rfc9309, &requests[0]).to_string();
    assert!(
        text.contains("governs this URL: the same scheme, host and port"),
        "{text}"
    );
    assert!(text.contains("=> line 2"), "{text}");
}

#[test]
fn a_history_is_decided_by_the_fetches_each_profile_permits() {
    use crate::{evaluate_history, HistoryRequest, TimedFetch};
    const H: u64 = 60;
    let fetches = [
        TimedFetch {
            at: 0,
            fetch: Fetch::default(),
            body: b"User-agent: *\nDisallow: /private\n",
        },
        TimedFetch {
            at: H,
            fetch: Fetch::Status {
                status: 503,
                redirects: 0,
            },
            body: b"",
        },
    ];
    let ask = |url: &'static str, at: u64, robots_url: Option<&'static str>| {
        let request = HistoryRequest {
            fetches: &fetches,
            agent: "FooBot",
            url,
            at,
            robots_url,
        };
        ProfileId::ALL.map(|p| evaluate_history(p, &request).verdict)
    };
    assert_eq!(ask("/public", 30, None), [Allowed; 4]);
    // Google: the first 12 hours of server errors stop crawling, then the last good version.
    assert_eq!(
        ask("/public", 5 * H, None),
        [Either, Disallowed, Disallowed, Either]
    );
    assert_eq!(
        ask("/public", 14 * H, None),
        [Either, Allowed, Disallowed, Either]
    );
    assert_eq!(
        ask("/private", 14 * H, None),
        [Disallowed, Disallowed, Disallowed, Either]
    );
    // Step 0 comes first: another host is not governed at any time.
    let file = Some("https://example.com/robots.txt");
    assert_eq!(
        ask("https://other.example.com/public", 14 * H, file),
        [NotGoverned; 4]
    );
    assert_eq!(
        ask("https://example.com/public", 14 * H, file),
        ask("/public", 14 * H, None)
    );
    // The explanation says which rule chose which fetches, then explains the first of them.
    let request = HistoryRequest {
        fetches: &fetches,
        agent: "FooBot",
        url: "/public",
        at: 14 * H,
        robots_url: None,
    };
    let text = evaluate_history(Google, &request).to_string();
    assert!(text.starts_with("profile google: allowed\n"), "{text}");
    assert!(
        text.contains("at 14h: server errors for 12 hours to 30 days: Google uses the last good version (the latest 2xx, the fetch before the errors) (google#status-codes)"),
        "{text}"
    );
    assert!(
        text.contains("fetch 1 at 0h (status 200) -> allowed"),
        "{text}"
    );
    assert!(text.contains("line 2: Disallow \"/private\""), "{text}");
    let text = evaluate_history(Rfc9309, &request).to_string();
    assert!(
        text.contains("everything disallowed -> disallowed"),
        "{text}"
    );
    assert!(
        text.contains("fetch 1 at 0h (status 200) -> allowed"),
        "{text}"
    );
    // A copy past its lifetime: not-governed under RFC 9309 (24 hours), not yet under 1996.
    let one = &fetches[..1];
    let request = HistoryRequest {
        fetches: one,
        agent: "FooBot",
        url: "/private",
        at: 25 * H,
        robots_url: None,
    };
    assert_eq!(
        ProfileId::ALL.map(|p| evaluate_history(p, &request).verdict),
        [NotGoverned, Either, Disallowed, Disallowed]
    );
}

/// The `/robots.txt` URI against every kind of fetch outcome: scope, then the exemption, then the
/// outcome (`fetch::robots_txt_exemption`); the fast path and the literal mode alike.
#[test]
fn the_robots_txt_uri_is_exempt_before_the_fetch_outcome() {
    use crate::verdicts_all;
    use Verdict::{Allowed as A, Disallowed as D, Either as E};
    let body = b"User-agent: *\nDisallow: /\n";
    let status = |status, redirects| Fetch::Status { status, redirects };
    // (outcome, the URI's verdicts, another URL's verdicts), in ProfileId::ALL order.
    let table = [
        (Fetch::Unreachable, [A, A, A, E], [D, D, D, E]),
        (status(503, 0), [A, A, A, E], [D, D, D, E]),
        (status(500, 0), [A, A, A, E], [D, D, E, E]),
        (status(403, 0), [A, A, A, E], [A, A, D, E]),
        (status(404, 0), [A, A, A, A], [A, A, A, A]),
        (status(429, 0), [A, E, A, E], [A, E, E, E]),
        (status(503, 6), [A, A, A, E], [E, E, D, E]),
        (status(302, 0), [A, A, A, E], [E, A, E, E]),
        (status(100, 0), [A, E, A, E], [E, E, E, E]),
        (status(600, 0), [A, A, A, E], [E, D, E, E]),
        (status(0, 0), [A, A, A, E], [E, D, E, E]),
        // A body is read: the exemption is the body's own reading of K10.
        (status(200, 0), [A, E, A, E], [D, D, D, D]),
    ];
    for (fetch, uri, other) in table {
        for (url, expected) in [("/robots.txt", uri), ("/%72obots.txt", uri), ("/x", other)] {
            let request = Request::new(body, "FooBot", url).with_fetch(fetch);
            assert_eq!(verdicts_all(&request), expected, "{fetch:?} {url}");
            assert_eq!(
                crate::literal::verdicts_all(&request),
                expected,
                "literal {fetch:?} {url}"
            );
        }
        // A query makes another URI: the outcome decides it as any other URL.
        let request = Request::new(body, "FooBot", "/robots.txt?x=1").with_fetch(fetch);
        assert_eq!(verdicts_all(&request), other, "{fetch:?} ?x=1");
    }
    // Scope first: another host's robots.txt URI is not governed.
    let request = Request::new(body, "FooBot", "https://other.example/robots.txt")
        .with_fetch(status(503, 0))
        .with_robots_url("https://example.com/robots.txt");
    assert_eq!(verdicts_all(&request), [NotGoverned; 4]);
    // The explanation gives the rule and its citation.
    let request = Request::new(body, "FooBot", "/robots.txt").with_fetch(status(503, 0));
    let text = evaluate(Rfc9309, &request).to_string();
    assert!(
        text.contains("/robots.txt URI: allowed before the fetch outcome: the /robots.txt URI is implicitly allowed"),
        "{text}"
    );
    assert!(text.contains("(rfc9309#2.2.2)"), "{text}");
    let text = evaluate(Google, &request).to_string();
    assert!(text.contains("keeps trying to fetch"), "{text}");
    assert!(!evaluate(Original1994, &request)
        .to_string()
        .contains("/robots.txt URI:"));
}

/// In a history the exemption is read against the latest fetch, before the bases.
#[test]
fn the_robots_txt_uri_in_a_history() {
    use crate::{evaluate_history, HistoryRequest, TimedFetch};
    use Verdict::{Allowed as A, Disallowed as D, Either as E};
    const H: u64 = 60;
    let fetches = [
        TimedFetch {
            at: 0,
            fetch: Fetch::default(),
            body: b"User-agent: *\nDisallow: /\n",
        },
        TimedFetch {
            at: H,
            fetch: Fetch::Unreachable,
            body: b"",
        },
    ];
    let ask = |url: &'static str, at: u64| {
        let request = HistoryRequest {
            fetches: &fetches,
            agent: "FooBot",
            url,
            at,
            robots_url: None,
        };
        let fast = ProfileId::ALL.map(|p| evaluate_history(p, &request).verdict);
        let literal = ProfileId::ALL.map(|p| crate::literal::verdict_history(p, &request));
        assert_eq!(fast, literal, "{url} at {at}");
        fast
    };
    assert_eq!(ask("/robots.txt", 30), [A, E, A, E]);
    assert_eq!(ask("/robots.txt", 2 * H), [A, A, A, E]);
    assert_eq!(ask("/robots.txt", 14 * H), [A, A, A, E]);
    assert_eq!(ask("/x", 14 * H), [D, D, D, E]);
    // Past the copy's lifetime, RFC 9309's exemption still holds.
    let request = HistoryRequest {
        fetches: &fetches[..1],
        agent: "FooBot",
        url: "/robots.txt",
        at: 9 * 24 * H,
        robots_url: None,
    };
    assert_eq!(
        ProfileId::ALL.map(|p| evaluate_history(p, &request).verdict),
        [A, E, A, E]
    );
    let text = evaluate_history(Draft1996, &request).to_string();
    assert!(text.contains("guide-ch9#allow-disallow"), "{text}");
}

/// Found by `differential/tests/literal.rs`: a comment line read as an empty line (1994's
/// comment-line) leaves the record above it without rules, so the ruleless-record reading must be
/// tried too (the record may then be skipped, and the `*` record decide).
#[test]
fn a_comment_line_that_ends_a_record_opens_the_ruleless_record_reading() {
    let body = b"User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n# comment\nDisallow: /x\n";
    let request = Request::new(body, "FooBot", "/a");
    assert_eq!(
        evaluate(ProfileId::Original1994, &request).verdict,
        Verdict::Either
    );
    assert_eq!(
        crate::literal::verdict(ProfileId::Original1994, &request),
        Verdict::Either
    );
}
