//! One real-world run: files in, [`Results`] out.
//!
//! Files are read a chunk at a time, by a thread of their own. For each chunk the oracle (every
//! profile) and every adapter work side by side, each adapter asked once per file with all of the
//! file's checks (one parse per file where the adapter's API allows it). The chunk's files are cut
//! into pieces that each adapter's processes take from a queue of their own (the oracle's threads
//! from theirs), and the adapter whose processes each used the most CPU time on a chunk gets
//! another process for the next chunks (up to one per core), so that the slowest parsers are the
//! ones that run in several processes and both cores stay busy to the end of each chunk
//! ([`Scheduling`]). While a chunk is answered, the one before it is tallied (its causes worked
//! out), in file order; at the end the buckets' examples are minimised side by side, each
//! adapter's by its own process. Which process answers a file, and what runs beside what, never
//! changes an answer. Each bucket keeps its first check in (file id, check number) order as its
//! example, and the examples are minimised at the end, so the results do not depend on how files
//! were split between shards.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use robotstxt_adapters::registry::{self, Options};
use robotstxt_adapters::{Adapter, Answer, Identity, Query, Unavailable};
use robotstxt_differential::case::{case_yaml, citation_for, escape};
use robotstxt_differential::compare::{Observation, FIRST_PROCESS_ENV, SECOND_PROCESS_ENV};
use robotstxt_differential::input::Input;
use robotstxt_differential::minimize::minimize_batched;
use robotstxt_differential::signature::{Sighting, Signature};
use robotstxt_oracle::cause::{cause_label, cause_of, explains, Change};
use robotstxt_oracle::{
    verdict, verdicts_all, verdicts_on_one_body, Fetch, ProfileId, Request, Verdict,
};

use crate::corpus::{each_file, Source};
use crate::derive::{derive, UrlKind};
use crate::facts;
use crate::file::{RealFile, Shard};
use crate::tally::{Bucket, Example, Results};
use robotstxt_matrix::ledger::Ledger;

/// How many files are read before the oracle and the adapters are set to work on them.
const CHUNK: usize = 64;

/// How many files of a chunk one process (or oracle thread) takes from its queue at a time.
const PIECE: usize = 4;

/// How many candidates minimising one bucket's example may ask at most.
const MINIMISE_BUDGET: usize = 600;

/// How many octets of candidate bodies minimising one example may ask in all: a large body (a
/// 500 KiB file whose divergence needs its size) gets fewer candidates. Work is counted, not time.
const MINIMISE_OCTETS: usize = 16 << 20;

/// At most this many octets of a body that could not be minimised go into its example.
const UNMINIMISED_OCTETS: usize = 4096;

/// What to run.
pub struct Plan {
    /// Where the files come from.
    pub sources: Vec<Source>,
    /// Names of the sources for the results (`protego-0.7.0`, paths).
    pub corpus_names: Vec<String>,
    /// Which files this run takes.
    pub shard: Shard,
    /// At most this many files of each source (before sharding).
    pub limit: Option<usize>,
    /// The profiles reported (causes use each adapter's claimed profile whatever this holds).
    pub profiles: Vec<ProfileId>,
    /// The adapters to ask.
    pub adapters: Vec<String>,
    /// How to open them.
    pub options: Options,
    /// Which files each adapter is asked a second time, in fresh processes.
    pub determinism: Determinism,
    /// Where the ledgers are (a bucket says whether its cause is already in the adapter's ledger).
    pub ledgers: Option<PathBuf>,
    /// The oracle and the adapters work side by side, each in its own thread; `false` asks them
    /// one after another (the benchmark's one-core measurement).
    pub parallel: bool,
    /// How many processes of each adapter answer (when `parallel`).
    pub scheduling: Scheduling,
}

/// How many processes (threads, for the oracle) answer at once when the run is parallel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduling {
    /// One process per adapter to start with; after each chunk, an adapter whose processes took
    /// longer than the chunk's whole work divided by the cores (so that it alone held the chunk
    /// up) gets one more, up to this many. The oracle has this many threads.
    Adaptive(usize),
    /// Exactly this many processes of every adapter (and oracle threads) from the start.
    Fixed(usize),
}

impl Scheduling {
    /// Adaptive, up to the number of cores.
    pub fn per_core() -> Scheduling {
        Scheduling::Adaptive(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The most processes of one adapter, and the oracle's threads.
    fn most(self) -> usize {
        match self {
            Scheduling::Adaptive(n) | Scheduling::Fixed(n) => n.max(1),
        }
    }
}

/// Which files are asked twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Determinism {
    /// None.
    Off,
    /// One file in this many (by a fixed hash of its id).
    Sample(u32),
    /// Every file.
    All,
}

impl Determinism {
    /// Whether the file with this id is asked twice.
    pub fn takes(self, id: &str) -> bool {
        match self {
            Determinism::Off => false,
            Determinism::All => true,
            Determinism::Sample(n) => {
                Shard { index: 0, count: n }.takes(&format!("determinism:{id}"))
            }
        }
    }
}

/// Time spent, for the benchmark.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// Reading files and deriving checks.
    pub reading: Duration,
    /// The oracle, all four profiles.
    pub oracle: Duration,
    /// Each adapter's time, by id.
    pub adapters: BTreeMap<String, Duration>,
    /// Working out causes and tallying.
    pub tally: Duration,
    /// Minimising the examples.
    pub minimising: Duration,
    /// The whole run.
    pub wall: Duration,
    /// How many answering processes each adapter ended the run with, by id ([`Scheduling`]).
    pub processes: BTreeMap<String, usize>,
}

/// An opened adapter and its processes, which the chunk being answered uses while the chunk
/// before it is tallied (from its identity alone).
struct Opened {
    identity: Identity,
    processes: std::sync::Mutex<Processes>,
}

/// An adapter's processes: the first, its further processes (when it is slow: [`Scheduling`]) and
/// its second process (for determinism).
struct Processes {
    first: Box<dyn Adapter>,
    /// Further processes of the same adapter with the same environment, answering other pieces of
    /// each chunk.
    more: Vec<Box<dyn Adapter>>,
    second: Option<Box<dyn Adapter>>,
}

impl Processes {
    /// The CPU time the answering processes (not the second) have used, when every one of them
    /// says ([`Adapter::cpu_time`]).
    fn cpu_time(&self) -> Option<Duration> {
        std::iter::once(&self.first)
            .chain(&self.more)
            .map(|p| p.cpu_time())
            .sum()
    }
}

