//! What explains a parser's answer where a profile says otherwise: the smallest set of changes to
//! the profile's reading (knob alternatives, `docs/profiles.md`, and deviations,
//! `docs/deviations.md`) under which the oracle gives that answer.
//!
//! A tool asks this, never a profile: the fuzzer's buckets are keyed by it, `ledger rewrite` names a
//! ledger entry's knob or deviation with it, and fingerprints are built from it. Sets of one change
//! are tried first, in a fixed order (knobs before deviations: a reading some document permits is
//! the more charitable explanation), then sets of two, then sets of three deviations; no set means
//! "unexplained".

use std::sync::OnceLock;

use crate::deviation::{Deviation, Deviations};
use crate::knobs::{Alternative, KnobId, Knobs};
use crate::memo::{Memo, PreparedBodies};
pub use crate::relevance::inert;
use crate::relevance::Inert;
use crate::{ProfileId, Request};

/// One change to a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A knob field set as another profile's base reading sets it.
    Copied {
        /// The field.
        knob: KnobId,
        /// The profile it is copied from.
        from: ProfileId,
    },
    /// An alternative some profile leaves open.
    Open(Alternative),
    /// A named deviation.
    Deviation(Deviation),
}

impl Change {
    /// `knobs` with the change applied.
    pub fn apply(self, mut knobs: Knobs) -> Knobs {
        match self {
            Change::Copied { knob, from } => {
                knob.copy(&mut knobs, &from.base_knobs());
                knobs
            }
            Change::Open(alternative) => alternative.apply(knobs),
            Change::Deviation(d) => {
                knobs.deviations = knobs.deviations.with(d);
                knobs
            }
        }
    }

    /// The change's name in the shared vocabulary: a knob (`K4 precedence`, whichever value) or a
    /// deviation id (`D-typo-fields`).
    pub fn label(self) -> &'static str {
        match self {
            Change::Copied { knob, .. } => knob.label(),
            Change::Open(alternative) => alternative.knob().label(),
            Change::Deviation(d) => d.id(),
        }
    }

    /// What the change is about, for telling whether it can matter on an input ([`Inert`]).
    fn subject(self) -> ChangeSubject {
        match self {
            Change::Copied { knob, .. } => ChangeSubject::Knob(knob),
            Change::Open(alternative) => ChangeSubject::Knob(alternative.knob()),
            Change::Deviation(d) => ChangeSubject::Deviation(d),
        }
    }
}

/// The changes tried on `profile`'s base reading, in search order: each knob field as every other
/// profile sets it, every alternative any profile leaves open, then every deviation; a change that
/// leaves the reading as it is, or gives a reading an earlier change gives, is left out.
pub fn changes(profile: ProfileId) -> &'static [Change] {
    static CHANGES: OnceLock<[Vec<Change>; 4]> = OnceLock::new();
    &CHANGES.get_or_init(|| ProfileId::ALL.map(changes_of))[profile.index()]
}

fn changes_of(profile: ProfileId) -> Vec<Change> {
    let base = profile.base_knobs();
    let mut all: Vec<Change> = Vec::new();
    for knob in KnobId::ALL {
        for from in ProfileId::ALL {
            all.push(Change::Copied { knob, from });
        }
    }
    for from in ProfileId::ALL {
        for knob in from.every_open_knob() {
            all.extend(knob.alternatives.iter().map(|&a| Change::Open(a)));
        }
    }
    all.extend(Deviation::ALL.map(Change::Deviation));
    let mut kept: Vec<(Change, Knobs)> = Vec::new();
    for change in all {
        let knobs = change.apply(base);
        if knobs != base && !kept.iter().any(|(_, k)| *k == knobs) {
            kept.push((change, knobs));
        }
    }
    kept.into_iter().map(|(change, _)| change).collect()
}

