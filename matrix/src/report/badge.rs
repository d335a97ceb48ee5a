//! The line to cite and the badge: one adapter judged against one profile, as "RFC 9309: 97.2% of
//! 1,224 checks; 34 documented divergences; corpus 0.1.0" and as a self-contained SVG (no
//! external font, image or script). `run` writes both for every adapter under the profile it
//! claims; `certify` for its one adapter under the profile it is judged against. The wording,
//! rounding and drawing are `robotstxt-spec`'s ([`robotstxt_spec::badge`]), which a downstream
//! suite prints too; this module reads the figures from a run's results.

use robotstxt_oracle::ProfileId;

use crate::results::Results;

pub use robotstxt_spec::badge::{profile_title, rate_text, thousands};

/// What the line and the badge say about one adapter under one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    /// The profile judged against.
    pub profile: ProfileId,
    /// Checks the adapter could be asked and the profile judges.
    pub checks: usize,
    /// Answers the profile expects.
    pub agree: usize,
    /// Divergences its ledger lists with a reason a person wrote (and that still occur): not the
    /// entries still marked UNEXPLAINED, nor known failures.
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
            documented: summary.map_or(0, |s| {
                s.ledger.expected.saturating_sub(s.ledger.unexplained)
            }),
        }
    }

    /// The pass rate by [`rate_text`].
    pub fn rate(&self) -> String {
        rate_text(self.agree, self.checks)
    }

    /// The same figures as `robotstxt-spec` draws them.
    fn spec(&self) -> robotstxt_spec::badge::Figures {
        robotstxt_spec::badge::Figures {
            profile: self.profile,
            checks: self.checks,
            agree: self.agree,
            documented: self.documented,
        }
    }
}

/// The one line to cite: "RFC 9309: 97.2% of 1,224 checks; 34 documented divergences; corpus
/// 0.1.0" (checks: those the adapter could be asked and the profile judges).
pub fn summary_line(results: &Results, adapter: &str, profile: ProfileId) -> String {
    line(&Figures::of(results, adapter, profile))
}

/// [`summary_line`] from its figures.
pub fn line(f: &Figures) -> String {
    robotstxt_spec::badge::line(&f.spec())
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

/// The badge of adapter `adapter` under `profile`: "<profile> | <pass rate>", its full summary
/// line as the title (shown on hover, read by screen readers).
pub fn svg(results: &Results, adapter: &str, profile: ProfileId) -> String {
    svg_of(adapter, &Figures::of(results, adapter, profile))
}

/// [`svg`] from its figures.
pub fn svg_of(adapter: &str, f: &Figures) -> String {
    robotstxt_spec::badge::svg_of(adapter, &f.spec())
}

/// The badge of a run that failed (`failures` checks and ledger entries failed it): "<profile> |
/// failing", never a passing-looking rate ([`robotstxt_spec::badge::failing_svg`]).
pub fn failing_svg(
    results: &Results,
    adapter: &str,
    profile: ProfileId,
    failures: usize,
) -> String {
    robotstxt_spec::badge::failing_svg(
        adapter,
        &Figures::of(results, adapter, profile).spec(),
        failures,
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
