//! The reports rendered from a hand-built run: every format renders, JSON round-trips, HTML and
//! XML escape hostile content, JUnit counts are right, identical rows share a matrix row; and the
//! HTML page of the whole corpus with 14 adapters stays small.

use std::collections::BTreeMap;

use robotstxt_adapters::{Answer, Capabilities, Identity, Unavailable, UrlForm};
use robotstxt_matrix::cases::Corpus;
use robotstxt_matrix::render::visible;
use robotstxt_matrix::report::{self, badge, html, junit, Format};
use robotstxt_matrix::results::{
    AdapterCell, AdapterColumn, AdapterSummary, AiUsageLines, CaseInfo, LedgerTally, OracleCell,
    Results, Row, Status, Tally, SCHEMA, VERSION,
};
use robotstxt_matrix::verify::run_oracle;
use robotstxt_matrix::{ask, run};
use robotstxt_oracle::{Fetch, ProfileId, Verdict};

const HOSTILE_BODY: &[u8] =
    b"User-agent: *\0\r\nDisallow: /</pre><script>alert(1)</script>\nAllow: /'x'&amp;\n";
const HOSTILE_URL: &str = "https://example.com/\"onmouseover=alert(1)";

fn identity(id: &str, version: &str, profile: ProfileId) -> Identity {
    Identity {
        id: id.to_string(),
        library: format!("lib-{id}"),
        version: version.to_string(),
        language: "Rust".to_string(),
        licence: "MIT".to_string(),
        source: "crates.io".to_string(),
        profile,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: String::new(),
    }
}

fn verdicts(v: [Verdict; 4]) -> BTreeMap<ProfileId, Verdict> {
    ProfileId::ALL.into_iter().zip(v).collect()
}

fn oracle(
    expected: &BTreeMap<ProfileId, Verdict>,
    wrong: Option<ProfileId>,
) -> BTreeMap<ProfileId, OracleCell> {
    expected
        .iter()
        .map(|(p, v)| {
            let agrees = Some(*p) != wrong;
            let verdict = if agrees { *v } else { Verdict::Disallowed };
            let cell = OracleCell {
                verdict,
                agrees,
                explanation: format!(
                    "profile {}: {}\n  groups found: 1\n  target: <script>x</script>\n",
                    p.name(),
                    verdict.name()
                ),
            };
            (*p, cell)
        })
        .collect()
}

fn cell(answer: Answer, status: Status, reason: Option<&str>) -> AdapterCell {
    AdapterCell {
        answer,
        status,
        reason: reason.map(str::to_string),
    }
}

fn tally(checks: usize, agree: usize) -> Tally {
    Tally {
        checks,
        agree,
        disagree: checks - agree,
        unsupported: 0,
        failed: 0,
        pass_rate: if checks == 0 {
            0.0
        } else {
            agree as f64 / checks as f64
        },
    }
}

/// Two cases, four rows, two adapters (`alpha` mostly passes, `beta` fails the run in every way),
/// one unavailable adapter. Rows 1 and 2 answer alike in every column.
fn sample() -> Results {
    use Verdict::{Allowed as A, Disallowed as D, Either as E};
    let mut cases = BTreeMap::new();
    cases.insert(
        "demo/hostile".to_string(),
        CaseInfo {
            title: "A body with <script> & \"quotes\"".to_string(),
            path: "demo/hostile.yaml".to_string(),
            cite: vec!["rfc9309#2.2.2".to_string()],
            tags: vec!["html".to_string()],
            covers: Vec::new(),
            note: None,
            fetch: None,
            robots_url: None,
            fetches: Vec::new(),
            body_len: HOSTILE_BODY.len(),
            body_visible: visible(HOSTILE_BODY, 4096),
        },
    );
    cases.insert(
        "demo/fetch".to_string(),
        CaseInfo {
            title: "Server error | backtick `".to_string(),
            path: "demo/fetch.yaml".to_string(),
            cite: vec!["rfc9309#2.3.1.4".to_string()],
            tags: vec![],
            covers: Vec::new(),
            note: None,
            fetch: Some(Fetch::Status {
                status: 503,
                redirects: 0,
            }),
            robots_url: None,
            fetches: Vec::new(),
            body_len: 0,
            body_visible: String::new(),
        },
    );
    let row = |case: &str, check, url: &str, expected, wrong, alpha, beta| Row {
        case: case.to_string(),
        check,
        agent: "Foo<bot>\u{1}".to_string(),
        url: url.to_string(),
        at: None,
        oracle: oracle(&expected, wrong),
        expected,
        adapters: [("alpha".to_string(), alpha), ("beta".to_string(), beta)]
            .into_iter()
            .collect(),
    };
    let rows = vec![
        row(
            "demo/hostile",
            1,
            HOSTILE_URL,
            verdicts([A, A, E, A]),
            Some(ProfileId::Original1994),
            cell(Answer::Allowed, Status::Pass, None),
            cell(Answer::Disallowed, Status::UnexpectedDivergence, None),
        ),
        row(
            "demo/hostile",
            2,
            "https://example.com/a",
            verdicts([D, D, D, A]),
            None,
            cell(
                Answer::Crash {
                    message: "panicked at <NUL>\0 here".to_string(),
                },
                Status::ExpectedDivergence,
                Some("panics on NUL <known>"),
            ),
            cell(
                Answer::Timeout {
                    message: "no answer within 5s".to_string(),
                },
                Status::UnexpectedDivergence,
                None,
            ),
        ),
        row(
            "demo/hostile",
            3,
            "https://example.com/b",
            verdicts([D, D, D, A]),
            None,
            cell(
                Answer::Crash {
                    message: "panicked again".to_string(),
                },
                Status::ExpectedDivergence,
                Some("panics on NUL <known>"),
            ),
            cell(
                Answer::Timeout {
                    message: "no answer within 5s".to_string(),
                },
                Status::UnexpectedDivergence,
                None,
            ),
        ),
        row(
            "demo/fetch",
            1,
            "https://example.com/",
            verdicts([D, D, D, E]),
            None,
            cell(
                Answer::Unsupported {
                    reason: "takes no fetch outcome".to_string(),
                },
                Status::NotApplicable,
                None,
            ),
            cell(
                Answer::Disallowed,
                Status::FixedDivergence,
                Some("used to allow"),
            ),
        ),
    ];
    let profiles_tally = |agree: [usize; 4], checks| {
        ProfileId::ALL
            .into_iter()
            .zip(agree)
            .map(|(p, a)| (p, tally(checks, a)))
            .collect()
    };
    Results {
        schema: SCHEMA.to_string(),
        version: VERSION,
        tool: "robotstxt-conformance 0.1.0".to_string(),
        filter: Some("demo/".to_string()),
        profiles: ProfileId::ALL.to_vec(),
        adapters: vec![
            AdapterColumn {
                identity: identity("alpha", "1.0.0", ProfileId::Rfc9309),
                ledger: "ledgers/alpha.yaml".to_string(),
            },
            AdapterColumn {
                identity: identity("beta", "2.0|beta`x", ProfileId::Google),
                ledger: "ledgers/beta.yaml".to_string(),
            },
        ],
        unavailable: vec![Unavailable {
            id: "py-rerp".to_string(),
            reason: "python3 has no module <rerp>".to_string(),
            fix: "pip install 'robotexclusionrulesparser'".to_string(),
        }],
        cases,
        rows,
        preference_rows: Vec::new(),
        summary: vec![
            AdapterSummary {
                adapter: "alpha".to_string(),
                claimed: ProfileId::Rfc9309,
                profiles: profiles_tally([1, 1, 1, 1], 3),
                nearest: ProfileId::Rfc9309,
                ledger: LedgerTally {
                    pass: 1,
                    expected: 2,
                    not_applicable: 1,
                    ..LedgerTally::default()
                },
                fingerprint: None,
                ai_usage: Some(AiUsageLines {
                    checks: 12,
                    compared: 10,
                    changed: 2,
                    not_compared: [("crash without the lines".to_string(), 2)].into(),
                    changed_checks: vec!["demo/ai#1".to_string(), "demo/ai#3".to_string()],
                }),
                preferences: None,
            },
            AdapterSummary {
                adapter: "beta".to_string(),
                claimed: ProfileId::Google,
                profiles: profiles_tally([2, 2, 2, 0], 4),
                nearest: ProfileId::Google,
                ledger: LedgerTally {
                    unexpected: 3,
                    fixed: 1,
                    stale: vec!["demo/gone#1".to_string()],
                    ..LedgerTally::default()
                },
                fingerprint: None,
                ai_usage: None,
                preferences: None,
            },
        ],
    }
}