/// The readings [`cause_of`] tries for one profile, worked out once: each change applied alone,
/// then each pair of changes (by their places in [`changes`]) that gives a reading neither gives
/// alone.
struct Tried {
    singles: Vec<Knobs>,
    pairs: Vec<(usize, usize, Knobs)>,
    /// Sets of three deviations (by their places in [`changes`]), tried last.
    triples: Vec<([usize; 3], Knobs)>,
    /// One reading per distinct step-1 projection among them: what the body is prepared for.
    bodies: Vec<Knobs>,
    /// Per change (by its place in [`changes`]): the knob field it sets, or the deviation it adds.
    subjects: Vec<ChangeSubject>,
}

/// What one change is about, for telling whether it can matter on an input ([`Inert`]).
#[derive(Clone, Copy)]
enum ChangeSubject {
    /// A knob field.
    Knob(KnobId),
    /// A deviation.
    Deviation(Deviation),
}

fn tried(profile: ProfileId) -> &'static Tried {
    static TRIED: OnceLock<[Tried; 4]> = OnceLock::new();
    &TRIED.get_or_init(|| {
        ProfileId::ALL.map(|profile| {
            let changes = changes(profile);
            let base = profile.base_knobs();
            let singles: Vec<Knobs> = changes.iter().map(|c| c.apply(base)).collect();
            let mut pairs = Vec::new();
            for i in 0..changes.len() {
                for j in i + 1..changes.len() {
                    let knobs = changes[j].apply(singles[i]);
                    if knobs != singles[i] && knobs != singles[j] {
                        pairs.push((i, j, knobs));
                    }
                }
            }
            let deviations: Vec<usize> = (0..changes.len())
                .filter(|&i| matches!(changes[i], Change::Deviation(_)))
                .collect();
            let mut triples = Vec::new();
            for (a, &i) in deviations.iter().enumerate() {
                for (b, &j) in deviations.iter().enumerate().skip(a + 1) {
                    for &k in &deviations[b + 1..] {
                        let knobs = changes[k].apply(changes[j].apply(singles[i]));
                        triples.push(([i, j, k], knobs));
                    }
                }
            }
            let mut bodies: Vec<Knobs> = Vec::new();
            for knobs in singles
                .iter()
                .chain(pairs.iter().map(|(_, _, k)| k))
                .chain(triples.iter().map(|(_, k)| k))
            {
                let key = crate::body::BodyKnobs::of(knobs);
                if !bodies.iter().any(|k| crate::body::BodyKnobs::of(k) == key) {
                    bodies.push(*knobs);
                }
            }
            let subjects = changes.iter().map(|&change| change.subject()).collect();
            Tried {
                singles,
                pairs,
                triples,
                bodies,
                subjects,
            }
        })
    })[profile.index()]
}

/// The smallest set of changes (one, else two, else three deviations) to `profile`'s base reading
/// under which `request` gets the answer `allowed`; `None` when no such set exists (unexplained).
/// The first set found in [`changes`] order is the one given. A deviation that cannot change any
/// reading of this input ([`inert`]) is not tried.
pub fn cause_of(profile: ProfileId, request: &Request<'_>, allowed: bool) -> Option<Vec<Change>> {
    causes_of(request, &[(profile, allowed)])
        .pop()
        .expect("one cause per question")
}

/// [`cause_of`] for each (profile, answer) of `asks` on one request, in order, each answer the
/// same as [`cause_of`] gives: the body is prepared and split once, one memo serves every reading
/// of every question (the profiles' tried readings overlap), and a reading's verdict, once known,
/// is kept for the other questions about its profile.
pub fn causes_of(request: &Request<'_>, asks: &[(ProfileId, bool)]) -> Vec<Option<Vec<Change>>> {
    causes_of_skipping(request, asks, true)
}

