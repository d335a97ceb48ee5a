//! A fuzzing campaign on stable Rust: a seeded stream of generated inputs, run on `jobs` threads in
//! batches ([`BATCH`]), findings bucketed by signature in input order, each new bucket minimised and
//! written at once, so an interrupted run keeps everything it found (only the batch in progress goes
//! unexamined). This is what `robotstxt-conformance fuzz` runs.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use arbitrary::Unstructured;
use base64::Engine as _;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use robotstxt_adapters::Answer;
use robotstxt_oracle::{Known, Needed, ProfileId, Verdict};
use serde::Serialize;

use crate::compare::{self, Engines, Observation};
use crate::hash::name_hash;
use crate::input::Input;
use crate::seeds::Seeds;
use crate::signature::{sightings, Sighting, Signature};
use crate::violation::FAST_EQUALS_LITERAL;
use crate::{case, generate, invariants, minimize, seeds};

/// What a campaign runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this long, if set (with neither this nor `max_execs`, the run never ends).
    pub duration: Option<Duration>,
    /// Stop after this many executions (for exact reproduction), if set.
    pub max_execs: Option<u64>,
    /// The seed; job `j` uses the stream of `seed + j`.
    pub seed: u64,
    /// The adapters to compare (none: the oracle alone): in-process ones are called in process,
    /// the others opened as processes with `adapter_options`.
    pub adapters: Vec<String>,
    /// How adapter processes are opened (peers directory, users' adapters, per-check timeout).
    pub adapter_options: robotstxt_adapters::registry::Options,
    /// Ask a second, fresh process of each adapter process about one input in this many (0:
    /// never); a different answer is a `nondeterministic` finding.
    pub recheck_every: u64,
    /// Whether two adapters claiming one profile that answer differently where the oracle leaves
    /// the verdict open are a finding (`adapters-disagree`); off only where many adapters claim one
    /// profile and their pairs are not the question (the mutant zoo's test).
    pub pairs: bool,
    /// Real robots.txt files to mutate (`--seeds`); with them, half the inputs are mutated seeds.
    pub seeds: Option<std::sync::Arc<Seeds>>,
    /// Worker threads.
    pub jobs: usize,
    /// Inputs each job generates and then runs stage by stage ([`BATCH`] by default; 1 runs input by
    /// input). The inputs, findings and buckets do not depend on it, only the speed.
    pub batch: usize,
    /// Where buckets are written.
    pub out: PathBuf,
}

/// Where the time went, in nanoseconds summed over all jobs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TimeSplit {
    /// Generating inputs.
    pub generate: u64,
    /// The oracle (the profiles the adapters claim, and the checked relation's) and the invariants.
    pub oracle: u64,
    /// Each adapter, by id (for an adapter process: writing the batch and reading its answers).
    pub adapters: BTreeMap<String, u64>,
    /// Each adapter's second process (the `nondeterministic` check), by id.
    pub second_processes: BTreeMap<String, u64>,
    /// Inputs put to the second processes (each to every one of them).
    pub second_inputs: u64,
    /// Signatures (each finding's cause), minimisation and writing.
    pub findings: u64,
    /// The part of `findings` spent minimising and writing new buckets.
    pub minimise: u64,
    /// The part of `minimise` the adapters spent answering the minimiser's candidates: parsers'
    /// time, not the fuzzer's ([`TimeSplit::own_side`]).
    pub minimise_answers: u64,
}

impl TimeSplit {
    /// The fuzzer's own side: generation, the oracle with its invariants, and the findings (causes,
    /// minimisation, writing), less the adapters' answers to minimisation candidates.
    pub fn own_side(&self) -> u64 {
        (self.generate + self.oracle + self.findings).saturating_sub(self.minimise_answers)
    }

    /// The parsers' time: each adapter's answers to the batches and to minimisation candidates
    /// (the second processes are not counted).
    pub fn parsers(&self) -> u64 {
        self.adapters.values().sum::<u64>() + self.minimise_answers
    }
}

/// One bucket as the summary lists it: one (adapter, cause), the cause credited by examination
/// ([`crate::examine`]: a knob or deviation, or `unexplained <behaviour group>`), or, for a crash,
/// error, timeout, nondeterministic answer or two adapters' disagreement, as the finding names it.
#[derive(Clone, Debug, Serialize)]
pub struct Bucket {
    /// Its signature.
    pub signature: Signature,
    /// Its first finding's profile, oracle verdict and answer (later findings may differ in them).
    pub first: Sighting,
    /// Its directory, relative to the output directory.
    pub dir: String,
    /// How many executions it holds: those examined into it, and those whose candidate's latest
    /// examination came here.
    pub hits: u64,
    /// How many findings were minimised and examined into it (0 for the kinds not examined).
    pub examined: u64,
    /// What its cause rests on, in words (its first examination's evidence); empty for the kinds
    /// not examined.
    pub evidence: String,
}

/// How many times the findings of one candidate cause are examined at most, when none of its
/// examinations credits a cause: at its 1st, 2nd, 4th, 8th, ... finding, so that different
/// behaviours behind one candidate (or behind no candidate at all) get groups of their own.
pub const EXAMINED_AT_MOST: u64 = 8;

/// How many of each job's first inputs, with each adapter's answers, are kept as the adapter's
/// other answers: the evidence a candidate must not contradict ([`robotstxt_oracle::evidence`]).
pub const OTHER_ANSWERS_KEPT: usize = 2048;

/// The findings of one candidate cause (one signature as [`sightings`] gives it) and their
/// examinations so far.
#[derive(Clone, Debug, Default)]
struct Candidate {
    /// Findings.
    hits: u64,
    /// Examinations made (or under way).
    examinations: u64,
    /// The bucket its latest examination went to.
    latest: Option<Signature>,
    /// Whether an examination credited a cause.
    credited: bool,
}

