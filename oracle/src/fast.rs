//! The fast path: the verdicts and explanations the literal mode ([`crate::literal`]) defines,
//! in the same order ([`mod@crate::verdict`]), reading only the readings the input's facts say can
//! matter ([`crate::relevance::InputFacts`]) and sharing step outputs between readings and
//! profiles ([`crate::memo`]). [`crate::crosscheck`] compares it with the literal mode; the
//! corpus tests, a property test on generated inputs and the fuzzer check that they agree.

use std::cell::OnceCell;

use smallvec::SmallVec;

use crate::deviation::{self, Deviations};
use crate::explain::{self, AppliedAlternative, Explanation, HistoryNote, VariantOutcome};
use crate::history;
use crate::knobs::{self, Knobs, ProfileId};
use crate::memo;
use crate::relevance;
use crate::request::{Fetch, HistoryRequest, Request};
use crate::verdict::{self, BeforeBody, Verdict};

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

/// [`verdict()`] under each of `profiles`, in that order (the input is read once for all of them).
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
        plan.before
            .verdict(|| plan.readings.iter().map(|knobs| memo.allowed(knobs)))
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
    if let Some(verdict) = plan.before.outside_scope() {
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
        .before
        .answers(|| plan.readings.iter().map(|knobs| memo.allowed(knobs)));
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
    // Every answer was read: the body's were not asked for, or every reading gave one.
    (plan.every_reading || !plan.before.read_body())
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
        plan.before
            .verdict(|| plan.readings.iter().map(|knobs| memo.allowed(knobs)))
    })
    .pop()
    .and_then(|mut v| v.pop())
    .expect("one verdict for one profile")
}

/// [`verdict()`] under every profile, in [`ProfileId::ALL`] order: the fuzzer's path.
pub fn verdicts_all(request: &Request<'_>) -> [Verdict; 4] {
    let all = verdicts(&ProfileId::ALL, request);
    [all[0], all[1], all[2], all[3]]
}

/// Evaluates a question asked at a time after a history of fetches (`history`) under one profile,
/// in the history's order ([`verdict::history`]): each fetch's outcome and body evaluated as a
/// single fetch; `either` when the permitted bases disagree.
pub fn evaluate_history(profile: ProfileId, request: &HistoryRequest<'_>) -> Explanation {
    let mut first_fetch: Option<Explanation> = None;
    let answer = verdict::history(profile, request, |fetch| {
        let explained = evaluate(profile, fetch);
        let verdict = explained.verdict;
        first_fetch.get_or_insert(explained);
        verdict
    });
    let verdict = answer.verdict;
    let note = HistoryNote {
        at: request.at,
        rule: answer.permitted.rule,
        citation: answer.permitted.citation,
        bases: answer
            .bases
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
        scope: answer.scope,
        history: Some(note),
        robots_txt_exemption: answer.exemption.or(base.robots_txt_exemption),
        ..base
    }
}

/// The verdict alone of [`evaluate_history`].
pub fn verdict_history(profile: ProfileId, request: &HistoryRequest<'_>) -> Verdict {
    evaluate_history(profile, request).verdict
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

/// What one profile asks of one request: the order's first steps ([`BeforeBody`]: scope, the
/// `/robots.txt` exemption, the fetch outcome) and, when the fetch outcome reads the body, the
/// readings the input's facts open (the base reading first).
struct Plan {
    profile: ProfileId,
    /// Steps 0 to the fetch outcome.
    before: BeforeBody,
    /// The open knobs for this input (empty when the body is not read).
    open: Vec<knobs::OpenKnob>,
    /// The base reading, then every combination of the open knobs' alternatives (empty when the
    /// fetch outcome never reads the body); the base reading alone when the plan was asked for no
    /// more. Where the `/robots.txt` exemption decides, they are still read for the explanation.
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
        let mut plan = Plan {
            profile,
            before: BeforeBody::of(profile, request),
            open: Vec::new(),
            readings: Vec::new(),
            every_reading: true,
        };
        // A file that does not govern the URL (or may not) is not read for it; a 404 never looks
        // at the body, so its facts are gathered only when it is read.
        if plan.before.outside_scope().is_some() || !plan.before.fetch_reads_body {
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
        let verdict = plan.before.verdict(|| {
            base.iter()
                .map(|r| r.allowed)
                .chain(variants.iter().map(|v| v.verdict == Verdict::Allowed))
        });
        Explanation {
            profile: plan.profile,
            verdict,
            robots_url: request.robots_url.map(str::to_string),
            scope: plan.before.scope,
            history: None,
            fetch: request.fetch,
            fetch_effect: explain::describe_fetch_effect(&plan.before.effect),
            fetch_citation: plan.before.fetch_citation,
            // Shown where the file governs the URL and the fetch outcome alone would answer; for
            // a fetch whose body decides, the base reading shows the exemption itself (K10).
            robots_txt_exemption: plan.before.exemption.filter(|_| {
                plan.before.outside_scope().is_none() && !plan.before.fetch_answers.is_empty()
            }),
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
