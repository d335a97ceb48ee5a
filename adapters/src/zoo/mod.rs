//! The mutant zoo: test parsers, each a correct reading of one profile with one injected change,
//! to measure whether the cause search names the right cause and only the right one
//! (`docs/fuzzing.md`, "The mutant zoo").
//!
//! Three kinds, each answering through the oracle's own steps so that the injected change is the
//! only difference from the profile's base reading:
//! - a **deviation** mutant reads its profile's base reading with one named deviation
//!   (`docs/deviations.md`): the cause search must name that deviation;
//! - a **knob** mutant reads its profile's base reading with one knob set another way (an
//!   alternative some document leaves open, or another document's setting) that its profile does
//!   not permit: the search must name that knob;
//! - a **novel** mutant reads RFC 9309's base reading with a bug no document permits and no
//!   deviation describes ([`novel::Bug`]): the search must name nothing, and must put different
//!   bugs in different groups.
//!
//! They are not in the default adapter list; ask for them by id (`zoo-d-typo-fields`,
//! `zoo-k4-precedence-1`, `zoo-bug-unanchored`, ...), or all at once with [`mutants`].

pub mod novel;
pub mod pipeline;

use std::sync::{Arc, OnceLock};

use robotstxt_oracle::deviation::Deviation;
use robotstxt_oracle::knobs::{KnobId, Knobs, ProfileId, OPEN_KNOBS};
use robotstxt_oracle::{literal, Request};

use crate::adapter::{Answer, Capabilities, Identity, UrlForm};
use crate::inprocess::InProcess;

/// What a mutant changes: what the cause search should name (or, for a novel bug, not name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Truth {
    /// A named deviation.
    Deviation(Deviation),
    /// A knob set another way: the knob, and the complete reading the mutant answers by.
    Knob(KnobId, Knobs),
    /// A bug no document permits and no deviation describes.
    Novel(novel::Bug),
}

impl Truth {
    /// The cause label the search should give (`D-typo-fields`, `K4 precedence`); `None` for a
    /// novel bug, which no label describes.
    pub fn label(&self) -> Option<&'static str> {
        match self {
            Truth::Deviation(d) => Some(d.id()),
            Truth::Knob(knob, _) => Some(knob.label()),
            Truth::Novel(_) => None,
        }
    }
}

/// One test parser.
/// A parser's answer: whether `url` is allowed to `agent` under `body`.
type Allows = Arc<dyn Fn(&[u8], &str, &str) -> bool + Send + Sync>;

/// A change to a complete reading: one knob's alternative applied.
type KnobChange = Box<dyn Fn(Knobs) -> Knobs>;

#[derive(Clone)]
pub struct Mutant {
    /// Its adapter id (`zoo-...`).
    pub id: String,
    /// The profile it claims.
    pub profile: ProfileId,
    /// What it changes.
    pub truth: Truth,
    /// Whether it allows `url` to `agent` under `body`.
    allows: Allows,
}

impl Mutant {
    /// Whether the mutant allows `url` to `agent` under `body`.
    pub fn allows(&self, body: &[u8], agent: &str, url: &str) -> bool {
        (self.allows)(body, agent, url)
    }

    /// What it changes, in words.
    pub fn description(&self) -> String {
        match &self.truth {
            Truth::Deviation(d) => format!(
                "{} with {}: {}",
                self.profile.name(),
                d.id(),
                d.entry().summary
            ),
            Truth::Knob(knob, _) => format!(
                "{} with {} set as {} does not permit",
                self.profile.name(),
                knob.label(),
                self.profile.name()
            ),
            Truth::Novel(bug) => {
                format!("{} with a novel bug: {}", self.profile.name(), bug.words())
            }
        }
    }
}

/// The prefix of every zoo id.
pub const PREFIX: &str = "zoo-";

/// Every mutant, in a fixed order: the deviations, the knobs, the novel bugs.
pub fn mutants() -> &'static [Mutant] {
    static ALL: OnceLock<Vec<Mutant>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for d in Deviation::ALL {
            let profile = deviation_profile(d);
            let mut knobs = profile.base_knobs();
            knobs.deviations = knobs.deviations.with(d);
            all.push(Mutant {
                id: format!("{PREFIX}{}", d.id().to_ascii_lowercase()),
                profile,
                truth: Truth::Deviation(d),
                allows: reading(knobs),
            });
        }
        for (knob, profile, knobs, n) in knob_mutants() {
            all.push(Mutant {
                id: format!("{PREFIX}{}-{n}", slug(knob.label())),
                profile,
                truth: Truth::Knob(knob, knobs),
                allows: reading(knobs),
            });
        }
        for bug in novel::Bug::ALL {
            all.push(Mutant {
                id: format!("{PREFIX}bug-{}", bug.id()),
                profile: ProfileId::Rfc9309,
                truth: Truth::Novel(bug),
                allows: Arc::new(move |body, agent, url| {
                    pipeline::allows(Some(bug), &Request::new(body, agent, url))
                }),
            });
        }
        all
    })
}

