//! The client side of `PROTOCOL.md`: one persistent adapter process, restarted when it dies, hangs
//! or loses step, so that every check gets exactly one answer and a run never stops.
//!
//! A timeout belongs to the input: the process is restarted and asked a trivial probe, and only
//! when it cannot answer that either is the adapter hung ([`HUNG`]); garbled answers on
//! [`BROKEN_AFTER`] different bodies in a row, then on the probe too, make it broken
//! ([`BROKEN`]). Either way its later checks are answered at once, marked as not asked
//! ([`is_not_asked`]).
//!
//! Requests are pipelined: [`Adapter::answer_many`] writes the requests for many bodies (a writer
//! thread feeds the process's standard input) and then reads the answers in order, so a batch
//! costs one round trip, not one per body. The protocol needs nothing more: an adapter reads one
//! request at a time and answers in order, whether or not the next request is already waiting.
//!
//! Each adapter process leads a process group of its own, killed on restart, on drop and, once
//! [`kill_children_on_signals`] is installed, on SIGTERM, SIGINT and SIGHUP: no process an adapter
//! started outlives the run.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::adapter::{Adapter, Answer, Identity, Query, Unavailable};
use crate::protocol::{Handshake, Request, Response, PROTOCOL_VERSION};

/// How long an adapter may take to start and send its handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest output line kept; a longer line is malformed output.
const MAX_LINE: usize = 64 << 20;
/// How many lines of standard error are kept for crash reports.
const STDERR_LINES: usize = 12;
/// How the message of a check not asked because its adapter was declared hung begins: a timeout
/// is the input's, and the process is restarted and asked a trivial probe ([`PROBE_BODY`]); only
/// when the restarted process cannot answer the probe within the timeout either is the adapter
/// hung, and its remaining checks are answered at once with this message instead of being asked.
pub const HUNG: &str = "not asked: the adapter was declared hung";

/// How the message of a check not asked because its adapter was declared broken begins: after
/// [`BROKEN_AFTER`] garbled answers in a row (output the protocol does not allow) on as many
/// different bodies, and a garbled answer to the probe, the adapter is not restarted again.
pub const BROKEN: &str = "not asked: the adapter was declared broken";

/// How many garbled answers in a row, each on another body, make an adapter broken ([`BROKEN`]).
/// A good answer starts the count again; garbled answers on one body count once (a parser that
/// garbles on one input is not broken).
pub const BROKEN_AFTER: usize = 3;

/// How many checks of one body may time out before the body's remaining checks are given up
/// (answered `timeout` without being asked again): a first timeout may be the check's (its URL), a
/// second says the body itself holds the parser up, and asking its other checks would cost a
/// timeout each.
pub const TIMEOUTS_PER_BODY: usize = 2;

/// The body of the probe asked of a restarted process after a timeout: a trivial file every parser
/// answers at once. The probe's answer is not used, only whether there is one.
pub const PROBE_BODY: &[u8] = b"User-agent: *\nDisallow: /private\n";
/// The probe's agent.
pub const PROBE_AGENT: &str = "ProbeBot";
/// The probe's URL.
pub const PROBE_URL: &str = "http://example.com/";

/// What a restarted process did with the probe ([`PROBE_BODY`]).
enum Probe {
    /// It answered, in step.
    Answered,
    /// It wrote this line, which the protocol does not allow there.
    Garbled(Vec<u8>),
    /// No answer within the timeout (`true`), or before the deadline (`false`: says nothing).
    NoAnswer(bool),
    /// It could not be started, or ended without answering.
    Gone,
}

/// How many of the last lines an adapter wrote that the protocol does not allow are kept, to be
/// shown when it is declared broken.
const GARBLED_LINES: usize = 3;

/// The body size that earns a request's first answer one more `--timeout`: the first answer
/// includes parsing the body, which is work in proportion to its size (a 600 KiB body gets ten
/// timeouts), so a slow but working parser is not called hung on the corpus's size-limit files.
pub const BODY_OCTETS_PER_TIMEOUT: usize = 64 * 1024;

