//! The loader's errors: every malformed input gives a message naming file, line and column and
//! what to do. Each test asserts the message and the position.

use std::path::Path;

use robotstxt_matrix::cases::load::{load_case_file, parse_case};
use robotstxt_matrix::cases::{Corpus, LoadError};

const GOOD_CHECKS: &str = "checks:\n  - agent: ExampleBot\n    url: /a\n    expect: allowed\n";

/// Parses `text` as case `t/x` and returns (line, column, message) of every problem.
fn problems_of(text: &str) -> Vec<(Option<usize>, Option<usize>, String)> {
    match parse_case("t/x", text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(problems) => problems,
    }
}

/// Parses `text` as case `t/x` and returns (line, column, message) of its one problem.
fn error_of(text: &str) -> (Option<usize>, Option<usize>, String) {
    let mut problems = problems_of(text);
    assert_eq!(problems.len(), 1, "one problem expected: {problems:?}");
    problems.remove(0)
}

fn assert_error(text: &str, line: usize, column: usize, needle: &str) {
    let (l, c, message) = error_of(text);
    assert!(
        message.contains(needle),
        "message {message:?} does not contain {needle:?}"
    );
    assert_eq!(
        (l, c),
        (Some(line), Some(column)),
        "position of {message:?}"
    );
}

#[test]
fn yaml_syntax_error() {
    assert_error(
        "title: \"unterminated\ncite: [rfc9309#2.2]\n",
        3,
        1,
        "found unexpected end of stream",
    );
}

#[test]
fn unknown_top_level_field() {
    let text = format!("title: t\ncite: [rfc9309#2.2]\nbody: x\nbodyy: y\n{GOOD_CHECKS}");
    assert_error(&text, 4, 1, "unknown field `bodyy`");
}

#[test]
fn unknown_check_field() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: allowed\n    verdict: allowed\n";
    assert_error(text, 8, 5, "unknown field `verdict`");
}

#[test]
fn a_number_where_text_is_expected() {
    let text = format!("title: 404\ncite: [rfc9309#2.2]\nbody: x\n{GOOD_CHECKS}");
    assert_error(
        &text,
        1,
        8,
        "title: expected text, found a number; quote it",
    );
}

#[test]
fn missing_title() {
    let text = format!("cite: [rfc9309#2.2]\nbody: x\n{GOOD_CHECKS}");
    let (_, _, message) = error_of(&text);
    assert!(message.contains("missing field `title`"), "{message}");
}

#[test]
fn duplicate_key_points_at_the_second() {
    let text = format!("title: t\ncite: [rfc9309#2.2]\nbody: x\ntitle: u\n{GOOD_CHECKS}");
    assert_error(&text, 4, 1, "duplicate field `title`");
}

#[test]
fn duplicate_key_in_a_check_points_at_the_second() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    expect: allowed\n  - agent: B\n    url: /a\n    agent: C\n    expect: allowed\n";
    assert_error(text, 9, 5, "checks[1]: duplicate field `agent`");
}

#[test]
fn unknown_citation_document() {
    let text = format!("title: t\ncite: [rfc1234#2.2]\nbody: x\n{GOOD_CHECKS}");
    // At the item of the flow list, not at its `[`.
    assert_error(&text, 2, 8, "unknown document `rfc1234`");
}

#[test]
fn unknown_citation_section() {
    let text = format!("title: t\ncite:\n  - rfc9309#7.7\nbody: x\n{GOOD_CHECKS}");
    assert_error(&text, 3, 5, "unknown section `7.7` of `rfc9309`");
}

#[test]
fn citation_without_section() {
    let text = format!("title: t\ncite: [google]\nbody: x\n{GOOD_CHECKS}");
    assert_error(&text, 2, 8, "has no `#section`");
}

#[test]
fn unknown_profile_in_expect() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: {rfc9309: allowed, bing: allowed, others: allowed}\n";
    // At the key in the flow map.
    assert_error(text, 7, 32, "unknown profile `bing`");
}

#[test]
fn unknown_verdict() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: maybe\n";
    assert_error(text, 7, 13, "unknown verdict `maybe`");
}

#[test]
fn expect_map_missing_a_profile() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: {rfc9309: allowed, google: allowed, draft-1996: allowed}\n";
    assert_error(text, 7, 13, "no verdict for profile `original-1994`");
}

#[test]
fn malformed_escape() {
    let text =
        format!("title: t\ncite: [rfc9309#2.2]\nbody_escaped: 'User-agent: *\\q'\n{GOOD_CHECKS}");
    assert_error(&text, 3, 15, "unknown escape `\\q`");
}