/// Whether `id` names a zoo mutant.
pub fn is_zoo_id(id: &str) -> bool {
    id.starts_with(PREFIX) && mutants().iter().any(|m| m.id == id)
}

/// The mutant `id` as an adapter, if it is one.
pub fn open(id: &str) -> Option<InProcess> {
    let mutant = mutants().iter().find(|m| m.id == id)?.clone();
    let identity = Identity {
        id: mutant.id.clone(),
        library: "robotstxt-oracle with one injected change (mutant zoo)".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        language: "Rust".to_string(),
        licence: "MIT OR Apache-2.0".to_string(),
        source: "this repository (test adapter, adapters/src/zoo)".to_string(),
        profile: mutant.profile,
        capabilities: Capabilities::default(),
        url: UrlForm::Full,
        notes: mutant.description(),
    };
    Some(InProcess::with_closure(
        identity,
        Arc::new(move |body, agent, url| {
            if mutant.allows(body.octets(), agent, url) {
                Answer::Allowed
            } else {
                Answer::Disallowed
            }
        }),
    ))
}

/// A parser answering by one complete reading, read through the oracle's steps.
fn reading(knobs: Knobs) -> Allows {
    Arc::new(move |body, agent, url| literal::allowed(&knobs, &Request::new(body, agent, url)))
}

/// The profile a deviation mutant claims: the one of the deviation's example in
/// `docs/deviations.md`, where the deviation shows against that profile's own reading.
fn deviation_profile(d: Deviation) -> ProfileId {
    use Deviation::*;
    match d {
        VerticalTabTrimmed | NoColonLineIsBlank | EmptyDisallowClears | EmptyRuleAllowsRest => {
            ProfileId::Original1994
        }
        EmptyDisallowAllowsAll => ProfileId::Draft1996,
        SizeCutAtLineEnd
        | InvalidLineRejectsFile
        | CrKeptInLines
        | WildcardsOutOfLength
        | EscapeCaseRulesOnly
        | UrlNonAsciiRaw
        | IndexHtmlAllowsDirectory => ProfileId::Google,
        _ => ProfileId::Rfc9309,
    }
}

/// Every knob setting a mutant is made of: each alternative of [`OPEN_KNOBS`] and each profile's
/// base setting of each knob, applied to the first profile (in [`ProfileId::ALL`] order) whose base
/// reading it changes and none of whose readings it gives; each (knob, profile, reading) once, with
/// its number among the knob's mutants.
fn knob_mutants() -> Vec<(KnobId, ProfileId, Knobs, usize)> {
    let readings: Vec<Vec<Knobs>> = ProfileId::ALL
        .iter()
        .map(|&p| literal::readings(p).into_iter().map(|r| r.knobs).collect())
        .collect();
    let mut changes: Vec<(KnobId, KnobChange)> = Vec::new();
    for row in OPEN_KNOBS {
        for &alternative in row.alternatives {
            changes.push((row.knob, Box::new(move |k| alternative.apply(k))));
        }
    }
    for knob in KnobId::ALL {
        for from in ProfileId::ALL {
            changes.push((
                knob,
                Box::new(move |mut k| {
                    knob.copy(&mut k, &from.base_knobs());
                    k
                }),
            ));
        }
    }
    let mut out: Vec<(KnobId, ProfileId, Knobs, usize)> = Vec::new();
    for (knob, change) in changes {
        let chosen = ProfileId::ALL.iter().find_map(|&profile| {
            let knobs = change(profile.base_knobs());
            let permitted = readings[profile.index()].contains(&knobs);
            (!permitted).then_some((profile, knobs))
        });
        let Some((profile, knobs)) = chosen else {
            continue;
        };
        if out.iter().any(|(_, p, k, _)| *p == profile && *k == knobs) {
            continue;
        }
        let n = 1 + out.iter().filter(|(k, _, _, _)| *k == knob).count();
        out.push((knob, profile, knobs, n));
    }
    out
}

/// `K4 precedence` as `k4-precedence`.
fn slug(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deviation_and_many_knobs_have_a_mutant_with_a_distinct_id() {
        let all = mutants();
        for d in Deviation::ALL {
            assert!(
                all.iter().any(|m| m.truth == Truth::Deviation(d)),
                "{}",
                d.id()
            );
        }
        let knobs = all
            .iter()
            .filter(|m| matches!(m.truth, Truth::Knob(..)))
            .count();
        assert!(knobs >= 20, "{knobs} knob mutants");
        assert!(
            all.iter()
                .filter(|m| matches!(m.truth, Truth::Novel(_)))
                .count()
                >= 25
        );
        let mut ids: Vec<&str> = all.iter().map(|m| m.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        assert!(all
            .iter()
            .all(|m| is_zoo_id(&m.id) && open(&m.id).is_some()));
    }

    #[test]
    fn a_knob_mutant_reads_no_reading_its_profile_permits() {
        for m in mutants() {
            if let Truth::Knob(_, knobs) = &m.truth {
                assert!(
                    !literal::readings(m.profile)
                        .iter()
                        .any(|r| r.knobs == *knobs),
                    "{}",
                    m.id
                );
            }
        }
    }
}
