//! The real-world results as one self-contained HTML page with charts (inline SVG, no script, no
//! outside resource). Every text that comes from a file (bodies, agents, URLs, file names, adapter
//! messages) is escaped: real robots.txt files hold HTML and scripts.

use std::fmt::Write as _;

use crate::derive::UrlKind;
use crate::report::{
    as_written_of, by_kind, headline, no_problems, percent, problems, thousands, LISTED_BUCKETS,
};
use crate::tally::{Bucket, Results};
use robotstxt_prose::glossary;
use robotstxt_prose::html::escape;

/// Width of a chart's bar area, in pixels.
const BAR_WIDTH: f64 = 420.0;

/// The page standing alone, each bucket example's corpus case inline (`realworld --format html`
/// on standard output, where no file can be written beside it).
pub fn render(results: &Results) -> String {
    page(results, "", CaseYaml::Inline)
}

/// The page as `realworld --out` writes it: each bucket example's corpus case is a file beside
/// it ([`case_files`]), linked, which keeps the page small on a large run.
pub fn render_with_case_files(results: &Results) -> String {
    page(results, "", CaseYaml::Linked)
}

/// The page with a navigation bar above it (`nav`, HTML), as the site shows it, the corpus cases
/// linked as in [`render_with_case_files`].
pub fn render_with_nav(results: &Results, nav: &str) -> String {
    page(results, nav, CaseYaml::Linked)
}

/// Where a bucket example's corpus case goes: in the page, or in a file beside it.
#[derive(Clone, Copy)]
enum CaseYaml {
    Inline,
    Linked,
}

/// The file beside the page that holds a bucket example's corpus case,
/// `realworld-cases/<adapter>-<16 hex digits>.yaml`, the digits from the SHA-256 of the case
/// itself, so the same finding keeps its file whatever else a run found; `None` when the example
/// has no case.
pub fn case_file(bucket: &Bucket) -> Option<String> {
    use sha2::{Digest, Sha256};
    if bucket.example.case_yaml.is_empty() {
        return None;
    }
    let digest = Sha256::digest(bucket.example.case_yaml.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("realworld-cases/{}-{hex}.yaml", bucket.adapter))
}

/// Every bucket example's corpus case, as (its [`case_file`] path, relative to the page, and the
/// YAML).
pub fn case_files(results: &Results) -> Vec<(String, String)> {
    results
        .buckets
        .values()
        .filter_map(|b| Some((case_file(b)?, b.example.case_yaml.clone())))
        .collect()
}

