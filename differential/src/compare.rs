//! The oracle's four profiles against in-process adapters, on one input.
//!
//! A finding is a disagreement worth a bucket: an adapter whose answer is not the verdict of the
//! profile it claims (when the oracle's verdict is definite), a crash or error of an adapter, or two
//! adapters claiming the same profile that disagree where the oracle says `either`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use robotstxt_adapters::adapter::Body;
use robotstxt_adapters::inprocess::InProcess;
use robotstxt_adapters::{Adapter, Answer, Identity, Unavailable};
use robotstxt_oracle::{verdict, verdicts_all, ProfileId, Verdict};

use crate::input::Input;

/// The parsers an input is put to: in-process adapters, called in this process.
pub struct Engines {
    adapters: Vec<InProcess>,
}

/// The in-process adapter ids (the fuzzer's default set).
pub fn in_process_ids() -> Vec<&'static str> {
    robotstxt_adapters::inprocess::BUILTINS
        .iter()
        .map(|b| b.id)
        .collect()
}

impl Engines {
    /// Opens `ids` in process; the unavailable ones are returned with their reasons.
    pub fn new(ids: &[&str]) -> (Engines, Vec<Unavailable>) {
        let mut adapters = Vec::new();
        let mut unavailable = Vec::new();
        for id in ids {
            match robotstxt_adapters::registry::open_in_process(id) {
                Ok(adapter) => adapters.push(adapter),
                Err(why) => unavailable.push(why),
            }
        }
        (Engines { adapters }, unavailable)
    }

    /// The adapters' identities, in order.
    pub fn identities(&self) -> Vec<&Identity> {
        self.adapters.iter().map(|a| a.identity()).collect()
    }

    /// How many adapters there are.
    pub fn len(&self) -> usize {
        self.adapters.len()
    }

    /// Each adapter's answer to `input`, in order.
    pub fn answer_each(&self, input: &Input) -> Vec<Answer> {
        // One body for all the adapters: its text is converted once for those that take `&str`.
        let body = Body::new(&input.body);
        self.adapters
            .iter()
            .map(|a| a.answer_one(&body, &input.agent, &input.url))
            .collect()
    }

    /// [`Engines::answer_each`] for every input of a batch (the answers in input order), adding each
    /// adapter's time over the batch, in nanoseconds, to its slot in `times`. Each adapter answers
    /// the whole batch before the next one starts, so its code and tables stay in the CPU's caches
    /// from one input to the next (a batch of 256 ran about 12% faster than input by input).
    pub fn answer_batch(&self, inputs: &[Input], times: &mut [u64]) -> Vec<Vec<Answer>> {
        // One body per input for all the adapters: its text is converted once.
        let bodies: Vec<Body<'_>> = inputs.iter().map(|i| Body::new(&i.body)).collect();
        let mut answers: Vec<Vec<Answer>> = inputs
            .iter()
            .map(|_| Vec::with_capacity(self.adapters.len()))
            .collect();
        for (slot, adapter) in self.adapters.iter().enumerate() {
            let started = std::time::Instant::now();
            for ((input, body), answers) in inputs.iter().zip(&bodies).zip(&mut answers) {
                answers.push(adapter.answer_one(body, &input.agent, &input.url));
            }
            if let Some(time) = times.get_mut(slot) {
                *time += started.elapsed().as_nanos() as u64;
            }
        }
        answers
    }

    /// The answer of the adapter at `index` alone.
    pub fn answer_at(&self, index: usize, input: &Input) -> Answer {
        self.adapters[index].answer_one(&Body::new(&input.body), &input.agent, &input.url)
    }

    /// Whether there are none (the oracle alone).
    pub fn is_empty(&self) -> bool {
        self.adapters.is_empty()
    }
}

/// What every side said about one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The oracle's verdict per profile, in [`ProfileId::ALL`] order.
    pub oracle: [Verdict; 4],
    /// Each adapter's answer, in [`Engines`] order.
    pub answers: Vec<Answer>,
}