#[test]
fn short_hex_escape() {
    let text = format!("title: t\ncite: [rfc9309#2.2]\nbody_escaped: 'ab\\xG'\n{GOOD_CHECKS}");
    assert_error(&text, 3, 15, "needs two hex digits");
}

#[test]
fn empty_check_list() {
    assert_error(
        "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks: []\n",
        4,
        9,
        "the list is empty",
    );
}

#[test]
fn empty_citation_list() {
    let text = format!("title: t\ncite: []\nbody: x\n{GOOD_CHECKS}");
    assert_error(&text, 2, 7, "the list is empty");
}

#[test]
fn agent_not_a_product_token() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: Googlebot/2.1\n    url: /a\n    expect: allowed\n";
    assert_error(text, 5, 12, "is not a product token");
}

#[test]
fn relative_url() {
    let text = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: page.html\n    expect: allowed\n";
    assert_error(text, 6, 10, "neither an absolute URL");
}

#[test]
fn url_with_an_empty_host_a_port_out_of_range_or_no_host() {
    for (url, why) in [
        ("'http://'", "the host is empty"),
        ("'http://example.com:99999/x'", "outside 0-65535"),
        ("'javascript:alert(1)'", "names no host"),
    ] {
        let text = format!(
            "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: {url}\n    expect: allowed\n"
        );
        assert_error(&text, 6, 10, why);
    }
    let text = "title: t\ncite: [rfc9309#2.3]\nrobots_url: 'https://:8/robots.txt'\nbody: x\nchecks:\n  - agent: A\n    url: https://example.com/a\n    expect: allowed\n";
    assert_error(text, 3, 13, "the host is empty");
}

#[test]
fn two_bodies() {
    let text = format!("title: t\ncite: [rfc9309#2.2]\nbody: x\nbody_escaped: 'y'\n{GOOD_CHECKS}");
    assert_error(&text, 4, 1, "more than one body");
}

#[test]
fn no_body_for_a_success() {
    let text = format!("title: t\ncite: [rfc9309#2.2]\n{GOOD_CHECKS}");
    assert_error(&text, 1, 1, "has no body");
}

#[test]
fn unknown_statement_in_covers() {
    let text = format!(
        "title: t\ncite: [rfc9309#2.2]\ncovers: [rfc9309/9.9/nothing]\nbody: x\n{GOOD_CHECKS}"
    );
    assert_error(&text, 3, 10, "unknown statement `rfc9309/9.9/nothing`");
}

#[test]
fn bad_tag() {
    let text =
        format!("title: t\ncite: [rfc9309#2.2]\ntags: [Longest Match]\nbody: x\n{GOOD_CHECKS}");
    assert_error(&text, 3, 8, "tag `Longest Match` must be lower-case");
}

#[test]
fn unreachable_with_status() {
    let text = format!("title: t\ncite: [rfc9309#2.3.1.4]\nfetch: {{unreachable: true, status: 500}}\n{GOOD_CHECKS}");
    assert_error(&text, 3, 1, "cannot have a status");
}

#[test]
fn generated_body_part_with_both_kinds() {
    let text = format!(
        "title: t\ncite: [rfc9309#2.5]\nbody_generated:\n  parts:\n    - text: a\n      escaped: b\n{GOOD_CHECKS}"
    );
    // At the part itself.
    assert_error(&text, 5, 7, "give exactly one of `text` or `escaped`");
}

#[test]
fn generated_body_too_large() {
    let text = format!(
        "title: t\ncite: [rfc9309#2.5]\nbody_generated:\n  parts:\n    - text: abcdefgh\n      repeat: 4000000000\n{GOOD_CHECKS}"
    );
    assert_error(&text, 3, 1, "is larger than");
}

fn write(dir: &Path, relative: &str, contents: &[u8]) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

fn corpus_errors(dir: &Path) -> Vec<LoadError> {
    Corpus::load(dir).expect_err("expected the corpus to fail")
}

const GOOD_CASE: &str = "title: t\ncite: [rfc9309#2.2]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: allowed\n";

#[test]
fn duplicate_case_ids() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/same.yaml", GOOD_CASE.as_bytes());
    write(dir.path(), "a/same.yml", GOOD_CASE.as_bytes());
    let errors = corpus_errors(dir.path());
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.contains("duplicate case id `a/same`"),
        "{}",
        errors[0]
    );
    assert!(errors[0].to_string().contains("same.yml"), "{}", errors[0]);
}

