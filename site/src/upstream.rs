//! A ready-to-file upstream report, for one parser and one cause: a one-line title saying what the
//! parser does, the minimal robots.txt as an exact copy-paste block (as base64 and a file beside
//! it when it holds octets a copy from a page would lose), the agent and URL, a command that
//! reproduces it with this tool, what each document expects with its words, the corpus checks
//! that show it and how many real files it affects.
//!
//! Each report is `reports/<id>/<name>.md` (Markdown, to paste), `reports/<id>/<name>.html` (the
//! same, served as UTF-8 HTML: a static host may serve `.md` without a charset) and
//! `reports/<id>/<name>.robots.txt` (the body's exact octets). `<name>` comes from the cause alone
//! ([`report_name`]), so its address does not change with the order of the parser's page.

use base64::Engine as _;
use robotstxt_adapters::Identity;
use robotstxt_oracle::{Fetch, ProfileId};

use crate::causes::Cause;
use crate::divergence::{notes, CauseGroup};
use crate::page::{attr, file_safe, pre, shell, SitePath};
use crate::Inputs;
use robotstxt_matrix::fingerprint::Standing;
use robotstxt_matrix::report::badge::{profile_title, thousands};
use robotstxt_matrix::results::Row;
use robotstxt_prose::glossary;

/// The octets of a body a report shows in its text block (the file beside it has them all).
const SHOWN: usize = 4096;

/// The longest title, in characters (a title is one line; GitHub takes 256).
const TITLE: usize = 250;

/// A report's file name (without extension), from its cause alone: the knob's number (`K7`), the
/// deviation's id (`D-typo-fields`), several joined (`K6_D-dollar-anywhere`), a behaviour
/// group's `unexplained-<key>`, or, for a cause no knob or deviation names, `unnamed-` and a hash
/// of what names it (its reason). The one place report names are made.
pub fn report_name(cause: &Cause) -> String {
    match (cause, cause.name()) {
        (Cause::Unnamed(reason), _) => format!("unnamed-{:016x}", fnv1a(reason.as_bytes())),
        (_, Some(name)) => file_safe(&name),
        (_, None) => format!("unnamed-{:016x}", fnv1a(cause.title().as_bytes())),
    }
}

/// The site path of a report, without its extension (`reports/<id>/<name>`).
pub fn report_stem(adapter: &str, cause: &Cause) -> String {
    format!("reports/{}/{}", file_safe(adapter), report_name(cause))
}

/// FNV-1a, 64 bits: fixed by its definition, so a name stays the same across builds and machines.
fn fnv1a(octets: &[u8]) -> u64 {
    octets.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One report, in every form the site serves.
pub struct Report {
    /// The one-line title.
    pub title: String,
    /// The Markdown.
    pub markdown: String,
    /// The body's exact octets.
    pub body: Vec<u8>,
}

/// Whether `body` survives being copied from a page and pasted: valid UTF-8 with no CR, NUL,
/// byte-order mark or control character other than LF and tab.
pub fn pastes_exactly(body: &[u8]) -> bool {
    std::str::from_utf8(body).is_ok_and(|text| {
        !text
            .chars()
            .any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{feff}')
    })
}

/// `value` quoted for a POSIX shell.
pub fn shell_quote(value: &str) -> String {
    if !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c))
    {
        return value.to_string();
    }
    format!("'{}'", value.replace('\'', "'\\''"))
}

