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
        inert_changes.knobs = 0;
    }
    // A body's deviations (`crate::deviation::BODY`) are all about octets.
    let inert = inert_changes.by_octets;
    // Step 1 is prepared for every body a live reading of an asked profile can ask for (a body's
    // deviations are live).
    let mut profiles: Vec<ProfileId> = asks.iter().map(|&(p, _)| p).collect();
    profiles.sort_by_key(|p| p.index());
    profiles.dedup();
    let prepared = PreparedBodies::prepare(
        request.body,
        profiles.iter().flat_map(|&p| &tried(p).bodies).filter(|k| {
            let body = crate::body::BodyKnobs::of(k).deviations;
            body.only_in(inert).is_empty()
        }),
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
            let live = |place: usize| match tried.subjects[place] {
                // Inert deviations are never tried (`inert`).
                subject @ ChangeSubject::Deviation(_) => !inert_changes.has(subject),
                subject @ ChangeSubject::Knob(_) => !skip_inert || !inert_changes.has(subject),
            };
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
            let after = tried.singles.len();
            if let Some(at) = (0..tried.pairs.len()).find(|&at| {
                let (i, j, knobs) = &tried.pairs[at];
                live(*i) && live(*j) && gives(after + at, knobs)
            }) {
                let (i, j, _) = tried.pairs[at];
                return Some(vec![changes[i], changes[j]]);
            }
            let after = after + tried.pairs.len();
            (0..tried.triples.len())
                .find(|&at| {
                    let (places, knobs) = &tried.triples[at];
                    places.iter().all(|&i| live(i)) && gives(after + at, knobs)
                })
                .map(|at| tried.triples[at].0.iter().map(|&i| changes[i]).collect())
        })
        .collect()
}

/// The changes that cannot change any reading of an input, alone or with others.
struct Inert<'b> {
    /// The deviations whose subject is a kind of octet ([`inert_by_octets`]).
    by_octets: Deviations,
    /// Those whose subject is a kind of line ([`inert_by_lines`]), looked for on first need: a
    /// search that ends among the knob changes never asks.
    by_lines: std::cell::OnceCell<Deviations>,
    body: &'b [u8],
    /// The knob fields, a bit per place in [`KnobId::ALL`] ([`inert_knobs`]).
    knobs: u32,
}

