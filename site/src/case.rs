//! A page per case (`cases/<case-id>.html`, a permanent URL) with an anchor per check whose id is
//! the check id, as in `matrix.html` (`rfc9309/longest-match/allow-wins-tie#2`): the body, the
//! documents' words, every parser's answer and the oracle's explanation. `cases/index.html` lists
//! them.

use std::collections::{BTreeMap, BTreeSet};

use robotstxt_oracle::ProfileId;

use crate::page::{attr, case_path, check_link, parser_path, pre, prose, shell, text, SitePath};
use crate::{Inputs, Site};
use robotstxt_matrix::cases::Case;
use robotstxt_matrix::report::badge::profile_title;
use robotstxt_matrix::results::{Row, Status};

/// A status in words.
pub fn status_words(status: Status) -> &'static str {
    match status {
        Status::Pass => "as its profile expects",
        Status::ExpectedDivergence => "diverges (in its ledger)",
        Status::UnexpectedDivergence => "diverges (not in its ledger)",
        Status::FixedDivergence => "passes, but its ledger lists a divergence",
        Status::NotApplicable => "not asked",
    }
}

/// The class of a status (its colour).
fn status_class(status: Status) -> &'static str {
    match status {
        Status::Pass => "pass",
        Status::ExpectedDivergence => "expected-divergence",
        Status::UnexpectedDivergence => "unexpected-divergence",
        Status::FixedDivergence => "fixed-divergence",
        Status::NotApplicable => "not-applicable",
    }
}

/// Adds every case's page and the case list: the cases `run` asked (from its rows) and the cases
/// that ask only the `aipref` reading's question, which no parser is asked.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let mut rows: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in &inputs.results.rows {
        rows.entry(&row.case).or_default().push(row);
    }
    let preference_only: BTreeMap<&str, &Case> = inputs
        .corpus
        .cases
        .iter()
        .filter(|c| !c.preferences.is_empty() && !rows.contains_key(c.id.as_str()))
        .map(|c| (c.id.as_str(), c))
        .collect();
    let ids: BTreeSet<&str> = rows.keys().chain(preference_only.keys()).copied().collect();
    let list_path = SitePath("cases/index.html".to_string());
    let mut list = format!(
        "<h1>Cases</h1>\n<p>{} cases of corpus {}, each with its checks. A case's page is its permanent URL; each check has an anchor named by its check id.</p>\n",
        ids.len(),
        text(robotstxt_spec::CORPUS_VERSION)
    );
    let mut section = "";
    for case_id in ids {
        let top = case_id.split('/').next().unwrap_or("");
        if top != section {
            if !section.is_empty() {
                list.push_str("</ul>\n");
            }
            list.push_str(&format!("<h2>{}</h2>\n<ul>\n", text(top)));
            section = top;
        }
        let title = match inputs.results.cases.get(case_id) {
            Some(info) => info.title.as_str(),
            None => preference_only
                .get(case_id)
                .map_or("", |c| c.title.as_str()),
        };
        list.push_str(&format!(
            "<li><a href=\"{}\">{}</a>: {}</li>\n",
            attr(&list_path.to(&case_path(case_id))),
            text(case_id),
            prose(title)
        ));
        match (rows.get(case_id), preference_only.get(case_id)) {
            (Some(case_rows), _) => add_case(site, inputs, case_id, case_rows),
            (None, Some(case)) => add_preference_case(site, inputs, case),
            (None, None) => unreachable!("every id comes from one of the two maps"),
        }
    }
    if !section.is_empty() {
        list.push_str("</ul>\n");
    }
    site.add(list_path.0.clone(), shell(&list_path, "Cases", &list));
}