/// The title: what the parser does, in words, and what its claimed profile expects instead.
pub fn title(inputs: &Inputs, identity: &Identity, group: &CauseGroup<'_>) -> String {
    let example = group.example(&inputs.results);
    let answer = example
        .adapters
        .get(&identity.id)
        .map_or("no answer", |c| c.answer.kind());
    let expected = example
        .expected
        .get(&identity.profile)
        .map_or("(none)", |v| v.name());
    let does = match &group.cause {
        Cause::Deviation(id) => robotstxt_oracle::Deviation::from_id(id)
            .map(|d| format!("{} ({id})", first_clause(d.entry().summary))),
        Cause::Knob(number) => reading_of(inputs, identity, number),
        Cause::Combined(parts) => {
            let each: Option<Vec<String>> = parts
                .iter()
                .map(|part| match part {
                    Cause::Deviation(id) => robotstxt_oracle::Deviation::from_id(id)
                        .map(|d| format!("{} ({id})", first_clause(d.entry().summary))),
                    Cause::Knob(number) => reading_of(inputs, identity, number),
                    _ => None,
                })
                .collect();
            each.map(|each| each.join(", and "))
        }
        Cause::Behaviour(_) => None,
        Cause::Unnamed(reason) => Some(first_clause(reason)),
    };
    let words = match does {
        Some(does) => format!(
            "{} {}: {does} ({answer} where {} expects {expected})",
            identity.library,
            identity.version,
            profile_title(identity.profile)
        ),
        None => format!(
            "{} {} answers {answer} where {} expects {expected} ({})",
            identity.library,
            identity.version,
            profile_title(identity.profile),
            group.cause.title()
        ),
    };
    let words = words.replace(['\n', '\r'], " ").replace('`', "");
    cut_at_word(&words, TITLE)
}

/// The first clause of a sentence: up to the first `: `, `; ` or `. ` outside parentheses.
fn first_clause(text: &str) -> String {
    let mut depth = 0usize;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ':' | ';' | '.' if depth == 0 && chars.get(i + 1) == Some(&' ') => {
                return chars[..i].iter().collect();
            }
            _ => {}
        }
    }
    text.trim_end_matches('.').to_string()
}

/// `text` cut to at most `max` characters at a word's end, with `…` when cut.
fn cut_at_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max - 1).collect();
    let head = head.rsplit_once(' ').map_or(head.as_str(), |(h, _)| h);
    format!("{head}…")
}

/// What the parser's fingerprint says it does on knob `number` where that differs from its claimed
/// profile, in words: the first such field's alternative.
fn reading_of(inputs: &Inputs, identity: &Identity, number: &str) -> Option<String> {
    let fingerprint = inputs
        .results
        .summary
        .iter()
        .find(|s| s.adapter == identity.id)?
        .fingerprint
        .as_ref()?;
    fingerprint
        .dimensions
        .iter()
        .filter(|(label, _)| label.split(' ').next() == Some(number))
        .find_map(|(label, standing)| match standing {
            Standing::Consistent { alternatives, .. } if alternatives[0] != "base" => {
                Some(glossary::alternative_words(label, &alternatives[0]))
            }
            _ => None,
        })
}

