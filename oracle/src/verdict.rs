//! The oracle's answer to one request, and the order in which a request's steps give it, stated
//! once for both paths (`docs/profiles.md`):
//!
//! 0. when the request names the file's URL, step 0 ([`crate::scope`]) decides whether the file
//!    governs the URL at all (`not-governed`; `either` where the document leaves it open);
//! 1. when the URL is the `/robots.txt` URI, the exemption ([`fetch::robots_txt_exemption`]) may
//!    allow it before the fetch outcome is read;
//! 2. the fetch outcome (step 8, K15) gives its definite answers, and says whether the body is read
//!    ([`BeforeBody`]);
//! 3. when it is, the body is read under each reading, steps 1 to 7;
//! 4. the verdict is the common answer, or `either` ([`common`]).
//!
//! Which readings, and how one reading is read, is the caller's: the literal mode
//! ([`crate::literal`]) reads every reading the table opens through the steps one after another;
//! the fast path ([`crate::fast`]) the readings the input's facts open, sharing step outputs. A
//! question asked after a history of fetches ([`history()`]) composes single fetches the same way.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::fetch::{self, Exemption, FetchEffect};
use crate::history;
use crate::knobs::ProfileId;
use crate::request::{HistoryRequest, Request};
use crate::scope::{self, Governs, Scope};
use crate::url;

/// The oracle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The URL may be crawled.
    Allowed,
    /// The URL may not be crawled.
    Disallowed,
    /// The document permits more than one answer.
    Either,
    /// The robots.txt file does not govern the URL at all (step 0, [`crate::scope`]): it says nothing
    /// about it.
    #[serde(rename = "not-governed")]
    NotGoverned,
}

impl Verdict {
    /// The verdict's name as cases and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
            Verdict::Either => "either",
            Verdict::NotGoverned => "not-governed",
        }
    }

    /// The verdict named `name` as cases and reports write it.
    pub fn from_name(name: &str) -> Option<Verdict> {
        [
            Verdict::Allowed,
            Verdict::Disallowed,
            Verdict::Either,
            Verdict::NotGoverned,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }

    /// `Allowed` when `allowed`, else `Disallowed`.
    pub(crate) fn from_allowed(allowed: bool) -> Verdict {
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    }
}

/// The common answer of the answers a document permits: `allowed` or `disallowed` when they all
/// agree, `either` when they do not (it stops at the first answer that differs from the first).
/// With no answer at all, `either`: nothing is settled. The one combiner of the oracle: the
/// readings of one fetch, and the bases of a history ([`history()`]), are combined here.
pub fn common(mut answers: impl Iterator<Item = Verdict>) -> Verdict {
    let Some(first) = answers.next() else {
        return Verdict::Either;
    };
    if first != Verdict::Either && answers.all(|v| v == first) {
        first
    } else {
        Verdict::Either
    }
}

/// What a request's first steps say before its body is read, in the order: step 0 (scope), then
/// the `/robots.txt` URI's exemption, then the fetch outcome.
#[derive(Clone, Debug)]
pub struct BeforeBody {
    /// Step 0, when the request gives the robots.txt URL.
    pub scope: Option<Scope>,
    /// The `/robots.txt` URI's exemption, when the URL is that URI and the exemption holds: the
    /// URL is allowed whatever the fetch outcome says.
    pub exemption: Option<Exemption>,
    /// What the fetch outcome says (step 8, K15).
    pub effect: FetchEffect,
    /// Where the document says what the fetch outcome does.
    pub fetch_citation: &'static str,
    /// The fetch outcome's definite answers (each `true` allows), the exemption aside.
    pub fetch_answers: SmallVec<[bool; 4]>,
    /// Whether one of the fetch outcome's permitted effects is "the body's rules decide", the
    /// exemption aside.
    pub fetch_reads_body: bool,
}

impl BeforeBody {
    /// Steps 0 to the fetch outcome of `request` under `profile`. Each step is worked out; which
    /// one decides is for [`BeforeBody::verdict`] (step 0 first) and [`BeforeBody::answers`].
    pub fn of(profile: ProfileId, request: &Request<'_>) -> BeforeBody {
        let scope = request
            .robots_url
            .map(|robots_url| scope::governs(profile, robots_url, request.url));
        // The `/robots.txt` URI: allowed before the fetch outcome, where the exemption holds.
        let exemption = fetch::robots_txt_exemption(profile, Some(request.fetch));
        let exemption = (exemption.holds && url::is_robots_txt_uri(&url::split(request.url)))
            .then_some(exemption);
        // Step 8 (K15): the fetch outcome's definite answers, and whether the body's rules decide.
        let (effect, fetch_citation) = fetch::fetch_effect(profile, request.fetch);
        let (mut fetch_answers, mut fetch_reads_body) = (SmallVec::new(), false);
        flatten(&effect, &mut fetch_answers, &mut fetch_reads_body);
        BeforeBody {
            scope,
            exemption,
            effect,
            fetch_citation,
            fetch_answers,
            fetch_reads_body,
        }
    }

    /// The verdict step 0 gives on its own ([`outside_scope`]).
    pub fn outside_scope(&self) -> Option<Verdict> {
        outside_scope(self.scope)
    }

