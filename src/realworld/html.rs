//! The real-world results as one self-contained HTML page with charts (inline SVG, no script, no
//! outside resource). Every text that comes from a file (bodies, agents, URLs, file names, adapter
//! messages) is escaped: real robots.txt files hold HTML and scripts.

use std::fmt::Write as _;

use super::report::{headline, no_problems, percent, problems, thousands, LISTED_BUCKETS};
use super::tally::Results;
use crate::report::html::escape;

/// Width of a chart's bar area, in pixels.
const BAR_WIDTH: f64 = 420.0;

/// The page.
pub fn render(results: &Results) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Real-world divergence report</title><style>{STYLE}</style></head><body>\n"
    );
    let _ = writeln!(out, "<h1>Real-world divergence report</h1>");
    let _ = writeln!(out, "<p id=\"headline\">{}</p>", escape(&headline(results)));
    let _ = writeln!(
        out,
        "<p>Corpus: {}.</p>",
        escape(&results.corpus.join(", "))
    );
    for (id, reason) in &results.unavailable {
        let _ = writeln!(
            out,
            "<p class=\"warn\">Not run: {}: {}</p>",
            escape(id),
            escape(reason)
        );
    }

    let _ = writeln!(out, "<h2 id=\"adapters\">Disagreement per parser</h2>");
    let _ = writeln!(
        out,
        "<p>Share of each parser's verdicts that differ from its claimed profile, where the profile is definite; files: share of files with at least one.</p>"
    );
    let rows: Vec<(String, f64, String)> = results
        .adapters
        .iter()
        .map(|(id, t)| {
            let a = t.against.get(&t.profile).cloned().unwrap_or_default();
            let share = a.disagree as f64 / a.checks.max(1) as f64;
            let label = format!(
                "{} of checks, {} of files",
                percent(a.disagree, a.checks),
                percent(a.files_disagree, a.files)
            );
            (format!("{id} ({})", t.profile), share, label)
        })
        .collect();
    out.push_str(&bar_chart("chart-adapters", &rows));

    let _ = writeln!(out, "<h2 id=\"pairs\">Pairs of parsers</h2>");
    let _ = writeln!(
        out,
        "<p>Share of the checks both answered where their verdicts differ.</p>"
    );
    out.push_str(&pair_grid(results));

    let _ = writeln!(out, "<h2 id=\"causes\">Files affected per cause</h2>");
    let buckets = results.buckets_by_size();
    let max_files = buckets.first().map_or(1, |b| b.files.count.max(1));
    let rows: Vec<(String, f64, String)> = buckets
        .iter()
        .take(LISTED_BUCKETS)
        .map(|b| {
            (
                format!("{}: {}", b.adapter, b.cause),
                b.files.count as f64 / max_files as f64,
                format!(
                    "{} files, {} checks",
                    thousands(b.files.count),
                    thousands(b.checks)
                ),
            )
        })
        .collect();
    out.push_str(&bar_chart("chart-causes", &rows));

    let _ = writeln!(out, "<h2 id=\"buckets\">Buckets</h2>");
    let _ = writeln!(
        out,
        "<table><tr><th>adapter</th><th>cause</th><th>files</th><th>checks</th><th>in ledger</th><th>example</th></tr>"
    );
    for b in &buckets {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}<div class=\"cite\">{}</div></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td>\
             <td><details><summary><code>{}</code> asks <code>{}</code>: {} says {}, got {}</summary>\
             <div>from {} ({} octets{}), status {}</div><pre>{}</pre>{}</details></td></tr>",
            escape(&b.adapter),
            escape(&b.cause),
            escape(&b.citations.join("; ")),
            thousands(b.files.count),
            thousands(b.checks),
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
            if b.example.case_yaml.is_empty() {
                String::new()
            } else {
                format!("<div>As a corpus case:</div><pre>{}</pre>", escape(&b.example.case_yaml))
            }
        );
    }
    let _ = writeln!(out, "</table>");

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
        "<h2 id=\"facts\">File facts</h2><table><tr><th>fact</th><th>files</th><th>share</th></tr>"
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
    let _ = writeln!(out, "</table>");
    let _ = writeln!(out, "<h2 id=\"oracle\">Oracle</h2><table><tr><th>profile</th><th>allowed</th><th>disallowed</th><th>either</th><th>not governed</th><th>panics</th></tr>");
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
    let _ = writeln!(out, "</table>\n</body></html>");
    out
}

/// A horizontal bar chart: (label, share of the full bar in 0..=1, value text) per row.
fn bar_chart(id: &str, rows: &[(String, f64, String)]) -> String {
    let row_height = 22.0;
    let label_width = 400.0;
    let height = row_height * rows.len() as f64 + 4.0;
    let width = label_width + BAR_WIDTH + 260.0;
    let mut svg = format!(
        "<svg id=\"{id}\" class=\"chart\" role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    for (i, (label, share, value)) in rows.iter().enumerate() {
        let y = i as f64 * row_height + 2.0;
        let w = (share.clamp(0.0, 1.0) * BAR_WIDTH).max(1.0);
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><rect x=\"{label_width}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\" fill=\"#c0392b\"><title>{}</title></rect><text x=\"{}\" y=\"{}\">{}</text>",
            label_width - 6.0,
            y + 15.0,
            escape(&shortened(label, 64)),
            row_height - 6.0,
            escape(value),
            label_width + w + 6.0,
            y + 15.0,
            escape(value)
        );
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
    let mut out = String::from("<table class=\"grid\"><tr><th></th>");
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
    out.push_str("</table>\n");
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:13px}\
td.n{text-align:right}.cite{color:#666;font-size:11px;max-width:40em}pre{white-space:pre-wrap;word-break:break-all;max-width:70em;background:#f6f6f6;padding:4px}\
.chart text{font-size:12px;font-family:system-ui,sans-serif}.grid td{text-align:center;min-width:3.2em}.grid th.v{height:9em;vertical-align:bottom}\
.grid th.v span{writing-mode:vertical-rl;transform:rotate(180deg)}.self{background:#eee}.warn{color:#a00}";
