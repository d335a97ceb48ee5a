//! Twins: each check of the corpus taken through the same question in another spelling, and the
//! verdicts of the two compared in shape (`allowed` or `disallowed`, against `either`, against
//! `not-governed`) under every profile. Like questions get like readings: where a twin's verdict
//! has another shape, a question of the reading table (`robotstxt_oracle::reading_table`) must
//! say why, by telling that twin's two spellings apart and being open for that profile.
//!
//! The twins (`reading_table::Twin`):
//! - hex case: every escape's hex digits in the other case, in the rules and in the URL;
//! - escape side: a rule and the URL that spell the same octets differently (once every escape
//!   is decoded) exchange their spellings, so the escape stands in the rule instead of the URL;
//! - path to query: every rule and the URL moved behind `/q?x=`, so the same comparison is made
//!   in the query;
//! - large body: the body grown past 500 KiB by comment lines after its own, so the same rules
//!   meet each document's limit (the first check of each case, a body under 500 KiB; of one case
//!   in [`LARGE_BODY_SAMPLE`] unless `ROBOTSTXT_FULL_TESTS=1`, docs/commands.md, "Quick and
//!   full": these twins are most of the work).
//!
//! A check whose URL is the `/robots.txt` URI, or with a fragment, has no twin (moving it asks
//! another question), nor does a case with a history of fetches. Nor, for the same reason, has a
//! check a path-to-query twin where its rules or URL escape `/` (`%2F` against `/` is
//! `escaped-slash`'s question in the path, where `/` separates segments, and
//! `query-colon-slash`'s in the query) or where its body, or the twin's, is over 500 KiB (moving
//! the rules moves them against the size limit, the large-body twin's question).

use std::path::PathBuf;

use robotstxt_matrix::cases::{Case, Check, Corpus};
use robotstxt_oracle::encoding::escaped_octet;
use robotstxt_oracle::knobs::FIVE_HUNDRED_KIB;
use robotstxt_oracle::literal::{self, Source};
use robotstxt_oracle::reading_table::{Twin, TABLE};
use robotstxt_oracle::{verdicts_all, ProfileId, Request, Verdict};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether to run at full size: `ROBOTSTXT_FULL_TESTS=1` (CI sets it; docs/commands.md, "Quick and
/// full").
fn full() -> bool {
    std::env::var_os("ROBOTSTXT_FULL_TESTS").is_some_and(|v| v == "1")
}

/// One case in how many has a large-body twin in a quick run (every case at full size): each is a
/// 500 KiB body read under every profile, more than nine tenths of the test's work.
const LARGE_BODY_SAMPLE: usize = 8;

/// A verdict's shape: definite, open, or not governed.
fn shape(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Allowed | Verdict::Disallowed => "definite",
        Verdict::Either => "either",
        Verdict::NotGoverned => "not-governed",
    }
}

/// The URL split where its path starts: (scheme and authority, path and query). `None` with a
/// fragment, or no path.
fn split_url(url: &str) -> Option<(&str, &str)> {
    if url.contains('#') {
        return None;
    }
    let start = match url.find("://") {
        Some(at) => at + 3 + url[at + 3..].find('/')?,
        None if url.starts_with('/') => 0,
        None => return None,
    };
    Some((&url[..start], &url[start..]))
}

/// Every escape of `text` with its hex digits' letters in the other case; `None` when no escape
/// has a letter.
fn hex_case_flipped(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = text.to_vec();
    let mut changed = false;
    let mut i = 0;
    while i < out.len() {
        if escaped_octet(&out[i..]).is_some() {
            for digit in &mut out[i + 1..i + 3] {
                if digit.is_ascii_alphabetic() {
                    *digit ^= 0x20;
                    changed = true;
                }
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    changed.then_some(out)
}

/// A rule line's value: the octets after the colon of an `allow` or `disallow` line, trimmed, with
/// where they start; `None` for other lines.
fn rule_value(line: &[u8]) -> Option<(usize, &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let field = String::from_utf8_lossy(&line[..colon])
        .trim()
        .to_ascii_lowercase();
    if field != "allow" && field != "disallow" {
        return None;
    }
    let rest = &line[colon + 1..];
    let start = rest.iter().position(|&b| b != b' ' && b != b'\t')?;
    if matches!(rest[start], b'\r' | b'\n') {
        return None;
    }
    let value = &rest[start..];
    let end = value
        .iter()
        .position(|&b| matches!(b, b'#' | b' ' | b'\t' | b'\r' | b'\n'))
        .unwrap_or(value.len());
    Some((colon + 1 + start, &value[..end]))
}

/// The lines of `body` with their line ends, so that they join back into it.
fn lines_with_ends(body: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &b) in body.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && body.get(i + 1) != Some(&b'\n')) {
            lines.push(&body[start..=i]);
            start = i + 1;
        }
    }
    if start < body.len() {
        lines.push(&body[start..]);
    }
    lines
}