impl<'b> Inert<'b> {
    fn of(request: &Request<'b>) -> Inert<'b> {
        Inert {
            by_octets: inert_by_octets(request),
            by_lines: std::cell::OnceCell::new(),
            body: request.body,
            knobs: inert_knobs(request),
        }
    }

    fn has(&self, subject: ChangeSubject) -> bool {
        match subject {
            ChangeSubject::Knob(knob) => self.knobs & (1 << knob.index()) != 0,
            ChangeSubject::Deviation(d) if BY_LINES.contains(&d) => self
                .by_lines
                .get_or_init(|| inert_by_lines(self.body))
                .has(d),
            ChangeSubject::Deviation(d) => self.by_octets.has(d),
        }
    }
}

/// The knob fields (a bit per place in [`KnobId::ALL`]) every setting of which reads `request`
/// alike, alone or with any other change (deviations included): what the field is about is absent
/// from the input. Like [`inert`], cheap and generous: a field called live costs time only.
fn inert_knobs(request: &Request<'_>) -> u32 {
    let body = request.body;
    let split = crate::url::split(request.url);
    let mut inert = 0u32;
    let mut when = |knob: KnobId, absent: bool| {
        if absent {
            inert |= 1 << knob.index();
        }
    };
    // K14: no size limit cuts a body under the smallest limit (D-size-cut-at-line-end moves the
    // cut, which does not happen).
    when(
        KnobId::SizeLimit,
        body.len() <= crate::profile::FIVE_HUNDRED_KIB,
    );
    // K12: no byte-order mark to skip or keep.
    when(KnobId::Bom, !body.starts_with(crate::body::UTF8_BOM));
    // K7 charset: every charset reads ASCII octets as themselves.
    when(KnobId::Charset, body.is_ascii());
    // K8: the path alone and the path with its query are one target without a query (a kept
    // fragment, D-fragment-kept, is appended after the match target is taken).
    when(KnobId::MatchTarget, split.query.is_none());
    // K10: only the robots.txt URI is exempt.
    when(
        KnobId::RobotsTxtAllowed,
        !crate::url::is_robots_txt_uri(&split),
    );
    // K6: without `*` or `$` in the body, every pattern is its literal octets.
    when(
        KnobId::Wildcards,
        memchr::memchr2(b'*', b'$', body).is_none(),
    );
    // K7 encoding: no escape in the body or the URL, and no URL octet any encoding rewrites (not
    // ASCII, `*`, `$`, a reserved character that is data, and `/` or `?` in the query or a kept
    // fragment). Every encoding then gives the target as it is, and writes a rule's literal piece
    // either as it is or with an octet the target lacks (raw, or as an escape while the target
    // has no `%`), so no reading matches a piece another reading does not.
    let plain = |part: &[u8], in_query: bool| {
        part.iter().all(|&b| {
            b.is_ascii()
                && !matches!(b, b'%' | b'*' | b'$')
                && !crate::encoding::is_reserved_data(b, in_query)
        })
    };
    when(
        KnobId::Encoding,
        memchr::memchr(b'%', body).is_none()
            && plain(split.path, false)
            && split.query.is_none_or(|q| plain(q, true))
            && split.fragment.is_none_or(|f| plain(f, true)),
    );
    inert
}

/// The deviations that cannot change any reading of `request`, alone or with others: what each
/// one is about is absent from the body or the URL (a cheap, deliberately generous test, like the
/// input facts of `crate::profile`: calling a deviation live costs time, never correctness).
pub fn inert(request: &Request<'_>) -> Deviations {
    inert_by_octets(request).union(inert_by_lines(request.body))
}

/// The deviations [`inert_by_lines`] decides: their subject is a kind of line.
const BY_LINES: [Deviation; 8] = [
    Deviation::NoColonLineIsBlank,
    Deviation::InvalidLineRejectsFile,
    Deviation::TypoFields,
    Deviation::FieldPrefix,
    Deviation::EmptyAgentMatchesAll,
    Deviation::EmptyAgentNamesAll,
    Deviation::SlashlessRuleRooted,
    Deviation::EmptyRuleAllowsRest,
];

/// The part of [`inert`] whose subjects are octets in the body or the URL (each looked for once).
fn inert_by_octets(request: &Request<'_>) -> Deviations {
    let body = request.body;
    let url = request.url.as_bytes();
    let has = |bytes: &[u8], b: u8| memchr::memchr(b, bytes).is_some();
    let split = crate::url::split(request.url);
    let mut inert = Deviations::NONE;
    let mut when = |deviation: Deviation, absent: bool| {
        if absent {
            inert = inert.with(deviation);
        }
    };
    when(
        Deviation::SizeCutAtLineEnd,
        body.len() <= crate::profile::FIVE_HUNDRED_KIB,
    );
    when(Deviation::LfOnlyLines, !has(body, b'\r'));
    when(Deviation::CrKeptInLines, !has(body, b'\r'));
    when(Deviation::NulEndsLine, !has(body, 0));
    when(
        Deviation::VerticalTabTrimmed,
        !has(body, 0x0B) && !has(body, 0x0C),
    );
    when(Deviation::NoBacktracking, !has(body, b'*'));
    when(Deviation::DollarAnywhere, !has(body, b'$'));
    when(
        Deviation::WildcardsOutOfLength,
        !has(body, b'*') && !has(body, b'$'),
    );
    // A rule's length as written differs from its pattern's only through an escape, `$`, `*`
    // (a run of them is one) or an octet outside ASCII.
    when(
        Deviation::RawLength,
        !has(body, b'%') && !has(body, b'$') && !has(body, b'*') && body.is_ascii(),
    );
    when(
        Deviation::DecodeReserved,
        !has(body, b'%') && !has(url, b'%'),
    );
    when(
        Deviation::EscapeCaseRulesOnly,
        !has(body, b'%') && !has(url, b'%'),
    );
    // An escape in the URL can be decoded to an octet outside ASCII.
    when(Deviation::UrlNonAsciiRaw, url.is_ascii() && !has(url, b'%'));
    when(
        Deviation::UrlSpecialsRaw,
        !has(url, b'*') && !has(url, b'$'),
    );
    when(Deviation::FragmentKept, split.fragment.is_none());
    when(Deviation::EmptyPathNotSlash, !split.empty_path);
    // An index page's name, also where a charset reading drops the octets outside ASCII.
    let index_page = |body: &[u8]| memchr::memmem::find(body, b"/index.htm").is_some();
    when(
        Deviation::IndexHtmlAllowsDirectory,
        !index_page(body)
            && (body.is_ascii()
                || !index_page(
                    &body
                        .iter()
                        .copied()
                        .filter(u8::is_ascii)
                        .collect::<Vec<_>>(),
                )),
    );
    inert
}

/// The part of [`inert`] whose subjects are lines of the body ([`BY_LINES`]).
fn inert_by_lines(body: &[u8]) -> Deviations {
    let mut inert = Deviations::NONE;
    let mut when = |deviation: Deviation, absent: bool| {
        if absent {
            inert = inert.with(deviation);
        }
    };
    // The line and field deviations are looked for in the body as it is and, when it has octets
    // outside ASCII, without them too (a charset reading can drop them, from inside a field's name
    // too; none of them ends a line, so the lines are the same).
    let ascii_only: Option<Vec<u8>> =
        (!body.is_ascii()).then(|| body.iter().copied().filter(u8::is_ascii).collect());
    let bodies = || std::iter::once(body).chain(ascii_only.as_deref());
    // The line deviations' subjects, in the lines of every split.
    let [no_colon, empty_agent, slashless, empty, unparsable] =
        bodies().map(line_subjects).fold([false; 5], |all, found| {
            std::array::from_fn(|i| all[i] || found[i])
        });
    when(Deviation::NoColonLineIsBlank, !no_colon);
    when(Deviation::InvalidLineRejectsFile, !unparsable);
    // D-typo-fields reads a field that begins with a misspelling: none is in the body.
    when(
        Deviation::TypoFields,
        !bodies().any(|body| holds_any(body, crate::line::TYPOS.iter().map(|&(_, typo)| typo))),
    );
    // D-field-prefix reads a field that begins with a field's name and goes on: nowhere does a
    // field's name (`allow` in `disallow` too) have more than spaces and tabs before a colon, the
    // line's end or the body's end.
    let prefixed = |body: &[u8]| {
        [&b"allow"[..], b"user-agent"].iter().any(|name| {
            places_of(body, name).any(|at| {
                let rest = &body[at + name.len()..];
                let next = rest.iter().find(|&&b| !crate::line::is_ws(b));
                !matches!(next, None | Some(b':') | Some(b'\n'))
            })
        })
    };
    when(Deviation::FieldPrefix, !bodies().any(prefixed));
    when(Deviation::EmptyAgentMatchesAll, !empty_agent);
    when(Deviation::EmptyAgentNamesAll, !empty_agent);
    when(Deviation::SlashlessRuleRooted, !slashless);
    when(Deviation::EmptyRuleAllowsRest, !empty);
    inert
}

/// Whether one of `words` (none empty) is in `body`, ASCII case ignored: one pass over the body
/// for each distinct first letter.
fn holds_any<'w>(body: &[u8], words: impl Iterator<Item = &'w [u8]> + Clone) -> bool {
    let mut firsts: Vec<u8> = words.clone().map(|w| w[0].to_ascii_lowercase()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    firsts.into_iter().any(|first| {
        memchr::memchr2_iter(first, first.to_ascii_uppercase(), body).any(|at| {
            words
                .clone()
                .any(|word| word[0].eq_ignore_ascii_case(&first) && starts_at(body, at, word))
        })
    })
}

/// Where `word` (not empty) starts in `body`, ASCII case ignored.
fn places_of<'a>(body: &'a [u8], word: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let (lower, upper) = (word[0].to_ascii_lowercase(), word[0].to_ascii_uppercase());
    memchr::memchr2_iter(lower, upper, body).filter(move |&at| starts_at(body, at, word))
}