impl Opened {
    /// Its processes, for this thread alone.
    fn processes(&self) -> std::sync::MutexGuard<'_, Processes> {
        self.processes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A file being worked on.
struct Work {
    file: RealFile,
    queries: Vec<Query>,
    /// Per check, the kind of its URL.
    kinds: Vec<UrlKind>,
    /// Per check, the verdict of each profile in `ProfileId::ALL` order (`None`: the oracle
    /// panicked).
    oracle: Vec<[Option<Verdict>; 4]>,
    /// Per adapter (in opening order), its answers.
    answers: Vec<Vec<Answer>>,
    /// Per adapter, the second process's answers when the file is asked twice.
    second: Vec<Option<Vec<Answer>>>,
    /// The file's AI-usage lines, and the body without them ([`robotstxt_matrix::aiusage::find`]).
    ai_usage: robotstxt_matrix::aiusage::Found,
    /// Per adapter, its answers to the same checks on the body without the AI-usage lines, when
    /// the file has some.
    removed: Vec<Option<Vec<Answer>>>,
}

/// A bucket's example before minimisation: the first check in (file, check) order.
#[derive(Clone)]
struct Candidate {
    file: String,
    check: u64,
    body: Vec<u8>,
    agent: String,
    url: String,
    fetch: Fetch,
    adapter: usize,
    profile: ProfileId,
    expected: Verdict,
    allowed: bool,
    changes: Option<Vec<Change>>,
    /// The adapter's answers to the file's checks (agent, URL, `Some(true)` allowed, `None` not a
    /// verdict): the other answers the example's candidate is weighed against. Only the file's
    /// own, so that a shard weighs an example as the single run does.
    others: Vec<(String, String, Option<bool>)>,
}

/// Runs `plan`; `progress` is told the number of files done after each chunk. Adapters that cannot
/// run here are returned beside the results.
pub fn run(
    plan: &Plan,
    progress: &mut dyn FnMut(u64),
) -> Result<(Results, Vec<Unavailable>, Timing), String> {
    let start = Instant::now();
    let mut timing = Timing::default();
    let (mut opened, unavailable) = open_adapters(plan);
    let mut results = Results::new(plan.profiles.iter().map(|p| p.name().to_string()).collect());
    results.corpus = plan.corpus_names.clone();
    results.corpus.sort();
    results.corpus.dedup();
    for adapter in &opened {
        let tally = results
            .adapters
            .entry(adapter.identity.id.clone())
            .or_default();
        tally.library = format!(
            "{} {} ({})",
            adapter.identity.library, adapter.identity.version, adapter.identity.language
        );
        tally.profile = adapter.identity.profile.name().to_string();
    }
    for why in &unavailable {
        results.unavailable.insert(why.id.clone(), why.to_string());
    }
    let ledger_ids = ledger_ids(plan, &opened);
    let mut candidates: BTreeMap<String, Candidate> = BTreeMap::new();
    // One answered chunk's causes and tally, in file order.
    let tally_chunk = |work: &[Work],
                       opened: &[Opened],
                       results: &mut Results,
                       candidates: &mut BTreeMap<String, Candidate>| {
        let tally_start = Instant::now();
        let causes = causes_of_chunk(work, opened, plan.parallel);
        for (w, causes) in work.iter().zip(&causes) {
            tally_file(w, opened, causes, &ledger_ids, results, candidates);
        }
        tally_start.elapsed()
    };
    if plan.parallel {
        // The files are read by a thread of their own, a chunk ahead; while a chunk is answered,
        // the chunk before it is tallied.
        std::thread::scope(|scope| -> Result<(), String> {
            let (sender, chunks) = std::sync::mpsc::sync_channel::<(Vec<Work>, Duration)>(1);
            let reader = scope.spawn(move || {
                read_chunks(plan, &mut |work, reading| {
                    sender
                        .send((work, reading))
                        .map_err(|_| "the run stopped reading".to_string())
                })
            });
            let mut pending: Option<Vec<Work>> = None;
            for (mut work, reading) in chunks {
                timing.reading += reading;
                let before = cpu_before(&opened);
                let (busy, tallied) = std::thread::scope(|inner| {
                    let done = pending.take();
                    let (opened, results, candidates) = (&opened, &mut results, &mut candidates);
                    let tally = inner.spawn(move || {
                        done.map(|done| {
                            (tally_chunk(&done, opened, results, candidates), done.len())
                        })
                    });
                    let busy = answer_all(&mut work, opened, plan, &mut timing);
                    (busy, tally.join().expect("tally thread"))
                });
                if let Some((time, _)) = tallied {
                    timing.tally += time;
                    progress(results.files);
                }
                grow(&opened, plan, &busy, &before);
                pending = Some(work);
            }
            if let Some(done) = pending.take() {
                timing.tally += tally_chunk(&done, &opened, &mut results, &mut candidates);
                progress(results.files);
            }
            reader.join().expect("reader thread")
        })?;
    } else {
        read_chunks(plan, &mut |mut work, reading| {
            timing.reading += reading;
            answer_all(&mut work, &opened, plan, &mut timing);
            timing.tally += tally_chunk(&work, &opened, &mut results, &mut candidates);
            progress(results.files);
            Ok(())
        })?;
    }
    timing.processes = opened
        .iter()
        .map(|a| (a.identity.id.clone(), 1 + a.processes().more.len()))
        .collect();
    let minimise_start = Instant::now();
    let corpus = robotstxt_spec::embedded::corpus()
        .map_err(|errors| format!("the embedded corpus does not load: {} errors", errors.len()))?;
    for (key, example) in minimise_all(candidates, &mut opened, plan.parallel, &corpus) {
        results
            .buckets
            .get_mut(&key)
            .expect("every candidate has its bucket")
            .example = example;
    }
    timing.minimising = minimise_start.elapsed();
    timing.wall = start.elapsed();
    results.seconds = timing.wall.as_secs_f64();
    for adapter in &opened {
        let seconds = timing
            .adapters
            .get(&adapter.identity.id)
            .copied()
            .unwrap_or_default();
        if let Some(tally) = results.adapters.get_mut(&adapter.identity.id) {
            tally.seconds = seconds.as_secs_f64();
        }
    }
    Ok((results, unavailable, timing))
}

/// Reads the plan's files a chunk ([`CHUNK`] files) at a time, derives their checks, and hands
/// each chunk to `chunk` with the time reading and deriving it took.
fn read_chunks(
    plan: &Plan,
    chunk: &mut dyn FnMut(Vec<Work>, Duration) -> Result<(), String>,
) -> Result<(), String> {
    let mut files: Vec<RealFile> = Vec::with_capacity(CHUNK);
    let mut read_start = Instant::now();
    let mut hand_over = |files: &mut Vec<RealFile>, read_start: &mut Instant| {
        let work: Vec<Work> = files.drain(..).map(work_of).collect();
        let reading = read_start.elapsed();
        let handed = chunk(work, reading);
        *read_start = Instant::now();
        handed
    };
    each_file(&plan.sources, plan.shard, plan.limit, &mut |file| {
        files.push(file);
        if files.len() == CHUNK {
            hand_over(&mut files, &mut read_start)?;
        }
        Ok(())
    })?;
    if !files.is_empty() {
        hand_over(&mut files, &mut read_start)?;
    }
    Ok(())
}

/// A file to work on: its checks, derived from its own lines.
fn work_of(file: RealFile) -> Work {
    let derived = derive(&file.body, file.robots_url.as_deref());
    let queries = derived
        .checks()
        .map(|(agent, url)| Query {
            fetch: file.fetch,
            ..Query::new(agent, url)
        })
        .collect();
    let ai_usage = robotstxt_matrix::aiusage::find(&file.body);
    Work {
        file,
        queries,
        kinds: derived.check_kinds().collect(),
        oracle: Vec::new(),
        answers: Vec::new(),
        second: Vec::new(),
        ai_usage,
        removed: Vec::new(),
    }
}

/// Every bucket's example, minimised and examined ([`minimised_example`]): side by side when
/// `parallel`, each adapter's examples in key order by its own process (a minimisation and an
/// examination ask one adapter only, so what runs beside it changes nothing); else one after
/// another. Each adapter's answers to `corpus`'s checks and a sample of their neighbours are asked
/// once, before its first example is examined: the other answers its candidates are weighed
/// against (the same in every shard).
fn minimise_all(
    candidates: BTreeMap<String, Candidate>,
    opened: &mut [Opened],
    parallel: bool,
    corpus: &robotstxt_matrix::cases::Corpus,
) -> Vec<(String, Example)> {
    let mut by_adapter: Vec<Vec<(String, Candidate)>> = opened.iter().map(|_| Vec::new()).collect();
    for (key, candidate) in candidates {
        by_adapter[candidate.adapter].push((key, candidate));
    }
    // The sample questions every cause is weighed against: worked out once, asked of each adapter.
    let questions = if by_adapter.iter().any(|list| !list.is_empty()) {
        robotstxt_spec::causes::questions(corpus)
    } else {
        Vec::new()
    };
    let questions = &questions;
    let minimise = |adapter: &mut Opened, list: Vec<(String, Candidate)>| {
        let mut sample: Option<robotstxt_oracle::evidence::OtherAnswers> = None;
        list.into_iter()
            .map(|(key, candidate)| {
                let sample = sample.get_or_insert_with(|| {
                    let mut sample = robotstxt_oracle::evidence::OtherAnswers::none();
                    let processes = adapter
                        .processes
                        .get_mut()
                        .unwrap_or_else(|e| e.into_inner());
                    robotstxt_matrix::ledger::add_sample_answers(
                        processes.first.as_mut(),
                        questions,
                        &mut sample,
                    );
                    sample
                });
                (key, minimised_example(&candidate, adapter, sample))
            })
            .collect::<Vec<_>>()
    };
    if !parallel {
        return opened
            .iter_mut()
            .zip(by_adapter)
            .flat_map(|(adapter, list)| minimise(adapter, list))
            .collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = opened
            .iter_mut()
            .zip(by_adapter)
            .filter(|(_, list)| !list.is_empty())
            .map(|(adapter, list)| scope.spawn(move || minimise(adapter, list)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("minimising thread"))
            .collect()
    })
}

/// Each adapter's answering processes' CPU time before a chunk (`None` where not known), then
/// this process's: what [`grow`] measures the chunk by.
fn cpu_before(opened: &[Opened]) -> (Vec<Option<Duration>>, Option<Duration>) {
    let adapters = opened.iter().map(|a| a.processes().cpu_time()).collect();
    (
        adapters,
        robotstxt_adapters::subprocess::process_cpu_time(std::process::id()),
    )
}

/// The options of an adapter's answering processes (fixed hash seeds, so that a run replays) and
/// of its second process (other seeds).
fn process_options(plan: &Plan) -> (Options, Options) {
    let with_env = |env: [(&str, &str); 2]| Options {
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..plan.options.clone()
    };
    (with_env(FIRST_PROCESS_ENV), with_env(SECOND_PROCESS_ENV))
}

/// After a chunk: the adapter whose processes each did the most work on it gets one more
/// process, up to [`Scheduling`]'s most, when each of its processes did more than the chunk's
/// whole work divided by twice the cores (so that at the end of each chunk, when the other
/// parsers are done, the slowest one still keeps every core busy). Work is CPU time where the
/// system says (this process's and every adapter process's during the chunk, `before` being what
/// they had used before it), else the busy time in `busy` (each adapter's, in opening order, then
/// the oracle's).
fn grow(
    opened: &[Opened],
    plan: &Plan,
    busy: &[Duration],
    before: &(Vec<Option<Duration>>, Option<Duration>),
) {
    let Scheduling::Adaptive(most) = plan.scheduling else {
        return;
    };
    if !plan.parallel || most <= 1 {
        return;
    }
    let after = cpu_before(opened);
    let by_cpu: Option<Vec<Duration>> = after
        .0
        .iter()
        .zip(&before.0)
        .map(|(a, b)| Some(a.as_ref()?.saturating_sub(*b.as_ref()?)))
        .collect();
    let (work, total) = match (by_cpu, after.1, before.1) {
        (Some(work), Some(own_after), Some(own_before)) => {
            let total = work.iter().sum::<Duration>() + own_after.saturating_sub(own_before);
            (work, total)
        }
        _ => (busy[..opened.len()].to_vec(), busy.iter().sum()),
    };
    let processes: Vec<usize> = opened
        .iter()
        .map(|adapter| 1 + adapter.processes().more.len())
        .collect();
    if let Some(slowest) = to_grow(&work, &processes, total, most) {
        let adapter = &opened[slowest];
        if let Ok(process) = registry::open(&adapter.identity.id, &process_options(plan).0) {
            adapter.processes().more.push(process);
        }
    }
}

/// [`grow`]'s rule: of the adapters that did `work` on a chunk with `processes` each, the one
/// whose processes each did the most, when it has fewer than `most` and each of its processes did
/// more than `total` (the chunk's whole work) divided by twice `most`.
fn to_grow(work: &[Duration], processes: &[usize], total: Duration, most: usize) -> Option<usize> {
    let (slowest, each) = work
        .iter()
        .zip(processes)
        .map(|(work, &n)| *work / n.max(1) as u32)
        .enumerate()
        .max_by_key(|&(_, each)| each)?;
    (processes[slowest] < most && each > total / (2 * most as u32)).then_some(slowest)
}

/// Opens every adapter of the plan (and a second process of each when determinism is tested).
fn open_adapters(plan: &Plan) -> (Vec<Opened>, Vec<Unavailable>) {
    let (first_options, second_options) = process_options(plan);
    let mut opened = Vec::new();
    let mut unavailable = Vec::new();
    for id in &plan.adapters {
        match registry::open(id, &first_options) {
            Ok(first) => {
                let second = match plan.determinism {
                    Determinism::Off => None,
                    _ => registry::open(id, &second_options).ok(),
                };
                let more = match plan.scheduling {
                    Scheduling::Fixed(n) if plan.parallel => (1..n)
                        .filter_map(|_| registry::open(id, &first_options).ok())
                        .collect(),
                    _ => Vec::new(),
                };
                opened.push(Opened {
                    identity: first.identity().clone(),
                    processes: std::sync::Mutex::new(Processes {
                        first,
                        more,
                        second,
                    }),
                });
            }
            Err(why) => unavailable.push(why),
        }
    }
    (opened, unavailable)
}

/// The knob and deviation ids each adapter's ledger names (by adapter position).
fn ledger_ids(plan: &Plan, opened: &[Opened]) -> Vec<Vec<String>> {
    opened
        .iter()
        .map(|adapter| {
            let Some(dir) = &plan.ledgers else {
                return Vec::new();
            };
            match Ledger::load(dir, &adapter.identity.id) {
                Ok(ledger) => {
                    let mut ids: Vec<String> = ledger
                        .entries
                        .values()
                        .filter_map(|e| e.id.clone())
                        .collect();
                    ids.sort();
                    ids.dedup();
                    ids
                }
                Err(_) => Vec::new(),
            }
        })
        .collect()
}

/// The oracle and every adapter answer every file of the chunk: side by side when the plan is
/// parallel (each adapter's processes and the oracle's threads taking pieces of the chunk from a
/// queue of their own), else one after another. Returns each adapter's busy time on the chunk
/// (opening order), then the oracle's.
fn answer_all(
    work: &mut [Work],
    opened: &[Opened],
    plan: &Plan,
    timing: &mut Timing,
) -> Vec<Duration> {
    let determinism = plan.determinism;
    let shared: &[Work] = work;
    let pieces: Vec<std::ops::Range<usize>> = (0..shared.len())
        .step_by(PIECE)
        .map(|start| start..(start + PIECE).min(shared.len()))
        .collect();
    let sampled: Vec<usize> = (0..shared.len())
        .filter(|&i| determinism.takes(&shared[i].file.id))
        .collect();
    // A file's answers, and another list when there is one (the second process's answers, or
    // the answers on the body without the AI-usage lines).
    type Pair = (Vec<Answer>, Option<Vec<Answer>>);
    // Per file, each adapter's ((first process, second process), first process without the
    // AI-usage lines) answers; and its busy time.
    type Answered = (Vec<(Pair, Option<Vec<Answer>>)>, Duration);
    let answer_adapter = |adapter: &Opened| -> Answered {
        let identity: &Identity = &adapter.identity;
        let mut processes = adapter.processes();
        let Processes {
            first,
            more,
            second,
        } = &mut *processes;
        // (first process, without the AI-usage lines)
        let mut firsts: Vec<Option<Pair>> = vec![None; shared.len()];
        let mut busy = Duration::ZERO;
        let next = std::sync::atomic::AtomicUsize::new(0);
        // One process takes pieces until the queue is empty.
        let take = |process: &mut Box<dyn Adapter>| {
            let mut got = Vec::new();
            let start = Instant::now();
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(range) = pieces.get(k) else {
                    break;
                };
                let answers = ask(process.as_mut(), identity, shared[range.clone()].iter());
                let removed = ask_removed(process.as_mut(), identity, shared[range.clone()].iter());
                got.push((range.start, answers.into_iter().zip(removed)));
            }
            (got, start.elapsed())
        };
        let second_answers = |process: &mut Box<dyn Adapter>| {
            let start = Instant::now();
            let again = ask(
                process.as_mut(),
                identity,
                sampled.iter().map(|&i| &shared[i]),
            );
            (again, start.elapsed())
        };
        let (taken, again) = if !plan.parallel || (more.is_empty() && second.is_none()) {
            (vec![take(first)], second.as_mut().map(&second_answers))
        } else {
            std::thread::scope(|scope| {
                let again = second.as_mut().map(|p| scope.spawn(|| second_answers(p)));
                let others: Vec<_> = more.iter_mut().map(|p| scope.spawn(|| take(p))).collect();
                let mut taken = vec![take(first)];
                taken.extend(
                    others
                        .into_iter()
                        .map(|t| t.join().expect("adapter thread")),
                );
                (
                    taken,
                    again.map(|t| t.join().expect("second process thread")),
                )
            })
        };
        for (got, time) in taken {
            busy += time;
            for (start, answers) in got {
                for (offset, answers) in answers.into_iter().enumerate() {
                    firsts[start + offset] = Some(answers);
                }
            }
        }
        let mut seconds: Vec<Option<Vec<Answer>>> = vec![None; shared.len()];
        if let Some((again, time)) = again {
            busy += time;
            for (&i, answers) in sampled.iter().zip(again) {
                seconds[i] = Some(answers);
            }
        }
        let answers = firsts
            .into_iter()
            .map(|a| a.expect("every piece was taken"))
            .zip(seconds)
            .map(|((first, removed), second)| ((first, second), removed))
            .collect();
        (answers, busy)
    };
    let answer_oracle = |threads: usize| {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let take = || {
            let start = Instant::now();
            let mut got = Vec::new();
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(range) = pieces.get(k) else {
                    break;
                };
                got.push((
                    range.start,
                    shared[range.clone()]
                        .iter()
                        .map(oracle_verdicts)
                        .collect::<Vec<_>>(),
                ));
            }
            (got, start.elapsed())
        };
        let taken: Vec<_> = if threads <= 1 {
            vec![take()]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|_| scope.spawn(take)).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("oracle thread"))
                    .collect()
            })
        };
        let mut verdicts: Vec<Vec<[Option<Verdict>; 4]>> = vec![Vec::new(); shared.len()];
        let mut busy = Duration::ZERO;
        for (got, time) in taken {
            busy += time;
            for (start, per_file) in got {
                for (offset, v) in per_file.into_iter().enumerate() {
                    verdicts[start + offset] = v;
                }
            }
        }
        (verdicts, busy)
    };
    let ((oracle, oracle_time), answers): (_, Vec<Answered>) = if plan.parallel {
        std::thread::scope(|scope| {
            let oracle = scope.spawn(|| answer_oracle(plan.scheduling.most()));
            let threads: Vec<_> = opened
                .iter()
                .map(|adapter| scope.spawn(|| answer_adapter(adapter)))
                .collect();
            let answers: Vec<_> = threads
                .into_iter()
                .map(|t| t.join().expect("adapter thread"))
                .collect();
            (oracle.join().expect("oracle thread"), answers)
        })
    } else {
        let oracle = answer_oracle(1);
        let answers: Vec<_> = opened.iter().map(answer_adapter).collect();
        (oracle, answers)
    };
    timing.oracle += oracle_time;
    let mut busy = Vec::new();
    for (adapter, (_, time)) in opened.iter().zip(&answers) {
        *timing
            .adapters
            .entry(adapter.identity.id.clone())
            .or_default() += *time;
        busy.push(*time);
    }
    busy.push(oracle_time);
    for (i, (w, verdicts)) in work.iter_mut().zip(oracle).enumerate() {
        w.oracle = verdicts;
        for (per_adapter, _) in &answers {
            let ((first, second), removed) = per_adapter[i].clone();
            w.answers.push(first);
            w.second.push(second);
            w.removed.push(removed);
        }
    }
    busy
}