/// The result of a campaign.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Executions.
    pub execs: u64,
    /// Seconds.
    pub seconds: f64,
    /// Executions per second.
    pub execs_per_sec: f64,
    /// Distinct buckets.
    pub buckets: usize,
    /// Where they were written.
    pub findings_dir: String,
    /// The seed.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Adapters compared.
    pub adapters: Vec<String>,
    /// Buckets per adapter.
    pub buckets_per_adapter: BTreeMap<String, usize>,
    /// Each adapter's executions per second of its own time (executions over the time it took to
    /// answer them, summed over jobs: one process's or one thread's throughput).
    pub adapter_execs_per_sec: BTreeMap<String, f64>,
    /// Seed files loaded (`--seeds`), 0 without.
    pub seed_files: usize,
    /// Findings (hits) in all buckets.
    pub hits: u64,
    /// Hits in buckets no knob or deviation explains.
    pub unexplained_hits: u64,
    /// Findings counted in no bucket: their candidate's first examination was still under way in
    /// another job.
    pub findings_not_counted: u64,
    /// Where the time went.
    pub time: TimeSplit,
    /// Every bucket: the unexplained ones first (the work to do), then by adapter and hits.
    pub bucket_list: Vec<Bucket>,
    /// Oracle bugs found (panics, broken invariants): any of them fails the command.
    pub oracle_bugs: Vec<OracleBug>,
    /// Per adapter: inputs it answered `timeout` (each a finding, in a `timeout` bucket; the
    /// process was restarted and the next input asked).
    pub timeouts: BTreeMap<String, u64>,
    /// Per adapter: examined inputs whose answer was not obtained (the adapter was declared hung
    /// or broken, or the deadline passed while the batch was asked); no finding is made of them.
    pub not_asked: BTreeMap<String, u64>,
    /// Adapters declared hung or broken, with why and from which input on.
    pub stopped: BTreeMap<String, String>,
    /// Inputs generated but not examined: the deadline passed before any adapter answered them
    /// (not counted in `execs`).
    pub unexamined: u64,
}

/// An oracle bug: a panic or a broken invariant. The campaign records each kind once (by relation
/// and profile, or by panic message) and goes on; the command fails at the end if there is any.
#[derive(Clone, Debug, Serialize)]
pub struct OracleBug {
    /// What kind of bug (the relation and profile, or the panic): one file per kind.
    pub kind: String,
    /// What went wrong.
    pub message: String,
    /// The file the input was written to.
    pub path: PathBuf,
    /// How many inputs showed it.
    pub hits: u64,
}

/// Shared state of the jobs.
struct Shared {
    buckets: Mutex<BTreeMap<Signature, Bucket>>,
    candidates: Mutex<BTreeMap<Signature, Candidate>>,
    not_counted: AtomicU64,
    execs: AtomicU64,
    stop: AtomicBool,
    bugs: Mutex<BTreeMap<String, OracleBug>>,
    time: Mutex<TimeSplit>,
    finished: std::sync::atomic::AtomicUsize,
    unanswered: Mutex<Unanswered>,
}

/// The answers that were not readings of the file, over all jobs ([`Summary`]'s fields of the same
/// names).
#[derive(Default)]
struct Unanswered {
    timeouts: BTreeMap<String, u64>,
    not_asked: BTreeMap<String, u64>,
    stopped: BTreeMap<String, String>,
    unexamined: u64,
}

/// Runs a campaign; `progress` is called about once a second with (execs, buckets, elapsed).
pub fn run(options: &Options, progress: &(dyn Fn(u64, usize, Duration) + Sync)) -> Summary {
    let _ = std::fs::create_dir_all(options.out.join("buckets"));
    let shared = Shared {
        buckets: Mutex::new(BTreeMap::new()),
        candidates: Mutex::new(BTreeMap::new()),
        not_counted: AtomicU64::new(0),
        execs: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        bugs: Mutex::new(BTreeMap::new()),
        time: Mutex::new(TimeSplit::default()),
        finished: std::sync::atomic::AtomicUsize::new(0),
        unanswered: Mutex::new(Unanswered::default()),
    };
    let started = Instant::now();
    let jobs = options.jobs.max(1);
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let shared = &shared;
            scope.spawn(move || {
                // Counted as finished however it ends: a job that panics must not leave the
                // loop below waiting for it. Its panic is told (the fuzzer silences the panic
                // hook for the in-process parsers) and raised again when the scope ends.
                let _finished = Finished(&shared.finished);
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    run_job(options, job as u64, shared, started)
                }));
                if let Err(payload) = ran {
                    eprintln!(
                        "\njob {job} stopped: it panicked: {}",
                        robotstxt_adapters::inprocess::panic_message(&*payload)
                    );
                    std::panic::resume_unwind(payload);
                }
            });
        }
        // Progress every 200 ms; `summary.json` every second (five ticks): it holds every bucket,
        // and writing it takes a core's time away from the jobs.
        let mut tick = 0u64;
        while !shared.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(200));
            tick += 1;
            let elapsed = started.elapsed();
            let execs = shared.execs.load(Ordering::Relaxed);
            let buckets = shared.buckets.lock().map(|b| b.len()).unwrap_or(0);
            progress(execs, buckets, elapsed);
            if tick.is_multiple_of(5) {
                let _ = write_summary(options, &shared, elapsed);
            }
            if options.duration.is_some_and(|d| elapsed >= d)
                || shared.finished.load(Ordering::Relaxed) == jobs
            {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    });
    write_summary(options, &shared, started.elapsed())
}

/// Adds one to a count of finished jobs when dropped, also while a job's panic unwinds.
struct Finished<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// How many inputs a job generates before it runs them: each stage (each adapter, then the oracle,
/// then the findings) goes over the whole batch before the next stage starts, so that each parser's
/// code stays in the CPU's caches from one input to the next (the sizes measured:
/// `docs/performance.md`, "The fuzzer's own side"). Inputs, findings and buckets are the same, in
/// the same order, whatever the batch size; a stopped run stops at the end of a batch.
pub const BATCH: usize = 1024;

/// By default, one input in this many is also put to a second, fresh process of each adapter
/// process (other hash seeds), for the `nondeterministic` finding.
pub const RECHECK_EVERY: u64 = 4;