/// Whether `word` starts at `at` in `body`, ASCII case ignored.
fn starts_at(body: &[u8], at: usize, word: &[u8]) -> bool {
    body.len() - at >= word.len() && body[at..at + word.len()].eq_ignore_ascii_case(word)
}

/// Whether some line of `body` is one D-no-colon-line-is-blank, the two empty-agent deviations,
/// D-slashless-rule-rooted, D-empty-rule-allows-rest and D-invalid-line-rejects-file can read
/// differently, in that order. The lines are those of every reading's split: at LF only, at LF and
/// CR, at LF and NUL, at every CR, LF and NUL, each with and without a CR before its LF. A body
/// over the smallest size limit has every subject (a cut can end a line anywhere).
///
/// Splitting the body at LF and another octet gives the pieces of each LF line split at that
/// octet, so the body is split at LF once and only a line holding a CR or a NUL is split again.
fn line_subjects(body: &[u8]) -> [bool; 5] {
    if body.len() > crate::profile::FIVE_HUNDRED_KIB {
        return [true; 5];
    }
    let mut found = [false; 5];
    let mut look_at = |line: &[u8]| {
        look(line, &mut found);
        if let Some(kept) = line.strip_suffix(b"\r") {
            look(kept, &mut found);
        }
        found.iter().all(|&f| f)
    };
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len())) {
        let line = &body[start..end];
        start = end + 1;
        let (cr, nul) = (
            memchr::memchr(b'\r', line).is_some(),
            memchr::memchr(0, line).is_some(),
        );
        // At LF only; then at LF and CR, at LF and NUL, at all three, where the line has them.
        let done = look_at(line)
            || (cr && line.split(|&b| b == b'\r').any(&mut look_at))
            || (nul && line.split(|&b| b == 0).any(&mut look_at))
            || (cr && nul && line.split(|&b| b == b'\r' || b == 0).any(&mut look_at));
        if done {
            break;
        }
    }
    found
}

