//! The cases' notes and the reading table (`robotstxt_oracle::reading_table`, rendered in
//! `docs/profiles.md`) say the same thing. A note states a reading by naming the table's question
//! after the clause that states it: `RFC 9309 is open where ... (profiles.md K7, hex-case)`. Each
//! such name must be a question of that knob's section, and the documents the clause names must
//! read the question as the clause says: open (in part at least) where it says `open` (or
//! `either`), decided by their words where it does not. A note that names only a knob
//! (`profiles.md K13`) must name a knob section.

use std::path::PathBuf;

use robotstxt_conformance::cases::Corpus;
use robotstxt_oracle::reading_table::{question, Basis, TABLE};
use robotstxt_oracle::ProfileId;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One reading a note states: the knob, the question when named, and the clause before it.
#[derive(Debug, PartialEq, Eq)]
struct Stated {
    knob: String,
    question: Option<String>,
    clause: String,
}

/// `text` with quotations (`"..."`) and parentheticals (`(...)`, nested) blanked out, so that the
/// words quoted from a document or said in passing neither end a clause nor name a document.
fn own_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut depth, mut quoted) = (0usize, false);
    for c in text.chars() {
        match c {
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(' ');
            }
            '(' if !quoted => {
                depth += 1;
                out.push(' ');
            }
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if quoted || depth > 0 => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The clause that ends right before byte `at` of `text`: back to the last sentence end, `;`,
/// `:`, or ` so `, ` while `, ` but `, in the note's own words.
fn clause_before(text: &str, at: usize) -> String {
    let own = own_words(&text[..at]);
    let start = [". ", "; ", ": ", " so ", " while ", " but "]
        .iter()
        .filter_map(|b| own.rfind(b).map(|i| i + b.len()))
        .max()
        .unwrap_or(0);
    own[start..].trim().to_string()
}

/// Every reading `note` states.
fn stated(note: &str) -> Vec<Stated> {
    let mut found = Vec::new();
    let marker = "profiles.md K";
    let mut from = 0;
    while let Some(at) = note[from..].find(marker) {
        let start = from + at;
        let rest = &note[start + marker.len()..];
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        from = start + marker.len();
        if digits == 0 {
            continue;
        }
        let knob = format!("K{}", &rest[..digits]);
        let after = &rest[digits..];
        let question = after.strip_prefix(", ").and_then(|tail| {
            let len = tail
                .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
                .unwrap_or(tail.len());
            // A question's name ends the reference; a word followed by more words is prose.
            let next = tail[len..].chars().next();
            (len > 0 && matches!(next, None | Some(')' | ';' | '.' | ',')))
                .then(|| tail[..len].to_string())
        });
        // The clause ends where the reference's parenthesis (or its `docs/`) opens.
        let opening = note[..start]
            .trim_end_matches("docs/")
            .trim_end()
            .trim_end_matches('(')
            .len();
        found.push(Stated {
            knob,
            question,
            clause: clause_before(note, opening),
        });
    }
    found
}

/// The documents a clause names, in the note's own words, word by word (`Googlebot` is no
/// mention of Google).
fn documents_named(clause: &str) -> Vec<ProfileId> {
    // Citations (`rfc9309#2.2.2`) name a sentence, not the document whose reading is stated.
    let words: Vec<&str> = clause
        .split_whitespace()
        .filter(|w| !w.contains('#'))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .map(|w| w.trim_end_matches("'s"))
        .collect();
    let mut named = Vec::new();
    let mut add = |p| {
        if !named.contains(&p) {
            named.push(p)
        }
    };
    for (i, word) in words.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| words[j]);
        if *word == "rfc9309" || (*word == "9309" && before == Some("RFC")) {
            add(ProfileId::Rfc9309);
        }
        if *word == "Google" || *word == "google" {
            add(ProfileId::Google);
        }
        if word.contains("1996")
            || *word == "Guide"
            || (*word == "draft" && matches!(before, Some("the" | "The")))
        {
            add(ProfileId::Draft1996);
        }
        if word.contains("1994") {
            add(ProfileId::Original1994);
        }
    }
    named
}

/// Whether a clause says the reading is open.
fn says_open(clause: &str) -> bool {
    clause
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w == "open" || w == "either")
}

#[test]
fn references_are_read_as_intended() {
    let note = "Google says nothing of %3c (a ".to_string()
        + "quoted \"so\"), so Google is open there (profiles.md K7, hex-case). The 1996 draft \
           reads it (docs/profiles.md K13, as for white space).";
    let found = stated(&note);
    assert_eq!(
        found,
        [
            Stated {
                knob: "K7".into(),
                question: Some("hex-case".into()),
                clause: "Google is open there".into()
            },
            Stated {
                knob: "K13".into(),
                question: None,
                clause: "The 1996 draft reads it".into()
            }
        ]
    );
    assert_eq!(documents_named(&found[0].clause), [ProfileId::Google]);
    assert!(says_open(&found[0].clause));
    assert!(!says_open(&found[1].clause));
}

#[test]
fn every_reading_a_note_states_is_the_tables() {
    let corpus = Corpus::load(&root().join("spec-cases")).expect("the corpus loads");
    let knobs: Vec<&str> = TABLE.iter().map(|q| q.knob).collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for case in &corpus.cases {
        let notes = case.note.iter().map(|n| (String::new(), n)).chain(
            case.checks
                .iter()
                .filter_map(|c| c.note.as_ref().map(|n| (format!("#{}", c.number), n))),
        );
        for (check, note) in notes {
            for stated in stated(note) {
                let at = format!("{}{check}", case.id);
                let Some(id) = &stated.question else {
                    if !knobs.contains(&stated.knob.as_str()) {
                        problems.push(format!(
                            "{at}: `profiles.md {}` names no knob of the reading table",
                            stated.knob
                        ));
                    }
                    continue;
                };
                let Some(q) = question(id) else {
                    problems.push(format!("{at}: `{id}` is no question of the reading table"));
                    continue;
                };
                if q.knob != stated.knob {
                    problems.push(format!(
                        "{at}: `{id}` is a question of {}, not {}",
                        q.knob, stated.knob
                    ));
                }
                let open = says_open(&stated.clause);
                for profile in documents_named(&stated.clause) {
                    checked += 1;
                    // An open clause needs an open cell; a settled one a cell whose words decide
                    // (a cell that says and leaves a remainder open settles what it says).
                    let cell = q.cell(profile);
                    let agrees = if open {
                        cell.is_open()
                    } else {
                        matches!(cell.basis, Basis::Says(_) | Basis::Guide(_))
                    };
                    if !agrees {
                        problems.push(format!(
                            "{at}: \"{}\" says {} {} on `{id}`, where the reading table says \
                             it is {}: {}",
                            stated.clause,
                            profile.name(),
                            if open { "is open" } else { "settles it" },
                            if open { "settled" } else { "open" },
                            cell.reading
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} stated readings checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
