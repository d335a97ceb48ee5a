//! A reference robots.txt oracle, written straight from the documents: RFC 9309, Google's
//! interpretation, Koster's 1996 draft and the 1994 standard.
//!
//! Clear before fast: each step of the pipeline is a module named after what it does, each rule a
//! function citing its section; the differences between documents are the named knobs of
//! [`knobs`]. The oracle is pure and total: any octets, agent and URL give a [`Verdict`] and an
//! [`Explanation`]; it does no I/O, never panics and matches in polynomial time.
//!
//! Two paths give the same verdicts. The definition is [`literal`]: every combination of every
//! alternative a document leaves open, each reading run through the steps one after another. The
//! fast path ([`evaluate`], [`verdict`], [`verdicts_all`]) tries a knob's alternatives only where
//! the input's facts say they can matter ([`relevance::InputFacts`]) and shares step outputs between
//! readings ([`memo`]). [`crosscheck`] compares them; the corpus tests, a property test on 100,000
//! generated inputs and the fuzzer check that they agree.
//!
//! ```
//! use robotstxt_oracle::{evaluate, ProfileId, Request, Verdict};
//! let body = b"User-agent: *\nDisallow: /private\nAllow: /private/public\n";
//! let answer = evaluate(ProfileId::Rfc9309, &Request::new(body, "ExampleBot", "/private/public/x"));
//! assert_eq!(answer.verdict, Verdict::Allowed);
//! ```

pub mod aipref;
#[cfg(feature = "cause")]
pub mod behaviour;
pub mod body;
#[cfg(feature = "cause")]
pub mod cause;
#[cfg(feature = "crosscheck")]
pub mod crosscheck;
pub mod decide;
pub mod deviation;
pub mod encoding;
#[cfg(feature = "cause")]
pub mod evidence;
#[cfg(feature = "cause")]
pub mod examine;
pub mod explain;
pub mod fetch;
pub mod group;
pub mod history;
pub mod knobs;
pub mod line;
pub mod literal;
pub mod memo;
pub mod pattern;
pub mod profile;
pub mod reading_table;
pub mod relevance;
pub mod request;
pub mod scope;
pub mod select;
pub mod url;
pub mod verdict;
pub mod words;

pub use deviation::{Deviation, Deviations};
pub use explain::{AppliedAlternative, Explanation, HistoryNote, Reading, VariantOutcome};
pub use knobs::{Knobs, ProfileId};
pub use request::{Fetch, HistoryRequest, Request, TimedFetch};
pub use scope::{Governs, Scope};
pub use verdict::Verdict;

use std::cell::OnceCell;

use serde::Serialize;
use smallvec::SmallVec;

/// Evaluates one request under one profile: the verdict and how it was reached.
pub fn evaluate(profile: ProfileId, request: &Request<'_>) -> Explanation {
    explain_profiles(&[profile], request)
        .pop()
        .expect("one explanation per profile")
}

/// Evaluates under every profile (the input is read once for all four: see [`memo`]).
pub fn evaluate_all(request: &Request<'_>) -> Vec<Explanation> {
    explain_profiles(&ProfileId::ALL, request)
}