#[test]
fn bad_file_name_gives_bad_id() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/Allow_Wins.yaml", GOOD_CASE.as_bytes());
    let errors = corpus_errors(dir.path());
    assert!(
        errors[0]
            .message
            .contains("may only hold lower-case letters"),
        "{}",
        errors[0]
    );
}

#[test]
fn file_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/b.yaml", b"title: t\nbody: \xFF\n");
    let errors = load_case_file(dir.path(), &dir.path().join("a/b.yaml")).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let error = &errors[0];
    assert_eq!(error.line, Some(2));
    assert!(error.message.contains("not UTF-8"), "{error}");
}

#[test]
fn every_error_is_reported_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a/one.yaml",
        b"title: t\ncite: [nope#1]\nbody: x\nchecks: []\n",
    );
    write(dir.path(), "a/two.yaml", b"title: [\n");
    write(dir.path(), "a/good.yaml", GOOD_CASE.as_bytes());
    let errors = corpus_errors(dir.path());
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 3, "{text:#?}");
    // Both problems of one.yaml, then the syntax error that stops two.yaml.
    assert!(
        text[0].contains("one.yaml:2:8: cite[0]: unknown document `nope`"),
        "{}",
        text[0]
    );
    assert!(
        text[1].contains("one.yaml:4:9: checks: the list is empty"),
        "{}",
        text[1]
    );
    assert!(
        text[2].contains("two.yaml:2:1: did not find expected node content"),
        "{}",
        text[2]
    );
}

#[test]
fn missing_directory() {
    let errors = corpus_errors(Path::new("/nonexistent/spec-cases"));
    assert!(
        errors[0]
            .message
            .contains("cannot read the corpus directory"),
        "{}",
        errors[0]
    );
}

/// Asserts that `text` gives exactly these problems, in this order: (line, column, text found in
/// the message).
fn assert_problems(text: &str, expected: &[(usize, usize, &str)]) {
    let problems = problems_of(text);
    let shown: Vec<String> = problems
        .iter()
        .map(|(l, c, m)| format!("{}:{}: {m}", l.unwrap_or(0), c.unwrap_or(0)))
        .collect();
    assert_eq!(problems.len(), expected.len(), "{shown:#?}");
    for ((line, column, message), (l, c, needle)) in problems.iter().zip(expected) {
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        assert_eq!(
            (*line, *column),
            (Some(*l), Some(*c)),
            "position of {message:?}"
        );
    }
}

#[test]
fn three_problems_in_one_file_are_three_errors() {
    let text = "title: t\ncite: [rfc9309#2.2, nope#1]\nbody_escaped: 'a\\q'\nchecks:\n  - agent: A\n    url: /a\n    expect: maybe\n";
    assert_problems(
        text,
        &[
            (2, 21, "cite[1]: unknown document `nope`"),
            (3, 15, "body_escaped: malformed escape"),
            (7, 13, "checks[0].expect: unknown verdict `maybe`"),
        ],
    );
}

#[test]
fn every_problem_of_a_file_that_parses_is_reported() {
    let text = "\
title: t
cite: []
tags: [Bad Tag, ok, Also Bad]
covers: [rfc9309/9.9/none]
bodyy: x
body: x
body_escaped: 'y'
fetch: {status: 70000}
checks:
  - agent: Googlebot/2.1
    url: page.html
    expect: {rfc9309: allowed, bing: allowed, google: maybe}
    verdict: allowed
  - url: /b
";
    assert_problems(
        text,
        &[
            (5, 1, "unknown field `bodyy`"),
            (2, 7, "cite: the list is empty"),
            (3, 8, "tags[0]: tag `Bad Tag`"),
            (3, 21, "tags[2]: tag `Also Bad`"),
            (4, 10, "covers[0]: unknown statement"),
            (
                8,
                17,
                "fetch.status: expected a whole number from 0 to 65535",
            ),
            (7, 1, "more than one body"),
            (13, 5, "checks[0]: unknown field `verdict`"),
            (
                10,
                12,
                "checks[0].agent: agent `Googlebot/2.1` is not a product token",
            ),
            (11, 10, "checks[0].url: url `page.html` is neither"),
            (12, 32, "checks[0].expect: unknown profile `bing`"),
            (12, 55, "checks[0].expect.google: unknown verdict `maybe`"),
            (12, 13, "no verdict for profile `draft-1996`"),
            (12, 13, "no verdict for profile `original-1994`"),
            (14, 5, "checks[1]: missing field `agent`"),
            (14, 5, "checks[1]: a check needs `expect`"),
        ],
    );
}