/// The oracle panicked: always a bug of ours.
#[derive(Clone, Debug)]
pub struct OraclePanic {
    /// The profile it was evaluating.
    pub profile: ProfileId,
    /// The panic message.
    pub message: String,
}

/// The oracle's verdicts for `input`, or its panic.
pub fn oracle_verdicts(input: &Input) -> Result<[Verdict; 4], OraclePanic> {
    let request = input.request();
    // One pass reads the input for all four profiles (`verdicts_all`); a panic is attributed to
    // the first profile the per-profile retry finds panicking.
    match catch_unwind(AssertUnwindSafe(|| verdicts_all(&request))) {
        Ok(verdicts) => Ok(verdicts),
        Err(payload) => {
            let message = robotstxt_adapters::inprocess::panic_message(&*payload);
            let profile = ProfileId::ALL
                .into_iter()
                .find(|&p| catch_unwind(AssertUnwindSafe(|| verdict(p, &request))).is_err())
                .unwrap_or(ProfileId::Rfc9309);
            Err(OraclePanic { profile, message })
        }
    }
}

/// One disagreement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// The adapter.
    pub adapter: String,
    /// Its position in [`Engines`] and in [`Observation::answers`].
    pub index: usize,
    /// The other adapter, for a disagreement between two adapters claiming the same profile.
    pub other: Option<String>,
    /// The profile the adapter claims.
    pub profile: ProfileId,
    /// The oracle's verdict under that profile.
    pub expected: Verdict,
    /// The adapter's answer kind (`allowed`, `crash`, ...).
    pub got: &'static str,
    /// The other adapter's answer kind.
    pub other_got: Option<&'static str>,
}

/// The finding of one adapter (`identity`, at `index` in [`Engines`]) whose answer is `answer`
/// where the oracle says `expected` under its profile: `None` when it does not diverge.
pub fn finding_of(
    identity: &Identity,
    index: usize,
    expected: Verdict,
    answer: &Answer,
) -> Option<Finding> {
    let diverges = match answer.verdict() {
        // `not-governed` cannot arise (the fuzzer gives no robots.txt URL) and could not be
        // asked of a parser anyway.
        Some(verdict) => {
            !matches!(expected, Verdict::Either | Verdict::NotGoverned) && verdict != expected
        }
        None => true,
    };
    diverges.then(|| Finding {
        adapter: identity.id.clone(),
        index,
        other: None,
        profile: identity.profile,
        expected,
        got: answer.kind(),
        other_got: None,
    })
}

/// The oracle's verdict under `profile` in an observation.
pub fn verdict_of(observation: &Observation, profile: ProfileId) -> Verdict {
    observation.oracle[profile.index()]
}

/// The findings in an observation.
pub fn findings(engines: &Engines, observation: &Observation) -> Vec<Finding> {
    let identities = engines.identities();
    let mut out = Vec::new();
    for (index, (identity, answer)) in identities.iter().zip(&observation.answers).enumerate() {
        let expected = verdict_of(observation, identity.profile);
        out.extend(finding_of(identity, index, expected, answer));
    }
    // Where the oracle leaves the verdict open, adapters claiming the same profile should still
    // agree with each other; the pair is reported once, in id order.
    for (i, (a, answer_a)) in identities.iter().zip(&observation.answers).enumerate() {
        for (j, (b, answer_b)) in identities
            .iter()
            .zip(&observation.answers)
            .enumerate()
            .skip(i + 1)
        {
            let open = verdict_of(observation, a.profile) == Verdict::Either;
            if a.profile == b.profile
                && open
                && answer_a.verdict().is_some()
                && answer_b.verdict().is_some()
                && answer_a != answer_b
            {
                let (first, index, second, first_got, second_got) = if a.id <= b.id {
                    (a, i, b, answer_a, answer_b)
                } else {
                    (b, j, a, answer_b, answer_a)
                };
                out.push(Finding {
                    adapter: first.id.clone(),
                    index,
                    other: Some(second.id.clone()),
                    profile: a.profile,
                    expected: Verdict::Either,
                    got: first_got.kind(),
                    other_got: Some(second_got.kind()),
                });
            }
        }
    }
    out
}
