//! `summary.md`: a run summarised for a GitHub issue or a mailing list.
//!
//! Reads well both rendered and raw: one table (adapters × profiles), everything else in lists.
//! Untrusted text goes into code spans (agents, URLs, ids, messages) or is backslash-escaped
//! (titles, reasons); table cells escape `|` and backticks.

use robotstxt_oracle::ProfileId;

use super::{cut, expected_name, fetch_text, inline, one_line, percent, run_failures, summary_of};
use crate::fingerprint::{self, Standing};
use crate::results::{AdapterCell, AdapterColumn, Results, Row, Status};

/// How many divergences are listed per adapter.
const MAX_PER_ADAPTER: usize = 5;

/// How long a parser's message may get before it is cut.
const MAX_MESSAGE: usize = 200;

/// Renders the summary.
pub fn render(results: &Results) -> String {
    let mut out = String::from("# robots.txt conformance report\n\n");
    out.push_str(&format!("- Tool: {}\n", code(&results.tool)));
    out.push_str(&format!(
        "- Corpus: {} checks in {} cases{}",
        results.rows.len(),
        results.cases.len(),
        results.preference_headline()
    ));
    if let Some(filter) = &results.filter {
        out.push_str(&format!(" (cases matching {})", code(filter)));
    }
    out.push('\n');
    let profiles: Vec<&str> = results.profiles.iter().map(|p| p.name()).collect();
    out.push_str(&format!("- Oracle profiles: {}\n", profiles.join(", ")));
    let (unexpected, fixed, stale) = run_failures(results);
    if unexpected + fixed + stale == 0 {
        out.push_str(
            "- Result: **passed**: every answer passes or is listed in its adapter's ledger\n",
        );
    } else {
        out.push_str(&format!(
            "- Result: **failed**: {unexpected} unexpected divergence(s), {fixed} fixed \
             divergence(s), {stale} stale ledger entr{}\n",
            if stale == 1 { "y" } else { "ies" }
        ));
    }
    out.push('\n');

    pass_rates(results, &mut out);
    lines_to_cite(results, &mut out);
    ai_usage(results, &mut out);
    preferences(results, &mut out);
    fingerprints(results, &mut out);
    unavailable(results, &mut out);
    divergences(results, &mut out);
    out
}

fn pass_rates(results: &Results, out: &mut String) {
    out.push_str("## Pass rates\n\n");
    if results.adapters.is_empty() {
        out.push_str("No adapter ran.\n\n");
        return;
    }
    out.push_str("| Adapter | Version | Claims |");
    for profile in &results.profiles {
        out.push_str(&format!(" {} |", profile.name()));
    }
    out.push_str(" Nearest | Ledger |\n|---|---|---|");
    for _ in &results.profiles {
        out.push_str("--:|");
    }
    out.push_str("---|---|\n");
    for column in &results.adapters {
        let identity = &column.identity;
        let summary = summary_of(results, &identity.id);
        out.push_str(&format!(
            "| {} | {} | {} |",
            cell(&identity.id),
            cell(&identity.version),
            identity.profile.name()
        ));
        for profile in &results.profiles {
            let rate = summary
                .and_then(|s| s.profiles.get(profile))
                .map_or("n/a".to_string(), percent);
            let rate = if *profile == identity.profile {
                format!("**{rate}**")
            } else {
                rate
            };
            let nearest = summary.is_some_and(|s| s.nearest == *profile);
            out.push_str(&format!(" {rate}{} |", if nearest { " ◆" } else { "" }));
        }
        match summary {
            Some(s) => {
                let l = &s.ledger;
                let mut parts = vec![format!("{} expected", l.expected)];
                for (n, what) in [
                    (l.unexpected, "unexpected"),
                    (l.fixed, "fixed"),
                    (l.stale.len(), "stale"),
                ] {
                    if n > 0 {
                        parts.push(format!("**{n} {what}**"));
                    }
                }
                if l.not_applicable > 0 {
                    parts.push(format!("{} n/a", l.not_applicable));
                }
                out.push_str(&format!(" {} | {} |\n", s.nearest.name(), parts.join(", ")));
            }
            None => out.push_str(" n/a | n/a |\n"),
        }
    }
    out.push_str(
        "\nPass rate: the share of the checks asked whose answer the profile expects. \
         **Bold**: the profile the library claims. ◆: the profile it agrees with most. \
         Ledger: divergences from the claimed profile that its ledger lists (expected), does not \
         list (unexpected), lists although the check now passes (fixed), and entries naming no \
         check (stale); n/a: checks not asked for want of a capability.\n\n",
    );
}