#[test]
fn every_problem_of_a_generated_body_is_reported() {
    let text = format!(
        "title: t\ncite: [rfc9309#2.5]\nbody_generated:\n  encoding: utf-16le\n  parts:\n    - text: a\n      escaped: b\n    - escaped: 'c'\n    - text: d\n      repeat: -1\n      size: 3\n{GOOD_CHECKS}"
    );
    assert_problems(
        &text,
        &[
            (
                6,
                7,
                "body_generated.parts[0]: give exactly one of `text` or `escaped`",
            ),
            (
                8,
                7,
                "body_generated.parts[1]: `escaped` parts are raw octets",
            ),
            (11, 7, "body_generated.parts[2]: unknown field `size`"),
            (
                10,
                15,
                "body_generated.parts[2].repeat: expected a whole number",
            ),
        ],
    );
}

#[test]
fn a_bad_file_name_and_the_problems_inside_are_all_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a/Bad_Name.yaml",
        b"title: t\ncite: [nope#1]\nbody: x\nchecks: []\n",
    );
    write(dir.path(), "a/twice.yaml", b"title: [\n");
    write(dir.path(), "a/twice.yml", GOOD_CASE.as_bytes());
    let text: Vec<String> = corpus_errors(dir.path())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(text.len(), 5, "{text:#?}");
    assert!(text[0].contains("Bad_Name.yaml: case id"), "{}", text[0]);
    assert!(
        text[1].contains("Bad_Name.yaml:2:8: cite[0]"),
        "{}",
        text[1]
    );
    assert!(text[2].contains("Bad_Name.yaml:4:9: checks"), "{}", text[2]);
    // A duplicate id is found even when one of the two files does not load.
    assert!(text[3].contains("twice.yaml:2:1:"), "{}", text[3]);
    assert!(
        text[4].contains("twice.yml: duplicate case id `a/twice`"),
        "{}",
        text[4]
    );
}

#[test]
fn path_url_beside_a_robots_url() {
    let text = "title: t\ncite: [rfc9309#2.3]\nrobots_url: https://example.com/robots.txt\nbody: x\nchecks:\n  - agent: A\n    url: https://example.com/a\n    expect: allowed\n  - agent: A\n    url: /b\n    expect: allowed\n";
    assert_error(
        text,
        10,
        10,
        "checks[1].url: `/b` is not an absolute URL, but the case gives `robots_url`",
    );
    let (_, _, message) = error_of(text);
    assert!(message.contains("`https://example.com/b`"), "{message}");
}

#[test]
fn robots_url_not_absolute() {
    let text =
        format!("title: t\ncite: [rfc9309#2.3]\nrobots_url: /robots.txt\nbody: x\n{GOOD_CHECKS}");
    assert_error(
        &text,
        3,
        13,
        "robots_url: `/robots.txt` is not an absolute URL",
    );
}

#[test]
fn not_governed_without_a_robots_url() {
    let text = "title: t\ncite: [rfc9309#2.3]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    expect: {google: not-governed, others: allowed}\n";
    assert_error(
        text,
        7,
        13,
        "checks[0].expect: `not-governed` needs the case's `robots_url`",
    );
}

#[test]
fn robots_url_loads_with_absolute_urls_and_not_governed() {
    let text = "title: t\ncite: [rfc9309#2.3]\nrobots_url: https://example.com/robots.txt\nbody: x\nchecks:\n  - agent: A\n    url: https://other.example.com/a\n    expect: not-governed\n";
    let case = parse_case("t/x", text).expect("loads");
    assert_eq!(
        case.robots_url.as_deref(),
        Some("https://example.com/robots.txt")
    );
    assert!(case.checks[0]
        .expect
        .values()
        .all(|v| *v == robotstxt_oracle::Verdict::NotGoverned));
}

const HISTORY: &str = "title: t\ncite: [rfc9309#2.4]\nfetches:\n  - at: 0h\n    body: x\n  - at: 13h\n    status: 503\n";

#[test]
fn a_history_loads_with_times() {
    let text = format!(
        "{HISTORY}checks:\n  - agent: A\n    url: /a\n    at: 1d2h\n    expect: not-governed\n"
    );
    let case = parse_case("t/x", &text).expect("loads");
    assert_eq!(case.fetches.len(), 2);
    assert_eq!(case.fetches[1].at, 13 * 60);
    assert_eq!(case.checks[0].at, Some(26 * 60));
    assert!(case.body.is_empty());
}

