//! A page per parser (`parsers/<id>.html`): its identity, its pass rate per profile, its
//! fingerprint, every divergence grouped by cause (deciding checks, a minimal example, the
//! documents' sentences, real-world impact) and, per cause, a ready-to-file upstream report
//! (`reports/<id>/<cause>.md`, also shown on the page).

use robotstxt_adapters::Identity;
use robotstxt_oracle::ProfileId;

use crate::causes::Cause;
use crate::divergence::{by_cause, notes, CauseGroup};
use crate::page::{
    attr, cause_path, check_link, check_path, parser_path, pre, prose, realworld_link, shell, text,
    SitePath,
};
use crate::{impact, upstream, Inputs, RealWorld, Site};
use robotstxt_matrix::fingerprint::Standing;
use robotstxt_matrix::report::badge::{self, profile_title, thousands};
use robotstxt_prose::glossary;

/// Adds every parser's page and its upstream reports.
pub fn add(site: &mut Site, inputs: &Inputs) {
    for column in &inputs.results.adapters {
        add_one(site, inputs, &column.identity, &column.ledger);
    }
}

/// A fingerprint alternative of the dimension `label` in words (`base` is the claimed profile's
/// reading, said with its setting).
pub fn alternative_words(label: &str, alternative: &str, claimed: ProfileId) -> String {
    if alternative == "base" && robotstxt_oracle::Deviation::from_id(label).is_none() {
        return glossary::alternative_words(label, &format!("as {}", claimed.name()));
    }
    glossary::alternative_words(label, alternative)
}

/// Links to the first `max` checks of `checks` (check ids), from the page at `path`.
pub fn check_links(path: &SitePath, checks: &[String], max: usize) -> String {
    let mut out: Vec<String> = checks
        .iter()
        .take(max)
        .map(|id| {
            let (case, n) = id.rsplit_once('#').unwrap_or((id, "1"));
            let n: usize = n.parse().unwrap_or(1);
            format!(
                "<a href=\"{}\">{}</a>",
                attr(&path.to(&check_path(case, n))),
                text(id)
            )
        })
        .collect();
    if checks.len() > max {
        out.push(format!("and {} more", checks.len() - max));
    }
    out.join(", ")
}

