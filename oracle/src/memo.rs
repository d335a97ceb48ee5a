//! Step outputs shared between the readings of one input.
//!
//! One input is read many times: under each profile, and under every combination of a profile's
//! open knobs (a generated fuzz input gets about 18 readings). Each step reads only a few knobs and
//! is given just those, as a projection of [`Knobs`]:
//!
//! | step | knobs it reads | shared by readings that agree on |
//! |---|---|---|
//! | 1, body | K14, K12, K7 charset | [`BodyKnobs`] |
//! | 2, line kinds | K5, K13 spacing | `allow_directive` and `field_spacing`, on the same body (kinds under the other K5 setting are reused for every line but `allow` ones, under the other K13 spacing for every line without white space before its field or colon) |
//! | 3, groups | K1, K5 | [`GroupKnobs`], on the same body |
//! | 4, selection | K3 | [`SelectKnobs`], on the same groups |
//! | 5, match target | K8, K7 encoding | [`TargetKnobs`] |
//! | 6a, compiled patterns | K6, K7 encoding | [`PatternKnobs`], on the same body |
//!
//! [`Memo`] computes each distinct output once and hands it to every reading. Since a step sees
//! only its projection, it cannot depend on a knob its key leaves out. Bodies that step 1 leaves
//! identical (e.g. a body under every size limit) share their lines, and a [`ReceivedBody`] (the body
//! as received, split and classified once for the input's facts) gives its lines and kinds to every
//! reading whose step 1 left the octets as they were. Only matching and the decision (steps 6b and
//! 7) run once per reading.

use std::borrow::Cow;

use smallvec::{smallvec, SmallVec};

use crate::body::{self, BodyKnobs, BodyNotes, Line};
use crate::decide;
use crate::deviation::{Deviation, Deviations};
use crate::explain::{GroupSummary, Reading};
use crate::group::{self, GroupKnobs, Groups, RuleLine};
use crate::knobs::Knobs;
use crate::line::{self, LineKind};
use crate::pattern::{Pattern, PatternKnobs};
use crate::request::Request;
use crate::select::{self, SelectKnobs, Selected};
use crate::url::{self, SplitUrl, TargetKnobs};

/// Step 1's output for every distinct [`BodyKnobs`] of a set of readings. Kept apart from [`Memo`]
/// because the memo's lines and groups borrow these octets.
pub struct PreparedBodies<'r> {
    bodies: Vec<(BodyKnobs, Cow<'r, [u8]>, BodyNotes)>,
}

impl<'r> PreparedBodies<'r> {
    /// Step 1 (K14, K12, K7 charset) on `body`, once for each distinct [`BodyKnobs`] of `readings`.
    pub fn prepare<'k>(body: &'r [u8], readings: impl IntoIterator<Item = &'k Knobs>) -> Self {
        let mut bodies: Vec<(BodyKnobs, Cow<'r, [u8]>, BodyNotes)> = Vec::new();
        // Whether each distinct cut of the body is UTF-8: most readings cut it alike (no size limit
        // reached, no BOM), so it is validated once.
        let mut utf8_of: Vec<(&[u8], bool)> = Vec::new();
        for knobs in readings {
            let key = BodyKnobs::of(knobs);
            if !bodies.iter().any(|(k, _, _)| *k == key) {
                let (cut, notes) = body::cut_body(body, key);
                let utf8 = match utf8_of.iter().find(|(seen, _)| std::ptr::eq(*seen, cut)) {
                    Some(&(_, utf8)) => utf8,
                    None => {
                        let utf8 = std::str::from_utf8(cut).is_ok();
                        utf8_of.push((cut, utf8));
                        utf8
                    }
                };
                let (octets, notes) = body::read_charset(cut, key, utf8, notes);
                bodies.push((key, octets, notes));
            }
        }
        PreparedBodies { bodies }
    }
}

/// The body as received, split into lines and classified with `Allow` known (K5 on) and the RFC's
/// spacing (K13): what the
/// input's facts are read from ([`crate::profile::InputFacts`]), and what a [`Memo`] reuses for
/// each reading whose prepared body is these same octets (valid UTF-8, no BOM skipped, under the
/// size limit: most bodies).
pub struct ReceivedBody<'b> {
    octets: &'b [u8],
    lines: Vec<Line<'b>>,
    kinds: Vec<LineKind<'b>>,
    spaced: Vec<bool>,
}