#[test]
fn every_format_renders() {
    let results = sample();
    for format in [
        Format::Text,
        Format::Json,
        Format::Markdown,
        Format::Html,
        Format::Junit,
    ] {
        assert!(!report::render(format, &results).is_empty(), "{format:?}");
    }
}

#[test]
fn json_round_trips() {
    let results = sample();
    let json = report::render(Format::Json, &results);
    let back: Results = serde_json::from_str(&json).expect("results.json parses");
    assert_eq!(report::render(Format::Json, &back), json);
}

#[test]
fn text_fits_a_terminal_and_says_what_fails() {
    let text = report::render(Format::Text, &sample());
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line:?}");
    }
    assert!(text.contains("unexpected results (4):"), "{text}");
    assert!(text.contains("  beta  demo/hostile#1: expected allowed, got disallowed"));
    assert!(text.contains(
        "  beta  demo/hostile#2: expected disallowed, got timeout (no answer within 5s)"
    ));
    assert!(text.contains("  beta  demo/fetch#1: passes now (disallowed)"));
    assert!(text.contains("stale ledger entries"));
    assert!(text.contains("demo/gone#1"));
    assert!(text.contains("py-rerp: python3 has no module <rerp>"));
    assert!(text.contains("fix: pip install"));
    assert!(text.contains("2/0/0/0"));
    assert!(text.contains("0/3/1/1 FAIL"));
    assert!(text.contains("33.3%"));
    assert!(text.contains("result: FAILED"));
    // Control characters in an agent never reach the terminal.
    assert!(!text.contains('\u{1}'));
}

#[test]
fn markdown_escapes_cells_and_lists_divergences() {
    let md = report::render(Format::Markdown, &sample());
    assert!(md.contains("| beta | 2.0\\|beta\\`x | google |"), "{md}");
    assert!(md.contains("**33.3%** ◆"), "{md}");
    assert!(md.contains("## Notable divergences"));
    assert!(md.contains("`demo/hostile#1`"));
    assert!(md.contains("expected **allowed** (google), got **disallowed**"));
    assert!(md.contains("ledger: panics on NUL \\<known\\>"), "{md}");
    assert!(
        md.contains("A body with \\<script\\> \\& \"quotes\""),
        "{md}"
    );
    assert!(md.contains("Stale ledger entries"));
    assert!(md.contains("## Unavailable adapters"));
    assert!(!md.contains('\0'));
}

/// Every page of the matrix (`matrix.html` and `matrix/*.html`), one after the other.
fn matrix(results: &Results) -> String {
    html::pages(results)
        .into_iter()
        .map(|(_, page)| page)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn html_escapes_hostile_content() {
    let page = matrix(&sample());
    assert!(!page.contains("</pre><script>alert(1)</script>"));
    assert!(page.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("\"onmouseover="));
    assert!(page.contains("&quot;onmouseover=alert(1)"));
    assert!(!page.contains("Foo<bot>"));
    assert!(page.contains("Foo&lt;bot&gt;⟨x01⟩"));
    assert!(!page.contains("<rerp>"));
    assert!(!page.contains("<known>"));
    assert!(!page.contains("<NUL>"));
    assert!(!page.contains("<script>x</script>"));
    assert!(!page.contains('\0'));
    // On every page our own script is the only one, and nothing is loaded from elsewhere.
    for (name, one) in html::pages(&sample()) {
        assert_eq!(one.matches("<script").count(), 1, "{name}");
        assert!(!one.contains("src="), "{name}");
        assert!(!one.contains("href=\"http"), "{name}");
    }
    // The body is rendered once, in the case list, however many checks show it.
    assert_eq!(page.matches("&lt;/pre&gt;&lt;script&gt;").count(), 1);
    assert_eq!(page.matches("data-c=\"demo/hostile\"").count(), 3);
}

#[test]
fn identical_rows_share_a_group_and_divergent_groups_come_first() {
    let results = sample();
    let groups = html::groups(&results);
    assert_eq!(groups.len(), 3);
    let sizes: Vec<usize> = groups.iter().map(|g| g.rows.len()).collect();
    assert_eq!(sizes.iter().sum::<usize>(), 4);
    let pair = groups.iter().find(|g| g.rows.len() == 2).unwrap();
    assert_eq!(pair.rows, vec![1, 2]);
    assert_eq!(pair.cells.len(), 6);
    assert_eq!(pair.cells[4].kind, "crash");
    assert_eq!(pair.cells[5].kind, "timeout");
    assert_eq!(pair.cells[5].mark, html::Mark::Unexpected);
    let page = matrix(&results);
    assert!(page.contains("2 checks</th>"));
}

/// `attr(xml, "tests")` on the first element carrying that attribute after `from`.
fn attr(xml: &str, from: &str, name: &str) -> usize {
    let start = xml.find(from).unwrap_or_else(|| panic!("no {from}"));
    let rest = &xml[start..];
    let key = format!(" {name}=\"");
    let at = rest.find(&key).unwrap() + key.len();
    rest[at..rest[at..].find('"').unwrap() + at]
        .parse()
        .unwrap()
}

#[test]
fn junit_counts_and_characters_are_right() {
    let xml = report::render(Format::Junit, &sample());
    // 4 oracle suites × 4 rows, alpha 4, beta 4 + 1 stale entry, py-rerp 1.
    assert_eq!(attr(&xml, "<testsuites", "tests"), 26);
    // Oracle original-1994 on hostile#1; beta: 3 unexpected, 1 fixed, 1 stale.
    assert_eq!(attr(&xml, "<testsuites", "failures"), 6);
    // alpha's fetch check; the unavailable py-rerp.
    assert_eq!(attr(&xml, "<testsuites", "skipped"), 2);
    assert_eq!(xml.matches("<testcase ").count(), 26);
    assert_eq!(xml.matches("<failure ").count(), 6);
    assert_eq!(xml.matches("<skipped ").count(), 2);

    let beta = "<testsuite name=\"beta\"";
    assert_eq!(attr(&xml, beta, "tests"), 5);
    assert_eq!(attr(&xml, beta, "failures"), 5);
    assert_eq!(attr(&xml, beta, "skipped"), 0);
    let alpha = "<testsuite name=\"alpha\"";
    assert_eq!(attr(&xml, alpha, "tests"), 4);
    assert_eq!(attr(&xml, alpha, "failures"), 0);
    assert_eq!(attr(&xml, alpha, "skipped"), 1);
    assert_eq!(
        attr(&xml, "<testsuite name=\"oracle-original-1994\"", "failures"),
        1
    );

    assert!(xml.contains("<testcase classname=\"alpha\" name=\"demo/hostile#2\">"));
    assert!(xml.contains("<system-out>expected divergence"));
    assert!(xml.contains("panics on NUL &lt;known&gt;"));
    assert!(xml.contains("type=\"fixed-divergence\""));
    assert!(xml.contains("name=\"ledger:demo/gone#1\""));
    assert!(!xml.contains("<script>"));
    assert!(!xml.contains("\"onmouseover"));
    for c in xml.chars() {
        let legal = matches!(c, '\t' | '\n' | '\r')
            || ('\u{20}'..='\u{D7FF}').contains(&c)
            || ('\u{E000}'..='\u{FFFD}').contains(&c)
            || c >= '\u{10000}';
        assert!(legal, "illegal XML character U+{:04X}", c as u32);
    }
    assert_eq!(junit::escape("a\0b<\u{FFFF}"), "a⟨x00⟩b&lt;⟨xFFFF⟩");
}

#[test]
fn write_all_writes_the_reports_the_matrix_pages_and_a_badge_per_adapter() {
    let dir = tempfile::tempdir().unwrap();
    let written = report::write_all(&dir.path().join("out"), &sample()).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "results.json",
            "summary.md",
            "junit.xml",
            "matrix.html",
            "checks-1.html",
            "fingerprints.html",
            "alpha.svg",
            "beta.svg"
        ]
    );
    for path in &written {
        assert!(std::fs::metadata(path).unwrap().len() > 0);
    }
    let alpha = std::fs::read_to_string(dir.path().join("out/badges/alpha.svg")).unwrap();
    assert!(alpha.contains(">33.3%</text>"), "{alpha}");
    // Beta's answers contradict its ledger (3 unexpected, 1 fixed, 1 stale): no passing-looking
    // badge; the rate measured is in its title.
    let beta = std::fs::read_to_string(dir.path().join("out/badges/beta.svg")).unwrap();
    assert!(
        beta.contains(">Google</text>")
            && beta.contains(">failing</text>")
            && !beta.contains(">50.0%</text>")
            && beta
                .contains("failing (5 failing checks or ledger entries); measured Google: 50.0%"),
        "{beta}"
    );
}