/// One job: its own random stream and its own adapters, run batch by batch ([`Options::batch`]).
fn run_job(options: &Options, job: u64, shared: &Shared, started: Instant) {
    let ids: Vec<&str> = options.adapters.iter().map(String::as_str).collect();
    let (engines, _) = Engines::open(&ids, &options.adapter_options, options.recheck_every > 0);
    // --seconds is a deadline: adapter processes are not waited for past it (a hanging adapter
    // would otherwise hold a batch for a timeout per input); the batch it cuts keeps the answers
    // it got, and the run ends after it.
    let deadline = options.duration.map(|d| started + d);
    engines.set_deadline(deadline);
    let identities: Vec<String> = engines.identities().iter().map(|i| i.id.clone()).collect();
    // The profiles the findings compare with: those the adapters claim (all four for the oracle
    // alone, whose run is about the oracle itself).
    let mut wanted: Vec<ProfileId> = engines.identities().iter().map(|i| i.profile).collect();
    if wanted.is_empty() {
        wanted = ProfileId::ALL.to_vec();
    }
    wanted.sort_by_key(|p| p.index());
    wanted.dedup();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed.wrapping_add(job));
    let mut buffer = vec![0u8; 4096];
    let mut time = TimeSplit::default();
    let mut adapter_ns = vec![0u64; identities.len()];
    let mut second_ns = vec![0u64; identities.len()];
    // The job's inputs are numbered in stream order; every `recheck_every`-th goes to the second
    // processes too (whatever the batch size).
    let mut numbered = 0u64;
    let mut local_execs = 0u64;
    // With --execs, each job runs exactly its share, so a seed and a count replay a run exactly.
    let jobs = options.jobs.max(1) as u64;
    let share = options
        .max_execs
        .map(|m| m / jobs + u64::from(job < m % jobs));
    let batch = options.batch.max(1);
    let mut inputs: Vec<Input> = Vec::with_capacity(batch);
    // Each adapter's answers to this job's first inputs: what its candidates are weighed against.
    let mut others: Vec<robotstxt_oracle::evidence::OtherAnswers> =
        vec![Default::default(); engines.len()];
    while !shared.stop.load(Ordering::Relaxed) && share.is_none_or(|s| local_execs < s) {
        let size = share.map_or(batch, |s| batch.min((s - local_execs) as usize));
        #[cfg(test)]
        if tests::INJECTED_PANIC.load(Ordering::Relaxed) == tests::IN_A_JOB && job == 1 {
            panic!("injected in a job");
        }
        // Generation: the batch's inputs, in the order the stream gives them.
        let t0 = Instant::now();
        inputs.clear();
        while inputs.len() < size {
            let Some(seeds) = &options.seeds else {
                if let Ok(input) = generate::from_stream(&mut rng, &mut buffer) {
                    inputs.push(input);
                }
                continue;
            };
            let len = 64 + (rng.next_u32() as usize % (buffer.len() - 64));
            rng.fill_bytes(&mut buffer[..len]);
            let mut u = Unstructured::new(&buffer[..len]);
            // Half from real files, half from nothing (a draw taken only when there are seeds, so
            // a run without them keeps its stream).
            if rng.next_u32() % 2 == 0 {
                inputs.push(seeds::mutate(seeds, &mut u));
            } else if let Ok(input) = generate::any(&mut u) {
                inputs.push(input);
            }
        }
        // The adapters, each over the whole batch.
        let t1 = Instant::now();
        let answers = engines.answer_batch(&inputs, &mut adapter_ns);
        let sampled: Vec<bool> = (0..inputs.len() as u64)
            .map(|i| {
                options.recheck_every > 0 && (numbered + i).is_multiple_of(options.recheck_every)
            })
            .collect();
        numbered += inputs.len() as u64;
        let seconds = engines.second_batch(&inputs, &sampled, &mut second_ns);
        // A batch the deadline cut keeps the answers it got, and the run stops after it: an input
        // no adapter was asked about goes no further (counted as unexamined, not as an
        // execution); an answer not obtained (past the deadline, or from an adapter declared hung
        // or broken) is counted for its adapter and makes no finding (`compare::finding_of`).
        let past = robotstxt_adapters::subprocess::is_past_deadline;
        let cut =
            answers.iter().flatten().any(past) || seconds.iter().flatten().flatten().any(past);
        let examined: Vec<bool> = answers
            .iter()
            .map(|row| row.is_empty() || !row.iter().all(past))
            .collect();
        let first_number = numbered - inputs.len() as u64;
        account(shared, &identities, &answers, &examined, first_number, job);
        let mut kept = examined.iter();
        inputs.retain(|_| *kept.next().expect("one flag per input"));
        let answers: Vec<Vec<Answer>> = answers
            .into_iter()
            .zip(&examined)
            .filter(|(_, e)| **e)
            .map(|(row, _)| row)
            .collect();
        // A second answer cut by the deadline is one not asked.
        let seconds: Vec<Vec<Option<Answer>>> = seconds
            .into_iter()
            .zip(&examined)
            .filter(|(_, e)| **e)
            .map(|(row, _)| row.into_iter().map(|a| a.filter(|a| !past(a))).collect())
            .collect();
        if cut {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if (0..engines.len()).any(|i| engines.has_second(i)) {
            time.second_inputs += sampled.iter().filter(|s| **s).count() as u64;
        }
        // The oracle: each claimed profile read as far as the adapters' answers need (whether it
        // permits them, `compare::needed`), and one metamorphic relation per input, in one call
        // (a relation that leaves the body as it is shares its reading); one input in
        // `invariants::LITERAL_SAMPLE` is also compared with the literal mode. An input the oracle
        // fails on is reported as an oracle bug and goes no further, as if it had not been
        // generated.
        let t2 = Instant::now();
        let mut checked: Vec<(Input, Observation)> = Vec::with_capacity(inputs.len());
        for ((input, answers), seconds) in inputs.drain(..).zip(answers).zip(seconds) {
            let needs: Vec<(ProfileId, Needed)> = wanted
                .iter()
                .map(|&p| (p, compare::needed(&engines, &answers, &seconds, p)))
                .collect();
            if let Some(known) = oracle_or_bug(options, shared, &input, &needs) {
                let observation = Observation {
                    oracle: known.map(|k| k.and_then(Known::verdict)),
                    answers,
                    seconds,
                };
                checked.push((input, observation));
            }
        }
        // The findings, input by input, in order.
        let t3 = Instant::now();
        for (input, observation) in &checked {
            // Kept input by input, before the input's own findings: what a finding is weighed
            // against is the job's inputs up to it, whatever the batch size or round trips.
            for (kept, answer) in others.iter_mut().zip(&observation.answers) {
                if kept.len() < OTHER_ANSWERS_KEPT {
                    let verdict = crate::examine::verdict_of(answer);
                    kept.push(&input.body, &input.agent, &input.url, verdict);
                }
            }
            let mut findings = compare::findings(&engines, observation);
            if !options.pairs {
                findings.retain(|f| f.other.is_none());
            }
            if findings.is_empty() {
                continue;
            }
            // The causes and the minimiser read the input again (the oracle's code): a panic
            // there is an oracle bug too, and the job goes on.
            let handled = catch_unwind(AssertUnwindSafe(|| {
                handle_findings(
                    options,
                    shared,
                    &engines,
                    &identities,
                    input,
                    observation,
                    &findings,
                    &mut others,
                    &mut time,
                )
            }));
            if let Err(payload) = handled {
                let message = robotstxt_adapters::inprocess::panic_message(&*payload);
                let kind = format!(
                    "panic in the findings: {}",
                    crate::signature::normalise_message(&message)
                );
                let message =
                    format!("the oracle panicked working out the findings' causes: {message}");
                report_bug(options, shared, input, kind, &message);
            }
        }
        let t4 = Instant::now();
        time.generate += (t1 - t0).as_nanos() as u64;
        time.oracle += (t3 - t2).as_nanos() as u64;
        time.findings += (t4 - t3).as_nanos() as u64;
        local_execs += checked.len() as u64;
        shared
            .execs
            .fetch_add(checked.len() as u64, Ordering::Relaxed);
        if cut {
            break;
        }
    }
    for (index, (id, ns)) in identities.iter().zip(adapter_ns).enumerate() {
        time.adapters.insert(id.clone(), ns);
        if engines.has_second(index) {
            time.second_processes.insert(id.clone(), second_ns[index]);
        }
    }
    let mut total = shared.time.lock().expect("not poisoned");
    total.generate += time.generate;
    total.oracle += time.oracle;
    total.findings += time.findings;
    total.minimise += time.minimise;
    total.minimise_answers += time.minimise_answers;
    for (id, ns) in time.adapters {
        *total.adapters.entry(id).or_default() += ns;
    }
    for (id, ns) in time.second_processes {
        *total.second_processes.entry(id).or_default() += ns;
    }
    total.second_inputs += time.second_inputs;
}

