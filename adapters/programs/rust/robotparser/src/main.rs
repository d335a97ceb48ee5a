//! rs-robotparser: the crate `robotparser` 0.11.0, speaking `robotstxt-adapter/1`
//! (`adapters/PROTOCOL.md`): a handshake, then one answer line per check of each request line.

use std::io::{BufRead, Write};

use base64::Engine;
use robotparser::parser::parse_robots_txt;
use robotparser::service::RobotsTxtService;
use serde_json::{json, Value};
use url::Url;

/// The crate's version, as pinned in Cargo.toml and Cargo.lock.
const VERSION: &str = "0.11.0";

fn main() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if write(&mut out, &handshake()).is_err() {
        return;
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = match serde_json::from_str(&line) {
            Ok(request) => request,
            Err(e) => {
                // The runner never sends this: stop, it will say we crashed.
                eprintln!("malformed request: {e}");
                std::process::exit(2);
            }
        };
        // Each answer is written as soon as it is known (PROTOCOL.md section 3).
        if answer(&request, &mut |message| write(&mut out, &message)).is_err() {
            return; // The runner went away: nothing left to answer.
        }
    }
}

/// Who we are.
fn handshake() -> Value {
    json!({
        "protocol": "robotstxt-adapter/1",
        "id": "rs-robotparser",
        "library": "robotparser",
        "version": VERSION,
        "language": "Rust",
        "licence": "MIT",
        "source": format!("crates.io robotparser ={VERSION} (Cargo.lock committed; built by peers install)"),
        // lib.rs: "The robots.txt Exclusion Protocol is implemented as specified in
        // <https://www.robotstxt.org/norobots-rfc.txt>" (the 1996 draft).
        "profile": "draft-1996",
        "capabilities": {"fetch_status": false, "multiple_agents": false},
        "url": "full",
        "notes": "parse_robots_txt(origin, text).get_result().can_fetch(agent, &url), the URL \
                  parsed with the url crate and the origin taken from it (can_fetch answers false \
                  for a URL of another origin). Text: the body decoded as UTF-8 with invalid \
                  octets replaced by U+FFFD; the library removes a leading BOM. Parsed once per \
                  origin per request. A URL the url crate rejects is an `error`; a panic in the \
                  library is caught and is that check's `crash`."
    })
}

/// Answers one request, check by check in order, giving each answer to `emit`. A panic in the
/// library becomes that check's `crash` answer (the panic message also goes to standard error),
/// and the program goes on with the next check.
fn answer(
    request: &Value,
    emit: &mut dyn FnMut(Value) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let checks = request["checks"].as_array().cloned().unwrap_or_default();
    let text = match body(request) {
        Ok(octets) => String::from_utf8_lossy(&octets).into_owned(),
        Err(message) => {
            for i in 0..checks.len() {
                emit(json!({"check": i, "answer": "error", "message": message}))?;
            }
            return Ok(());
        }
    };
    let mut parsed: Vec<(url::Origin, robotparser::model::RobotsTxt)> = Vec::new();
    for (i, check) in checks.iter().enumerate() {
        let agent = check["agent"].as_str().unwrap_or_default();
        let url = match Url::parse(check["url"].as_str().unwrap_or_default()) {
            Ok(url) => url,
            Err(e) => {
                emit(json!({"check": i, "answer": "error", "message": format!("url: {e}")}))?;
                continue;
            }
        };
        let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let origin = url.origin();
            let index = match parsed.iter().position(|(o, _)| *o == origin) {
                Some(index) => index,
                None => {
                    let robots = parse_robots_txt(origin.clone(), &text).get_result();
                    parsed.push((origin, robots));
                    parsed.len() - 1
                }
            };
            parsed[index].1.can_fetch(agent, &url)
        }));
        emit(match asked {
            Ok(allowed) => {
                json!({"check": i, "answer": if allowed { "allowed" } else { "disallowed" }})
            }
            Err(payload) => json!({"check": i, "answer": "crash", "message": format!(
                "panicked: {}",
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a non-string panic payload".to_string())
            )}),
        })?;
    }
    Ok(())
}

/// The body's exact octets: `body` (UTF-8 text) or `body_base64`.
fn body(request: &Value) -> Result<Vec<u8>, String> {
    if let Some(encoded) = request["body_base64"].as_str() {
        return base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| format!("body_base64: {e}"));
    }
    Ok(request["body"]
        .as_str()
        .unwrap_or_default()
        .as_bytes()
        .to_vec())
}

/// Writes one message as one line and flushes it.
fn write(out: &mut impl Write, message: &Value) -> std::io::Result<()> {
    writeln!(out, "{message}")?;
    out.flush()
}