/// The page: no script may run (its content security policy allows none, and nothing from
/// outside the page but inline styles and `data:` images), readable on a phone (wide tables and
/// the charts scroll or shrink inside the page).
fn page(results: &Results, nav: &str, cases: CaseYaml) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
         <title>Real-world divergence report</title><style>{STYLE}</style></head><body>\n{nav}\n"
    );
    let _ = writeln!(out, "<h1>Real-world divergence report</h1>");
    let _ = writeln!(out, "<p id=\"headline\">{}</p>", escape(&headline(results)));
    let _ = writeln!(
        out,
        "<p>Corpus: {}{}.</p>",
        escape(&crate::report::corpus_names(results)),
        results
            .limit
            .map(|n| format!(" (at most the first {} files of each)", thousands(n)))
            .unwrap_or_default()
    );
    for (id, reason) in &results.unavailable {
        let _ = writeln!(
            out,
            "<p class=\"warn\">Not run: {}: {}</p>",
            escape(id),
            escape(&robotstxt_prose::without_home(reason))
        );
    }

    let _ = writeln!(
        out,
        "<h2 id=\"kinds\">Disagreement by kind of URL</h2>\n<p>Every parser against the profile it claims. \
         The checks ask each file about URLs made from its own rules: the paths as the file writes them \
         (the headline figure), <code>/</code> and <code>/robots.txt</code>, and respellings the derivation \
         makes to probe how a parser normalises, which crawlers rarely meet as such.</p>"
    );
    let _ = writeln!(
        out,
        "<div class=\"wrap\"><table><tr><th>kind of URL</th><th>what it is</th><th>checks compared</th><th>differ</th><th>(parser, file) pairs differ</th></tr>"
    );
    for (kind, c) in by_kind(results) {
        let _ = writeln!(
            out,
            "<tr{}><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{} of {}</td></tr>",
            if kind == UrlKind::AsWritten { " class=\"hl\"" } else { "" },
            kind.name(),
            glossary::words_html(kind.meaning()),
            thousands(c.checks),
            percent(c.disagree, c.checks),
            thousands(c.files_disagree),
            thousands(c.files)
        );
    }
    let _ = writeln!(out, "</table></div>");

    let _ = writeln!(out, "<h2 id=\"adapters\">Disagreement per parser</h2>");
    let _ = writeln!(
        out,
        "<p>Per parser, against the profile it claims, where that profile is definite: \
         <span class=\"sw\" style=\"background:{RED}\"></span> share of its verdicts on URLs as written that differ; \
         <span class=\"sw\" style=\"background:{PINK}\"></span> the same over every derived URL, respellings included; \
         <span class=\"sw\" style=\"background:{PURPLE}\"></span> share of files where it failed (crashed, erred or timed out) on at least one check. \
         A parser that fails gives no verdict there, so its failures are not in its disagreement. \
         The longest bar fills the width; the text gives the values.</p>"
    );
    let rows: Vec<ChartRow> = results
        .adapters
        .iter()
        .map(|(id, t)| {
            let all = t.against.get(&t.profile).cloned().unwrap_or_default();
            let written = as_written_of(t);
            let failed = t.failed_files.count;
            let mut label = format!(
                "{} as written ({} of files), {} all kinds",
                percent(written.disagree, written.checks),
                percent(written.files_disagree, written.files),
                percent(all.disagree, all.checks),
            );
            if failed > 0 {
                label.push_str(&format!(
                    "; failed on {} file{} ({})",
                    thousands(failed),
                    if failed == 1 { "" } else { "s" },
                    percent(failed, t.files)
                ));
            }
            let mut name = format!("{id} ({})", t.profile);
            if t.answered_too_little() {
                name.insert_str(0, "⚠ ");
                label.push_str(&format!(
                    "; under 99% answered: {} of checks, {} of files",
                    percent(t.answered.checks, t.checks),
                    percent(t.answered.files, t.files)
                ));
            }
            (
                name,
                vec![
                    (written.share(), RED),
                    (all.share(), PINK),
                    (failed as f64 / t.files.max(1) as f64, PURPLE),
                ],
                label,
            )
        })
        .collect();
    out.push_str(&format!(
        "<div class=\"wrap\">{}</div>",
        bar_chart("chart-adapters", &rows)
    ));
    let notes = crate::report::answered_notes(results);
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            "<div id=\"answered\" class=\"warn\"><p>Under 99% answered: a failure or a check \
             not asked is no answer, and these parsers' rates rest on the answers they gave.</p><ul>"
        );
        for (id, note) in notes {
            let _ = writeln!(out, "<li>⚠ {}: {}</li>", escape(id), escape(&note));
        }
        let _ = writeln!(out, "</ul></div>");
    }

    let _ = writeln!(out, "<h2 id=\"pairs\">Pairs of parsers</h2>");
    let _ = writeln!(
        out,
        "<p>Share of the checks both answered where their verdicts differ.</p>"
    );
    out.push_str(&pair_grid(results));

    let _ = writeln!(
        out,
        "<h2 id=\"credited\">Causes credited, and divergences unexplained</h2>\n<p>A bucket's \
         candidate cause is the first set of knob alternatives and deviations under which the \
         oracle gives the parser's answer on one check; its minimised example is then examined (the \
         parser asked about the example's neighbours, weighed with its answers to the file's other \
         checks), and only a cause that evidence credits counts the bucket's files. Files are \
         counted per bucket (a file may be in more than one).</p><ul>"
    );
    for line in crate::report::credit_lines(results) {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    let _ = writeln!(out, "</ul>");

    let _ = writeln!(
        out,
        "<h2 id=\"causes\">Files per bucket (candidate cause; what its example's examination found)</h2>"
    );
    let buckets = results.buckets_by_size();
    let max_files = buckets.first().map_or(1, |b| b.files.count.max(1));
    let _ = writeln!(
        out,
        "<p><span class=\"sw\" style=\"background:{RED}\"></span> files where the cause shows on a URL as written; \
         <span class=\"sw\" style=\"background:{PINK}\"></span> on any derived URL. The causes are explained in the <a href=\"#glossary\">glossary</a>.</p>"
    );
    let rows: Vec<ChartRow> = buckets
        .iter()
        .take(LISTED_BUCKETS)
        .map(|b| {
            let written = b
                .by_kind
                .get(UrlKind::AsWritten.name())
                .cloned()
                .unwrap_or_default();
            (
                format!(
                    "{}: {} ({})",
                    b.adapter,
                    b.cause,
                    crate::report::examined(&b.example)
                ),
                vec![
                    (written.files as f64 / max_files as f64, RED),
                    (b.files.count as f64 / max_files as f64, PINK),
                ],
                format!(
                    "{} files ({} as written), {} checks",
                    thousands(b.files.count),
                    thousands(written.files),
                    thousands(b.checks)
                ),
            )
        })
        .collect();
    out.push_str(&format!(
        "<div class=\"wrap\">{}</div>",
        bar_chart("chart-causes", &rows)
    ));

    let _ = writeln!(out, "<h2 id=\"buckets\">Buckets</h2>");
    let _ = writeln!(
        out,
        "<div class=\"wrap\"><table class=\"buckets\"><tr><th>adapter</th><th>candidate cause</th><th>examined</th><th>files</th><th>checks</th><th>by kind of URL</th><th>in ledger</th><th>example</th></tr>"
    );
    for b in &buckets {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}<div class=\"cite\">{}</div></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"cite\">{}</td><td>{}</td>\
             <td><details><summary><code>{}</code> asks <code>{}</code>: {} says {}, got {}</summary>\
             <div>from {} ({} octets{}), status {}</div><pre>{}</pre>{}</details></td></tr>",
            escape(&b.adapter),
            cause_html(&b.cause),
            robotstxt_prose::glossary::quotes_html(&b.citations.join("; ")),
            escape(&crate::report::examined(&b.example)),
            thousands(b.files.count),
            thousands(b.checks),
            escape(&crate::report::bucket_kinds(b)),
            if b.in_ledger { "yes" } else { "no" },
            escape(&b.example.agent),
            escape(&b.example.url),
            escape(&b.profile),
            escape(&b.example.expected),
            escape(&b.example.got),
            escape(&b.example.file),
            b.example.original_octets,
            if b.example.minimised { ", minimised" } else { ", not minimised" },
            b.example.status,
            escape(&b.example.body),
            match cases {
                CaseYaml::Inline if !b.example.case_yaml.is_empty() => format!(
                    "<div>As a corpus case:</div><pre>{}</pre>",
                    escape(&b.example.case_yaml)
                ),
                CaseYaml::Inline => String::new(),
                CaseYaml::Linked => case_file(b)
                    .map(|file| {
                        format!(
                            "<div>As a corpus case: <a href=\"{}\">{}</a></div>",
                            escape(&file),
                            escape(&file)
                        )
                    })
                    .unwrap_or_default(),
            }
        );
    }
    let _ = writeln!(out, "</table></div>");

    ai_usage_section(results, &mut out);

    let _ = writeln!(
        out,
        "<h2 id=\"failures\">Failures and nondeterminism</h2><ul>"
    );
    let problems = problems(results);
    for (id, what, files) in &problems {
        let _ = writeln!(
            out,
            "<li>{} {}: {} file(s), e.g. {}</li>",
            escape(id),
            escape(what),
            files.count,
            escape(&files.first.join(", "))
        );
    }
    if problems.is_empty() {
        let _ = writeln!(out, "<li>{}</li>", escape(&no_problems(results)));
    }
    let _ = writeln!(out, "</ul>");

    let _ = writeln!(
        out,
        "<h2 id=\"facts\">File facts</h2><div class=\"wrap\"><table><tr><th>fact</th><th>files</th><th>share</th></tr>"
    );
    for (fact, n) in &results.facts {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(fact),
            thousands(*n),
            percent(*n, results.files)
        );
    }
    let _ = writeln!(out, "</table></div>");
    let _ = writeln!(out, "<h2 id=\"oracle\">Oracle</h2><div class=\"wrap\"><table><tr><th>profile</th><th>allowed</th><th>disallowed</th><th>either</th><th>not governed</th><th>panics</th></tr>");
    for (profile, t) in &results.oracle {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(profile),
            thousands(t.allowed),
            thousands(t.disallowed),
            thousands(t.either),
            thousands(t.not_governed),
            t.panics
        );
    }
    let _ = writeln!(out, "</table></div>");
    glossary_section(results, &mut out);
    let _ = writeln!(out, "</body></html>");
    out
}