fn add_one(site: &mut Site, inputs: &Inputs, identity: &Identity, ledger_file: &str) {
    let results = &inputs.results;
    let id = &identity.id;
    let path = SitePath(parser_path(id));
    let mut body = format!(
        "<h1>{} {}</h1>\n<p><img class=\"badge\" alt=\"\" src=\"{}\"> {}</p>\n",
        text(&identity.library),
        text(&identity.version),
        attr(&path.to(&format!("badges/{}", badge::file_name(id)))),
        text(&badge::summary_line(results, id, identity.profile)),
    );
    body.push_str("<h2>Identity</h2>\n<div class=\"table\"><table class=\"kv\">\n");
    let capabilities = format!(
        "{}; {}",
        if identity.capabilities.fetch_status {
            "takes the fetch's outcome (HTTP status)"
        } else {
            "the body alone (no fetch outcome)"
        },
        if identity.capabilities.preferences {
            "answers which AI usage preference applies"
        } else {
            "answers no AI usage preference"
        }
    );
    let url_form = match identity.url {
        robotstxt_adapters::UrlForm::Full => "the absolute URL",
        robotstxt_adapters::UrlForm::PathAndQuery => "the path and query",
    };
    for (name, value) in [
        ("adapter id", id.as_str()),
        ("library", &identity.library),
        ("version", &identity.version),
        ("language", &identity.language),
        ("licence", &identity.licence),
        ("source", &identity.source),
        ("claims", profile_title(identity.profile)),
        ("is asked with", &capabilities),
        ("is given", url_form),
        ("ledger", ledger_file),
        ("notes", &identity.notes),
    ] {
        if !value.is_empty() {
            body.push_str(&format!(
                "<tr><th>{name}</th><td>{}</td></tr>\n",
                prose(value)
            ));
        }
    }
    body.push_str("</table></div>\n");

    let summary = results.summary.iter().find(|s| &s.adapter == id);
    body.push_str("<h2>Pass rate per profile</h2>\n<div class=\"table\"><table>\n<tr><th>profile</th><th>rate</th><th>checks</th><th>agree</th><th>disagree</th><th>unsupported</th><th>failed</th></tr>\n");
    for profile in ProfileId::ALL {
        let tally = summary.and_then(|s| s.profiles.get(&profile));
        let Some(t) = tally else { continue };
        let claimed = if profile == identity.profile {
            " (claimed)"
        } else {
            ""
        };
        body.push_str(&format!(
            "<tr><td>{}{claimed}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
            profile_title(profile),
            badge::Figures::of(results, id, profile).rate(),
            thousands(t.checks as u64),
            thousands(t.agree as u64),
            if t.disagree == 0 {
                "0".to_string()
            } else {
                format!(
                    "<a href=\"{}\">{}</a>",
                    attr(&path.to(&crate::differs::path(id, profile))),
                    thousands(t.disagree as u64)
                )
            },
            thousands(t.unsupported as u64),
            thousands(t.failed as u64),
        ));
    }
    body.push_str("</table></div>\n");
    if let Some(s) = summary {
        body.push_str(&format!(
            "<p>Nearest profile: {}. Against its ledger: {} pass, {} documented divergences, {} not in the ledger, {} fixed, {} not asked.</p>\n",
            profile_title(s.nearest),
            thousands(s.ledger.pass as u64),
            thousands(s.ledger.expected.saturating_sub(s.ledger.unexplained) as u64),
            thousands(s.ledger.unexpected as u64),
            thousands(s.ledger.fixed as u64),
            thousands(s.ledger.not_applicable as u64),
        ));
    }

    if let Some(ai) = summary.and_then(|s| s.ai_usage.as_ref()) {
        body.push_str(&format!(
            "<h2 id=\"ai-usage\">AI-usage lines</h2>\n<p>Asked the checks of the cases that put \
             Content-Usage and Content-Signal lines into ordinary files, on each case's body and \
             on that body without those lines: {}.</p>\n",
            text(&ai.line())
        ));
        if !ai.changed_checks.is_empty() {
            body.push_str(&format!(
                "<p>Where the verdict changes: {}.</p>\n",
                check_links(&path, &ai.changed_checks, 10)
            ));
        }
    }

    if let Some(p) = summary.and_then(|s| s.preferences.as_ref()) {
        body.push_str(&format!(
            "<h2 id=\"preferences\">Which AI usage preference applies</h2>\n<p>The \
             <code>aipref</code> checks ask which usage preference a file's Content-Usage lines \
             attach to a URL, for a crawler and a category of use: {}.</p>\n",
            text(&p.line())
        ));
        if !p.disagreeing_checks.is_empty() {
            body.push_str(&format!(
                "<p>Where its preference differs: {}.</p>\n",
                check_links(&path, &p.disagreeing_checks, 10)
            ));
        }
    }

    body.push_str(&fingerprint_section(&path, inputs, identity));

    let ledger = inputs.ledgers.get(id);
    let groups = by_cause(results, id, ledger);
    body.push_str(&format!(
        "<h2>Divergences by cause ({})</h2>\n",
        groups.len()
    ));
    if groups.is_empty() {
        body.push_str(&format!(
            "<p>None: every check asked gets the answer {} expects.</p>\n",
            profile_title(identity.profile)
        ));
    } else {
        body.push_str("<ul>\n");
        for group in &groups {
            body.push_str(&format!(
                "<li><a href=\"#{}\">{}</a>: {} check{}</li>\n",
                attr(&group_anchor(&group.cause)),
                text(&group.cause.title()),
                group.rows.len(),
                if group.rows.len() == 1 { "" } else { "s" }
            ));
        }
        body.push_str("</ul>\n");
    }
    for group in &groups {
        body.push_str(&group_section(site, &path, inputs, identity, group));
    }

    body.push_str(&realworld_section(&path, &inputs.realworld, id));
    site.add(
        path.0.clone(),
        shell(
            &path,
            &format!("{} {}", identity.library, identity.version),
            &body,
        ),
    );
}