/// The page of a case whose checks ask the `aipref` reading which usage preference applies
/// (docs/profiles.md, "The `aipref` reading"): the body, the drafts' words, and per check what the
/// case expects and what the reading answers, with its explanation, and what the parsers of the
/// run answered (those whose adapter has the `preferences` capability).
fn add_preference_case(site: &mut Site, inputs: &Inputs, case: &Case) {
    let path = SitePath(case_path(&case.id));
    let cites: Vec<String> = case.cite.iter().map(ToString::to_string).collect();
    let mut body = format!(
        "<h1>{}</h1>\n<p>{}</p>\n<p class=\"muted\">File <code>spec-cases/{}</code>; cites {}{}.</p>\n",
        text(&case.id),
        prose(&case.title),
        text(
            &case
                .path
                .strip_prefix(&inputs.corpus.root)
                .unwrap_or(&case.path)
                .display()
                .to_string()
        ),
        text(&cites.join(", ")),
        if case.tags.is_empty() {
            String::new()
        } else {
            format!("; tags {}", text(&case.tags.join(", ")))
        }
    );
    if let Some(note) = case.note.as_deref() {
        body.push_str(&format!("<div class=\"cite\">{}</div>\n", prose(note)));
    }
    body.push_str(&format!(
        "<p>Each check asks which usage preference the <code>aipref</code> reading of the AI \
         Preferences drafts attaches to the URL for the crawler and the category of use: \
         <code>y</code>, <code>n</code>, <code>none</code>, or <code>either</code> where the \
         drafts are open. A parser is asked it only when its adapter announces the \
         <code>preferences</code> capability (<code>adapters/PROTOCOL.md</code>).</p>\n\
         <h2>Body ({} octets)</h2>\n{}<h2>Checks</h2>\n",
        case.body.len(),
        pre(&robotstxt_matrix::verify::visible_bodies(case))
    ));
    for check in &case.preferences {
        let id = format!("{}#{}", case.id, check.number);
        let outcome = robotstxt_matrix::verify::run_preference(case, check);
        let answer = outcome.explanation.preference.name();
        body.push_str(&format!(
            "<section id=\"{}\">\n<h3><a href=\"#{}\">#{}</a>: agent <code>{}</code>, URL <code>{}</code>, category <code>{}</code></h3>\n",
            attr(&id),
            attr(&id),
            check.number,
            text(&check.agent),
            text(&check.url),
            text(&check.category),
        ));
        if let Some(note) = check.note.as_deref() {
            body.push_str(&format!("<div class=\"cite\">{}</div>\n", prose(note)));
        }
        body.push_str(&format!(
            "<p>The case expects <strong>{}</strong>; the <code>aipref</code> reading answers <strong>{}</strong>{}.</p>\n\
             <details><summary>The reading's explanation</summary>\n{}</details>\n",
            check.expect.name(),
            answer,
            if outcome.passed() { "" } else { " (differs from the corpus)" },
            pre(&outcome.explanation.text())
        ));
        body.push_str(&preference_answers(inputs, &case.id, check.number));
        body.push_str("</section>\n");
    }
    site.add(path.0.clone(), shell(&path, &case.id, &body));
}

/// What the parsers of the run answered to one `aipref` check: those asked, with their answer
/// against the case's expectation; those not asked, counted with why.
fn preference_answers(inputs: &Inputs, case_id: &str, number: usize) -> String {
    let row = inputs
        .results
        .preference_rows
        .iter()
        .find(|r| r.case == case_id && r.check == number);
    let Some(row) = row else {
        return "<p class=\"muted\">The run that built this site did not ask this check.</p>\n"
            .to_string();
    };
    let mut asked = String::new();
    let mut not_asked = 0;
    for (adapter, cell) in &row.adapters {
        if !cell.asked {
            not_asked += 1;
            continue;
        }
        let standing = if cell.answer.agrees_with_preference(row.expected) {
            "as the case expects"
        } else {
            "differs from the case"
        };
        asked.push_str(&format!(
            "<li><b>{}</b>: {} ({standing})</li>\n",
            text(adapter),
            text(&cell.answer.to_string())
        ));
    }
    let mut out = String::new();
    if !asked.is_empty() {
        out.push_str(&format!("<ul>\n{asked}</ul>\n"));
    }
    if not_asked > 0 {
        out.push_str(&format!(
            "<p class=\"muted\">{not_asked} parser{} of the run {} not asked: {} no \
             <code>preferences</code> capability, or the check needs what {} adapter lacks.</p>\n",
            if not_asked == 1 { "" } else { "s" },
            if not_asked == 1 { "was" } else { "were" },
            if not_asked == 1 {
                "it announces"
            } else {
                "they announce"
            },
            if not_asked == 1 { "its" } else { "their" },
        ));
    }
    out
}

