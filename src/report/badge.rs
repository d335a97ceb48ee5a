//! The line to cite and the badge: one adapter judged against one profile, as "RFC 9309: 97.2% of
//! 1,224 checks; 34 documented divergences; corpus 0.1.0" and as a self-contained SVG (no
//! external font, image or script). `run` writes both for every adapter under the profile it
//! claims; `certify` for its one adapter under the profile it is judged against.

use robotstxt_oracle::ProfileId;

use crate::results::Results;

/// What the line and the badge say about one adapter under one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// The profile judged against.
    pub profile: ProfileId,
    /// Checks the adapter could be asked and the profile judges.
    pub checks: usize,
    /// Answers the profile expects.
    pub agree: usize,
    /// Divergences its ledger lists (and that still occur).
    pub documented: usize,
}

impl Figures {
    /// The figures of adapter `adapter` under `profile` in `results` (all zero when the run has no
    /// summary for it).
    pub fn of(results: &Results, adapter: &str, profile: ProfileId) -> Figures {
        let summary = results.summary.iter().find(|s| s.adapter == adapter);
        let (agree, checks) = summary
            .and_then(|s| s.profiles.get(&profile))
            .map_or((0, 0), |t| (t.agree, t.checks));
        Figures {
            profile,
            checks,
            agree,
            documented: summary.map_or(0, |s| s.ledger.expected),
        }
    }

    /// The pass rate by [`rate_text`].
    pub fn rate(&self) -> String {
        rate_text(self.agree, self.checks)
    }
}

/// The one rounding rule for pass rates, in the line to cite, the badge, the matrix, the
/// Markdown summary and JUnit: one decimal, **rounded down** to a tenth (96.29% is 96.2%), so
/// that a rate is never shown above what was measured and 99.96% is never 100.0%; `n/a` when no
/// check was asked.
pub fn rate_text(agree: usize, checks: usize) -> String {
    if checks == 0 {
        return "n/a".to_string();
    }
    let tenths = (agree as u64 * 1000) / checks as u64;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The one line to cite: "RFC 9309: 97.2% of 1,224 checks; 34 documented divergences; corpus
/// 0.1.0" (checks: those the adapter could be asked and the profile judges).
pub fn summary_line(results: &Results, adapter: &str, profile: ProfileId) -> String {
    line(&Figures::of(results, adapter, profile))
}

/// [`summary_line`] from its figures.
pub fn line(f: &Figures) -> String {
    format!(
        "{}: {} of {} check{}; {} documented divergence{}; corpus {}",
        profile_title(f.profile),
        f.rate(),
        thousands(f.checks as u64),
        if f.checks == 1 { "" } else { "s" },
        thousands(f.documented as u64),
        if f.documented == 1 { "" } else { "s" },
        robotstxt_spec::CORPUS_VERSION
    )
}

/// Every adapter of the run under the profile it claims, in column order: (adapter id, line).
pub fn claimed_lines(results: &Results) -> Vec<(String, String)> {
    results
        .adapters
        .iter()
        .map(|column| {
            let id = &column.identity.id;
            (
                id.clone(),
                summary_line(results, id, column.identity.profile),
            )
        })
        .collect()
}

/// A profile as a reader names it.
pub fn profile_title(profile: ProfileId) -> &'static str {
    match profile {
        ProfileId::Rfc9309 => "RFC 9309",
        ProfileId::Google => "Google",
        ProfileId::Draft1996 => "1996 draft",
        ProfileId::Original1994 => "1994 standard",
    }
}

/// `1224` as `1,224`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The badge's colour for a pass rate: green at 99% and above, down to red below 75%; grey when
/// nothing was asked.
fn colour(f: &Figures) -> &'static str {
    if f.checks == 0 {
        return "#9f9f9f";
    }
    let permille = (f.agree as u64 * 1000) / f.checks as u64;
    match permille {
        990.. => "#2e8b2e",
        950.. => "#6a9f1a",
        900.. => "#a08a00",
        750.. => "#c86400",
        _ => "#c0392b",
    }
}

/// An estimate of a text's width in pixels at 11px in a sans-serif font (no font is embedded, so
/// the boxes are sized generously).
fn width(text: &str) -> u32 {
    text.chars().count() as u32 * 7 + 12
}

/// The badge of adapter `adapter` under `profile`: "<profile> | <pass rate>", its full summary
/// line as the title (shown on hover, read by screen readers).
pub fn svg(results: &Results, adapter: &str, profile: ProfileId) -> String {
    svg_of(adapter, &Figures::of(results, adapter, profile))
}

/// [`svg`] from its figures.
pub fn svg_of(adapter: &str, f: &Figures) -> String {
    let label = profile_title(f.profile);
    let value = f.rate();
    let title = format!("{}: {}", crate::report::inline(adapter), line(f));
    let (lw, vw) = (width(label), width(&value));
    let total = lw + vw;
    let esc = super::html::escape;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total}\" height=\"20\" role=\"img\" \
         aria-label=\"{title_attr}\">\n\
         <title>{title_text}</title>\n\
         <rect width=\"{lw}\" height=\"20\" fill=\"#555\"/>\n\
         <rect x=\"{lw}\" width=\"{vw}\" height=\"20\" fill=\"{colour}\"/>\n\
         <g fill=\"#fff\" text-anchor=\"middle\" font-family=\"Verdana,DejaVu Sans,sans-serif\" \
         font-size=\"11\">\n\
         <text x=\"{lx}\" y=\"14\">{label}</text>\n\
         <text x=\"{vx}\" y=\"14\">{value}</text>\n\
         </g>\n</svg>\n",
        title_attr = esc(&title),
        title_text = esc(&title),
        colour = colour(f),
        lx = lw / 2,
        vx = lw + vw / 2,
        label = esc(label),
        value = esc(&value),
    )
}

/// A file name for adapter `id`'s badge: `<id>.svg`, every character but ASCII letters, digits,
/// `-`, `_` and `.` replaced by `_` (and a leading `.` too).
pub fn file_name(id: &str) -> String {
    let mut name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    name.push_str(".svg");
    name
}
