//! A ready-to-file upstream report, in Markdown: for one parser and one cause, the minimal
//! robots.txt, the agent and URL, what each document expects with its words, what the parser
//! answers, the corpus checks that show it and how many real files it affects.

use robotstxt_adapters::Identity;
use robotstxt_oracle::ProfileId;

use super::causes::Cause;
use super::divergence::{notes, CauseGroup};
use super::Inputs;
use crate::report::badge::{profile_title, thousands};
use crate::results::Row;

/// The octets of a body a report shows (the rest is in the case file).
const SHOWN: usize = 4096;

/// The report's Markdown.
pub fn markdown(
    inputs: &Inputs,
    identity: &Identity,
    group: &CauseGroup<'_>,
    impact: &str,
) -> String {
    let results = &inputs.results;
    let example: &Row = group.example(results);
    let claimed = identity.profile;
    let answer = example
        .adapters
        .get(&identity.id)
        .map_or("no answer", |cell| cell.answer.kind());
    let expected = example
        .expected
        .get(&claimed)
        .map_or("(none)", |v| v.name());
    let mut out = format!(
        "# {} {}: `{}` where {} expects `{}` ({})\n\n",
        identity.library,
        identity.version,
        answer,
        profile_title(claimed),
        expected,
        group.cause.title(),
    );
    out.push_str(&format!(
        "{} {} claims to follow {}. On the smallest of the {} corpus check{} where it diverges for \
this reason, it answers `{answer}` where the document expects `{expected}`.\n\n",
        identity.library,
        identity.version,
        profile_title(claimed),
        group.rows.len(),
        if group.rows.len() == 1 { "" } else { "s" },
    ));
    let body = inputs
        .corpus
        .cases
        .iter()
        .find(|c| c.id == example.case)
        .map(|c| c.body.clone())
        .unwrap_or_default();
    out.push_str("## Minimal robots.txt\n\n");
    if body.len() > SHOWN {
        let file = results
            .cases
            .get(&example.case)
            .map_or("", |c| c.path.as_str());
        out.push_str(&format!(
            "The body is {} octets (the corpus file `spec-cases/{file}` makes it); its first {} octets:\n\n",
            thousands(body.len() as u64),
            thousands(SHOWN as u64),
        ));
    }
    let body = &body[..body.len().min(SHOWN)];
    match std::str::from_utf8(body) {
        Ok(text) if !text.contains('`') && !text.chars().any(|c| c.is_control() && c != '\n') => {
            out.push_str(&format!("```\n{}\n```\n\n", text.trim_end_matches('\n')));
        }
        _ => out.push_str(&format!(
            "With invisible octets shown (`⟨CR⟩`, `⟨xFF⟩`...):\n\n```\n{}\n```\n\n",
            crate::render::visible(body, SHOWN)
        )),
    }
    if let Some(case) = results.cases.get(&example.case) {
        if let Some(fetch) = &case.fetch {
            out.push_str(&format!(
                "Fetched with: {}.\n\n",
                crate::report::fetch_text(fetch)
            ));
        }
    }
    out.push_str(&format!(
        "## Question\n\n- User agent: `{}`\n- URL: `{}`\n\n",
        example.agent, example.url
    ));
    out.push_str("## Expected, per document\n\n| document | verdict |\n|---|---|\n");
    for profile in ProfileId::ALL {
        if let Some(verdict) = example.expected.get(&profile) {
            out.push_str(&format!(
                "| {} | `{}` |\n",
                profile_title(profile),
                verdict.name()
            ));
        }
    }
    out.push_str("\nThe documents' words, as the corpus quotes them:\n\n");
    for note in notes(&inputs.corpus, example) {
        for line in note.trim().lines() {
            out.push_str(&format!("> {line}\n"));
        }
        out.push('\n');
    }
    for part in group.cause.parts() {
        let Cause::Deviation(id) = part else {
            continue;
        };
        if let Some(d) = robotstxt_oracle::Deviation::from_id(id) {
            out.push_str(&format!("The reading, {id}, breaks:\n\n"));
            for sentence in d.entry().breaks {
                out.push_str(&format!("- {sentence}\n"));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "## What {} answers\n\n`{answer}`\n\n",
        identity.library
    ));
    out.push_str(&format!(
        "## Corpus checks that show it ({})\n\n",
        thousands(group.rows.len() as u64)
    ));
    for row in group.rows.iter().take(20) {
        out.push_str(&format!("- `{}`\n", row.check_id()));
    }
    if group.rows.len() > 20 {
        out.push_str(&format!("- ... and {} more\n", group.rows.len() - 20));
    }
    out.push_str(&format!("\n## Real-world impact\n\n{impact}\n\n"));
    out.push_str(&format!(
        "Found with robotstxt-conformance (corpus {}), `{}` adapter.\n",
        robotstxt_spec::CORPUS_VERSION,
        identity.id
    ));
    out
}
