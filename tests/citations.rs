//! Citations outside the `cite:` lists: every `document#section` written in a case's note (or a
//! check's) and in the code's comments names a section that exists, RFC 9309 is cited in that
//! rule-id form (`rfc9309#2.2.2`, not "RFC 9309 2.2.2"), and a case carries a reported erratum's
//! tag exactly when one of its verdicts under `rfc9309` would change under the erratum's reading.

use std::path::{Path, PathBuf};

use robotstxt_matrix::cases::citation::{cited_in, Citation, ERRATA};
use robotstxt_matrix::cases::{Case, Corpus};
use robotstxt_matrix::verify::single_fetch_requests;
use robotstxt_oracle::knobs::Erratum;
use robotstxt_oracle::{literal, ProfileId, Request};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files whose comments may write a worded citation such as "RFC9309 2.3.1.4": only this file,
/// whose comments show the worded form the test rejects (the examples cannot be written otherwise).
const WORDED_FORM_SHOWN: &[&str] = &["tests/citations.rs"];

/// The rule id a worded citation stands for: `rfc9309#2.4` for "RFC 9309, section 2.4".
fn rule_id(words: &str) -> String {
    let section = words.rsplit([' ', ',']).next().unwrap_or_default();
    format!("rfc9309#{section}")
}

/// Every `.rs` file under the workspace's source directories (not `target/`).
fn rust_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "oracle",
        "spec/src",
        "adapters/src",
        "differential",
        "fuzz",
    ] {
        walk(&root().join(dir), &mut files);
    }
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "target"));
    files
}

/// The comment part of each line of a Rust file (after `//`), with its line number.
fn comments(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| line.find("//").map(|at| (i + 1, &line[at..])))
}

/// "RFC 9309 2.2.2", "RFC9309 2.3.1.4", "RFC 9309, section 2.5": a section of RFC 9309 cited in
/// words rather than as `rfc9309#2.2.2`.
fn worded_rfc9309_citation(text: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(at) = text[from..].find("RFC") {
        let start = from + at;
        from = start + 3;
        let Some(after) = text[from..].trim_start_matches(' ').strip_prefix("9309") else {
            continue;
        };
        let after = after.trim_start_matches(',').trim_start_matches(' ');
        let after = after.strip_prefix("section ").unwrap_or(after);
        if !after.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let digits = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        let end = text.len() - after.len() + after[..digits].trim_end_matches('.').len();
        return Some(&text[start..end]);
    }
    None
}