/// The parser's real-world section: how much it was asked, the note its rates carry when it
/// answered under 99% of its checks or files, what AI-usage lines change, and its disagreement
/// rates per profile; empty when the real-world run did not ask it.
fn realworld_section(path: &SitePath, realworld: &RealWorld, id: &str) -> String {
    let Some(tally) = realworld.adapters.get(id) else {
        return String::new();
    };
    let mut body = String::new();
    body.push_str(&format!(
        "<h2>Real world</h2>\n<p>Asked {} checks on {} real files. See <a href=\"{}\">the real-world report</a>.</p>\n",
        thousands(tally.checks),
        thousands(tally.files),
        attr(&path.to("realworld.html")),
    ));
    if let Some(note) = tally.answered_note() {
        body.push_str(&format!(
            "<p class=\"warn\">Under 99% answered: {}.</p>\n",
            text(&note)
        ));
    }
    body.push_str(&format!(
        "<p>AI-usage lines on real files ({}): {}.</p>\n",
        text(&robotstxt_realworld::report::ai_usage_files_line(realworld)),
        text(&robotstxt_realworld::report::ai_usage_line(
            &tally.ai_usage_removed
        ))
    ));
    // "N of M (share)": how many of the files or checks differ.
    let of = |part: u64, whole: u64| {
        format!(
            "{} of {} ({})",
            thousands(part),
            thousands(whole),
            robotstxt_realworld::report::percent(part, whole)
        )
    };
    let mut rows = String::new();
    for (profile, all) in &tally.against {
        let written = robotstxt_realworld::report::against_kind(
            tally,
            profile,
            robotstxt_realworld::derive::UrlKind::AsWritten,
        );
        rows.push_str(&format!(
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
            text(profile),
            of(written.files_disagree, written.files),
            of(written.disagree, written.checks),
            of(all.files_disagree, all.files),
            of(all.disagree, all.checks),
        ));
    }
    if !rows.is_empty() {
        body.push_str("<p>Where the profile is definite. <em>As written</em>: the URLs as the files write them, the question a crawler meets; <em>every derived URL</em> adds the respellings the report makes to probe normalisation (a query added, letters escaped...), which crawlers rarely meet as such.</p>\n<div class=\"table\"><table><tr><th rowspan=\"2\">against</th><th colspan=\"2\">URLs as written</th><th colspan=\"2\">every derived URL, respellings included</th></tr>\n<tr><th>files that differ</th><th>checks that differ</th><th>files that differ</th><th>checks that differ</th></tr>\n");
        body.push_str(&rows);
        body.push_str("</table></div>\n");
    }
    body
}

/// The fingerprint, in words: every dimension decided other than the claimed profile's reading,
/// then the rest folded.
fn fingerprint_section(path: &SitePath, inputs: &Inputs, identity: &Identity) -> String {
    let Some(fingerprint) = inputs
        .results
        .summary
        .iter()
        .find(|s| s.adapter == identity.id)
        .and_then(|s| s.fingerprint.as_ref())
    else {
        return String::new();
    };
    let mut differs = String::new();
    let mut same = String::new();
    for (label, standing) in &fingerprint.dimensions {
        let name = match Cause::of_label(label).and_then(|c| c.slug().map(str::to_string)) {
            Some(slug) => format!(
                "<a href=\"{}\">{}</a>",
                attr(&path.to(&cause_path(&slug))),
                text(label)
            ),
            None => text(label).into_owned(),
        };
        let (words, checks, base) = match standing {
            Standing::Undecided => ("no check decides it".to_string(), &[][..], true),
            Standing::Inconsistent { checks } => (
                "inconsistent: no one reading gives all its answers".to_string(),
                &checks[..],
                false,
            ),
            Standing::Consistent {
                alternatives,
                checks,
            } => {
                let first = alternatives.first().map_or("base", String::as_str);
                let mut words = alternative_words(label, first, fingerprint.claimed);
                if alternatives.len() > 1 {
                    words.push_str(&format!(" (or {} more)", alternatives.len() - 1));
                }
                (words, &checks[..], first == "base")
            }
        };
        let row = format!(
            "<tr><td>{name}</td><td>{}</td><td>{}</td></tr>\n",
            glossary::words_html(&words),
            check_links(path, checks, 4)
        );
        if base {
            same.push_str(&row);
        } else {
            differs.push_str(&row);
        }
    }
    let head = "<div class=\"table\"><table><tr><th>knob or deviation</th><th>reads it</th><th>deciding checks</th></tr>\n";
    let mut out = format!(
        "<h2>Fingerprint</h2>\n<p>Where its answers stand on each knob and deviation (from this run's answers). Nearest profile by definite verdicts: {}.</p>\n",
        profile_title(fingerprint.nearest)
    );
    if differs.is_empty() {
        out.push_str("<p>Everywhere a check decides, it reads as its claimed profile.</p>\n");
    } else {
        out.push_str(head);
        out.push_str(&differs);
        out.push_str("</table></div>\n");
    }
    out.push_str(&format!(
        "<details><summary>Where it reads as its claimed profile, or nothing decides</summary>{head}{same}</table></div></details>\n"
    ));
    out
}