/// Checks that `text` is balanced XML-ish markup: every tag closes in order, every `&` starts an
/// entity, and quotes in tags pair up.
fn assert_balanced(text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("an unclosed `<`") + start;
        let tag = &rest[start + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "unpaired quote in <{tag}>");
        assert!(!tag.contains('<'), "`<` inside a tag: <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name),
                "</{name}> closes nothing open"
            );
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            stack.push(tag.split_whitespace().next().unwrap().to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..text[i..].find(';').map_or(text.len(), |e| i + e + 1)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(&entity),
            "a bare `&` at {i}: {entity}"
        );
    }
}

#[test]
fn the_badge_is_self_contained_escaped_svg_with_the_figures() {
    let results = sample();
    let svg = badge::svg(&results, "alpha", ProfileId::Rfc9309);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert_balanced(&svg);
    assert!(svg.contains(">RFC 9309</text>"), "{svg}");
    assert!(svg.contains(">33.3%</text>"), "{svg}");
    assert!(
        svg.contains("33.3% of 3 checks; 2 documented divergences"),
        "{svg}"
    );
    let lower = svg.to_lowercase();
    for banned in [
        "<script",
        "href",
        "<image",
        "@import",
        "url(",
        "<foreignobject",
    ] {
        assert!(!lower.contains(banned), "{banned} in {svg}");
    }
    // A hostile name cannot break out of the title or the attribute.
    let hostile = badge::svg_of(
        "a\"<script>&x",
        &badge::Figures::of(&results, "alpha", ProfileId::Rfc9309),
    );
    assert_balanced(&hostile);
    assert!(!hostile.to_lowercase().contains("<script"), "{hostile}");
    assert!(hostile.contains("a&quot;&lt;script&gt;&amp;x"), "{hostile}");
    assert_eq!(badge::file_name("../x y"), "_.._x_y.svg");
}

#[test]
fn the_summary_line_has_the_documented_format() {
    let results = sample();
    let version = robotstxt_spec::CORPUS_VERSION;
    assert_eq!(
        badge::summary_line(&results, "alpha", ProfileId::Rfc9309),
        format!("RFC 9309: 33.3% of 3 checks; 2 documented divergences; corpus {version}")
    );
    assert_eq!(
        badge::summary_line(&results, "beta", ProfileId::Google),
        format!("Google: 50.0% of 4 checks; 0 documented divergences; corpus {version}")
    );
    let figures = |checks, agree, documented| badge::Figures {
        profile: ProfileId::Draft1996,
        checks,
        agree,
        documented,
    };
    assert_eq!(
        badge::line(&figures(1224, 1190, 1)),
        format!("1996 draft: 97.2% of 1,224 checks; 1 documented divergence; corpus {version}")
    );
    // Rounded down: 9,999 of 10,000 is not 100.0%.
    assert_eq!(figures(10_000, 9_999, 0).rate(), "99.9%");
    assert_eq!(figures(10_000, 10_000, 0).rate(), "100.0%");
    assert_eq!(figures(0, 0, 0).rate(), "n/a");
    assert_eq!(badge::thousands(1_234_567), "1,234,567");
    // The summary and the matrix carry each adapter's line.
    for format in [Format::Markdown, Format::Html] {
        let text = report::render(format, &results);
        for (id, line) in badge::claimed_lines(&results) {
            assert!(text.contains(&line), "{id}'s line missing from {format:?}");
        }
    }
}

/// The whole corpus with its real oracle explanations and 14 made-up adapters: 4 + 14 columns.
fn corpus_sized() -> Results {
    corpus_sized_with(14)
}

/// The whole corpus with `n` made-up adapters.
fn corpus_sized_with(n: usize) -> Results {
    let corpus = Corpus::load(&robotstxt_matrix::default_cases_dir()).expect("corpus loads");
    let adapters: Vec<AdapterColumn> = (0..n)
        .map(|k| AdapterColumn {
            identity: identity(&format!("adapter-{k}"), "1.2.3", ProfileId::ALL[k % 4]),
            ledger: format!("ledgers/adapter-{k}.yaml"),
        })
        .collect();
    let mut cases = BTreeMap::new();
    let mut rows = Vec::new();
    for case in &corpus.cases {
        cases.insert(
            case.id.clone(),
            CaseInfo {
                title: case.title.clone(),
                path: case.path.display().to_string(),
                cite: case.cite.iter().map(ToString::to_string).collect(),
                tags: case.tags.clone(),
                covers: case.covers.clone(),
                note: case.note.clone(),
                fetch: (case.fetch != Fetch::default()).then_some(case.fetch),
                robots_url: case.robots_url.clone(),
                fetches: Vec::new(),
                body_len: case.body.len(),
                body_visible: robotstxt_matrix::verify::visible_bodies(case),
            },
        );
        for check in &case.checks {
            let oracle = ProfileId::ALL
                .into_iter()
                .map(|p| {
                    let outcome = run_oracle(case, check, p);
                    let cell = OracleCell {
                        verdict: outcome.explanation.verdict,
                        agrees: outcome.passed(),
                        explanation: outcome.explanation.to_string(),
                    };
                    (p, cell)
                })
                .collect();
            let n = rows.len();
            let answers = adapters
                .iter()
                .enumerate()
                .map(|(k, column)| {
                    let claimed = column.identity.profile;
                    // Each adapter behaves like its claimed profile, or the next one on some checks.
                    let behaves = if (n * 7 + k * 13) % 5 == 0 {
                        ProfileId::ALL[(k + 1) % 4]
                    } else {
                        claimed
                    };
                    let answer = match check.expect[&behaves] {
                        _ if (n + k) % 97 == 0 => Answer::Crash {
                            message: "thread 'main' panicked at src/lib.rs:1:1".to_string(),
                        },
                        Verdict::Disallowed => Answer::Disallowed,
                        _ => Answer::Allowed,
                    };
                    let passes = answer.agrees(check.expect[&claimed]);
                    let (status, reason) = if passes {
                        (Status::Pass, None)
                    } else {
                        (
                            Status::ExpectedDivergence,
                            Some("the library reads this as the next profile does".to_string()),
                        )
                    };
                    (
                        column.identity.id.clone(),
                        AdapterCell {
                            answer,
                            status,
                            reason,
                        },
                    )
                })
                .collect();
            rows.push(Row {
                case: case.id.clone(),
                check: check.number,
                agent: check.agent.clone(),
                url: check.url.clone(),
                at: None,
                expected: check.expect.clone(),
                oracle,
                adapters: answers,
            });
        }
    }
    let summary = adapters
        .iter()
        .map(|column| AdapterSummary {
            adapter: column.identity.id.clone(),
            claimed: column.identity.profile,
            profiles: ProfileId::ALL
                .into_iter()
                .map(|p| (p, tally(rows.len(), rows.len() * 9 / 10)))
                .collect(),
            nearest: column.identity.profile,
            ledger: LedgerTally::default(),
            fingerprint: None,
            ai_usage: None,
            preferences: None,
        })
        .collect();
    Results {
        schema: SCHEMA.to_string(),
        version: VERSION,
        tool: "robotstxt-conformance 0.1.0".to_string(),
        filter: None,
        profiles: ProfileId::ALL.to_vec(),
        adapters,
        unavailable: Vec::new(),
        cases,
        rows,
        preference_rows: Vec::new(),
        summary,
    }
}

