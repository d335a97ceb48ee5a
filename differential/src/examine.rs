//! Examining a divergence: whether its candidate cause is a cause.
//!
//! A finding's signature names a **candidate**: the first smallest set of knob alternatives and
//! deviations under which the oracle gives the parser's answer on that one input
//! ([`robotstxt_oracle::cause`]). One verdict is one bit, so that is a guess. Examining a
//! (minimised) input asks the parser about its neighbours ([`robotstxt_oracle::evidence`]) and
//! weighs every candidate against those answers and the parser's other answers in the run: a cause
//! is **credited** only with that evidence, else the divergence is **unexplained** and put in the
//! group of what its input and neighbours show ([`robotstxt_oracle::behaviour`]). The examined
//! signature names the credited cause (`K4 precedence`), or `unexplained <key>`.

use robotstxt_adapters::Answer;
use robotstxt_oracle::behaviour::{behaviour, Behaviour};
use robotstxt_oracle::evidence::{self, Credit, Neighbour, OtherAnswers};
use robotstxt_oracle::ProfileId;

use crate::compare::Engines;
use crate::input::Input;
use crate::signature::Signature;

/// The prefix of an examined signature's cause that no knob or deviation explains
/// (`unexplained 1f0c...`): the behaviour group's key follows it.
pub const UNEXPLAINED_PREFIX: &str = "unexplained ";

/// What examining one divergence found.
#[derive(Clone, Debug)]
pub struct Examined {
    /// The examined signature: the adapter and the credited cause, or `unexplained <key>`.
    pub signature: Signature,
    /// The weighing of the candidates.
    pub credit: Credit,
    /// The neighbours asked about.
    pub neighbours: Vec<Neighbour>,
    /// The parser's answers to them (`Some(true)`: allowed; `None`: not a verdict).
    pub answers: Vec<Option<bool>>,
    /// For an unexplained divergence, its behaviour group.
    pub behaviour: Option<Behaviour>,
}

impl Examined {
    /// The examination in words: what the credit rests on, or why nothing is credited and which
    /// group it is in.
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

/// Examines the divergence of the adapter at `index` of `engines` (claiming `profile`) on
/// `input`, where it answered `answer`: its neighbours are asked of that adapter alone (a process
/// in one round trip), and `others` holds its other answers in this run.
pub fn examine(
    engines: &Engines,
    index: usize,
    profile: ProfileId,
    input: &Input,
    answer: &Answer,
    others: &mut OtherAnswers,
) -> Examined {
    let adapter = engines.identities()[index].id.clone();
    let request = input.request();
    let allowed = answer.verdict() == Some(robotstxt_oracle::Verdict::Allowed);
    let neighbours = evidence::neighbours(&request);
    let asked: Vec<Input> = neighbours
        .iter()
        .map(|n| Input {
            body: n.body.clone(),
            agent: n.agent.clone(),
            url: n.url.clone(),
        })
        .collect();
    let answers: Vec<Option<bool>> = engines
        .answers_at(index, &asked.iter().collect::<Vec<_>>())
        .iter()
        .map(verdict_of)
        .collect();
    let credit = evidence::credit(profile, &request, allowed, &neighbours, &answers, others);
    let behaviour = credit
        .outcome
        .is_err()
        .then(|| behaviour(&request, allowed, &neighbours, &answers, &credit.base));
    let cause = match &behaviour {
        None => credit.label(),
        Some(group) => format!("{UNEXPLAINED_PREFIX}{}", group.key),
    };
    Examined {
        signature: Signature {
            kind: "adapter-vs-profile",
            adapter,
            other: None,
            cause,
        },
        credit,
        neighbours,
        answers,
        behaviour,
    }
}

/// An answer as a verdict: `Some(true)` allowed, `Some(false)` disallowed, `None` anything else.
pub fn verdict_of(answer: &Answer) -> Option<bool> {
    match answer.verdict()? {
        robotstxt_oracle::Verdict::Allowed => Some(true),
        robotstxt_oracle::Verdict::Disallowed => Some(false),
        _ => None,
    }
}