/// Counts a batch's answers that are not readings of the file, per adapter: `timeout` answers
/// (findings, each bucketed), answers not obtained (an adapter declared hung or broken, or past
/// the deadline) and inputs no adapter was asked about (`examined` false); tells the first time
/// an adapter is declared hung or broken, and from which input (`first_number` is the batch's
/// first input's number in job `job`'s stream).
fn account(
    shared: &Shared,
    identities: &[String],
    answers: &[Vec<Answer>],
    examined: &[bool],
    first_number: u64,
    job: u64,
) {
    use robotstxt_adapters::subprocess::{is_broken, is_hung, is_not_asked};
    let mut unanswered = shared.unanswered.lock().expect("not poisoned");
    for (n, (row, examined)) in answers.iter().zip(examined).enumerate() {
        if !examined {
            unanswered.unexamined += 1;
            continue;
        }
        for (id, answer) in identities.iter().zip(row) {
            if is_not_asked(answer) {
                *unanswered.not_asked.entry(id.clone()).or_default() += 1;
            } else if matches!(answer, Answer::Timeout { .. }) {
                *unanswered.timeouts.entry(id.clone()).or_default() += 1;
            }
            if (is_hung(answer) || is_broken(answer)) && !unanswered.stopped.contains_key(id) {
                let why = format!(
                    "{} (from input {} of job {job} on)",
                    answer.detail().unwrap_or_default(),
                    first_number + n as u64
                );
                let what = if is_hung(answer) { "hung" } else { "broken" };
                eprintln!(
                    "\n{id}: declared {what}; its remaining inputs are not asked (no finding is \
                     made of them): {why}"
                );
                unanswered.stopped.insert(id.clone(), why);
            }
        }
    }
}

/// The oracle's verdicts for `input`, each as far as `needs` says, with its metamorphic relation
/// checked ([`invariants::known_checked`]), or `None` after reporting the oracle bug (a broken
/// invariant or a panic) it showed.
// The closure it hands to `catch_unwind` returns `known_checked`'s result, whose violation is
// rare (an oracle bug) and carries both inputs: boxing it would buy nothing.
#[allow(clippy::result_large_err)]
fn oracle_or_bug(
    options: &Options,
    shared: &Shared,
    input: &Input,
    needs: &[(ProfileId, Needed)],
) -> Option<[Option<Known>; 4]> {
    match catch_unwind(AssertUnwindSafe(|| invariants::known_checked(input, needs))) {
        Ok(Ok(verdicts)) => Some(verdicts),
        Ok(Err(violation)) => {
            let message = if violation.relation == FAST_EQUALS_LITERAL {
                // The detail names the request and the readings; nothing was transformed.
                format!(
                    "invariant `{}` broken: {}",
                    violation.relation, violation.detail
                )
            } else {
                format!(
                    "invariant `{}` broken: {}; transformed input: {:?}",
                    violation.relation, violation.detail, violation.transformed
                )
            };
            let kind = format!(
                "invariant {}: {}",
                violation.relation,
                violation.detail.split(':').next().unwrap_or_default()
            );
            report_bug(options, shared, input, kind, &message);
            None
        }
        Err(payload) => {
            let message = robotstxt_adapters::inprocess::panic_message(&*payload);
            let (panicked, panic) = which_panics(input, message);
            let message = format!(
                "the oracle panicked under {}: {}",
                panic.profile.name(),
                panic.message
            );
            let kind = format!(
                "panic under {}: {}",
                panic.profile.name(),
                crate::signature::normalise_message(&panic.message)
            );
            report_bug(options, shared, &panicked, kind, &message);
            None
        }
    }
}