#[test]
fn the_full_matrix_stays_small() {
    let results = corpus_sized();
    assert!(results.rows.len() > 1000);
    let pages = html::pages(&results);
    let total: usize = pages.iter().map(|(_, page)| page.len()).sum();
    let groups = html::groups(&results);
    eprintln!(
        "matrix: {} rows x {} columns in {} groups: {} pages, {} octets",
        results.rows.len(),
        results.profiles.len() + results.adapters.len(),
        groups.len(),
        pages.len(),
        total
    );
    // About 2.5 KB per check today, most of it the oracle's explanations.
    assert!(
        total < results.rows.len() * 4096,
        "the matrix is {total} octets"
    );
    // No page over 1.5 MB: the checks are cut into pages.
    for (name, page) in &pages {
        assert!(page.len() <= 1_500_000, "{name}: {} octets", page.len());
    }
    assert!(pages.len() > 2, "{} pages", pages.len());
}

/// [`sample`] plus a scope case (`demo/scope`, robots.txt URL given): check 1 is governed and
/// `alpha` (rfc9309) wrongly allows it; check 2 is not governed under every profile, so neither
/// adapter is asked, and the oracle's google cell wrongly says `disallowed`.
fn sample_with_scope() -> Results {
    use Verdict::{Disallowed as D, NotGoverned as G};
    let mut results = sample();
    results.cases.insert(
        "demo/scope".to_string(),
        CaseInfo {
            title: "A file governs its own host".to_string(),
            path: "demo/scope.yaml".to_string(),
            cite: vec!["google#file-location".to_string()],
            tags: vec!["scope".to_string()],
            covers: Vec::new(),
            note: None,
            fetch: None,
            robots_url: Some("https://example.com/robots.txt".to_string()),
            fetches: Vec::new(),
            body_len: 0,
            body_visible: String::new(),
        },
    );
    let not_asked = |profile: ProfileId| {
        cell(
            ask::not_governed_answer(profile, "https://example.com/robots.txt"),
            Status::NotApplicable,
            None,
        )
    };
    let rows = [
        (
            1,
            "https://example.com/page",
            verdicts([D; 4]),
            None,
            cell(Answer::Allowed, Status::UnexpectedDivergence, None),
            cell(Answer::Disallowed, Status::Pass, None),
        ),
        (
            2,
            "https://other.example.com/page",
            verdicts([G; 4]),
            Some(ProfileId::Google),
            not_asked(ProfileId::Rfc9309),
            not_asked(ProfileId::Google),
        ),
    ];
    for (check, url, expected, wrong, alpha, beta) in rows {
        results.rows.push(Row {
            case: "demo/scope".to_string(),
            check,
            agent: "ExampleBot".to_string(),
            url: url.to_string(),
            at: None,
            oracle: oracle(&expected, wrong),
            expected,
            adapters: [("alpha".to_string(), alpha), ("beta".to_string(), beta)]
                .into_iter()
                .collect(),
        });
    }
    results
}

#[test]
fn not_governed_renders_in_every_format() {
    let results = sample_with_scope();
    let json = report::render(Format::Json, &results);
    assert!(json.contains("\"not-governed\""), "{json}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        value["cases"]["demo/scope"]["robots_url"],
        "https://example.com/robots.txt"
    );
    let back: Results = serde_json::from_str(&json).expect("results.json parses");
    assert_eq!(
        back.rows[5].expected[&ProfileId::Google],
        Verdict::NotGoverned
    );
    assert_eq!(report::render(Format::Json, &back), json);

    let page = matrix(&results);
    assert!(
        page.contains("<span class=\"kg\">not gov.: the file does not govern the URL</span>"),
        "legend"
    );
    assert!(page.contains("class=\"kg\""));
    assert!(page.contains("not-governed"));
    assert!(page.contains("<dt>robots.txt URL</dt><dd><code>https://example.com/robots.txt</code>"));
    let groups = html::groups(&results);
    let scope_group = groups
        .iter()
        .find(|g| g.rows == vec![5])
        .expect("the not-governed row has its own group");
    assert_eq!(scope_group.cells[0].kind, "not-governed");

    let xml = report::render(Format::Junit, &results);
    assert!(
        xml.contains("the oracle says disallowed, the corpus expects not-governed"),
        "{xml}"
    );
    assert!(
        xml.contains("not asked: under google (the adapter&apos;s claimed profile)")
            || xml.contains("not asked: under google (the adapter's claimed profile)"),
        "{xml}"
    );
    assert!(xml.contains("robots.txt URL: https://example.com/robots.txt"));

    let md = report::render(Format::Markdown, &results);
    assert!(md.contains("`demo/scope#1`"), "{md}");
    assert!(
        md.contains("robots.txt URL `https://example.com/robots.txt`"),
        "{md}"
    );
    let text = report::render(Format::Text, &results);
    assert!(
        text.contains("alpha  demo/scope#1: expected disallowed, got allowed"),
        "{text}"
    );
}

#[test]
fn a_profile_expecting_not_governed_does_not_count_the_parsers_answer() {
    let results = sample_with_scope();
    let corpus = Corpus::load(&robotstxt_matrix::default_cases_dir()).expect("corpus loads");
    let ledger = robotstxt_matrix::ledger::Ledger::load(
        &std::env::temp_dir().join("robotstxt-no-ledgers-here"),
        "beta",
    )
    .unwrap();
    let beta = &results.adapters[1].identity;
    let scope_rows: Vec<Row> = results.rows[4..].to_vec();
    let summary = run::summarise(beta, &ledger, &corpus, &scope_rows);
    // Row 1 is asked and passes; row 2 is not asked: counted apart, in no profile's tally.
    assert_eq!(summary.ledger.pass, 1);
    assert_eq!(summary.ledger.not_applicable, 1);
    for profile in ProfileId::ALL {
        assert_eq!(summary.profiles[&profile].checks, 1, "{profile:?}");
        assert_eq!(summary.profiles[&profile].agree, 1, "{profile:?}");
    }
    // A row asked of the parser whose other profiles expect not-governed counts only where the
    // file governs the URL.
    let mut mixed = results.rows[4].clone();
    mixed
        .expected
        .insert(ProfileId::Draft1996, Verdict::NotGoverned);
    let summary = run::summarise(beta, &ledger, &corpus, &[mixed]);
    assert!(!summary.profiles.contains_key(&ProfileId::Draft1996));
    assert_eq!(summary.profiles[&ProfileId::Google].checks, 1);
}