/// An adapter's answers to the checks of each file, asked all at once; a check with a fetch
/// outcome the adapter does not take is `unsupported` without asking.
fn ask<'w>(
    adapter: &mut dyn Adapter,
    identity: &Identity,
    work: impl Iterator<Item = &'w Work>,
) -> Vec<Vec<Answer>> {
    ask_bodies(adapter, identity, work.map(|w| (w, &w.file.body[..])))
}

/// [`ask`] on the files that carry AI-usage lines, with those lines removed: per file, `None`
/// when it has none (nothing to ask).
fn ask_removed<'w>(
    adapter: &mut dyn Adapter,
    identity: &Identity,
    work: impl Iterator<Item = &'w Work>,
) -> Vec<Option<Vec<Answer>>> {
    let work: Vec<&Work> = work.collect();
    let mut answered = ask_bodies(
        adapter,
        identity,
        work.iter()
            .filter(|w| w.ai_usage.count() > 0)
            .map(|w| (*w, &w.ai_usage.removed[..])),
    )
    .into_iter();
    work.iter()
        .map(|w| (w.ai_usage.count() > 0).then(|| answered.next().expect("one list per file")))
        .collect()
}

/// [`ask`] with the body given beside each file.
fn ask_bodies<'w>(
    adapter: &mut dyn Adapter,
    identity: &Identity,
    work: impl Iterator<Item = (&'w Work, &'w [u8])>,
) -> Vec<Vec<Answer>> {
    let (work, bodies): (Vec<&Work>, Vec<&[u8]>) = work.unzip();
    let skipped: Vec<Option<Answer>> = work
        .iter()
        .map(|w| robotstxt_matrix::ask::not_asked(identity, w.file.fetch, None, false))
        .collect();
    let items: Vec<(&[u8], &[Query])> = work
        .iter()
        .zip(&bodies)
        .zip(&skipped)
        .filter(|(_, skip)| skip.is_none())
        .map(|((w, body), _)| (*body, &w.queries[..]))
        .collect();
    let mut answered = adapter.answer_many(&items).into_iter();
    work.iter()
        .zip(skipped)
        .map(|(w, skip)| match skip {
            Some(answer) => vec![answer; w.queries.len()],
            None => answered.next().expect("one answer list per item"),
        })
        .collect()
}

