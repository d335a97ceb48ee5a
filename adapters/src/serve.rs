//! The server side of `PROTOCOL.md`: serves an in-process adapter over standard input and output.
//!
//! This is how in-process parsers run isolated: the runner starts a worker process of our own binary
//! (`robotstxt-conformance adapter serve <id>`), which calls this, so that an abort or a segfault in
//! a parser kills the worker and becomes a `crash` answer instead of ending the run.

use std::io::{BufRead, Write};

use crate::adapter::Adapter;
use crate::adapter::Answer;
use crate::protocol::{Handshake, Request, Response};

/// Writes the handshake, then answers requests until `input` ends. Each check is answered (and
/// flushed) as soon as it is known, so a hang on one check does not hold back the others.
pub fn serve(
    adapter: &mut dyn Adapter,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    write_line(&mut output, &Handshake::of(adapter.identity()))?;
    for line in input.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let request: Request = match serde_json::from_slice(&line) {
            Ok(request) => request,
            Err(e) => {
                // We cannot know how many checks it held: say so once, as check 0.
                let answer = Answer::Error {
                    message: format!("malformed request: {e}"),
                };
                write_line(&mut output, &Response { check: 0, answer })?;
                continue;
            }
        };
        let queries = request.queries();
        let body = request.body_bytes();
        for (index, query) in queries.iter().enumerate() {
            let answer = match &body {
                Ok(body) => {
                    let mut answers = adapter.answer(body, std::slice::from_ref(query));
                    match answers.remove(0) {
                        // `timeout` is the runner's answer; inside a server it is an error.
                        Answer::Timeout { message } => Answer::Error {
                            message: format!("timeout: {message}"),
                        },
                        answer => answer,
                    }
                }
                Err(message) => Answer::Error {
                    message: message.clone(),
                },
            };
            write_line(
                &mut output,
                &Response {
                    check: index,
                    answer,
                },
            )?;
        }
    }
    Ok(())
}

/// Writes one JSON line and flushes.
fn write_line(output: &mut impl Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(value).map_err(std::io::Error::other)?;
    line.push(b'\n');
    output.write_all(&line)?;
    output.flush()
}