/// The report.
pub fn report(
    inputs: &Inputs,
    identity: &Identity,
    group: &CauseGroup<'_>,
    impact: &str,
) -> Report {
    let results = &inputs.results;
    let example: &Row = group.example(results);
    let claimed = identity.profile;
    let answer = example
        .adapters
        .get(&identity.id)
        .map_or("no answer", |cell| cell.answer.kind());
    let expected = example
        .expected
        .get(&claimed)
        .map_or("(none)", |v| v.name());
    let title = title(inputs, identity, group);
    let case = inputs.corpus.cases.iter().find(|c| c.id == example.case);
    let body = case.map(|c| c.body.clone()).unwrap_or_default();
    let stem = report_stem(&identity.id, &group.cause);
    let body_file = format!("{}.robots.txt", report_name(&group.cause));

    let mut out = format!("# {title}\n\n");
    out.push_str(&format!(
        "{} {} claims to follow {}. On the smallest of the {} corpus check{} where it diverges for \
this reason ({}), it answers `{answer}` where the document expects `{expected}`.\n\n",
        identity.library,
        identity.version,
        profile_title(claimed),
        group.rows.len(),
        if group.rows.len() == 1 { "" } else { "s" },
        group.cause.title(),
    ));

    out.push_str("## Minimal robots.txt\n\n");
    if pastes_exactly(&body) && body.len() <= SHOWN {
        let text = String::from_utf8_lossy(&body);
        let fence = "`".repeat(longest_run(&text, '`').max(2) + 1);
        out.push_str(&format!(
            "Exactly these {} octets{}:\n\n{fence}\n{}\n{fence}\n\n",
            thousands(body.len() as u64),
            if body.ends_with(b"\n") || body.is_empty() {
                ""
            } else {
                " (no line end after the last line)"
            },
            text.strip_suffix('\n').unwrap_or(&text)
        ));
    } else {
        let why = if body.len() > SHOWN {
            format!("it is {} octets long", thousands(body.len() as u64))
        } else {
            "it holds octets a copy from a page would lose or change (a CR, a NUL, a byte-order \
             mark, a control character or invalid UTF-8)"
                .to_string()
        };
        out.push_str(&format!(
            "The body is given as a file, since {why}: [`{body_file}`]({body_file}) ({} octets).",
            thousands(body.len() as u64)
        ));
        if body.len() <= SHOWN {
            out.push_str(&format!(
                " Or decode it exactly:\n\n```sh\nbase64 -d > robots.txt <<'EOF'\n{}\nEOF\n```\n\n",
                base64_lines(&body)
            ));
        } else {
            out.push_str("\n\n");
        }
        out.push_str(&format!(
            "To read (not to copy), with invisible octets shown as `⟨CR⟩`, `⟨xFF⟩`...:\n\n```\n{}\n```\n\n",
            robotstxt_matrix::render::visible(&body, SHOWN)
        ));
    }
    if let Some(case) = results.cases.get(&example.case) {
        if let Some(fetch) = &case.fetch {
            out.push_str(&format!(
                "Fetched with: {}.\n\n",
                robotstxt_matrix::report::fetch_text(fetch)
            ));
        }
    }
    out.push_str(&format!(
        "## Question\n\n- User agent: `{}`\n- URL: `{}`\n\n",
        example.agent, example.url
    ));

    out.push_str("## Reproduce\n\nWith robotstxt-conformance (from a clone of its repository, after its README's set-up; `cargo run --release --` runs it there), save the body as `robots.txt`, then:\n\n```sh\n");
    out.push_str(&reproduce_command(
        identity,
        example,
        case.map(|c| c.fetch).unwrap_or_default(),
    ));
    out.push_str("\n```\n\nor run the corpus check itself:\n\n```sh\n");
    out.push_str(&format!(
        "robotstxt-conformance run --adapter {} --cases {}\n",
        shell_quote(&identity.id),
        shell_quote(&example.check_id())
    ));
    out.push_str("```\n\n");

    out.push_str("## Expected, per document\n\n| document | verdict |\n|---|---|\n");
    for profile in ProfileId::ALL {
        if let Some(verdict) = example.expected.get(&profile) {
            out.push_str(&format!(
                "| {} | `{}` |\n",
                profile_title(profile),
                verdict.name()
            ));
        }
    }
    out.push_str("\nThe documents' words, as the corpus quotes them:\n\n");
    for note in notes(&inputs.corpus, example) {
        for line in note.trim().lines() {
            out.push_str(&format!("> {line}\n"));
        }
        if glossary::quotes_html(note).contains("lang=\"ru\"") {
            out.push_str(&format!(">\n> ({})\n", glossary::TRANSLATION_NOTE));
        }
        out.push('\n');
    }
    for part in group.cause.parts() {
        let Cause::Deviation(id) = part else {
            continue;
        };
        if let Some(d) = robotstxt_oracle::Deviation::from_id(id) {
            out.push_str(&format!("The reading, {id}, breaks:\n\n"));
            for sentence in d.entry().breaks {
                out.push_str(&format!("- {sentence}\n"));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "## What {} answers\n\n`{answer}`\n\n",
        identity.library
    ));
    out.push_str(&format!(
        "## Corpus checks that show it ({})\n\n",
        thousands(group.rows.len() as u64)
    ));
    for row in group.rows.iter().take(20) {
        out.push_str(&format!("- `{}`\n", row.check_id()));
    }
    if group.rows.len() > 20 {
        out.push_str(&format!("- ... and {} more\n", group.rows.len() - 20));
    }
    out.push_str(&format!("\n## Real-world impact\n\n{impact}\n\n"));
    out.push_str(&format!(
        "Found with robotstxt-conformance (corpus {}), `{}` adapter ({} {}). This report: `{stem}.md`.\n",
        robotstxt_spec::CORPUS_VERSION,
        identity.id,
        identity.library,
        identity.version,
    ));
    Report {
        title,
        markdown: out,
        body,
    }
}

/// `check` asked of the parser and the oracle, on the body saved as `robots.txt`, fetched with
/// `fetch`.
pub fn reproduce_command(identity: &Identity, example: &Row, fetch: Fetch) -> String {
    let fetch = match fetch {
        Fetch::Unreachable => " --unreachable".to_string(),
        Fetch::Status {
            status: 200,
            redirects: 0,
        } => String::new(),
        Fetch::Status {
            status,
            redirects: 0,
        } => format!(" --status {status}"),
        Fetch::Status { status, redirects } => {
            format!(" --status {status} --redirects {redirects}")
        }
    };
    format!(
        "robotstxt-conformance check --robots robots.txt --agent {} --url {}{fetch} --adapter {} --explain",
        shell_quote(&example.agent),
        shell_quote(&example.url),
        shell_quote(&identity.id),
    )
}

/// The report as an HTML page (UTF-8 declared): the title and the Markdown to copy, and links to
/// the `.md` and the body's file.
pub fn html(stem: &str, report: &Report) -> String {
    let path = SitePath(format!("{stem}.html"));
    let name = stem.rsplit('/').next().unwrap_or(stem);
    let body = format!(
        "<h1>Upstream report</h1>\n<p>Ready to file as it is: the title, then the body (Markdown). \
Also as <a href=\"{md}\">{md}</a>; the robots.txt's exact octets: <a href=\"{raw}\">{raw}</a>.</p>\n\
<h2>Title</h2>\n{}\n<h2>Body</h2>\n{}",
        pre(&report.title),
        pre(&report.markdown),
        md = attr(&format!("{name}.md")),
        raw = attr(&format!("{name}.robots.txt")),
    );
    shell(&path, &report.title, &body)
}

fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        if ch == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Base64 in lines of 76 characters.
fn base64_lines(octets: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(octets);
    encoded
        .as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_cause_alone() {
        assert_eq!(report_name(&Cause::Knob("K7".into())), "K7");
        assert_eq!(
            report_name(&Cause::Deviation("D-typo-fields".into())),
            "D-typo-fields"
        );
        let a = report_name(&Cause::Unnamed("why".into()));
        assert_eq!(a, report_name(&Cause::Unnamed("why".into())));
        assert_ne!(a, report_name(&Cause::Unnamed("why not".into())));
        assert!(a.starts_with("unnamed-") && a.len() == "unnamed-".len() + 16);
    }

    #[test]
    fn bodies_that_a_copy_would_change_are_not_pasted() {
        assert!(pastes_exactly(b"User-agent: *\n\tDisallow: /caf\xC3\xA9\n"));
        for bad in [&b"a\r\nb"[..], b"a\0", b"\xEF\xBB\xBFa", b"\xFF", b"\x0b"] {
            assert!(!pastes_exactly(bad), "{bad:?}");
        }
        assert_eq!(shell_quote("FooBot"), "FooBot");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("https://a/b?c=d&e"), "'https://a/b?c=d&e'");
    }
}
