//! The in-process Rust crate adapters: the probe sample of `shared/facts/peers.md`, the quirks
//! their notes describe, and garbage that must never unwind out of `answer`.

use robotstxt_adapters::inprocess::BUILTINS;
use robotstxt_adapters::registry::open_in_process;
use robotstxt_adapters::{Adapter, Answer, Capabilities, Query};

/// The five Rust crates behind our interface, by registry id.
const RUST_IDS: [&str; 5] = [
    "robotstxt",
    "texting-robots",
    "robotxt",
    "sim-codec-robots",
    "robots-txt",
];

/// The probe sample of `peers.md`.
const PROBE_BODY: &[u8] = b"User-agent: *\nDisallow: /private\nAllow: /private/public$\n\
Disallow: /*.pdf$\n\nUser-agent: FooBot\nDisallow: /\n";

/// The probe's five checks, in the order of `peers.md`'s answer strings.
fn probe_queries() -> Vec<Query> {
    [
        ("FooBot", "http://example.com/x"),
        ("BarBot", "http://example.com/private/a"),
        ("BarBot", "http://example.com/private/public"),
        ("BarBot", "http://example.com/doc.pdf"),
        ("BarBot", "http://example.com/doc.pdf?x=1"),
    ]
    .into_iter()
    .map(|(agent, url)| Query::new(agent, url))
    .collect()
}

/// Answers as a string of `A` (allowed), `D` (disallowed), `U`, `E`, `C`, `T` or `P` (a
/// preference, which no Rust parser gives).
fn letters(answers: &[Answer]) -> String {
    answers
        .iter()
        .map(|a| match a {
            Answer::Allowed => 'A',
            Answer::Disallowed => 'D',
            Answer::Unsupported { .. } => 'U',
            Answer::Error { .. } => 'E',
            Answer::Crash { .. } => 'C',
            Answer::Timeout { .. } => 'T',
            Answer::Preference { .. } => 'P',
        })
        .collect()
}

/// Opens `id` in process and asks it `(agent, url)` pairs about `body`.
fn ask(id: &str, body: &[u8], checks: &[(&str, &str)]) -> Vec<Answer> {
    let mut adapter = open_in_process(id).unwrap_or_else(|e| panic!("{e}"));
    let queries: Vec<Query> = checks.iter().map(|(a, u)| Query::new(*a, *u)).collect();
    adapter.answer(body, &queries)
}

/// One check, as a letter.
fn ask_one(id: &str, body: &[u8], agent: &str, url: &str) -> String {
    letters(&ask(id, body, &[(agent, url)]))
}

#[test]
fn probe_sample_matches_peers_md() {
    // RFC 9309 says D D A D A; robots_txt has no `$` or `*`, so `/private` decides
    // `/private/public` and `/*.pdf$` matches nothing.
    let expected = [
        ("robotstxt", "DDADA"),
        ("texting-robots", "DDADA"),
        ("robotxt", "DDADA"),
        ("sim-codec-robots", "DDADA"),
        ("robots-txt", "DDDAA"),
    ];
    for (id, want) in expected {
        let mut adapter = open_in_process(id).unwrap_or_else(|e| panic!("{e}"));
        let got = letters(&adapter.answer(PROBE_BODY, &probe_queries()));
        assert_eq!(got, want, "{id}");
    }
}

#[test]
fn identities_match_registry_ids() {
    for builtin in &BUILTINS {
        assert_eq!((builtin.identity)().id, builtin.id);
    }
    for id in RUST_IDS {
        let adapter = open_in_process(id).unwrap_or_else(|e| panic!("{e}"));
        let identity = adapter.identity();
        assert_eq!(identity.id, id);
        assert_eq!(identity.language, "Rust", "{id}");
        assert_eq!(
            identity.source,
            format!("crates.io {} ={}", identity.library, identity.version),
            "{id}"
        );
        assert_eq!(identity.capabilities, Capabilities::default(), "{id}");
        assert!(!identity.licence.is_empty(), "{id}");
        assert!(!identity.notes.is_empty(), "{id}");
    }
}

