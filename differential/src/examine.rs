//! Examining a fuzz finding's divergence: whether its candidate cause is a cause.
//!
//! A finding's signature names a **candidate**: the first smallest set of knob alternatives and
//! deviations under which the oracle gives the parser's answer on that one input
//! ([`robotstxt_oracle::cause`]). One verdict is one bit, so that is a guess. Examining the
//! (minimised) input asks the adapter about its neighbours and weighs every candidate against
//! those answers and the adapter's other answers in the run ([`robotstxt_oracle::examine`]): a
//! cause is **credited** only with that evidence, else the divergence is **unexplained** and put
//! in the group of what its input and neighbours show. The examined signature names the credited
//! cause (`K4 precedence`), or the group (`unexplained <key>`): the bucket.

use robotstxt_adapters::Answer;
use robotstxt_oracle::evidence::OtherAnswers;
use robotstxt_oracle::examine::Examination;
use robotstxt_oracle::ProfileId;

use crate::compare::Engines;
use crate::input::Input;
use crate::signature::Signature;

/// Examines the divergence of the adapter at `index` of `engines` (claiming `profile`) on
/// `input`, where it answered `answer`: the neighbours are asked of that adapter alone (a process
/// in one round trip); `others` holds its other answers in this run. Returns the bucket's
/// signature and the examination.
pub fn examine(
    engines: &Engines,
    index: usize,
    profile: ProfileId,
    input: &Input,
    answer: &Answer,
    others: &mut OtherAnswers,
) -> (Signature, Examination) {
    let allowed = verdict_of(answer) == Some(true);
    let mut ask = |neighbours: &[robotstxt_oracle::evidence::Neighbour]| {
        let asked: Vec<Input> = neighbours
            .iter()
            .map(|n| Input {
                body: n.body.clone(),
                agent: n.agent.clone(),
                url: n.url.clone(),
            })
            .collect();
        engines
            .answers_at(index, &asked.iter().collect::<Vec<_>>())
            .iter()
            .map(verdict_of)
            .collect()
    };
    let examination = robotstxt_oracle::examine::examine(
        profile,
        &input.request(),
        allowed,
        &mut ask,
        &mut [others],
    );
    let signature = Signature {
        kind: "adapter-vs-profile",
        adapter: engines.identities()[index].id.clone(),
        other: None,
        cause: examination.label(),
    };
    (signature, examination)
}

/// An answer as a verdict: `Some(true)` allowed, `Some(false)` disallowed, `None` anything else.
pub fn verdict_of(answer: &Answer) -> Option<bool> {
    match answer.verdict()? {
        robotstxt_oracle::Verdict::Allowed => Some(true),
        robotstxt_oracle::Verdict::Disallowed => Some(false),
        _ => None,
    }
}