#[test]
fn a_checks_time_renders_where_its_url_does() {
    let mut results = sample_with_scope();
    results.rows[5].at = Some("14h".to_string());
    let page = matrix(&results);
    assert!(
        page.contains("<dt>at</dt><dd>14h (after the case&#39;s history of fetches)</dd>")
            || page.contains("<dt>at</dt><dd>14h (after the case's history of fetches)</dd>"),
        "{page}"
    );
    let xml = report::render(Format::Junit, &results);
    assert!(xml.contains("at: 14h"), "{xml}");
    let json = report::render(Format::Json, &results);
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back.rows[5].at.as_deref(), Some("14h"));
    assert_eq!(back.rows[4].at, None);
}

/// Every `id="..."` of an HTML page, unescaped.
fn html_ids(page: &str) -> Vec<String> {
    page.match_indices(" id=\"")
        .map(|(i, m)| {
            let start = i + m.len();
            let end = start + page[start..].find('"').unwrap();
            page[start..end]
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

#[test]
fn every_case_and_check_has_a_permanent_unique_anchor() {
    let mut results = sample();
    // An id with characters HTML attributes and fragments must escape.
    let odd = "demo/odd&\"id'<x>";
    let mut info = results.cases["demo/fetch"].clone();
    info.title = "odd".to_string();
    results.cases.insert(odd.to_string(), info);
    let mut row = results.rows[3].clone();
    row.case = odd.to_string();
    row.check = 7;
    results.rows.push(row);

    let pages = html::pages(&results);
    let mut ids: Vec<String> = Vec::new();
    for (name, page) in &pages {
        let on_page = html_ids(page);
        let mut seen = std::collections::BTreeSet::new();
        for id in &on_page {
            assert!(
                !id.is_empty() && !id.contains(char::is_whitespace),
                "invalid id `{id}` on {name}"
            );
            assert!(seen.insert(id.as_str()), "id `{id}` twice on {name}");
        }
        ids.extend(on_page);
    }
    let page = matrix(&results);
    // Each check on one page; each case on every page of checks that shows one of its checks.
    for row in &results.rows {
        let id = row.check_id();
        assert_eq!(ids.iter().filter(|i| **i == id).count(), 1, "{id}");
    }
    for case in results.cases.keys() {
        assert!(ids.iter().any(|i| i == case), "{case}");
    }
    assert!(ids.iter().any(|i| i == "demo/hostile#2"), "{ids:?}");
    assert!(ids.iter().any(|i| i == "demo/odd&\"id'<x>#7"), "{ids:?}");
    // The case links go to the cases' anchors.
    assert!(page.contains("href=\"#demo/hostile\""));
    assert!(page.contains(&format!(
        "href=\"#{}\"",
        robotstxt_prose::html::escape(&html::fragment(odd))
    )));
    assert_eq!(html::fragment(odd), "demo/odd%26%22id%27%3Cx%3E");
}

/// [`sample`] with a fingerprint per adapter: `alpha` reads typos (a deviation on), is
/// inconsistent on precedence under a hostile check id and undecided on grouping; `beta` follows
/// its base and reads wildcards as another profile does.
fn sample_with_fingerprints() -> Results {
    use robotstxt_matrix::fingerprint::{Fingerprint, Standing};
    let mut results = sample();
    let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let print = |claimed, dimensions: Vec<(&str, Standing)>| Fingerprint {
        claimed,
        dimensions: dimensions
            .into_iter()
            .map(|(l, s)| (l.to_string(), s))
            .collect(),
        nearest: ProfileId::Google,
        agreement: ProfileId::ALL.iter().map(|&p| (p, 1, 2)).collect(),
    };
    results.summary[0].fingerprint = Some(print(
        ProfileId::Rfc9309,
        vec![
            ("K1 grouping", Standing::Undecided),
            (
                "K4 precedence",
                Standing::Inconsistent {
                    checks: strings(&["demo/<b>\"x\"&y#2", "demo/hostile#1"]),
                },
            ),
            (
                "D-typo-fields",
                Standing::Consistent {
                    alternatives: strings(&["on"]),
                    checks: strings(&["demo/hostile#2"]),
                },
            ),
        ],
    ));
    results.summary[1].fingerprint = Some(print(
        ProfileId::Google,
        vec![
            ("K1 grouping", Standing::Undecided),
            (
                "K6 wildcards",
                Standing::Consistent {
                    alternatives: strings(&["as original-1994", "base"]),
                    checks: strings(&["demo/hostile#1"]),
                },
            ),
            (
                "D-typo-fields",
                Standing::Consistent {
                    alternatives: strings(&["base"]),
                    checks: strings(&["demo/hostile#2"]),
                },
            ),
        ],
    ));
    results
}

/// The `<td>` of the fingerprint table in `row` (a dimension label) and `column` (from 0).
fn fingerprint_cell(page: &str, row: &str, column: usize) -> String {
    let table = &page[page
        .find("<table id=\"fp\"")
        .expect("the fingerprint table")..];
    let table = &table[..table.find("</table>").unwrap()];
    let row = &table[table
        .find(&format!(">{row}</a></th>"))
        .unwrap_or_else(|| panic!("no row {row}"))..];
    let row = &row[..row.find("</tr>").unwrap()];
    let cells: Vec<&str> = row.split("<td").skip(1).collect();
    format!("<td{}", cells[column])
}

#[test]
fn the_fingerprints_section_shows_every_adapter_and_its_deciding_checks_escaped() {
    let results = sample_with_fingerprints();
    let page = matrix(&results);
    assert!(page.contains("<h2 id=\"fingerprints\">Fingerprints</h2>"));
    // A column per adapter, a row per dimension (knobs first), a cell per (row, column).
    let table = &page[page.find("<table id=\"fp\"").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    for adapter in ["alpha", "beta"] {
        assert!(
            table.contains(&format!("<span><b>{adapter}</b>")),
            "{adapter}"
        );
    }
    let knobs = table.find(">K6 wildcards<").unwrap();
    assert!(table.find(">K4 precedence<").unwrap() < knobs);
    assert!(knobs < table.find(">D-typo-fields<").unwrap());
    assert_eq!(table.matches("<tr><th class=\"n\" title=").count(), 4);
    assert_eq!(table.matches("<td").count(), 8);
    // Alpha's inconsistent cell: its deciding checks on hover and linked, escaped.
    let cell = fingerprint_cell(&page, "K4 precedence", 0);
    assert!(cell.starts_with("<td class=\"fi\""), "{cell}");
    assert!(cell.contains(">inconsistent<"), "{cell}");
    assert!(
        cell.contains("decided by 2: demo/&lt;b&gt;&quot;x&quot;&amp;y#2, demo/hostile#1\""),
        "{cell}"
    );
    // A check of this run links to the page holding it; one of no page is its id alone.
    assert!(
        cell.contains("<div>demo/&lt;b&gt;&quot;x&quot;&amp;y#2, <a href"),
        "{cell}"
    );
    assert!(
        cell.contains("<a href=\"checks-1.html#demo/hostile#1\">demo/hostile#1</a>"),
        "{cell}"
    );
    assert!(!page.contains("demo/<b>"));
    // Kinds: a deviation on, off (the base), another profile's setting (with the other
    // alternative counted), undecided, and a dimension one parser does not have.
    let on = fingerprint_cell(&page, "D-typo-fields", 0);
    assert!(
        on.starts_with("<td class=\"fd\"") && on.contains(">on<"),
        "{on}"
    );
    assert!(
        on.contains("<a href=\"checks-1.html#demo/hostile#2\">"),
        "{on}"
    );
    let off = fingerprint_cell(&page, "D-typo-fields", 1);
    assert!(
        off.starts_with("<td class=\"fb\"") && off.contains(">off<"),
        "{off}"
    );
    let other = fingerprint_cell(&page, "K6 wildcards", 1);
    assert!(
        other.starts_with("<td class=\"fo\"") && other.contains(">as original-1994 +1<"),
        "{other}"
    );
    assert!(
        other.contains(
            "as the 1994 standard reads it: <code>*</code> and <code>$</code> are ordinary \
             characters; or as the profile it claims reads it"
        ),
        "{other}"
    );
    let undecided = fingerprint_cell(&page, "K1 grouping", 1);
    assert!(undecided.starts_with("<td class=\"fn\"") && undecided.contains(">undecided<"));
    assert!(fingerprint_cell(&page, "K6 wildcards", 0).starts_with("<td class=\"fn\">-<"));
    // The summary: per adapter, the deviations on and the inconsistent dimensions.
    let summary = report::render(Format::Markdown, &results);
    let section = &summary[summary
        .find("## Fingerprints")
        .expect("a fingerprint section")..];
    assert!(
        section.contains(
            "- `alpha` (claims rfc9309, nearest google): deviations on: `D-typo-fields` (1 \
             check); inconsistent: `K4 precedence` (`demo/<b>\"x\"&y#2`, `demo/hostile#1`)"
        ),
        "{section}"
    );
    assert!(
        section.contains(
            "- `beta` (claims google, nearest google): deviations on: none; inconsistent: none"
        ),
        "{section}"
    );
    // No fingerprint, no section.
    assert!(!matrix(&sample()).contains("id=\"fingerprints\""));
    // JSON keeps them.
    let json = report::render(Format::Json, &results);
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(report::render(Format::Json, &back), json);
    assert!(back.summary[0].fingerprint.is_some());
}

#[test]
fn every_report_rounds_a_pass_rate_down_as_the_line_to_cite_does() {
    // 2 of 3 is 66.67%: the line to cite says 66.6%, so must the matrix, the summary and JUnit
    // (rounding to nearest gave 66.7% there).
    let mut results = sample();
    for summary in &mut results.summary {
        for t in summary.profiles.values_mut() {
            t.checks = 3;
            t.agree = 2;
            t.pass_rate = 2.0 / 3.0;
        }
    }
    let line = badge::summary_line(&results, "alpha", ProfileId::Rfc9309);
    assert!(line.contains("66.6% of 3 checks"), "{line}");
    for format in [Format::Text, Format::Markdown, Format::Html, Format::Junit] {
        let text = report::render(format, &results);
        assert!(text.contains("66.6%"), "{format:?}: {text}");
        assert!(!text.contains("66.7%"), "{format:?} rounds to nearest");
    }
}

#[test]
fn the_section_view_lists_every_parser_under_every_tested_statement() {
    let results = corpus_sized();
    let view = html::section_view(&results);
    let page = report::render(Format::Html, &results);
    let tested: Vec<_> = view.iter().filter(|s| !s.rows.is_empty()).collect();
    assert!(tested.len() > 20, "{} statements tested", tested.len());
    for section in &tested {
        assert_eq!(section.standings.len(), results.adapters.len());
        // The statement's row of the page names every parser.
        let id = format!("id=\"s-{}\"", section.statement.id);
        let start = page.find(&id).unwrap_or_else(|| panic!("{id}"));
        let row = &page[start..start + page[start..].find("</tr>").unwrap()];
        for column in &results.adapters {
            let id = &column.identity.id;
            assert!(
                row.match_indices(id.as_str()).any(|(at, _)| {
                    let next = row[at + id.len()..].chars().next();
                    matches!(next, Some(',' | '<' | ' '))
                }),
                "{} missing under {}",
                column.identity.id,
                section.statement.id
            );
        }
    }
    // Untestable statements say why.
    assert!(page.contains("not testable: "));
}

#[test]
fn a_parser_standing_on_a_statement_is_against_rfc9309s_verdicts() {
    let mut results = sample();
    let statement = "rfc9309/2.2.2/most-specific";
    results.cases.get_mut("demo/hostile").unwrap().covers = vec![statement.to_string()];
    let view = html::section_view(&results);
    let section = view
        .iter()
        .find(|s| s.statement.id == statement)
        .expect("the statement exists");
    assert_eq!(section.cases, ["demo/hostile"]);
    assert_eq!(section.rows.len(), 3);
    let standing = |id: &str| {
        section
            .standings
            .iter()
            .find(|(a, _)| a == id)
            .unwrap()
            .1
            .clone()
    };
    // Check 1 expects allowed under RFC 9309: alpha allows, beta disallows; checks 2 and 3 crash
    // (alpha) and time out (beta).
    let alpha = standing("alpha");
    assert_eq!((alpha.compared, alpha.differ, alpha.failed), (1, 0, 2));
    assert_eq!(alpha.first.as_deref(), Some("demo/hostile#2"));
    let beta = standing("beta");
    assert_eq!((beta.compared, beta.differ, beta.failed), (1, 1, 2));
    assert_eq!(beta.first.as_deref(), Some("demo/hostile#1"));
}

#[test]
fn fingerprints_notes_and_causes_read_as_words_and_stay_escaped() {
    use robotstxt_matrix::fingerprint::{Fingerprint, Standing};
    let mut results = sample();
    results.cases.get_mut("demo/hostile").unwrap().note = Some(
        "The 1994 text: \"Нераспознанные строки игнорируются\" (unrecognised lines are ignored) </dd><script>x</script>"
            .to_string(),
    );
    results.summary[0].fingerprint = Some(Fingerprint {
        claimed: ProfileId::Rfc9309,
        dimensions: vec![
            (
                "K12 bom".to_string(),
                Standing::Consistent {
                    alternatives: vec!["Bom(KeepAsContent)".to_string()],
                    checks: vec!["demo/hostile#1".to_string()],
                },
            ),
            (
                "D-typo-fields".to_string(),
                Standing::Consistent {
                    alternatives: vec!["on".to_string()],
                    checks: vec!["demo/hostile#2".to_string()],
                },
            ),
        ],
        nearest: ProfileId::Rfc9309,
        agreement: Vec::new(),
    });
    let page = matrix(&results);
    assert!(
        !page.contains("Bom(KeepAsContent)"),
        "a Rust name reached the page"
    );
    assert!(page.contains("a byte-order mark at the start is kept, as part of the first line"));
    assert!(page.contains("misspelling"), "the deviation in words");
    // Every label links to its glossary entry, which is there.
    for anchor in ["g-K12-bom", "g-D-typo-fields", "g-K4-precedence"] {
        assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
    assert!(page.contains("href=\"#g-K12-bom\""));
    // The 1994 quote is marked as a translation, the English as our gloss; the note is escaped.
    assert!(page.contains("<q lang=\"ru\""));
    assert!(page.contains("Russian translation"));
    assert!(page.contains("our gloss"));
    assert!(!page.contains("<script>x</script>"));
    assert!(page.contains("&lt;script&gt;x&lt;/script&gt;"));
}

/// What a headless Chromium shows at 1400 x 900 after opening `page` at `#fragment`: the numbers a
/// probe script appended to the page reads (`PROBE key=value ...`).
fn probe_in_chromium(page: &str, fragment: &str) -> BTreeMap<String, String> {
    let tmp = tempfile::tempdir().unwrap();
    let probe = "<div id=\"probe\"></div><script>setTimeout(function(){\
        var t=document.getElementById(decodeURIComponent(location.hash.slice(1)));\
        var r=t.getBoundingClientRect();\
        var h=document.querySelector('#m thead th.v').getBoundingClientRect();\
        var at=document.elementFromPoint(r.left+20,r.top+4);\
        document.getElementById('probe').textContent='PROBE top='+Math.round(r.top)+' header='+\
        Math.round(h.bottom)+' inner='+innerHeight+' scroll='+scrollY+' width='+\
        document.documentElement.scrollWidth+' inside='+(t.contains(at)?1:0)+' end';},2000);</script></body>";
    let path = tmp.path().join("matrix.html");
    std::fs::write(&path, page.replacen("</body>", probe, 1)).unwrap();
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect(
            "a headless browser (Debian: apt-get install chromium) is needed to check the page",
        );
    let dom = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1400,900",
            "--virtual-time-budget=8000",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            tmp.path().join("profile").display()
        ))
        .arg(format!("file://{}#{fragment}", path.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    let line = dom
        .split("PROBE ")
        .nth(1)
        .and_then(|rest| rest.split(" end").next())
        .unwrap_or_else(|| {
            panic!(
                "the probe did not run: {}",
                &dom[dom.len().saturating_sub(400)..]
            )
        });
    line.split(' ')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_linked_check_lands_below_the_header_and_25_columns_fit_1400_px_in_chromium() {
    let results = corpus_sized_with(21);
    let check = "rfc9309/longest-match/allow-wins-tie#2";
    // The page of checks that holds it.
    let (_, page) = html::pages(&results)
        .into_iter()
        .find(|(_, page)| page.contains(&format!("id=\"{check}\"")))
        .expect("a page holds the check");
    let seen = probe_in_chromium(&page, check);
    let n = |key: &str| -> i64 { seen[key].parse().unwrap_or_else(|_| panic!("{seen:?}")) };
    assert!(n("scroll") > 0, "the page scrolled to the check: {seen:?}");
    assert!(
        n("top") >= n("header"),
        "the check starts under the sticky header: {seen:?}"
    );
    assert!(n("top") < n("inner") / 2, "the check is in view: {seen:?}");
    assert_eq!(n("inside"), 1, "what shows there is the check: {seen:?}");
    assert!(n("width") <= 1400, "no sideways scrolling: {seen:?}");
}

/// A toy parser for the AI-usage line: the oracle's RFC 9309 verdict (`either` read as allowed) on
/// the body it is given, after `reading` has rewritten the body; `None` from `reading` is a crash.
struct Toy {
    identity: Identity,
    reading: Reading,
}

/// How a [`Toy`] rewrites a body before reading it (`None`: it crashes).
type Reading = fn(&[u8]) -> Option<Vec<u8>>;

impl robotstxt_adapters::Adapter for Toy {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[robotstxt_adapters::Query]) -> Vec<Answer> {
        let Some(body) = (self.reading)(body) else {
            return queries
                .iter()
                .map(|_| Answer::Crash {
                    message: "the toy crashed".to_string(),
                })
                .collect();
        };
        queries
            .iter()
            .map(|q| {
                let request = robotstxt_oracle::Request::new(&body, &q.agent, &q.url);
                match robotstxt_oracle::verdict(ProfileId::Rfc9309, &request) {
                    Verdict::Disallowed => Answer::Disallowed,
                    _ => Answer::Allowed,
                }
            })
            .collect()
    }
}

/// Issue 38's question 1 in the matrix: a parser that ends its group at an AI-usage line (the toy
/// reads each one as a user-agent line of its own) changes verdicts once the lines are removed;
/// one that skips them as `rfc9309#2.2.4` says changes none; one that crashes on every body
/// without them has nothing compared, and says so. Every rendering has the line in words.
#[test]
fn the_matrix_says_per_parser_whether_adding_ai_usage_lines_changes_verdicts() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases");
    let corpus = Corpus::load(&root).expect("the corpus loads");
    let asked: usize = corpus
        .cases
        .iter()
        .filter(|c| robotstxt_matrix::aiusage::asked_without_lines(c))
        .map(|c| c.checks.len())
        .sum();
    assert!(asked >= 60, "{asked}");
    let ends_group = |body: &[u8]| {
        let text = String::from_utf8_lossy(body);
        let lines: Vec<String> = text
            .split('\n')
            .map(|line| {
                let lower = line.trim_start().to_ascii_lowercase();
                if (lower.starts_with("content-usage") || lower.starts_with("content-signal"))
                    && lower.contains(':')
                {
                    "User-agent: ends-the-group".to_string()
                } else {
                    line.to_string()
                }
            })
            .collect();
        Some(lines.join("\n").into_bytes())
    };
    let skips_reading = |body: &[u8]| Some(body.to_vec());
    let crashes = |body: &[u8]| {
        let lower = String::from_utf8_lossy(body).to_ascii_lowercase();
        (lower.contains("content-usage:") || lower.contains("content-signal:"))
            .then(|| body.to_vec())
    };
    let toys: [(&str, Reading); 3] = [
        ("ends-group", ends_group),
        ("skips", skips_reading),
        ("crashes", crashes),
    ];
    let opened = toys
        .into_iter()
        .map(|(id, reading)| run::Opened {
            adapter: Box::new(Toy {
                identity: identity(id, "1", ProfileId::Rfc9309),
                reading,
            }),
            ledger: Default::default(),
        })
        .collect();
    let options = run::RunOptions {
        profiles: ProfileId::ALL.to_vec(),
        adapters: Vec::new(),
        filter: Some("other-records".to_string()),
        open: Default::default(),
        ledgers: root.join("no-ledgers"),
    };
    let results = run::run_opened(&corpus, &options, opened, Vec::new(), &run::Silent);
    let ai = |id: &str| {
        results
            .summary
            .iter()
            .find(|s| s.adapter == id)
            .and_then(|s| s.ai_usage.clone())
            .unwrap()
    };
    let (ends, skips, crashes) = (ai("ends-group"), ai("skips"), ai("crashes"));
    assert_eq!(skips.checks, asked);
    assert_eq!((skips.compared, skips.changed), (asked, 0), "{skips:?}");
    assert_eq!(ends.compared, asked);
    assert!(ends.changed > 0, "{ends:?}");
    assert_eq!(ends.changed, ends.changed_checks.len());
    assert!(ends
        .changed_checks
        .iter()
        .all(|c| c.starts_with("rfc9309/other-records-aipref/")));
    assert_eq!(crashes.compared, 0, "{crashes:?}");
    assert_eq!(crashes.not_compared["crash without the lines"], asked);
    let skips_line =
        format!("adding Content-Usage and Content-Signal lines changes 0 of {asked} verdicts");
    let ends_line = format!(
        "adding Content-Usage and Content-Signal lines changes {} of {asked} verdicts",
        ends.changed
    );
    let crash_line = format!(
        "adding Content-Usage and Content-Signal lines changes 0 of 0 verdicts ({asked} more not \
         compared, no verdict obtained: crash without the lines: {asked})"
    );
    assert_eq!(skips.line(), skips_line);
    assert_eq!(crashes.line(), crash_line);
    let markdown = report::render(Format::Markdown, &results);
    let html = matrix(&results);
    for line in [&skips_line, &ends_line, &crash_line] {
        assert!(markdown.contains(line.as_str()), "{line}\n{markdown}");
        assert!(html.contains(line.as_str()), "{line}");
    }
    assert!(html.contains("id=\"ai-usage\""));
    let text = report::render(Format::Text, &results);
    assert!(
        text.contains("AI-usage lines (the same checks without them):"),
        "{text}"
    );
    // A run that selects none of those checks has no line (and no aipref check either: the
    // filter leaves out `aipref/attach/longest-match`).
    let options = run::RunOptions {
        filter: Some("rfc9309/longest-match".to_string()),
        ..options
    };
    let opened = vec![run::Opened {
        adapter: Box::new(Toy {
            identity: identity("skips", "1", ProfileId::Rfc9309),
            reading: skips_reading,
        }),
        ledger: Default::default(),
    }];
    let none = run::run_opened(&corpus, &options, opened, Vec::new(), &run::Silent);
    assert!(none.summary[0].ai_usage.is_none());
    assert!(!report::render(Format::Markdown, &none).contains("Content-Usage"));
}

/// The AI-usage line reads as words in every rendering (never a Rust value), with the checks not
/// compared said apart.
#[test]
fn the_ai_usage_line_renders_as_words() {
    let results = sample();
    let line =
        "adding Content-Usage and Content-Signal lines changes 2 of 10 verdicts (2 more not \
                compared, no verdict obtained: crash without the lines: 2)";
    assert_eq!(results.summary[0].ai_usage.as_ref().unwrap().line(), line);
    let markdown = report::render(Format::Markdown, &results);
    assert!(markdown.contains(line), "{markdown}");
    assert!(
        markdown.contains("changed: `demo/ai#1`, `demo/ai#3`"),
        "{markdown}"
    );
    assert!(matrix(&results).contains(line));
    let text = report::render(Format::Text, &results).replace("\n    ", " ");
    assert!(text.contains(line), "{text}");
    for rendering in [markdown, matrix(&results), text] {
        assert!(!rendering.contains("AiUsageLines") && !rendering.contains("not_compared"));
    }
}

/// A toy adapter in Python speaking the protocol, with the `preferences` capability: it answers
/// an `aipref` check by the first `Content-Usage` statement of the file naming the category
/// (`y` or `n`), else `none`, whatever the path and group (a deliberately crude reading), and
/// every other check `allowed`.
const PREFERENCE_TOY: &str = r#"import json, re, sys
print(json.dumps({"protocol": "robotstxt-adapter/1", "id": "crude-aipref", "library": "crude",
    "version": "1", "language": "Python", "licence": "MIT", "source": "a test",
    "profile": "rfc9309", "url": "full", "capabilities": {"preferences": True}}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    body = request.get("body", "")
    for index, check in enumerate(request["checks"]):
        category = check.get("category")
        if category is None:
            print(json.dumps({"check": index, "answer": "allowed"}), flush=True)
            continue
        found = re.search(r"(?im)^content-usage:.*?\b" + re.escape(category) + r"=([yn])\b", body)
        preference = found.group(1) if found else "none"
        print(json.dumps({"check": index, "answer": "preference", "preference": preference}), flush=True)
"#;

/// Issue 38 part 3 in the matrix: an adapter with the `preferences` capability is asked the
/// `aipref` checks over the wire and judged against the corpus (a crude reading agrees on some and
/// differs on others, both counted); checks needing a fetch outcome or naming a URL the file does
/// not govern are not asked, with the reason; an adapter without the capability is asked none and
/// says so. The line is in every rendering and the results round-trip.
#[test]
fn an_adapter_with_the_preferences_capability_is_asked_the_aipref_checks() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-cases");
    let corpus = Corpus::load(&root).expect("the corpus loads");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("crude.py");
    std::fs::write(&program, PREFERENCE_TOY).unwrap();
    let toy = robotstxt_adapters::subprocess::Subprocess::start(
        "crude-aipref",
        vec!["python3".into(), program.display().to_string()],
        std::time::Duration::from_secs(20),
    )
    .expect("python3 runs the toy adapter");
    assert!(
        robotstxt_adapters::Adapter::identity(&toy)
            .capabilities
            .preferences
    );
    let without = Toy {
        identity: identity("no-capability", "1", ProfileId::Rfc9309),
        reading: |body: &[u8]| Some(body.to_vec()),
    };
    let opened = vec![
        run::Opened {
            adapter: Box::new(toy),
            ledger: Default::default(),
        },
        run::Opened {
            adapter: Box::new(without),
            ledger: Default::default(),
        },
    ];
    let options = run::RunOptions {
        profiles: ProfileId::ALL.to_vec(),
        adapters: Vec::new(),
        filter: Some("aipref/".to_string()),
        open: Default::default(),
        ledgers: root.join("no-ledgers"),
    };
    let results = run::run_opened(&corpus, &options, opened, Vec::new(), &run::Silent);
    let checks = corpus.preference_count();
    assert_eq!(results.preference_rows.len(), checks);
    let tally = |id: &str| {
        results
            .summary
            .iter()
            .find(|s| s.adapter == id)
            .and_then(|s| s.preferences.clone())
            .unwrap()
    };
    let (crude, none) = (tally("crude-aipref"), tally("no-capability"));
    assert_eq!(crude.checks, checks);
    // Not asked: the fetch cases' checks (no fetch_status) and the URL on another host.
    let not_asked: usize = crude.not_asked.values().sum();
    assert_eq!(crude.asked + not_asked, checks, "{crude:?}");
    assert!(
        crude
            .not_asked
            .keys()
            .any(|why| why.contains("capability fetch_status"))
            && crude
                .not_asked
                .keys()
                .any(|why| why.contains("does not govern this URL")),
        "{crude:?}"
    );
    assert!(crude.asked > checks / 2, "{crude:?}");
    assert!(crude.agree > 0 && crude.disagree > 0, "{crude:?}");
    assert_eq!(crude.agree + crude.disagree, crude.asked, "{crude:?}");
    assert_eq!(crude.disagree, crude.disagreeing_checks.len());
    // Each row's answer is the toy's: recompute its crude reading for one row.
    let row = results
        .preference_rows
        .iter()
        .find(|r| r.case == "aipref/attach/longest-match")
        .expect("a longest-match row");
    let cell = &row.adapters["crude-aipref"];
    assert!(cell.asked && cell.answer.preference().is_some(), "{cell:?}");
    assert_eq!(none.asked, 0);
    assert_eq!(none.not_asked.values().sum::<usize>(), checks);
    let none_line = none.line();
    assert!(
        none_line.contains(&format!("asked none of the {checks} aipref checks"))
            && none_line.contains("capability preferences"),
        "{none_line}"
    );
    let crude_line = format!(
        "answers {} of {} aipref checks asked with the preference the corpus expects",
        crude.agree, crude.asked
    );
    assert!(crude.line().starts_with(&crude_line), "{}", crude.line());
    let markdown = report::render(Format::Markdown, &results);
    assert!(markdown.contains(&crude_line), "{markdown}");
    let preference_cases = corpus
        .cases
        .iter()
        .filter(|c| !c.preferences.is_empty())
        .count();
    let headline = format!(", {checks} aipref checks in {preference_cases} cases");
    assert!(markdown.contains(&headline), "{markdown}");
    assert!(markdown.contains(&none_line), "{markdown}");
    // The terminal's text wraps lines: compare its words.
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = words(&report::render(Format::Text, &results));
    assert!(text.contains(&words(&crude_line)), "{text}");
    assert!(text.contains(&words(&none_line)), "{text}");
    let matrix = matrix(&results);
    assert!(matrix.contains("id=\"preferences\""), "{matrix}");
    assert!(matrix.contains(&crude_line));
    let json = serde_json::to_string(&results).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back.preference_rows.len(), checks);
    assert_eq!(back.summary[0].preferences, results.summary[0].preferences);
}