/// [`causes_of`] trying every set of live deviations and knob changes, none skipped because what
/// it is about is absent from the input: the reference the skipping is tested against.
#[doc(hidden)]
pub fn causes_of_trying_every_knob(
    request: &Request<'_>,
    asks: &[(ProfileId, bool)],
) -> Vec<Option<Vec<Change>>> {
    causes_of_skipping(request, asks, false)
}

/// [`causes_of`], skipping the sets with a knob change that cannot matter when `skip_knobs`.
fn causes_of_skipping(
    request: &Request<'_>,
    asks: &[(ProfileId, bool)],
    skip_knobs: bool,
) -> Vec<Option<Vec<Change>>> {
    if asks.is_empty() {
        return Vec::new();
    }
    let mut inert_changes = Inert::of(request);
    if !skip_knobs {
        inert_changes.every_knob_live();
    }
    // Step 1 is prepared for every body a live reading of an asked profile can ask for.
    let mut profiles: Vec<ProfileId> = asks.iter().map(|&(p, _)| p).collect();
    profiles.sort_by_key(|p| p.index());
    profiles.dedup();
    let prepared = PreparedBodies::prepare(
        request.body,
        live_bodies(
            profiles.iter().flat_map(|&p| &tried(p).bodies),
            &inert_changes,
        ),
    );
    // One memo for every reading: a pair shares most steps with its singles.
    let mut memo = Memo::new(request, &prepared);
    // Per asked profile, each tried reading's verdict once worked out (singles, then pairs, then
    // triples): 0 unknown, 1 disallowed, 2 allowed.
    let mut known: Vec<(ProfileId, Vec<u8>)> = Vec::new();
    asks.iter()
        .map(|&(profile, allowed)| {
            let changes = changes(profile);
            let tried = tried(profile);
            let at = match known.iter().position(|(p, _)| *p == profile) {
                Some(at) => at,
                None => {
                    // Grown as far as the search goes: most end among the singles.
                    known.push((profile, Vec::new()));
                    known.len() - 1
                }
            };
            let known = &mut known[at].1;
            let (singles, pairs, triples) =
                (tried.singles.len(), tried.pairs.len(), tried.triples.len());
            // A change that cannot matter on this input reads it as the base reading does, alone
            // or with others: a set holding one gives the base reading's answer, or the answer of
            // the smaller set without it, tried before. So when the base reading does not give the
            // answer, such sets are skipped and the result is the same. (Asked for the base
            // reading's own answer, every set is tried, in order, as it would be without the test.)
            let skip_inert = skip_knobs && memo.allowed(&profile.base_knobs()) != allowed;
            let live = |place: usize| is_live(tried.subjects[place], &inert_changes, skip_inert);
            let mut gives = |place: usize, knobs: &Knobs| {
                if known.len() <= place {
                    // To the end of the singles, the pairs or the triples, whichever holds `place`.
                    let ends = [singles, singles + pairs, singles + pairs + triples];
                    let end = ends
                        .into_iter()
                        .find(|&end| place < end)
                        .expect("a place is a single's, a pair's or a triple's");
                    known.resize(end, 0);
                }
                if known[place] == 0 {
                    known[place] = 1 + u8::from(memo.allowed(knobs));
                }
                (known[place] == 2) == allowed
            };
            if let Some(at) =
                (0..tried.singles.len()).find(|&at| live(at) && gives(at, &tried.singles[at]))
            {
                return Some(vec![changes[at]]);
            }
            // Every single was looked at, so whether each change is live is known: the pairs and
            // triples (thousands) read it from a list.
            let live: Vec<bool> = (0..singles).map(live).collect();
            let after = tried.singles.len();
            if let Some(at) = (0..tried.pairs.len()).find(|&at| {
                let (i, j, knobs) = &tried.pairs[at];
                live[*i] && live[*j] && gives(after + at, knobs)
            }) {
                let (i, j, _) = tried.pairs[at];
                return Some(vec![changes[i], changes[j]]);
            }
            let after = after + tried.pairs.len();
            (0..tried.triples.len())
                .find(|&at| {
                    let (places, knobs) = &tried.triples[at];
                    places.iter().all(|&i| live[i]) && gives(after + at, knobs)
                })
                .map(|at| tried.triples[at].0.iter().map(|&i| changes[i]).collect())
        })
        .collect()
}

