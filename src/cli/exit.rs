//! How the program ends: quietly when the reader of its output stops early (`| head`), with
//! status 2 and the message on an error, else with the command's own status.

use std::process::ExitCode;

/// Whether an error is a write to a pipe the reader closed (`adapters --format json | head`).
fn is_closed_pipe(message: &str) -> bool {
    message.contains("Broken pipe") || message.contains("os error 32")
}

/// Makes a reader that stops early (`| head`) end the output, quietly: `println!` panics on a
/// closed pipe, so that panic exits with status 0 and no message; others are reported as usual.
pub fn end_quietly_on_closed_pipe() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if text.starts_with("failed printing to stdout") && is_closed_pipe(text) {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

/// The exit status of a command's outcome: its own, success when its reader closed the pipe,
/// else 2 with `error: <message>` on standard error.
pub fn status(outcome: Result<ExitCode, String>) -> ExitCode {
    match outcome {
        Ok(code) => code,
        Err(message) if is_closed_pipe(&message) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