/// The oracle's verdicts on every check of a file, per profile; a panic is caught and counted.
fn oracle_verdicts(w: &Work) -> Vec<[Option<Verdict>; 4]> {
    oracle_verdicts_on(w, &w.file.body)
}

/// [`oracle_verdicts`] with another body in place of the file's.
fn oracle_verdicts_on(w: &Work, body: &[u8]) -> Vec<[Option<Verdict>; 4]> {
    let requests: Vec<Request<'_>> = w
        .queries
        .iter()
        .map(|q| {
            let request = Request::new(body, &q.agent, &q.url).with_fetch(w.file.fetch);
            match &w.file.robots_url {
                Some(robots_url) => request.with_robots_url(robots_url),
                None => request,
            }
        })
        .collect();
    let asks: Vec<(&[ProfileId], &Request<'_>)> =
        requests.iter().map(|r| (&ProfileId::ALL[..], r)).collect();
    match catch_unwind(AssertUnwindSafe(|| verdicts_on_one_body(&asks))) {
        Ok(all) => all
            .into_iter()
            .map(|v| [Some(v[0]), Some(v[1]), Some(v[2]), Some(v[3])])
            .collect(),
        Err(_) => requests
            .iter()
            .map(|r| ProfileId::ALL.map(|p| catch_unwind(AssertUnwindSafe(|| verdict(p, r))).ok()))
            .collect(),
    }
}

/// The oracle's request for one check of a file.
fn request_of<'a>(file: &'a RealFile, agent: &'a str, url: &'a str) -> Request<'a> {
    let request = Request::new(&file.body, agent, url).with_fetch(file.fetch);
    match &file.robots_url {
        Some(robots_url) => request.with_robots_url(robots_url),
        None => request,
    }
}