impl<'b> ReceivedBody<'b> {
    /// Splits and classifies `body` (steps 1 and 2 with no knob applied, `Allow` a rule).
    pub fn of(body: &'b [u8]) -> ReceivedBody<'b> {
        let lines = body::split_lines(body);
        let (kinds, spaced) = lines
            .iter()
            .map(|l| line::classify_noting_spacing(l, true, line::FieldSpacing::Around))
            .unzip();
        ReceivedBody {
            octets: body,
            lines,
            kinds,
            spaced,
        }
    }

    /// The lines, as received.
    pub fn lines(&self) -> &[Line<'b>] {
        &self.lines
    }

    /// Each line's kind, `Allow` being a rule.
    pub fn kinds(&self) -> &[LineKind<'b>] {
        &self.kinds
    }

    /// Whether each line has white space before its field or its colon: the lines K13's two
    /// settings read differently ([`line::spacing_can_matter`]).
    pub fn spaced(&self) -> &[bool] {
        &self.spaced
    }
}

/// [`line::spacing_can_matter`] for each of `lines`.
fn spaced_lines(lines: &[Line<'_>]) -> Vec<bool> {
    lines
        .iter()
        .map(|line| line::spacing_can_matter(line.bytes))
        .collect()
}

/// The kinds of `lines` under `allow_directive` (K5), from their kinds `other` under the other K5
/// setting, the same `spacing` (K13) and the same `deviations`. K5 decides only what a line whose
/// field names `allow` is, so only those lines are classified again; every other kind is the same
/// under both settings.
fn reclassify<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
    spacing: line::FieldSpacing,
    deviations: Deviations,
) -> Vec<LineKind<'a>> {
    classify_again_where(
        lines,
        other,
        allow_directive,
        spacing,
        deviations,
        |_, kind| match kind {
            LineKind::Allow(_) => true,
            LineKind::Other(field) => line::names_field_deviating(field, b"allow", deviations),
            _ => false,
        },
    )
}

/// The kinds of `lines` under `spacing` (K13), from their kinds `other` under the other K13
/// setting, the same `allow_directive` (K5) and the same `deviations`. K13 decides only what a line
/// with white space before its field or its colon is ([`line::spacing_can_matter`], `spaced` per
/// line), so only those lines are classified again.
fn respace<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    spaced: &[bool],
    allow_directive: bool,
    spacing: line::FieldSpacing,
    deviations: Deviations,
) -> Vec<LineKind<'a>> {
    classify_again_where(
        lines,
        other,
        allow_directive,
        spacing,
        deviations,
        |at, _| spaced[at],
    )
}

/// The kinds of `lines` under K5 `allow_directive`, K13 `spacing` and `deviations`, from their kinds
/// `other` under other settings: a line for which `again` (its place and kind) holds is classified
/// again, every other keeps its kind.
fn classify_again_where<'a>(
    lines: &[Line<'a>],
    other: &[LineKind<'a>],
    allow_directive: bool,
    spacing: line::FieldSpacing,
    deviations: Deviations,
    again: impl Fn(usize, LineKind<'a>) -> bool,
) -> Vec<LineKind<'a>> {
    lines
        .iter()
        .zip(other)
        .enumerate()
        .map(|(at, (line, &kind))| match again(at, kind) {
            true => line::classify_deviating(line, allow_directive, spacing, deviations),
            false => kind,
        })
        .collect()
}

/// The other setting of K13.
fn other_spacing(spacing: line::FieldSpacing) -> line::FieldSpacing {
    match spacing {
        line::FieldSpacing::Around => line::FieldSpacing::AfterColonOnly,
        line::FieldSpacing::AfterColonOnly => line::FieldSpacing::Around,
    }
}

/// One prepared body's lines (step 1's end), shared by every [`BodyKnobs`] that gave these octets.
struct SplitBody<'b> {
    octets: &'b [u8],
    /// The deviations that split the lines.
    split: Deviations,
    /// Split on first need: a search prepares bodies for readings it may never reach.
    lines: Option<Cow<'b, [Line<'b>]>>,
    /// Which lines K13's settings read differently, once asked for.
    spaced: Option<Cow<'b, [bool]>>,
}

