//! `index.html`: every parser by profile (the lines to cite and the badges), its nearest profile,
//! the corpus version and the run's date, and the exact commands that reproduce the figures.

use robotstxt_oracle::ProfileId;

use crate::page::{attr, parser_path, shell, text, SitePath};
use crate::{Inputs, Site};
use robotstxt_matrix::report::badge::{self, Figures};

/// The commands that make this site from a fresh clone, with the inputs it was made from: the
/// run's `--cases` filter and adapters, the real-world report's `--limit`, corpus and adapters (an
/// adapter list only when not every adapter was asked; a corpus other than the protego data by its
/// name, to be put in its place).
pub fn commands(inputs: &Inputs) -> Vec<String> {
    let all: Vec<&str> = robotstxt_adapters::registry::BUILTIN_IDS.to_vec();
    let adapters = |asked: Vec<&str>| -> String {
        let mut sorted = asked.clone();
        sorted.sort_unstable();
        let mut every = all.clone();
        every.sort_unstable();
        if sorted == every {
            String::new()
        } else {
            asked.iter().map(|id| format!(" --adapter {id}")).collect()
        }
    };
    let results = &inputs.results;
    let mut run = "cargo run --release -- run --out out/run".to_string();
    if let Some(filter) = &results.filter {
        run.push_str(&format!(
            " --cases {}",
            crate::upstream::shell_quote(filter)
        ));
    }
    run.push_str(&adapters(
        results
            .adapters
            .iter()
            .map(|c| c.identity.id.as_str())
            .chain(results.unavailable.iter().map(|u| u.id.as_str()))
            .collect(),
    ));
    let realworld_results = &inputs.realworld;
    let mut realworld = "cargo run --release -- realworld --out out/realworld".to_string();
    for corpus in &realworld_results.corpus {
        if !corpus.starts_with("protego-") {
            let name = robotstxt_realworld::report::corpus_label(corpus);
            realworld.push_str(&format!(
                " --corpus {}",
                crate::upstream::shell_quote(&format!("path/to/{name}"))
            ));
        }
    }
    if let Some(limit) = realworld_results.limit {
        realworld.push_str(&format!(" --limit {limit}"));
    }
    realworld.push_str(&adapters(
        realworld_results
            .adapters
            .keys()
            .chain(realworld_results.unavailable.keys())
            .map(String::as_str)
            .collect(),
    ));
    vec![
        "cargo run --release -- peers install".to_string(),
        run,
        realworld,
        "cargo run --release -- site --run out/run --realworld out/realworld --out out/site"
            .to_string(),
    ]
}

/// Adds `index.html`.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let path = SitePath("index.html".to_string());
    let results = &inputs.results;
    let mut body = String::new();
    body.push_str("<h1>robots.txt parsers against the documents</h1>\n");
    body.push_str(&format!(
        "<p>{} parsers asked {} checks of corpus {}, each judged under RFC 9309, Google's \
interpretation, the 1996 draft and the 1994 standard. Run on {} by {}.</p>\n",
        results.adapters.len(),
        badge::thousands(results.rows.len() as u64),
        text(robotstxt_spec::CORPUS_VERSION),
        text(&inputs.run_date),
        text(&results.tool),
    ));
    if let Some(filter) = &results.filter {
        body.push_str(&format!(
            "<p><strong>Only the checks whose id contains <code>{}</code> ran.</strong></p>\n",
            text(filter)
        ));
    }
    body.push_str(
        "<p>A rate is the share of the checks a parser was asked whose answer the profile expects \
(an <em>either</em> accepts both). The parser's own profile is in bold; the nearest is the profile it \
agrees with most. Under each rate, the checks where the parser's verdict differs from the profile's: \
follow it for the list, grouped by cause, each check with the documents' sentence.</p>\n<div class=\"table\"><table>\n<tr><th>parser</th>",
    );
    for profile in ProfileId::ALL {
        body.push_str(&format!("<th>{}</th>", badge::profile_title(profile)));
    }
    body.push_str("<th>nearest</th><th>divergences (in ledger / not)</th></tr>\n");
    for adapter in &results.adapters {
        let id = &adapter.identity.id;
        let Some(summary) = results.summary.iter().find(|s| &s.adapter == id) else {
            continue;
        };
        body.push_str(&format!(
            "<tr><td><a href=\"{}\">{}</a></td>",
            attr(&path.to(&parser_path(id))),
            text(id)
        ));
        for profile in ProfileId::ALL {
            let rate = Figures::of(results, id, profile).rate();
            let rate = if profile == summary.claimed {
                format!("<strong>{rate}</strong>")
            } else {
                rate
            };
            let differ = summary.profiles.get(&profile).map_or(0, |t| t.disagree);
            let differ = if differ == 0 {
                "<br><span class=\"muted\">none differ</span>".to_string()
            } else {
                format!(
                    "<br><a href=\"{}\">{} differ</a>",
                    attr(&path.to(&crate::differs::path(id, profile))),
                    badge::thousands(differ as u64)
                )
            };
            body.push_str(&format!("<td class=\"num\">{rate}{differ}</td>"));
        }
        body.push_str(&format!(
            "<td>{}</td><td class=\"num\">{} / {}</td></tr>\n",
            badge::profile_title(summary.nearest),
            summary.ledger.expected,
            summary.ledger.unexpected + summary.ledger.fixed,
        ));
    }
    body.push_str("</table></div>\n<p>Every check and every parser's answer in one table: <a href=\"matrix.html\">the matrix</a>.</p>\n<h2>Lines to cite</h2>\n<p>Each parser under the profile it claims; the badge is <code>badges/&lt;parser&gt;.svg</code>.</p>\n<ul>\n");
    for (id, line) in badge::claimed_lines(results) {
        body.push_str(&format!(
            "<li><img class=\"badge\" alt=\"\" src=\"badges/{}\"> <a href=\"{}\">{}</a>: {}</li>\n",
            attr(&badge::file_name(&id)),
            attr(&path.to(&parser_path(&id))),
            text(&id),
            text(&line),
        ));
    }
    body.push_str("</ul>\n");
    if !results.unavailable.is_empty() {
        body.push_str("<h2>Not in this run</h2>\n<ul>\n");
        for u in &results.unavailable {
            body.push_str(&format!(
                "<li><code>{}</code>: {} (fix: <code>{}</code>)</li>\n",
                text(&u.id),
                text(&robotstxt_prose::without_home(&u.reason)),
                text(&robotstxt_prose::without_home(&u.fix))
            ));
        }
        body.push_str("</ul>\n");
    }
    body.push_str(&format!(
        "<h2>Real world</h2>\n<p>The same parsers on {} real robots.txt files ({}): \
<a href=\"realworld.html\">the real-world report</a>.</p>\n",
        badge::thousands(inputs.realworld.files),
        text(&robotstxt_realworld::report::corpus_names(
            &inputs.realworld
        )),
    ));
    body.push_str("<h2>Reproduce</h2>\n<p>From a clone of the repository (README, \"Set-up\"), these commands make the figures and this site from the inputs it was made from (a corpus other than the protego data is named by its folder: put its path in place of <code>path/to/</code>):</p>\n");
    body.push_str(&crate::page::pre(&commands(inputs).join("\n")));
    body.push_str("<p>Or try one file in the <a href=\"playground.html\">playground</a>.</p>\n");
    site.add(
        path.0.clone(),
        shell(&path, "robots.txt parsers against the documents", &body),
    );
}