/// Every set of `size` changes (1: one change, 2: two, 3: three deviations) to `profile`'s base
/// reading under which `request` gets the answer `allowed`, in search order: the candidates
/// [`crate::evidence`] tries against the input's neighbours, where [`cause_of`] names only the
/// first. A set holding a change that cannot matter on this input ([`inert`]) reads it as the
/// set without that change, so it is given only where the rest gives the answer alone: a pair of
/// one change that explains the input and one that may matter on a neighbour. `size` 3 gives the
/// sets of three deviations that can all matter here.
pub fn sets_giving(
    profile: ProfileId,
    request: &Request<'_>,
    allowed: bool,
    size: usize,
) -> Vec<Vec<Change>> {
    let changes = changes(profile);
    let tried = tried(profile);
    let inert = Inert::of(request);
    let prepared = PreparedBodies::prepare(request.body, tried.bodies.iter());
    let mut memo = Memo::new(request, &prepared);
    if memo.allowed(&profile.base_knobs()) == allowed {
        // The base reading gives the answer: no change is needed, and none is a cause.
        return Vec::new();
    }
    let live: Vec<bool> = tried
        .subjects
        .iter()
        .map(|&subject| is_live(subject, &inert, true))
        .collect();
    let single: Vec<bool> = (0..tried.singles.len())
        .map(|at| live[at] && memo.allowed(&tried.singles[at]) == allowed)
        .collect();
    match size {
        1 => (0..changes.len())
            .filter(|&at| single[at])
            .map(|at| vec![changes[at]])
            .collect(),
        2 => tried
            .pairs
            .iter()
            .filter(|(i, j, knobs)| {
                let (i, j) = (*i, *j);
                if live[i] && live[j] {
                    memo.allowed(knobs) == allowed
                } else {
                    // One of them reads this input as the reading without it does.
                    (single[i] && !live[j]) || (single[j] && !live[i])
                }
            })
            .map(|&(i, j, _)| vec![changes[i], changes[j]])
            .collect(),
        3 => tried
            .triples
            .iter()
            .filter(|(places, knobs)| {
                places.iter().all(|&i| live[i]) && memo.allowed(knobs) == allowed
            })
            .map(|(places, _)| places.iter().map(|&i| changes[i]).collect())
            .collect(),
        _ => Vec::new(),
    }
}

/// The complete reading a set of changes makes of `profile`'s base reading.
pub fn reading_of(profile: ProfileId, cause: &[Change]) -> Knobs {
    cause
        .iter()
        .fold(profile.base_knobs(), |knobs, c| c.apply(knobs))
}

/// The readings of `bodies` whose step-1 deviations can matter on the input (a body's deviations,
/// `crate::deviation::BODY`, are all about octets): those a search prepares bodies for.
fn live_bodies<'k>(
    bodies: impl IntoIterator<Item = &'k Knobs>,
    inert: &Inert<'_>,
) -> impl Iterator<Item = &'k Knobs> {
    let inert = inert.by_octets;
    bodies.into_iter().filter(move |k| {
        crate::body::BodyKnobs::of(k)
            .deviations
            .only_in(inert)
            .is_empty()
    })
}

/// Whether a set holding the change about `subject` is tried: an inert deviation never is (it
/// reads the input as the reading without it), an inert knob change not when `skip_inert_knobs`
/// (the base reading does not give the answer asked for).
fn is_live(subject: ChangeSubject, inert: &Inert<'_>, skip_inert_knobs: bool) -> bool {
    match subject {
        ChangeSubject::Deviation(d) => !inert.deviation(d),
        ChangeSubject::Knob(knob) => !skip_inert_knobs || !inert.knob(knob),
    }
}