/// `text` with every escape decoded, and, for each decoded octet, where its spelling ends.
fn decoded(text: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < text.len() {
        match escaped_octet(&text[i..]) {
            Some(octet) => {
                out.push(octet);
                i += 3;
            }
            None => {
                out.push(text[i]);
                i += 1;
            }
        }
        ends.push(i);
    }
    (out, ends)
}

/// The escape-side twins of a body and a URL's path and query: for each rule whose octets, every
/// escape decoded, are the URL's first octets spelled otherwise (no `*`, `$`, `%`, `?` or `#`
/// among them), the body with that rule spelled as the URL spells those octets, and the URL with
/// them spelled as the rule does.
fn escape_side_twins(body: &[u8], target: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let (url_octets, url_ends) = decoded(target);
    let lines = lines_with_ends(body);
    let mut twins = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some((at, value)) = rule_value(line) else {
            continue;
        };
        let (octets, _) = decoded(value);
        if octets.is_empty()
            || octets.len() > url_octets.len()
            || octets.iter().any(|b| b"*$%?#".contains(b))
            || url_octets[..octets.len()] != octets[..]
        {
            continue;
        }
        let url_spelling = &target[..url_ends[octets.len() - 1]];
        if url_spelling == value {
            continue;
        }
        let mut new_body = Vec::new();
        for (m, other) in lines.iter().enumerate() {
            if m == n {
                new_body.extend_from_slice(&line[..at]);
                new_body.extend_from_slice(url_spelling);
                new_body.extend_from_slice(&line[at + value.len()..]);
            } else {
                new_body.extend_from_slice(other);
            }
        }
        let mut new_target = value.to_vec();
        new_target.extend_from_slice(&target[url_spelling.len()..]);
        twins.push((new_body, new_target));
    }
    twins
}

/// The body with every rule value that starts with `/` moved behind `/q?x=`.
fn rules_in_query(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    for line in lines_with_ends(body) {
        match rule_value(line) {
            Some((at, value)) if value.starts_with(b"/") => {
                out.extend_from_slice(&line[..at]);
                out.extend_from_slice(b"/q?x=");
                out.extend_from_slice(&line[at..]);
            }
            _ => out.extend_from_slice(line),
        }
    }
    out
}

/// A check's twins: (kind, body, URL); the large-body twin only when `large_body`.
fn twins(case: &Case, check: &Check, large_body: bool) -> Vec<(Twin, Vec<u8>, String)> {
    let Some((authority, target)) = split_url(&check.url) else {
        return Vec::new();
    };
    let path = target.split('?').next().unwrap_or(target);
    if path == "/robots.txt" || path.contains("%") && decoded(path.as_bytes()).0 == b"/robots.txt" {
        return Vec::new();
    }
    let url = |target: &[u8]| -> Option<String> {
        String::from_utf8(target.to_vec())
            .ok()
            .map(|t| format!("{authority}{t}"))
    };
    let mut all = Vec::new();
    let flipped_body = hex_case_flipped(&case.body);
    let flipped_url = hex_case_flipped(target.as_bytes());
    if flipped_body.is_some() || flipped_url.is_some() {
        let body = flipped_body.unwrap_or_else(|| case.body.clone());
        let target = flipped_url.unwrap_or_else(|| target.as_bytes().to_vec());
        all.extend(url(&target).map(|u| (Twin::HexCase, body, u)));
    }
    for (body, target) in escape_side_twins(&case.body, target.as_bytes()) {
        all.extend(url(&target).map(|u| (Twin::EscapeSide, body, u)));
    }
    let in_query = rules_in_query(&case.body);
    let escapes_slash = |text: &[u8]| text.windows(3).any(|w| w.eq_ignore_ascii_case(b"%2f"));
    if !escapes_slash(&case.body)
        && !escapes_slash(target.as_bytes())
        && in_query.len() <= FIVE_HUNDRED_KIB
    {
        all.push((
            Twin::PathToQuery,
            in_query,
            format!("{authority}/q?x={target}"),
        ));
    }
    if large_body && check.number == 1 && case.body.len() <= FIVE_HUNDRED_KIB {
        all.push((Twin::LargeBody, grown(&case.body), check.url.clone()));
    }
    all
}

