//! A page per knob (`causes/K7.html`) and per deviation (`causes/D-typo-fields.html`): what the
//! documents say, which parsers take which alternative (their fingerprints and ledgers), and the
//! real-world impact. `causes/index.html` lists them.

use robotstxt_oracle::deviation::Deviation;

use crate::causes::{knob_labels, knob_numbers, knob_section, label_number, Cause};
use crate::divergence::by_cause;
use crate::page::{attr, cause_path, markdown, parser_path, prose, shell, text, SitePath};
use crate::parser::{alternative_words, check_links};
use crate::{impact, Inputs, Site};
use robotstxt_matrix::fingerprint::Standing;
use robotstxt_matrix::report::badge::thousands;

/// Adds every knob's and deviation's page and their list.
pub fn add(site: &mut Site, inputs: &Inputs) {
    let list_path = SitePath("causes/index.html".to_string());
    let mut list = String::from(
        "<h1>Knobs and deviations</h1>\n<p>A <strong>knob</strong> is a place where the documents disagree or leave a choice open (<code>docs/profiles.md</code>); a <strong>deviation</strong> is a reading no document permits (<code>docs/deviations.md</code>). Each page says what the documents say, which parsers read it which way, and how often real files meet it.</p>\n<h2>Knobs</h2>\n<ul>\n",
    );
    for number in knob_numbers() {
        let cause = Cause::Knob(number.to_string());
        list.push_str(&format!(
            "<li><a href=\"{}\">{}</a></li>\n",
            attr(&list_path.to(&cause_path(number))),
            text(&cause.title())
        ));
        add_page(site, inputs, &cause);
    }
    list.push_str("</ul>\n<h2>Deviations</h2>\n<ul>\n");
    for deviation in Deviation::ALL {
        let cause = Cause::Deviation(deviation.id().to_string());
        list.push_str(&format!(
            "<li><a href=\"{}\">{}</a></li>\n",
            attr(&list_path.to(&cause_path(deviation.id()))),
            prose(&cause.title())
        ));
        add_page(site, inputs, &cause);
    }
    list.push_str("</ul>\n");
    site.add(
        list_path.0.clone(),
        shell(&list_path, "Knobs and deviations", &list),
    );
}

/// Whether a fingerprint label belongs to this cause's page.
fn label_is(label: &str, cause: &Cause) -> bool {
    match cause {
        Cause::Knob(number) => label.starts_with('K') && label_number(label) == number,
        Cause::Deviation(id) => label == id,
        Cause::Combined(_) | Cause::Behaviour(_) | Cause::Unnamed(_) => false,
    }
}

fn add_page(site: &mut Site, inputs: &Inputs, cause: &Cause) {
    let slug = cause.slug().expect("a named cause");
    let path = SitePath(cause_path(slug));
    let mut body = format!("<h1>{}</h1>\n", prose(&cause.title()));
    body.push_str("<h2>What the documents say</h2>\n");
    match cause {
        Cause::Knob(number) => {
            let fields: Vec<&str> = knob_labels()
                .into_iter()
                .filter(|l| label_number(l) == number)
                .collect();
            body.push_str(&format!(
                "<p class=\"muted\">The oracle's fields for it: {}. From <code>docs/profiles.md</code>:</p>\n",
                text(&fields.join(", "))
            ));
            if let Some((_, section)) = knob_section(number) {
                body.push_str(&format!(
                    "<div class=\"cite\">{}</div>\n",
                    markdown(&section)
                ));
            }
        }
        Cause::Deviation(id) => {
            if let Some(d) = Deviation::from_id(id) {
                let entry = d.entry();
                body.push_str(&format!(
                    "<p>{}. No document permits it; it breaks:</p>\n<ul>\n",
                    prose(entry.summary)
                ));
                for sentence in entry.breaks {
                    body.push_str(&format!("<li>{}</li>\n", prose(sentence)));
                }
                body.push_str("</ul>\n");
            }
        }
        Cause::Combined(_) | Cause::Behaviour(_) | Cause::Unnamed(_) => {}
    }

    body.push_str("<h2>Which parsers read it which way</h2>\n<p>From each parser's fingerprint (its answers on the corpus) and the divergences its ledger puts down to it.</p>\n<div class=\"table\"><table><tr><th>parser</th><th>reads it</th><th>deciding checks</th><th>divergences put down to it</th></tr>\n");
    let results = &inputs.results;
    for column in &results.adapters {
        let id = &column.identity.id;
        let summary = results.summary.iter().find(|s| &s.adapter == id);
        let mut readings: Vec<String> = Vec::new();
        let mut checks: Vec<String> = Vec::new();
        if let Some(fingerprint) = summary.and_then(|s| s.fingerprint.as_ref()) {
            for (label, standing) in &fingerprint.dimensions {
                if !label_is(label, cause) {
                    continue;
                }
                let words = match standing {
                    Standing::Undecided => "no check decides it".to_string(),
                    Standing::Inconsistent { checks: c } => {
                        checks.extend(c.iter().cloned());
                        "inconsistent".to_string()
                    }
                    Standing::Consistent {
                        alternatives,
                        checks: c,
                    } => {
                        checks.extend(c.iter().cloned());
                        alternative_words(
                            label,
                            alternatives.first().map_or("base", String::as_str),
                            fingerprint.claimed,
                        )
                    }
                };
                let field = label.split(' ').nth(1);
                readings.push(match field {
                    Some(field) => format!("{field}: {words}"),
                    None => words,
                });
            }
        }
        checks.sort();
        checks.dedup();
        // Alone or with other knobs and deviations (a group whose id is `K6 wildcards + K7
        // encoding` counts on both pages).
        let diverging: usize = by_cause(results, id, inputs.ledgers.get(id))
            .into_iter()
            .filter(|g| g.cause.involves(cause))
            .map(|g| g.rows.len())
            .sum();
        body.push_str(&format!(
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>\n",
            attr(&path.to(&parser_path(id))),
            text(id),
            robotstxt_prose::glossary::words_html(&readings.join("; ")),
            check_links(&path, &checks, 3),
            diverging
        ));
    }
    body.push_str("</table></div>\n");

    let buckets = impact::buckets(&inputs.realworld, None, cause);
    body.push_str(&format!(
        "<h2>Real-world impact</h2>\n<p>{}</p>\n",
        text(&impact::sentence(&inputs.realworld, &buckets))
    ));
    if !buckets.is_empty() {
        body.push_str("<div class=\"table\"><table><tr><th>parser</th><th>cause found</th><th>files</th><th>checks</th><th>in its ledger</th></tr>\n");
        for bucket in &buckets {
            let has_page = results
                .adapters
                .iter()
                .any(|c| c.identity.id == bucket.adapter);
            let parser = if has_page {
                format!(
                    "<a href=\"{}\">{}</a>",
                    attr(&path.to(&parser_path(&bucket.adapter))),
                    text(&bucket.adapter)
                )
            } else {
                text(&bucket.adapter).into_owned()
            };
            body.push_str(&format!(
                "<tr><td>{parser}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                text(&bucket.cause),
                thousands(bucket.files.count),
                thousands(bucket.checks),
                if bucket.in_ledger { "yes" } else { "no" },
            ));
        }
        body.push_str("</table></div>\n");
    }
    site.add(path.0.clone(), shell(&path, &cause.title(), &body));
}
