//! The client side of `PROTOCOL.md`: one persistent adapter process, restarted when it dies, hangs
//! or loses step, so that every check gets exactly one answer and a run never stops.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
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
    timeout: Duration,
    identity: Identity,
    running: Option<Running>,
}

/// A started process and the threads reading its output.
struct Running {
    child: Child,
    stdin: ChildStdin,
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
        let unavailable = |reason: String| Unavailable {
            id: id.to_string(),
            reason,
            fix: format!("run `{}` by hand and check its first line", argv.join(" ")),
        };
        let (running, handshake) = spawn(&argv).map_err(unavailable)?;
        let mut identity = handshake.identity();
        // The id the suite knows it by wins: it names ledgers and columns.
        identity.id = id.to_string();
        Ok(Subprocess {
            argv,
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

    /// Sends one request for `queries` and collects answers until all are in or the process fails;
    /// returns the answers received (the last may be a failure) .
    fn exchange(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(queries.len());
        let running = match &mut self.running {
            Some(running) => running,
            None => match spawn(&self.argv) {
                Ok((running, _)) => self.running.insert(running),
                Err(reason) => {
                    // Cannot restart: every remaining check is a crash, with the reason.
                    let message = format!("adapter could not be restarted: {reason}");
                    return queries
                        .iter()
                        .map(|_| Answer::Crash {
                            message: message.clone(),
                        })
                        .collect();
                }
            },
        };
        let mut line = serde_json::to_vec(&Request::new(body, queries)).expect("serialisable");
        line.push(b'\n');
        if running
            .stdin
            .write_all(&line)
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            let detail = self.kill();
            answers.push(Answer::Crash {
                message: format!("process died before the request was read: {detail}"),
            });
            return answers;
        }
        for index in 0..queries.len() {
            let received = running.lines.recv_timeout(self.timeout);
            let answer = match received {
                Ok(Line::Text(text)) => match parse_response(&text, index) {
                    Ok(answer) => answer,
                    Err(message) => {
                        self.kill();
                        answers.push(Answer::Error { message });
                        return answers;
                    }
                },
                Ok(Line::End(_)) | Err(RecvTimeoutError::Disconnected) => {
                    let detail = self.kill();
                    answers.push(Answer::Crash {
                        message: format!("process ended without answering: {detail}"),
                    });
                    return answers;
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    answers.push(Answer::Timeout {
                        message: format!("no answer within {:?}", self.timeout),
                    });
                    return answers;
                }
            };
            answers.push(answer);
        }
        answers
    }
}

impl Adapter for Subprocess {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn answer(&mut self, body: &[u8], queries: &[Query]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(queries.len());
        // After a failure the process is restarted and the remaining checks are sent again.
        while answers.len() < queries.len() {
            let got = self.exchange(body, &queries[answers.len()..]);
            answers.extend(got);
        }
        answers
    }
}

impl Drop for Subprocess {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            // Closing stdin asks the adapter to exit; kill it if it does not.
            drop(running.stdin);
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

/// Starts the process and reads its handshake.
fn spawn(argv: &[String]) -> Result<(Running, Handshake), String> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| "empty command line".to_string())?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let stderr_pipe = child.stderr.take().expect("piped");
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || read_lines(stdout, sender));
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    let tail = Arc::clone(&stderr);
    thread::spawn(move || keep_tail(stderr_pipe, tail));
    let mut running = Running {
        child,
        stdin,
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