/// The input the oracle panics on (`input`, or else the transformed input its invariant check
/// evaluates) and the profile and message of that panic; `message` is the panic's own, for when
/// neither input panics alone.
fn which_panics(input: &Input, message: String) -> (Input, compare::OraclePanic) {
    if let Err(panic) = compare::oracle_verdicts(input) {
        return (input.clone(), panic);
    }
    if let Some((relation, _, transformed)) = invariants::chosen(input) {
        if let Err(mut panic) = compare::oracle_verdicts(&transformed) {
            panic.message = format!(
                "{} (on the `{}` transformed input)",
                panic.message,
                relation.name()
            );
            return (transformed, panic);
        }
    }
    // Only the reading shared by both inputs panicked.
    let panic = compare::OraclePanic {
        profile: robotstxt_oracle::ProfileId::Rfc9309,
        message: format!("{message} (reading the input with its transformed form)"),
    };
    (input.clone(), panic)
}

/// Records an oracle bug: the first input of each kind is written at once; later ones are counted.
fn report_bug(options: &Options, shared: &Shared, input: &Input, kind: String, message: &str) {
    let mut bugs = shared.bugs.lock().expect("not poisoned");
    if let Some(bug) = bugs.get_mut(&kind) {
        bug.hits += 1;
        return;
    }
    let dir = options.out.join("oracle-bugs");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(oracle_bug_file(input));
    let _ = std::fs::write(&path, input_json(input, message));
    bugs.insert(
        kind.clone(),
        OracleBug {
            kind,
            message: message.to_string(),
            path,
            hits: 1,
        },
    );
}

/// Buckets the findings of one execution. A finding of a crash, error, timeout, nondeterministic
/// answer or two adapters' disagreement goes to its signature's bucket; a new one is minimised and
/// written at once. A divergence from the claimed profile is first counted under its candidate
/// cause; the candidate's first finding, and while no examination credits a cause its 2nd, 4th,
/// 8th ... (up to [`EXAMINED_AT_MOST`]), is minimised and examined ([`crate::examine`]), and goes
/// to the bucket of what the examination found; the others go where the candidate's latest
/// examination went. The time minimising and examining takes is added to `time.minimise`, the
/// adapters' part of it to `time.minimise_answers`.
#[allow(clippy::too_many_arguments)]
fn handle_findings(
    options: &Options,
    shared: &Shared,
    engines: &Engines,
    identities: &[String],
    input: &Input,
    observation: &Observation,
    findings: &[compare::Finding],
    others: &mut [robotstxt_oracle::evidence::OtherAnswers],
    time: &mut TimeSplit,
) {
    #[cfg(test)]
    if tests::INJECTED_PANIC.load(Ordering::Relaxed) == tests::IN_THE_FINDINGS
        && input.body.len().is_multiple_of(7)
    {
        panic!("injected in the findings");
    }
    for sighting in sightings(findings, input, &observation.answers) {
        let sig = sighting.signature.clone();
        if sig.kind != "adapter-vs-profile" {
            bucket_as_found(
                options,
                shared,
                engines,
                identities,
                input,
                observation,
                &sighting,
                time,
            );
            continue;
        }
        // A divergence: counted under its candidate, examined on schedule.
        let examine = {
            let mut candidates = shared.candidates.lock().expect("not poisoned");
            let candidate = candidates.entry(sig.clone()).or_default();
            candidate.hits += 1;
            let due = candidate.examinations == 0
                || (!candidate.credited
                    && candidate.hits.is_power_of_two()
                    && candidate.examinations < EXAMINED_AT_MOST);
            if due {
                candidate.examinations += 1;
                None
            } else {
                Some(candidate.latest.clone())
            }
        };
        match examine {
            Some(Some(bucket)) => {
                if let Some(bucket) = shared
                    .buckets
                    .lock()
                    .expect("not poisoned")
                    .get_mut(&bucket)
                {
                    bucket.hits += 1;
                }
                continue;
            }
            Some(None) => {
                shared.not_counted.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            None => {}
        }
        let started = Instant::now();
        // Written before minimising, with the answers that made the finding: an interrupted run
        // keeps the raw finding (removed once it is examined into its bucket).
        let pending = options.out.join(format!("pending/{}", sig.slug()));
        let _ = std::fs::create_dir_all(&pending);
        if let Ok(oracle) = compare::oracle_verdicts(input) {
            let named = named_answers(identities, &sighting, observation.answers.clone(), |i| {
                observation.seconds.get(i).cloned().flatten()
            });
            write_finding(&pending, &sighting, input, input, &named, oracle, None);
        }
        let still = StillInBucket::new(engines, &sighting, input);
        let minimal = minimize::minimize_batched(
            input,
            &mut |candidates: &[Input]| still.first(candidates),
            minimize::DEFAULT_BUDGET,
        );
        let index = identities
            .iter()
            .position(|id| *id == sig.adapter)
            .expect("the finding's adapter is asked");
        let profile = engines.identities()[index].profile;
        let asked = Instant::now();
        let answer = engines.answer_at(index, &minimal);
        let (bucket, examined) = crate::examine::examine(
            engines,
            index,
            profile,
            &minimal,
            &answer,
            &mut others[index],
        );
        let examining_answers = asked.elapsed().as_nanos() as u64;
        let first = Sighting {
            signature: bucket.clone(),
            got: answer.kind().to_string(),
            expected: robotstxt_oracle::verdict(profile, &minimal.request()).name(),
            changes: examined.credit.outcome.clone().ok(),
            ..sighting.clone()
        };
        let new_dir = {
            let mut buckets = shared.buckets.lock().expect("not poisoned");
            match buckets.get_mut(&bucket) {
                Some(found) => {
                    found.hits += 1;
                    found.examined += 1;
                    None
                }
                None => {
                    let dir = bucket_dir(&bucket);
                    buckets.insert(
                        bucket.clone(),
                        Bucket {
                            signature: bucket.clone(),
                            first: first.clone(),
                            dir: dir.clone(),
                            hits: 1,
                            examined: 1,
                            evidence: examined.words(),
                        },
                    );
                    Some(options.out.join(dir))
                }
            }
        };
        {
            let mut candidates = shared.candidates.lock().expect("not poisoned");
            let candidate = candidates.entry(sig.clone()).or_default();
            candidate.credited |= examined.credited();
            candidate.latest = Some(bucket);
        }
        let mut answering = 0;
        if let Some(dir) = new_dir {
            let _ = std::fs::create_dir_all(&dir);
            answering = write_bucket(
                &dir,
                &first,
                input,
                &minimal,
                engines,
                identities,
                Some(&examined),
            );
        }
        let _ = std::fs::remove_dir_all(&pending);
        time.minimise += started.elapsed().as_nanos() as u64;
        time.minimise_answers += still.answering.get() + answering + examining_answers;
    }
}

/// The bucket of a finding that is not examined (a crash, error, timeout, nondeterministic answer
/// or two adapters' disagreement): its signature's; a new one is minimised and written at once.
#[allow(clippy::too_many_arguments)]
fn bucket_as_found(
    options: &Options,
    shared: &Shared,
    engines: &Engines,
    identities: &[String],
    input: &Input,
    observation: &Observation,
    sighting: &Sighting,
    time: &mut TimeSplit,
) {
    let sig = sighting.signature.clone();
    let dir = {
        let mut buckets = shared.buckets.lock().expect("not poisoned");
        if let Some(bucket) = buckets.get_mut(&sig) {
            bucket.hits += 1;
            return;
        }
        let dir = bucket_dir(&sig);
        buckets.insert(
            sig.clone(),
            Bucket {
                signature: sig.clone(),
                first: sighting.clone(),
                dir: dir.clone(),
                hits: 1,
                examined: 0,
                evidence: String::new(),
            },
        );
        options.out.join(dir)
    };
    let started = Instant::now();
    // Written before minimising, with the answers that made the finding: an interrupted run
    // keeps the raw finding.
    let _ = std::fs::create_dir_all(&dir);
    if let Ok(oracle) = compare::oracle_verdicts(input) {
        let named = named_answers(identities, sighting, observation.answers.clone(), |i| {
            observation.seconds.get(i).cloned().flatten()
        });
        write_finding(&dir, sighting, input, input, &named, oracle, None);
    }
    let still = StillInBucket::new(engines, sighting, input);
    let minimal = minimize::minimize_batched(
        input,
        &mut |candidates: &[Input]| still.first(candidates),
        // A timeout costs the whole per-check limit on every try: its input is kept as found.
        if sig.kind == "timeout" {
            0
        } else {
            minimize::DEFAULT_BUDGET
        },
    );
    let answering = write_bucket(&dir, sighting, input, &minimal, engines, identities, None);
    time.minimise += started.elapsed().as_nanos() as u64;
    time.minimise_answers += still.answering.get() + answering;
}

/// The minimiser's predicate for one bucket: whether a candidate input still shows the bucket's
/// finding, asking only the bucket's adapter (or pair of adapters).
struct StillInBucket<'a> {
    engines: &'a Engines,
    first: &'a Sighting,
    /// Whether the original agent is a product token (the minimal one must stay one).
    token: bool,
    /// The bucket's adapter and, for a pair, the other one, by position in `engines`.
    involved: Vec<usize>,
    /// Nanoseconds the involved adapters spent answering candidates.
    answering: std::cell::Cell<u64>,
}