/// Question 1 of issue 38 on real files: each parser's verdicts on the files with AI-usage lines,
/// with the lines and without them.
fn ai_usage_section(results: &Results, out: &mut String) {
    use crate::report::{
        ai_usage_example, ai_usage_files_line, ai_usage_line, ai_usage_oracle_line,
    };
    let _ = writeln!(
        out,
        "<h2 id=\"ai-usage\">AI-usage lines</h2>\n<p>Does adding Content-Usage and Content-Signal \
         lines change what a crawler may fetch? Each parser is asked every check of the files that \
         carry such lines twice: on the file as it is and with those lines removed (every other \
         octet kept). A check with no verdict on either body is not compared, and counted.</p>\n\
         <p>{}.</p>",
        escape(&ai_usage_files_line(results))
    );
    if results.ai_usage.files.count == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "<p>{}.</p>\n<div class=\"wrap\"><table><tr><th>parser</th><th>removing the lines</th>\
         <th>verdicts changed</th><th>files changed</th><th>checks not compared</th></tr>",
        escape(&ai_usage_oracle_line(results))
    );
    for (id, t) in &results.adapters {
        let r = &t.ai_usage_removed;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(id),
            escape(&ai_usage_line(r)),
            percent(r.compared.disagree, r.compared.checks),
            percent(r.compared.files_disagree, r.files),
            thousands(r.not_compared_checks())
        );
    }
    let _ = writeln!(out, "</table></div>");
    let examples: Vec<String> = results
        .adapters
        .iter()
        .flat_map(|(id, t)| {
            t.ai_usage_removed.examples.iter().map(move |e| {
                format!(
                    "<li>{}: <code>{}</code></li>",
                    escape(id),
                    escape(&ai_usage_example(e))
                )
            })
        })
        .collect();
    if !examples.is_empty() {
        let _ = writeln!(
            out,
            "<p>Verdicts that change (the first of each parser):</p><ul>{}</ul>",
            examples.join("\n")
        );
    }
}