impl<'b> SplitBody<'b> {
    /// Splits the octets into lines, unless they were split already.
    fn split_once(&mut self) {
        if self.lines.is_none() {
            self.lines = Some(Cow::Owned(body::split_lines_deviating(
                self.octets,
                self.split,
            )));
        }
    }

    /// The lines ([`SplitBody::split_once`] was called).
    fn lines(&self) -> &[Line<'b>] {
        self.lines.as_deref().expect("split before use")
    }
}

/// Outputs kept by key, in the order they were first computed. A profile's readings give few keys,
/// so a list searched in order; a tool trying many readings of one input (`crate::cause`: hundreds)
/// gets a hash index once the list is long.
struct Cache<K, V> {
    entries: Vec<(K, V)>,
    index: std::collections::HashMap<K, usize, std::hash::BuildHasherDefault<FxHasher>>,
    /// The entry [`Cache::index`] gave last: consecutive readings of a profile differ in one knob,
    /// so most steps ask for the same key again (compared first, a whole key: only a shortcut).
    last: usize,
}

/// A fast, non-cryptographic hasher for the memo's small keys (the multiply-rotate of rustc's
/// FxHash): the keys are knob settings, never attacker-chosen.
#[derive(Default)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// How many entries a [`Cache`] searches in order before it keeps a hash index.
const LINEAR_ENTRIES: usize = 16;

impl<K: PartialEq + Eq + std::hash::Hash + Copy, V> Cache<K, V> {
    fn new() -> Self {
        Cache {
            entries: Vec::new(),
            index: std::collections::HashMap::default(),
            last: 0,
        }
    }

    /// The index of `key`'s output, computing it with `make` the first time.
    fn index(&mut self, key: K, make: impl FnOnce() -> V) -> usize {
        if self.entries.get(self.last).is_some_and(|(k, _)| *k == key) {
            return self.last;
        }
        self.last = match self.position(&key) {
            Some(at) => at,
            None => {
                self.entries.push((key, make()));
                let at = self.entries.len() - 1;
                if at == LINEAR_ENTRIES {
                    self.index = self
                        .entries
                        .iter()
                        .enumerate()
                        .map(|(i, (k, _))| (*k, i))
                        .collect();
                } else if at > LINEAR_ENTRIES {
                    self.index.insert(key, at);
                }
                at
            }
        };
        self.last
    }

    /// Where `key`'s output is, if it was computed.
    fn position(&self, key: &K) -> Option<usize> {
        if self.entries.get(self.last).is_some_and(|(k, _)| k == key) {
            return Some(self.last);
        }
        if self.entries.len() > LINEAR_ENTRIES {
            self.index.get(key).copied()
        } else {
            self.entries.iter().position(|(k, _)| k == key)
        }
    }

    fn get(&self, at: usize) -> &V {
        &self.entries[at].1
    }
}

/// The outputs of steps 1 to 6a for one input, each kept per the knobs it read.
pub struct Memo<'b> {
    agent: &'b str,
    /// The URL as asked, and split.
    raw_url: &'b str,
    url: SplitUrl<'b>,
    /// Step 1 per body knobs: the index of its lines in `bodies`, and what it did.
    body_of: Vec<(BodyKnobs, usize, BodyNotes)>,
    /// Distinct prepared bodies, split into lines.
    bodies: Vec<SplitBody<'b>>,
    /// Step 2, per (body, K5 allow directive).
    kinds: Cache<(usize, bool, line::FieldSpacing, Deviations), Cow<'b, [LineKind<'b>]>>,
    /// Step 3, per (body, group knobs).
    groups: Cache<(usize, GroupKnobs), Groups<'b>>,
    /// Step 4, per (groups, selection knobs).
    selections: Cache<(usize, SelectKnobs), Selected>,
    /// Step 5, per target knobs.
    targets: Cache<TargetKnobs, Cow<'b, [u8]>>,
    /// Per (body, pattern knobs), each line's compiled pattern as its place in `compiled` plus one
    /// (0: not compiled yet), indexed by line number - 1; compiled on first use.
    patterns: Cache<(usize, PatternKnobs), SmallVec<[u32; 16]>>,
    /// Every compiled pattern, for all pattern knobs: one allocation for the memo, and a table of
    /// small zeroed slots per body rather than one of empty patterns.
    compiled: Vec<Pattern<'b>>,
}