impl<'a> StillInBucket<'a> {
    fn new(engines: &'a Engines, first: &'a Sighting, input: &Input) -> StillInBucket<'a> {
        let sig = &first.signature;
        let position = |id: &str| engines.identities().iter().position(|i| i.id == id);
        let involved = std::iter::once(sig.adapter.as_str())
            .chain(sig.other.as_deref())
            .filter_map(position)
            .collect();
        StillInBucket {
            engines,
            first,
            token: robotstxt_oracle::select::is_product_token(input.agent.as_bytes()),
            involved,
            answering: std::cell::Cell::new(0),
        }
    }

    /// The index of the first of `candidates` that still shows the finding. In-process adapters
    /// are asked one candidate at a time, stopping at the first kept; adapter processes are asked
    /// every candidate in one round trip.
    fn first(&self, candidates: &[Input]) -> Option<usize> {
        let nondeterministic = self.first.signature.kind == "nondeterministic";
        let local = self.involved.iter().all(|&i| !self.engines.is_process(i));
        if local {
            return candidates.iter().position(|candidate| {
                self.eligible(candidate) && {
                    let answers: Vec<(usize, Answer)> = self.timed(|| {
                        self.involved
                            .iter()
                            .map(|&i| (i, self.engines.answer_at(i, candidate)))
                            .collect()
                    });
                    self.keeps(candidate, &answers, None)
                }
            });
        }
        let asked: Vec<(usize, &Input)> = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| self.eligible(c))
            .collect();
        let inputs: Vec<&Input> = asked.iter().map(|(_, c)| *c).collect();
        let answers: Vec<(usize, Vec<Answer>)> = self.timed(|| {
            self.involved
                .iter()
                .map(|&i| (i, self.engines.answers_at(i, &inputs)))
                .collect()
        });
        let seconds = match (nondeterministic, self.involved.first()) {
            (true, Some(&i)) => self.timed(|| self.engines.seconds_at(i, &inputs)),
            _ => None,
        };
        asked
            .iter()
            .enumerate()
            .find_map(|(n, (index, candidate))| {
                let these: Vec<(usize, Answer)> = answers
                    .iter()
                    .map(|(i, all)| (*i, all[n].clone()))
                    .collect();
                let second = seconds.as_ref().map(|s| &s[n]);
                self.keeps(candidate, &these, second).then_some(*index)
            })
    }

    /// `answer`'s result, its time added to [`StillInBucket::answering`].
    fn timed<T>(&self, answer: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = answer();
        self.answering
            .set(self.answering.get() + started.elapsed().as_nanos() as u64);
        result
    }

    /// A product-token agent stays one, so the case stays expressible in the corpus.
    fn eligible(&self, candidate: &Input) -> bool {
        !self.token || robotstxt_oracle::select::is_product_token(candidate.agent.as_bytes())
    }

    /// Whether `candidate`, answered `answers` by the involved adapters (and `second` by the second
    /// process, for a `nondeterministic` bucket), shows the bucket's finding.
    fn keeps(
        &self,
        candidate: &Input,
        answers: &[(usize, Answer)],
        second: Option<&Answer>,
    ) -> bool {
        let sig = &self.first.signature;
        if let ([(index, answer)], None) = (answers, &sig.other) {
            // A finding of one adapter is checked against that adapter and its profile alone.
            let identity = self.engines.identities()[*index];
            let request = candidate.request();
            let Ok(expected) = catch_unwind(AssertUnwindSafe(|| {
                robotstxt_oracle::verdict(identity.profile, &request)
            })) else {
                return false;
            };
            if sig.kind == "nondeterministic" {
                // Kept while the two processes still disagree, in the same way.
                let Some(second) = second else {
                    return false;
                };
                return compare::nondeterministic_of(identity, *index, expected, answer, second)
                    .is_some_and(|finding| {
                        crate::signature::sighting(&finding, candidate, answer).signature == *sig
                    });
            }
            // The same adapter with the same cause: a bucket is one cause, on the minimal input
            // too.
            return compare::finding_of(identity, *index, expected, answer).is_some_and(
                |finding| {
                    crate::signature::still_in_bucket(self.first, &finding, candidate, answer)
                },
            );
        }
        let Ok(oracle) = compare::oracle_verdicts(candidate) else {
            return false;
        };
        // The pair's answers; the adapters not asked get an answer that makes no pair.
        let mut all = vec![
            Answer::Unsupported {
                reason: "not asked".to_string()
            };
            self.engines.len()
        ];
        for (index, answer) in answers {
            all[*index] = answer.clone();
        }
        let observation = Observation {
            oracle: oracle.map(Some),
            answers: all,
            seconds: Vec::new(),
        };
        // Only the bucket's pair is explained again.
        let findings: Vec<compare::Finding> = compare::findings(self.engines, &observation)
            .into_iter()
            .filter(|f| f.adapter == sig.adapter && f.other == sig.other)
            .collect();
        sightings(&findings, candidate, &observation.answers)
            .iter()
            .any(|s| s.signature == *sig)
    }
}

