//! Examining one divergence: the input's neighbours asked of the parser, the candidates weighed
//! ([`crate::evidence`]), and, where nothing is credited, the behaviour group
//! ([`crate::behaviour`]). What the fuzzer, `ledger rewrite`, `robotstxt-spec`'s bless and the
//! real-world report each do with a divergence before naming its cause.

use crate::behaviour::{behaviour, Behaviour};
use crate::evidence::{self, Credit, Neighbour, OtherAnswers};
use crate::{ProfileId, Request};

/// What examining one divergence found.
#[derive(Clone, Debug)]
pub struct Examination {
    /// The weighing of the candidates.
    pub credit: Credit,
    /// The neighbours asked about.
    pub neighbours: Vec<Neighbour>,
    /// The parser's answers to them (`Some(true)`: allowed; `None`: not a verdict).
    pub answers: Vec<Option<bool>>,
    /// For an unexplained divergence, its behaviour group.
    pub behaviour: Option<Behaviour>,
}

impl Examination {
    /// The cause where a cause label stands (a fuzz bucket, a ledger group's `id`): the credited
    /// label (`K4 precedence`), or the behaviour group's id (`unexplained <key>`).
    pub fn label(&self) -> String {
        match &self.behaviour {
            None => self.credit.label(),
            Some(group) => group.id(),
        }
    }

    /// Whether a knob or deviation is credited.
    pub fn credited(&self) -> bool {
        self.behaviour.is_none()
    }

    /// The examination in words: what the credit rests on, or why nothing is credited and which
    /// group the divergence is in.
    pub fn words(&self) -> String {
        let rests_on = self.credit.words(&self.neighbours);
        match &self.behaviour {
            None => format!("Credited: {rests_on}."),
            Some(group) => format!(
                "No document permits this and no named deviation describes it: {rests_on}. \
                 Grouped as {} (input shape `{}`).",
                group.title(),
                group.shape
            ),
        }
    }
}

/// Examines the parser's answer `allowed` on `request`, where `profile` says otherwise: `ask`
/// gives the parser's answers to the input's neighbours (`Some(true)` allowed, `None` not a
/// verdict), in order; `others` hold its other answers (each set of them checked in turn, each
/// with the work it keeps from earlier examinations).
pub fn examine(
    profile: ProfileId,
    request: &Request<'_>,
    allowed: bool,
    ask: &mut dyn FnMut(&[Neighbour]) -> Vec<Option<bool>>,
    others: &mut [&mut OtherAnswers],
) -> Examination {
    let neighbours = evidence::neighbours(request);
    let answers = ask(&neighbours);
    let credit = evidence::credit(profile, request, allowed, &neighbours, &answers, others);
    let behaviour = credit
        .outcome
        .is_err()
        .then(|| behaviour(request, allowed, &neighbours, &answers, &credit.base));
    Examination {
        credit,
        neighbours,
        answers,
        behaviour,
    }
}
