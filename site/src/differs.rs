//! Where a parser differs from a profile (`parsers/<id>/differs-from-<profile>.html`): every check
//! whose answer the profile does not expect (the checks a [`robotstxt_matrix::results::Tally`]'s `disagree`
//! counts), grouped by cause, each with the documents' sentence the verdict was written from. The
//! cause is the oracle's (`robotstxt_oracle::cause`): the smallest change to that profile's reading
//! under which it answers as the parser did, in words; for the claimed profile the ledger's reason
//! is shown beside it. The index and the parser page link each disagreement count here.

use std::collections::BTreeMap;

use robotstxt_oracle::cause::{cause_label, causes_of, Change};
use robotstxt_oracle::{ProfileId, Verdict};

use crate::causes::Cause;
use crate::divergence::notes;
use crate::page::SitePath;
use crate::page::{attr, cause_path, check_path, file_safe, parser_path, prose, shell, text};
use crate::{Inputs, Site};
use robotstxt_matrix::report::badge::{profile_title, thousands};
use robotstxt_matrix::results::Row;
use robotstxt_prose::glossary;

/// The site path of the list of checks where `adapter` differs from `profile`.
pub fn path(adapter: &str, profile: ProfileId) -> String {
    format!(
        "parsers/{}/differs-from-{}.html",
        file_safe(adapter),
        profile.name()
    )
}

/// Why the oracle, under one profile, would answer as the parser did on one check.
#[derive(Clone)]
enum Why {
    /// The smallest set of changes to the profile's reading that gives the parser's answer.
    Changes(Vec<Change>),
    /// No knob alternative or deviation (up to three together) gives it.
    Unexplained,
    /// Asked after a history of fetches: the cause search reads one fetch, so it is not asked.
    History,
}

impl Why {
    /// The group's key: the cause's label (`K4 precedence + D-typo-fields`).
    fn key(&self) -> String {
        match self {
            Why::Changes(changes) => cause_label(Some(changes)),
            Why::Unexplained => cause_label(None),
            Why::History => "history".to_string(),
        }
    }

    /// The cause in words, as HTML.
    fn words_html(&self) -> String {
        match self {
            Why::Changes(changes) => changes
                .iter()
                .map(|c| glossary::words_html(&glossary::change_words(*c)))
                .collect::<Vec<_>>()
                .join("; and "),
            Why::Unexplained => glossary::words_html(&glossary::cause_words("unexplained")),
            Why::History => {
                "asked after a history of fetches: which fetch decides is the question (the cause \
                 search reads one fetch)"
                    .to_string()
            }
        }
    }

    /// Links to the pages of the knobs and deviations it names.
    fn links(&self, path: &SitePath) -> String {
        let Why::Changes(changes) = self else {
            return String::new();
        };
        let mut out: Vec<String> = Vec::new();
        for change in changes {
            let Some(cause) = Cause::of_label(change.label()) else {
                continue;
            };
            if let Some(slug) = cause.slug() {
                let link = format!(
                    "<a href=\"{}\">{}</a>",
                    attr(&path.to(&cause_path(slug))),
                    text(&cause.title())
                );
                if !out.contains(&link) {
                    out.push(link);
                }
            }
        }
        out.join(", ")
    }
}

/// Adds a page for every (parser, profile) with a disagreement.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let whys = causes(inputs);
    for column in &inputs.results.adapters {
        let id = &column.identity.id;
        for profile in ProfileId::ALL {
            let rows: Vec<&Row> = inputs
                .results
                .rows
                .iter()
                .filter(|row| {
                    row.adapters
                        .get(id)
                        .is_some_and(|cell| row.disagrees(cell, profile))
                })
                .collect();
            if !rows.is_empty() {
                add_page(site, inputs, id, profile, &rows, &whys);
            }
        }
    }
}

