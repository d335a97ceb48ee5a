//! The shipped subprocess adapters (`adapters/programs/`), driven through the registry.
//!
//! Each test runs every subprocess adapter that is available here and skips, with the reason, those
//! that are not (run `robotstxt-conformance peers install` first). With `ROBOTSTXT_REQUIRE_PEERS=1`
//! (CI), an unavailable adapter is a failure instead. Peers are looked for in the default peers
//! directory (`ROBOTSTXT_PEERS_DIR` overrides it).

use std::time::Instant;

use robotstxt_adapters::peers::{self, Outcome};
use robotstxt_adapters::registry::{self, Options};
use robotstxt_adapters::{Adapter, Answer, Query, UrlForm};

/// The probe sample of `shared/facts/peers.md`.
const PROBE_BODY: &str = "User-agent: *\nDisallow: /private\nAllow: /private/public$\n\
                          Disallow: /*.pdf$\n\nUser-agent: FooBot\nDisallow: /\n";

/// Its five queries.
const PROBE_QUERIES: [(&str, &str); 5] = [
    ("FooBot", "http://example.com/x"),
    ("BarBot", "http://example.com/private/a"),
    ("BarBot", "http://example.com/private/public"),
    ("BarBot", "http://example.com/doc.pdf"),
    ("BarBot", "http://example.com/doc.pdf?x=1"),
];

/// What each library answers to the probe (A allowed, D disallowed), as measured for peers.md.
const PROBE_EXPECTED: [(&str, &str); 16] = [
    ("py-urllib", "DDDAA"),            // first match, no wildcards
    ("py-protego", "DDADA"),           // RFC 9309
    ("py-robotspy", "DDADA"),          // RFC 9309
    ("py-rerp", "DDDDA"),              // first match, with wildcards
    ("py-jwm", "DDADA"),               // Google's C++
    ("py-gpyrobotstxt", "DDADA"),      // a Python port of Google's C++
    ("py-fast-robotstxt", "DDADA"),    // a C++20 fork of Google's C++
    ("py-fastrobots", "DDADA"),        // longest match, `*` and `$`
    ("js-robots-parser", "DDADA"),     // RFC 9309
    ("js-robots-txt-guard", "DDADA"),  // the most specific rule, `*` and `$`
    ("pl-www-robotrules", "DDDAA"),    // 1994: Allow ignored, no wildcards
    ("rb-webrobots", "DDADA"),         // Google-like
    ("rs-robotparser", "DDADA"),       // the longest path first, with wildcards
    ("java-crawler-commons", "DDADA"), // RFC 9309
    ("go-temoto", "DDADA"),            // Google-like
    ("go-grobotstxt", "DDADA"),        // Google's C++, ported
];

/// The subprocess adapters whose libraries take a path rather than a URL (`url: path-and-query`).
const PATH_TAKING: [&str; 3] = ["py-fastrobots", "js-robots-txt-guard", "go-temoto"];

