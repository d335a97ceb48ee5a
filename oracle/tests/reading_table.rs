//! The reading table (`robotstxt_oracle::reading_table`) is complete and agrees with the knobs:
//! every step asks every document something, every question answers for every document, every
//! open cell names the rows of `OPEN_KNOBS` that hold its alternatives (and every row is named by
//! one), every sentence is the document's own, and `docs/profiles.md` shows the table as the code
//! renders it.

use std::collections::BTreeSet;

use robotstxt_oracle::fetch::{fetch_effect, FetchEffect};
use robotstxt_oracle::knobs::OPEN_KNOBS;
use robotstxt_oracle::reading_table::{markdown, Basis, Step, TABLE};
use robotstxt_oracle::scope::{governs, Governs};
use robotstxt_oracle::{Fetch, ProfileId};

fn page() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/profiles.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The open answers of the steps decided before the body is read, as cells name them.
const STEP_ANSWERS: [(&str, Step); 3] = [
    ("scope", Step::Scope),
    ("fetch", Step::FetchOutcome),
    ("history", Step::Caching),
];

/// The documents a profile's sentences may come from (the Guide is the 1996 draft's secondary
/// reading, and only where its cell says so).
fn documents(profile: ProfileId) -> &'static [&'static str] {
    match profile {
        ProfileId::Rfc9309 => &["rfc9309"],
        ProfileId::Google => &["google"],
        ProfileId::Draft1996 => &["draft-1996"],
        ProfileId::Original1994 => &["norobots-1994"],
    }
}

#[test]
fn every_step_asks_every_document_and_every_question_is_answered() {
    for step in Step::ALL {
        let questions: Vec<_> = TABLE.iter().filter(|q| q.step == step).collect();
        assert!(!questions.is_empty(), "no question for the step {step:?}");
        for question in questions {
            for profile in ProfileId::ALL {
                let cell = question.cell(profile);
                assert!(
                    !cell.reading.trim().is_empty(),
                    "{} has no reading for {}",
                    question.id,
                    profile.name()
                );
            }
        }
    }
    let ids: BTreeSet<&str> = TABLE.iter().map(|q| q.id).collect();
    assert_eq!(ids.len(), TABLE.len(), "question ids are unique");
}

#[test]
fn every_open_cell_names_rows_of_its_document_and_every_row_is_named() {
    let mut named = BTreeSet::new();
    for question in TABLE {
        for profile in ProfileId::ALL {
            let cell = question.cell(profile);
            match cell.basis {
                Basis::Silent | Basis::Leaves(_) | Basis::Contradicts(_) => assert!(
                    cell.is_open(),
                    "{} {}: a silence, an open sentence or a contradiction leaves the question \
                     open: name the rows that hold the alternatives",
                    question.id,
                    profile.name()
                ),
                Basis::Guide(_) => assert!(
                    profile == ProfileId::Draft1996 && !cell.is_open(),
                    "{} {}: only the 1996 draft has the Guide, which settles what it fills",
                    question.id,
                    profile.name()
                ),
                Basis::Says(_) => {}
            }
            for name in cell.open {
                if let Some((_, step)) = STEP_ANSWERS.iter().find(|(n, _)| n == name) {
                    assert_eq!(
                        *step,
                        question.step,
                        "{} {}: `{name}` names the open answers of another step",
                        question.id,
                        profile.name()
                    );
                    continue;
                }
                assert!(
                    profile.open_rows().iter().any(|row| row.name == *name),
                    "{} {}: `{name}` is no row of OPEN_KNOBS for {}",
                    question.id,
                    profile.name(),
                    profile.name()
                );
                named.insert((profile, *name));
            }
        }
    }
    for row in OPEN_KNOBS {
        assert!(
            named.contains(&(row.profile, row.name)),
            "OPEN_KNOBS row {} {} is named by no cell of the reading table",
            row.profile.name(),
            row.name
        );
    }
}

#[test]
fn every_sentence_is_its_documents_and_every_knob_a_heading() {
    let page = page();
    for question in TABLE {
        assert!(
            page.contains(&format!("\n### {} ", question.knob)),
            "{}: no heading `### {}` in docs/profiles.md",
            question.id,
            question.knob
        );
        for profile in ProfileId::ALL {
            let cell = question.cell(profile);
            let (sentences, allowed): (&[_], &[&str]) = match cell.basis {
                Basis::Says(s) | Basis::Leaves(s) | Basis::Contradicts(s) => {
                    (s, documents(profile))
                }
                Basis::Guide(s) => (s, &["guide-ch9"]),
                Basis::Silent => (&[], &[]),
            };
            if !matches!(cell.basis, Basis::Silent) {
                assert!(!sentences.is_empty(), "{} {}", question.id, profile.name());
            }
            for sentence in sentences {
                let document = sentence.cite.split('#').next().unwrap_or("");
                assert!(
                    allowed.contains(&document),
                    "{} {}: {} is not the document that decides here",
                    question.id,
                    profile.name(),
                    sentence.cite
                );
                assert!(!sentence.words.trim().is_empty());
            }
        }
    }
}

/// An open cell of a step decided before the body is read names an answer its function really
/// leaves open: the fetch outcome has a status it reads either way, scope a pair of URLs.
#[test]
fn the_steps_before_the_body_leave_open_what_their_cells_say() {
    for question in TABLE {
        for profile in ProfileId::ALL {
            let cell = question.cell(profile);
            if cell.open.contains(&"fetch") {
                let some_open = (0..700u16).any(|status| {
                    matches!(
                        fetch_effect(
                            profile,
                            Fetch::Status {
                                status,
                                redirects: 0
                            }
                        )
                        .0,
                        FetchEffect::Open(_)
                    )
                });
                assert!(some_open, "{}: no status is open", profile.name());
            }
            if cell.open.contains(&"scope") {
                let pairs = [
                    ("https://example.com/robots.txt", "https://example.com./"),
                    (
                        "https://example.com/robots.txt",
                        "https://user@example.com/",
                    ),
                    (
                        "https://www.exämple.com/robots.txt",
                        "https://xn--exmple-cua.com/",
                    ),
                ];
                assert!(
                    pairs
                        .iter()
                        .any(|(file, url)| governs(profile, file, url).governs == Governs::Open),
                    "{}: no URL's scope is open",
                    profile.name()
                );
            }
        }
    }
}

#[test]
fn the_page_shows_the_table_as_rendered() {
    let page = page();
    let (start, end) = ("<!-- reading-table -->\n", "<!-- /reading-table -->");
    let from = page
        .find(start)
        .expect("docs/profiles.md has a `<!-- reading-table -->` block")
        + start.len();
    let to = page[from..].find(end).expect("the block ends") + from;
    assert_eq!(
        &page[from..to],
        markdown(),
        "docs/profiles.md's reading table (left) differs from reading_table::markdown() (right): \
         paste the right side between the markers"
    );
}