/// The anchor of a cause's section on a parser page: the cause's report name, stable.
fn group_anchor(cause: &Cause) -> String {
    format!("cause-{}", upstream::report_name(cause))
}

/// One cause's section: what it is, the deciding checks, the minimal example with the documents'
/// sentences, the real-world impact and the upstream report.
fn group_section(
    site: &mut Site,
    path: &SitePath,
    inputs: &Inputs,
    identity: &Identity,
    group: &CauseGroup<'_>,
) -> String {
    let results = &inputs.results;
    let mut out = format!(
        "<h3 id=\"{}\">{}</h3>\n",
        attr(&group_anchor(&group.cause)),
        text(&group.cause.title())
    );
    let pages: Vec<String> = group
        .cause
        .parts()
        .into_iter()
        .filter_map(Cause::slug)
        .map(|slug| {
            format!(
                "<a href=\"{}\">{}</a>",
                attr(&path.to(&cause_path(slug))),
                text(slug)
            )
        })
        .collect();
    if !pages.is_empty() {
        out.push_str(&format!(
            "<p>What the documents say and which parsers read it which way: {}.</p>\n",
            pages.join(", ")
        ));
    }
    for reason in &group.reasons {
        out.push_str(&format!(
            "<p class=\"cite\">Ledger: {}</p>\n",
            prose(reason)
        ));
    }
    if group.unexpected > 0 {
        out.push_str(&format!(
            "<p><strong>{} of these are not in the ledger: they fail the run.</strong></p>\n",
            group.unexpected
        ));
    }
    let ids: Vec<String> = group.rows.iter().map(|r| r.check_id()).collect();
    out.push_str(&format!(
        "<p>Deciding checks ({}): {}</p>\n",
        ids.len(),
        check_links(path, &ids, 12)
    ));
    let example = group.example(results);
    out.push_str(&format!(
        "<h4>Minimal example: <a href=\"{}\">{}</a></h4>\n",
        attr(&path.to(&check_path(&example.case, example.check))),
        text(&example.check_id())
    ));
    if let Some(case) = results.cases.get(&example.case) {
        out.push_str(&pre(&case.body_visible));
        if let Some(fetch) = &case.fetch {
            out.push_str(&format!(
                "<p>Fetched with: {}</p>\n",
                text(&robotstxt_matrix::report::fetch_text(fetch))
            ));
        }
    }
    let answer = example
        .adapters
        .get(&identity.id)
        .map_or("no answer", |c| c.answer.kind());
    out.push_str(&format!(
        "<p>Agent <code>{}</code>, URL <code>{}</code>. It answers <span class=\"{answer}\">{answer}</span>; expected: {}. <a href=\"{}\">Try it in the playground</a>.</p>\n",
        text(&example.agent),
        text(&example.url),
        example
            .expected
            .iter()
            .map(|(p, v)| format!("{} <span class=\"{}\">{}</span>", profile_title(*p), v.name(), v.name()))
            .collect::<Vec<_>>()
            .join(", "),
        attr(&path.to(&check_link(&example.case, example.check))),
    ));
    for note in notes(&inputs.corpus, example) {
        out.push_str(&format!("<div class=\"cite\">{}</div>\n", prose(note)));
    }
    for part in group.cause.parts() {
        let Cause::Deviation(id) = part else {
            continue;
        };
        if let Some(d) = robotstxt_oracle::Deviation::from_id(id) {
            out.push_str(&format!("<p>{} breaks:</p><ul>\n", text(id)));
            for sentence in d.entry().breaks {
                out.push_str(&format!("<li>{}</li>\n", prose(sentence)));
            }
            out.push_str("</ul>\n");
        }
    }
    let buckets = impact::buckets(&inputs.realworld, Some(&identity.id), &group.cause);
    let impact_sentence = match group.cause {
        Cause::Unnamed(_) => {
            "Not traced to a named cause, so not counted on real files.".to_string()
        }
        _ => impact::sentence(&inputs.realworld, &buckets),
    };
    out.push_str(&format!(
        "<p>Real-world impact: {}</p>\n",
        text(&impact_sentence)
    ));
    for bucket in buckets.iter().take(3) {
        out.push_str(&format!(
            "<p class=\"muted\">Bucket <code>{}</code>: {} files; first example from <code>{}</code>, agent <code>{}</code>, URL <code>{}</code>, expected {}, answered {}. <a href=\"{}\">Open it in the playground</a>.</p>\n",
            text(&bucket.cause),
            thousands(bucket.files.count),
            text(&bucket.example.file),
            text(&bucket.example.agent),
            text(&bucket.example.url),
            text(&bucket.example.expected),
            text(&bucket.example.got),
            attr(&path.to(&realworld_link(&bucket.adapter, &bucket.cause))),
        ));
    }
    let report = upstream::report(inputs, identity, group, &impact_sentence);
    let stem = upstream::report_stem(&identity.id, &group.cause);
    out.push_str(&format!(
        "<details><summary>Upstream report, ready to file: {}</summary>\n<p><a href=\"{}\">The report as a page</a> (title and Markdown body to copy), <a href=\"{}\">as Markdown</a>, <a href=\"{}\">the robots.txt's exact octets</a>.</p>\n{}</details>\n",
        text(&report.title),
        attr(&path.to(&format!("{stem}.html"))),
        attr(&path.to(&format!("{stem}.md"))),
        attr(&path.to(&format!("{stem}.robots.txt"))),
        pre(&report.markdown)
    ));
    site.add(format!("{stem}.html"), upstream::html(&stem, &report));
    site.add(format!("{stem}.md"), report.markdown);
    site.add(format!("{stem}.robots.txt"), report.body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotstxt_realworld::derive::UrlKind;
    use robotstxt_realworld::tally::{AdapterTally, Counted};

    /// A real-world run in which the parser `x` was asked 20 checks on 2 files, and answered
    /// `checks` of them on `files` of the files.
    fn realworld(checks: u64, files: u64) -> RealWorld {
        let mut results = RealWorld::new(vec!["google".into()]);
        results.files = 2;
        results.checks = 20;
        let mut tally = AdapterTally {
            library: "x 1 (Rust)".into(),
            profile: "google".into(),
            files: 2,
            checks: 20,
            answered: Counted { checks, files },
            ..AdapterTally::default()
        };
        tally.add_compared("google", (0..10).map(|i| (UrlKind::AsWritten, Some(i > 0))));
        results.adapters.insert("x".into(), tally);
        results
    }

    #[test]
    fn a_parser_under_99_percent_answered_carries_the_warning_beside_its_rates() {
        let path = SitePath("parsers/x.html".into());
        let whole = realworld_section(&path, &realworld(20, 2), "x");
        assert!(whole.contains("<h2>Real world</h2>"), "{whole}");
        assert!(whole.contains("<table>"), "{whole}");
        assert!(!whole.contains("Under 99% answered"), "{whole}");

        let part = realworld_section(&path, &realworld(10, 1), "x");
        let warning = part
            .find("<p class=\"warn\">Under 99% answered: answered 50.0% of its checks and 50.0% of its files: its rates rest on those")
            .unwrap_or_else(|| panic!("{part}"));
        // The warning comes before the rates it qualifies.
        assert!(warning < part.find("<table>").unwrap(), "{part}");

        // A parser the real-world run did not ask has no section at all.
        assert_eq!(realworld_section(&path, &realworld(20, 2), "y"), "");
    }
}