/// Writes a minimised bucket: `case.yaml` (or `not-a-case.txt`) and `finding.json`, with every
/// adapter's answer to `minimal`. Returns the nanoseconds the adapters spent answering it (the
/// parsers' time, [`TimeSplit::minimise_answers`]).
fn write_bucket(
    dir: &Path,
    sig: &Sighting,
    original: &Input,
    minimal: &Input,
    engines: &Engines,
    identities: &[String],
    examined: Option<&robotstxt_oracle::examine::Examination>,
) -> u64 {
    let Ok(oracle) = compare::oracle_verdicts(minimal) else {
        return 0;
    };
    let asked = Instant::now();
    let answers = engines.answer_each(minimal);
    let named = named_answers(identities, sig, answers.clone(), |index| {
        engines.second_at(index, minimal)
    });
    let answering = asked.elapsed().as_nanos() as u64;
    let observation = Observation {
        oracle: oracle.map(Some),
        answers,
        seconds: Vec::new(),
    };
    if robotstxt_oracle::select::is_product_token(minimal.agent.as_bytes()) {
        let evidence = examined.map(robotstxt_oracle::examine::Examination::words);
        let yaml = case::case_yaml(sig, minimal, &observation, &named, evidence.as_deref());
        let _ = atomic_write(&dir.join("case.yaml"), yaml.as_bytes());
    } else {
        let _ = atomic_write(
            &dir.join("not-a-case.txt"),
            b"The agent is not a product token (rfc9309#2.2.1), so the corpus cannot hold this check;
              the finding (input and answers) is in finding.json.
",
        );
    }
    write_finding(dir, sig, original, minimal, &named, oracle, examined);
    answering
}

/// Every adapter's answer by name, in `identities` order, and for a `nondeterministic` finding
/// the second process's answer too (`second` of the adapter's index): the finding is the pair.
fn named_answers(
    identities: &[String],
    sig: &Sighting,
    answers: Vec<Answer>,
    second: impl FnOnce(usize) -> Option<Answer>,
) -> Vec<(String, Answer)> {
    let mut named: Vec<(String, Answer)> = identities.iter().cloned().zip(answers).collect();
    if sig.signature.kind == "nondeterministic" {
        let index = identities
            .iter()
            .position(|id| *id == sig.signature.adapter);
        if let Some(answer) = index.and_then(second) {
            named.push((
                format!("{} (second process)", sig.signature.adapter),
                answer,
            ));
        }
    }
    named
}

/// Writes a bucket's `finding.json`: its signature, the original and minimal inputs, the adapters'
/// answers to the minimal one (`named`), the oracle's verdict on it under every profile and, for an
/// examined divergence, what its cause rests on (the evidence in words, the neighbours asked and
/// answered, and for an unexplained one its behaviour group).
fn write_finding(
    dir: &Path,
    sig: &Sighting,
    original: &Input,
    minimal: &Input,
    named: &[(String, Answer)],
    oracle: [Verdict; 4],
    examined: Option<&robotstxt_oracle::examine::Examination>,
) {
    let mut finding = serde_json::json!({
        "signature": sig,
        "minimal": input_value(minimal),
        "original": input_value(original),
        "answers": named.iter().map(|(id, a)| (id.clone(), serde_json::to_value(a).unwrap_or_default())).collect::<serde_json::Map<_, _>>(),
        "oracle": robotstxt_oracle::ProfileId::ALL.iter().zip(oracle).map(|(p, v)| (p.name().to_string(), serde_json::Value::from(v.name()))).collect::<serde_json::Map<_, _>>(),
    });
    if let Some(examined) = examined {
        finding["evidence"] = serde_json::json!({
            "words": examined.words(),
            "neighbours_asked": examined.credit.asked,
            "neighbours_answered": examined.credit.answered,
            "neighbours_deciding": examined.credit.deciding,
            "other_answers": examined.credit.elsewhere,
            "other_answers_deciding": examined.credit.deciding_elsewhere,
        });
        if let Some(group) = &examined.behaviour {
            finding["behaviour"] = serde_json::json!({
                "key": group.key,
                "shape": group.shape,
                "deciding_lines": group.deciding_lines.iter().map(|(n, text)| serde_json::json!({"line": n, "text": text})).collect::<Vec<_>>(),
            });
        }
    }
    let _ = atomic_write(
        &dir.join("finding.json"),
        serde_json::to_string_pretty(&finding)
            .unwrap_or_default()
            .as_bytes(),
    );
}