#[test]
fn garbage_never_unwinds() {
    let mut long_line = b"User-agent: *\nDisallow: /".to_vec();
    long_line.extend("é".repeat(10_000).as_bytes()); // 20 KB of two-byte UTF-8
    long_line.extend_from_slice(b"\nDisallow: /p\n");
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("NUL bytes", vec![0; 1000]),
        (
            "NULs in rules",
            b"User-agent: *\0Disallow: /p\0\0Allow: /\0".to_vec(),
        ),
        (
            "invalid UTF-8",
            vec![0xff, 0xfe, b'\n', 0xc3, 0x28, b'\n', 0x80, b':', 0xe2, 0x82],
        ),
        ("20 KB multi-byte line", long_line),
        ("colons only", b":::\n:\n::".repeat(100)),
        (
            "stars",
            b"User-agent: *\nDisallow: /*$*$**$\nAllow: $\n".to_vec(),
        ),
    ];
    let queries = vec![
        Query::new("BarBot", "http://example.com/p"),
        Query::new("BarBot", "http://example.com/"),
        Query::new("BarBot", "http://example.com/%C3%A9?q=%zz"),
    ];
    for id in RUST_IDS {
        let mut adapter = open_in_process(id).unwrap_or_else(|e| panic!("{e}"));
        for (name, body) in &bodies {
            let answers = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                adapter.answer(body, &queries)
            }))
            .unwrap_or_else(|_| panic!("{id} unwound out of answer on {name}"));
            assert_eq!(answers.len(), queries.len(), "{id} on {name}");
        }
    }
}

#[test]
fn known_panics_become_crash_answers() {
    // robotstxt 0.3.0 counts the characters past its 16,664-byte line cap as bytes, then slices
    // the body off a char boundary.
    let mut long_line = b"User-agent: *\nDisallow: /".to_vec();
    long_line.extend("é".repeat(10_000).as_bytes());
    long_line.extend_from_slice(b"\nDisallow: /p\n");
    let answers = ask(
        "robotstxt",
        &long_line,
        &[("BarBot", "http://example.com/p")],
    );
    assert!(
        matches!(&answers[0], Answer::Crash { message } if message.contains("char boundary")),
        "{answers:?}"
    );
    // The same line of three-byte characters.
    let mut long_line = b"User-agent: *\nDisallow: /".to_vec();
    long_line.extend("€".repeat(7_000).as_bytes());
    long_line.push(b'\n');
    assert_eq!(
        ask_one("robotstxt", &long_line, "BarBot", "http://example.com/p"),
        "C"
    );
    // The others take the same 20 KB line in their stride.
    for id in [
        "texting-robots",
        "robotxt",
        "sim-codec-robots",
        "robots-txt",
    ] {
        assert_eq!(
            ask_one(id, &long_line, "BarBot", "http://example.com/p"),
            "A",
            "{id}"
        );
    }

    // robots_txt slices the agent by a User-agent value's byte length.
    let body = b"User-agent: ab\nDisallow: /\n";
    assert_eq!(
        ask_one("robots-txt", body, "\u{e9}bot", "http://example.com/x"),
        "C"
    );
    // sim-codec-robots slices `%` plus two bytes of a pattern as hex digits.
    let body = "User-agent: *\nDisallow: /%a\u{e9}\n".as_bytes();
    assert_eq!(
        ask_one("sim-codec-robots", body, "BarBot", "http://example.com/x"),
        "C"
    );
    // A crash answers only its own check: the next one in the batch is still answered.
    let answers = ask(
        "robots-txt",
        b"User-agent: ab\nDisallow: /\n",
        &[
            ("\u{e9}bot", "http://example.com/x"),
            ("ab", "http://example.com/x"),
        ],
    );
    assert_eq!(letters(&answers), "CD");
}

#[test]
fn parse_failures_are_error_answers() {
    // texting_robots compiles `$` rules to regexes under a 42 KiB size limit.
    let mut body = b"User-agent: *\nDisallow: /".to_vec();
    body.extend("a*b".repeat(3000).as_bytes());
    body.extend_from_slice(b"$\n");
    assert_eq!(
        ask_one("texting-robots", &body, "BarBot", "http://example.com/p"),
        "E"
    );
    // sim-codec-robots refuses bodies over 500 KiB instead of truncating them.
    let mut body = b"User-agent: *\nDisallow: /p\n".to_vec();
    body.resize(600 * 1024, b'#');
    let answers = ask(
        "sim-codec-robots",
        &body,
        &[("BarBot", "http://example.com/p")],
    );
    assert!(
        matches!(&answers[0], Answer::Error { message } if message.contains("byte limit")),
        "{answers:?}"
    );
    for id in ["robotstxt", "texting-robots", "robotxt", "robots-txt"] {
        assert_eq!(
            ask_one(id, &body, "BarBot", "http://example.com/p"),
            "D",
            "{id}"
        );
    }
}