/// Each adapter's line to cite under the profile it claims, and where its badge is.
fn lines_to_cite(results: &Results, out: &mut String) {
    if results.adapters.is_empty() {
        return;
    }
    out.push_str(
        "## Lines to cite

",
    );
    for (id, line) in super::badge::claimed_lines(results) {
        out.push_str(&format!(
            "- {}: {line} (badge: `badges/{}`)\n",
            code(&id),
            super::badge::file_name(&id)
        ));
    }
    out.push('\n');
}

/// Per adapter, its answers to the `aipref` checks, or why it was asked none
/// (`AdapterSummary::preferences`).
fn preferences(results: &Results, out: &mut String) {
    if results.summary.iter().all(|s| s.preferences.is_none()) {
        return;
    }
    out.push_str(
        "## Which AI usage preference applies\n\nThe aipref checks ask which usage preference a \
         file's Content-Usage lines attach to a URL, for a crawler and a category of use \
         (docs/profiles.md, \"The aipref reading\"). Only adapters that announce the \
         `preferences` capability are asked them (adapters/PROTOCOL.md).\n\n",
    );
    for entry in crate::results::preference_lines(&results.summary).unwrap_or_default() {
        let ids: Vec<String> = entry.adapters.iter().map(|a| code(a)).collect();
        let mut line = format!("- {}: {}", ids.join(", "), escape(&entry.line));
        if !entry.differs.is_empty() {
            let ids: Vec<String> = entry.differs.iter().take(5).map(|c| code(c)).collect();
            line.push_str(&format!(
                "; differs: {}{}",
                ids.join(", "),
                if entry.differs.len() > 5 { ", ..." } else { "" }
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
}

/// Per adapter, issue 38's question 1 on the corpus: whether adding Content-Usage and
/// Content-Signal lines changes its verdicts (`AdapterSummary::ai_usage`).
fn ai_usage(results: &Results, out: &mut String) {
    if results.summary.iter().all(|s| s.ai_usage.is_none()) {
        return;
    }
    out.push_str(&format!(
        "## Adding Content-Usage and Content-Signal lines\n\nEach parser is asked the checks of \
         the AI-usage cases ({}) twice: on the case's body and on that body with its \
         Content-Usage and Content-Signal lines removed. A check with no verdict on either body \
         is not compared.\n\n",
        code(&format!("spec-cases/{}", crate::aiusage::CASES_DIR))
    ));
    for s in &results.summary {
        let Some(ai) = &s.ai_usage else { continue };
        let mut line = format!("- {}: {}", code(&s.adapter), escape(&ai.line()));
        if !ai.changed_checks.is_empty() {
            let ids: Vec<String> = ai.changed_checks.iter().take(5).map(|c| code(c)).collect();
            line.push_str(&format!(
                "; changed: {}{}",
                ids.join(", "),
                if ai.changed_checks.len() > 5 {
                    ", ..."
                } else {
                    ""
                }
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
}

/// How many deciding checks an inconsistent dimension names.
const CHECKS_PER_DIMENSION: usize = 3;

/// Per adapter, the deviations its answers are consistent with being on and the dimensions no
/// alternative explains (`matrix.html` and `results.json` have every dimension).
fn fingerprints(results: &Results, out: &mut String) {
    let prints: Vec<_> = results
        .summary
        .iter()
        .filter_map(|s| s.fingerprint.as_ref().map(|f| (&s.adapter, f)))
        .collect();
    if prints.is_empty() {
        return;
    }
    out.push_str(
        "## Fingerprints\n\nPer adapter, the deviations its answers are consistent with being \
         on, and the knobs and deviations no alternative explains (every dimension, with its \
         deciding checks, is in `matrix.html` and `results.json`).\n\n",
    );
    for (adapter, print) in prints {
        let mut on = Vec::new();
        let mut inconsistent = Vec::new();
        for (label, standing) in &print.dimensions {
            match standing {
                Standing::Consistent {
                    alternatives,
                    checks,
                } if fingerprint::is_deviation(label) && alternatives[0] == "on" => {
                    let plural = if checks.len() == 1 { "" } else { "s" };
                    on.push(format!("{} ({} check{plural})", code(label), checks.len()));
                }
                Standing::Inconsistent { checks } => {
                    let mut shown: Vec<String> = checks
                        .iter()
                        .take(CHECKS_PER_DIMENSION)
                        .map(|c| code(c))
                        .collect();
                    if checks.len() > CHECKS_PER_DIMENSION {
                        shown.push(format!("{} more", checks.len() - CHECKS_PER_DIMENSION));
                    }
                    inconsistent.push(format!("{} ({})", code(label), shown.join(", ")));
                }
                _ => {}
            }
        }
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        out.push_str(&format!(
            "- {} (claims {}, nearest {}): deviations on: {}; inconsistent: {}\n",
            code(adapter),
            print.claimed.name(),
            print.nearest.name(),
            list(on),
            list(inconsistent)
        ));
    }
    out.push('\n');
}

fn unavailable(results: &Results, out: &mut String) {
    if results.unavailable.is_empty() {
        return;
    }
    out.push_str("## Unavailable adapters\n\n");
    for u in &results.unavailable {
        out.push_str(&format!(
            "- {}: {}",
            code(&u.id),
            escape(&one_line(&robotstxt_prose::without_home(&u.reason), 1000))
        ));
        if !u.fix.is_empty() {
            out.push_str(&format!(
                " Fix: {}",
                code(&one_line(&robotstxt_prose::without_home(&u.fix), 1000))
            ));
        }
        out.push('\n');
    }
    out.push('\n');
}

fn divergences(results: &Results, out: &mut String) {
    out.push_str("## Notable divergences\n\n");
    if results.adapters.is_empty() {
        out.push_str("None: no adapter ran.\n");
        return;
    }
    for column in &results.adapters {
        let identity = &column.identity;
        let claimed = identity.profile;
        out.push_str(&format!(
            "### {} {} (claims {})\n\n",
            escape(&identity.id),
            escape(&one_line(&identity.version, 60)),
            claimed.name()
        ));
        let mut diverging: Vec<(&Row, &AdapterCell)> = results
            .rows
            .iter()
            .filter_map(|row| row.adapters.get(&identity.id).map(|cell| (row, cell)))
            .filter(|(_, cell)| {
                matches!(
                    cell.status,
                    Status::UnexpectedDivergence | Status::ExpectedDivergence
                )
            })
            .collect();
        // Unexpected first; among those shown, one check per case before a second of any case.
        diverging.sort_by_key(|(_, cell)| cell.status != Status::UnexpectedDivergence);
        let mut seen = std::collections::HashSet::new();
        let (first, again): (Vec<_>, Vec<_>) = diverging
            .iter()
            .partition(|(row, _)| seen.insert(row.case.as_str()));
        let shown: Vec<(&Row, &AdapterCell)> = first
            .into_iter()
            .chain(again)
            .take(MAX_PER_ADAPTER)
            .copied()
            .collect();
        let unexpected = diverging
            .iter()
            .filter(|(_, c)| c.status == Status::UnexpectedDivergence)
            .count();
        if diverging.is_empty() {
            out.push_str(&format!(
                "Answers every check as {} expects.\n\n",
                claimed.name()
            ));
        } else {
            out.push_str(&format!(
                "Diverges from {} on {} check(s): {} listed in its ledger, {} not{}.\n\n",
                claimed.name(),
                diverging.len(),
                diverging.len() - unexpected,
                unexpected,
                if diverging.len() > MAX_PER_ADAPTER {
                    format!("; the first {MAX_PER_ADAPTER}")
                } else {
                    String::new()
                }
            ));
            for (row, cell) in &shown {
                divergence(results, column, row, cell, out);
            }
            if diverging.len() > MAX_PER_ADAPTER {
                out.push_str(&format!(
                    "- … and {} more (see `matrix.html`)\n",
                    diverging.len() - MAX_PER_ADAPTER
                ));
            }
            out.push('\n');
        }
        if let Some(summary) = summary_of(results, &identity.id) {
            let fixed: Vec<String> = results
                .rows
                .iter()
                .filter(|row| {
                    row.adapters
                        .get(&identity.id)
                        .is_some_and(|c| c.status == Status::FixedDivergence)
                })
                .map(|row| code(&row.check_id()))
                .collect();
            if !fixed.is_empty() {
                out.push_str(&format!(
                    "Ledger entries whose check now passes (remove them): {}.\n\n",
                    fixed.join(", ")
                ));
            }
            if !summary.ledger.stale.is_empty() {
                let stale: Vec<String> = summary.ledger.stale.iter().map(|s| code(s)).collect();
                out.push_str(&format!(
                    "Stale ledger entries, naming no check of the corpus: {}.\n\n",
                    stale.join(", ")
                ));
            }
        }
    }
}

fn divergence(
    results: &Results,
    column: &AdapterColumn,
    row: &Row,
    cell: &AdapterCell,
    out: &mut String,
) {
    let claimed: ProfileId = column.identity.profile;
    let case = results.cases.get(&row.case);
    let title = case.map_or(String::new(), |c| escape(&one_line(&c.title, 200)));
    out.push_str(&format!("- **{title}**: {}", code(&row.check_id())));
    if let Some(case) = case {
        if !case.cite.is_empty() {
            let cites: Vec<String> = case.cite.iter().map(|c| code(c)).collect();
            out.push_str(&format!(" ({})", cites.join(", ")));
        }
    }
    if cell.status == Status::UnexpectedDivergence {
        out.push_str(", **unexpected**");
    }
    out.push('\n');
    out.push_str(&format!(
        "  - agent {}, URL {}",
        code(&inline(&row.agent)),
        code(&inline(&row.url))
    ));
    if let Some(fetch) = case.and_then(|c| c.fetch.as_ref()) {
        out.push_str(&format!(", fetch: {}", fetch_text(fetch)));
    }
    if let Some(robots_url) = case.and_then(|c| c.robots_url.as_ref()) {
        out.push_str(&format!(", robots.txt URL {}", code(&inline(robots_url))));
    }
    out.push('\n');
    let got = match cell.answer.detail() {
        None => format!("**{}**", cell.answer.kind()),
        Some(detail) => format!(
            "**{}** {}",
            cell.answer.kind(),
            code(&one_line(detail, MAX_MESSAGE))
        ),
    };
    out.push_str(&format!(
        "  - expected **{}** ({}), got {got}\n",
        expected_name(row, claimed),
        claimed.name()
    ));
    if let Some(reason) = &cell.reason {
        out.push_str(&format!(
            "  - ledger: {}\n",
            escape(&one_line(reason, MAX_MESSAGE))
        ));
    }
}

/// A table cell: one line, `|` and backticks escaped.
fn cell(text: &str) -> String {
    one_line(text, 80).replace('|', "\\|").replace('`', "\\`")
}

/// Body text with Markdown's inline syntax escaped, so a title cannot start emphasis, a link or
/// raw HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '&' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` on one line as a code span, its fence longer than any run of backticks inside.
fn code(text: &str) -> String {
    let text = cut(&text.replace(['\n', '\r'], " "), 400);
    if text.is_empty() {
        return "(empty)".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}
