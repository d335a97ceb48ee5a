//! The real-world results for a person: text and Markdown, and the one-line JSON summary.

use std::fmt::Write as _;

use super::tally::{FileList, Results};
pub use crate::report::badge::thousands;

/// How many buckets the text and Markdown reports list in full.
pub const LISTED_BUCKETS: usize = 30;

/// A share as a percentage with one decimal (`12.3%`), `-` when there is nothing to share.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// The one-line summary that ends `--format json`.
pub fn summary_line(results: &Results) -> String {
    serde_json::json!({
        "files": results.files,
        "checks": results.checks,
        "seconds": (results.seconds * 100.0).round() / 100.0,
        "adapters": results.adapters.len(),
        "disagreement": (results.disagreement() * 10000.0).round() / 10000.0,
    })
    .to_string()
}

/// The headline: files, checks, adapters, disagreement.
pub fn headline(results: &Results) -> String {
    format!(
        "{} files, {} checks, {} adapters, {} profiles: {} of adapters' definite answers differ from their claimed profile ({:.1} s)",
        thousands(results.files),
        thousands(results.checks),
        results.adapters.len(),
        results.profiles.len(),
        percent_f(results.disagreement()),
        results.seconds
    )
}

fn percent_f(share: f64) -> String {
    format!("{:.2}%", 100.0 * share)
}