#[test]
fn a_history_check_without_a_time() {
    let text = format!("{HISTORY}checks:\n  - agent: A\n    url: /a\n    expect: allowed\n");
    assert_error(
        &text,
        9,
        5,
        "checks[0]: the case gives `fetches`, so every check needs its time `at`",
    );
}

#[test]
fn a_time_without_a_history() {
    let text = "title: t\ncite: [rfc9309#2.4]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n    at: 1h\n    expect: allowed\n";
    assert_error(text, 7, 9, "checks[0].at: `at` needs the case's `fetches`");
}

#[test]
fn a_malformed_time() {
    let text =
        format!("{HISTORY}checks:\n  - agent: A\n    url: /a\n    at: 1h30\n    expect: allowed\n");
    assert_error(&text, 11, 9, "`1h30` is not a time");
}

#[test]
fn a_check_before_the_first_fetch() {
    let text = "title: t\ncite: [rfc9309#2.4]\nfetches:\n  - at: 2h\n    body: x\nchecks:\n  - agent: A\n    url: /a\n    at: 1h\n    expect: allowed\n";
    assert_error(text, 9, 9, "asked at 1h but the first fetch is at 2h");
}

#[test]
fn fetches_out_of_time_order() {
    let text = "title: t\ncite: [rfc9309#2.4]\nfetches:\n  - at: 2h\n    body: x\n  - at: 2h\n    status: 503\nchecks:\n  - agent: A\n    url: /a\n    at: 3h\n    expect: allowed\n";
    assert_error(
        text,
        6,
        9,
        "fetches[1].at: fetches are in time order: 2h is not after",
    );
}

#[test]
fn a_body_beside_a_history() {
    let text = "title: t\ncite: [rfc9309#2.4]\nbody: y\nfetches:\n  - at: 0h\n    body: x\nchecks:\n  - agent: A\n    url: /a\n    at: 1h\n    expect: allowed\n";
    assert_error(
        text,
        3,
        1,
        "body: a case with `fetches` gives each fetch its own outcome and body",
    );
}

#[test]
fn a_successful_fetch_without_a_body() {
    let text = "title: t\ncite: [rfc9309#2.4]\nfetches:\n  - at: 0h\n    status: 200\nchecks:\n  - agent: A\n    url: /a\n    at: 1h\n    expect: allowed\n";
    assert_error(
        text,
        4,
        5,
        "fetches[0]: a successful fetch needs its `body`",
    );
}

/// The `aipref` question's fields: a bad category or preference, half a question, both questions
/// in one check or one case, each reported at its place.
#[test]
fn aipref_question_errors() {
    let head = "title: t\ncite: [aipref-attach#3]\nbody: x\nchecks:\n  - agent: A\n    url: /a\n";
    assert_error(
        &format!("{head}    category: Train-AI\n    expect_preference: n\n"),
        7,
        15,
        "category `Train-AI` is not a usage category label",
    );
    assert_error(
        &format!("{head}    category: train-ai\n    expect_preference: maybe\n"),
        8,
        24,
        "unknown preference `maybe`; use y, n, none or either",
    );
    assert_error(
        &format!("{head}    category: train-ai\n"),
        7,
        15,
        "`category` needs `expect_preference`",
    );
    assert_error(
        &format!("{head}    expect_preference: n\n"),
        7,
        24,
        "`expect_preference` needs `category`",
    );
    assert_error(
        &format!("{head}    expect: allowed\n    category: train-ai\n    expect_preference: n\n"),
        8,
        15,
        "a check asks one question",
    );
    let (line, _, message) = error_of(&format!("{head}    note: no question\n"));
    assert!(message.contains("a check needs `expect`"), "{message}");
    assert_eq!(line, Some(5), "{message}");
    let mixed = format!(
        "{head}    category: train-ai\n    expect_preference: n\n  - agent: A\n    url: /b\n    expect: allowed\n"
    );
    let (line, _, message) = error_of(&mixed);
    assert!(message.contains("a case asks one question"), "{message}");
    // At the list of checks, line 4.
    assert_eq!(line, Some(4), "{message}");
    // A good one loads, as an aipref check and no crawl check.
    let case = parse_case(
        "t/x",
        &format!("{head}    category: train-ai\n    expect_preference: none\n"),
    )
    .expect("a good aipref case");
    assert_eq!((case.checks.len(), case.preferences.len()), (0, 1));
}
