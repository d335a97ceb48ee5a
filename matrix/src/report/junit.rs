//! `junit.xml`: the run as JUnit XML for CI dashboards.
//!
//! One `<testsuite>` per oracle profile (`oracle-<profile>`: a failure is the oracle disagreeing
//! with the corpus), one per adapter that ran, and one per unavailable adapter (a single skipped
//! test). An adapter's test cases are its checks, `classname` the adapter id and `name` the check id
//! (`<case-id>#<n>`): a `<failure>` for an unexpected or fixed divergence, `<skipped>` for a check
//! not asked, and a pass otherwise, an expected divergence saying its ledger reason in
//! `<system-out>`. A stale ledger entry is a failing test named `ledger:<entry>`.
//!
//! All text is escaped, and characters XML 1.0 forbids (control characters other than tab, LF and
//! CR; U+FFFE, U+FFFF) are written as `⟨x01⟩`, ... instead: bodies contain NUL.

use super::{
    abridge, cut, expected_name, fetch_text, inline, one_line, status_name, summary_of,
    unexpected_text, Unexpected,
};
use crate::results::{AdapterColumn, Results, Row, Status};

/// How much of a body a failure shows, in characters (the matrix has the rest).
const MAX_BODY: usize = 1024;

/// Renders the XML document.
pub fn render(results: &Results) -> String {
    let mut suites = Vec::new();
    for profile in &results.profiles {
        let name = format!("oracle-{}", profile.name());
        let mut suite = Suite::new(&name);
        for row in &results.rows {
            let Some(oracle) = row.oracle.get(profile) else {
                continue;
            };
            let mut case = Case::new(&name, &row.check_id());
            if !oracle.agrees {
                case.outcome = Outcome::Failure {
                    kind: "oracle-disagrees",
                    message: format!(
                        "the oracle says {}, the corpus expects {}",
                        oracle.verdict.name(),
                        expected_name(row, *profile)
                    ),
                    detail: format!(
                        "{}\n{}",
                        check_text(results, row),
                        abridge(&oracle.explanation)
                    ),
                };
            }
            suite.cases.push(case);
        }
        suites.push(suite);
    }
    for column in &results.adapters {
        suites.push(adapter_suite(results, column));
    }
    for u in &results.unavailable {
        let mut suite = Suite::new(&u.id);
        let mut case = Case::new(&u.id, "available");
        let mut message = format!("unavailable: {}", u.reason);
        if !u.fix.is_empty() {
            message.push_str(&format!(" (fix: {})", u.fix));
        }
        case.outcome = Outcome::Skipped(message);
        suite.cases.push(case);
        suites.push(suite);
    }

    let total = |f: fn(&Suite) -> usize| suites.iter().map(f).sum::<usize>();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
        escape(&results.tool),
        total(|s| s.cases.len()),
        total(Suite::failures),
        total(Suite::skipped)
    ));
    for suite in &suites {
        suite.write(&mut out);
    }
    out.push_str("</testsuites>\n");
    out
}

fn adapter_suite(results: &Results, column: &AdapterColumn) -> Suite {
    let identity = &column.identity;
    let id = &identity.id;
    let mut suite = Suite::new(id);
    suite.properties = [
        ("library", identity.library.as_str()),
        ("version", identity.version.as_str()),
        ("language", identity.language.as_str()),
        ("claimed-profile", identity.profile.name()),
        ("ledger", column.ledger.as_str()),
    ]
    .map(|(name, value)| (name.to_string(), value.to_string()))
    .to_vec();
    if let Some(summary) = summary_of(results, id) {
        suite.properties.push((
            "nearest-profile".to_string(),
            summary.nearest.name().to_string(),
        ));
        for (profile, tally) in &summary.profiles {
            suite.properties.push((
                format!("pass-rate-{}", profile.name()),
                super::percent(tally),
            ));
        }
    }
    for row in &results.rows {
        let Some(cell) = row.adapters.get(id) else {
            continue;
        };
        let mut case = Case::new(id, &row.check_id());
        let claimed = identity.profile;
        match cell.status {
            Status::Pass => {}
            Status::NotApplicable => {
                case.outcome = Outcome::Skipped(match cell.answer.detail() {
                    Some(reason) => format!("not asked: {}", one_line(reason, 300)),
                    None => "not asked".to_string(),
                });
            }
            Status::ExpectedDivergence => {
                case.system_out = Some(format!(
                    "expected divergence: got {}, {} expects {}\nledger ({}): {}",
                    cell.answer,
                    claimed.name(),
                    expected_name(row, claimed),
                    column.ledger,
                    cell.reason.as_deref().unwrap_or("(no reason given)")
                ));
            }
            Status::UnexpectedDivergence | Status::FixedDivergence => {
                let u = Unexpected { row, column, cell };
                let mut detail = check_text(results, row);
                detail.push_str(&format!("answer: {}\n", cell.answer));
                if let Some(reason) = &cell.reason {
                    detail.push_str(&format!("ledger ({}): {reason}\n", column.ledger));
                }
                if let Some(case) = results.cases.get(&row.case) {
                    detail.push_str("body:\n");
                    detail.push_str(&cut(&case.body_visible, MAX_BODY));
                    detail.push('\n');
                }
                case.outcome = Outcome::Failure {
                    kind: if cell.status == Status::FixedDivergence {
                        "fixed-divergence"
                    } else {
                        "unexpected-divergence"
                    },
                    message: format!(
                        "{}: {}",
                        status_name(cell.status),
                        unexpected_text(&u, 300, true)
                    ),
                    detail,
                };
            }
        }
        suite.cases.push(case);
    }
    if let Some(summary) = summary_of(results, id) {
        for entry in &summary.ledger.stale {
            let mut case = Case::new(id, &format!("ledger:{entry}"));
            case.outcome = Outcome::Failure {
                kind: "stale-ledger-entry",
                message: format!(
                    "the ledger {} lists {entry}, which names no check of the corpus",
                    column.ledger
                ),
                detail: String::new(),
            };
            suite.cases.push(case);
        }
    }
    suite
}