/// Where one reading's shared outputs are in the memo.
struct Shared {
    body: usize,
    groups: usize,
    selection: usize,
    target: usize,
    patterns: usize,
}

impl<'b> Memo<'b> {
    /// An empty memo for `request`, whose body was prepared as `prepared`.
    pub fn new(request: &Request<'b>, prepared: &'b PreparedBodies<'_>) -> Memo<'b> {
        Memo::reusing(request, prepared, None)
    }

    /// [`Memo::new`], taking the lines and kinds of `received` (the request's body, already split
    /// and classified) for each prepared body that is the same octets.
    pub fn reusing(
        request: &Request<'b>,
        prepared: &'b PreparedBodies<'_>,
        received: Option<&'b ReceivedBody<'b>>,
    ) -> Memo<'b> {
        let mut memo = Memo {
            agent: request.agent,
            raw_url: request.url,
            // Step 5: the URL is split once (RFC 3986); only the match target depends on knobs.
            url: url::split(request.url),
            body_of: Vec::new(),
            bodies: Vec::new(),
            kinds: Cache::new(),
            groups: Cache::new(),
            selections: Cache::new(),
            targets: Cache::new(),
            patterns: Cache::new(),
            compiled: Vec::new(),
        };
        for (knobs, octets, notes) in &prepared.bodies {
            let octets: &'b [u8] = octets;
            // Step 1's line splitting (D-lf-only-lines, D-cr-kept-in-lines, D-nul-ends-line).
            let split = knobs.deviations.only(&[
                Deviation::LfOnlyLines,
                Deviation::CrKeptInLines,
                Deviation::NulEndsLine,
            ]);
            let at = match memo.bodies.iter().position(|b| {
                b.split == split && (std::ptr::eq(b.octets, octets) || b.octets == octets)
            }) {
                Some(at) => at,
                None => {
                    let at = memo.bodies.len();
                    match received.filter(|r| r.octets == octets && split.is_empty()) {
                        Some(received) => {
                            memo.bodies.push(SplitBody {
                                octets,
                                split,
                                lines: Some(Cow::Borrowed(&received.lines)),
                                spaced: Some(Cow::Borrowed(&received.spaced)),
                            });
                            memo.kinds.index(
                                (at, true, line::FieldSpacing::Around, Deviations::NONE),
                                || Cow::Borrowed(&received.kinds),
                            );
                        }
                        None => memo.bodies.push(SplitBody {
                            octets,
                            split,
                            lines: None,
                            spaced: None,
                        }),
                    }
                    at
                }
            };
            memo.body_of.push((*knobs, at, notes.clone()));
        }
        memo
    }

    /// Turns the memo to another request on the same body: a new agent and URL. What depends on
    /// one that changed (step 4's selections on the agent, step 5's match targets on the URL) is
    /// forgotten; the body's lines, kinds, groups and compiled patterns are kept.
    pub fn requery(&mut self, request: &Request<'b>) {
        if self.agent != request.agent {
            self.agent = request.agent;
            self.selections = Cache::new();
        }
        if self.raw_url != request.url {
            self.raw_url = request.url;
            self.url = url::split(request.url);
            self.targets = Cache::new();
        }
    }

    /// Whether the URL is allowed under one concrete reading.
    pub fn allowed(&mut self, knobs: &Knobs) -> bool {
        if self.is_robots_txt(knobs) {
            return true;
        }
        let shared = self.share(knobs);
        if self.empty_record_allows_all(&shared, knobs) {
            return true;
        }
        decide::allows_deviating(self.rules(&shared), self.targets.get(shared.target), knobs)
    }

    /// K9 under `EmptyRule::EmptyRecordAllowsAll` ([`decide::empty_record_allows_all`]).
    fn empty_record_allows_all(&self, shared: &Shared, knobs: &Knobs) -> bool {
        let groups = &self.groups.get(shared.groups).groups;
        let selected = self.selections.get(shared.selection);
        decide::empty_record_allows_all(selected.records(groups), knobs)
    }