/// The causes of a file's divergences, by (profile index, check number, answer is `allowed`):
/// adapters claiming the same profile and giving the same answer share one.
type Causes = BTreeMap<(usize, usize, bool), Option<Vec<Change>>>;

/// The divergences of a file from each adapter's claimed profile (`claimed`, by adapter position):
/// (profile, check, allowed).
fn divergences(w: &Work, claimed: &[ProfileId]) -> Vec<(ProfileId, usize, bool)> {
    let mut out = Vec::new();
    for (a, &profile) in claimed.iter().enumerate() {
        for (n, (answer, verdicts)) in w.answers[a].iter().zip(&w.oracle).enumerate() {
            if let (Some(got), Some(expected)) = (answer.verdict(), verdicts[profile.index()]) {
                if matches!(expected, Verdict::Allowed | Verdict::Disallowed) && got != expected {
                    out.push((profile, n, got == Verdict::Allowed));
                }
            }
        }
    }
    out.sort_by_key(|&(p, n, allowed)| (p.index(), n, allowed));
    out.dedup();
    out
}

/// The causes of every file's divergences: the files split between threads when `parallel` (the
/// cause search is the run's largest cost of its own).
fn causes_of_chunk(work: &[Work], opened: &[Opened], parallel: bool) -> Vec<Causes> {
    let claimed: Vec<ProfileId> = opened.iter().map(|a| a.identity.profile).collect();
    let claimed = &claimed;
    let of_file = |w: &Work| -> Causes {
        divergences(w, claimed)
            .into_iter()
            .map(|(profile, n, allowed)| {
                let query = &w.queries[n];
                let request = request_of(&w.file, &query.agent, &query.url);
                let cause = catch_unwind(AssertUnwindSafe(|| cause_of(profile, &request, allowed)))
                    .unwrap_or(None);
                ((profile.index(), n, allowed), cause)
            })
            .collect()
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if !parallel || threads == 1 || work.len() < 2 {
        return work.iter().map(of_file).collect();
    }
    let per_thread = work.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = work
            .chunks(per_thread)
            .map(|part| scope.spawn(move || part.iter().map(of_file).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("cause thread"))
            .collect()
    })
}

