//! The real-world results for a person: text and Markdown, and the one-line JSON summary.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::derive::UrlKind;
use crate::tally::{Compared, FileList, Results};
pub use robotstxt_spec::badge::thousands;

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

/// A corpus's name as the reports show it: a path is named by its last part (`/data/crawl/files/`
/// is `files`), so no report publishes a path on the machine it ran on.
pub fn corpus_label(name: &str) -> String {
    let trimmed = name.trim_end_matches(['/', '\\']);
    match trimmed.rsplit(['/', '\\']).next() {
        Some(last) if !last.is_empty() && last != trimmed => last.to_string(),
        _ if trimmed.is_empty() => "corpus".to_string(),
        _ => trimmed.to_string(),
    }
}

/// The corpora read, as [`corpus_label`] names them (results written before it named them by
/// path), joined with `, `.
pub fn corpus_names(results: &Results) -> String {
    let mut names: Vec<String> = results.corpus.iter().map(|c| corpus_label(c)).collect();
    names.dedup();
    names.join(", ")
}

/// An adapter's checks of one kind of URL compared against `profile`.
pub fn against_kind(tally: &crate::tally::AdapterTally, profile: &str, kind: UrlKind) -> Compared {
    tally
        .against_by_kind
        .get(profile)
        .and_then(|kinds| kinds.get(kind.name()))
        .cloned()
        .unwrap_or_default()
}

/// A share rounded to four decimals, for the summary line.
fn rounded(share: f64) -> f64 {
    (share * 10000.0).round() / 10000.0
}

/// The one-line summary that ends `--format json`: `disagreement` is over the URLs as written in
/// the files (the headline), `disagreement_all_kinds` over every derived URL, and
/// `disagreement_by_kind` per kind of URL (kinds nothing was compared on left out).
pub fn summary_line(results: &Results) -> String {
    let by_kind: serde_json::Map<String, serde_json::Value> = by_kind(results)
        .into_iter()
        .map(|(kind, compared)| (kind.name().to_string(), rounded(compared.share()).into()))
        .collect();
    serde_json::json!({
        "files": results.files,
        "checks": results.checks,
        "seconds": (results.seconds * 100.0).round() / 100.0,
        "adapters": results.adapters.len(),
        "disagreement": rounded(results.disagreement_as_written()),
        "disagreement_all_kinds": rounded(results.disagreement()),
        "disagreement_by_kind": by_kind,
    })
    .to_string()
}

/// Every kind of URL some check of was compared, with every adapter's checks of that kind against
/// its claimed profile, in [`UrlKind`] order.
pub fn by_kind(results: &Results) -> Vec<(UrlKind, Compared)> {
    UrlKind::ALL
        .into_iter()
        .map(|kind| (kind, results.compared_of(kind)))
        .filter(|(_, compared)| compared.checks > 0)
        .collect()
}

/// The headline: files, checks, adapters, and the disagreement over the URLs as written in the
/// files, then over every derived URL; and, when some adapter answered under 99% of its checks or
/// files, which ones (their rates rest on the answers they gave).
pub fn headline(results: &Results) -> String {
    let as_written = results.compared_of(UrlKind::AsWritten);
    let mut line = headline_figures(results, &as_written);
    let short: Vec<&str> = results
        .adapters
        .iter()
        .filter(|(_, t)| t.answered_too_little())
        .map(|(id, _)| id.as_str())
        .collect();
    if !short.is_empty() {
        line.push_str(&format!(
            "; answered under 99% of their checks or files, so their rates rest on the answers \
             they gave: {}",
            short.join(", ")
        ));
    }
    line
}

/// The headline's figures.
fn headline_figures(results: &Results, as_written: &Compared) -> String {
    format!(
        "{} files, {} checks, {} adapters, {} profiles: on URLs as written in the files, {} of adapters' definite answers differ from their claimed profile (in {} of {} (parser, file) pairs); on every derived URL, respellings included, {} ({:.1} s)",
        thousands(results.files),
        thousands(results.checks),
        results.adapters.len(),
        results.profiles.len(),
        percent_f(as_written.share()),
        thousands(as_written.files_disagree),
        thousands(as_written.files),
        percent_f(results.disagreement()),
        results.seconds
    )
}