/// The report as plain text.
pub fn text(results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(results));
    let _ = writeln!(out, "corpus: {}", results.corpus.join(", "));
    for (id, reason) in &results.unavailable {
        let _ = writeln!(out, "unavailable: {id}: {reason}");
    }
    let _ = writeln!(
        out,
        "\nadapters (against their claimed profile, where it is definite):"
    );
    for (id, tally) in &results.adapters {
        let against = tally
            .against
            .get(&tally.profile)
            .cloned()
            .unwrap_or_default();
        let failures: u64 = tally.failures.values().map(|f| f.count).sum();
        let _ = writeln!(
            out,
            "  {id:<18} {:<13} compared {} differ {} files {} differ {}{}{}",
            tally.profile,
            percent(against.checks, tally.checks),
            percent(against.disagree, against.checks),
            thousands(against.files),
            percent(against.files_disagree, against.files),
            if failures > 0 {
                format!("  failures in {failures} file(s)")
            } else {
                String::new()
            },
            if tally.nondeterministic.count > 0 {
                format!(
                    "  NONDETERMINISTIC on {} file(s)",
                    tally.nondeterministic.count
                )
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(
        out,
        "\nlargest buckets (adapter, cause): files, checks, example"
    );
    for bucket in results.buckets_by_size().into_iter().take(LISTED_BUCKETS) {
        let _ = writeln!(
            out,
            "  {} | {}: {} files, {} checks{}; e.g. {} asks {} on {} ({} says {}, got {})",
            bucket.adapter,
            bucket.cause,
            thousands(bucket.files.count),
            thousands(bucket.checks),
            if bucket.in_ledger {
                " (in its ledger)"
            } else {
                ""
            },
            bucket.example.agent,
            bucket.example.url,
            bucket.example.file,
            bucket.profile,
            bucket.example.expected,
            bucket.example.got
        );
    }
    if results.buckets.len() > LISTED_BUCKETS {
        let _ = writeln!(
            out,
            "  ... {} more in realworld.json",
            results.buckets.len() - LISTED_BUCKETS
        );
    }
    let _ = writeln!(out, "\nfile facts:");
    for (fact, n) in &results.facts {
        let _ = writeln!(
            out,
            "  {fact:<14} {} files ({})",
            thousands(*n),
            percent(*n, results.files)
        );
    }
    out
}

/// The report as Markdown.
pub fn markdown(results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Real-world divergence report\n");
    let _ = writeln!(out, "{}.\n", headline(results));
    let _ = writeln!(out, "Corpus: {}.\n", results.corpus.join(", "));
    let _ = writeln!(
        out,
        "Checks are derived from each file (docs/realworld.md). \"Differ\" counts an adapter's verdicts that differ from the profile's where the profile is definite.\n"
    );
    for (id, reason) in &results.unavailable {
        let _ = writeln!(out, "- Not run: `{id}`: {}", md(reason));
    }
    let _ = writeln!(out, "## Oracle\n");
    let _ = writeln!(
        out,
        "| profile | allowed | disallowed | either | not governed | oracle panics |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
    for (profile, t) in &results.oracle {
        let _ = writeln!(
            out,
            "| {profile} | {} | {} | {} | {} | {} |",
            thousands(t.allowed),
            thousands(t.disallowed),
            thousands(t.either),
            thousands(t.not_governed),
            t.panics
        );
    }
    let _ = writeln!(out, "\n## Adapters against each profile\n");
    let _ = write!(out, "| adapter | claims |");
    for p in &results.profiles {
        let _ = write!(out, " {p}: checks differ | files differ |");
    }
    let _ = writeln!(out, " failures | nondeterministic |");
    let _ = write!(out, "|---|---|");
    for _ in &results.profiles {
        let _ = write!(out, "---:|---:|");
    }
    let _ = writeln!(out, "---:|---:|");
    for (id, t) in &results.adapters {
        let _ = write!(out, "| {id} | {} |", t.profile);
        for p in &results.profiles {
            let a = t.against.get(p).cloned().unwrap_or_default();
            let mark = if *p == t.profile { "**" } else { "" };
            let _ = write!(
                out,
                " {mark}{}{mark} | {mark}{}{mark} |",
                percent(a.disagree, a.checks),
                percent(a.files_disagree, a.files)
            );
        }
        let failures: u64 = t.failures.values().map(|f| f.count).sum();
        let _ = writeln!(out, " {failures} | {} |", t.nondeterministic.count);
    }
    let _ = writeln!(out, "\n## Pairs of adapters\n");
    let _ = writeln!(
        out,
        "| pair | checks both answered | differ | files differ |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let mut pairs: Vec<_> = results.pairs.iter().collect();
    pairs.sort_by(|a, b| {
        let share = |t: &super::tally::Compared| t.disagree as f64 / t.checks.max(1) as f64;
        share(b.1).total_cmp(&share(a.1)).then(a.0.cmp(b.0))
    });
    for (pair, t) in pairs {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            pair.replace('|', " / "),
            thousands(t.checks),
            percent(t.disagree, t.checks),
            percent(t.files_disagree, t.files)
        );
    }
    let _ = writeln!(out, "\n## Buckets by cause (largest first)\n");
    let _ = writeln!(
        out,
        "| adapter | cause | files | checks | in ledger | example (minimised) |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---|---|");
    for b in results.buckets_by_size().into_iter().take(LISTED_BUCKETS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | `{}` asks `{}`: {} says {}, got {} (from {}) |",
            b.adapter,
            md(&b.cause),
            thousands(b.files.count),
            thousands(b.checks),
            if b.in_ledger { "yes" } else { "no" },
            md(&b.example.agent),
            md(&b.example.url),
            b.profile,
            b.example.expected,
            b.example.got,
            md(&b.example.file)
        );
    }
    let _ = writeln!(out, "\n## Failures and nondeterminism\n");
    let problems = problems(results);
    for (id, what, files) in &problems {
        let _ = writeln!(
            out,
            "- `{id}` {}: {} file(s), e.g. {}",
            md(what),
            files.count,
            md(&files.first.join(", "))
        );
    }
    if problems.is_empty() {
        let _ = writeln!(out, "{}", no_problems(results));
    }
    let _ = writeln!(out, "\n## File facts\n");
    let _ = writeln!(out, "| fact | files | share |");
    let _ = writeln!(out, "|---|---:|---:|");
    for (fact, n) in &results.facts {
        let _ = writeln!(
            out,
            "| {fact} | {} | {} |",
            thousands(*n),
            percent(*n, results.files)
        );
    }
    out
}

/// Every adapter's failures (`crash: message`, ...) and nondeterminism, with the files: (adapter,
/// what, files).
pub fn problems(results: &Results) -> Vec<(&str, &str, &FileList)> {
    let mut out = Vec::new();
    for (id, t) in &results.adapters {
        for (what, files) in &t.failures {
            out.push((id.as_str(), what.as_str(), files));
        }
        if t.nondeterministic.count > 0 {
            out.push((id.as_str(), "nondeterministic", &t.nondeterministic));
        }
    }
    out
}

/// What the reports say when [`problems`] found none.
pub fn no_problems(results: &Results) -> String {
    format!(
        "None ({} files asked twice in fresh processes).",
        thousands(results.determinism_files)
    )
}

/// Text safe in a Markdown table cell.
fn md(text: &str) -> String {
    text.replace('|', "\\|")
        .replace('\n', " ")
        .replace('`', "'")
}