    /// The definite answers before the body: the exemption's `allowed` where it holds, else the
    /// fetch outcome's.
    pub fn definite(&self) -> &[bool] {
        if self.exemption.is_some() {
            &[true]
        } else {
            &self.fetch_answers
        }
    }

    /// Whether the body's readings answer too: the fetch outcome has the body's rules decide, and
    /// the exemption did not decide first.
    pub fn read_body(&self) -> bool {
        self.exemption.is_none() && self.fetch_reads_body
    }

    /// Every answer after step 0, in order: the definite ones, then, when the body is read, the
    /// body's readings' (`body` is called only then; each of its answers is `true` when that
    /// reading allows the URL).
    pub fn answers<I: IntoIterator<Item = bool>>(
        &self,
        body: impl FnOnce() -> I,
    ) -> Answers<'_, I> {
        let from_body = self.read_body().then(body).into_iter().flatten();
        self.definite().iter().copied().chain(from_body)
    }

    /// The verdict: step 0's own, else the common answer ([`common`]) of the definite answers and
    /// the body's readings ([`BeforeBody::answers`]).
    pub fn verdict<I: IntoIterator<Item = bool>>(&self, body: impl FnOnce() -> I) -> Verdict {
        if let Some(verdict) = self.outside_scope() {
            return verdict;
        }
        common(self.answers(body).map(Verdict::from_allowed))
    }
}

/// The verdict step 0 gives on its own: `not-governed` when the file does not govern the URL,
/// `either` when the document leaves that open; `None` when the file governs it or the request
/// names no robots.txt URL.
pub fn outside_scope(scope: Option<Scope>) -> Option<Verdict> {
    match scope.map(|s| s.governs) {
        None | Some(Governs::Yes) => None,
        Some(Governs::No) => Some(Verdict::NotGoverned),
        Some(Governs::Open) => Some(Verdict::Either),
    }
}

/// The answers of [`BeforeBody::answers`]: the definite ones, then the body's readings'.
pub type Answers<'a, I> = std::iter::Chain<
    std::iter::Copied<std::slice::Iter<'a, bool>>,
    std::iter::Flatten<std::option::IntoIter<I>>,
>;

/// Flattens a fetch effect (`rfc9309#2.3.1`): its definite answers go to `definite`; `read_body`
/// is set when one of its outcomes is "the body's rules decide".
fn flatten(effect: &FetchEffect, definite: &mut SmallVec<[bool; 4]>, read_body: &mut bool) {
    match effect {
        FetchEffect::UseBody => *read_body = true,
        FetchEffect::Allowed => definite.push(true),
        FetchEffect::Disallowed => definite.push(false),
        FetchEffect::Open(options) => {
            for option in options {
                flatten(option, definite, read_body);
            }
        }
    }
}

/// A question asked at a time after a history of fetches, answered in the order: step 0 (scope),
/// then the `/robots.txt` URI's exemption against the latest fetch, then every basis the profile
/// permits at that time, each fetch read as a single fetch.
#[derive(Clone, Debug)]
pub struct HistoryAnswer {
    /// Step 0, when the request gives the robots.txt URL.
    pub scope: Option<Scope>,
    /// The `/robots.txt` URI's exemption, when it holds ([`history::robots_txt_exemption`]).
    pub exemption: Option<Exemption>,
    /// The bases the profile permits at that time, with the rule and its citation.
    pub permitted: history::Permitted,
    /// Each permitted basis and its verdict.
    pub bases: Vec<(history::Basis, Verdict)>,
    /// The verdict: step 0's own, else the exemption's `allowed`, else the common verdict of the
    /// bases ([`common`]).
    pub verdict: Verdict,
}

/// Answers a question asked after a history of fetches under `profile`: every basis is worked out
/// (the explanation lists them), a fetch by `read_fetch` as a single fetch is read.
pub fn history(
    profile: ProfileId,
    request: &HistoryRequest<'_>,
    mut read_fetch: impl FnMut(&Request<'_>) -> Verdict,
) -> HistoryAnswer {
    let scope = request
        .robots_url
        .map(|robots_url| scope::governs(profile, robots_url, request.url));
    let attempts = history::attempts(request);
    let exemption = history::robots_txt_exemption(profile, &attempts, request.at, request.url);
    let permitted = history::permitted(profile, &attempts, request.at);
    let bases: Vec<(history::Basis, Verdict)> = permitted
        .bases
        .iter()
        .map(|&basis| {
            let verdict = match basis {
                history::Basis::Fetch(n) => read_fetch(&request.request(n)),
                history::Basis::Allowed => Verdict::Allowed,
                history::Basis::Disallowed => Verdict::Disallowed,
                history::Basis::Expired => Verdict::NotGoverned,
            };
            (basis, verdict)
        })
        .collect();
    let verdict = outside_scope(scope).unwrap_or_else(|| match exemption {
        Some(_) => Verdict::Allowed,
        None => common(bases.iter().map(|(_, v)| *v)),
    });
    HistoryAnswer {
        scope,
        exemption,
        permitted,
        bases,
        verdict,
    }
}