/// A cause's labels, each linked to its glossary entry, with the cause in words below.
fn cause_html(cause: &str) -> String {
    if cause == "unexplained" {
        return format!(
            "unexplained<div class=\"cite\">{}</div>",
            glossary::words_html(&glossary::cause_words(cause))
        );
    }
    let parts: Vec<String> = cause
        .split(" + ")
        .map(|part| {
            format!(
                "<a href=\"#{}\">{}</a>",
                escape(&glossary::anchor(part)),
                escape(part)
            )
        })
        .collect();
    format!(
        "{}<div class=\"words\">{}</div>",
        parts.join(" + "),
        glossary::words_html(&glossary::cause_words(cause))
    )
}

/// Every knob and deviation the buckets name, in words.
fn glossary_section(results: &Results, out: &mut String) {
    let named: Vec<&str> = results
        .buckets
        .values()
        .flat_map(|b| b.cause.split(" + "))
        .collect();
    let _ = writeln!(
        out,
        "<h2 id=\"glossary\">Glossary</h2>\n<p>A cause is the smallest set of changes to the profile's reading under which the oracle gives the parser's answer: \
         <b>K</b> numbers are knobs, places where the documents disagree or leave a choice (<code>docs/profiles.md</code>); \
         <b>D-</b> ids are deviations, readings no document permits (<code>docs/deviations.md</code>).</p><dl class=\"gl\">"
    );
    for label in glossary::labels() {
        if !named.contains(&label) {
            continue;
        }
        let _ = writeln!(
            out,
            "<dt id=\"{}\"><code>{}</code></dt><dd>{}</dd>",
            escape(&glossary::anchor(label)),
            escape(label),
            glossary::words_html(glossary::label_meaning(label).unwrap_or(""))
        );
    }
    let _ = writeln!(
        out,
        "<dt><code>unexplained</code></dt><dd>{}</dd></dl>",
        glossary::words_html(&glossary::cause_words("unexplained"))
    );
}

