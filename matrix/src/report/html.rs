//! `matrix.html` and `matrix/*.html`: the divergence matrix as self-contained pages (inline CSS and
//! a few lines of inline script, no external resource), none over 1.5 MB: the overview, the pages
//! of checks, the fingerprints ([`pages`]). The overview holds a summary, every parser's standing
//! on each RFC 9309 statement, from the cases' `covers` ([`section_view`]), and the groups' cells.
//!
//! Columns are the oracle's profiles, then each adapter. Checks on which every column behaves
//! alike (same verdict or answer kind, same status) share one matrix row, a [`Group`], which
//! expands to list its checks; the groups where something diverges come first. Each check expands
//! to its case, agent, URL, body, the oracle's explanations and any parser failure. A case's body is
//! rendered once, in the case list at the foot of the page, and copied into a check by the script
//! when the check is opened (without script, each check links to its case).
//!
//! Anchors are permanent: a case's element has its id as `id` (`rfc9309/longest-match/allow-wins-tie`)
//! and a check's its check id (`rfc9309/longest-match/allow-wins-tie#2`), so a link to
//! `matrix.html#<case-id>#<n>` lands on that check however the corpus grows; the script opens the
//! groups around it.
//!
//! Everything that comes from a case or a parser is escaped with [`escape`].

use std::collections::HashMap;

use robotstxt_oracle::ProfileId;
use robotstxt_prose::html::escape;

use super::{
    abridge, expected_name, fetch_text, inline, percent, prose, run_failures, status_name,
};
use crate::fingerprint::{self, Fingerprint, Standing};
use crate::results::{Results, Row, Status};

/// What one column shows for one check, as far as grouping is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The oracle's verdict or the adapter's answer kind (`allowed`, `either`, `crash`, ...), or
    /// `missing` when the column has nothing for the check.
    pub kind: &'static str,
    /// How it stands against the corpus or the adapter's ledger.
    pub mark: Mark,
}

/// How a cell stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The oracle agrees with the corpus, or the adapter passes under its claimed profile.
    Pass,
    /// The oracle disagrees with the corpus, which expects this verdict.
    OracleDisagrees(&'static str),
    /// A divergence the adapter's ledger lists.
    Expected,
    /// A divergence the ledger does not list (fails the run).
    Unexpected,
    /// The ledger lists a divergence but the adapter now passes (fails the run).
    Fixed,
    /// Not asked, for want of a capability.
    NotApplicable,
    /// The column has no answer for this check.
    Missing,
}

impl Mark {
    fn of(status: Status) -> Mark {
        match status {
            Status::Pass => Mark::Pass,
            Status::ExpectedDivergence => Mark::Expected,
            Status::UnexpectedDivergence => Mark::Unexpected,
            Status::FixedDivergence => Mark::Fixed,
            Status::NotApplicable => Mark::NotApplicable,
        }
    }

    /// Whether the cell fails the run (or, for the oracle, the corpus tests).
    fn fails(self) -> bool {
        matches!(
            self,
            Mark::Unexpected | Mark::Fixed | Mark::OracleDisagrees(_)
        )
    }
}

/// Checks that every column answers alike: one matrix row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// One cell per column: the oracle's profiles in `Results::profiles` order, then the adapters
    /// in `Results::adapters` order.
    pub cells: Vec<Cell>,
    /// The checks, as indices into `Results::rows`, in corpus order.
    pub rows: Vec<usize>,
}

impl Group {
    /// Cells that fail the run (or the corpus tests).
    fn failing(&self) -> usize {
        self.cells.iter().filter(|c| c.mark.fails()).count()
    }

    /// Adapter cells that diverge from their claimed profile, listed or not.
    fn diverging(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c.mark, Mark::Expected | Mark::Unexpected))
            .count()
    }

    /// Distinct answers among the adapters, and distinct verdicts among the profiles.
    fn spread(&self, profiles: usize) -> (usize, usize) {
        let distinct = |cells: &[Cell]| {
            let mut kinds: Vec<&str> = cells
                .iter()
                .filter(|c| !matches!(c.mark, Mark::NotApplicable | Mark::Missing))
                .map(|c| c.kind)
                .collect();
            kinds.sort_unstable();
            kinds.dedup();
            kinds.len()
        };
        (
            distinct(&self.cells[profiles..]),
            distinct(&self.cells[..profiles]),
        )
    }

    /// Whether nothing in the group diverges: every adapter passes, the oracle agrees.
    fn quiet(&self) -> bool {
        self.failing() == 0 && self.diverging() == 0
    }
}

/// The cells of one row, in column order.
fn signature(results: &Results, row: &Row) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(results.profiles.len() + results.adapters.len());
    for profile in &results.profiles {
        cells.push(match row.oracle.get(profile) {
            Some(oracle) => Cell {
                kind: oracle.verdict.name(),
                mark: if oracle.agrees {
                    Mark::Pass
                } else {
                    Mark::OracleDisagrees(expected_name(row, *profile))
                },
            },
            None => Cell {
                kind: "missing",
                mark: Mark::Missing,
            },
        });
    }
    for column in &results.adapters {
        cells.push(match row.adapters.get(&column.identity.id) {
            Some(cell) => Cell {
                kind: cell.answer.kind(),
                mark: Mark::of(cell.status),
            },
            None => Cell {
                kind: "missing",
                mark: Mark::Missing,
            },
        });
    }
    cells
}

/// The rows grouped by signature, the most interesting first: groups with a cell that fails the
/// run, then by how many adapters diverge from their claimed profile, how many distinct answers
/// the adapters give, how many distinct verdicts the profiles give; ties in corpus order. Groups
/// where every column agrees come last.
pub fn groups(results: &Results) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<Vec<Cell>, usize> = HashMap::new();
    for (i, row) in results.rows.iter().enumerate() {
        let cells = signature(results, row);
        match index.get(&cells) {
            Some(&g) => groups[g].rows.push(i),
            None => {
                index.insert(cells.clone(), groups.len());
                groups.push(Group {
                    cells,
                    rows: vec![i],
                });
            }
        }
    }
    let profiles = results.profiles.len();
    groups.sort_by_key(|g| {
        let (adapters, verdicts) = g.spread(profiles);
        (
            std::cmp::Reverse(g.failing() > 0),
            std::cmp::Reverse(g.diverging()),
            std::cmp::Reverse(adapters),
            std::cmp::Reverse(verdicts),
            g.rows[0],
        )
    });
    groups
}

/// Where the pages of the matrix hold each check and case, seen from one page: how to link to an
/// id (a case or check id) from `here`.
struct Place<'a> {
    /// Id → the page that holds it (`matrix/checks-2.html`).
    pages: &'a HashMap<String, String>,
    /// The page linking (`matrix.html`, `matrix/fingerprints.html`).
    here: &'a str,
}

impl Place<'_> {
    /// The link to `id`: on this page `#<id>`, else to the page holding it.
    fn href(&self, id: &str) -> String {
        let page = match self.pages.get(id) {
            Some(page) if page != self.here => page.as_str(),
            _ => return format!("#{}", fragment(id)),
        };
        let from_sub = self.here.contains('/');
        let to = match (from_sub, page.strip_prefix("matrix/")) {
            (true, Some(file)) => file.to_string(),
            (true, None) => format!("../{page}"),
            (false, _) => page.to_string(),
        };
        format!("{to}#{}", fragment(id))
    }

    /// A link to `id`, the id as its text; an id no page holds (a check of another run, say) is
    /// its text alone, never a link that leads nowhere.
    fn link_to(&self, id: &str) -> String {
        if !self.pages.contains_key(id) {
            return esc_inline(id);
        }
        format!(
            "<a href=\"{}\">{}</a>",
            escape(&self.href(id)),
            esc_inline(id)
        )
    }
}

