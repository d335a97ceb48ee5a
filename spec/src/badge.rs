//! The line to cite and the badge: one parser judged against one profile, as "RFC 9309: 97.2% of
//! 1,224 checks; 34 documented divergences; corpus 0.1.0" and as a self-contained SVG (no
//! external font, image or script). The suite prints and writes them for a downstream parser
//! ([`crate::Suite::badge`]); the repository's `run` and `certify` render theirs with the same
//! functions, so the rounding and the wording are one.

use robotstxt_oracle::ProfileId;

/// What the line and the badge say about one parser under one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// The profile judged against.
    pub profile: ProfileId,
    /// Checks the parser could be asked and the profile judges.
    pub checks: usize,
    /// Answers the profile expects.
    pub agree: usize,
    /// Divergences its ledger lists with a reason a person wrote (and that still occur): an
    /// entry still marked UNEXPLAINED, and a known failure (`error`, `crash`), is not one.
    pub documented: usize,
}

impl Figures {
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

/// The line to cite from its figures: "RFC 9309: 97.2% of 1,224 checks; 34 documented
/// divergences; corpus 0.1.0" (checks: those the parser could be asked and the profile judges).
pub fn line(f: &Figures) -> String {
    format!(
        "{}: {} of {} check{}; {} documented divergence{}; corpus {}",
        profile_title(f.profile),
        f.rate(),
        thousands(f.checks as u64),
        if f.checks == 1 { "" } else { "s" },
        thousands(f.documented as u64),
        if f.documented == 1 { "" } else { "s" },
        crate::CORPUS_VERSION
    )
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

/// Text for an XML attribute or element: `&`, `<`, `>`, `"` and `'` escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A parser's name on one line, every control character made visible.
fn inline(text: &str) -> String {
    crate::render::visible(text.as_bytes(), usize::MAX).replace('\n', "")
}

/// The badge of `parser` from its figures: "<profile> | <pass rate>", its full line to cite as
/// the title (shown on hover, read by screen readers). For a passing run only: a failing one
/// gets [`failing_svg`].
pub fn svg_of(parser: &str, f: &Figures) -> String {
    let title = format!("{}: {}", inline(parser), line(f));
    svg(profile_title(f.profile), &f.rate(), colour(f), &title)
}

/// The badge of a run that failed (`failures`: the checks and entries that failed it): "<profile>
/// | failing" in red, so that no passing-looking badge comes out of a failing run; its title says
/// why and gives the figures measured.
pub fn failing_svg(parser: &str, f: &Figures, failures: usize) -> String {
    let title = format!(
        "{}: failing ({} failing check{} or ledger entr{}); measured {}",
        inline(parser),
        thousands(failures as u64),
        if failures == 1 { "" } else { "s" },
        if failures == 1 { "y" } else { "ies" },
        line(f)
    );
    svg(profile_title(f.profile), "failing", "#c0392b", &title)
}

/// A two-box badge: `label` on grey, `value` on `colour`, `title` for hover and screen readers.
fn svg(label: &str, value: &str, colour: &str, title: &str) -> String {
    let (lw, vw) = (width(label), width(value));
    let total = lw + vw;
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
        title_attr = escape(title),
        title_text = escape(title),
        lx = lw / 2,
        vx = lw + vw / 2,
        label = escape(label),
        value = escape(value),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(checks: usize, agree: usize, documented: usize) -> Figures {
        Figures {
            profile: ProfileId::Rfc9309,
            checks,
            agree,
            documented,
        }
    }

    #[test]
    fn rates_round_down_and_the_line_names_the_corpus() {
        assert_eq!(rate_text(9629, 10000), "96.2%");
        assert_eq!(rate_text(9996, 10000), "99.9%");
        assert_eq!(rate_text(0, 0), "n/a");
        assert_eq!(
            line(&figures(1224, 1190, 1)),
            format!(
                "RFC 9309: 97.2% of 1,224 checks; 1 documented divergence; corpus {}",
                crate::CORPUS_VERSION
            )
        );
    }

    #[test]
    fn a_failing_badge_says_failing_in_red_never_the_rate() {
        let badge = failing_svg("toy <x>", &figures(100, 100, 0), 3);
        assert!(badge.contains(">failing</text>") && badge.contains("#c0392b"));
        assert!(!badge.contains(">100.0%</text>"), "{badge}");
        assert!(badge.contains("toy &lt;x&gt;: failing (3 failing checks or ledger entries)"));
        let passing = svg_of("toy", &figures(100, 100, 0));
        assert!(passing.contains(">100.0%</text>") && passing.contains("#2e8b2e"));
    }
}
