//! `docs/profiles.md` and the knobs table (`robotstxt_oracle::knobs`) say the same thing: every knob
//! field's number and name are a heading of the page, each document leaves open in the page's
//! words exactly the knobs the table opens for it, and every row cites a section of its own
//! document that the page cites too.

use std::collections::BTreeSet;

use robotstxt_oracle::knobs::{KnobId, OPEN_KNOBS};
use robotstxt_oracle::ProfileId;

/// The page, read from the repository.
fn page() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/profiles.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The knob sections of the page: (number, name, text), from `## The knobs` to the next `## `.
fn knob_sections(page: &str) -> Vec<(String, String, String)> {
    let start = page
        .find("\n## The knobs")
        .expect("a `## The knobs` chapter");
    let chapter = &page[start + 1..];
    let end = chapter[1..]
        .find("\n## ")
        .map_or(chapter.len(), |at| at + 1);
    let mut sections = Vec::new();
    for part in chapter[..end].split("\n### ").skip(1) {
        let heading = part.lines().next().unwrap_or("");
        let (number, rest) = heading.split_once(' ').unwrap_or((heading, ""));
        let name = rest.split('`').nth(1).unwrap_or("").to_string();
        sections.push((number.to_string(), name, part.to_string()));
    }
    sections
}

/// The profiles a section's bullets say are open: each `**Open**` (any case) belongs to the
/// profiles named right after it (`**Open** for `rfc9309`, `draft-1996` and ...`), else to the
/// nearest profile named before it in its bullet.
fn open_profiles(section: &str) -> BTreeSet<ProfileId> {
    let mut bullets: Vec<String> = Vec::new();
    for line in section.lines() {
        if let Some(rest) = line.strip_prefix("- ") {
            bullets.push(rest.to_string());
        } else if line.starts_with("  ") && !bullets.is_empty() {
            let last = bullets.last_mut().expect("a bullet");
            last.push(' ');
            last.push_str(line.trim());
        } else if !line.trim().is_empty() {
            // A paragraph or a table ends the bullet before it.
            bullets.push(String::new());
        }
    }
    let named = |text: &str| -> Vec<(usize, ProfileId)> {
        ProfileId::ALL
            .into_iter()
            .flat_map(|p| {
                let code = format!("`{}`", p.name());
                text.match_indices(&code)
                    .map(|(at, _)| (at, p))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let mut open = BTreeSet::new();
    for bullet in &bullets {
        let lower = bullet.to_lowercase();
        for (at, _) in lower.match_indices("**open**") {
            let after = &bullet[at + "**open**".len()..];
            if let Some(list) = after.strip_prefix(" for ") {
                let list = list.split(['.', ':', '(']).next().unwrap_or("");
                let profiles = named(list);
                assert!(
                    !profiles.is_empty(),
                    "`**Open** for` names no profile: {bullet}"
                );
                open.extend(profiles.into_iter().map(|(_, p)| p));
                continue;
            }
            let before = named(&bullet[..at]);
            let nearest = before.into_iter().max_by_key(|&(at, _)| at);
            let (_, profile) =
                nearest.unwrap_or_else(|| panic!("an open point names no profile: {bullet}"));
            open.insert(profile);
        }
    }
    open
}

/// The documents a profile's citations may name (`docs/profiles.md`, the profiles table).
fn documents(profile: ProfileId) -> &'static [&'static str] {
    match profile {
        ProfileId::Rfc9309 => &["rfc9309"],
        ProfileId::Google => &["google"],
        ProfileId::Draft1996 => &["draft-1996", "guide-ch9"],
        ProfileId::Original1994 => &["norobots-1994"],
    }
}

#[test]
fn every_knob_field_is_a_heading_of_the_page() {
    let sections = knob_sections(&page());
    for knob in KnobId::ALL {
        assert!(
            sections
                .iter()
                .any(|(number, name, _)| number == knob.number() && name == knob.docs_name()),
            "{:?}: no heading `### {} `{}`` in docs/profiles.md",
            knob,
            knob.number(),
            knob.docs_name()
        );
    }
}

#[test]
fn the_page_and_the_table_open_the_same_knobs_for_the_same_documents() {
    let sections = knob_sections(&page());
    let numbers: BTreeSet<&str> = KnobId::ALL.iter().map(|k| k.number()).collect();
    let mut in_page = BTreeSet::new();
    for (number, _, text) in &sections {
        if numbers.contains(number.as_str()) {
            for profile in open_profiles(text) {
                in_page.insert((number.clone(), profile));
            }
        }
    }
    let in_table: BTreeSet<(String, ProfileId)> = OPEN_KNOBS
        .iter()
        .map(|row| (row.knob.number().to_string(), row.profile))
        .collect();
    assert_eq!(
        in_page, in_table,
        "docs/profiles.md's open knobs (left) against robotstxt_oracle::knobs::OPEN_KNOBS (right)"
    );
}

#[test]
fn every_row_cites_its_own_document_as_the_page_does() {
    let page = page();
    for row in OPEN_KNOBS {
        let document = row.citation.split('#').next().unwrap_or("");
        assert!(
            documents(row.profile).contains(&document),
            "{} {}: {} is not {}'s document",
            row.profile.name(),
            row.name,
            row.citation,
            row.profile.name()
        );
        assert!(
            page.contains(&format!("`{}`", row.citation)),
            "{} {}: docs/profiles.md never cites {}",
            row.profile.name(),
            row.name,
            row.citation
        );
    }
}

#[test]
fn every_row_sets_its_own_knob_to_another_reading() {
    for row in OPEN_KNOBS {
        let base = row.profile.base_knobs();
        assert!(!row.alternatives.is_empty(), "{}", row.name);
        for &alternative in row.alternatives {
            assert_eq!(alternative.knob(), row.knob, "{} {alternative:?}", row.name);
            assert_ne!(
                alternative.apply(base),
                base,
                "{} {alternative:?}",
                row.name
            );
        }
    }
}