/// An id as a URL fragment: ASCII letters, digits and `-._~/#:` as they are, every other octet
/// percent-encoded (the page's script decodes it before looking the id up).
pub fn fragment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/#:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A one-line value (agent, URL, id) made visible and escaped.
fn esc_inline(text: &str) -> String {
    escape(&inline(text))
}

/// Free text made visible and escaped.
fn esc_prose(text: &str) -> String {
    escape(&prose(text))
}

const STYLE: &str = "\
body{font:14px/1.4 system-ui,sans-serif;margin:1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}h4{margin:.6em 0 .2em;font-size:1em}
code,pre{font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.4em;margin:.3em 0;max-height:30em;overflow:auto}
pre[data-c]:empty{display:none}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:2px 5px;vertical-align:top}
.sum td.r{text-align:right}.sum td.cl{font-weight:bold}.sum td.nr::after{content:' \\25C6'}
.wrap{overflow-x:auto}
#m{table-layout:fixed;width:100%}
#m thead th{position:sticky;top:0;background:#fff;z-index:2;font-weight:normal;font-size:11px;vertical-align:bottom;height:120px;box-sizing:border-box}
#m thead th.v span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;display:inline-block}
#m thead th b{font-size:12px}
#m th.n{position:sticky;left:0;background:#fff;z-index:1;text-align:right;white-space:nowrap;width:6.5em}
#m thead th.n{z-index:3}
#m td{text-align:center;font-size:10px;padding:2px 0;overflow-wrap:normal;word-break:keep-all}
[id]{scroll-margin-top:1em}
.sec td{font-size:12px}.sec td:first-child{white-space:nowrap}.sec td:nth-child(2){width:34%}
.sec td.ok{color:#1d6b1d}.sec td.no{color:#a01818}.sec td.no a{color:#a01818}
#m details.ck,#m tbody [id]{scroll-margin-top:150px}
#m tbody{border-top:2px solid #888}
#m tr.l td{text-align:left;white-space:normal;font-size:12px;border-top:none}
#m.hq tbody.q{display:none}
.ka{background:#d4efd4}.kd{background:#f6cccc}.ke{background:#dcdcf5}.kg{background:#f3ead2}.ku{background:#e6e6e6;color:#666}
.kr{background:#ffe08a}.kc{background:#5b2a86;color:#fff}.kt{background:#9cc9ef}.km{background:#fff;color:#999}
.sx{outline:2px dashed #777;outline-offset:-3px}
.su,.so{outline:3px solid #d00;outline-offset:-3px;font-weight:bold}
.sf{outline:3px solid #e80;outline-offset:-3px}
.sn{opacity:.45}
.legend span{display:inline-block;padding:1px 6px;margin:2px;border:1px solid #ccc}
dl{display:grid;grid-template-columns:max-content auto;gap:0 1em;margin:.3em 0}dt{color:#666}dd{margin:0}
details.ck{margin:.2em 0}details.ck>summary{cursor:pointer}
details.ck>div{margin:.2em 0 .8em 1.2em}
ol.cks{margin:.3em 0;padding-left:2em}
.muted{color:#666}
.cite li{margin:.2em 0}.cite svg{vertical-align:middle}
.fail li{margin:.2em 0}
#fp{table-layout:fixed;width:100%}#fp th.n{width:13em;text-align:left;position:sticky;left:0;background:#fff}
#fp thead th.v{vertical-align:bottom;height:120px;font-weight:normal;font-size:11px}
#fp thead th.v span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;display:inline-block}
#fp td{font-size:11px;padding:2px 1px;text-align:center;hyphens:auto}#fp td details>summary{cursor:pointer;list-style:none}
#fp td details>summary::-webkit-details-marker{display:none}
#fp td details[open]>div{position:absolute;background:#fff;border:1px solid #999;padding:4px;z-index:5;text-align:left;max-width:28em}
.note{max-width:70em}q.ru{font-style:italic;quotes:none}.tr{color:#666;font-size:11px}sup.tr{font-size:9px}
.dep td{font-size:12px}.dep td:nth-child(4){width:55%}.dep ul{margin:0;padding-left:1.2em}dl.gl{grid-template-columns:max-content auto}
#fp td details>div{white-space:normal;min-width:14em}
.fb{background:#d4efd4}.fo{background:#dcdcf5}.fa{background:#f3ead2}.fd{background:#f6cccc}
.fi{background:#5b2a86;color:#fff}.fi a{color:#fff}.fn{background:#f2f2f2;color:#999}
";

const SCRIPT: &str = "\
document.addEventListener('toggle',function(e){var d=e.target;if(!d.open)return;\
d.querySelectorAll(':scope>div>pre[data-c]').forEach(function(p){if(p.dataset.f)return;p.dataset.f=1;\
var s=document.getElementById(p.dataset.c),b=s&&s.querySelector('pre');p.textContent=b?b.textContent:'';});},true);\
function openHash(){var r=location.hash.slice(1),h=r,t;try{h=decodeURIComponent(h);}catch(e){}\
t=h&&document.getElementById(h);\
if(!t){if(h&&Object.prototype.hasOwnProperty.call(PLACE,h)){location.replace(PLACE[h]+'#'+r);}else if(h&&ROOT){location.replace(ROOT+'matrix.html#'+r);}return;}\
for(var d=t;d;d=d.parentElement){\
if(d.tagName==='DETAILS')d.open=true;\
if(d.tagName==='TBODY'&&d.classList.contains('q')){var m=document.getElementById('m'),q=document.getElementById('quiet');\
if(m)m.classList.remove('hq');if(q)q.checked=false;}}t.scrollIntoView();}\
addEventListener('hashchange',openHash);openHash();\
var quiet=document.getElementById('quiet');if(quiet)quiet.addEventListener('change',function(e){\
document.getElementById('m').classList.toggle('hq',e.target.checked);});\
";

/// The most octets of checks and their cases one page of the matrix holds before the next page
/// starts: with its head and table, every page stays well under 1.5 MB.
const PART_BUDGET: usize = 700_000;

/// The matrix's overview page (`matrix.html`), as `run --format html` prints it; [`pages`] gives
/// every page.
pub fn render(results: &Results) -> String {
    pages(results).swap_remove(0).1
}

/// Every page of the matrix, each a path relative to the report's directory and its HTML:
/// `matrix.html` (the summary, RFC 9309 statement by statement, the matrix's groups with a link
/// to each group's checks), `matrix/checks-<n>.html` (the groups' checks in order, each check with
/// its anchor, and the bodies of their cases) and `matrix/fingerprints.html`. A link to
/// `matrix.html#<check-id>` or `#<case-id>` is sent on to the page that holds it.
pub fn pages(results: &Results) -> Vec<(String, String)> {
    let groups = groups(results);
    let checks: Vec<String> = results
        .rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            check(results, row, &mut out);
            out
        })
        .collect();
    let cases: HashMap<&str, usize> = results
        .cases
        .keys()
        .map(|id| {
            let mut out = String::new();
            case_list(results, &[id.as_str()], &mut out);
            (id.as_str(), out.len())
        })
        .collect();
    let parts = parts(results, &groups, &checks, &cases);
    // Where each check and case is: (id, page).
    let mut place: Vec<(String, String)> = Vec::new();
    let mut first_part: HashMap<usize, usize> = HashMap::new();
    for (p, part) in parts.iter().enumerate() {
        for (g, rows) in part {
            first_part.entry(*g).or_insert(p);
            for &i in rows {
                let row = &results.rows[i];
                place.push((row.check_id(), part_path(p)));
                if !place.iter().any(|(id, _)| *id == row.case) {
                    place.push((row.case.clone(), part_path(p)));
                }
            }
        }
    }

    let pages: HashMap<String, String> = place.iter().cloned().collect();
    let mut index = head(results, "");
    summary_table(results, &mut index);
    unavailable(results, &mut index);
    sections(
        results,
        &Place {
            pages: &pages,
            here: "matrix.html",
        },
        &mut index,
    );
    matrix_index(results, &groups, &first_part, &mut index);
    if results.summary.iter().any(|s| s.fingerprint.is_some()) {
        index.push_str(
            "<h2 id=\"fingerprints\">Fingerprints</h2>\n<p>Where each parser's answers stand on \
             every knob and deviation: <a href=\"matrix/fingerprints.html\">the fingerprints</a>.</p>\n",
        );
    }
    index.push_str(&foot(&place, ""));
    let mut out = vec![("matrix.html".to_string(), index)];

    for (p, part) in parts.iter().enumerate() {
        let mut page = head(
            results,
            &format!(" (checks, part {} of {})", p + 1, parts.len()),
        );
        page.push_str(&format!(
            "<p><a href=\"../matrix.html\">The matrix</a> \u{b7} part {} of {}{}{}</p>\n",
            p + 1,
            parts.len(),
            if p > 0 {
                format!(" \u{b7} <a href=\"{}\">previous</a>", part_file(p - 1))
            } else {
                String::new()
            },
            if p + 1 < parts.len() {
                format!(" \u{b7} <a href=\"{}\">next</a>", part_file(p + 1))
            } else {
                String::new()
            },
        ));
        matrix_part(results, &groups, part, &checks, &mut page);
        let mut cases: Vec<&str> = part
            .iter()
            .flat_map(|(_, rows)| rows.iter().map(|&i| results.rows[i].case.as_str()))
            .collect();
        cases.sort_unstable();
        cases.dedup();
        case_list(results, &cases, &mut page);
        page.push_str(&foot(&[], "../"));
        out.push((part_path(p), page));
    }

    let mut prints = head(results, " (fingerprints)");
    prints.push_str("<p><a href=\"../matrix.html\">The matrix</a></p>\n");
    fingerprints(
        results,
        &Place {
            pages: &pages,
            here: "matrix/fingerprints.html",
        },
        &mut prints,
    );
    glossary_section(&mut prints);
    prints.push_str(&foot(&[], "../"));
    out.push(("matrix/fingerprints.html".to_string(), prints));
    out
}

/// The path of the matrix's `p`-th page of checks (from 0), relative to the report's directory.
fn part_path(p: usize) -> String {
    format!("matrix/{}", part_file(p))
}

/// Its file name.
fn part_file(p: usize) -> String {
    format!("checks-{}.html", p + 1)
}

/// The groups' checks cut into pages, in group order: per page, (group, its checks on the page).
/// A page takes checks until their HTML and their cases' (`cases`: a case's size in the list)
/// pass [`PART_BUDGET`]; a group may go on over pages.
fn parts(
    results: &Results,
    groups: &[Group],
    checks: &[String],
    cases: &HashMap<&str, usize>,
) -> Vec<Vec<(usize, Vec<usize>)>> {
    let mut parts: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new()];
    let mut size = 0;
    let mut shown: Vec<&str> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        for &i in &group.rows {
            let case = results.rows[i].case.as_str();
            let case_size = if shown.contains(&case) {
                0
            } else {
                cases.get(case).copied().unwrap_or(0)
            };
            if size > 0 && size + checks[i].len() + case_size > PART_BUDGET {
                parts.push(Vec::new());
                size = 0;
                shown.clear();
            }
            if !shown.contains(&case) {
                shown.push(case);
                size += cases.get(case).copied().unwrap_or(0);
            }
            let part = parts.last_mut().expect("a part");
            match part.last_mut() {
                Some((last, rows)) if *last == g => rows.push(i),
                _ => part.push((g, vec![i])),
            }
            size += checks[i].len();
        }
    }
    parts
}

/// A page's start: its head (the style sheet inline), the title and what the run was.
fn head(results: &Results, what: &str) -> String {
    let mut out = String::with_capacity(1 << 20);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n");
    // The grid is wide enough that no column clips its longest word (`disallow` in 10 px type):
    // on a narrow screen the page scrolls sideways instead, the first column staying in view.
    let columns = results.profiles.len() + results.adapters.len();
    out.push_str(&format!(
        "<title>robots.txt conformance matrix{what}: {}</title>\n<style>\n{STYLE}#m{{min-width:{:.1}em}}\n</style>\n</head><body>\n",
        esc_inline(&results.tool),
        6.5 + 3.2 * columns as f64
    ));
    out.push_str(&format!(
        "<h1>robots.txt conformance matrix{}</h1>\n",
        escape(what)
    ));
    out.push_str(&format!(
        "<p class=\"muted\">{}: {} checks in {} cases{}",
        esc_inline(&results.tool),
        results.rows.len(),
        results.cases.len(),
        escape(&results.preference_headline())
    ));
    if let Some(filter) = &results.filter {
        out.push_str(&format!(
            " (cases matching <code>{}</code>)",
            esc_inline(filter)
        ));
    }
    let profiles: Vec<&str> = results.profiles.iter().map(|p| p.name()).collect();
    out.push_str(&format!("; oracle profiles {}. ", profiles.join(", ")));
    let (unexpected, fixed, stale) = run_failures(results);
    if unexpected + fixed + stale == 0 {
        out.push_str("Result: <b>passed</b>.</p>\n");
    } else {
        out.push_str(&format!(
            "Result: <b>failed</b>: {unexpected} unexpected divergence(s), {fixed} fixed \
             divergence(s), {stale} stale ledger entries.</p>\n"
        ));
    }
    out
}

/// A page's end: its script, with `place` (where each check and case not on this page is) on the
/// overview page; elsewhere an id not on the page is looked up on the overview (`root`).
fn foot(place: &[(String, String)], root: &str) -> String {
    let map: serde_json::Map<String, serde_json::Value> = place
        .iter()
        .map(|(id, page)| (id.clone(), serde_json::Value::from(page.as_str())))
        .collect();
    let map = serde_json::Value::Object(map)
        .to_string()
        .replace('<', "\\u003c");
    format!(
        "<script>\nvar PLACE={map},ROOT={};\n{SCRIPT}</script>\n</body></html>\n",
        serde_json::Value::from(root)
    )
}

fn summary_table(results: &Results, out: &mut String) {
    out.push_str("<h2>Summary</h2>\n");
    if results.adapters.is_empty() {
        out.push_str("<p>No adapter ran.</p>\n");
        return;
    }
    out.push_str("<table class=\"sum\"><thead><tr><th>adapter</th><th>library</th><th>claims</th>");
    for profile in &results.profiles {
        out.push_str(&format!("<th>{}</th>", profile.name()));
    }
    out.push_str(
        "<th>nearest</th><th>expected</th><th>unexpected</th><th>fixed</th><th>stale</th>\
         <th>n/a</th></tr></thead>\n<tbody>\n",
    );
    for column in &results.adapters {
        let identity = &column.identity;
        let summary = super::summary_of(results, &identity.id);
        out.push_str(&format!(
            "<tr><td><b>{}</b></td><td>{} {} <span class=\"muted\">({})</span></td><td>{}</td>",
            esc_inline(&identity.id),
            esc_inline(&identity.library),
            esc_inline(&identity.version),
            esc_inline(&identity.language),
            identity.profile.name()
        ));
        for profile in &results.profiles {
            let mut class = String::from("r");
            if *profile == identity.profile {
                class.push_str(" cl");
            }
            if summary.is_some_and(|s| s.nearest == *profile) {
                class.push_str(" nr");
            }
            let rate = summary
                .and_then(|s| s.profiles.get(profile))
                .map_or("n/a".to_string(), percent);
            out.push_str(&format!("<td class=\"{class}\">{rate}</td>"));
        }
        match summary {
            Some(s) => {
                let l = &s.ledger;
                out.push_str(&format!("<td>{}</td>", s.nearest.name()));
                for n in [l.expected, l.unexpected, l.fixed, l.stale.len()] {
                    out.push_str(&format!("<td class=\"r\">{n}</td>"));
                }
                out.push_str(&format!("<td class=\"r\">{}</td>", l.not_applicable));
            }
            None => out.push_str(&"<td>n/a</td>".repeat(6)),
        }
        out.push_str("</tr>\n");
    }
    out.push_str(
        "</tbody></table>\n<p class=\"muted\">Pass rate: the share of the checks asked whose \
         answer the profile expects. Bold: the profile the library claims; \u{25C6}: the profile \
         it agrees with most. Ledger columns: divergences from the claimed profile its ledger \
         lists (expected), does not list (unexpected), lists although the check now passes \
         (fixed), entries naming no check (stale), checks not asked (n/a).</p>\n",
    );
    out.push_str("<h3>Lines to cite</h3>\n<ul class=\"cite\">\n");
    for column in &results.adapters {
        let identity = &column.identity;
        let figures = super::badge::Figures::of(results, &identity.id, identity.profile);
        out.push_str(&format!(
            "<li id=\"cite-{}\">{} <b>{}</b>: {}</li>\n",
            escape(&identity.id),
            super::badge::svg_of(&identity.id, &figures).trim_end(),
            esc_inline(&identity.id),
            escape(&super::badge::line(&figures))
        ));
    }
    out.push_str("</ul>\n");
    if results.summary.iter().any(|s| s.ai_usage.is_some()) {
        out.push_str(&format!(
            "<h3 id=\"ai-usage\">Adding Content-Usage and Content-Signal lines</h3>\n<p \
             class=\"muted\">Each parser is asked the checks of the AI-usage cases \
             (<code>spec-cases/{}</code>) twice: on the case's body and on that body with its \
             Content-Usage and Content-Signal lines removed. A check with no verdict on either \
             body is not compared.</p>\n<ul class=\"cite\">\n",
            escape(crate::aiusage::CASES_DIR)
        ));
        for s in &results.summary {
            let Some(ai) = &s.ai_usage else { continue };
            let changed: Vec<String> = ai
                .changed_checks
                .iter()
                .take(5)
                .map(|c| format!("<code>{}</code>", esc_inline(c)))
                .collect();
            out.push_str(&format!(
                "<li><b>{}</b>: {}{}</li>\n",
                esc_inline(&s.adapter),
                escape(&ai.line()),
                if changed.is_empty() {
                    String::new()
                } else {
                    format!("; changed: {}", changed.join(", "))
                }
            ));
        }
        out.push_str("</ul>\n");
    }
    if results.summary.iter().any(|s| s.preferences.is_some()) {
        out.push_str(
            "<h3 id=\"preferences\">Which AI usage preference applies</h3>\n<p \
             class=\"muted\">The <code>aipref</code> checks ask which usage preference a file's \
             Content-Usage lines attach to a URL, for a crawler and a category of use. Only \
             adapters that announce the <code>preferences</code> capability are asked them.</p>\n\
             <ul class=\"cite\">\n",
        );
        for entry in crate::results::preference_lines(&results.summary).unwrap_or_default() {
            let differs: Vec<String> = entry
                .differs
                .iter()
                .take(5)
                .map(|c| format!("<code>{}</code>", esc_inline(c)))
                .collect();
            let ids: Vec<String> = entry.adapters.iter().map(|a| esc_inline(a)).collect();
            out.push_str(&format!(
                "<li><b>{}</b>: {}{}</li>\n",
                ids.join(", "),
                escape(&entry.line),
                if differs.is_empty() {
                    String::new()
                } else {
                    format!("; differs: {}", differs.join(", "))
                }
            ));
        }
        out.push_str("</ul>\n");
    }
    let stale: Vec<String> = results
        .summary
        .iter()
        .flat_map(|s| {
            s.ledger.stale.iter().map(move |entry| {
                format!(
                    "<li><b>{}</b>: <code>{}</code></li>",
                    esc_inline(&s.adapter),
                    esc_inline(entry)
                )
            })
        })
        .collect();
    if !stale.is_empty() {
        out.push_str("<h3>Stale ledger entries</h3>\n<ul>");
        out.push_str(&stale.join(""));
        out.push_str("</ul>\n");
    }
}

fn unavailable(results: &Results, out: &mut String) {
    if results.unavailable.is_empty() {
        return;
    }
    out.push_str("<h2>Unavailable adapters</h2>\n<ul>\n");
    for u in &results.unavailable {
        out.push_str(&format!(
            "<li><b>{}</b>: {}",
            esc_inline(&u.id),
            esc_prose(&robotstxt_prose::without_home(&u.reason))
        ));
        if !u.fix.is_empty() {
            out.push_str(&format!(
                "<br>fix: <code>{}</code>",
                esc_prose(&robotstxt_prose::without_home(&u.fix))
            ));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

/// How one parser stands on one RFC 9309 statement: its answers to the checks of the cases that
/// cover the statement, against RFC 9309's verdicts whatever profile the parser claims.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SectionStanding {
    /// Checks it answered with a verdict where RFC 9309's is `allowed`, `disallowed` or `either`.
    pub compared: usize,
    /// ... of which the verdict is not RFC 9309's (`either` accepts both).
    pub differ: usize,
    /// Checks answered `error`, `crash` or `timeout`.
    pub failed: usize,
    /// Checks not asked or answered `unsupported`.
    pub not_asked: usize,
    /// The first differing (else failing) check's id.
    pub first: Option<String>,
}

/// One RFC 9309 statement and every parser's standing on it ([`sections`]).
#[derive(Clone, Debug)]
pub struct Section {
    /// The statement (`spec-cases/rfc9309-statements.yaml`).
    pub statement: crate::cases::statements::Statement,
    /// The cases that cover it, in id order.
    pub cases: Vec<String>,
    /// Their checks, as indices into `Results::rows`.
    pub rows: Vec<usize>,
    /// Per adapter, in `Results::adapters` order: (id, standing).
    pub standings: Vec<(String, SectionStanding)>,
}

/// The RFC 9309 statements in file order, each with the cases that cover it and every parser's
/// standing on their checks (the cases' `covers`, as `cases coverage` maps them).
pub fn section_view(results: &Results) -> Vec<Section> {
    crate::cases::statements::statements()
        .iter()
        .map(|statement| {
            let cases: Vec<String> = results
                .cases
                .iter()
                .filter(|(_, c)| c.covers.contains(&statement.id))
                .map(|(id, _)| id.clone())
                .collect();
            let rows: Vec<usize> = results
                .rows
                .iter()
                .enumerate()
                .filter(|(_, r)| cases.contains(&r.case))
                .map(|(i, _)| i)
                .collect();
            let standings = results
                .adapters
                .iter()
                .map(|column| {
                    let id = &column.identity.id;
                    let mut standing = SectionStanding::default();
                    let mut first_failed = None;
                    for &i in &rows {
                        let row = &results.rows[i];
                        let expected = row.expected.get(&ProfileId::Rfc9309).copied();
                        let Some(cell) = row.adapters.get(id) else {
                            standing.not_asked += 1;
                            continue;
                        };
                        if cell.status == Status::NotApplicable {
                            standing.not_asked += 1;
                            continue;
                        }
                        match (cell.answer.verdict(), expected) {
                            (_, Some(robotstxt_oracle::Verdict::NotGoverned)) | (_, None) => {
                                standing.not_asked += 1
                            }
                            (Some(got), Some(expected)) => {
                                standing.compared += 1;
                                if expected != robotstxt_oracle::Verdict::Either && got != expected
                                {
                                    standing.differ += 1;
                                    standing.first.get_or_insert_with(|| row.check_id());
                                }
                            }
                            (None, _) if cell.answer.kind() == "unsupported" => {
                                standing.not_asked += 1
                            }
                            (None, _) => {
                                standing.failed += 1;
                                first_failed.get_or_insert_with(|| row.check_id());
                            }
                        }
                    }
                    if standing.first.is_none() {
                        standing.first = first_failed;
                    }
                    (id.clone(), standing)
                })
                .collect();
            Section {
                statement: statement.clone(),
                cases,
                rows,
                standings,
            }
        })
        .collect()
}

/// The view by document section: per RFC 9309 statement, who complies.
fn sections(results: &Results, place: &Place<'_>, out: &mut String) {
    if results.adapters.is_empty() {
        return;
    }
    let view = section_view(results);
    out.push_str(
        "<h2 id=\"sections\">RFC 9309, statement by statement: who complies?</h2>\n<p class=\"muted\">\
         Each normative statement of RFC 9309 sections 2.1 to 2.5 (<code>spec-cases/rfc9309-statements.yaml</code>, \
         in our words), with the checks of the cases that test it. Every parser is judged here against \
         RFC 9309's verdicts, whatever profile it claims (the matrix below judges it against its claim); \
         <code>either</code> accepts both verdicts. A parser's name links to its first differing check.</p>\n\
         <table class=\"sec\"><thead><tr><th>§</th><th>statement</th><th>complies on every check</th>\
         <th>differs</th><th>fails or not asked</th></tr></thead><tbody>\n",
    );
    for section in &view {
        let st = &section.statement;
        out.push_str(&format!(
            "<tr id=\"{}\"><td>{}</td><td><b>{}</b> {}<br><code class=\"muted\">{}</code>",
            escape(&format!("s-{}", st.id)),
            escape(&st.section),
            escape(&st.level),
            escape(&st.summary),
            esc_inline(&st.id)
        ));
        if section.rows.is_empty() {
            let why = st
                .untestable
                .as_deref()
                .map_or("no case in this run".to_string(), |u| {
                    format!("not testable: {u}")
                });
            out.push_str(&format!(
                "</td><td colspan=\"3\" class=\"muted\">{}</td></tr>\n",
                escape(&why)
            ));
            continue;
        }
        let links: Vec<String> = section.cases.iter().map(|c| place.link_to(c)).collect();
        out.push_str(&format!(
            "<details class=\"muted\"><summary>{} check{} in {} case{}</summary>{}</details></td>",
            section.rows.len(),
            if section.rows.len() == 1 { "" } else { "s" },
            section.cases.len(),
            if section.cases.len() == 1 { "" } else { "s" },
            links.join(", ")
        ));
        let name = |id: &str, standing: &SectionStanding, text: String| match &standing.first {
            Some(check) => format!(
                "<a href=\"{}\" title=\"{}\">{}</a>{}",
                escape(&place.href(check)),
                escape(&format!("first: {check}")),
                esc_inline(id),
                text
            ),
            None => format!("{}{text}", esc_inline(id)),
        };
        let mut complies = Vec::new();
        let mut differs = Vec::new();
        let mut other = Vec::new();
        for (id, standing) in &section.standings {
            if standing.differ > 0 {
                differs.push(name(
                    id,
                    standing,
                    format!(" ({} of {})", standing.differ, standing.compared),
                ));
            } else if standing.compared > 0 && standing.failed == 0 {
                complies.push(esc_inline(id));
            }
            if standing.failed > 0 || (standing.compared == 0 && standing.differ == 0) {
                let mut parts = Vec::new();
                if standing.failed > 0 {
                    parts.push(format!("{} failed", standing.failed));
                }
                if standing.not_asked > 0 {
                    parts.push(format!("{} not asked", standing.not_asked));
                }
                other.push(name(id, standing, format!(" ({})", parts.join(", "))));
            }
        }
        out.push_str(&format!(
            "<td class=\"ok\">{}</td><td class=\"no\">{}</td><td>{}</td></tr>\n",
            complies.join(", "),
            differs.join(", "),
            other.join(", ")
        ));
    }
    out.push_str("</tbody></table>\n");
}

/// The CSS class of an answer kind or verdict.
fn kind_class(kind: &str) -> &'static str {
    match kind {
        "allowed" => "ka",
        "disallowed" => "kd",
        "either" => "ke",
        "not-governed" => "kg",
        "unsupported" => "ku",
        "error" => "kr",
        "crash" => "kc",
        "timeout" => "kt",
        _ => "km",
    }
}

/// The word a matrix cell shows for a verdict or an answer kind (its title has the whole word).
fn short_kind(kind: &'static str) -> &'static str {
    match kind {
        "allowed" => "allow",
        "disallowed" => "disallow",
        "not-governed" => "not gov.",
        "unsupported" => "unsup.",
        other => other,
    }
}

/// A matrix cell's title: its verdict or answer and how it stands, in words.
fn cell_title(cell: &Cell) -> String {
    let standing = match cell.mark {
        Mark::Pass => "passes",
        Mark::OracleDisagrees(expected) => {
            return format!(
                "{}: the oracle disagrees with the corpus, which expects {expected}",
                cell.kind
            )
        }
        Mark::Expected => "a divergence its ledger lists",
        Mark::Unexpected => "an unexpected divergence (fails the run)",
        Mark::Fixed => "passes, but its ledger still lists a divergence (fails the run)",
        Mark::NotApplicable => return "not asked: the parser lacks the capability".to_string(),
        Mark::Missing => return "no answer".to_string(),
    };
    format!("{}: {standing}", cell.kind)
}

/// The CSS class and the text shown for a mark.
fn mark_class(mark: Mark) -> (&'static str, String) {
    match mark {
        Mark::Pass | Mark::Missing => ("", String::new()),
        Mark::OracleDisagrees(expected) => ("so", format!(" \u{2717} corpus: {expected}")),
        Mark::Expected => ("sx", " \u{2248}".to_string()),
        Mark::Unexpected => ("su", " \u{2717}".to_string()),
        Mark::Fixed => ("sf", " fixed".to_string()),
        Mark::NotApplicable => ("sn", "n/a".to_string()),
    }
}

/// The matrix's legend and the table's head: a column per profile, then per adapter.
fn matrix_head(results: &Results, out: &mut String) {
    out.push_str(
        "<p class=\"legend\">\
         <span class=\"ka\">allow: allowed</span><span class=\"kd\">disallow: disallowed</span>\
         <span class=\"ke\">either: the document leaves it open</span>\
         <span class=\"kg\">not gov.: the file does not govern the URL</span>\
         <span class=\"ku\">unsup.: the parser cannot be asked this</span>\
         <span class=\"kr\">error</span><span class=\"kc\">crash</span>\
         <span class=\"kt\">timeout</span> \u{b7} \
         <span>plain: passes its claimed profile</span>\
         <span class=\"sx\">\u{2248} divergence its ledger lists</span>\
         <span class=\"su\">\u{2717} unexpected divergence</span>\
         <span class=\"sf\">fixed: passes, ledger still lists it</span>\
         <span class=\"sn\">n/a: not asked</span>\
         <span class=\"so\">\u{2717} oracle disagrees with the corpus</span> \u{b7} \
         hover a cell for its words, open a group for its checks</p>\n",
    );
    // No scrolling box around the table: its header sticks to the viewport, and a check opened
    // from a link lands below it (`scroll-margin-top`). Its width: `head`.
    out.push_str("<table id=\"m\"><thead><tr><th class=\"n\">checks</th>");
    for profile in &results.profiles {
        out.push_str(&format!(
            "<th class=\"v\" title=\"the oracle under {}\"><span><b>{}</b><br>oracle</span></th>",
            robotstxt_prose::glossary::profile_title(*profile),
            profile.name()
        ));
    }
    for column in &results.adapters {
        let identity = &column.identity;
        let mut about = format!(
            "{} {} ({}, {}), from {}",
            identity.library,
            identity.version,
            identity.language,
            identity.licence,
            identity.source
        );
        for (label, text) in [("", &identity.notes), ("Ledger: ", &column.ledger)] {
            if !text.is_empty() {
                about.push_str(if about.ends_with('.') { " " } else { ". " });
                about.push_str(label);
                about.push_str(text);
            }
        }
        out.push_str(&format!(
            "<th class=\"v\" title=\"{}\"><span><b>{}</b><br>{}</span></th>",
            escape(&super::one_line(&about, 1000)),
            esc_inline(&identity.id),
            identity.profile.name()
        ));
    }
    out.push_str("</tr></thead>\n");
}

/// A group's row of cells, after its first cell (`<th>`).
fn group_cells(group: &Group, out: &mut String) {
    for cell in &group.cells {
        let (status, text) = mark_class(cell.mark);
        // A check not asked shows only that; a missing answer a dash.
        let (kind, text) = match cell.mark {
            Mark::Missing => ("\u{2014}", text),
            Mark::NotApplicable => ("", text),
            // The corpus's verdict is in the cell's title.
            Mark::OracleDisagrees(_) => (short_kind(cell.kind), " \u{2717}".to_string()),
            _ => (short_kind(cell.kind), text),
        };
        let class = kind_class(cell.kind);
        let class = if status.is_empty() {
            class.to_string()
        } else {
            format!("{class} {status}")
        };
        // The mark goes under the word: a word is never broken inside.
        let text = if text.is_empty() {
            String::new()
        } else {
            format!("<br>{}", text.trim_start())
        };
        out.push_str(&format!(
            "<td class=\"{class}\" title=\"{}\">{kind}{text}</td>",
            escape(&cell_title(cell))
        ));
    }
}

/// What a group's checks are: `12 checks from 3 cases (first: <title>)`.
fn group_summary(results: &Results, group: &Group) -> String {
    let n = group.rows.len();
    let mut cases: Vec<&str> = group
        .rows
        .iter()
        .map(|&i| results.rows[i].case.as_str())
        .collect();
    cases.sort_unstable();
    cases.dedup();
    let first = &results.rows[group.rows[0]];
    let example = results
        .cases
        .get(&first.case)
        .map_or(String::new(), |c| escape(&super::one_line(&c.title, 120)));
    format!(
        "{n} check{} from {} case{} <span class=\"muted\">(first: {example})</span>",
        if n == 1 { "" } else { "s" },
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
    )
}

/// The matrix on the overview page: every group's cells, each with a link to its checks.
fn matrix_index(
    results: &Results,
    groups: &[Group],
    first_part: &HashMap<usize, usize>,
    out: &mut String,
) {
    let columns = 1 + results.profiles.len() + results.adapters.len();
    out.push_str(&format!(
        "<h2>Matrix</h2>\n<p class=\"muted\">{} checks in {} groups; a group is the checks every \
         column answers alike. Groups where something diverges come first. A group's checks, with \
         the oracle's explanations and every parser's failures, are on the pages of checks \
         (part 1 to {}).</p>\n\
         <p><label><input type=\"checkbox\" id=\"quiet\"> hide groups where every adapter passes \
         and the oracle agrees with the corpus</label></p>\n",
        results.rows.len(),
        groups.len(),
        first_part.values().max().map_or(1, |p| p + 1),
    ));
    matrix_head(results, out);
    for (g, group) in groups.iter().enumerate() {
        out.push_str(&format!(
            "<tbody id=\"g{}\"{}><tr>",
            g + 1,
            if group.quiet() { " class=\"q\"" } else { "" }
        ));
        let n = group.rows.len();
        out.push_str(&format!(
            "<th class=\"n\">{n} check{}</th>",
            if n == 1 { "" } else { "s" }
        ));
        group_cells(group, out);
        let part = first_part.get(&g).copied().unwrap_or(0);
        out.push_str(&format!(
            "</tr>\n<tr class=\"l\"><td colspan=\"{columns}\"><a href=\"{}#g{}\">{}</a></td></tr></tbody>\n",
            part_path(part),
            g + 1,
            group_summary(results, group),
        ));
    }
    out.push_str("</table>\n");
}

/// One page of checks: the groups (or the part of a group) it holds, each with its cells and its
/// checks open.
fn matrix_part(
    results: &Results,
    groups: &[Group],
    part: &[(usize, Vec<usize>)],
    checks: &[String],
    out: &mut String,
) {
    let columns = 1 + results.profiles.len() + results.adapters.len();
    matrix_head(results, out);
    for (g, rows) in part {
        let group = &groups[*g];
        let continued = group.rows.first() != rows.first();
        out.push_str(&format!("<tbody id=\"g{}\"><tr>", g + 1));
        out.push_str(&format!(
            "<th class=\"n\"><a href=\"../matrix.html#g{}\">group {}</a></th>",
            g + 1,
            g + 1
        ));
        group_cells(group, out);
        out.push_str(&format!(
            "</tr>\n<tr class=\"l\"><td colspan=\"{columns}\"><details open><summary>{}{}</summary><ol class=\"cks\" start=\"{}\">\n",
            group_summary(results, group),
            if continued { " (continued)" } else { "" },
            group.rows.iter().position(|r| Some(r) == rows.first()).unwrap_or(0) + 1,
        ));
        for &i in rows {
            out.push_str(&checks[i]);
        }
        out.push_str("</ol></details></td></tr></tbody>\n");
    }
    out.push_str("</table>\n");
}

/// One check, expandable.
fn check(results: &Results, row: &Row, out: &mut String) {
    let case = results.cases.get(&row.case);
    // The case's and the check's ids are their anchors: `#<case-id>` and `#<case-id>#<n>` stay
    // where they are whatever the corpus grows to.
    let anchor = case.map(|_| row.case.as_str());
    out.push_str(&format!(
        "<li><details class=\"ck\" id=\"{}\"><summary><code>{}</code> {}</summary><div><dl>",
        escape(&row.check_id()),
        esc_inline(&row.check_id()),
        case.map_or(String::new(), |c| escape(&super::one_line(&c.title, 200)))
    ));
    match &anchor {
        Some(anchor) => out.push_str(&format!(
            "<dt>case</dt><dd><a href=\"#{}\">{}</a></dd>",
            escape(&fragment(anchor)),
            esc_inline(&row.case)
        )),
        None => out.push_str(&format!("<dt>case</dt><dd>{}</dd>", esc_inline(&row.case))),
    }
    if let Some(case) = case {
        if !case.cite.is_empty() {
            out.push_str(&format!(
                "<dt>cites</dt><dd>{}</dd>",
                esc_inline(&case.cite.join(", "))
            ));
        }
    }
    out.push_str(&format!(
        "<dt>agent</dt><dd><code>{}</code></dd><dt>URL</dt><dd><code>{}</code></dd>",
        esc_inline(&row.agent),
        esc_inline(&row.url)
    ));
    if let Some(fetch) = case.and_then(|c| c.fetch.as_ref()) {
        out.push_str(&format!("<dt>fetch</dt><dd>{}</dd>", fetch_text(fetch)));
    }
    if let Some(robots_url) = case.and_then(|c| c.robots_url.as_ref()) {
        out.push_str(&format!(
            "<dt>robots.txt URL</dt><dd><code>{}</code></dd>",
            esc_inline(robots_url)
        ));
    }
    if let Some(at) = &row.at {
        out.push_str(&format!(
            "<dt>at</dt><dd>{} (after the case's history of fetches)</dd>",
            esc_inline(at)
        ));
    }
    if let Some(case) = case {
        out.push_str(&format!(
            "<dt>body</dt><dd>{} octet{}</dd>",
            case.body_len,
            if case.body_len == 1 { "" } else { "s" }
        ));
    }
    out.push_str("</dl>");
    if let Some(anchor) = &anchor {
        out.push_str(&format!("<pre data-c=\"{}\"></pre>", escape(anchor)));
    }
    explanations(results, row, out);
    adapter_details(results, row, out);
    out.push_str("</div></details></li>\n");
}

/// The oracle's explanation per profile, compacted: profiles whose explanations differ only in
/// their first line (`profile <name>: <verdict>`) share one, and the leading lines all the
/// distinct explanations have in common are shown once, followed by each one's remainder.
fn explanations(results: &Results, row: &Row, out: &mut String) {
    let mut shared: Vec<(Vec<ProfileId>, String)> = Vec::new();
    for profile in &results.profiles {
        let Some(oracle) = row.oracle.get(profile) else {
            continue;
        };
        let text = oracle.explanation.as_str();
        let rest = match text.split_once('\n') {
            Some((first, rest)) if first.starts_with("profile ") => rest,
            _ => text,
        };
        let rest = abridge(rest);
        match shared.iter_mut().find(|(_, r)| *r == rest) {
            Some((profiles, _)) => profiles.push(*profile),
            None => shared.push((vec![*profile], rest)),
        }
    }
    if shared.is_empty() {
        return;
    }
    let verdicts = |profiles: &[ProfileId]| -> Vec<String> {
        profiles
            .iter()
            .map(|p| {
                let oracle = &row.oracle[p];
                let mut head = format!("{}: {}", p.name(), oracle.verdict.name());
                if !oracle.agrees {
                    head.push_str(&format!(
                        " (\u{2717} corpus expects {})",
                        expected_name(row, *p)
                    ));
                }
                head
            })
            .collect()
    };
    let all: Vec<ProfileId> = shared.iter().flat_map(|(p, _)| p.clone()).collect();
    let lines: Vec<Vec<&str>> = shared.iter().map(|(_, r)| r.lines().collect()).collect();
    let common = if lines.len() == 1 {
        lines[0].len()
    } else {
        (0..)
            .take_while(|&i| {
                lines
                    .iter()
                    .all(|l| l.get(i).is_some() && l[i] == lines[0][i])
            })
            .count()
    };
    out.push_str(&format!(
        "<h4>oracle</h4><pre><b>{}</b>\n",
        verdicts(&all).join(" \u{b7} ")
    ));
    out.push_str(&esc_prose(&lines[0][..common].join("\n")));
    for ((profiles, _), lines) in shared.iter().zip(&lines) {
        if lines.len() > common {
            let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
            out.push_str(&format!(
                "\n<b>{}under {}:</b>\n{}",
                if common > 0 { "then, " } else { "" },
                names.join(", "),
                esc_prose(&lines[common..].join("\n"))
            ));
        }
    }
    out.push_str("</pre>");
}

/// Adapters whose answer is not a plain pass: their status, message and ledger reason.
fn adapter_details(results: &Results, row: &Row, out: &mut String) {
    let mut items = Vec::new();
    for column in &results.adapters {
        let id = &column.identity.id;
        let Some(cell) = row.adapters.get(id) else {
            continue;
        };
        if cell.status == Status::Pass && cell.answer.detail().is_none() && cell.reason.is_none() {
            continue;
        }
        let mut item = format!(
            "<li><b>{}</b>: {}, {}",
            esc_inline(id),
            cell.answer.kind(),
            status_name(cell.status)
        );
        if let Some(detail) = cell.answer.detail() {
            item.push_str(&format!("<pre>{}</pre>", esc_prose(detail)));
        }
        if let Some(reason) = &cell.reason {
            item.push_str(&format!("<br>ledger: {}", esc_prose(reason)));
        }
        item.push_str("</li>");
        items.push(item);
    }
    if !items.is_empty() {
        out.push_str(&format!(
            "<h4>adapters</h4><ul class=\"fail\">{}</ul>",
            items.concat()
        ));
    }
}

/// How many deciding checks a fingerprint cell names in its title and links to.
const FINGERPRINT_CHECKS_SHOWN: usize = 5;

/// A fingerprint cell's kind: (CSS class, legend text).
fn standing_kind(label: &str, standing: &Standing) -> (&'static str, &'static str) {
    match standing {
        Standing::Undecided => ("fn", "undecided: no check decides it"),
        Standing::Inconsistent { .. } => (
            "fi",
            "inconsistent: no alternative explains every deciding check",
        ),
        Standing::Consistent { alternatives, .. } => match alternatives[0].as_str() {
            "base" => ("fb", "the claimed profile's base (a deviation off)"),
            "on" if fingerprint::is_deviation(label) => ("fd", "a deviation on"),
            other if other.starts_with("as ") => ("fo", "another profile's setting"),
            _ => ("fa", "an open alternative"),
        },
    }
}

/// The short words a fingerprint cell shows (the alternative's words are in its title and open
/// details): `as claimed`, `off`, `on`, `as <profile>`, `other`, `inconsistent`, `undecided`.
fn standing_text(label: &str, standing: &Standing) -> String {
    match standing {
        Standing::Undecided => "undecided".to_string(),
        Standing::Inconsistent { .. } => "inconsistent".to_string(),
        Standing::Consistent { alternatives, .. } => {
            let first = match alternatives[0].as_str() {
                "base" if fingerprint::is_deviation(label) => "off",
                "base" => "as claimed",
                "on" => "on",
                other if other.starts_with("as ") => other,
                _ => "other",
            };
            if alternatives.len() > 1 {
                format!("{first} +{}", alternatives.len() - 1)
            } else {
                first.to_string()
            }
        }
    }
}

/// Where each parser's answers depart from the profile it claims, in words: one row per parser.
fn departures(prints: &[(&str, &Fingerprint)], out: &mut String) {
    out.push_str(
        "<h3>Where each parser departs from the profile it claims</h3>\n<table class=\"dep\"><thead><tr>\
         <th>parser</th><th>claims</th><th>nearest</th><th>reads otherwise than its claimed profile</th>\
         <th>no single reading explains</th><th>undecided</th></tr></thead><tbody>\n",
    );
    for (adapter, print) in prints {
        let mut otherwise = Vec::new();
        let mut inconsistent = Vec::new();
        let mut undecided = 0;
        for (label, standing) in &print.dimensions {
            let link = format!(
                "<a href=\"#{}\">{}</a>",
                escape(&robotstxt_prose::glossary::anchor(label)),
                esc_inline(label)
            );
            match standing {
                Standing::Undecided => undecided += 1,
                Standing::Inconsistent { .. } => inconsistent.push(link),
                Standing::Consistent { alternatives, .. } if alternatives[0] != "base" => {
                    let words: Vec<String> = alternatives
                        .iter()
                        .map(|a| robotstxt_prose::glossary::alternative_words(label, a))
                        .collect();
                    otherwise.push(format!(
                        "<li>{link}: {}</li>",
                        robotstxt_prose::glossary::words_html(&words.join("; or "))
                    ));
                }
                Standing::Consistent { .. } => {}
            }
        }
        out.push_str(&format!(
            "<tr><td><b>{}</b></td><td>{}</td><td>{}</td><td><ul>{}</ul></td><td>{}</td><td class=\"r\">{undecided}</td></tr>\n",
            esc_inline(adapter),
            print.claimed.name(),
            print.nearest.name(),
            otherwise.concat(),
            inconsistent.join(", "),
        ));
    }
    out.push_str("</tbody></table>\n");
}

/// Every knob and deviation a cause or a fingerprint can name, in words (the targets of the
/// `#g-...` links).
fn glossary_section(out: &mut String) {
    out.push_str(
        "<h2 id=\"glossary\">Glossary</h2>\n<p class=\"muted\"><b>K</b> numbers are knobs: places where the \
         documents disagree or leave a choice (<code>docs/profiles.md</code>). <b>D-</b> ids are deviations: \
         readings no document permits, which parsers in use show (<code>docs/deviations.md</code>).</p>\n<dl class=\"gl\">",
    );
    for label in robotstxt_prose::glossary::labels() {
        out.push_str(&format!(
            "<dt id=\"{}\"><code>{}</code></dt><dd>{}</dd>",
            escape(&robotstxt_prose::glossary::anchor(label)),
            esc_inline(label),
            robotstxt_prose::glossary::words_html(
                robotstxt_prose::glossary::label_meaning(label).unwrap_or("")
            )
        ));
    }
    out.push_str("</dl>\n");
}

/// The fingerprints: parsers as columns, knobs and deviations as rows, each cell the alternative
/// the parser's answers are consistent with, its deciding checks on hover and linked.
fn fingerprints(results: &Results, place: &Place<'_>, out: &mut String) {
    let prints: Vec<(&str, &Fingerprint)> = results
        .summary
        .iter()
        .filter_map(|s| s.fingerprint.as_ref().map(|f| (s.adapter.as_str(), f)))
        .collect();
    if prints.is_empty() {
        return;
    }
    out.push_str(
        "<h2 id=\"fingerprints\">Fingerprints</h2>\n<p class=\"muted\">For each knob of \
         <code>docs/profiles.md</code> and each deviation, the alternative each parser's answers \
         are consistent with, from the base reading of the profile it claims; hover a cell for \
         the checks that decide it, open it for links. Only checks answered with a verdict on a \
         single 200 fetch count.</p>\n<p class=\"legend\">",
    );
    for (class, text) in [
        (
            "fb",
            "as claimed / off: its claimed profile's reading (a deviation off)",
        ),
        ("fo", "as <profile>: another document's reading"),
        ("fa", "other: an alternative a document leaves open"),
        ("fd", "on: a deviation no document permits"),
        ("fi", "inconsistent: no single reading explains its answers"),
        ("fn", "undecided: no check decides it"),
    ] {
        out.push_str(&format!("<span class=\"{class}\">{}</span>", escape(text)));
    }
    out.push_str("</p>\n");
    departures(&prints, out);
    out.push_str(
        "<h3>Every knob and deviation, every parser</h3>\n<div class=\"wrap\"><table id=\"fp\"><thead><tr><th class=\"n\">knob or deviation</th>",
    );
    for (adapter, print) in &prints {
        out.push_str(&format!(
            "<th class=\"v\" title=\"claims {}, nearest {}\"><span><b>{}</b><br>{}</span></th>",
            print.claimed.name(),
            print.nearest.name(),
            esc_inline(adapter),
            print.claimed.name(),
        ));
    }
    out.push_str("</tr></thead><tbody>\n");
    // Every dimension any parser has, in the order first met (knobs first in each).
    let mut labels: Vec<&str> = Vec::new();
    for (_, print) in &prints {
        for (label, _) in &print.dimensions {
            if !labels.contains(&label.as_str()) {
                labels.push(label);
            }
        }
    }
    labels.sort_by_key(|l| fingerprint::is_deviation(l));
    for label in labels {
        out.push_str(&format!(
            "<tr><th class=\"n\" title=\"{}\"><a href=\"#{}\">{}</a></th>",
            escape(robotstxt_prose::glossary::label_meaning(label).unwrap_or("")),
            escape(&robotstxt_prose::glossary::anchor(label)),
            esc_inline(label)
        ));
        for (adapter, print) in &prints {
            match print.dimensions.iter().find(|(l, _)| l == label) {
                Some((_, standing)) => fingerprint_cell(adapter, label, standing, place, out),
                None => out.push_str("<td class=\"fn\">-</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// One fingerprint cell.
fn fingerprint_cell(
    adapter: &str,
    label: &str,
    standing: &Standing,
    place: &Place<'_>,
    out: &mut String,
) {
    let (class, kind) = standing_kind(label, standing);
    let text = standing_text(label, standing);
    let checks: &[String] = match standing {
        Standing::Undecided => &[],
        Standing::Consistent { checks, .. } | Standing::Inconsistent { checks } => checks,
    };
    let mut title = format!("{adapter}, {label}: {kind}");
    if let Standing::Consistent { alternatives, .. } = standing {
        let words: Vec<String> = alternatives
            .iter()
            .map(|a| robotstxt_prose::glossary::alternative_words(label, a))
            .collect();
        title.push_str(&format!(" ({})", words.join("; or ")));
    }
    if checks.is_empty() {
        out.push_str(&format!(
            "<td class=\"{class}\" title=\"{}\">{}</td>",
            escape(&inline(&title)),
            escape(&text)
        ));
        return;
    }
    let shown = &checks[..checks.len().min(FINGERPRINT_CHECKS_SHOWN)];
    title.push_str(&format!(
        "; decided by {}: {}",
        checks.len(),
        shown.join(", ")
    ));
    if checks.len() > shown.len() {
        title.push_str(", …");
    }
    out.push_str(&format!(
        "<td class=\"{class}\" title=\"{}\"><details><summary>{}</summary><div>",
        escape(&inline(&title)),
        escape(&text)
    ));
    if let Standing::Consistent { alternatives, .. } = standing {
        let words: Vec<String> = alternatives
            .iter()
            .map(|a| robotstxt_prose::glossary::alternative_words(label, a))
            .collect();
        out.push_str(&format!(
            "{}; decided by ",
            robotstxt_prose::glossary::words_html(&words.join("; or "))
        ));
    }
    let links: Vec<String> = shown.iter().map(|c| place.link_to(c)).collect();
    out.push_str(&links.join(", "));
    if checks.len() > shown.len() {
        out.push_str(&format!(" and {} more", checks.len() - shown.len()));
    }
    out.push_str("</div></details></td>");
}

/// The cases of `ids` (their bodies, which a check copies when opened).
fn case_list(results: &Results, ids: &[&str], out: &mut String) {
    out.push_str(&format!(
        "<h2>Cases</h2>\n<p class=\"muted\">The {} cases of the checks above; bodies with invisible \
         octets shown as \u{27e8}CR\u{27e9}, \u{27e8}xFF\u{27e9}, \u{2026}</p>\n",
        ids.len()
    ));
    for (id, case) in ids.iter().filter_map(|id| results.cases.get_key_value(*id)) {
        out.push_str(&format!(
            "<details class=\"ck\" id=\"{}\"><summary><code>{}</code> {}</summary><div><dl>\
             <dt>file</dt><dd>{}</dd>",
            escape(id),
            esc_inline(id),
            escape(&super::one_line(&case.title, 200)),
            esc_inline(&case.path)
        ));
        if !case.cite.is_empty() {
            out.push_str(&format!(
                "<dt>cites</dt><dd>{}</dd>",
                esc_inline(&case.cite.join(", "))
            ));
        }
        if !case.tags.is_empty() {
            out.push_str(&format!(
                "<dt>tags</dt><dd>{}</dd>",
                esc_inline(&case.tags.join(", "))
            ));
        }
        if !case.covers.is_empty() {
            let links: Vec<String> = case
                .covers
                .iter()
                .map(|c| {
                    format!(
                        "<a href=\"../matrix.html#{}\">{}</a>",
                        escape(&fragment(&format!("s-{c}"))),
                        esc_inline(c)
                    )
                })
                .collect();
            out.push_str(&format!("<dt>tests</dt><dd>{}</dd>", links.join(", ")));
        }
        if let Some(note) = &case.note {
            out.push_str(&format!(
                "<dt>note</dt><dd class=\"note\">{}</dd>",
                robotstxt_prose::glossary::quotes_html(&prose(note))
            ));
        }
        if let Some(fetch) = &case.fetch {
            out.push_str(&format!("<dt>fetch</dt><dd>{}</dd>", fetch_text(fetch)));
        }
        if let Some(robots_url) = &case.robots_url {
            out.push_str(&format!(
                "<dt>robots.txt URL</dt><dd><code>{}</code></dd>",
                esc_inline(robots_url)
            ));
        }
        out.push_str(&format!(
            "<dt>body</dt><dd>{} octet{}</dd></dl><pre>{}</pre></div></details>\n",
            case.body_len,
            if case.body_len == 1 { "" } else { "s" },
            escape(&case.body_visible)
        ));
    }
}