/// Adds one answered file to the results.
fn tally_file(
    w: &Work,
    opened: &[Opened],
    causes: &Causes,
    ledger_ids: &[Vec<String>],
    results: &mut Results,
    candidates: &mut BTreeMap<String, Candidate>,
) {
    let id = &w.file.id;
    results.files += 1;
    results.checks += w.queries.len() as u64;
    for kind in &w.kinds {
        *results
            .checks_by_kind
            .entry(kind.name().to_string())
            .or_default() += 1;
    }
    for fact in facts::of(&w.file) {
        *results.facts.entry(fact.to_string()).or_default() += 1;
    }
    let asked = |p: ProfileId| results_has(&results.profiles, p);
    let reported: Vec<ProfileId> = ProfileId::ALL.into_iter().filter(|&p| asked(p)).collect();
    for &profile in &reported {
        let tally = results
            .oracle
            .entry(profile.name().to_string())
            .or_default();
        for verdicts in &w.oracle {
            match verdicts[profile.index()] {
                Some(Verdict::Allowed) => tally.allowed += 1,
                Some(Verdict::Disallowed) => tally.disallowed += 1,
                Some(Verdict::Either) => tally.either += 1,
                Some(Verdict::NotGoverned) => tally.not_governed += 1,
                None => tally.panics += 1,
            }
        }
    }
    if w.second.iter().any(Option::is_some) {
        results.determinism_files += 1;
    }
    tally_ai_usage_files(w, &reported, results);
    // Causes are shared by adapters claiming the same profile and giving the same answer.
    for (a, adapter) in opened.iter().enumerate() {
        let answers = &w.answers[a];
        let identity = &adapter.identity;
        let tally = results
            .adapters
            .get_mut(&identity.id)
            .expect("opened adapters have tallies");
        tally_answers(tally, id, answers, w.second[a].as_deref());
        if let Some(removed) = &w.removed[a] {
            tally_ai_usage_removed(&mut tally.ai_usage_removed, w, answers, removed);
        }
        for &profile in &reported {
            let checks = answers.iter().zip(&w.oracle).zip(&w.kinds).map(
                |((answer, verdicts), &kind)| match (answer.verdict(), verdicts[profile.index()]) {
                    (Some(got), Some(expected @ (Verdict::Allowed | Verdict::Disallowed))) => {
                        (kind, Some(got != expected))
                    }
                    _ => (kind, None),
                },
            );
            tally.add_compared(profile.name(), checks);
        }
        // Buckets: divergences from the claimed profile's definite verdict.
        let profile = identity.profile;
        let mut buckets_seen: Vec<String> = Vec::new();
        let mut kinds_seen: Vec<(String, UrlKind)> = Vec::new();
        for (n, (answer, verdicts)) in answers.iter().zip(&w.oracle).enumerate() {
            let (Some(got), Some(expected)) = (answer.verdict(), verdicts[profile.index()]) else {
                continue;
            };
            if !matches!(expected, Verdict::Allowed | Verdict::Disallowed) || got == expected {
                continue;
            }
            let allowed = got == Verdict::Allowed;
            let query = &w.queries[n];
            let changes = causes[&(profile.index(), n, allowed)].clone();
            let cause = cause_label(changes.as_deref());
            let key = format!("{}|{cause}", identity.id);
            let bucket = results
                .buckets
                .entry(key.clone())
                .or_insert_with(|| Bucket {
                    adapter: identity.id.clone(),
                    profile: profile.name().to_string(),
                    citations: citations(changes.as_deref(), profile),
                    in_ledger: ledger_ids[a].contains(&cause),
                    cause: cause.clone(),
                    ..Bucket::default()
                });
            bucket.checks += 1;
            bucket.allowed += u64::from(allowed);
            if !buckets_seen.contains(&key) {
                bucket.files.add(id);
                buckets_seen.push(key.clone());
            }
            let kind = w.kinds[n];
            let by_kind = bucket.by_kind.entry(kind.name().to_string()).or_default();
            by_kind.checks += 1;
            if !kinds_seen.contains(&(key.clone(), kind)) {
                by_kind.files += 1;
                kinds_seen.push((key.clone(), kind));
            }
            let candidate = Candidate {
                file: id.clone(),
                check: n as u64,
                body: w.file.body.clone(),
                agent: query.agent.clone(),
                url: query.url.clone(),
                fetch: w.file.fetch,
                adapter: a,
                profile,
                expected,
                allowed,
                changes,
                others: Vec::new(),
            };
            match candidates.get(&key) {
                Some(c) if (c.file.as_str(), c.check) <= (id.as_str(), n as u64) => {}
                _ => {
                    let others = w
                        .queries
                        .iter()
                        .zip(answers)
                        .map(|(q, a)| {
                            let allowed = a.verdict().map(|v| v == Verdict::Allowed);
                            (q.agent.clone(), q.url.clone(), allowed)
                        })
                        .collect();
                    candidates.insert(
                        key,
                        Candidate {
                            others,
                            ..candidate
                        },
                    );
                }
            }
        }
    }
    // Pairs of adapters.
    for a in 0..opened.len() {
        for b in a + 1..opened.len() {
            let (ida, idb) = (&opened[a].identity.id, &opened[b].identity.id);
            let key = if ida <= idb {
                format!("{ida}|{idb}")
            } else {
                format!("{idb}|{ida}")
            };
            let (mut both, mut differ) = (0, 0);
            for (x, y) in w.answers[a].iter().zip(&w.answers[b]) {
                if let (Some(x), Some(y)) = (x.verdict(), y.verdict()) {
                    both += 1;
                    differ += u64::from(x != y);
                }
            }
            results.pairs.entry(key).or_default().add_file(both, differ);
        }
    }
}

/// Adds a file's AI-usage lines to the results, and the oracle's verdicts on it with and without
/// them under each reported profile.
fn tally_ai_usage_files(w: &Work, reported: &[ProfileId], results: &mut Results) {
    let found = &w.ai_usage;
    let ai = &mut results.ai_usage;
    ai.without_colon += found.without_colon;
    ai.files_without_colon += u64::from(found.without_colon > 0);
    if found.count() == 0 {
        return;
    }
    ai.files.add(&w.file.id);
    ai.content_usage += found.content_usage;
    ai.content_signal += found.content_signal;
    let without = oracle_verdicts_on(w, &found.removed);
    for &profile in reported {
        let (mut both, mut differ) = (0, 0);
        for (with, without) in w.oracle.iter().zip(&without) {
            if let (Some(x), Some(y)) = (with[profile.index()], without[profile.index()]) {
                both += 1;
                differ += u64::from(x != y);
            }
        }
        ai.oracle
            .entry(profile.name().to_string())
            .or_default()
            .add_file(both, differ);
    }
}

/// Adds one adapter's answers on a file with AI-usage lines (`answers`) and on the file without
/// them (`removed`): the checks both answered with a verdict are compared; every other check is
/// counted as not compared, by what the ask without a verdict gave (the file as it is first),
/// never as unchanged.
fn tally_ai_usage_removed(
    tally: &mut crate::tally::AiUsageRemoved,
    w: &Work,
    answers: &[Answer],
    removed: &[Answer],
) {
    use robotstxt_adapters::subprocess::is_not_asked;
    let what = |a: &Answer| {
        if is_not_asked(a) {
            "not asked".to_string()
        } else {
            a.kind().to_string()
        }
    };
    tally.files += 1;
    tally.checks += w.queries.len() as u64;
    let (mut both, mut differ) = (0, 0);
    for (n, (with, without)) in answers.iter().zip(removed).enumerate() {
        match (with.verdict(), without.verdict()) {
            (Some(x), Some(y)) => {
                both += 1;
                if x == y {
                    continue;
                }
                differ += 1;
                let query = &w.queries[n];
                tally.add_example(crate::tally::AiUsageChange {
                    file: w.file.id.clone(),
                    check: n as u64,
                    agent: query.agent.clone(),
                    url: query.url.clone(),
                    with_lines: x.name().to_string(),
                    without_lines: y.name().to_string(),
                    lines: w.ai_usage.lines.iter().take(3).map(|l| escape(l)).collect(),
                });
            }
            (None, _) => {
                *tally
                    .not_compared
                    .entry(format!("{} with the lines", what(with)))
                    .or_default() += 1;
            }
            (Some(_), None) => {
                *tally
                    .not_compared
                    .entry(format!("{} without the lines", what(without)))
                    .or_default() += 1;
            }
        }
    }
    // Answer lists of another length than the checks (never from a working adapter) leave
    // checks unanswered on one side: counted, never compared.
    let missing = answers.len().abs_diff(removed.len()) as u64;
    if missing > 0 {
        let side = if removed.len() < answers.len() {
            "without"
        } else {
            "with"
        };
        *tally
            .not_compared
            .entry(format!("no answer {side} the lines"))
            .or_default() += missing;
    }
    tally.compared.add_file(both, differ);
    if differ > 0 {
        tally.changed.add(&w.file.id);
    }
}

