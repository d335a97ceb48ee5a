//! Reports rendered from a run's [`Results`]: the terminal table, a Markdown summary, a
//! self-contained HTML matrix and JUnit XML, plus `results.json` itself.
//!
//! Every renderer is a pure function from [`Results`] to text; nothing here runs a parser or the
//! oracle. Text that reaches a report from a case or a parser (bodies, URLs, agents, titles,
//! messages, explanations) is untrusted: each format escapes it its own way, and control characters
//! are shown as `⟨CR⟩`, `⟨x07⟩`, ... as [`crate::render::visible`] does.
//!
//! - [`text`]: the compact table `robotstxt-conformance run` prints.
//! - [`markdown`]: a summary for an issue or a mailing list.
//! - [`html`]: the divergence matrix, checks grouped by how every column answers them, in pages.
//! - [`junit`]: one test case per (adapter, check), for CI dashboards.
//! - [`badge`]: the line to cite and the SVG badge of one adapter under one profile.
//! - [`glossary`]: words for knobs, their alternatives, deviations and causes.

pub mod badge;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod text;

use std::path::{Path, PathBuf};

use robotstxt_oracle::{Fetch, ProfileId, Verdict};

use crate::results::{AdapterCell, AdapterColumn, AdapterSummary, Results, Row, Status, Tally};

/// A report format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The compact table for a terminal.
    Text,
    /// `results.json`, the run's full data.
    Json,
    /// A Markdown summary.
    Markdown,
    /// The self-contained HTML matrix.
    Html,
    /// JUnit XML.
    Junit,
}

impl Format {
    /// The file [`write_all`] writes this format to (none for [`Format::Text`]).
    pub fn file_name(self) -> Option<&'static str> {
        match self {
            Format::Text => None,
            Format::Json => Some("results.json"),
            Format::Markdown => Some("summary.md"),
            Format::Html => Some("matrix.html"),
            Format::Junit => Some("junit.xml"),
        }
    }
}

/// Renders `results` in `format`.
pub fn render(format: Format, results: &Results) -> String {
    match format {
        Format::Text => text::render(results),
        Format::Json => {
            // Plain data with string keys: serialising it cannot fail.
            let mut json =
                serde_json::to_string_pretty(results).expect("results serialise to JSON");
            json.push('\n');
            json
        }
        Format::Markdown => markdown::render(results),
        Format::Html => html::render(results),
        Format::Junit => junit::render(results),
    }
}

/// Writes `results.json`, `summary.md`, `matrix.html` (with `matrix/*.html`), `junit.xml` and one
/// badge per adapter
/// (`badges/<adapter>.svg`, under the profile it claims) into `dir` (created if missing) and
/// returns their paths.
pub fn write_all(dir: &Path, results: &Results) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for format in [Format::Json, Format::Markdown, Format::Junit] {
        if let Some(name) = format.file_name() {
            let path = dir.join(name);
            std::fs::write(&path, render(format, results))?;
            written.push(path);
        }
    }
    for (name, page) in html::pages(results) {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, page)?;
        written.push(path);
    }
    if !results.adapters.is_empty() {
        let badges = dir.join("badges");
        std::fs::create_dir_all(&badges)?;
        for column in &results.adapters {
            let id = &column.identity.id;
            let path = badges.join(badge::file_name(id));
            // An adapter whose answers contradict its ledger fails the run: its badge says so.
            let failing = results
                .summary
                .iter()
                .find(|s| &s.adapter == id)
                .map_or(0, |s| {
                    s.ledger.unexpected + s.ledger.fixed + s.ledger.stale.len()
                });
            let svg = match failing {
                0 => badge::svg(results, id, column.identity.profile),
                n => badge::failing_svg(results, id, column.identity.profile, n),
            };
            std::fs::write(&path, svg)?;
            written.push(path);
        }
    }
    Ok(written)
}

// Helpers shared by the renderers.

/// A pass rate as a percentage with one decimal, by the one rule every report and the line to
/// cite use ([`badge::rate_text`]: rounded down to a tenth); `n/a` when nothing was asked.
pub(crate) fn percent(tally: &Tally) -> String {
    badge::rate_text(tally.agree, tally.checks)
}

/// A fetch outcome in words: `HTTP 503`, `HTTP 200 after 3 redirects`, `unreachable`.
pub fn fetch_text(fetch: &Fetch) -> String {
    match fetch {
        Fetch::Unreachable => "unreachable".to_string(),
        Fetch::Status {
            status,
            redirects: 0,
        } => format!("HTTP {status}"),
        Fetch::Status {
            status,
            redirects: 1,
        } => format!("HTTP {status} after 1 redirect"),
        Fetch::Status { status, redirects } => {
            format!("HTTP {status} after {redirects} redirects")
        }
    }
}

/// A one-line value (agent, URL) with every control character made visible, LF included.
pub(crate) fn inline(text: &str) -> String {
    // With no limit, `visible` adds no note, and the only LF it emits follows each `⟨LF⟩`.
    crate::render::visible(text.as_bytes(), usize::MAX).replace('\n', "")
}

