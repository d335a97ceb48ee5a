//! The terminal report `robotstxt-conformance run` prints: one line per adapter with its pass rate
//! against each profile, then what fails the run, then the adapters that could not run. Lines stay
//! within [`WIDTH`] columns except for long unavailability reasons' unbreakable words.

use robotstxt_oracle::ProfileId;

use super::{
    cut, inline, one_line, percent, run_failures, summary_of, unexpected, unexpected_text,
    Unexpected,
};
use crate::results::Results;

/// The terminal width the report is laid out for.
pub const WIDTH: usize = 100;

/// How many unexpected answers are listed before `… N more`.
const MAX_LISTED: usize = 25;

/// The widest the adapter column (`id version`) gets.
const NAME_WIDTH: usize = 28;

/// Renders the report.
pub fn render(results: &Results) -> String {
    let mut out = String::new();
    let mut head = format!(
        "{}: {} checks in {} cases{}, {} adapter{}",
        results.tool,
        results.rows.len(),
        results.cases.len(),
        results.preference_headline(),
        results.adapters.len(),
        if results.adapters.len() == 1 { "" } else { "s" }
    );
    if let Some(filter) = &results.filter {
        head.push_str(&format!(" (cases matching {})", one_line(filter, 40)));
    }
    out.push_str(&cut(&head, WIDTH));
    out.push_str("\n\n");

    adapter_table(results, &mut out);
    ai_usage_lines(results, &mut out);
    preference_lines(results, &mut out);
    unexpected_list(results, &mut out);
    unavailable_list(results, &mut out);

    let (unexpected, fixed, stale) = run_failures(results);
    if unexpected + fixed + stale == 0 {
        out.push_str("result: ok, every answer is a pass or listed in its adapter's ledger\n");
    } else {
        out.push_str(&format!(
            "result: FAILED, {unexpected} unexpected divergence(s), {fixed} fixed divergence(s), \
             {stale} stale ledger entr{}\n",
            if stale == 1 { "y" } else { "ies" }
        ));
    }
    out
}

/// Per adapter, whether adding Content-Usage and Content-Signal lines changes its verdicts on the
/// corpus's AI-usage cases (`AdapterSummary::ai_usage`).
fn ai_usage_lines(results: &Results, out: &mut String) {
    if results.summary.iter().all(|s| s.ai_usage.is_none()) {
        return;
    }
    out.push_str("AI-usage lines (the same checks without them):\n");
    for s in &results.summary {
        if let Some(ai) = &s.ai_usage {
            wrap(&format!("{}: {}", s.adapter, ai.line()), "  ", "    ", out);
        }
    }
    out.push('\n');
}

/// Per adapter, its answers to the `aipref` checks, or why it was asked none
/// (`AdapterSummary::preferences`).
fn preference_lines(results: &Results, out: &mut String) {
    let Some(lines) = crate::results::preference_lines(&results.summary) else {
        return;
    };
    out.push_str("Which AI usage preference applies (the aipref checks):\n");
    for line in lines {
        wrap(
            &format!("{}: {}", line.adapters.join(", "), line.line),
            "  ",
            "    ",
            out,
        );
    }
    out.push('\n');
}

/// A short column label for a profile.
fn short(profile: ProfileId) -> &'static str {
    match profile {
        ProfileId::Rfc9309 => "rfc9309",
        ProfileId::Google => "google",
        ProfileId::Draft1996 => "1996",
        ProfileId::Original1994 => "1994",
    }
}