/// Whether `cause` (a set of changes [`cause_of`] found) explains `request`'s answer `allowed`
/// under `profile` as a smallest set: its reading gives the answer and no smaller set does. Cheaper than [`cause_of`] (which also finds the first such pair in order): the fuzzer's
/// minimiser keeps an input only while its bucket's cause still explains it.
pub fn explains(
    profile: ProfileId,
    request: &Request<'_>,
    allowed: bool,
    cause: &[Change],
) -> bool {
    let tried = tried(profile);
    let knobs = cause
        .iter()
        .fold(profile.base_knobs(), |knobs, c| c.apply(knobs));
    if cause.len() == 1 {
        // One change is smallest as soon as it gives the answer: only its own body is prepared.
        let prepared = PreparedBodies::prepare(request.body, std::iter::once(&knobs));
        return Memo::new(request, &prepared).allowed(&knobs) == allowed;
    }
    // As in [`causes_of`]: bodies only for live readings, and a set holding a change that cannot
    // matter is skipped when the base reading does not give the answer (it gives the answer of
    // the base, or of the smaller set without that change, already found not to).
    let inert = Inert::of(request);
    let prepared = PreparedBodies::prepare(
        request.body,
        live_bodies(&tried.bodies, &inert).chain([&knobs, &profile.base_knobs()]),
    );
    let mut memo = Memo::new(request, &prepared);
    if memo.allowed(&knobs) != allowed {
        return false;
    }
    let skip_inert = memo.allowed(&profile.base_knobs()) != allowed;
    let live: Vec<bool> = tried
        .subjects
        .iter()
        .map(|&subject| is_live(subject, &inert, skip_inert))
        .collect();
    let no_single =
        (0..tried.singles.len()).all(|at| !live[at] || memo.allowed(&tried.singles[at]) != allowed);
    match cause.len() {
        2 => no_single,
        _ => {
            no_single
                && !tried
                    .pairs
                    .iter()
                    .any(|(i, j, k)| live[*i] && live[*j] && memo.allowed(k) == allowed)
        }
    }
}

/// A cause as one label: the changes' labels joined by ` + ` (`D-space-for-colon + D-typo-fields`),
/// or `unexplained`.
pub fn cause_label(cause: Option<&[Change]>) -> String {
    match cause {
        Some(changes) => changes
            .iter()
            .map(|c| c.label())
            .collect::<Vec<_>>()
            .join(" + "),
        None => UNEXPLAINED.to_string(),
    }
}

/// The verdict (true when allowed) of `profile`'s base reading of `request`, then of each reading
/// with one change of [`changes`] applied, in that order: what a fingerprint compares a parser's
/// answers with, one knob or deviation at a time.
pub fn single_change_verdicts(profile: ProfileId, request: &Request<'_>) -> (bool, Vec<bool>) {
    let tried = tried(profile);
    let base = profile.base_knobs();
    let prepared = PreparedBodies::prepare(
        request.body,
        tried.bodies.iter().chain(std::iter::once(&base)),
    );
    let mut memo = Memo::new(request, &prepared);
    let verdicts = tried.singles.iter().map(|k| memo.allowed(k)).collect();
    (memo.allowed(&base), verdicts)
}

/// The verdict (true when allowed) of `request` under each of `readings`, in order, with one memo
/// for all of them: what a fingerprint compares a parser's answers with once it reads a dimension
/// on top of the others it has settled.
pub fn verdicts_under(request: &Request<'_>, readings: &[Knobs]) -> Vec<bool> {
    let prepared = PreparedBodies::prepare(request.body, readings);
    let mut memo = Memo::new(request, &prepared);
    readings.iter().map(|k| memo.allowed(k)).collect()
}

