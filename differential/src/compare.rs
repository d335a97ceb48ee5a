//! The oracle's four profiles against the adapters, on one input.
//!
//! A finding is a disagreement worth a bucket: an adapter whose answer is not the verdict of the
//! profile it claims (when the oracle's verdict is definite), a crash or error of an adapter, two
//! adapters claiming the same profile that disagree where the oracle says `either`, or a subprocess
//! adapter whose second, fresh process (another hash seed) answers otherwise than its first.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::Instant;

use robotstxt_adapters::adapter::Body;
use robotstxt_adapters::inprocess::InProcess;
use robotstxt_adapters::registry::Options;
use robotstxt_adapters::{Adapter, Answer, Identity, Query, Unavailable};
use robotstxt_oracle::{verdict, verdicts_all, Needed, ProfileId, Verdict};

use crate::input::Input;

/// The environment of each subprocess adapter's first process: fixed hash seeds (Python's
/// `PYTHONHASHSEED`, Perl's `PERL_HASH_SEED`), so that a seeded run replays exactly.
pub const FIRST_PROCESS_ENV: [(&str, &str); 2] = [("PYTHONHASHSEED", "1"), ("PERL_HASH_SEED", "1")];
/// The environment of its second process, asked again about sampled inputs: other hash seeds, so
/// that an answer depending on hash order (a set or dict iterated) shows as `nondeterministic`.
pub const SECOND_PROCESS_ENV: [(&str, &str); 2] =
    [("PYTHONHASHSEED", "2"), ("PERL_HASH_SEED", "2")];

/// The parsers an input is put to: in-process adapters called in this process, and adapter
/// processes speaking `adapters/PROTOCOL.md`, asked a whole batch per round trip.
pub struct Engines {
    engines: Vec<Engine>,
}

/// One parser.
enum Engine {
    /// Called in this process.
    Local(InProcess),
    /// A process speaking the protocol, and maybe a second process of the same program started
    /// with [`SECOND_PROCESS_ENV`].
    Process {
        identity: Identity,
        first: Mutex<Box<dyn Adapter>>,
        second: Option<Mutex<Box<dyn Adapter>>>,
    },
}

/// The in-process adapter ids (the fuzzer's default set).
pub fn in_process_ids() -> Vec<&'static str> {
    robotstxt_adapters::inprocess::BUILTINS
        .iter()
        .map(|b| b.id)
        .collect()
}

/// The one check of `input`, as an adapter is asked it.
fn query(input: &Input) -> [Query; 1] {
    [Query::new(input.agent.clone(), input.url.clone())]
}

/// Asks an adapter process about every input of `inputs` in one round trip.
fn ask_process(adapter: &Mutex<Box<dyn Adapter>>, inputs: &[&Input]) -> Vec<Answer> {
    let queries: Vec<[Query; 1]> = inputs.iter().map(|i| query(i)).collect();
    let items: Vec<(&[u8], &[Query])> = inputs
        .iter()
        .zip(&queries)
        .map(|(i, q)| (&i.body[..], &q[..]))
        .collect();
    let mut adapter = adapter.lock().unwrap_or_else(|e| e.into_inner());
    adapter
        .answer_many(&items)
        .into_iter()
        .map(|mut answers| answers.remove(0))
        .collect()
}

impl Engines {
    /// Opens `ids` in process; the unavailable ones are returned with their reasons.
    pub fn new(ids: &[&str]) -> (Engines, Vec<Unavailable>) {
        let mut engines = Vec::new();
        let mut unavailable = Vec::new();
        for id in ids {
            match robotstxt_adapters::registry::open_in_process(id) {
                Ok(adapter) => engines.push(Engine::Local(adapter)),
                Err(why) => unavailable.push(why),
            }
        }
        (Engines { engines }, unavailable)
    }