fn add_case(site: &mut Site, inputs: &Inputs, case_id: &str, rows: &[&Row]) {
    let results = &inputs.results;
    let path = SitePath(case_path(case_id));
    let info = results.cases.get(case_id);
    let case = inputs.corpus.cases.iter().find(|c| c.id == case_id);
    let mut body = format!("<h1>{}</h1>\n", text(case_id));
    if let Some(info) = info {
        body.push_str(&format!("<p>{}</p>\n", prose(&info.title)));
        body.push_str(&format!(
            "<p class=\"muted\">File <code>spec-cases/{}</code>; cites {}{}.</p>\n",
            text(&info.path),
            text(&info.cite.join(", ")),
            if info.tags.is_empty() {
                String::new()
            } else {
                format!("; tags {}", text(&info.tags.join(", ")))
            }
        ));
    }
    if let Some(note) = case.and_then(|c| c.note.as_deref()) {
        body.push_str(&format!("<div class=\"cite\">{}</div>\n", prose(note)));
    }
    if let Some(info) = info {
        if let Some(url) = &info.robots_url {
            body.push_str(&format!(
                "<p>Fetched from <code>{}</code>.</p>\n",
                text(url)
            ));
        }
        if let Some(fetch) = &info.fetch {
            body.push_str(&format!(
                "<p>Fetch: {}.</p>\n",
                text(&robotstxt_matrix::report::fetch_text(fetch))
            ));
        }
        body.push_str(&format!(
            "<h2>Body ({} octets)</h2>\n{}",
            info.body_len,
            pre(&info.body_visible)
        ));
    }
    body.push_str("<h2>Checks</h2>\n");
    for row in rows {
        body.push_str(&check_section(&path, inputs, case, row));
    }
    site.add(path.0.clone(), shell(&path, case_id, &body));
}

fn check_section(
    path: &SitePath,
    inputs: &Inputs,
    case: Option<&robotstxt_matrix::cases::Case>,
    row: &Row,
) -> String {
    let id = row.check_id();
    let mut out = format!(
        "<section id=\"{}\">\n<h3><a href=\"#{}\">#{}</a>: agent <code>{}</code>, URL <code>{}</code>{}</h3>\n",
        attr(&id),
        attr(&id),
        row.check,
        text(&row.agent),
        text(&row.url),
        row.at
            .as_ref()
            .map(|at| format!(", asked at {}", text(at)))
            .unwrap_or_default()
    );
    if let Some(note) = case
        .and_then(|c| c.checks.iter().find(|k| k.number == row.check))
        .and_then(|k| k.note.as_deref())
    {
        out.push_str(&format!("<div class=\"cite\">{}</div>\n", prose(note)));
    }
    out.push_str(
        "<div class=\"table\"><table><tr><th>profile</th><th>expected</th><th>oracle</th></tr>\n",
    );
    for profile in ProfileId::ALL {
        let expected = row.expected.get(&profile).map_or("", |v| v.name());
        let oracle = row.oracle.get(&profile);
        out.push_str(&format!(
            "<tr><td>{}</td><td><span class=\"{expected}\">{expected}</span></td><td>{}</td></tr>\n",
            profile_title(profile),
            oracle.map_or(String::new(), |o| format!(
                "<span class=\"{0}\">{0}</span>{1}",
                o.verdict.name(),
                if o.agrees { "" } else { " (differs from the corpus)" }
            )),
        ));
    }
    out.push_str("</table></div>\n<details><summary>The oracle's explanations</summary>\n");
    for profile in ProfileId::ALL {
        if let Some(o) = row.oracle.get(&profile) {
            out.push_str(&pre(&o.explanation));
        }
    }
    out.push_str("</details>\n");
    if row.at.is_none() {
        out.push_str(&format!(
            "<p><a href=\"{}\">Open this check in the playground</a></p>\n",
            attr(&path.to(&check_link(&row.case, row.check)))
        ));
    }
    out.push_str("<details open><summary>Every parser's answer</summary><div class=\"table\"><table><tr><th>parser</th><th>claims</th><th>answer</th><th>standing</th></tr>\n");
    for column in &inputs.results.adapters {
        let aid = &column.identity.id;
        let Some(cell) = row.adapters.get(aid) else {
            continue;
        };
        let detail = cell
            .answer
            .detail()
            .map(|d| format!(": {}", text(d)))
            .unwrap_or_default();
        out.push_str(&format!(
            "<tr class=\"{}\"><td><a href=\"{}\">{}</a></td><td>{}</td><td><span class=\"{kind}\">{kind}</span>{detail}</td><td>{}{}</td></tr>\n",
            status_class(cell.status),
            attr(&path.to(&parser_path(aid))),
            text(aid),
            profile_title(column.identity.profile),
            status_words(cell.status),
            cell.reason
                .as_ref()
                .map(|r| format!(": {}", prose(r)))
                .unwrap_or_default(),
            kind = cell.answer.kind(),
        ));
    }
    out.push_str("</table></div></details>\n</section>\n");
    out
}