/// The open knob behind readings of `profile` that disagree: of the first variant in
/// [`evaluate`]'s order whose answer differs from the base reading's, the first knob it applies;
/// `None` when every reading agrees or the body is not read. What [`evaluate`]'s variants name,
/// without building the explanation.
pub fn first_knob_differing(profile: ProfileId, request: &Request<'_>) -> Option<&'static str> {
    each_plan(&[profile], request, |plan, memo| {
        let base = memo.allowed(plan.readings.first()?);
        let at = plan
            .readings
            .iter()
            .position(|knobs| memo.allowed(knobs) != base)?;
        let first_applied =
            combinations(&plan.open, None, |first, knob, _| first.or(Some(knob.name)));
        first_applied[at]
    })
    .pop()
    .flatten()
}

/// The verdict alone under one profile: what [`evaluate`] answers, without the explanation, and
/// faster (it stops reading as soon as two readings disagree).
pub fn verdict(profile: ProfileId, request: &Request<'_>) -> Verdict {
    verdicts(&[profile], request)[0]
}

/// [`verdict`] under each of `profiles`, in that order (the input is read once for all of them).
pub fn verdicts(profiles: &[ProfileId], request: &Request<'_>) -> Vec<Verdict> {
    verdicts_on_one_body(&[(profiles, request)])
        .pop()
        .expect("one verdict list per request")
}

/// [`verdicts`] for several requests on the same body (e.g. one URL with and without a fragment),
/// each under its own profiles, in order: the body is read once for all of them, so each further
/// request costs only its selection, match target and matching. Panics if the bodies differ.
pub fn verdicts_on_one_body(asks: &[(&[ProfileId], &Request<'_>)]) -> Vec<Vec<Verdict>> {
    each_plan_on_one_body(asks, Deviations::NONE, |plan, memo| {
        if let Some(verdict) = plan.outside_scope() {
            return verdict;
        }
        let from_body = plan.readings.iter().map(|knobs| memo.allowed(knobs));
        agreed(plan.fetch_outcomes.iter().copied().chain(from_body))
    })
}

/// How much of a profile's verdict a caller needs ([`verdicts_as_needed_on_one_body`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needed {
    /// The verdict.
    Verdict,
    /// Only whether the verdict permits each answer asked: the fuzzer asks this of the answers
    /// its parsers gave.
    Permits {
        /// Whether `allowed` is asked about.
        allowed: bool,
        /// Whether `disallowed` is asked about.
        disallowed: bool,
    },
}

/// A profile's verdict as far as it was needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The verdict.
    Verdict(Verdict),
    /// The verdict permits every answer asked of it ([`Needed::Permits`]), and was read no
    /// further: it is that answer or `either`.
    PermitsAsked,
}

impl Known {
    /// The verdict, when it was worked out.
    pub fn verdict(self) -> Option<Verdict> {
        match self {
            Known::Verdict(verdict) => Some(verdict),
            Known::PermitsAsked => None,
        }
    }
}

/// [`verdicts`], each profile read only as far as its [`Needed`] says
/// ([`verdicts_as_needed_on_one_body`]).
pub fn verdicts_as_needed(needs: &[(ProfileId, Needed)], request: &Request<'_>) -> Vec<Known> {
    verdicts_as_needed_on_one_body(&[(needs, request)])
        .pop()
        .expect("one answer list per request")
}

/// [`verdicts_on_one_body`], each profile read only as far as its [`Needed`] says. A profile asked
/// only whether it permits some answers is first read on its fetch outcome and its base reading;
/// when those give every answer asked, it is [`Known::PermitsAsked`] (or the verdict `either`,
/// when both answers were asked and given), and otherwise it is read in full. Every
/// [`Known::Verdict`] is the verdict [`verdicts_on_one_body`] gives.
pub fn verdicts_as_needed_on_one_body(
    asks: &[(&[(ProfileId, Needed)], &Request<'_>)],
) -> Vec<Vec<Known>> {
    let profiles: Vec<Vec<ProfileId>> = asks
        .iter()
        .map(|(needs, _)| needs.iter().map(|&(p, _)| p).collect())
        .collect();
    let by_profile: Vec<(&[ProfileId], &Request<'_>)> = profiles
        .iter()
        .zip(asks)
        .map(|(profiles, (_, request))| (&profiles[..], *request))
        .collect();
    let needed = |at: usize, profile: ProfileId| {
        asks[at]
            .0
            .iter()
            .find(|&&(p, _)| p == profile)
            .map_or(Needed::Verdict, |&(_, needed)| needed)
    };
    // First the fetch outcome and the base reading of each profile asked only for some answers,
    // every reading of the others.
    let first = each_plan_on_one_body_reading(
        &by_profile,
        Deviations::NONE,
        |at, profile| needed(at, profile) != Needed::Verdict,
        |at, plan, memo| read_as_needed(&plan, memo, needed(at, plan.profile)),
    );
    // Then every reading of those the base reading did not settle.
    let unsettled: Vec<Vec<ProfileId>> = profiles
        .iter()
        .zip(&first)
        .map(|(profiles, known)| {
            let unsettled = profiles.iter().zip(known).filter(|(_, k)| k.is_none());
            unsettled.map(|(&p, _)| p).collect()
        })
        .collect();
    let mut read_in_full = if unsettled.iter().all(Vec::is_empty) {
        Vec::new()
    } else {
        let asks: Vec<(&[ProfileId], &Request<'_>)> = unsettled
            .iter()
            .zip(asks)
            .map(|(profiles, (_, request))| (&profiles[..], *request))
            .collect();
        verdicts_on_one_body(&asks)
    }
    .into_iter()
    .map(Vec::into_iter);
    first
        .into_iter()
        .map(|known| {
            let mut verdicts = read_in_full.next();
            known
                .into_iter()
                .map(|k| {
                    k.unwrap_or_else(|| {
                        let verdict = verdicts.as_mut().and_then(Iterator::next);
                        Known::Verdict(verdict.expect("an unsettled profile is read in full"))
                    })
                })
                .collect()
        })
        .collect()
}

/// One plan read as far as `needed` says: `None` when the plan's readings (its base reading alone)
/// do not say what is needed.
fn read_as_needed(plan: &Plan, memo: &mut memo::Memo<'_>, needed: Needed) -> Option<Known> {
    if let Some(verdict) = plan.outside_scope() {
        return Some(Known::Verdict(verdict));
    }
    let (want_allowed, want_disallowed) = match needed {
        Needed::Verdict => (true, true),
        Needed::Permits {
            allowed,
            disallowed,
        } => (allowed, disallowed),
    };
    let answers = plan
        .fetch_outcomes
        .iter()
        .copied()
        .chain(plan.readings.iter().map(|knobs| memo.allowed(knobs)));
    let (mut allowed, mut disallowed) = (false, false);
    for answer in answers {
        allowed |= answer;
        disallowed |= !answer;
        if allowed && disallowed {
            return Some(Known::Verdict(Verdict::Either));
        }
        if needed != Needed::Verdict
            && (allowed || !want_allowed)
            && (disallowed || !want_disallowed)
        {
            return Some(Known::PermitsAsked);
        }
    }
    plan.every_reading
        .then(|| Known::Verdict(Verdict::from_allowed(allowed)))
}

/// What the verdict of `profile` would be under `deviations` (`docs/deviations.md`): every reading
/// the profile permits for the request, each with the deviations added. No profile's verdict ever
/// holds a deviation; this answers "under deviation D, the verdict would be ...".
pub fn verdict_deviating(
    profile: ProfileId,
    deviations: deviation::Deviations,
    request: &Request<'_>,
) -> Verdict {
    each_plan_on_one_body(&[(&[profile], request)], deviations, |plan, memo| {
        if let Some(verdict) = plan.outside_scope() {
            return verdict;
        }
        let from_body = plan.readings.iter().map(|knobs| memo.allowed(knobs));
        agreed(plan.fetch_outcomes.iter().copied().chain(from_body))
    })
    .pop()
    .and_then(|mut v| v.pop())
    .expect("one verdict for one profile")
}

/// [`verdict`] under every profile, in [`ProfileId::ALL`] order: the fuzzer's path.
pub fn verdicts_all(request: &Request<'_>) -> [Verdict; 4] {
    let all = verdicts(&ProfileId::ALL, request);
    [all[0], all[1], all[2], all[3]]
}

/// Evaluates a question asked at a time after a history of fetches (`history`) under one profile:
/// step 0 (scope) first, then every basis the profile permits at that time, each fetch's outcome
/// and body evaluated as a single fetch; `either` when the permitted bases disagree.
pub fn evaluate_history(profile: ProfileId, request: &HistoryRequest<'_>) -> Explanation {
    let scope = request
        .robots_url
        .map(|robots_url| scope::governs(profile, robots_url, request.url));
    let attempts = crate::history::attempts(request);
    let permitted = history::permitted(profile, &attempts, request.at);
    let exemption = history::robots_txt_exemption(profile, &attempts, request.at, request.url);
    let mut first_fetch: Option<Explanation> = None;
    let mut outcomes = Vec::with_capacity(permitted.bases.len());
    for &basis in &permitted.bases {
        let verdict = match basis {
            history::Basis::Fetch(n) => {
                let explained = evaluate(profile, &request.request(n));
                let verdict = explained.verdict;
                first_fetch.get_or_insert(explained);
                verdict
            }
            history::Basis::Allowed => Verdict::Allowed,
            history::Basis::Disallowed => Verdict::Disallowed,
            history::Basis::Expired => Verdict::NotGoverned,
        };
        outcomes.push((basis, verdict));
    }
    let outside_scope = match scope.map(|s| s.governs) {
        None | Some(Governs::Yes) => None,
        Some(Governs::No) => Some(Verdict::NotGoverned),
        Some(Governs::Open) => Some(Verdict::Either),
    };
    // Scope, then the `/robots.txt` URI's exemption, then the bases.
    let verdict = outside_scope.unwrap_or_else(|| match exemption {
        Some(_) => Verdict::Allowed,
        None => combined(outcomes.iter().map(|(_, v)| *v)),
    });
    let note = HistoryNote {
        at: request.at,
        rule: permitted.rule,
        citation: permitted.citation,
        bases: outcomes
            .iter()
            .map(|&(basis, verdict)| (describe_basis(basis, request), verdict))
            .collect(),
    };
    let base = first_fetch.unwrap_or(Explanation {
        profile,
        verdict,
        robots_url: None,
        scope: None,
        fetch: Fetch::default(),
        fetch_effect: String::new(),
        fetch_citation: "",
        robots_txt_exemption: None,
        reading: None,
        variants: Vec::new(),
        history: None,
    });
    Explanation {
        verdict,
        robots_url: request.robots_url.map(str::to_string),
        scope,
        history: Some(note),
        robots_txt_exemption: exemption.or(base.robots_txt_exemption),
        ..base
    }
}

/// The verdict alone of [`evaluate_history`].
pub fn verdict_history(profile: ProfileId, request: &HistoryRequest<'_>) -> Verdict {
    evaluate_history(profile, request).verdict
}

/// The `aipref` reading's answer for one request and one category of use ([`aipref`]): the
/// preference and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PreferenceExplanation {
    /// The category of use asked about, e.g. `train-ai`.
    pub category: String,
    /// The preference: `y`, `n`, `none`, or `either` where the permitted readings disagree.
    pub preference: aipref::Preference,
    /// Each different answer the permitted readings give, with the first reading that gives it
    /// (`base`, or the alternatives it applies, in words), the base reading's first.
    pub answers: Vec<(String, aipref::Finding)>,
}

impl PreferenceExplanation {
    /// The explanation in words, one line per answer.
    pub fn text(&self) -> String {
        let mut out = format!(
            "aipref ({}): preference for {}: {}\n",
            aipref::REVISION,
            self.category,
            self.preference.name()
        );
        for (reading, finding) in &self.answers {
            let line = finding
                .line
                .map(|n| format!("line {n}: "))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {} under {reading}: {line}{} ({})\n",
                finding.preference.name(),
                finding.rule,
                finding.citations.join(", ")
            ));
        }
        out
    }
}

/// The `aipref` reading ([`aipref`]) of `request` for `category`, with its explanation: the fast
/// path. It reads the body under RFC 9309's base reading and under each combination of the
/// alternatives the input's facts say can matter ([`ProfileId::open_knobs`]), gathered from the
/// body and from the body with each Content-Usage line written as an `Allow` and a `Disallow`
/// line of the same value (the same grouping, and its paths and statements read as rules are); the drafts' own
/// alternative ([`aipref::StatementBounds`]) only where a Content-Usage value holds an HTAB. It
/// must answer what [`literal::preference`], every reading whatever the input holds, answers.
pub fn evaluate_preference(request: &Request<'_>, category: &str) -> PreferenceExplanation {
    let (before, read_body) = aipref::before_body(request);
    let mut answers: Vec<(String, aipref::Finding)> = before
        .into_iter()
        .map(|finding| ("the fetch outcome".to_string(), finding))
        .collect();
    if read_body {
        for reading in preference_readings(request) {
            for &bounds in &reading.1 {
                let aipref_reading = aipref::AiprefReading {
                    knobs: reading.0.knobs,
                    bounds,
                };
                let finding = aipref::under(&aipref_reading, request, category);
                if answers
                    .iter()
                    .all(|(_, f)| f.preference != finding.preference)
                {
                    let mut name = reading.0.name();
                    if bounds != aipref::StatementBounds::Remainder {
                        name.push_str(&format!("; {}", bounds.words()));
                    }
                    answers.push((name, finding));
                }
            }
        }
    }
    PreferenceExplanation {
        category: category.to_string(),
        preference: aipref::common(answers.iter().map(|(_, f)| f.preference)),
        answers,
    }
}

/// The preference alone of [`evaluate_preference`].
pub fn preference(request: &Request<'_>, category: &str) -> aipref::Preference {
    evaluate_preference(request, category).preference
}

/// The readings [`evaluate_preference`] tries: RFC 9309's readings over the knobs the facts open,
/// each with the statement bounds worth trying.
fn preference_readings(
    request: &Request<'_>,
) -> Vec<(literal::LiteralReading, Vec<aipref::StatementBounds>)> {
    let profile = ProfileId::Rfc9309;
    let mut open = profile.open_knobs(request);
    let rewritten = aipref_rules_as_allow(request.body);
    let as_allow = Request {
        body: &rewritten.0,
        ..*request
    };
    for knob in profile.open_knobs(&as_allow) {
        match open.iter_mut().find(|k| k.name == knob.name) {
            // Two different sets of alternatives: the row's every alternative covers both.
            Some(known) if known.alternatives != knob.alternatives => {
                let row = profile.open_rows().iter().find(|r| r.name == knob.name);
                known.alternatives = row.map_or(known.alternatives, |r| r.alternatives);
            }
            Some(_) => {}
            None => open.push(knob),
        }
    }
    // The table's order, as the literal mode applies them.
    let order = |name: &str| profile.open_rows().iter().position(|r| r.name == name);
    open.sort_by_key(|k| order(k.name));
    let bounds = if rewritten.1 {
        aipref::StatementBounds::ALL.to_vec()
    } else {
        vec![aipref::StatementBounds::Remainder]
    };
    literal::readings_from(profile.base_knobs(), open)
        .into_iter()
        .map(|reading| (reading, bounds.clone()))
        .collect()
}

/// The body with each line that is a Content-Usage line under some reading (a leading byte-order
/// mark set aside) written as an `Allow` and a `Disallow` line with the same value, and whether
/// some such value
/// holds an HTAB. The grouping is the same (a Content-Usage line is a rule), and the paths and
/// statements stand where rules' values do, so the facts about rules cover them.
fn aipref_rules_as_allow(body: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(body.len());
    let mut tab = false;
    for (index, (content, end)) in body::lines_with_ends(body).into_iter().enumerate() {
        let (bom, rest) = match content.strip_prefix(body::UTF8_BOM) {
            Some(rest) if index == 0 => (body::UTF8_BOM, rest),
            _ => (&b""[..], content),
        };
        match aipref::rule_value(rest) {
            // Both kinds of rule, so that facts about an Allow beside a Disallow (K4) see it.
            Some(value) => {
                tab |= value.contains(&b'\t');
                out.extend_from_slice(bom);
                out.extend_from_slice(b"Allow: ");
                out.extend_from_slice(value);
                out.extend_from_slice(if end.is_empty() { b"\n" } else { end });
                out.extend_from_slice(b"Disallow: ");
                out.extend_from_slice(value);
            }
            None => out.extend_from_slice(content),
        }
        out.extend_from_slice(end);
    }
    (out, tab)
}

/// The verdict of several permitted answers: the common one, or `either`.
fn combined(mut verdicts: impl Iterator<Item = Verdict>) -> Verdict {
    let Some(first) = verdicts.next() else {
        return Verdict::Either;
    };
    if first != Verdict::Either && verdicts.all(|v| v == first) {
        first
    } else {
        Verdict::Either
    }
}

/// A basis in words: `fetch 1 at 0h (status 200 after 0 redirects)`, `allowed`.
fn describe_basis(basis: history::Basis, request: &HistoryRequest<'_>) -> String {
    match basis {
        history::Basis::Fetch(n) => {
            let fetch = &request.fetches[n];
            let outcome = match fetch.fetch {
                Fetch::Status { status, redirects } if redirects > 0 => {
                    format!("status {status} after {redirects} redirects")
                }
                Fetch::Status { status, .. } => format!("status {status}"),
                Fetch::Unreachable => "unreachable".to_string(),
            };
            format!(
                "fetch {} at {} ({outcome})",
                n + 1,
                history::format_minutes(fetch.at)
            )
        }
        history::Basis::Allowed => "everything allowed".to_string(),
        history::Basis::Disallowed => "everything disallowed".to_string(),
        history::Basis::Expired => "no fetch speaks for the site now".to_string(),
    }
}

/// What one profile asks of one request: whether the file governs the URL (step 0), the fetch
/// outcome's definite answers and, when the body is read, every reading (the base reading first).
struct Plan {
    profile: ProfileId,
    /// Step 0, when the request gives the robots.txt URL.
    scope: Option<Scope>,
    effect: fetch::FetchEffect,
    fetch_citation: &'static str,
    /// The `/robots.txt` URI's exemption, when the URL is that URI, it holds, and the fetch outcome
    /// answers without the body ([`fetch::robots_txt_exemption`]).
    exemption: Option<fetch::Exemption>,
    /// Answers the fetch outcome gives without the body (`rfc9309#2.3.1`), each `true` under
    /// the exemption.
    fetch_outcomes: Vec<bool>,
    /// The open knobs for this input (empty when the body is not read).
    open: Vec<knobs::OpenKnob>,
    /// The base reading, then every combination of the open knobs' alternatives (empty when the
    /// body is not read); the base reading alone when the plan was asked for no more.
    readings: Vec<Knobs>,
    /// Whether `readings` are every reading the profile permits (not the base reading alone).
    every_reading: bool,
}

impl Plan {
    /// The plan of `profile` for `request`. The body is split and classified (`received`), and the
    /// request's facts gathered from it (`facts`, for the knobs of `profiles`: every profile asked
    /// of this request), on first need: a 404 never reads the body. With `base_only`, the body's
    /// readings are the base reading alone, and no fact is gathered for them.
    fn of<'r>(
        profile: ProfileId,
        request: &Request<'r>,
        received: &OnceCell<memo::ReceivedBody<'r>>,
        facts: &OnceCell<relevance::InputFacts>,
        profiles: &[ProfileId],
        base_only: bool,
    ) -> Plan {
        let scope = request
            .robots_url
            .map(|robots_url| scope::governs(profile, robots_url, request.url));
        let (effect, fetch_citation) = fetch::fetch_effect(profile, request.fetch);
        let mut plan = Plan {
            profile,
            scope,
            effect,
            fetch_citation,
            exemption: None,
            fetch_outcomes: Vec::new(),
            open: Vec::new(),
            readings: Vec::new(),
            every_reading: true,
        };
        // A file that does not govern the URL (or may not) is not read for it.
        if plan.outside_scope().is_some() {
            return plan;
        }
        let mut outcomes = SmallVec::new();
        collect_fetch_outcomes(&plan.effect, &mut outcomes);
        plan.fetch_outcomes = outcomes.iter().flatten().copied().collect();
        // The `/robots.txt` URI before the fetch outcome: where the exemption holds, each of the
        // outcome's answers is `allowed` (the body's readings apply it themselves, K10).
        if !plan.fetch_outcomes.is_empty() && url::is_robots_txt_uri(&url::split(request.url)) {
            let exemption = fetch::robots_txt_exemption(profile, Some(request.fetch));
            if exemption.holds {
                plan.fetch_outcomes.fill(true);
                plan.exemption = Some(exemption);
            }
        }
        // A 404 never looks at the body, so its facts are gathered only when it is read.
        if !outcomes.iter().any(Option::is_none) {
            return plan;
        }
        if base_only {
            plan.readings = vec![profile.base_knobs()];
            plan.every_reading = false;
        } else {
            let facts = facts.get_or_init(|| {
                let received = received.get_or_init(|| memo::ReceivedBody::of(request.body));
                relevance::InputFacts::for_profiles(request, received, profiles)
            });
            plan.open = profile.open_knobs_given(facts);
            plan.readings =
                combinations(&plan.open, profile.base_knobs(), |knobs, _, alternative| {
                    alternative.apply(*knobs)
                });
        }
        plan
    }

    /// The verdict step 0 gives on its own: `not-governed` when the file does not govern the URL,
    /// `either` when the document leaves that open; `None` when the file governs it.
    fn outside_scope(&self) -> Option<Verdict> {
        match self.scope.map(|s| s.governs) {
            None | Some(Governs::Yes) => None,
            Some(Governs::No) => Some(Verdict::NotGoverned),
            Some(Governs::Open) => Some(Verdict::Either),
        }
    }

    /// The names of the alternatives each reading applied, in the order of `readings`.
    fn applied(&self) -> Vec<Vec<AppliedAlternative>> {
        combinations(&self.open, Vec::new(), |applied, knob, alternative| {
            let mut applied = applied.clone();
            applied.push(AppliedAlternative {
                knob: knob.name,
                alternative: *alternative,
                citation: knob.citation,
            });
            applied
        })
    }
}

/// Explains each of `profiles`, reading the input once for all of them.
fn explain_profiles(profiles: &[ProfileId], request: &Request<'_>) -> Vec<Explanation> {
    each_plan(profiles, request, |plan, memo| {
        // Only the base reading is explained; the alternatives contribute their verdicts.
        let base = plan.readings.first().map(|knobs| memo.explain(knobs));
        let variants: Vec<VariantOutcome> = plan
            .applied()
            .into_iter()
            .zip(&plan.readings)
            .skip(1)
            .map(|(applied, knobs)| VariantOutcome {
                applied,
                verdict: Verdict::from_allowed(memo.allowed(knobs)),
            })
            .collect();
        let verdict = plan.outside_scope().unwrap_or_else(|| {
            agreed(
                plan.fetch_outcomes
                    .iter()
                    .copied()
                    .chain(base.iter().map(|r| r.allowed))
                    .chain(variants.iter().map(|v| v.verdict == Verdict::Allowed)),
            )
        });
        Explanation {
            profile: plan.profile,
            verdict,
            robots_url: request.robots_url.map(str::to_string),
            scope: plan.scope,
            history: None,
            fetch: request.fetch,
            fetch_effect: explain::describe_fetch_effect(&plan.effect),
            fetch_citation: plan.fetch_citation,
            robots_txt_exemption: plan.exemption,
            reading: base,
            variants,
        }
    })
}

/// `answer` applied to the plan of each of `profiles`, in order, with one memo for all of them (the
/// body is split and classified once, for the input's facts and for every reading that leaves it
/// as received, and every reading of every profile shares the memo's steps).
fn each_plan<T>(
    profiles: &[ProfileId],
    request: &Request<'_>,
    answer: impl FnMut(Plan, &mut memo::Memo<'_>) -> T,
) -> Vec<T> {
    each_plan_on_one_body(&[(profiles, request)], Deviations::NONE, answer)
        .pop()
        .expect("one answer list per request")
}

/// [`each_plan`] for several requests on the same body, each under its own profiles: the body is
/// split, classified, prepared and grouped once for all of them, and only what depends on the agent
/// and the URL (selection, match target, matching) is redone per request.
fn each_plan_on_one_body<T>(
    asks: &[(&[ProfileId], &Request<'_>)],
    deviations: Deviations,
    mut answer: impl FnMut(Plan, &mut memo::Memo<'_>) -> T,
) -> Vec<Vec<T>> {
    each_plan_on_one_body_reading(
        asks,
        deviations,
        |_, _| false,
        |_, plan, memo| answer(plan, memo),
    )
}

/// [`each_plan_on_one_body`], where `base_only` (the ask's place and the profile) says which plans
/// hold the base reading alone ([`Plan::of`]); the input's facts are gathered for the others only.
/// `answer` is given the ask's place too.
fn each_plan_on_one_body_reading<T>(
    asks: &[(&[ProfileId], &Request<'_>)],
    deviations: Deviations,
    base_only: impl Fn(usize, ProfileId) -> bool,
    mut answer: impl FnMut(usize, Plan, &mut memo::Memo<'_>) -> T,
) -> Vec<Vec<T>> {
    let Some(((_, first), rest)) = asks.split_first() else {
        return Vec::new();
    };
    assert!(
        rest.iter().all(|(_, r)| r.body == first.body),
        "each_plan_on_one_body is given one body"
    );
    let received = OnceCell::new();
    let plans: Vec<Vec<Plan>> = asks
        .iter()
        .enumerate()
        .map(|(at, (profiles, request))| {
            let facts = OnceCell::new();
            let in_full: SmallVec<[ProfileId; 4]> = profiles
                .iter()
                .copied()
                .filter(|&p| !base_only(at, p))
                .collect();
            profiles
                .iter()
                .map(|&p| {
                    let mut plan =
                        Plan::of(p, request, &received, &facts, &in_full, base_only(at, p));
                    for knobs in &mut plan.readings {
                        knobs.deviations = deviations;
                    }
                    plan
                })
                .collect()
        })
        .collect();
    let readings = plans.iter().flatten().flat_map(|p| &p.readings);
    let prepared = memo::PreparedBodies::prepare(first.body, readings);
    let mut memo = memo::Memo::reusing(first, &prepared, received.get());
    asks.iter()
        .zip(plans)
        .enumerate()
        .map(|(at, ((_, request), plans))| {
            // The memo starts on the first request; each later one turns it.
            if at > 0 {
                memo.requery(request);
            }
            plans
                .into_iter()
                .map(|plan| answer(at, plan, &mut memo))
                .collect()
        })
        .collect()
}

/// The verdict of a set of answers: the common answer, or `either` (read lazily: it stops at the
/// first answer that differs from the first).
fn agreed(mut answers: impl Iterator<Item = bool>) -> Verdict {
    let first = answers.next().expect("a profile always answers something");
    if answers.all(|a| a == first) {
        Verdict::from_allowed(first)
    } else {
        Verdict::Either
    }
}

/// Flattens a fetch effect into definite outcomes (`Some(allowed)`) and "use the body" (`None`).
fn collect_fetch_outcomes(effect: &fetch::FetchEffect, out: &mut SmallVec<[Option<bool>; 4]>) {
    match effect {
        fetch::FetchEffect::UseBody => out.push(None),
        fetch::FetchEffect::Allowed => out.push(Some(true)),
        fetch::FetchEffect::Disallowed => out.push(Some(false)),
        fetch::FetchEffect::Open(options) => {
            options.iter().for_each(|o| collect_fetch_outcomes(o, out))
        }
    }
}

/// Every combination of the open knobs' alternatives, built from `base` with `with`: the base
/// first, then, for each open knob in turn, every combination so far with each of its alternatives.
/// The order is fixed, so readings and their names line up.
fn combinations<T>(
    open: &[knobs::OpenKnob],
    base: T,
    with: impl Fn(&T, &knobs::OpenKnob, &knobs::Alternative) -> T,
) -> Vec<T> {
    let count = open.iter().map(|k| k.alternatives.len() + 1).product();
    let mut all = Vec::with_capacity(count);
    all.push(base);
    for knob in open {
        // The combinations so far, each with each alternative, appended after them.
        for at in 0..all.len() {
            for alternative in knob.alternatives {
                let combination = with(&all[at], knob, alternative);
                all.push(combination);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests;