/// Adds to `found` (in [`line_subjects`]' order) the subjects `line` holds. The comment is removed
/// and the colon looked for once for all of them.
fn look(line: &[u8], found: &mut [bool; 5]) {
    let content = crate::line::strip_comment(line);
    let colon = memchr::memchr(b':', content);
    let blank = crate::line::trim_ws(line).is_empty();
    let field_has_agent = |field: &[u8]| field.windows(5).any(|w| w.eq_ignore_ascii_case(b"agent"));
    // A line D-no-colon-line-is-blank reads as blank: not blank, no colon, no comment.
    found[0] |= !blank && colon.is_none() && content.len() == line.len();
    if let Some(colon) = colon {
        // A field and its value (as `line::field_and_value` splits them).
        let (field, value) = (&content[..colon], trim_blank(&content[colon + 1..]));
        // D-empty-agent-matches-all: a field holding `agent` (the typos and prefixes included)
        // whose value, white space, vertical tabs and form feeds removed, is empty.
        found[1] |= value.is_empty() && field_has_agent(field);
        // D-slashless-rule-rooted: a value not empty and not beginning with `/`, on a line whose
        // field is not a user-agent.
        found[2] |= !value.is_empty() && value[0] != b'/' && !field_has_agent(field);
        // A field with an empty value.
        found[3] |= value.is_empty();
    } else {
        // With no colon, D-space-for-colon reads the first word as the field.
        let words = crate::line::trim_ws(content);
        let space = words.iter().position(|&b| crate::line::is_ws(b));
        let (field, value) = words.split_at(space.unwrap_or(words.len()));
        let value = trim_blank(value);
        found[2] |= !value.is_empty() && value[0] != b'/' && !field_has_agent(field);
    }
    // D-invalid-line-rejects-file: not blank, and no colon or no field name before the first
    // colon (one in the comment counts, which is generous).
    let first_colon =
        colon.or_else(|| memchr::memchr(b':', &line[content.len()..]).map(|at| content.len() + at));
    found[4] |= !blank
        && first_colon.is_none_or(|colon| {
            !crate::deviation::is_field_name(crate::line::trim_ws(&line[..colon]))
        });
}