/// How long the answer to check `index` of a request with a body of `body_len` octets may take:
/// `timeout`, and for the first check one more `timeout` per [`BODY_OCTETS_PER_TIMEOUT`] octets.
pub fn answer_allowance(timeout: Duration, body_len: usize, index: usize) -> Duration {
    if index > 0 {
        return timeout;
    }
    let extra = u32::try_from(body_len / BODY_OCTETS_PER_TIMEOUT).unwrap_or(u32::MAX);
    timeout.saturating_mul(extra.saturating_add(1))
}

/// How the message of a check not asked because the run's deadline passed begins.
pub const DEADLINE: &str = "not asked: the run's deadline passed";

/// Whether `answer` is a check not asked because its adapter was declared hung (not an
/// observation of the parser: the fuzzer makes no finding of it).
pub fn is_hung(answer: &Answer) -> bool {
    matches!(answer, Answer::Timeout { message } if message.starts_with(HUNG))
}

/// Whether `answer` is a check not asked because its adapter was declared broken ([`BROKEN`]).
pub fn is_broken(answer: &Answer) -> bool {
    matches!(answer, Answer::Error { message } if message.starts_with(BROKEN))
}

/// Whether `answer` is a check not asked because the run's deadline passed ([`DEADLINE`]).
pub fn is_past_deadline(answer: &Answer) -> bool {
    matches!(answer, Answer::Timeout { message } if message.starts_with(DEADLINE))
}

/// Whether `answer` is a check not asked at all: its adapter was declared hung ([`HUNG`]) or
/// broken ([`BROKEN`]), or the run's deadline passed ([`DEADLINE`]). Not an observation of the
/// parser: no finding is made of it, and reports count it as not answered.
pub fn is_not_asked(answer: &Answer) -> bool {
    is_hung(answer) || is_broken(answer) || is_past_deadline(answer)
}

/// An adapter process speaking `robotstxt-adapter/1`.
pub struct Subprocess {
    argv: Vec<String>,
    env: Environment,
    timeout: Duration,
    identity: Identity,
    running: Option<Running>,
    /// Set once a restarted process could not answer the probe: the message every later check
    /// gets.
    hung: Option<String>,
    /// Set once [`BROKEN_AFTER`] garbled answers came in a row and the probe garbled too: the
    /// message every later check gets.
    broken: Option<String>,
    /// The bodies (by hash) of the garbled answers since the last good answer.
    garbled_bodies: Vec<u64>,
    /// The last lines (shortened) that garbled, for the message when it is declared broken.
    garbled_lines: VecDeque<String>,
    /// How many checks the last request sent to the running process had (to recognise its
    /// extra answer arriving during the next call).
    last_request: Option<usize>,
    /// No answer is waited for after this.
    deadline: Option<std::time::Instant>,
    /// CPU time of the processes killed so far (read just before each was killed).
    cpu_of_ended: Duration,
}

/// What an adapter process's environment differs in from this process's.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    /// Variables removed (before `set` is applied).
    pub unset: Vec<String>,
    /// Variables set.
    pub set: Vec<(String, String)>,
}

/// A started process and the threads writing its input and reading its output.
struct Running {
    child: Child,
    /// Request lines for the writer thread, which owns the process's standard input (so that a
    /// process that stops reading never blocks us: the per-check timeout still applies). Dropping
    /// it closes standard input once the queued lines are written.
    requests: Sender<Vec<u8>>,
    lines: Receiver<Line>,
    /// A line read ahead (to look for an extra answer after a request's last) and not used yet.
    pending: Option<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Running {
    /// The next line: the one read ahead, else the next within `timeout`.
    fn next_line(&mut self, timeout: Duration) -> Result<Line, RecvTimeoutError> {
        match self.pending.take() {
            Some(line) => Ok(line),
            None => self.lines.recv_timeout(timeout),
        }
    }
}

/// What the stdout reader thread sends.
enum Line {
    /// A complete line (without its `\n`).
    Text(Vec<u8>),
    /// End of output, or a read error.
    End(String),
}

impl Subprocess {
    /// Starts `argv` and reads its handshake. The adapter is unavailable when it cannot be started
    /// or its handshake is missing, late or malformed.
    pub fn start(
        id: &str,
        argv: Vec<String>,
        timeout: Duration,
    ) -> Result<Subprocess, Unavailable> {
        Subprocess::start_with_env(id, argv, Environment::default(), timeout)
    }