/// The check in a few lines: case title, id, citations, fetch outcome, robots.txt URL, agent, URL.
fn check_text(results: &Results, row: &Row) -> String {
    let mut text = String::new();
    if let Some(case) = results.cases.get(&row.case) {
        text.push_str(&format!("{}: {}\n", row.check_id(), case.title));
        if !case.cite.is_empty() {
            text.push_str(&format!("cites: {}\n", case.cite.join(", ")));
        }
        if let Some(fetch) = &case.fetch {
            text.push_str(&format!("fetch: {}\n", fetch_text(fetch)));
        }
        if let Some(robots_url) = &case.robots_url {
            text.push_str(&format!("robots.txt URL: {}\n", inline(robots_url)));
        }
    } else {
        text.push_str(&format!("{}\n", row.check_id()));
    }
    text.push_str(&format!(
        "agent: {}\nurl: {}\n",
        inline(&row.agent),
        inline(&row.url)
    ));
    if let Some(at) = &row.at {
        text.push_str(&format!("at: {}\n", inline(at)));
    }
    text
}

struct Suite {
    name: String,
    properties: Vec<(String, String)>,
    cases: Vec<Case>,
}

impl Suite {
    fn new(name: &str) -> Suite {
        Suite {
            name: name.to_string(),
            properties: Vec::new(),
            cases: Vec::new(),
        }
    }

    fn failures(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| matches!(c.outcome, Outcome::Failure { .. }))
            .count()
    }

    fn skipped(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| matches!(c.outcome, Outcome::Skipped(_)))
            .count()
    }

    fn write(&self, out: &mut String) {
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
            escape(&self.name),
            self.cases.len(),
            self.failures(),
            self.skipped()
        ));
        if !self.properties.is_empty() {
            out.push_str("    <properties>\n");
            for (name, value) in &self.properties {
                out.push_str(&format!(
                    "      <property name=\"{}\" value=\"{}\"/>\n",
                    escape(name),
                    escape(value)
                ));
            }
            out.push_str("    </properties>\n");
        }
        for case in &self.cases {
            case.write(out);
        }
        out.push_str("  </testsuite>\n");
    }
}

struct Case {
    classname: String,
    name: String,
    outcome: Outcome,
    system_out: Option<String>,
}

enum Outcome {
    Pass,
    Failure {
        kind: &'static str,
        message: String,
        detail: String,
    },
    Skipped(String),
}

impl Case {
    fn new(classname: &str, name: &str) -> Case {
        Case {
            classname: classname.to_string(),
            name: name.to_string(),
            outcome: Outcome::Pass,
            system_out: None,
        }
    }

    fn write(&self, out: &mut String) {
        out.push_str(&format!(
            "    <testcase classname=\"{}\" name=\"{}\"",
            escape(&self.classname),
            escape(&inline(&self.name))
        ));
        if matches!(self.outcome, Outcome::Pass) && self.system_out.is_none() {
            out.push_str("/>\n");
            return;
        }
        out.push_str(">\n");
        match &self.outcome {
            Outcome::Pass => {}
            Outcome::Failure {
                kind,
                message,
                detail,
            } => out.push_str(&format!(
                "      <failure type=\"{kind}\" message=\"{}\">{}</failure>\n",
                escape(&one_line(message, 500)),
                escape(detail)
            )),
            Outcome::Skipped(message) => out.push_str(&format!(
                "      <skipped message=\"{}\"/>\n",
                escape(&one_line(message, 500))
            )),
        }
        if let Some(text) = &self.system_out {
            out.push_str(&format!(
                "      <system-out>{}</system-out>\n",
                escape(text)
            ));
        }
        out.push_str("    </testcase>\n");
    }
}

/// Escapes `&`, `<`, `>`, `"` and `'`, and replaces each character XML 1.0 forbids (control
/// characters other than tab, LF and CR; U+FFFE and U+FFFF) with a visible `⟨xNN⟩`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("⟨x{:02X}⟩", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}