/// `value` without spaces, tabs, vertical tabs and form feeds at either end.
fn trim_blank(value: &[u8]) -> &[u8] {
    let blank = |b: &u8| crate::line::is_ws(*b) || *b == 0x0B || *b == 0x0C;
    let start = value.iter().position(|b| !blank(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |at| at + 1);
    &value[start..end]
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
    // One change is smallest as soon as it gives the answer: only its own body is prepared.
    let others: &[Knobs] = if cause.len() == 1 { &[] } else { &tried.bodies };
    let prepared =
        PreparedBodies::prepare(request.body, others.iter().chain(std::iter::once(&knobs)));
    let mut memo = Memo::new(request, &prepared);
    if memo.allowed(&knobs) != allowed {
        return false;
    }
    if cause.len() == 1 {
        return true;
    }
    let inert = inert(request);
    let live = |knobs: &Knobs| knobs.deviations.only_in(inert).is_empty();
    let no_single = |memo: &mut Memo<'_>| {
        !tried
            .singles
            .iter()
            .any(|k| live(k) && memo.allowed(k) == allowed)
    };
    match cause.len() {
        2 => no_single(&mut memo),
        _ => {
            no_single(&mut memo)
                && !tried
                    .pairs
                    .iter()
                    .any(|(_, _, k)| live(k) && memo.allowed(k) == allowed)
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

    /// [`BY_LINES`] names what [`inert_by_lines`] decides: in a body with no line at all, every
    /// one of them and nothing else, and none of them is decided by octets (nor is a body's
    /// deviation, which the cause search filters by octets alone).
    #[test]
    fn the_line_deviations_are_those_inert_by_lines_decides() {
        let by_lines = BY_LINES
            .iter()
            .fold(Deviations::NONE, |all, &d| all.with(d));
        assert_eq!(inert_by_lines(b""), by_lines);
        for (body, url) in [(&b""[..], "/"), (b"User-agent: *\nDisallow: /\n", "/x?y#z")] {
            let octets = inert_by_octets(&Request::new(body, "FooBot", url));
            assert!(octets.only_in(by_lines).is_empty());
        }
        assert!(crate::deviation::BODY.iter().all(|d| !BY_LINES.contains(d)));
    }

    /// [`line_subjects`] as the documents' splits are described: the whole body split four ways.
    fn line_subjects_split_four_ways(body: &[u8]) -> [bool; 5] {
        let mut found = [false; 5];
        for (at_cr, at_nul) in [(false, false), (true, false), (false, true), (true, true)] {
            for line in body.split(|&b| b == b'\n' || (at_cr && b == b'\r') || (at_nul && b == 0)) {
                look(line, &mut found);
                if let Some(kept) = line.strip_suffix(b"\r") {
                    look(kept, &mut found);
                }
            }
        }
        found
    }

    #[test]
    fn line_subjects_are_those_of_the_four_splits() {
        // Bodies of short pieces that make and break each subject, CRs and NULs anywhere.
        let pieces: [&[u8]; 16] = [
            b"\n",
            b"\r",
            b"\0",
            b"\r\n",
            b"User-agent:",
            b"user-agent",
            b"Disallow:",
            b" /x",
            b"x",
            b"#c",
            b":",
            b" ",
            b"agent:",
            b"Allow: ",
            b"\0/",
            b"\x0B",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut body = Vec::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bits = state;
            for _ in 0..(bits % 12) {
                bits = bits.rotate_right(5) ^ state;
                body.extend_from_slice(pieces[(bits % 16) as usize]);
            }
            assert_eq!(
                line_subjects(&body),
                line_subjects_split_four_ways(&body),
                "{body:?}"
            );
        }
    }

    #[test]
    fn field_deviations_are_live_where_a_charset_reading_can_make_their_subject() {
        let live = |body: &[u8], deviation: Deviation| {
            !inert(&Request::new(body, "FooBot", "/x")).has(deviation)
        };
        // Dropping the invalid octet makes a misspelling, or a field name that runs on.
        assert!(live(
            b"User-agent: *\nDisal\xFFow: /x\n",
            Deviation::TypoFields
        ));
        assert!(live(
            b"User-agent: *\nAl\xFFlowed: /x\n",
            Deviation::FieldPrefix
        ));
        assert!(!live(
            b"User-agent: *\nDisallow: /x\n",
            Deviation::TypoFields
        ));
        assert!(!live(
            b"User-agent: *\nDisallow: /x\n",
            Deviation::FieldPrefix
        ));
        assert!(live(
            b"User-agent: *\nDisallowed: /x\n",
            Deviation::FieldPrefix
        ));
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