fn adapter_table(results: &Results, out: &mut String) {
    if results.adapters.is_empty() {
        out.push_str("no adapter ran\n\n");
        return;
    }
    let mut header = vec!["adapter".to_string(), "claims".to_string()];
    header.extend(results.profiles.iter().map(|p| short(*p).to_string()));
    header.extend(["nearest".to_string(), "ledger".to_string()]);
    // Right-aligned: the pass rates.
    let right = |i: usize| i >= 2 && i < 2 + results.profiles.len();

    let mut lines = vec![header];
    for column in &results.adapters {
        let identity = &column.identity;
        let mut cells = vec![
            cut(
                &format!("{} {}", identity.id, one_line(&identity.version, 40)),
                NAME_WIDTH,
            ),
            short(identity.profile).to_string(),
        ];
        let summary = summary_of(results, &identity.id);
        for profile in &results.profiles {
            cells.push(
                summary
                    .and_then(|s| s.profiles.get(profile))
                    .map_or("-".to_string(), percent),
            );
        }
        match summary {
            Some(s) => {
                let ledger = &s.ledger;
                let mut counts = format!(
                    "{}/{}/{}/{}",
                    ledger.expected,
                    ledger.unexpected,
                    ledger.fixed,
                    ledger.stale.len()
                );
                if ledger.unexpected + ledger.fixed + ledger.stale.len() > 0 {
                    counts.push_str(" FAIL");
                }
                cells.push(short(s.nearest).to_string());
                cells.push(counts);
            }
            None => cells.extend(["-".to_string(), "-".to_string()]),
        }
        lines.push(cells);
    }

    let widths: Vec<usize> = (0..lines[0].len())
        .map(|i| {
            lines
                .iter()
                .map(|l| l[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in &lines {
        let mut text = String::new();
        for (i, cell) in line.iter().enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            let pad = widths[i] - cell.chars().count();
            if right(i) {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                if i + 1 < line.len() {
                    text.push_str(&" ".repeat(pad));
                }
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out.push_str(
        "pass rate: answers the profile expects / checks asked; \
         ledger: expected/unexpected/fixed/stale\n\n",
    );
}

fn unexpected_list(results: &Results, out: &mut String) {
    let found = unexpected(results);
    let stale: Vec<(&str, &str)> = results
        .summary
        .iter()
        .flat_map(|s| {
            s.ledger
                .stale
                .iter()
                .map(move |entry| (s.adapter.as_str(), entry.as_str()))
        })
        .collect();
    if found.is_empty() && stale.is_empty() {
        return;
    }
    if !found.is_empty() {
        // Within the cap, every adapter gets its share: the first few of each, adapter by adapter.
        let mut per_adapter: Vec<(&str, Vec<&Unexpected<'_>>)> = Vec::new();
        for u in &found {
            let id = u.column.identity.id.as_str();
            match per_adapter.iter_mut().find(|(a, _)| *a == id) {
                Some((_, list)) => list.push(u),
                None => per_adapter.push((id, vec![u])),
            }
        }
        per_adapter
            .sort_by_key(|(id, _)| results.adapters.iter().position(|c| c.identity.id == *id));
        let quota = (MAX_LISTED / per_adapter.len()).max(2);
        let shown: Vec<&Unexpected<'_>> = per_adapter
            .iter()
            .flat_map(|(_, list)| list.iter().take(quota).copied())
            .collect();
        let width = shown
            .iter()
            .map(|u| u.column.identity.id.chars().count())
            .max()
            .unwrap_or(0);
        out.push_str(&format!(
            "unexpected results ({}){}:\n",
            found.len(),
            if shown.len() < found.len() {
                format!(", the first {quota} of each adapter")
            } else {
                String::new()
            }
        ));
        for u in &shown {
            let line = format!(
                "  {:<width$}  {}: {}",
                u.column.identity.id,
                inline(&u.row.check_id()),
                unexpected_text(u, 60, false)
            );
            out.push_str(&cut(&line, WIDTH));
            out.push('\n');
        }
        if shown.len() < found.len() {
            out.push_str(&format!(
                "  … {} more (see summary.md or matrix.html)\n",
                found.len() - shown.len()
            ));
        }
        out.push('\n');
    }
    if !stale.is_empty() {
        out.push_str(&format!(
            "stale ledger entries, naming no check of the corpus ({}):\n",
            stale.len()
        ));
        for (adapter, entry) in stale.iter().take(MAX_LISTED) {
            out.push_str(&cut(&format!("  {adapter}: {}", inline(entry)), WIDTH));
            out.push('\n');
        }
        if stale.len() > MAX_LISTED {
            out.push_str(&format!("  … {} more\n", stale.len() - MAX_LISTED));
        }
        out.push('\n');
    }
}

fn unavailable_list(results: &Results, out: &mut String) {
    if results.unavailable.is_empty() {
        return;
    }
    out.push_str(&format!(
        "unavailable adapters ({}):\n",
        results.unavailable.len()
    ));
    for u in &results.unavailable {
        wrap(
            &format!("{}: {}", inline(&u.id), one_line(&u.reason, 2000)),
            "  ",
            "      ",
            out,
        );
        if !u.fix.is_empty() {
            wrap(
                &format!("fix: {}", one_line(&u.fix, 2000)),
                "    ",
                "      ",
                out,
            );
        }
    }
    out.push('\n');
}

/// Appends `text` wrapped at word boundaries to [`WIDTH`] columns, the first line indented by
/// `first`, the others by `rest`.
fn wrap(text: &str, first: &str, rest: &str, out: &mut String) {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ') {
        let fits = line.chars().count() + 1 + word.chars().count() <= WIDTH;
        if !empty && !fits {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}