/// Adds one file's answers (`answers`, and `second`, the second process's, when it was asked
/// twice) to an adapter's tally: the kinds, what was answered, the failures, the checks not asked
/// (the adapter declared hung or broken: not failures of the file) and nondeterminism, which
/// compares only files both asks answered with a reading throughout.
fn tally_answers(
    tally: &mut crate::tally::AdapterTally,
    id: &str,
    answers: &[Answer],
    second: Option<&[Answer]>,
) {
    use robotstxt_adapters::subprocess::is_not_asked;
    use robotstxt_differential::signature::normalise_message;
    let reading = |a: &Answer| a.verdict().is_some() || matches!(a, Answer::Unsupported { .. });
    tally.files += 1;
    tally.checks += answers.len() as u64;
    let answered = answers.iter().filter(|a| reading(a)).count() as u64;
    tally.answered.checks += answered;
    tally.answered.files += u64::from(answered == answers.len() as u64);
    let mut failures_seen: Vec<String> = Vec::new();
    let mut not_asked_seen: Vec<String> = Vec::new();
    for answer in answers {
        if is_not_asked(answer) {
            *tally.answers.entry("not-asked".to_string()).or_default() += 1;
            // The reason without its details (a timeout, lines written): one entry per kind.
            let detail = answer.detail().unwrap_or_default();
            let detail = detail.strip_prefix("not asked: ").unwrap_or(detail);
            let why = detail
                .split([':', '('])
                .next()
                .unwrap_or(detail)
                .trim()
                .to_string();
            if !not_asked_seen.contains(&why) {
                tally.not_asked.entry(why.clone()).or_default().add(id);
                not_asked_seen.push(why);
            }
            continue;
        }
        *tally.answers.entry(answer.kind().to_string()).or_default() += 1;
        if matches!(
            answer,
            Answer::Error { .. } | Answer::Crash { .. } | Answer::Timeout { .. }
        ) {
            let message = normalise_message(answer.detail().unwrap_or_default());
            let what = format!("{}: {message}", answer.kind());
            if !failures_seen.contains(&what) {
                tally.failures.entry(what.clone()).or_default().add(id);
                failures_seen.push(what);
            }
        }
    }
    if !failures_seen.is_empty() {
        tally.failed_files.add(id);
    }
    // A failure or a check not asked in either ask is not nondeterminism: a fresh process that
    // answers where the first timed out or was not asked says nothing about the parser's reading.
    if let Some(second) = second {
        let definite = |all: &[Answer]| all.iter().all(reading);
        if definite(answers) && definite(second) && second != answers {
            tally.nondeterministic.add(id);
        }
    }
}

fn results_has(profiles: &[String], profile: ProfileId) -> bool {
    profiles.iter().any(|p| p == profile.name())
}

/// Where each part of a cause is written down.
fn citations(changes: Option<&[Change]>, profile: ProfileId) -> Vec<String> {
    let Some(changes) = changes else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for change in changes {
        match change {
            Change::Deviation(d) => {
                for sentence in d.entry().breaks {
                    out.push(format!("{}: {sentence}", d.id()));
                }
            }
            _ => out.push(format!(
                "{}: {}",
                change.label(),
                citation_for(change.label(), profile)
            )),
        }
    }
    out
}

/// A bucket's example, minimised with the fuzzer's minimiser while the adapter still answers the
/// same, the profile still says otherwise, and the same cause still explains it; then examined
/// ([`robotstxt_oracle::examine`]): its candidate credited with the evidence of its neighbours and
/// the adapter's answers to the file's other checks, or its behaviour group.
fn minimised_example(
    c: &Candidate,
    adapter: &mut Opened,
    sample: &mut robotstxt_oracle::evidence::OtherAnswers,
) -> Example {
    let mut example = Example {
        file: c.file.clone(),
        check: c.check,
        agent: c.agent.clone(),
        url: c.url.clone(),
        status: match c.fetch {
            Fetch::Status { status, .. } => status,
            Fetch::Unreachable => 0,
        },
        expected: c.expected.name().to_string(),
        got: if c.allowed { "allowed" } else { "disallowed" }.to_string(),
        original_octets: c.body.len() as u64,
        ..Example::default()
    };
    if c.fetch != Fetch::default() {
        // The fetch outcome decides; the minimiser works on 200 bodies.
        example.body = escape(&c.body[..c.body.len().min(UNMINIMISED_OCTETS)]);
        return example;
    }
    let identity = adapter.identity.clone();
    let got = if c.allowed {
        Verdict::Allowed
    } else {
        Verdict::Disallowed
    };
    // The oracle's side of the test: the profile still says otherwise, for the same cause.
    let oracle_keeps = |input: &Input| {
        let request = input.request();
        catch_unwind(AssertUnwindSafe(|| {
            verdict(c.profile, &request) == c.expected
                && match &c.changes {
                    Some(changes) => explains(c.profile, &request, c.allowed, changes),
                    None => cause_of(c.profile, &request, c.allowed).is_none(),
                }
        }))
        .unwrap_or(false)
    };
    // A round of candidates goes to the adapter at once (one round trip for an adapter process).
    let mut first_kept = |candidates: &[Input]| {
        let queries: Vec<[Query; 1]> = candidates
            .iter()
            .map(|i| [Query::new(&i.agent, &i.url)])
            .collect();
        let items: Vec<(&[u8], &[Query])> = candidates
            .iter()
            .zip(&queries)
            .map(|(i, q)| (&i.body[..], &q[..]))
            .collect();
        let answers = adapter
            .processes
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .first
            .answer_many(&items);
        candidates.iter().zip(answers).position(|(input, answer)| {
            answer.first().and_then(Answer::verdict) == Some(got) && oracle_keeps(input)
        })
    };
    let input = Input {
        body: c.body.clone(),
        agent: c.agent.clone(),
        url: c.url.clone(),
    };
    if first_kept(std::slice::from_ref(&input)).is_none() {
        // The adapter answers differently alone (or now): keep the original, unminimised.
        example.body = escape(&c.body[..c.body.len().min(UNMINIMISED_OCTETS)]);
        return example;
    }
    let budget = (MINIMISE_OCTETS / c.body.len().max(1)).clamp(8, MINIMISE_BUDGET);
    let small = minimize_batched(&input, &mut first_kept, budget);
    let answer = if c.allowed {
        Answer::Allowed
    } else {
        Answer::Disallowed
    };
    let sighting = Sighting {
        signature: Signature {
            kind: "adapter-vs-profile",
            adapter: identity.id.clone(),
            other: None,
            cause: cause_label(c.changes.as_deref()),
        },
        profile: c.profile.name(),
        expected: c.expected.name(),
        got: answer.kind().to_string(),
        changes: c.changes.clone(),
    };
    let observation = Observation {
        oracle: verdicts_all(&small.request()).map(Some),
        answers: vec![answer.clone()],
        seconds: Vec::new(),
    };
    example.agent = small.agent.clone();
    example.url = small.url.clone();
    let examination = examine_example(c, &small, adapter, sample);
    example.cause = examination.label();
    example.evidence = examination.words();
    if small.body.len() > UNMINIMISED_OCTETS {
        // Still large (the divergence needs the body's size): no case, the body's start.
        example.body = escape(&small.body[..UNMINIMISED_OCTETS]);
        return example;
    }
    example.case_yaml = case_yaml(
        &sighting,
        &small,
        &observation,
        &[(identity.id.clone(), answer)],
        Some(&example.evidence),
    )
    .replace(
        "Found by `robotstxt-conformance fuzz`",
        "Found by `robotstxt-conformance realworld` (minimised from a real file)",
    )
    .replace("title: \"Fuzz finding:", "title: \"Real-world finding:")
    .replace("tags: [fuzz-finding,", "tags: [realworld-finding,");
    example.body = escape(&small.body);
    example.minimised = true;
    example
}