    /// [`Subprocess::start`] with the process's environment (and every restart's) changed by `env`.
    pub fn start_with_env(
        id: &str,
        argv: Vec<String>,
        env: Environment,
        timeout: Duration,
    ) -> Result<Subprocess, Unavailable> {
        let unavailable = |reason: String| Unavailable {
            id: id.to_string(),
            reason,
            fix: format!("run `{}` by hand and check its first line", argv.join(" ")),
        };
        let (running, handshake) = spawn(&argv, &env).map_err(unavailable)?;
        let mut identity = handshake.identity();
        // The id the suite knows it by wins: it names ledgers and columns.
        identity.id = id.to_string();
        Ok(Subprocess {
            argv,
            env,
            timeout,
            identity,
            running: Some(running),
            hung: None,
            broken: None,
            garbled_bodies: Vec::new(),
            garbled_lines: VecDeque::new(),
            last_request: None,
            deadline: None,
            cpu_of_ended: Duration::ZERO,
        })
    }

    /// Whether the adapter was declared hung (a restarted process did not answer the probe).
    pub fn is_hung(&self) -> bool {
        self.hung.is_some()
    }

    /// Whether the adapter was declared broken ([`BROKEN_AFTER`] garbled answers in a row).
    pub fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// Counts a garbled answer (`line`, what it wrote) to a check of `body` (the process already
    /// killed, or about to be). At the [`BROKEN_AFTER`]th body in a row a restarted process is
    /// asked the trivial probe: when it garbles that too the adapter is declared broken; when it
    /// answers, the garbling is the inputs' (a parser that garbles on some inputs, as a minimiser's
    /// candidates may all be), and the count starts again. Returns whether it was declared broken.
    fn garbled(&mut self, body: &[u8], line: &[u8]) -> bool {
        let hash = body_hash(body);
        if !self.garbled_bodies.contains(&hash) {
            self.garbled_bodies.push(hash);
        }
        if self.garbled_lines.len() == GARBLED_LINES {
            self.garbled_lines.pop_front();
        }
        self.garbled_lines.push_back(shorten(line, 200));
        if self.garbled_bodies.len() < BROKEN_AFTER {
            return false;
        }
        self.kill();
        match self.probe() {
            Probe::Garbled(line) => {
                if self.garbled_lines.len() == GARBLED_LINES {
                    self.garbled_lines.pop_front();
                }
                self.garbled_lines.push_back(shorten(&line, 200));
            }
            Probe::Answered | Probe::NoAnswer(_) | Probe::Gone => {
                self.answered_well();
                return false;
            }
        }
        self.broken = Some(format!(
            "{BROKEN} after {BROKEN_AFTER} garbled answers in a row on different bodies and a \
             garbled answer to a trivial probe body (output the protocol does not allow; \
             adapters/PROTOCOL.md); the last lines it wrote: {}",
            self.garbled_lines
                .iter()
                .map(|l| format!("`{l}`"))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
        true
    }

    /// A good answer: garbled answers are no longer in a row.
    fn answered_well(&mut self) {
        self.garbled_bodies.clear();
        self.garbled_lines.clear();
    }

    /// Starts a new process (the old one already killed) and asks it the probe ([`PROBE_BODY`]):
    /// what it did ([`Probe`]). An answer in step is kept running for the next request; any other
    /// outcome leaves no process.
    fn probe(&mut self) -> Probe {
        let wait = match self.deadline {
            Some(d) => self
                .timeout
                .min(d.saturating_duration_since(std::time::Instant::now())),
            None => self.timeout,
        };
        let Ok((running, _)) = spawn(&self.argv, &self.env) else {
            return Probe::Gone;
        };
        let probe = [Query::new(PROBE_AGENT, PROBE_URL)];
        let mut line = serde_json::to_vec(&Request::new(PROBE_BODY, &probe)).expect("serialisable");
        line.push(b'\n');
        let running = self.running.insert(running);
        if running.requests.send(line).is_err() {
            self.kill();
            return Probe::Gone;
        }
        match running.lines.recv_timeout(wait) {
            Ok(Line::Text(text)) => match parse_response(&text) {
                Ok((0, _)) => {
                    // Its one answer was read: an extra one would belong to the probe.
                    self.last_request = Some(1);
                    Probe::Answered
                }
                _ => {
                    self.kill();
                    Probe::Garbled(text)
                }
            },
            Ok(Line::End(_)) | Err(RecvTimeoutError::Disconnected) => {
                self.kill();
                Probe::Gone
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                // Cut by the deadline, the probe says nothing: what is left is not asked anyway.
                Probe::NoAnswer(wait >= self.timeout)
            }
        }
    }

    /// After a timeout (the process already killed): why the adapter is hung, when a restarted
    /// process cannot answer the probe within the timeout either; `None` when it answers (the
    /// timeout was the input's) or the probe says nothing (cut by the deadline, or the process
    /// ended: the next request reports that).
    fn hung_after_timeout(&mut self) -> Option<String> {
        match self.probe() {
            Probe::NoAnswer(true) => Some(format!(
                "a restarted process did not answer a trivial probe body within {:?} either",
                self.timeout
            )),
            Probe::Answered | Probe::Garbled(_) | Probe::NoAnswer(false) | Probe::Gone => None,
        }
    }

    /// The command line it runs.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// Kills the process (if any); the next request starts a new one.
    fn kill(&mut self) -> String {
        self.last_request = None;
        match self.running.take() {
            Some(mut running) => {
                self.cpu_of_ended += process_cpu_time(running.child.id()).unwrap_or_default();
                let status = kill_group(&mut running.child);
                let mut detail = match status {
                    Ok(status) => describe_exit(status),
                    Err(e) => format!("could not be waited for: {e}"),
                };
                // Give the stderr thread a moment to collect the dying words.
                thread::sleep(Duration::from_millis(20));
                let tail = running.stderr.lock().map(|t| t.clone()).unwrap_or_default();
                if !tail.is_empty() {
                    detail.push_str("; stderr: ");
                    detail.push_str(&tail.into_iter().collect::<Vec<_>>().join(" | "));
                }
                detail
            }
            None => "not running".to_string(),
        }
    }

    /// Sends a request for the unanswered checks of every item from `at` on (all of them before the
    /// first answer is awaited), then collects the answers in order into `out` until all are in or
    /// the process fails; the check being waited for then gets the failure, the process is killed,
    /// and the caller sends the rest again. An answer out of step is recognised where it happens:
    /// one too many for a request marks that request's answers as errors (they cannot be trusted),
    /// one too few is the request's own error. Once the adapter is hung every check is answered at
    /// once.
    fn exchange(
        &mut self,
        items: &[(&[u8], &[Query])],
        out: &mut [Vec<Answer>],
        at: usize,
        timeouts: &mut [usize],
    ) {
        if let Some(message) = &self.hung {
            fill(items, out, at, message);
            return;
        }
        if let Some(message) = &self.broken {
            fill_with(items, out, at, |message| Answer::Error { message }, message);
            return;
        }
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.kill();
            fill(items, out, at, DEADLINE);
            return;
        }
        if self.running.is_none() {
            match spawn(&self.argv, &self.env) {
                Ok((running, _)) => self.running = Some(running),
                Err(reason) => {
                    // Cannot restart: every remaining check is a crash, with the reason.
                    let message = format!("adapter could not be restarted: {reason}");
                    for ((_, queries), answers) in items.iter().zip(out.iter_mut()).skip(at) {
                        answers.resize(
                            queries.len(),
                            Answer::Crash {
                                message: message.clone(),
                            },
                        );
                    }
                    return;
                }
            }
        }
        let running = self.running.as_mut().expect("started above");
        // (item, its first check in the request sent)
        let mut sent: Vec<(usize, usize)> = Vec::new();
        for (i, ((body, queries), answers)) in items.iter().zip(out.iter()).enumerate().skip(at) {
            let remaining = &queries[answers.len()..];
            if remaining.is_empty() {
                continue;
            }
            let mut line =
                serde_json::to_vec(&Request::new(body, remaining)).expect("serialisable");
            line.push(b'\n');
            if running.requests.send(line).is_err() {
                // The writer stopped (the process closed its input): the reader reports the end.
                break;
            }
            sent.push((i, answers.len()));
        }
        if sent.is_empty() {
            // Not even the first request could be written: the process stopped reading.
            let detail = self.kill();
            out[at].push(Answer::Crash {
                message: format!("process ended without answering (its input closed): {detail}"),
            });
            return;
        }
        let describe = |i: usize, first: usize| describe_request(items, i, first);
        for (n, &(i, first)) in sent.iter().enumerate() {
            let total = items[i].1.len() - first;
            for index in 0..total {
                let allowance = answer_allowance(self.timeout, items[i].0.len(), index);
                // Never wait past the deadline: what is left is then not asked.
                let wait = match self.deadline {
                    Some(d) => d.saturating_duration_since(std::time::Instant::now()),
                    None => allowance,
                };
                let by_deadline = wait < allowance;
                let running = self.running.as_mut().expect("running while reading");
                let received = running.next_line(wait.min(allowance));
                if by_deadline && matches!(received, Err(RecvTimeoutError::Timeout)) {
                    self.kill();
                    fill(items, out, i, DEADLINE);
                    return;
                }
                let text = match received {
                    Ok(Line::Text(text)) => text,
                    Ok(Line::End(_)) | Err(RecvTimeoutError::Disconnected) => {
                        let detail = self.kill();
                        out[i].push(Answer::Crash {
                            message: format!("process ended without answering: {detail}"),
                        });
                        return;
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        self.kill();
                        let mut message = format!("no answer within {allowance:?}");
                        if index > 0 {
                            message.push_str(&format!(
                                " (check {index} of {}: {index} of its checks were answered; \
                                 the parser is slow on this check, or the adapter wrote one \
                                 answer too few)",
                                describe(i, first)
                            ));
                        }
                        timeouts[i] += 1;
                        let give_up = timeouts[i] >= TIMEOUTS_PER_BODY;
                        let hung = self.hung_after_timeout();
                        if let Some(why) = &hung {
                            message.push_str(&format!(
                                "; {why}: the adapter is declared hung and its remaining checks \
                                 are not asked"
                            ));
                            self.hung =
                                Some(format!("{HUNG} (--timeout {:?}): {why}", self.timeout));
                        }
                        out[i].push(Answer::Timeout { message });
                        if give_up && hung.is_none() {
                            // The body holds the parser up: its other checks are not asked again.
                            let rest = Answer::Timeout {
                                message: format!(
                                    "not asked again: {TIMEOUTS_PER_BODY} checks of this body \
                                     got no answer within the timeout"
                                ),
                            };
                            out[i].resize(items[i].1.len(), rest);
                        }
                        return;
                    }
                };
                let (check, answer) = match parse_response(&text) {
                    Ok(parsed) => parsed,
                    Err(message) => {
                        self.kill();
                        self.garbled(items[i].0, &text);
                        out[i].push(Answer::Error { message });
                        return;
                    }
                };
                if check == index {
                    self.answered_well();
                    out[i].push(crate::protocol::answer_to(
                        &items[i].1[first + index],
                        answer,
                    ));
                    continue;
                }
                // Out of step: garbled too (the branches below kill the process).
                self.garbled(items[i].0, &text);
                let shown = String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned();
                let previous = n.checked_sub(1).map(|p| sent[p]);
                match previous {
                    // One answer too many for the previous request of this batch: its answers
                    // cannot be trusted; this request is sent again to a fresh process.
                    Some((j, f)) if index == 0 && check == items[j].1.len() - f => {
                        let message = format!(
                            "malformed response: {} got one answer too many (check {check} after \
                             its last, check {}), so its answers cannot be trusted; the adapter \
                             was restarted: {shown}",
                            describe(j, f),
                            check - 1
                        );
                        out[j].truncate(f);
                        out[j].resize(items[j].1.len(), Answer::Error { message });
                        self.kill();
                        return;
                    }
                    // The previous call's last request: its answers are returned already.
                    None if index == 0 && self.last_request == Some(check) => {
                        self.kill();
                        out[i].push(Answer::Error {
                            message: format!(
                                "malformed response: the previous request (of {check} checks) \
                                 got one answer too many (check {check}), which arrived where \
                                 check 0 of {} was due; the adapter was restarted: {shown}",
                                describe(i, first)
                            ),
                        });
                        return;
                    }
                    _ if index > 0 && check == 0 && n + 1 < sent.len() => {
                        self.kill();
                        out[i].push(Answer::Error {
                            message: format!(
                                "malformed response: {} got {index} answers for its {total} \
                                 checks (one answer too few): the next request's check 0 arrived \
                                 where check {index} was due; the adapter was restarted: {shown}",
                                describe(i, first)
                            ),
                        });
                        return;
                    }
                    _ => {
                        self.kill();
                        out[i].push(Answer::Error {
                            message: format!(
                                "malformed response: answers check {check} where check {index} of \
                                 {} was due: {shown}",
                                describe(i, first)
                            ),
                        });
                        return;
                    }
                }
            }
        }
        // Every request answered: an extra answer already waiting belongs to the last request.
        let Some(&(i, first)) = sent.last() else {
            return;
        };
        let total = items[i].1.len() - first;
        self.last_request = Some(total);
        let running = self.running.as_mut().expect("running after reading");
        if let Ok(line) = running.lines.try_recv() {
            if let Line::Text(text) = &line {
                if parse_response(text).is_ok_and(|(check, _)| check == total) {
                    let message = format!(
                        "malformed response: {} got one answer too many (check {total} after its \
                         last, check {}), so its answers cannot be trusted; the adapter was \
                         restarted",
                        describe(i, first),
                        total - 1
                    );
                    let text = text.clone();
                    out[i].truncate(first);
                    out[i].resize(items[i].1.len(), Answer::Error { message });
                    self.kill();
                    self.garbled(items[i].0, &text);
                    return;
                }
            }
            running.pending = Some(line);
        }
    }
}

/// Answers every unanswered check of the items from `at` on with a `timeout` carrying `message`.
fn fill(items: &[(&[u8], &[Query])], out: &mut [Vec<Answer>], at: usize, message: &str) {
    fill_with(
        items,
        out,
        at,
        |message| Answer::Timeout { message },
        message,
    );
}

/// Answers every unanswered check of the items from `at` on with `answer(message)`.
fn fill_with(
    items: &[(&[u8], &[Query])],
    out: &mut [Vec<Answer>],
    at: usize,
    answer: impl Fn(String) -> Answer,
    message: &str,
) {
    for ((_, queries), answers) in items.iter().zip(out.iter_mut()).skip(at) {
        answers.resize(queries.len(), answer(message.to_string()));
    }
}

/// A body's hash, to tell bodies apart (FNV-1a, 64 bits).
fn body_hash(body: &[u8]) -> u64 {
    body.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &octet| {
        (hash ^ u64::from(octet)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The first `limit` octets of `line` as text, with `…` when cut.
fn shorten(line: &[u8], limit: usize) -> String {
    let mut text = String::from_utf8_lossy(&line[..line.len().min(limit)]).into_owned();
    if line.len() > limit {
        text.push('…');
    }
    text
}

/// A request named for messages: its place in the batch (when there are several), its first
/// check's agent and URL, and how many checks it holds.
fn describe_request(items: &[(&[u8], &[Query])], i: usize, first: usize) -> String {
    let queries = &items[i].1[first..];
    let place = if items.len() > 1 {
        format!(" #{} of the batch", i + 1)
    } else {
        String::new()
    };
    match queries.first() {
        Some(q) => format!(
            "the request{place} ({} checks; the first: {} {})",
            queries.len(),
            q.agent,
            q.url
        ),
        None => format!("the request{place}"),
    }
}

impl Adapter for Subprocess {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        self.answer_many(&[(body, queries)]).remove(0)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    fn cpu_time(&self) -> Option<Duration> {
        let running = match &self.running {
            Some(running) => process_cpu_time(running.child.id())?,
            None => Duration::ZERO,
        };
        Some(self.cpu_of_ended + running)
    }

    fn answer_many(&mut self, items: &[(&[u8], &[Query])]) -> Vec<Vec<Answer>> {
        let mut out: Vec<Vec<Answer>> = items
            .iter()
            .map(|(_, queries)| Vec::with_capacity(queries.len()))
            .collect();
        // After a failure the process is restarted and the remaining checks are sent again.
        let mut timeouts = vec![0; items.len()];
        let mut at = 0;
        loop {
            while at < items.len() && out[at].len() == items[at].1.len() {
                at += 1;
            }
            if at == items.len() {
                return out;
            }
            self.exchange(items, &mut out, at, &mut timeouts);
        }
    }
}

impl Drop for Subprocess {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            // Closing stdin asks the adapter to exit; its group is killed if it does not (and
            // whatever it started is killed with it either way).
            drop(running.requests);
            for _ in 0..50 {
                if has_exited(&running.child) {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
            let _ = kill_group(&mut running.child);
        }
    }
}

/// The process groups of the adapter processes alive, for a signal handler to kill (a fixed
/// array of atomics: the handler may neither lock nor allocate).
mod groups {
    use std::sync::atomic::{AtomicI32, Ordering};

    const SLOTS: usize = 4096;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    /// Records a process group (its leader's pid).
    pub fn register(pid: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Forgets a process group.
    pub fn unregister(pid: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Kills every recorded group (async-signal-safe: atomics and kill(2) only).
    pub fn kill_all() {
        for slot in &GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) with a negative pid signals that process group; no memory is
                // touched.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
            }
        }
    }
}

/// Kills every adapter process group of this program, then ends it by the same signal.
extern "C" fn on_signal(signal: libc::c_int) {
    groups::kill_all();
    // SAFETY: signal(2) and raise(3) are async-signal-safe; the default action ends the process
    // with this signal's status.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Installs handlers for SIGTERM, SIGINT and SIGHUP that kill every adapter process group this
/// program started before it ends: adapter processes lead groups of their own (so that a group
/// kill also ends what they started), which a terminal's Ctrl-C or a scheduler's SIGTERM does not
/// reach by itself. Call once, from `main`.
pub fn kill_children_on_signals() {
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: the handler only touches atomics and calls async-signal-safe functions.
        unsafe { libc::signal(signal, on_signal as *const () as libc::sighandler_t) };
    }
}

/// Whether the child has exited, without reaping it (so that its pid, which is its group's id,
/// is not reused before the group is killed).
fn has_exited(child: &Child) -> bool {
    // SAFETY: waitid(2) writes into the zeroed siginfo_t it is given; WNOWAIT leaves the child
    // waitable.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let done = libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        done == 0 && info.si_pid() != 0
    }
}

/// Kills the child's whole process group (the child and everything it started), then reaps the
/// child and forgets the group.
fn kill_group(child: &mut Child) -> std::io::Result<std::process::ExitStatus> {
    let pid = child.id() as i32;
    // SAFETY: kill(2) on the group the child leads; the child is not reaped yet, so the id is
    // still its group's.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    let _ = child.kill();
    let status = child.wait();
    groups::unregister(pid);
    status
}

/// Starts the process (with `env` added to its environment) and reads its handshake.
fn spawn(argv: &[String], env: &Environment) -> Result<(Running, Handshake), String> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| "empty command line".to_string())?;
    let mut command = Command::new(program);
    for name in &env.unset {
        command.env_remove(name);
    }
    // A process group of its own: killing the group ends what the adapter started too (a shell
    // wrapper's interpreter, a worker's children).
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .args(args)
        .envs(env.set.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    groups::register(child.id() as i32);
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let stderr_pipe = child.stderr.take().expect("piped");
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || read_lines(stdout, sender));
    let (requests, queued) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        // Ends when the process stops reading (a write fails) or the sender is dropped.
        for line in queued {
            if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
                return;
            }
        }
    });
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    let tail = Arc::clone(&stderr);
    thread::spawn(move || keep_tail(stderr_pipe, tail));
    let mut running = Running {
        child,
        requests,
        lines,
        pending: None,
        stderr,
    };
    let handshake = match running.lines.recv_timeout(HANDSHAKE_TIMEOUT) {
        Ok(Line::Text(text)) => parse_handshake(&text),
        Ok(Line::End(why)) => Err(format!("exited before its handshake ({why})")),
        Err(RecvTimeoutError::Disconnected) => Err("exited before its handshake".to_string()),
        Err(RecvTimeoutError::Timeout) => Err(format!(
            "no handshake within {}s",
            HANDSHAKE_TIMEOUT.as_secs()
        )),
    };
    match handshake {
        Ok(handshake) => Ok((running, handshake)),
        Err(reason) => {
            let status = kill_group(&mut running.child)
                .map(describe_exit)
                .unwrap_or_default();
            thread::sleep(Duration::from_millis(20));
            let tail: Vec<String> = running
                .stderr
                .lock()
                .map(|t| t.iter().cloned().collect())
                .unwrap_or_default();
            let mut reason = format!("{reason}; {status}");
            if !tail.is_empty() {
                reason.push_str(&format!("; stderr: {}", tail.join(" | ")));
            }
            Err(reason)
        }
    }
}