/// Writes the summary file (best effort) and returns the summary.
fn write_summary(options: &Options, shared: &Shared, elapsed: Duration) -> Summary {
    // The buckets are copied and the lock let go at once: the jobs take it for every finding.
    let mut bucket_list: Vec<Bucket> = shared
        .buckets
        .lock()
        .expect("not poisoned")
        .values()
        .cloned()
        .collect();
    let execs = shared.execs.load(Ordering::Relaxed);
    let mut per_adapter: BTreeMap<String, usize> = BTreeMap::new();
    for bucket in &bucket_list {
        *per_adapter
            .entry(bucket.signature.adapter.clone())
            .or_default() += 1;
    }
    bucket_list.sort_by(|a, b| {
        (
            !a.signature.unexplained(),
            &a.signature.adapter,
            std::cmp::Reverse(a.hits),
        )
            .cmp(&(
                !b.signature.unexplained(),
                &b.signature.adapter,
                std::cmp::Reverse(b.hits),
            ))
    });
    let (timeouts, not_asked, stopped, unexamined) = {
        let u = shared.unanswered.lock().expect("not poisoned");
        (
            u.timeouts.clone(),
            u.not_asked.clone(),
            u.stopped.clone(),
            u.unexamined,
        )
    };
    let summary = Summary {
        timeouts,
        not_asked,
        stopped,
        unexamined,
        execs,
        seconds: elapsed.as_secs_f64(),
        execs_per_sec: execs as f64 / elapsed.as_secs_f64().max(1e-9),
        buckets: bucket_list.len(),
        findings_dir: options.out.display().to_string(),
        seed: options.seed,
        jobs: options.jobs,
        adapters: options.adapters.clone(),
        buckets_per_adapter: per_adapter,
        adapter_execs_per_sec: {
            let time = shared.time.lock().expect("not poisoned");
            time.adapters
                .iter()
                .map(|(id, ns)| (id.clone(), execs as f64 / (*ns as f64 / 1e9).max(1e-9)))
                .collect()
        },
        seed_files: options.seeds.as_ref().map_or(0, |s| s.len()),
        hits: bucket_list.iter().map(|b| b.hits).sum(),
        unexplained_hits: bucket_list
            .iter()
            .filter(|b| b.signature.unexplained())
            .map(|b| b.hits)
            .sum(),
        findings_not_counted: shared.not_counted.load(Ordering::Relaxed),
        time: shared.time.lock().expect("not poisoned").clone(),
        bucket_list,
        oracle_bugs: shared
            .bugs
            .lock()
            .expect("not poisoned")
            .values()
            .cloned()
            .collect(),
    };
    let _ = atomic_write(
        &options.out.join("summary.json"),
        serde_json::to_string_pretty(&summary)
            .unwrap_or_default()
            .as_bytes(),
    );
    summary
}

/// Writes through a temporary file and a rename, so a reader never sees half a file.
fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}

/// An input as JSON: the body as text when it is UTF-8, else base64.
fn input_value(input: &Input) -> serde_json::Value {
    let mut value = serde_json::json!({"agent": input.agent, "url": input.url});
    match std::str::from_utf8(&input.body) {
        Ok(text) => value["body"] = text.into(),
        Err(_) => {
            value["body_base64"] = base64::engine::general_purpose::STANDARD
                .encode(&input.body)
                .into()
        }
    }
    value
}

fn input_json(input: &Input, message: &str) -> String {
    let mut value = input_value(input);
    value["message"] = message.into();
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// A bucket's directory, relative to the output directory: its signature's slug and
/// [`name_hash`], so that two signatures with one slug get two directories.
fn bucket_dir(sig: &Signature) -> String {
    format!(
        "buckets/{}-{:08x}",
        sig.slug(),
        name_hash(&[sig.to_string().as_bytes()]) as u32
    )
}

/// The file an oracle bug's input is written to, in `oracle-bugs/`: named by [`name_hash`] of body,
/// agent and URL.
fn oracle_bug_file(input: &Input) -> String {
    format!(
        "{:016x}.json",
        name_hash(&[&input.body, input.agent.as_bytes(), input.url.as_bytes()])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU8;

    /// Where the campaign is made to panic: nowhere, [`IN_THE_FINDINGS`] or [`IN_A_JOB`].
    pub(super) static INJECTED_PANIC: AtomicU8 = AtomicU8::new(0);
    /// In an input's findings (one input in seven, by its body's length).
    pub(super) const IN_THE_FINDINGS: u8 = 1;
    /// In the second job, before its first batch.
    pub(super) const IN_A_JOB: u8 = 2;

    fn options(out: &Path) -> Options {
        Options {
            duration: None,
            max_execs: Some(3000),
            seed: 3,
            adapters: vec!["robots-txt".to_string()],
            adapter_options: Default::default(),
            recheck_every: 0,
            pairs: true,
            seeds: None,
            jobs: 2,
            batch: BATCH,
            out: out.to_path_buf(),
        }
    }

    /// A panic while working out an input's findings is an oracle bug and the run goes on to its
    /// count; a job that panics ends the run (its panic raised) rather than leaving it waiting.
    /// One test, since both set the one injection point.
    #[test]
    fn a_panic_in_the_findings_or_a_job_neither_hangs_nor_is_lost() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        INJECTED_PANIC.store(IN_THE_FINDINGS, Ordering::Relaxed);
        let summary = run(&options(&dir.path().join("findings")), &|_, _, _| {});
        let injected = summary
            .oracle_bugs
            .iter()
            .find(|bug| bug.kind.starts_with("panic in the findings: injected"));
        assert_eq!(summary.execs, 3000);
        assert!(
            injected.is_some_and(|bug| bug.hits > 10),
            "{:?}",
            summary.oracle_bugs
        );
        INJECTED_PANIC.store(IN_A_JOB, Ordering::Relaxed);
        let ran =
            std::panic::catch_unwind(|| run(&options(&dir.path().join("job")), &|_, _, _| {}));
        INJECTED_PANIC.store(0, Ordering::Relaxed);
        assert!(ran.is_err(), "the job's panic is raised");
    }
}