/// `body` followed by comment lines up to just past 500 KiB.
fn grown(body: &[u8]) -> Vec<u8> {
    let mut out = body.to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") && !out.ends_with(b"\r") {
        out.push(b'\n');
    }
    let line = b"# a comment line that makes the body large, and says nothing else\n";
    while out.len() <= FIVE_HUNDRED_KIB {
        out.extend_from_slice(line);
    }
    out
}

/// The rows of `OPEN_KNOBS` that the questions telling `twin`'s spellings apart hold open for
/// `profile` (none where every such question is settled).
fn rows_saying_why(twin: Twin, profile: ProfileId) -> Vec<&'static str> {
    TABLE
        .iter()
        .filter(|q| q.twins.contains(&twin))
        .flat_map(|q| q.cell(profile).open.iter().copied())
        .collect()
}

/// The verdict of `request` under `profile` with the open rows `rows` held at the profile's base
/// reading: the literal mode's answers from every reading that applies none of them.
fn verdict_without(profile: ProfileId, request: &Request<'_>, rows: &[&str]) -> Verdict {
    let answers: Vec<bool> = literal::answers(profile, request)
        .into_iter()
        .filter(|answer| match &answer.source {
            Source::Reading(reading) => !reading.applied.iter().any(|a| rows.contains(&a.knob)),
            Source::Exemption(_) | Source::Fetch(_) => true,
        })
        .map(|answer| answer.allowed)
        .collect();
    match answers.split_first() {
        Some((true, rest)) if rest.iter().all(|&a| a) => Verdict::Allowed,
        Some((false, rest)) if rest.iter().all(|&a| !a) => Verdict::Disallowed,
        _ => Verdict::Either,
    }
}