/// Checks and decodes the handshake line.
fn parse_handshake(text: &[u8]) -> Result<Handshake, String> {
    let handshake: Handshake = serde_json::from_slice(text).map_err(|e| {
        format!(
            "malformed handshake ({e}): {}",
            String::from_utf8_lossy(&text[..text.len().min(300)])
        )
    })?;
    if handshake.protocol != PROTOCOL_VERSION {
        return Err(format!(
            "speaks protocol `{}`, not `{PROTOCOL_VERSION}`",
            handshake.protocol
        ));
    }
    Ok(handshake)
}

/// Decodes one response line: the check it answers and the answer.
fn parse_response(text: &[u8]) -> Result<(usize, Answer), String> {
    let shown = || String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned();
    let response =
        Response::parse(text).map_err(|e| format!("malformed response ({e}): {}", shown()))?;
    Ok((response.check, response.answer))
}

/// The stdout reader thread: sends complete lines, then `End`.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match reader
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(0) => {
                let _ = sender.send(Line::End("end of output".to_string()));
                return;
            }
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                if sender.send(Line::Text(line)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = sender.send(Line::End(format!("read error: {e}")));
                return;
            }
        }
    }
}

/// The stderr reader thread: keeps the last lines.
fn keep_tail(stderr: impl Read, tail: Arc<Mutex<VecDeque<String>>>) {
    let reader = BufReader::new(stderr);
    for line in reader.split(b'\n') {
        let Ok(line) = line else { return };
        let mut text = String::from_utf8_lossy(&line).into_owned();
        if text.len() > 300 {
            let mut cut = 300;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push('…');
        }
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(text);
        }
    }
}

/// The CPU time (user and system) process `pid` and its waited-for children have used, from
/// `/proc/<pid>/stat` (fields 14 to 17, in clock ticks); `None` where there is no `/proc`.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after it follow the last `)`.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // `after` starts at field 3 (state): fields 14..=17 are at 11..=14.
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    // SAFETY: sysconf(3) reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = u64::try_from(per_second).ok().filter(|&n| n > 0)?;
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000) / per_second,
    ))
}

/// "exit status 3", "killed by signal 11 (SIGSEGV)".
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "ended".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_answer_gets_one_more_timeout_per_64_kib_of_body() {
        let ten = Duration::from_secs(10);
        assert_eq!(answer_allowance(ten, 0, 0), ten);
        assert_eq!(answer_allowance(ten, 64 * 1024 - 1, 0), ten);
        assert_eq!(answer_allowance(ten, 64 * 1024, 0), ten * 2);
        assert_eq!(answer_allowance(ten, 600 * 1024, 0), ten * 10);
        // Later checks of the same request reuse the parsed body: the plain timeout.
        assert_eq!(answer_allowance(ten, 600 * 1024, 1), ten);
    }
}