/// Free text (messages, reasons, explanations): line breaks and tabs kept, every other control
/// character made visible.
pub(crate) fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("⟨CR⟩"),
            c if c.is_control() => out.push_str(&format!("⟨x{:02X}⟩", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Free text on one line: [`prose`], whitespace runs collapsed to one space, cut to `max`
/// characters with `…`.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let collapsed = prose(text).split_whitespace().collect::<Vec<_>>().join(" ");
    cut(&collapsed, max)
}

/// `text` cut to at most `max` characters, the last being `…` when something was cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A long explanation shortened for a report: the first and last lines, and in between only the
/// lines the oracle marks (`=>` the deciding rule, `*` an applied group), each line cut to a few
/// hundred characters; omitted runs say how many lines they hide. Short text is returned whole.
pub(crate) fn abridge(text: &str) -> String {
    const HEAD: usize = 24;
    const TAIL: usize = 8;
    const MARKED: usize = 16;
    const LINE: usize = 240;
    let lines: Vec<&str> = text.lines().collect();
    // Cut at a space, so no citation (`google#file-location`) is left half written.
    let short = |line: &str| {
        if line.chars().count() <= LINE {
            return line.to_string();
        }
        let head: String = line.chars().take(LINE - 1).collect();
        match head.rfind(' ') {
            Some(space) if space > head.len() / 2 => format!("{}…", &head[..space]),
            _ => format!("{head}…"),
        }
    };
    if lines.len() <= HEAD + TAIL + MARKED && lines.iter().all(|l| l.chars().count() <= LINE) {
        return text.to_string();
    }
    let mut out = String::new();
    let mut omitted = 0;
    let mut marked = 0;
    let flush = |omitted: &mut usize, out: &mut String| {
        if *omitted > 0 {
            out.push_str(&format!("  … {omitted} line(s) not shown\n"));
            *omitted = 0;
        }
    };
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let keep = i < HEAD
            || i + TAIL >= lines.len()
            || ((trimmed.starts_with("=>") || trimmed.starts_with("* ")) && {
                marked += 1;
                marked <= MARKED
            });
        if keep {
            flush(&mut omitted, &mut out);
            out.push_str(&short(line));
            out.push('\n');
        } else {
            omitted += 1;
        }
    }
    flush(&mut omitted, &mut out);
    out
}

/// The summary of adapter `id`, if the run has one.
pub(crate) fn summary_of<'a>(results: &'a Results, id: &str) -> Option<&'a AdapterSummary> {
    results.summary.iter().find(|s| s.adapter == id)
}

/// What the corpus expects of `row` under `profile`, as a word (`?` if the row lacks it).
pub(crate) fn expected_name(row: &Row, profile: ProfileId) -> &'static str {
    row.expected
        .get(&profile)
        .map_or("?", |v| Verdict::name(*v))
}

/// A status in words.
pub(crate) fn status_name(status: Status) -> &'static str {
    match status {
        Status::Pass => "pass",
        Status::ExpectedDivergence => "expected divergence",
        Status::UnexpectedDivergence => "unexpected divergence",
        Status::FixedDivergence => "fixed divergence",
        Status::NotApplicable => "not applicable",
    }
}

/// One adapter's answer that contradicts its ledger.
pub(crate) struct Unexpected<'a> {
    /// The check.
    pub row: &'a Row,
    /// The adapter.
    pub column: &'a AdapterColumn,
    /// Its answer.
    pub cell: &'a AdapterCell,
}

/// Every answer whose status fails the run, in row order then column order.
pub(crate) fn unexpected(results: &Results) -> Vec<Unexpected<'_>> {
    let mut found = Vec::new();
    for row in &results.rows {
        for column in &results.adapters {
            if let Some(cell) = row.adapters.get(&column.identity.id) {
                if cell.status.is_unexpected() {
                    found.push(Unexpected { row, column, cell });
                }
            }
        }
    }
    found
}

/// What went wrong with an unexpected answer, in one line: `rfc9309 expects allowed, got
/// disallowed` (`expected allowed, got disallowed` without `profile`) or `passes now (allowed): its
/// ledger entry should go`.
pub(crate) fn unexpected_text(u: &Unexpected<'_>, max_detail: usize, profile: bool) -> String {
    let claimed = u.column.identity.profile;
    let got = match u.cell.answer.detail() {
        None => u.cell.answer.kind().to_string(),
        Some(detail) => format!(
            "{} ({})",
            u.cell.answer.kind(),
            one_line(detail, max_detail)
        ),
    };
    let expected = expected_name(u.row, claimed);
    match u.cell.status {
        Status::FixedDivergence => format!("passes now ({got}): its ledger entry should go"),
        _ if profile => format!("{} expects {expected}, got {got}", claimed.name()),
        _ => format!("expected {expected}, got {got}"),
    }
}

/// Totals over all adapters: unexpected divergences, fixed divergences, stale ledger entries.
pub(crate) fn run_failures(results: &Results) -> (usize, usize, usize) {
    results
        .summary
        .iter()
        .fold((0, 0, 0), |(u, f, s), summary| {
            (
                u + summary.ledger.unexpected,
                f + summary.ledger.fixed,
                s + summary.ledger.stale.len(),
            )
        })
}