/// Whether unavailable peers fail the tests (`ROBOTSTXT_REQUIRE_PEERS=1`).
fn peers_required() -> bool {
    std::env::var("ROBOTSTXT_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// Opens every available subprocess adapter; prints why the others are skipped, or fails when
/// peers are required.
fn open_available() -> Vec<Box<dyn Adapter>> {
    let options = Options {
        // Far beyond what a check takes (the 600 KB body included) even on a loaded machine: an
        // answer is judged on what it says, never on how fast it came.
        timeout: std::time::Duration::from_secs(120),
        ..Options::default()
    };
    let mut adapters = Vec::new();
    let mut unavailable = Vec::new();
    for id in peers::SUBPROCESS_IDS {
        if let Err(why) = peers::command(id, &options.peers_dir) {
            unavailable.push(why.to_string());
            continue;
        }
        match registry::open(id, &options) {
            Ok(adapter) => adapters.push(adapter),
            Err(why) => unavailable.push(why.to_string()),
        }
    }
    for why in &unavailable {
        eprintln!("skipped: {why}");
    }
    assert!(
        !peers_required() || unavailable.is_empty(),
        "ROBOTSTXT_REQUIRE_PEERS=1 but: {}",
        unavailable.join("; ")
    );
    adapters
}

/// The probe queries.
fn probe_queries() -> Vec<Query> {
    PROBE_QUERIES
        .iter()
        .map(|(agent, url)| Query::new(*agent, *url))
        .collect()
}

/// Answers as letters: A allowed, D disallowed, anything else spelt out.
fn letters(answers: &[Answer]) -> String {
    answers
        .iter()
        .map(|a| match a {
            Answer::Allowed => "A".to_string(),
            Answer::Disallowed => "D".to_string(),
            other => format!("[{other}]"),
        })
        .collect()
}

#[test]
fn each_adapter_announces_itself_honestly() {
    for adapter in open_available() {
        let identity = adapter.identity();
        assert!(peers::SUBPROCESS_IDS.contains(&identity.id.as_str()));
        assert!(
            identity
                .version
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit()),
            "{}: version {:?}",
            identity.id,
            identity.version
        );
        for (field, value) in [
            ("library", &identity.library),
            ("language", &identity.language),
            ("licence", &identity.licence),
            ("source", &identity.source),
            ("notes", &identity.notes),
        ] {
            assert!(!value.is_empty(), "{}: empty {field}", identity.id);
        }
        assert!(
            !identity.source.contains("NOT the pinned"),
            "{}: {}",
            identity.id,
            identity.source
        );
        assert!(!identity.capabilities.fetch_status, "{}", identity.id);
        let form = if PATH_TAKING.contains(&identity.id.as_str()) {
            UrlForm::PathAndQuery
        } else {
            UrlForm::Full
        };
        assert_eq!(identity.url, form, "{}", identity.id);
    }
}

#[test]
fn probe_sample_answers_match_peers_md() {
    for mut adapter in open_available() {
        let id = adapter.identity().id.clone();
        let expected = PROBE_EXPECTED.iter().find(|(i, _)| *i == id).unwrap().1;
        let answers = adapter.answer(PROBE_BODY.as_bytes(), &probe_queries());
        assert_eq!(letters(&answers), expected, "{id}");
    }
}

#[test]
fn a_body_that_is_not_utf8_is_answered() {
    // Latin-1 é in a rule, a stray 0xFF, a NUL and a CR-only line end, then a plain rule. No BOM
    // (urllib, protego, robotspy and webrobots do not strip one, so it would hide the group) and
    // no CRLF (webrobots 0.1.2 keeps the CR in values, so `User-agent: *\r` matches no one).
    let body = b"User-agent: *\nDisallow: /caf\xE9\rDisallow: /x\xFFy\nDisallow: /nul\x00\n\
                 Disallow: /private\n";
    let queries = vec![
        Query::new("BarBot", "http://example.com/private/a"),
        Query::new("BarBot", "http://example.com/public"),
    ];
    for mut adapter in open_available() {
        let id = adapter.identity().id.clone();
        let answers = adapter.answer(body, &queries);
        assert_eq!(letters(&answers), "DA", "{id}");
    }
}

#[test]
fn a_600_kb_body_is_answered() {
    let mut body = String::from("User-agent: *\n");
    let mut n = 0;
    while body.len() < 600 * 1024 {
        body.push_str(&format!("Disallow: /dir{n}/page\n"));
        n += 1;
    }
    body.push_str("Disallow: /last\n");
    let queries = vec![
        Query::new("BarBot", "http://example.com/dir7/page"),
        Query::new("BarBot", "http://example.com/elsewhere"),
    ];
    for mut adapter in open_available() {
        let id = adapter.identity().id.clone();
        let started = Instant::now();
        let answers = adapter.answer(body.as_bytes(), &queries);
        eprintln!("{id}: {} in {:?}", letters(&answers), started.elapsed());
        assert_eq!(letters(&answers), "DA", "{id}");
    }
}

#[test]
fn an_adapter_survives_a_bad_url_and_answers_the_next_request() {
    let queries = vec![
        Query::new("BarBot", "not a url"),
        Query::new("BarBot", "http://example.com/private/a"),
    ];
    for mut adapter in open_available() {
        let id = adapter.identity().id.clone();
        let answers = adapter.answer(PROBE_BODY.as_bytes(), &queries);
        assert_eq!(answers.len(), 2, "{id}");
        assert!(
            !matches!(answers[0], Answer::Crash { .. } | Answer::Timeout { .. }),
            "{id}: {}",
            answers[0]
        );
        assert_eq!(answers[1], Answer::Disallowed, "{id}");
        let again = adapter.answer(PROBE_BODY.as_bytes(), &probe_queries());
        assert_eq!(again.len(), 5, "{id}");
    }
}

/// Installs the peers into the default peers directory twice: the second run must find everything
/// present and do nothing. Needs PyPI and the npm registry the first time.
#[test]
#[ignore = "installs from PyPI and npm into the default peers directory"]
fn install_twice_and_the_second_run_does_nothing() {
    let dir = peers::default_peers_dir();
    for run in ["first", "second"] {
        let started = Instant::now();
        let mut out = Vec::new();
        let report = peers::install(&dir, &mut out).unwrap();
        eprintln!(
            "{run} run, {:?}:\n{}",
            started.elapsed(),
            String::from_utf8_lossy(&out)
        );
        if run == "second" {
            assert!(!report.installed_anything(), "{report:?}");
            assert!(report
                .runtimes
                .iter()
                .all(|s| s.outcome != Outcome::Installed));
        }
        if peers_required() {
            assert!(report.is_complete(), "{report:?}");
        }
    }
}

#[test]
fn py_urllib_names_the_python_it_ran_on_and_which_robotparser_it_has() {
    for adapter in open_available() {
        let identity = adapter.identity();
        if identity.id != "py-urllib" {
            continue;
        }
        // The Python that runs the program, asked the same way the program asks it.
        assert!(
            identity.source.starts_with("CPython ") && identity.source.contains(&identity.version),
            "{}",
            identity.source
        );
        let runtime = format!(
            "Runtime: CPython {}, whose robotparser is the ",
            identity.version
        );
        assert!(identity.notes.contains(&runtime), "{}", identity.notes);
        // Which behaviour is told by asking the module; the probe sample above is first-match
        // (DDDAA), which only the legacy module gives.
        assert!(
            identity
                .notes
                .contains("the legacy module, before the RFC 9309 rewrite"),
            "{}",
            identity.notes
        );
    }
}

/// `D-group-line-ends-agents` (`docs/deviations.md`) is py-protego's reading: between two
/// user-agent lines, every field line but `Sitemap` (and its spellings `Sitemaps`, `Site-map`) and
/// `Host` ends the run, the AI-usage lines of `draft-ietf-aipref-attach` included. On each input
/// it answers what the oracle answers under that deviation; `D-other-line-ends-agents`, which
/// ends the run at a `Sitemap` line too, misses the inputs marked.
#[test]
fn py_protego_ends_a_run_of_user_agents_at_every_field_but_sitemap_and_host() {
    use robotstxt_oracle::deviation::{Deviation, Deviations};
    use robotstxt_oracle::{verdict_deviating, ProfileId, Request, Verdict};
    let options = Options {
        timeout: std::time::Duration::from_secs(120),
        ..Options::default()
    };
    if let Err(why) = peers::command("py-protego", &options.peers_dir) {
        assert!(!peers_required(), "ROBOTSTXT_REQUIRE_PEERS=1 but: {why}");
        eprintln!("skipped: {why}");
        return;
    }
    let mut adapter = registry::open("py-protego", &options).unwrap();
    // (the line between the two user-agent lines, whether D-other-line-ends-agents misses it)
    let lines = [
        ("Crawl-delay: 5", false),
        ("Content-Usage: train-ai=n", false),
        ("Content-Usage: /a train-ai=n", false),
        ("Content-Signal: search=yes, ai-train=no", false),
        ("X-Unknown-Field: 1", false),
        ("Sitemap: https://example.com/s.xml", true),
        ("Sitemaps: https://example.com/s.xml", true),
        ("Site-map: https://example.com/s.xml", true),
        ("Host: example.com", true),
    ];
    for (line, other_misses) in lines {
        let body = format!("User-agent: FooBot\n{line}\nUser-agent: OtherBot\nDisallow: /a\n");
        let answer = adapter
            .answer(
                body.as_bytes(),
                &[Query::new("FooBot", "http://example.com/a")],
            )
            .remove(0);
        let got = match answer {
            Answer::Allowed => Verdict::Allowed,
            Answer::Disallowed => Verdict::Disallowed,
            other => panic!("{line}: {other:?}"),
        };
        let request = Request::new(body.as_bytes(), "FooBot", "/a");
        let under = |d| verdict_deviating(ProfileId::Rfc9309, Deviations::of(d), &request);
        assert_eq!(got, under(Deviation::GroupLineEndsAgents), "{line}");
        assert_eq!(
            got != under(Deviation::OtherLineEndsAgents),
            other_misses,
            "{line}"
        );
    }
}