/// Whether `label` is a cause label [`cause_label`] can give for an explained divergence: knob
/// labels and deviation ids joined by ` + `.
pub fn is_label(label: &str) -> bool {
    label
        .split(" + ")
        .all(|part| KnobId::from_label(part).is_some() || Deviation::from_id(part).is_some())
}

/// The label of a divergence no set of changes explains.
pub const UNEXPLAINED: &str = "unexplained";

/// The deviations a cause holds.
pub fn deviations_of(cause: &[Change]) -> Deviations {
    cause.iter().fold(Deviations::NONE, |all, c| match c {
        Change::Deviation(d) => all.with(*d),
        _ => all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(profile: ProfileId, body: &[u8], url: &str, allowed: bool) -> String {
        let request = Request::new(body, "FooBot", url);
        cause_label(cause_of(profile, &request, allowed).as_deref())
    }

    #[test]
    fn one_change_then_two_then_unexplained() {
        // First-match precedence is a knob (draft-1996's).
        assert_eq!(
            cause(
                ProfileId::Rfc9309,
                b"User-agent: *\nAllow: /a\nDisallow: /ab\n",
                "/abc",
                true
            ),
            "K4 precedence"
        );
        // A typo alone is one deviation.
        assert_eq!(
            cause(
                ProfileId::Google,
                b"User-agent: *\nDisalow: /a\n",
                "/a",
                false
            ),
            "D-typo-fields"
        );
        // Google's `useragent FooBot` / `Disalow /a`: a typo and a missing colon.
        assert_eq!(
            cause(
                ProfileId::Google,
                b"useragent FooBot\nDisalow: /a\n",
                "/a",
                false
            ),
            "D-typo-fields + D-space-for-colon"
        );
        // Nothing makes an empty body disallow.
        assert_eq!(cause(ProfileId::Rfc9309, b"", "/a", false), UNEXPLAINED);
        // rb-webrobots on CRLF files (a third of the protego data): the CR stays in every value.
        assert_eq!(
            cause(
                ProfileId::Google,
                b"User-agent:*\r\nDisallow:/\r\n",
                "/",
                true
            ),
            "D-cr-kept-in-lines"
        );
        // ... and on a line without a colon, or with no field name (479 protego files): its
        // grammar rejects the file.
        for body in [
            &b"User-agent:*\nDisallow:/\nw"[..],
            b"User-agent:*\nDisallow:/\n:",
        ] {
            assert_eq!(
                cause(ProfileId::Google, body, "/", true),
                "D-invalid-line-rejects-file"
            );
        }
    }

    #[test]
    fn several_questions_on_one_memo_answer_as_one_question_each() {
        let bodies: [&[u8]; 4] = [
            b"User-agent: *\nAllow: /a\nDisallow: /ab\n",
            b"useragent FooBot\nDisalow: /a\n",
            b"User-agent: foo\r\nDisallow: /a*$\n\nUser-agent: *\nAllow: /%61\n",
            b"",
        ];
        let asks: Vec<(ProfileId, bool)> = ProfileId::ALL
            .iter()
            .flat_map(|&p| [(p, true), (p, false), (p, true)])
            .collect();
        for body in bodies {
            let request = Request::new(body, "FooBot", "/abc");
            let together = causes_of(&request, &asks);
            assert_eq!(together.len(), asks.len());
            for (&(profile, allowed), found) in asks.iter().zip(together) {
                assert_eq!(
                    found,
                    cause_of(profile, &request, allowed),
                    "{profile:?} {allowed}"
                );
            }
        }
    }

    #[test]
    fn every_change_changes_the_reading_and_labels_are_known() {
        for profile in ProfileId::ALL {
            let changes = changes(profile);
            assert!(changes.len() > Deviation::ALL.len(), "{}", profile.name());
            for change in changes {
                assert_ne!(change.apply(profile.base_knobs()), profile.base_knobs());
                assert!(is_label(change.label()), "{change:?}");
            }
        }
    }
}