    /// Opens `ids`: the built-in in-process parsers in this process, the others (subprocess peers,
    /// users' `name = command` adapters, and the fault adapters, in a worker process when `options`
    /// name one, so that an abort is a finding rather than the end of the run) as processes with
    /// [`FIRST_PROCESS_ENV`], each with a second process ([`SECOND_PROCESS_ENV`]) when `second`.
    /// The processes are started in parallel; the unavailable ones are returned with their reasons.
    pub fn open(ids: &[&str], options: &Options, second: bool) -> (Engines, Vec<Unavailable>) {
        let with_env = |pairs: [(&str, &str); 2]| Options {
            env: options
                .env
                .iter()
                .cloned()
                .chain(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
                .collect(),
            ..options.clone()
        };
        let (first_options, second_options) =
            (with_env(FIRST_PROCESS_ENV), with_env(SECOND_PROCESS_ENV));
        let opened: Vec<Result<Engine, Unavailable>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ids
                .iter()
                .map(|&id| {
                    let (first_options, second_options) = (&first_options, &second_options);
                    scope.spawn(move || -> Result<Engine, Unavailable> {
                        let builtin = robotstxt_adapters::inprocess::BUILTINS
                            .iter()
                            .any(|b| b.id == id);
                        if builtin {
                            return robotstxt_adapters::registry::open_in_process(id)
                                .map(Engine::Local);
                        }
                        let first = robotstxt_adapters::open(id, first_options)?;
                        let second = if second {
                            Some(Mutex::new(robotstxt_adapters::open(id, second_options)?))
                        } else {
                            None
                        };
                        Ok(Engine::Process {
                            identity: first.identity().clone(),
                            first: Mutex::new(first),
                            second,
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("opening an adapter does not panic"))
                .collect()
        });
        let mut engines = Vec::new();
        let mut unavailable = Vec::new();
        for result in opened {
            match result {
                Ok(engine) => engines.push(engine),
                Err(why) => unavailable.push(why),
            }
        }
        (Engines { engines }, unavailable)
    }

    /// Sets every adapter process's deadline ([`Adapter::set_deadline`]): past it, no answer is
    /// waited for.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        for engine in &self.engines {
            if let Engine::Process { first, second, .. } = engine {
                for adapter in std::iter::once(first).chain(second) {
                    adapter
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .set_deadline(deadline);
                }
            }
        }
    }

    /// The adapters' identities, in order.
    pub fn identities(&self) -> Vec<&Identity> {
        self.engines
            .iter()
            .map(|e| match e {
                Engine::Local(adapter) => adapter.identity(),
                Engine::Process { identity, .. } => identity,
            })
            .collect()
    }

    /// How many adapters there are.
    pub fn len(&self) -> usize {
        self.engines.len()
    }

    /// Whether the adapter at `index` has a second process (asked by [`Engines::second_batch`]).
    pub fn has_second(&self, index: usize) -> bool {
        matches!(
            self.engines[index],
            Engine::Process {
                second: Some(_),
                ..
            }
        )
    }

    /// Each adapter's answer to `input`, in order.
    pub fn answer_each(&self, input: &Input) -> Vec<Answer> {
        (0..self.engines.len())
            .map(|index| self.answer_at(index, input))
            .collect()
    }

    /// [`Engines::answer_each`] for every input of a batch (the answers in input order), adding each
    /// adapter's time over the batch, in nanoseconds, to its slot in `times`. Each adapter answers
    /// the whole batch before the next one starts, so its code and tables stay in the CPU's caches
    /// from one input to the next ([`crate::campaign::BATCH`]); an adapter process is sent the whole
    /// batch before its first answer is read (one round trip).
    pub fn answer_batch(&self, inputs: &[Input], times: &mut [u64]) -> Vec<Vec<Answer>> {
        // One body per input for all the adapters: its text is converted once.
        let bodies: Vec<Body<'_>> = inputs.iter().map(|i| Body::new(&i.body)).collect();
        let all: Vec<&Input> = inputs.iter().collect();
        let mut answers: Vec<Vec<Answer>> = inputs
            .iter()
            .map(|_| Vec::with_capacity(self.engines.len()))
            .collect();
        for (slot, engine) in self.engines.iter().enumerate() {
            let started = Instant::now();
            match engine {
                Engine::Local(adapter) => {
                    for ((input, body), answers) in inputs.iter().zip(&bodies).zip(&mut answers) {
                        answers.push(adapter.answer_one(body, &input.agent, &input.url));
                    }
                }
                Engine::Process { first, .. } => {
                    for (answer, answers) in ask_process(first, &all).into_iter().zip(&mut answers)
                    {
                        answers.push(answer);
                    }
                }
            }
            if let Some(time) = times.get_mut(slot) {
                *time += started.elapsed().as_nanos() as u64;
            }
        }
        answers
    }

    /// The second processes' answers to the inputs of a batch marked in `sampled` (in input order,
    /// one entry per adapter: `None` where it has no second process or the input is not sampled),
    /// each process sent all its inputs in one round trip; its time is added to its slot in `times`.
    pub fn second_batch(
        &self,
        inputs: &[Input],
        sampled: &[bool],
        times: &mut [u64],
    ) -> Vec<Vec<Option<Answer>>> {
        let asked: Vec<&Input> = inputs
            .iter()
            .zip(sampled)
            .filter(|(_, s)| **s)
            .map(|(i, _)| i)
            .collect();
        let mut out: Vec<Vec<Option<Answer>>> = inputs
            .iter()
            .map(|_| vec![None; self.engines.len()])
            .collect();
        for (slot, engine) in self.engines.iter().enumerate() {
            let Engine::Process {
                second: Some(second),
                ..
            } = engine
            else {
                continue;
            };
            if asked.is_empty() {
                continue;
            }
            let started = Instant::now();
            let mut answers = ask_process(second, &asked).into_iter();
            for (row, _) in out.iter_mut().zip(sampled).filter(|(_, s)| **s) {
                row[slot] = answers.next();
            }
            if let Some(time) = times.get_mut(slot) {
                *time += started.elapsed().as_nanos() as u64;
            }
        }
        out
    }

    /// The answer of the adapter at `index` alone.
    pub fn answer_at(&self, index: usize, input: &Input) -> Answer {
        match &self.engines[index] {
            Engine::Local(adapter) => {
                adapter.answer_one(&Body::new(&input.body), &input.agent, &input.url)
            }
            Engine::Process { first, .. } => ask_process(first, &[input]).remove(0),
        }
    }

    /// Whether the adapter at `index` is a process (asked a batch per round trip).
    pub fn is_process(&self, index: usize) -> bool {
        matches!(self.engines[index], Engine::Process { .. })
    }

    /// The answers of the adapter at `index` alone to `inputs`, in order (a process is asked them
    /// all in one round trip).
    pub fn answers_at(&self, index: usize, inputs: &[&Input]) -> Vec<Answer> {
        match &self.engines[index] {
            Engine::Local(adapter) => inputs
                .iter()
                .map(|i| adapter.answer_one(&Body::new(&i.body), &i.agent, &i.url))
                .collect(),
            Engine::Process { first, .. } => ask_process(first, inputs),
        }
    }

    /// The answers of the second process of the adapter at `index` to `inputs`, in order, if it
    /// has one.
    pub fn seconds_at(&self, index: usize, inputs: &[&Input]) -> Option<Vec<Answer>> {
        match &self.engines[index] {
            Engine::Process {
                second: Some(second),
                ..
            } => Some(ask_process(second, inputs)),
            _ => None,
        }
    }

    /// The answer of the second process of the adapter at `index`, if it has one.
    pub fn second_at(&self, index: usize, input: &Input) -> Option<Answer> {
        match &self.engines[index] {
            Engine::Process {
                second: Some(second),
                ..
            } => Some(ask_process(second, &[input]).remove(0)),
            _ => None,
        }
    }

    /// Whether there are none (the oracle alone).
    pub fn is_empty(&self) -> bool {
        self.engines.is_empty()
    }
}

/// What every side said about one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The oracle's verdict per profile, in [`ProfileId::ALL`] order: `None` for a profile it did
    /// not work out. The fuzzer reads an input under the profiles its adapters claim, and under one
    /// only as far as their answers need ([`robotstxt_oracle::Known`]): `None` there means every
    /// adapter claiming it gave one and the same answer, which the profile permits, so none of
    /// them makes a finding.
    pub oracle: [Option<Verdict>; 4],
    /// Each adapter's answer, in [`Engines`] order.
    pub answers: Vec<Answer>,
    /// Each adapter's second process's answer, where it was asked (else empty or `None`).
    pub seconds: Vec<Option<Answer>>,
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
    /// The answer kind of the adapter's second, fresh process, where it differs from `got`: a
    /// `nondeterministic` finding.
    pub second_got: Option<&'static str>,
}

/// The finding of one adapter (`identity`, at `index` in [`Engines`]) whose answer is `answer`
/// where the oracle says `expected` under its profile: `None` when it does not diverge.
pub fn finding_of(
    identity: &Identity,
    index: usize,
    expected: Verdict,
    answer: &Answer,
) -> Option<Finding> {
    // A check not asked (the adapter was declared hung, or the run's deadline passed) says
    // nothing about the parser.
    if robotstxt_adapters::subprocess::is_not_asked(answer) {
        return None;
    }
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
        second_got: None,
    })
}