/// One row of [`bar_chart`]: the label, its bars (a value from 0 to 1, colour), the value text.
type ChartRow = (String, Vec<(f64, &'static str)>, String);

/// Bar colours: disagreement on URLs as written, on every derived URL, failures.
const RED: &str = "#c0392b";
const PINK: &str = "#eeb3ab";
const PURPLE: &str = "#6c3483";

/// A horizontal bar chart: per row a label, bars (a value from 0 to 1, colour) drawn one under the
/// other, and the value text. The longest bar fills the bar area (the text gives the values).
fn bar_chart(id: &str, rows: &[ChartRow]) -> String {
    let bar_height = 7.0;
    let label_width = 380.0;
    let largest = rows
        .iter()
        .flat_map(|r| r.1.iter().map(|b| b.0))
        .fold(0.0_f64, f64::max);
    let scale = if largest > 0.0 { 1.0 / largest } else { 1.0 };
    let row_height = |bars: usize| (bar_height * bars as f64).max(14.0) + 8.0;
    let height: f64 = rows.iter().map(|r| row_height(r.1.len())).sum::<f64>() + 4.0;
    let width = label_width + BAR_WIDTH + 480.0;
    let mut svg = format!(
        "<svg id=\"{id}\" class=\"chart\" role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let mut y = 2.0;
    for (label, bars, value) in rows {
        let h = row_height(bars.len());
        let middle = y + h / 2.0 + 4.0;
        let _ = write!(
            svg,
            "<g><title>{}: {}</title><text x=\"{}\" y=\"{middle}\" text-anchor=\"end\">{}</text>",
            escape(label),
            escape(value),
            label_width - 6.0,
            escape(&shortened(label, 50)),
        );
        let top = y + (h - bar_height * bars.len() as f64) / 2.0;
        let mut longest: f64 = 1.0;
        for (i, (share, colour)) in bars.iter().enumerate() {
            let w = ((share * scale).clamp(0.0, 1.0) * BAR_WIDTH).max(1.0);
            longest = longest.max(w);
            let _ = write!(
                svg,
                "<rect x=\"{label_width}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>",
                top + i as f64 * bar_height,
                bar_height - 1.0
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{middle}\">{}</text></g>",
            label_width + longest + 6.0,
            escape(value)
        );
        y += h;
    }
    svg.push_str("</svg>\n");
    svg
}

/// `text` cut to `max` characters, with `…` when cut.
fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The pairs as a grid: a cell per pair, darker the more they differ.
fn pair_grid(results: &Results) -> String {
    let ids: Vec<&String> = results.adapters.keys().collect();
    let mut out = String::from("<div class=\"wrap\"><table class=\"grid\"><tr><th></th>");
    for id in &ids {
        let _ = write!(out, "<th class=\"v\"><span>{}</span></th>", escape(id));
    }
    out.push_str("</tr>\n");
    for a in &ids {
        let _ = write!(out, "<tr><th>{}</th>", escape(a));
        for b in &ids {
            let key = if a <= b {
                format!("{a}|{b}")
            } else {
                format!("{b}|{a}")
            };
            match results.pairs.get(&key) {
                Some(t) if a != b => {
                    let share = t.disagree as f64 / t.checks.max(1) as f64;
                    let lightness = 97.0 - (share * 4.0).min(1.0) * 55.0;
                    let _ = write!(
                        out,
                        "<td style=\"background:hsl(6,70%,{lightness:.0}%)\" title=\"{} / {}: {} of {} checks, {} of files\">{}</td>",
                        escape(a),
                        escape(b),
                        percent(t.disagree, t.checks),
                        thousands(t.checks),
                        percent(t.files_disagree, t.files),
                        percent(t.disagree, t.checks)
                    );
                }
                _ => out.push_str("<td class=\"self\"></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;color:#222}\
body>h1,body>h2,body>p,body>ul,body>dl,body>div{margin-left:1.5rem;margin-right:1.5rem}\
nav{background:#1f3a5f;padding:.5em 1em;display:flex;flex-wrap:wrap;gap:.3em 1.2em}\
nav a{color:#fff;text-decoration:none;font-weight:600}\
.wrap{overflow-x:auto;max-width:100%}\
@media (max-width:40em){body>h1,body>h2,body>p,body>ul,body>dl,body>div{margin-left:.5rem;margin-right:.5rem}}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:13px}\
td.n{text-align:right}.cite{color:#666;font-size:11px;max-width:40em}pre{white-space:pre-wrap;word-break:break-all;max-width:min(70em,80vw);background:#f6f6f6;padding:4px}\
.chart text{font-size:12px;font-family:system-ui,sans-serif}.grid td{text-align:center;min-width:3.2em}.grid th.v{height:9em;vertical-align:bottom}\
.grid th.v span{writing-mode:vertical-rl;transform:rotate(180deg)}.self{background:#eee}.warn{color:#a00}\
q.ru{font-style:italic;quotes:none}.tr{color:#666;font-size:11px}sup.tr{font-size:9px}tr.hl td{background:#fff6d6;font-weight:bold}.sw{display:inline-block;width:1.4em;height:.8em;vertical-align:middle}\
.words{color:#444;font-size:12px;max-width:32em}dl.gl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dl.gl dd{margin:0}\
[id]{scroll-margin-top:1em}.buckets td:nth-child(2){min-width:14em}";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::Example;

    /// A run with one bucket whose example carries a corpus case.
    fn with_a_case() -> Results {
        let mut results = Results::new(vec!["google".into()]);
        let bucket = Bucket {
            adapter: "x".into(),
            profile: "google".into(),
            cause: "unexplained".into(),
            checks: 1,
            example: Example {
                file: "files/a.example".into(),
                agent: "FooBot".into(),
                url: "http://example.com/a".into(),
                expected: "disallowed".into(),
                got: "allowed".into(),
                body: "User-agent: *\nDisallow: /a\n".into(),
                case_yaml: "title: \"a <finding>\"\n".into(),
                ..Example::default()
            },
            ..Bucket::default()
        };
        results.buckets.insert("x unexplained".into(), bucket);
        results
    }

    /// The page stays under the site's 1.5 MB bar with a thousand buckets (rows of about 1.1 KB,
    /// as on the protego run, 1,070,641 bytes here) whose corpus cases are 3 KB each (the protego
    /// run has 432, whose cases inline made the page 1.6 MB).
    #[test]
    fn a_thousand_buckets_with_their_cases_stay_under_one_and_a_half_megabytes() {
        let mut results = with_a_case();
        let one = results.buckets["x unexplained"].clone();
        for i in 0..1000 {
            let mut bucket = one.clone();
            bucket.adapter = format!("parser-{}", i % 23);
            bucket.cause = format!("unexplained {i:016x}");
            bucket.example.case_yaml = format!("# case {i}\n{}", "note: words\n".repeat(256));
            // A row as large as the protego run's (1.1 KB on average): a body and citations.
            bucket.example.body = "User-agent: *\nDisallow: /private/\n".repeat(10);
            bucket.citations = vec!["rfc9309#2.2.2".into(), "google#url-matching".into()];
            results.buckets.insert(format!("{i}"), bucket);
        }
        let page = render_with_case_files(&results);
        assert!(page.len() < 1_500_000, "{} bytes", page.len());
        assert!(render(&results).len() > 3_000_000);
    }

    #[test]
    fn a_bucket_s_corpus_case_is_a_file_beside_the_page_named_from_the_case() {
        let results = with_a_case();
        let files = case_files(&results);
        assert_eq!(files.len(), 1);
        let (path, yaml) = &files[0];
        assert!(
            path.starts_with("realworld-cases/x-") && path.ends_with(".yaml") && path.len() == 39,
            "{path}"
        );
        assert_eq!(yaml, "title: \"a <finding>\"\n");
        // The page links it and does not hold it; the page printed alone holds it.
        let linked = render_with_case_files(&results);
        assert!(
            linked.contains(&format!("As a corpus case: <a href=\"{path}\">{path}</a>")),
            "{linked}"
        );
        assert!(!linked.contains("a &lt;finding&gt;"), "{linked}");
        let inline = render(&results);
        assert!(inline.contains("a &lt;finding&gt;") && !inline.contains(path.as_str()));
        // Another case, another name; the same case, the same name.
        let mut other = with_a_case();
        other
            .buckets
            .get_mut("x unexplained")
            .unwrap()
            .example
            .case_yaml = "title: b\n".into();
        assert_ne!(case_files(&other)[0].0, *path);
        assert_eq!(case_files(&with_a_case())[0].0, *path);
    }
}