    /// One concrete reading, explained: the groups, the selection, every rule and the decision.
    pub fn explain(&mut self, knobs: &Knobs) -> Reading {
        let shared = self.share(knobs);
        let rules: Vec<_> = self.rules(&shared).collect();
        let target = self.targets.get(shared.target);
        let decision = decide::decide_deviating(&rules, target, knobs);
        let groups = self.groups.get(shared.groups);
        let robots_txt_implicit = self.is_robots_txt(knobs);
        let record_allows_all = self.empty_record_allows_all(&shared, knobs);
        Reading {
            body: self.body_of[shared.body].2.clone(),
            groups: groups.groups.iter().map(GroupSummary::of).collect(),
            orphan_rules: groups.orphan_rules.clone(),
            selected: self.selections.get(shared.selection).clone(),
            target: String::from_utf8_lossy(target).into_owned(),
            robots_txt_implicit,
            allowed: robots_txt_implicit || record_allows_all || decision.allowed,
            decision,
        }
    }

    /// K10 ([`decide::robots_txt_exempt`]).
    fn is_robots_txt(&self, knobs: &Knobs) -> bool {
        decide::robots_txt_exempt(&self.url, knobs)
    }

    /// The selected rules with their compiled patterns, in file order (steps 4 and 6a).
    fn rules(&self, shared: &Shared) -> impl Iterator<Item = (&RuleLine<'b>, &Pattern<'b>)> {
        let groups = &self.groups.get(shared.groups).groups;
        let slots = self.patterns.get(shared.patterns);
        self.selections
            .get(shared.selection)
            .rules(groups)
            .map(|rule| {
                let slot = slots[rule.line - 1];
                assert!(slot > 0, "Memo::share compiled every selected rule");
                (rule, &self.compiled[slot as usize - 1])
            })
    }

