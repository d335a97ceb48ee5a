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

/// An adapter process speaking `robotstxt-adapter/1`.
pub struct Subprocess {
    argv: Vec<String>,
    env: Environment,
    timeout: Duration,
    identity: Identity,
    running: Option<Running>,
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
    stderr: Arc<Mutex<VecDeque<String>>>,
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
        })
    }

    /// The command line it runs.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// Kills the process (if any); the next request starts a new one.
    fn kill(&mut self) -> String {
        match self.running.take() {
            Some(mut running) => {
                let _ = running.child.kill();
                let status = running.child.wait();
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
    /// and the caller sends the rest again.
    fn exchange(&mut self, items: &[(&[u8], &[Query])], out: &mut [Vec<Answer>], at: usize) {
        let running = match &mut self.running {
            Some(running) => running,
            None => match spawn(&self.argv, &self.env) {
                Ok((running, _)) => self.running.insert(running),
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
            },
        };
        for ((body, queries), answers) in items.iter().zip(out.iter()).skip(at) {
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
        }
        for ((_, queries), answers) in items.iter().zip(out.iter_mut()).skip(at) {
            let first = answers.len();
            for index in 0..queries.len() - first {
                let received = running.lines.recv_timeout(self.timeout);
                let answer = match received {
                    Ok(Line::Text(text)) => match parse_response(&text, index) {
                        Ok(answer) => answer,
                        Err(message) => {
                            self.kill();
                            answers.push(Answer::Error { message });
                            return;
                        }
                    },
                    Ok(Line::End(_)) | Err(RecvTimeoutError::Disconnected) => {
                        let detail = self.kill();
                        answers.push(Answer::Crash {
                            message: format!("process ended without answering: {detail}"),
                        });
                        return;
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        self.kill();
                        answers.push(Answer::Timeout {
                            message: format!("no answer within {:?}", self.timeout),
                        });
                        return;
                    }
                };
                answers.push(answer);
            }
        }
    }
}

impl Adapter for Subprocess {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        self.answer_many(&[(body, queries)]).remove(0)
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
            // Closing stdin asks the adapter to exit; kill it if it does not.
            drop(running.requests);
            for _ in 0..50 {
                if let Ok(Some(_)) = running.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
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
    let mut child = command
        .args(args)
        .envs(env.set.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
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
            let _ = running.child.kill();
            let status = running.child.wait().map(describe_exit).unwrap_or_default();
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

/// Decodes one response line, which must answer check `index`.
fn parse_response(text: &[u8], index: usize) -> Result<Answer, String> {
    let shown = || String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned();
    let response =
        Response::parse(text).map_err(|e| format!("malformed response ({e}): {}", shown()))?;
    if response.check != index {
        return Err(format!(
            "malformed response: answers check {} where check {index} was due: {}",
            response.check,
            shown()
        ));
    }
    Ok(response.answer)
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