/// Examines a minimised example `small` of candidate `c`: its neighbours are asked of the adapter
/// in one round trip; the other answers are the adapter's to `sample` (the corpus's checks and a
/// sample of their neighbours) and to the file's other checks.
fn examine_example(
    c: &Candidate,
    small: &Input,
    adapter: &mut Opened,
    sample: &mut robotstxt_oracle::evidence::OtherAnswers,
) -> robotstxt_oracle::examine::Examination {
    let mut others = robotstxt_oracle::evidence::OtherAnswers::none();
    for (agent, url, allowed) in &c.others {
        others.push(&c.body, agent, url, *allowed);
    }
    let mut ask = |neighbours: &[robotstxt_oracle::evidence::Neighbour]| {
        let queries: Vec<[Query; 1]> = neighbours
            .iter()
            .map(|n| [Query::new(&n.agent, &n.url)])
            .collect();
        let items: Vec<(&[u8], &[Query])> = neighbours
            .iter()
            .zip(&queries)
            .map(|(n, q)| (&n.body[..], &q[..]))
            .collect();
        adapter
            .processes
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .first
            .answer_many(&items)
            .iter()
            .map(|a| {
                a.first()
                    .and_then(Answer::verdict)
                    .map(|v| v == Verdict::Allowed)
            })
            .collect()
    };
    // The minimiser kept the adapter's answer: `c.allowed` on the minimal input too.
    robotstxt_oracle::examine::examine(
        c.profile,
        &small.request(),
        c.allowed,
        &mut ask,
        &mut [sample, &mut others],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issue's measurement: one parser 49% of all parsers' CPU time, the rest spread thin.
    /// Each of its processes does more than a quarter of the chunk's work (two cores), so it gets
    /// a second process; once it has one per core, nothing grows; a parser spread as thin as the
    /// rest never grows. (The rule before compared the busy wall time with half the chunk's work,
    /// which a parser at 49% never exceeds, so it kept one process and ended every chunk alone.)
    #[test]
    fn the_parser_whose_processes_each_do_the_most_gets_one_more() {
        let ms = Duration::from_millis;
        let work = [
            ms(490),
            ms(100),
            ms(90),
            ms(80),
            ms(70),
            ms(60),
            ms(60),
            ms(50),
        ];
        let total = work.iter().sum::<Duration>();
        assert_eq!(to_grow(&work, &[1; 8], total, 2), Some(0));
        assert_eq!(to_grow(&work, &[2, 1, 1, 1, 1, 1, 1, 1], total, 2), None);
        let even = [ms(125); 8];
        assert_eq!(to_grow(&even, &[1; 8], even.iter().sum(), 2), None);
        // One core: never.
        assert_eq!(to_grow(&work, &[1; 8], total, 1), None);
    }

    /// A run measures each adapter process's CPU time: a parser that burns CPU on every file gets
    /// a second process after the first chunk, a fast one keeps one, and the results are the
    /// same as with one process each. Work is counted (CPU time), not timed.
    #[test]
    fn the_slowest_parser_gets_a_process_per_core_and_the_results_do_not_change() {
        let dir = tempfile::tempdir().unwrap();
        let files = dir.path().join("files");
        std::fs::create_dir(&files).unwrap();
        for i in 0..(2 * CHUNK + 5) {
            std::fs::write(
                files.join(format!("site{i:03}.example")),
                format!("User-agent: *\nDisallow: /p{i}\n"),
            )
            .unwrap();
        }
        // Two adapter processes, so that both are measured by their CPU time: `slow` burns 20 ms
        // of CPU on every one of these files (a body exactly as written here), `fast` none. Both
        // answer as RFC 9309 does on these files (disallowed where the path, escapes decoded,
        // starts with the rule's), so the run has no bucket to examine: an example's examination
        // asks thousands of questions about the corpus's bodies first (in these Python programs,
        // most of this test's time when they answered `allowed` throughout).
        let adapter = |name: &str, burn: f64| {
            let program = dir.path().join(format!("{name}.py"));
            std::fs::write(
                &program,
                format!(
                    r#"import json, re, sys, time, urllib.parse
print(json.dumps({{"protocol": "robotstxt-adapter/1", "id": "{name}", "library": "{name}",
    "version": "1", "language": "Python", "licence": "MIT", "source": "a test",
    "profile": "rfc9309", "url": "full"}}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    start = time.process_time()
    body = request.get("body", "")
    burns = re.fullmatch(r"User-agent: \*\nDisallow: /p[0-9]+\n", body)
    while burns and time.process_time() - start < {burn}:
        pass
    rule = re.search(r"Disallow: (\S+)", body)
    for index, check in enumerate(request["checks"]):
        path = urllib.parse.unquote(urllib.parse.urlsplit(check["url"]).path)
        answer = "disallowed" if rule and path.startswith(rule.group(1)) else "allowed"
        print(json.dumps({{"check": index, "answer": answer}}), flush=True)
"#
                ),
            )
            .unwrap();
            robotstxt_adapters::registry::UserAdapter::parse(&format!(
                "{name} = python3 '{}'",
                program.display()
            ))
            .unwrap()
        };
        let options = Options {
            user: vec![adapter("slow", 0.02), adapter("fast", 0.0)],
            timeout: Duration::from_secs(120),
            ..Options::default()
        };
        let plan = |scheduling| Plan {
            sources: vec![Source::from_path(&files)],
            corpus_names: vec!["files".to_string()],
            shard: Shard::ALL,
            limit: None,
            profiles: vec![ProfileId::Rfc9309],
            adapters: vec!["slow".to_string(), "fast".to_string()],
            options: options.clone(),
            determinism: Determinism::Off,
            ledgers: None,
            parallel: true,
            scheduling,
        };
        let (adaptive, unavailable, timing) =
            run(&plan(Scheduling::Adaptive(2)), &mut |_| {}).unwrap();
        assert!(unavailable.is_empty(), "{unavailable:?}");
        assert_eq!(timing.processes["slow"], 2, "{:?}", timing.processes);
        assert_eq!(timing.processes["fast"], 1, "{:?}", timing.processes);
        let (one, _, _) = run(&plan(Scheduling::Fixed(1)), &mut |_| {}).unwrap();
        assert_eq!(adaptive.without_timing(), one.without_timing());
        assert_eq!(adaptive.files, 2 * CHUNK as u64 + 5);
        assert!(adaptive.buckets.is_empty(), "{:?}", adaptive.buckets.keys());
    }
}