/// The `nondeterministic` finding of the adapter (`identity`, at `index`) whose first process
/// answered `first` and whose second process answered `second` (`expected` is the oracle's verdict
/// under its profile): `None` when the two give the same kind of answer.
pub fn nondeterministic_of(
    identity: &Identity,
    index: usize,
    expected: Verdict,
    first: &Answer,
    second: &Answer,
) -> Option<Finding> {
    let asked = |a: &Answer| !robotstxt_adapters::subprocess::is_not_asked(a);
    (asked(first) && asked(second) && first.kind() != second.kind()).then(|| Finding {
        adapter: identity.id.clone(),
        index,
        other: None,
        profile: identity.profile,
        expected,
        got: first.kind(),
        other_got: None,
        second_got: Some(second.kind()),
    })
}

/// The oracle's verdict under `profile` in an observation, when it was worked out.
pub fn verdict_of(observation: &Observation, profile: ProfileId) -> Option<Verdict> {
    observation.oracle[profile.index()]
}

/// What [`findings`] needs of the oracle's verdict under `profile`, given each adapter's answer
/// (`answers`) and its second process's (`seconds`, where asked): whether the verdict permits the
/// answers the adapters claiming the profile gave, or the whole verdict when one of them gave no
/// such answer or was asked twice (its finding states the verdict), or when none claims it.
pub fn needed(
    engines: &Engines,
    answers: &[Answer],
    seconds: &[Option<Answer>],
    profile: ProfileId,
) -> Needed {
    let (mut allowed, mut disallowed, mut claimed) = (false, false, false);
    for (index, (identity, answer)) in engines.identities().iter().zip(answers).enumerate() {
        if identity.profile != profile {
            continue;
        }
        claimed = true;
        match answer.verdict() {
            Some(Verdict::Allowed) => allowed = true,
            Some(Verdict::Disallowed) => disallowed = true,
            _ => return Needed::Verdict,
        }
        if matches!(seconds.get(index), Some(Some(_))) {
            return Needed::Verdict;
        }
    }
    match claimed {
        false => Needed::Verdict,
        true => Needed::Permits {
            allowed,
            disallowed,
        },
    }
}

/// The findings in an observation.
pub fn findings(engines: &Engines, observation: &Observation) -> Vec<Finding> {
    let identities = engines.identities();
    let mut out = Vec::new();
    for (index, (identity, answer)) in identities.iter().zip(&observation.answers).enumerate() {
        // Not worked out: every adapter of the profile gave an answer it permits (see
        // [`Observation::oracle`]).
        let Some(expected) = verdict_of(observation, identity.profile) else {
            continue;
        };
        out.extend(finding_of(identity, index, expected, answer));
        if let Some(Some(second)) = observation.seconds.get(index) {
            out.extend(nondeterministic_of(
                identity, index, expected, answer, second,
            ));
        }
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
            let open = verdict_of(observation, a.profile) == Some(Verdict::Either);
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
                    second_got: None,
                });
            }
        }
    }
    out
}