/// The disagreement per kind of URL, one line each: kind, checks compared, share differing,
/// files differing, what the kind is.
pub fn kind_lines(results: &Results) -> Vec<String> {
    by_kind(results)
        .into_iter()
        .map(|(kind, c)| {
            format!(
                "{:<21} compared {:>10}  differ {:>7}  (parser, file) pairs differ {:>6} of {}  ({})",
                kind.name(),
                thousands(c.checks),
                percent_f(c.share()),
                thousands(c.files_disagree),
                thousands(c.files),
                kind.meaning().replace('`', "")
            )
        })
        .collect()
}

/// An adapter's checks of URLs as written compared against its claimed profile.
pub fn as_written_of(tally: &crate::tally::AdapterTally) -> Compared {
    against_kind(tally, &tally.profile, UrlKind::AsWritten)
}

/// What examining a bucket's example found, in a few words: `credited K4 precedence`,
/// `unexplained group 1f0c...`, or `not examined`.
pub fn examined(example: &crate::tally::Example) -> String {
    if let Some(cause) = example.credited() {
        format!("credited {cause}")
    } else if let Some(key) = robotstxt_oracle::behaviour::key_of(&example.cause) {
        format!("unexplained group {key}")
    } else {
        "not examined".to_string()
    }
}

/// Each parser that answered under 99% of its checks or files, with the note saying so.
pub fn answered_notes(results: &Results) -> Vec<(&String, String)> {
    results
        .adapters
        .iter()
        .filter_map(|(id, t)| t.answered_note().map(|note| (id, note)))
        .collect()
}

/// Files per label (a cause, or how an example was left unexplained).
type FilesBy = BTreeMap<String, u64>;