#[test]
fn quirks_in_the_notes_hold() {
    // Per adapter: robotstxt, texting-robots, robotxt, sim-codec-robots, robots-txt.
    let row = |body: &[u8], agent: &str, url: &str| -> String {
        RUST_IDS
            .iter()
            .map(|id| ask_one(id, body, agent, url))
            .collect()
    };
    let cases: [(&str, &[u8], &str, &str, &str); 9] = [
        (
            "/robots.txt is always allowed by texting_robots and robotxt",
            b"User-agent: *\nDisallow: /\n",
            "BarBot",
            "http://example.com/robots.txt",
            "DAADD",
        ),
        (
            "User-agent values as substrings of the agent",
            b"User-agent: bot\nDisallow: /\n",
            "FooBot",
            "http://example.com/x",
            "AAADD",
        ),
        (
            "an empty User-agent value",
            b"User-agent:\nDisallow: /\n",
            "FooBot",
            "http://example.com/x",
            "AAADD",
        ),
        (
            "sim-codec-robots merges a group whose only rule is an empty Disallow",
            b"User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n",
            "a",
            "http://example.com/x",
            "AAADA",
        ),
        (
            "texting_robots keeps the fragment; robots_txt reads `$` literally",
            b"User-agent: *\nDisallow: /a$\n",
            "BarBot",
            "http://example.com/a#frag",
            "DADDA",
        ),
        (
            "texting_robots removes dot segments",
            b"User-agent: *\nDisallow: /b\n",
            "BarBot",
            "http://example.com/a/../b",
            "ADAAA",
        ),
        (
            "robots_txt compares paths case-insensitively and takes the first match",
            b"User-agent: *\nDisallow: /P\nAllow: /p\n",
            "BarBot",
            "http://example.com/p",
            "AAAAD",
        ),
        (
            "non-ASCII rules are not percent-encoded by sim-codec-robots or robots_txt",
            "User-agent: *\nDisallow: /\u{e9}\n".as_bytes(),
            "BarBot",
            "http://example.com/%C3%A9",
            "DDDAA",
        ),
        (
            "only some read a lone CR as a line end",
            b"User-agent: *\rDisallow: /p\r",
            "BarBot",
            "http://example.com/p",
            "DDDAA",
        ),
    ];
    for (what, body, agent, url, want) in cases {
        assert_eq!(row(body, agent, url), want, "{what}");
    }
    // The BOM: robotstxt compares chars with bytes, so it skips `ï»¿` but not U+FEFF.
    let bom = "\u{feff}User-agent: *\nDisallow: /p\n".as_bytes();
    assert_eq!(row(bom, "BarBot", "http://example.com/p"), "ADDAA");
    let latin = "\u{ef}\u{bb}\u{bf}User-agent: *\nDisallow: /p\n".as_bytes();
    assert_eq!(
        ask_one("robotstxt", latin, "BarBot", "http://example.com/p"),
        "D"
    );
}

/// The deviations named after a Rust crate's behaviour (`docs/deviations.md`): on each example,
/// the crate answers what the oracle answers under the deviation, and not what its claimed profile
/// answers; and the deviation alone is the cause the fuzzer names.
#[test]
fn named_deviations_give_their_parsers_answers() {
    use robotstxt_oracle::cause::{cause_label, cause_of};
    use robotstxt_oracle::deviation::{Deviation, Deviations};
    use robotstxt_oracle::{verdict, verdict_deviating, Request, Verdict};
    let examples: [(&str, Deviation, &[u8], &str); 5] = [
        (
            "robots-txt",
            Deviation::EmptyAgentNamesAll,
            b"User-agent: *\nDisallow: /a\n\nUser-agent:\nDisallow: /b\n",
            "/a",
        ),
        (
            "robots-txt",
            Deviation::NoColonLineIsBlank,
            b"User-agent: FooBot\nstray text\nDisallow: /a\n",
            "/a",
        ),
        (
            "robots-txt",
            Deviation::EmptyRuleAllowsRest,
            b"User-agent: FooBot\nDisallow:\nDisallow: /a\n",
            "/a",
        ),
        (
            "robotxt",
            Deviation::SlashlessRuleRooted,
            b"User-agent: *\nDisallow: a\n",
            "/a",
        ),
        (
            "sim-codec-robots",
            Deviation::EmptyAgentMatchesAll,
            b"User-agent:\nDisallow: /a\n",
            "/a",
        ),
    ];
    for (id, deviation, body, path) in examples {
        let profile = BUILTINS
            .iter()
            .find(|b| b.id == id)
            .map(|b| (b.identity)().profile)
            .expect("a builtin");
        let answer = &ask(
            id,
            body,
            &[("FooBot", &format!("http://example.com{path}"))],
        )[0];
        let request = Request::new(body, "FooBot", path);
        let deviating = verdict_deviating(profile, Deviations::of(deviation), &request);
        let as_verdict = |allowed: bool| {
            if allowed {
                Verdict::Allowed
            } else {
                Verdict::Disallowed
            }
        };
        let allowed = matches!(answer, Answer::Allowed);
        assert!(answer.verdict().is_some(), "{id}: {answer:?}");
        assert_eq!(
            as_verdict(allowed),
            deviating,
            "{id} under {}",
            deviation.id()
        );
        assert_ne!(verdict(profile, &request), deviating, "{id}: no divergence");
        assert_eq!(
            cause_label(cause_of(profile, &request, allowed).as_deref()),
            deviation.id(),
            "{id}"
        );
    }
}