/// The cause of every disagreement of every parser with every profile, by (check id, profile, the
/// parser's answer: allowed): each check's questions asked at once.
fn causes(inputs: &Inputs) -> BTreeMap<(String, ProfileId, bool), Why> {
    let mut asked: BTreeMap<String, Vec<(ProfileId, bool)>> = BTreeMap::new();
    for row in &inputs.results.rows {
        for cell in row.adapters.values() {
            for profile in ProfileId::ALL {
                if row.disagrees(cell, profile) {
                    let allowed = cell.answer.verdict() == Some(Verdict::Allowed);
                    let list = asked.entry(row.check_id()).or_default();
                    if !list.contains(&(profile, allowed)) {
                        list.push((profile, allowed));
                    }
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for case in &inputs.corpus.cases {
        for check in &case.checks {
            let id = format!("{}#{}", case.id, check.number);
            let Some(asks) = asked.get(&id) else {
                continue;
            };
            let whys: Vec<Why> = if case.fetches.is_empty() {
                let request = robotstxt_matrix::verify::request(case, check);
                causes_of(&request, asks)
                    .into_iter()
                    .map(|cause| cause.map_or(Why::Unexplained, Why::Changes))
                    .collect()
            } else {
                vec![Why::History; asks.len()]
            };
            for (&(profile, allowed), why) in asks.iter().zip(whys) {
                out.insert((id.clone(), profile, allowed), why);
            }
        }
    }
    out
}

fn add_page(
    site: &mut Site,
    inputs: &Inputs,
    adapter: &str,
    profile: ProfileId,
    rows: &[&Row],
    whys: &BTreeMap<(String, ProfileId, bool), Why>,
) {
    let path = SitePath(path(adapter, profile));
    let claimed = inputs
        .results
        .adapters
        .iter()
        .find(|c| c.identity.id == adapter)
        .map(|c| c.identity.profile);
    let mut groups: BTreeMap<String, (Why, Vec<&Row>)> = BTreeMap::new();
    for row in rows {
        let cell = &row.adapters[adapter];
        let allowed = cell.answer.verdict() == Some(Verdict::Allowed);
        let why = whys
            .get(&(row.check_id(), profile, allowed))
            .cloned()
            .unwrap_or(Why::Unexplained);
        groups
            .entry(why.key())
            .or_insert_with(|| (why, Vec::new()))
            .1
            .push(row);
    }
    let mut groups: Vec<(Why, Vec<&Row>)> = groups.into_values().collect();
    groups.sort_by_key(|(why, rows)| (std::cmp::Reverse(rows.len()), why.key()));

    let title = format!("Where {adapter} differs from {}", profile_title(profile));
    let mut body = format!(
        "<h1>{}</h1>\n<p><a href=\"{}\">{}</a> answers {} check{} otherwise than {} expects{}. \
Grouped by cause: the smallest change to {}'s reading under which the oracle answers as the parser \
did (a knob's other setting, or a deviation no document permits). Each check gives the sentence its \
verdict was written from.</p>\n",
        text(&title),
        attr(&path.to(&parser_path(adapter))),
        text(adapter),
        thousands(rows.len() as u64),
        if rows.len() == 1 { "" } else { "s" },
        profile_title(profile),
        if claimed == Some(profile) {
            ", the profile it claims"
        } else {
            ", a profile it does not claim"
        },
        profile_title(profile),
    );
    body.push_str("<ul>\n");
    for (n, (why, rows)) in groups.iter().enumerate() {
        body.push_str(&format!(
            "<li><a href=\"#cause-{}\">{}</a>: {} check{}</li>\n",
            n + 1,
            why.words_html(),
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        ));
    }
    body.push_str("</ul>\n");
    for (n, (why, rows)) in groups.iter().enumerate() {
        body.push_str(&format!(
            "<section id=\"cause-{}\">\n<h2>{}</h2>\n",
            n + 1,
            why.words_html()
        ));
        let links = why.links(&path);
        if !links.is_empty() {
            body.push_str(&format!(
                "<p class=\"muted\">What the documents say and which parsers read it which way: {links}.</p>\n"
            ));
        }
        body.push_str("<ul class=\"checks\">\n");
        let mut previous: Option<&str> = None;
        for row in rows {
            let note = notes(&inputs.corpus, row).last().copied();
            let same = note.is_some() && note == previous;
            body.push_str(&check_item(
                &path, adapter, profile, claimed, row, note, same,
            ));
            previous = note;
        }
        body.push_str("</ul>\n</section>\n");
    }
    site.add(path.0.clone(), shell(&path, &title, &body));
}

/// One check: its link, question, the parser's answer, the profile's verdict and the sentence
/// (`note`: the check's, else its case's; said once when checks in a row share it).
fn check_item(
    path: &SitePath,
    adapter: &str,
    profile: ProfileId,
    claimed: Option<ProfileId>,
    row: &Row,
    note: Option<&str>,
    same_as_above: bool,
) -> String {
    let cell = &row.adapters[adapter];
    let answer = cell.answer.kind();
    let expected = row.expected.get(&profile).map_or("", |v| v.name());
    let mut out = format!(
        "<li><a href=\"{}\">{}</a>: agent <code>{}</code>, URL <code>{}</code>{}: it answers \
<span class=\"{answer}\">{answer}</span>, {} expects <span class=\"{expected}\">{expected}</span>.",
        attr(&path.to(&check_path(&row.case, row.check))),
        text(&row.check_id()),
        text(&row.agent),
        text(&row.url),
        row.at
            .as_ref()
            .map(|at| format!(" at {}", text(at)))
            .unwrap_or_default(),
        profile_title(profile),
    );
    if claimed == Some(profile) {
        if let Some(reason) = &cell.reason {
            out.push_str(&format!(" Its ledger: {}", prose(reason)));
        }
    }
    match note {
        Some(_) if same_as_above => {
            out.push_str("<div class=\"cite muted\">The same sentence as the check above.</div>")
        }
        Some(note) => out.push_str(&format!(
            "<div class=\"cite\">{}</div>",
            glossary::quotes_html(note)
        )),
        None => {}
    }
    out.push_str("</li>\n");
    out
}