/// Per adapter, one line: files in buckets whose example credits a cause (by cause), and files in
/// the others, with their behaviour groups (or that the example was not examined).
pub fn credit_lines(results: &Results) -> Vec<String> {
    let mut per_adapter: BTreeMap<&str, (FilesBy, FilesBy)> = BTreeMap::new();
    for bucket in results.buckets.values() {
        let (credited, unexplained) = per_adapter.entry(&bucket.adapter).or_default();
        match bucket.example.credited() {
            Some(cause) => *credited.entry(cause.to_string()).or_default() += bucket.files.count,
            None => {
                *unexplained.entry(examined(&bucket.example)).or_default() += bucket.files.count
            }
        }
    }
    per_adapter
        .into_iter()
        .map(|(adapter, (credited, unexplained))| {
            let sum = |m: &FilesBy| m.values().sum::<u64>();
            let list = |m: &FilesBy| {
                let mut items: Vec<(&String, &u64)> = m.iter().collect();
                items.sort_by_key(|&(k, n)| (std::cmp::Reverse(*n), k.clone()));
                items
                    .iter()
                    .map(|(k, n)| format!("{k} {}", thousands(**n)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "{adapter}: {} files credited to a cause ({}); {} files unexplained ({})",
                thousands(sum(&credited)),
                if credited.is_empty() {
                    "none".to_string()
                } else {
                    list(&credited)
                },
                thousands(sum(&unexplained)),
                if unexplained.is_empty() {
                    "none".to_string()
                } else {
                    list(&unexplained)
                },
            )
        })
        .collect()
}

/// A bucket's checks and files on URLs as written, as `checks/files`-style text.
pub fn bucket_kinds(bucket: &crate::tally::Bucket) -> String {
    UrlKind::ALL
        .into_iter()
        .filter_map(|kind| {
            bucket.by_kind.get(kind.name()).map(|c| {
                format!(
                    "{} {} checks in {} files",
                    kind.name(),
                    thousands(c.checks),
                    thousands(c.files)
                )
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn percent_f(share: f64) -> String {
    format!("{:.2}%", 100.0 * share)
}

/// The report as plain text.
pub fn text(results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", headline(results));
    let _ = writeln!(out, "corpus: {}", corpus_names(results));
    for (id, reason) in &results.unavailable {
        let _ = writeln!(out, "unavailable: {id}: {reason}");
    }
    let _ = writeln!(
        out,
        "\ndisagreement by kind of URL (every adapter against its claimed profile):"
    );
    for line in kind_lines(results) {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "\nadapters (against their claimed profile, where it is definite; as written: URLs as the files write them):"
    );
    for (id, tally) in &results.adapters {
        let against = tally
            .against
            .get(&tally.profile)
            .cloned()
            .unwrap_or_default();
        let written = as_written_of(tally);
        let failures = tally.failed_files.count;
        let _ = writeln!(
            out,
            "  {id:<18} {:<13} answered {} of checks, {} of files | as written: differ {} files differ {} | all: compared {} differ {} files {} differ {}{}{}{}",
            tally.profile,
            percent(tally.answered.checks, tally.checks),
            percent(tally.answered.files, tally.files),
            percent(written.disagree, written.checks),
            percent(written.files_disagree, written.files),
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
            },
            tally
                .answered_note()
                .map_or(String::new(), |note| format!("  UNDER 99% ANSWERED: {note}"))
        );
    }
    let _ = writeln!(
        out,
        "\nAI-usage lines (Content-Usage, Content-Signal): {}",
        ai_usage_files_line(results)
    );
    if results.ai_usage.files.count > 0 {
        let _ = writeln!(out, "  {}", ai_usage_oracle_line(results));
        for (id, tally) in &results.adapters {
            let _ = writeln!(out, "  {id:<18} {}", ai_usage_line(&tally.ai_usage_removed));
            for e in &tally.ai_usage_removed.examples {
                let _ = writeln!(out, "    e.g. {}", ai_usage_example(e));
            }
        }
    }
    let _ = writeln!(
        out,
        "\ncauses, as examining each bucket's minimised example credits them (files counted per \
         bucket; a file may be in more than one):"
    );
    for line in credit_lines(results) {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "\nlargest buckets (adapter, candidate cause, examined): files, checks, example"
    );
    for bucket in results.buckets_by_size().into_iter().take(LISTED_BUCKETS) {
        let _ = writeln!(
            out,
            "  {} | {} ({}): {} files, {} checks ({}){}; e.g. {} asks {} on {} ({} says {}, got {})",
            bucket.adapter,
            bucket.cause,
            examined(&bucket.example),
            thousands(bucket.files.count),
            thousands(bucket.checks),
            bucket_kinds(bucket),
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
    let _ = writeln!(out, "Corpus: {}.\n", corpus_names(results));
    let _ = writeln!(
        out,
        "Checks are derived from each file (docs/realworld.md). \"Differ\" counts an adapter's verdicts that differ from the profile's where the profile is definite.\n"
    );
    for (id, reason) in &results.unavailable {
        let _ = writeln!(
            out,
            "- Not run: `{id}`: {}",
            md(&robotstxt_prose::without_home(reason))
        );
    }
    let _ = writeln!(out, "## Disagreement by kind of URL\n");
    let _ = writeln!(
        out,
        "Every adapter against its claimed profile. Only `as-written` and `root` URLs are ones crawlers meet as they are; the others are respellings the derivation makes to probe normalisation.\n"
    );
    let _ = writeln!(
        out,
        "| kind | what it is | checks compared | differ | (parser, file) pairs differ |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|");
    for (kind, c) in by_kind(results) {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} of {} |",
            kind.name(),
            kind.meaning(),
            thousands(c.checks),
            percent_f(c.share()),
            thousands(c.files_disagree),
            thousands(c.files)
        );
    }
    let _ = writeln!(out);
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
    let _ = writeln!(
        out,
        "Each cell: on URLs as written in the files, then (after the dot) on every derived URL, \
respellings included, which crawlers rarely meet as such. The claimed profile is in bold.\n"
    );
    let _ = write!(out, "| adapter | claims |");
    for p in &results.profiles {
        let _ = write!(
            out,
            " {p}: checks differ (as written · all URLs) | files differ (as written · all URLs) |"
        );
    }
    let _ = writeln!(
        out,
        " failures | nondeterministic | answered: checks | files |"
    );
    let _ = write!(out, "|---|---|");
    for _ in &results.profiles {
        let _ = write!(out, "---:|---:|");
    }
    let _ = writeln!(out, "---:|---:|---:|---:|");
    for (id, t) in &results.adapters {
        let mark = if t.answered_too_little() {
            " ⚠ under 99% answered"
        } else {
            ""
        };
        let _ = write!(out, "| {id}{mark} | {} |", t.profile);
        for p in &results.profiles {
            let all = t.against.get(p).cloned().unwrap_or_default();
            let written = against_kind(t, p, UrlKind::AsWritten);
            let mark = if *p == t.profile { "**" } else { "" };
            let _ = write!(
                out,
                " {mark}{} · {}{mark} | {mark}{} · {}{mark} |",
                percent(written.disagree, written.checks),
                percent(all.disagree, all.checks),
                percent(written.files_disagree, written.files),
                percent(all.files_disagree, all.files)
            );
        }
        let _ = writeln!(
            out,
            " {} | {} | {} | {} |",
            t.failed_files.count,
            t.nondeterministic.count,
            percent(t.answered.checks, t.checks),
            percent(t.answered.files, t.files)
        );
    }
    let notes = answered_notes(results);
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            "\nUnder 99% answered (a failure or a check not asked is no answer; the rates above \
             rest on the answers given):\n"
        );
        for (id, note) in notes {
            let _ = writeln!(out, "- ⚠ `{id}`: {}", md(&note));
        }
    }
    let _ = writeln!(out, "\n## AI-usage lines\n");
    let _ = writeln!(
        out,
        "Does adding Content-Usage and Content-Signal lines change what a crawler may fetch? Each \
         parser is asked every check of the files that carry such lines twice: on the file as it \
         is and with those lines removed (every other octet kept). A check with no verdict on \
         either body is not compared, and counted.\n"
    );
    let _ = writeln!(out, "{}.\n", md(&ai_usage_files_line(results)));
    if results.ai_usage.files.count > 0 {
        let _ = writeln!(out, "{}.\n", md(&ai_usage_oracle_line(results)));
        let _ = writeln!(
            out,
            "| adapter | removing the lines | verdicts changed | files changed | checks not compared |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|");
        for (id, t) in &results.adapters {
            let r = &t.ai_usage_removed;
            let _ = writeln!(
                out,
                "| {id} | {} | {} | {} | {} |",
                md(&ai_usage_line(r)),
                percent(r.compared.disagree, r.compared.checks),
                percent(r.compared.files_disagree, r.files),
                thousands(r.not_compared_checks())
            );
        }
        let mut first = true;
        for (id, t) in &results.adapters {
            for e in &t.ai_usage_removed.examples {
                if first {
                    let _ = writeln!(out, "\nVerdicts that change (the first of each parser):\n");
                    first = false;
                }
                let _ = writeln!(out, "- `{id}`: {}", md(&ai_usage_example(e)));
            }
        }
    }
    let _ = writeln!(out, "\n## Pairs of adapters\n");
    let _ = writeln!(
        out,
        "| pair | checks both answered | differ | files differ |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|");
    let mut pairs: Vec<_> = results.pairs.iter().collect();
    pairs.sort_by(|a, b| {
        let share = |t: &crate::tally::Compared| t.disagree as f64 / t.checks.max(1) as f64;
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
    let _ = writeln!(out, "\n## Causes credited, and divergences unexplained\n");
    let _ = writeln!(
        out,
        "A bucket's candidate cause is the first set of knob alternatives and deviations under \
         which the oracle gives the parser's answer on one check; its minimised example is then \
         examined (the parser asked about the example's neighbours, weighed with its answers to \
         the file's other checks), and only a cause that evidence credits counts the bucket's \
         files. Files are counted per bucket (a file may be in more than one).\n"
    );
    for line in credit_lines(results) {
        let _ = writeln!(out, "- {}", md(&line));
    }
    let _ = writeln!(out, "\n## Buckets by candidate cause (largest first)\n");
    let _ = writeln!(
        out,
        "| adapter | candidate cause | examined | files | checks | by kind of URL | in ledger | example (minimised) |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---:|---|---|---|");
    for b in results.buckets_by_size().into_iter().take(LISTED_BUCKETS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | `{}` asks `{}`: {} says {}, got {} (from {}) |",
            b.adapter,
            md(&b.cause),
            md(&examined(&b.example)),
            thousands(b.files.count),
            thousands(b.checks),
            bucket_kinds(b),
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

/// How many files carry AI-usage lines, and which: "12 files (0.28%) carry AI-usage lines: 20
/// lines, 13 Content-Usage and 7 Content-Signal", then the lines without a colon, which are no
/// AI-usage lines and stay in the body.
pub fn ai_usage_files_line(results: &Results) -> String {
    let ai = &results.ai_usage;
    let mut line = format!(
        "{} file(s) ({}) carry AI-usage lines: {} line(s), {} Content-Usage and {} Content-Signal",
        thousands(ai.files.count),
        percent(ai.files.count, results.files),
        thousands(ai.content_usage + ai.content_signal),
        thousands(ai.content_usage),
        thousands(ai.content_signal)
    );
    if ai.without_colon > 0 {
        line.push_str(&format!(
            "; {} line(s) in {} file(s) start with one of the names but have no colon (no field line: kept, not removed)",
            thousands(ai.without_colon),
            thousands(ai.files_without_colon)
        ));
    }
    line
}

/// One adapter's answer to question 1 on real files: "removing the AI-usage lines changes 3 of
/// 120 verdicts, on 2 of 10 files", then the checks not compared (an answer not obtained on
/// either body is never counted as unchanged).
pub fn ai_usage_line(t: &crate::tally::AiUsageRemoved) -> String {
    if t.files == 0 {
        return "asked about no file with AI-usage lines".to_string();
    }
    let mut line = format!(
        "removing the AI-usage lines changes {} of {} verdicts, on {} of {} files",
        thousands(t.compared.disagree),
        thousands(t.compared.checks),
        thousands(t.compared.files_disagree),
        thousands(t.files)
    );
    if t.not_compared_checks() > 0 {
        let why: Vec<String> = t
            .not_compared
            .iter()
            .map(|(why, n)| format!("{why}: {}", thousands(*n)))
            .collect();
        line.push_str(&format!(
            "; {} of {} checks not compared, no verdict obtained ({})",
            thousands(t.not_compared_checks()),
            thousands(t.checks),
            why.join(", ")
        ));
    }
    line
}

/// The oracle's verdicts with and without the AI-usage lines, per profile: "rfc9309: 0 of 120
/// verdicts change".
pub fn ai_usage_oracle_line(results: &Results) -> String {
    let parts: Vec<String> = results
        .ai_usage
        .oracle
        .iter()
        .map(|(profile, c)| {
            format!(
                "{profile} {} of {}",
                thousands(c.disagree),
                thousands(c.checks)
            )
        })
        .collect();
    format!(
        "the oracle's verdicts that removing them changes, per profile: {}",
        parts.join(", ")
    )
}

/// A changed verdict in words: "`file` asks `agent` `url`: allowed with the lines, disallowed
/// without (lines: ...)".
pub fn ai_usage_example(e: &crate::tally::AiUsageChange) -> String {
    format!(
        "{} check {}: {} asks {}: {} with the lines, {} without (lines: {})",
        e.file,
        e.check,
        e.agent,
        e.url,
        e.with_lines,
        e.without_lines,
        e.lines.join(" / ")
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::AdapterTally;

    /// One adapter that differs on 1 of 10 URLs as written and on 9 of 10 respellings.
    fn results() -> Results {
        let mut results = Results::new(vec!["google".into()]);
        results.files = 1;
        results.checks = 20;
        let mut tally = AdapterTally {
            library: "x 1 (Rust)".into(),
            profile: "google".into(),
            files: 1,
            checks: 20,
            answered: crate::tally::Counted {
                checks: 20,
                files: 1,
            },
            ..AdapterTally::default()
        };
        let checks = (0..10)
            .map(|i| (UrlKind::AsWritten, Some(i == 0)))
            .chain((0..10).map(|i| (UrlKind::FirstLetterEncoded, Some(i > 0))));
        tally.add_compared("google", checks);
        results.adapters.insert("x".into(), tally);
        results
    }

    #[test]
    fn the_headline_is_over_urls_as_written_with_the_others_beside_it() {
        let results = results();
        assert_eq!(results.disagreement_as_written(), 0.1);
        assert_eq!(results.disagreement(), 0.5);
        let line = headline(&results);
        let written = line
            .find("on URLs as written in the files, 10.00%")
            .unwrap();
        let all = line.find("respellings included, 50.00%").unwrap();
        assert!(written < all, "{line}");

        let summary: serde_json::Value = serde_json::from_str(&summary_line(&results)).unwrap();
        assert_eq!(summary["disagreement"], 0.1);
        assert_eq!(summary["disagreement_all_kinds"], 0.5);
        assert_eq!(summary["disagreement_by_kind"]["as-written"], 0.1);
        assert_eq!(summary["disagreement_by_kind"]["first-letter-encoded"], 0.9);
        assert!(summary["disagreement_by_kind"].get("query-added").is_none());

        let text = text(&results);
        assert!(text.starts_with(&line), "{text}");
        assert!(
            text.contains("first-letter-encoded  compared         10  differ  90.00%"),
            "{text}"
        );
        assert!(text.contains("as written: differ 10.0%"), "{text}");
        let markdown = markdown(&results);
        assert!(markdown.contains(&line));
        assert!(markdown.contains("| `as-written` |"), "{markdown}");
        assert!(
            // The claimed profile's columns, in bold: as written, then every URL.
            markdown.contains("| x | google | **10.0% · 50.0%** | **100.0% · 100.0%** |"),
            "{markdown}"
        );
        let html = crate::html::render(&results);
        assert!(html.contains(&robotstxt_prose::html::escape(&line)));
        assert!(html.contains("<td><code>first-letter-encoded</code></td>"));
    }

    #[test]
    fn an_adapter_under_99_percent_answered_is_marked_in_every_format() {
        let mut results = results();
        assert!(!text(&results).contains("UNDER 99%"));
        assert!(!markdown(&results).contains("⚠"));
        let tally = results.adapters.get_mut("x").unwrap();
        tally.answered.checks = 6;
        tally.answered.files = 0;
        let line = headline(&results);
        assert!(
            line.contains("so their rates rest on the answers they gave: x"),
            "{line}"
        );
        let text = text(&results);
        assert!(
            text.contains("answered 30.0% of checks, 0.0% of files")
                && text.contains(
                    "UNDER 99% ANSWERED: answered 30.0% of its checks and 0.0% of its files"
                ),
            "{text}"
        );
        let markdown = markdown(&results);
        assert!(
            markdown.contains("| x ⚠ under 99% answered | google |")
                && markdown.contains("- ⚠ `x`: answered 30.0% of its checks"),
            "{markdown}"
        );
        let html = crate::html::render(&results);
        assert!(
            html.contains("<li>⚠ x: answered 30.0% of its checks") && html.contains("⚠ x (google)"),
            "{html}"
        );
    }

    #[test]
    fn kinds_merge_like_every_other_count() {
        let mut a = results();
        let b = results();
        a.merge(&b).unwrap();
        let t = &a.adapters["x"];
        assert_eq!(t.against["google"].checks, 40);
        assert_eq!(t.against_by_kind["google"]["as-written"].disagree, 2);
        assert_eq!(t.against_by_kind["google"]["as-written"].files, 2);
        assert_eq!(a.disagreement_as_written(), 0.1);
    }
}