/// Whether the reading table says why two twins' verdicts differ in shape under `profile`: a
/// question that tells the twin's spellings apart is open for it, and the `either` of the open
/// side comes from that question's rows: with them held at the base reading, both twins get
/// verdicts of one shape. A question open for the profile that the difference does not rest on
/// says nothing of it.
fn table_says_why(
    twin: Twin,
    profile: ProfileId,
    requests: [&Request<'_>; 2],
    verdicts: [Verdict; 2],
) -> bool {
    let rows = rows_saying_why(twin, profile);
    if rows.is_empty() {
        return false;
    }
    // Step 0 decides before any reading: a twin keeps the check's scheme and authority, so a
    // difference there is no question of the body's readings.
    if verdicts.contains(&Verdict::NotGoverned) {
        return false;
    }
    let closed = [0, 1].map(|i| match verdicts[i] {
        Verdict::Either => verdict_without(profile, requests[i], &rows),
        definite => definite,
    });
    shape(closed[0]) == shape(closed[1])
}

#[test]
fn the_twin_spellings_are_made_as_described() {
    assert_eq!(
        hex_case_flipped(b"/a%3cd%E3x"),
        Some(b"/a%3Cd%e3x".to_vec())
    );
    assert_eq!(hex_case_flipped(b"/a%20b"), None);
    let twins = escape_side_twins(
        b"User-agent: *\nDisallow: /%7Ejoe/ # x\n",
        b"/~joe/index.html",
    );
    assert_eq!(
        twins,
        [(
            b"User-agent: *\nDisallow: /~joe/ # x\n".to_vec(),
            b"/%7Ejoe/index.html".to_vec()
        )]
    );
    assert_eq!(
        rules_in_query(b"User-agent: *\r\nAllow: /a\r\nDisallow:\r\n"),
        b"User-agent: *\r\nAllow: /q?x=/a\r\nDisallow:\r\n"
    );
    assert_eq!(
        split_url("https://example.com/a?b"),
        Some(("https://example.com", "/a?b"))
    );
    assert_eq!(split_url("/a#top"), None);
}

/// Threads sharing [`twins_get_verdicts_of_the_same_shape_unless_the_table_says_why`]'s checks,
/// each taking every second one: a fixed number (CI has two cores), so the work does not depend on
/// the machine.
const THREADS: usize = 2;

/// What the twins of some checks gave: twins compared and twins differing in shape with the
/// table's reason, per kind of twin, and the problems, each with its check's place in the corpus.
#[derive(Default)]
struct Compared {
    compared: [usize; 4],
    explained: [usize; 4],
    problems: Vec<(usize, String)>,
}

/// Compares the twins of every check in `checks` (the corpus's, numbered in corpus order, each
/// with its case's number) whose number is `thread` modulo [`THREADS`].
fn compare_twins(checks: &[(usize, &Case, &Check)], thread: usize) -> Compared {
    let mut out = Compared::default();
    for (n, (case_number, case, check)) in checks.iter().enumerate().skip(thread).step_by(THREADS) {
        let large_body = full() || case_number.is_multiple_of(LARGE_BODY_SAMPLE);
        let request = Request {
            body: &case.body,
            agent: &check.agent,
            url: &check.url,
            fetch: case.fetch,
            robots_url: case.robots_url.as_deref(),
        };
        let original = verdicts_all(&request);
        for (twin, body, url) in twins(case, check, large_body) {
            out.compared[twin as usize] += 1;
            let twin_request = Request {
                body: &body,
                url: &url,
                ..request
            };
            let theirs = verdicts_all(&twin_request);
            for profile in ProfileId::ALL {
                let (a, b) = (original[profile.index()], theirs[profile.index()]);
                if shape(a) == shape(b) {
                    continue;
                }
                if table_says_why(twin, profile, [&request, &twin_request], [a, b]) {
                    out.explained[twin as usize] += 1;
                } else {
                    out.problems.push((
                        n,
                        format!(
                            "{}#{} under {}: {} for {}, but its {twin:?} twin is {} for {} \
                             (body {:?}); no question of the reading table that tells the two \
                             apart is open for {} on what makes them differ",
                            case.id,
                            check.number,
                            profile.name(),
                            a.name(),
                            check.url,
                            b.name(),
                            url,
                            String::from_utf8_lossy(&body[..body.len().min(400)]),
                            profile.name()
                        ),
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn twins_get_verdicts_of_the_same_shape_unless_the_table_says_why() {
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    let checks: Vec<(usize, &Case, &Check)> = corpus
        .cases
        .iter()
        .filter(|c| c.fetches.is_empty())
        .enumerate()
        .flat_map(|(n, case)| case.checks.iter().map(move |check| (n, case, check)))
        .collect();
    let parts: Vec<Compared> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let checks = &checks;
                scope.spawn(move || compare_twins(checks, t))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a twins thread panicked"))
            .collect()
    });
    let mut compared = [0usize; 4];
    let mut explained = [0usize; 4];
    let mut problems = Vec::new();
    for part in parts {
        for kind in 0..4 {
            compared[kind] += part.compared[kind];
            explained[kind] += part.explained[kind];
        }
        problems.extend(part.problems);
    }
    // In corpus order, as one thread would have found them.
    problems.sort_by_key(|(n, _)| *n);
    let problems: Vec<String> = problems.into_iter().map(|(_, p)| p).collect();
    eprintln!(
        "twins compared (hex case, escape side, path to query, large body): {compared:?}; \
         differing in shape with the table's reason: {explained:?}"
    );
    assert!(
        compared.iter().all(|&n| n > 20),
        "too few twins compared (hex case, escape side, path to query, large body): {compared:?}"
    );
    assert!(
        problems.is_empty(),
        "{} twins differ in shape (the first 40):\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}
