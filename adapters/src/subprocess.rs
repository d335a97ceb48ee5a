//! The client side of `PROTOCOL.md`: one persistent adapter process, restarted when it dies, hangs
//! or loses step, so that every check gets exactly one answer and a run never stops.
//!
//! Requests are pipelined: [`Adapter::answer_many`] writes the requests for many bodies (a writer
//! thread feeds the process's standard input) and then reads the answers in order, so a batch
//! costs one round trip, not one per body. The protocol needs nothing more: an adapter reads one
//! request at a time and answers in order, whether or not the next request is already waiting.

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
/// How many timeouts in a row make an adapter hung: its remaining checks are then answered
/// `timeout` at once ([`HUNG`]), not asked, so a hung adapter costs a few timeouts, not one per
/// check.
pub const HUNG_AFTER: usize = 3;
/// How the message of a check not asked because its adapter was declared hung begins.
pub const HUNG: &str = "not asked: the adapter was declared hung";

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

/// Whether `answer` is a check not asked at all: its adapter was declared hung ([`HUNG`]) or
/// the run's deadline passed ([`DEADLINE`]).
pub fn is_not_asked(answer: &Answer) -> bool {
    is_hung(answer)
        || matches!(answer, Answer::Timeout { message } if message.starts_with(DEADLINE))
}

/// An adapter process speaking `robotstxt-adapter/1`.
pub struct Subprocess {
    argv: Vec<String>,
    env: Environment,
    timeout: Duration,
    identity: Identity,
    running: Option<Running>,
    /// Timeouts since the last answer.
    timeouts_in_a_row: usize,
    /// Set once [`HUNG_AFTER`] timeouts came in a row: the message every later check gets.
    hung: Option<String>,
    /// How many checks the last request sent to the running process had (to recognise its
    /// extra answer arriving during the next call).
    last_request: Option<usize>,
    /// No answer is waited for after this.
    deadline: Option<std::time::Instant>,
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
            timeouts_in_a_row: 0,
            hung: None,
            last_request: None,
            deadline: None,
        })
    }

    /// Whether the adapter was declared hung ([`HUNG_AFTER`] timeouts in a row).
    pub fn is_hung(&self) -> bool {
        self.hung.is_some()
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
    fn exchange(&mut self, items: &[(&[u8], &[Query])], out: &mut [Vec<Answer>], at: usize) {
        if let Some(message) = &self.hung {
            fill(items, out, at, message);
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
                        self.timeouts_in_a_row += 1;
                        let mut message = format!("no answer within {allowance:?}");
                        if index > 0 {
                            message.push_str(&format!(
                                " (check {index} of {}: {index} of its checks were answered; \
                                 one answer too few?)",
                                describe(i, first)
                            ));
                        }
                        if self.timeouts_in_a_row >= HUNG_AFTER {
                            message.push_str(&format!(
                                "; {HUNG_AFTER} timeouts in a row: the adapter is declared hung \
                                 and its remaining checks are not asked"
                            ));
                            self.hung = Some(format!(
                                "{HUNG} after {HUNG_AFTER} timeouts in a row (--timeout {:?})",
                                self.timeout
                            ));
                        }
                        out[i].push(Answer::Timeout { message });
                        return;
                    }
                };
                let (check, answer) = match parse_response(&text) {
                    Ok(parsed) => parsed,
                    Err(message) => {
                        self.kill();
                        out[i].push(Answer::Error { message });
                        return;
                    }
                };
                if check == index {
                    self.timeouts_in_a_row = 0;
                    out[i].push(answer);
                    continue;
                }
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
                    out[i].truncate(first);
                    out[i].resize(items[i].1.len(), Answer::Error { message });
                    self.kill();
                    return;
                }
            }
            running.pending = Some(line);
        }
    }
}

/// Answers every unanswered check of the items from `at` on with a `timeout` carrying `message`.
fn fill(items: &[(&[u8], &[Query])], out: &mut [Vec<Answer>], at: usize, message: &str) {
    for ((_, queries), answers) in items.iter().zip(out.iter_mut()).skip(at) {
        answers.resize(
            queries.len(),
            Answer::Timeout {
                message: message.to_string(),
            },
        );
    }
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

    fn answer_many(&mut self, items: &[(&[u8], &[Query])]) -> Vec<Vec<Answer>> {
        let mut out: Vec<Vec<Answer>> = items
            .iter()
            .map(|(_, queries)| Vec::with_capacity(queries.len()))
            .collect();
        // After a failure the process is restarted and the remaining checks are sent again.
        let mut at = 0;
        loop {
            while at < items.len() && out[at].len() == items[at].1.len() {
                at += 1;
            }
            if at == items.len() {
                return out;
            }
            self.exchange(items, &mut out, at);
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