    /// Step 2 for one body: the kinds of its lines under K5 `allow`, K13 `spacing` and the line
    /// deviations, from kinds known under the other K5 or K13 setting when there are some.
    fn classify(
        &mut self,
        body: usize,
        allow: bool,
        spacing: line::FieldSpacing,
        deviations: Deviations,
    ) -> Vec<LineKind<'b>> {
        // The kinds known under the other K5 setting, the other K13 spacing, or both, first found.
        let other_spacing = other_spacing(spacing);
        let from = [
            (!allow, spacing),
            (allow, other_spacing),
            (!allow, other_spacing),
        ]
        .into_iter()
        .find_map(|(a, s)| {
            let at = self.kinds.position(&(body, a, s, deviations))?;
            Some((a, s, at))
        });
        let Some((from_allow, from_spacing, at)) = from else {
            return self.bodies[body]
                .lines()
                .iter()
                .map(|line| line::classify_deviating(line, allow, spacing, deviations))
                .collect();
        };
        let split = &mut self.bodies[body];
        if from_spacing != spacing {
            let lines = split.lines.as_deref().expect("split before use");
            split
                .spaced
                .get_or_insert_with(|| Cow::Owned(spaced_lines(lines)));
        }
        let split = &self.bodies[body];
        let lines = split.lines();
        // At least one setting differs, so the kinds are always rebuilt (owned) below.
        let mut kinds: Cow<'_, [LineKind<'b>]> = Cow::Borrowed(self.kinds.get(at));
        if from_spacing != spacing {
            let spaced = split.spaced.as_deref().unwrap_or_default();
            kinds = Cow::Owned(respace(
                lines, &kinds, spaced, from_allow, spacing, deviations,
            ));
        }
        if from_allow != allow {
            kinds = Cow::Owned(reclassify(lines, &kinds, allow, spacing, deviations));
        }
        kinds.into_owned()
    }

    /// Steps 1 to 6a under `knobs`: each output taken from the memo, or computed once and kept.
    fn share(&mut self, knobs: &Knobs) -> Shared {
        // Step 1: the prepared body (K14, K12, K7 charset).
        let body_knobs = BodyKnobs::of(knobs);
        let body_at = self
            .body_of
            .iter()
            .position(|(k, _, _)| *k == body_knobs)
            .expect("PreparedBodies::prepare was given every reading");
        let body = self.body_of[body_at].1;
        self.bodies[body].split_once();
        // Step 2: line kinds (K5, K13), shared by the groupings of one body. Kinds already known
        // under the other K5 setting or the other K13 spacing are reused for every line the
        // setting cannot change ([`reclassify`], [`respace`]).
        let group_knobs = GroupKnobs::of(knobs);
        let (allow, spacing) = (group_knobs.allow_directive, group_knobs.field_spacing);
        let deviations = knobs.deviations.only(crate::deviation::LINE);
        let kinds = match self.kinds.position(&(body, allow, spacing, deviations)) {
            Some(at) => at,
            None => {
                let kinds = self.classify(body, allow, spacing, deviations);
                self.kinds
                    .index((body, allow, spacing, deviations), || Cow::Owned(kinds))
            }
        };
        let lines = self.bodies[body].lines();
        // Step 3: groups (K1).
        let kinds = self.kinds.get(kinds);
        let groups = self.groups.index((body, group_knobs), || {
            group::build_groups_deviating(kinds, group_knobs.grouping, group_knobs.deviations)
        });
        // Step 4: selection (K3).
        let select_knobs = SelectKnobs::of(knobs);
        let (of_groups, agent) = (&self.groups.get(groups).groups, self.agent);
        let selection = self.selections.index((groups, select_knobs), || {
            select::select_deviating(of_groups, agent, select_knobs)
        });
        // Step 5: the normalised match target (K8, K7).
        let target_knobs = TargetKnobs::of(knobs);
        let url = &self.url;
        let target = self.targets.index(target_knobs, || {
            url::normalised_target_deviating(url, target_knobs)
        });
        // Step 6a: the selected rules' patterns (K6, K7), each compiled on first use.
        let pattern_knobs = PatternKnobs::of(knobs);
        let patterns = self
            .patterns
            .index((body, pattern_knobs), || smallvec![0; lines.len()]);
        let groups_of_body = &self.groups.get(groups).groups;
        let slots = &mut self.patterns.entries[patterns].1;
        for rule in self.selections.get(selection).rules(groups_of_body) {
            let slot = &mut slots[rule.line - 1];
            if *slot == 0 {
                self.compiled
                    .push(Pattern::compile_deviating(rule.value, pattern_knobs));
                *slot = u32::try_from(self.compiled.len()).expect("fewer patterns than u32::MAX");
            }
        }
        Shared {
            body: body_at,
            groups,
            selection,
            target,
            patterns,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::FieldSpacing;

    #[test]
    fn reclassifying_for_the_other_allow_or_spacing_setting_is_classifying() {
        let body: &[u8] = b"Allow: /a\n ALLOW :/b # c\nallow\nAllowed: /c\nDisallow: /d\n\
            User-agent: *\n# allow: /e\nSitemap: /f\n\n\tallow\t:\nallowance: /g\n\
            \tdisalow : /h\nuser-agent x\n  Disallow:\x0b/i\n";
        let lines = body::split_lines(body);
        let spaced: Vec<bool> = lines
            .iter()
            .map(|l| line::spacing_can_matter(l.bytes))
            .collect();
        let spacings = [FieldSpacing::Around, FieldSpacing::AfterColonOnly];
        let deviation_sets = [
            Deviations::NONE,
            Deviations::NONE.with(Deviation::FieldPrefix),
            Deviations::NONE.with(Deviation::TypoFields),
            Deviations::NONE.with(Deviation::SpaceForColon),
            Deviations::NONE.with(Deviation::VerticalTabTrimmed),
            Deviations::NONE.with(Deviation::NoColonLineIsBlank),
        ];
        for deviations in deviation_sets {
            let kinds = |allow: bool, spacing: FieldSpacing| -> Vec<_> {
                lines
                    .iter()
                    .map(|l| line::classify_deviating(l, allow, spacing, deviations))
                    .collect()
            };
            for allow in [false, true] {
                for spacing in spacings {
                    let direct = kinds(allow, spacing);
                    let other_allow = kinds(!allow, spacing);
                    let other_spacing = kinds(allow, other_spacing(spacing));
                    let what = format!("allow {allow}, {spacing:?}, {deviations:?}");
                    assert_eq!(
                        reclassify(&lines, &other_allow, allow, spacing, deviations),
                        direct,
                        "{what}"
                    );
                    assert_eq!(
                        respace(&lines, &other_spacing, &spaced, allow, spacing, deviations),
                        direct,
                        "{what}"
                    );
                }
            }
        }
    }
}