#[test]
fn every_citation_in_a_note_exists_and_uses_the_rule_id_form() {
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    let mut problems = Vec::new();
    let mut cited = 0;
    for case in &corpus.cases {
        let notes = case.note.iter().map(|n| (String::new(), n)).chain(
            case.checks
                .iter()
                .filter_map(|c| c.note.as_ref().map(|n| (format!("#{}", c.number), n))),
        );
        for (check, note) in notes {
            for id in cited_in(note) {
                cited += 1;
                if let Err(e) = Citation::parse(id) {
                    problems.push(format!("{}{check}: note: {e}", case.id));
                }
            }
            if let Some(words) = worded_rfc9309_citation(note) {
                problems.push(format!(
                    "{}{check}: note cites `{words}`: write it as a rule id (`{}`)",
                    case.id,
                    rule_id(words)
                ));
            }
        }
    }
    assert!(cited > 50, "only {cited} citations found in notes");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_citation_in_a_code_comment_exists_and_uses_the_rule_id_form() {
    let mut problems = Vec::new();
    let mut cited = 0;
    for file in rust_files() {
        let relative = file
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, comment) in comments(&text) {
            for id in cited_in(comment) {
                cited += 1;
                if let Err(e) = Citation::parse(id) {
                    problems.push(format!("{relative}:{line}: {e}"));
                }
            }
            if WORDED_FORM_SHOWN.contains(&relative.as_str()) {
                continue;
            }
            if let Some(words) = worded_rfc9309_citation(comment) {
                problems.push(format!(
                    "{relative}:{line}: `{words}`: write it as a rule id (`{}`)",
                    rule_id(words)
                ));
            }
        }
    }
    assert!(cited > 200, "only {cited} citations found in comments");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn worded_citations_are_recognised() {
    assert_eq!(
        worded_rfc9309_citation("as RFC 9309 2.2.2 says"),
        Some("RFC 9309 2.2.2")
    );
    assert_eq!(
        worded_rfc9309_citation("RFC9309 2.3.1.4: 5xx"),
        Some("RFC9309 2.3.1.4")
    );
    assert_eq!(
        worded_rfc9309_citation("RFC 9309, section 2.5"),
        Some("RFC 9309, section 2.5")
    );
    assert_eq!(
        worded_rfc9309_citation("RFC 9309 (2022) and RFC 3986 2.1"),
        None
    );
    assert_eq!(worded_rfc9309_citation("rfc9309#2.2.2"), None);
    assert_eq!(rule_id("RFC 9309, section 2.5"), "rfc9309#2.5");
    assert_eq!(rule_id("RFC9309 2.3.1.4"), "rfc9309#2.3.1.4");
}

/// Whether the reading of `erratum` can read `request` otherwise than the RFC's readings do, by
/// what the input holds (a generous test, which only spares the slow literal mode). 7124 closes the
/// row of 5.2's example: its rule and its URI, each written out or through escapes. 7128 leaves a
/// query's `:` and `/` to the other reserved characters: only a URL with a query has a query to
/// compare (a rule's query part meets nothing else).
fn erratum_can_matter(erratum: &Erratum, request: &Request<'_>) -> bool {
    let holds = |octets: &[u8], text: &str| {
        octets.windows(text.len()).any(|w| w == text.as_bytes()) || octets.contains(&b'%')
    };
    match erratum.number {
        7124 => holds(request.body, "disallowed") && holds(request.url.as_bytes(), "disallow"),
        7128 => request.url.contains('?'),
        other => panic!("erratum {other}: say when its reading can matter"),
    }
}

/// Whether a verdict of `case` under `rfc9309` would change under the reading of `erratum`: each
/// check's single fetches, the published readings against the erratum's, both in the literal mode.
fn depends_on(case: &Case, erratum: &Erratum) -> bool {
    case.checks.iter().any(|check| {
        let requests = single_fetch_requests(case, check);
        let changes = requests.iter().any(|request| {
            erratum_can_matter(erratum, request)
                && literal::verdict(ProfileId::Rfc9309, request)
                    != literal::verdict_under_erratum(erratum, request)
        });
        assert!(
            !changes || case.fetches.is_empty(),
            "{}: a history whose fetch depends on {}: compare the history's verdicts",
            case.id,
            erratum.tag
        );
        changes
    })
}

#[test]
fn cases_depending_on_an_erratum_carry_its_tag_and_no_others_do() {
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    let mut problems = Vec::new();
    let mut depending = 0;
    for case in &corpus.cases {
        for erratum in ERRATA {
            let depends = depends_on(case, erratum);
            depending += usize::from(depends);
            let tagged = case.tags.iter().any(|t| t == erratum.tag);
            if depends != tagged {
                problems.push(format!(
                    "{}: {} on erratum {} (a verdict under rfc9309 would {}change under its \
                     reading) but is {}tagged `{}`: {}",
                    case.id,
                    if depends {
                        "depends"
                    } else {
                        "does not depend"
                    },
                    erratum.number,
                    if depends { "" } else { "not " },
                    if tagged { "" } else { "not " },
                    erratum.tag,
                    erratum.questions
                ));
            }
        }
        for tag in case.tags.iter().filter(|t| t.starts_with("erratum-")) {
            if !ERRATA.iter().any(|e| e.tag == tag) {
                problems.push(format!(
                    "{}: tag `{tag}` names no erratum of ERRATA",
                    case.id
                ));
            }
        }
    }
    assert!(depending > 0, "no case depends on any erratum");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
