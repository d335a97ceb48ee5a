//! An HTTP/1.x response as a WARC `response` record stores it: the status line, the header
//! fields, and the body with its transfer coding (`chunked`) and content codings (`gzip`,
//! `deflate`) undone, so that the body is the robots.txt octets the server meant.

use std::io::Read;

/// A parsed response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code of the status line.
    pub status: u16,
    /// The body, decoded.
    pub body: Vec<u8>,
}

/// Parses `message` (status line, header fields, empty line, body). The header section ends at
/// the first empty line (CRLF CRLF, or LF LF from careless servers). Errors say what is wrong.
pub fn parse(message: &[u8]) -> Result<Response, String> {
    let (head, body) = split_head(message)?;
    let head = String::from_utf8_lossy(head);
    let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let status_line = lines.next().unwrap_or_default();
    let status = status_of(status_line)?;
    let mut transfer = Vec::new();
    let mut content = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("a header line without a colon: {line:?}"));
        };
        let codings = value
            .split(',')
            .map(|c| c.trim().to_ascii_lowercase())
            .filter(|c| !c.is_empty());
        match name.trim().to_ascii_lowercase().as_str() {
            "transfer-encoding" => transfer.extend(codings),
            "content-encoding" => content.extend(codings),
            _ => {}
        }
    }
    let mut body = body.to_vec();
    // Codings are listed in the order they were applied: undone last first.
    for coding in transfer.iter().rev() {
        body = match coding.as_str() {
            "chunked" => dechunk(&body)?,
            "identity" => body,
            "gzip" | "x-gzip" | "deflate" => decode(coding, &body)?,
            other => return Err(format!("unsupported Transfer-Encoding {other:?}")),
        };
    }
    for coding in content.iter().rev() {
        body = match coding.as_str() {
            "identity" => body,
            "gzip" | "x-gzip" | "deflate" => decode(coding, &body)?,
            other => return Err(format!("unsupported Content-Encoding {other:?}")),
        };
    }
    Ok(Response { status, body })
}

/// The header section (without the empty line) and the body.
fn split_head(message: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let crlf = message.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = message.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(c), Some(l)) if l + 1 < c => Ok((&message[..l], &message[l + 2..])),
        (Some(c), _) => Ok((&message[..c], &message[c + 4..])),
        (None, Some(l)) => Ok((&message[..l], &message[l + 2..])),
        // A response with no body and no final empty line.
        (None, None) if !message.is_empty() => Ok((message, &[])),
        (None, None) => Err("an empty HTTP response".to_string()),
    }
}

/// The status code of `HTTP/1.1 200 OK` (the reason phrase may be missing).
fn status_of(line: &str) -> Result<u16, String> {
    let mut parts = line.split_ascii_whitespace();
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/") || code.len() != 3 {
        return Err(format!("not an HTTP status line: {line:?}"));
    }
    code.parse::<u16>()
        .ok()
        .filter(|c| (100..=599).contains(c))
        .ok_or_else(|| format!("not an HTTP status code: {code:?} in {line:?}"))
}

/// Undoes `Transfer-Encoding: chunked` (RFC 9112 7.1): hex size lines, each chunk followed by
/// CRLF, a last chunk of size 0, and trailer fields (ignored).
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = data
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("chunked body: a chunk size line without its end")?;
        let line = String::from_utf8_lossy(&data[..line_end]);
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| format!("chunked body: not a chunk size: {:?}", line.trim_end()))?;
        data = &data[line_end + 1..];
        if size == 0 {
            return Ok(body);
        }
        if data.len() < size {
            return Err(format!(
                "chunked body: a chunk of {size} octets with {} left",
                data.len()
            ));
        }
        body.extend_from_slice(&data[..size]);
        data = &data[size..];
        data = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
            .ok_or("chunked body: a chunk not followed by CRLF")?;
    }
}

/// Undoes one compression coding: `gzip` (every member), or `deflate` (zlib, or a raw deflate
/// stream as some servers send).
fn decode(coding: &str, data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let result = if coding == "deflate" {
        flate2::read::ZlibDecoder::new(data)
            .read_to_end(&mut out)
            .or_else(|_| {
                out.clear();
                flate2::read::DeflateDecoder::new(data).read_to_end(&mut out)
            })
    } else {
        flate2::read::MultiGzDecoder::new(data).read_to_end(&mut out)
    };
    result.map_err(|e| format!("Content-Encoding {coding}: cannot decode the body: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn status_and_body() {
        let r =
            parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nDisallow: /\r\n").unwrap();
        assert_eq!(
            r,
            Response {
                status: 200,
                body: b"Disallow: /\r\n".to_vec()
            }
        );
        let r = parse(b"HTTP/1.0 404\r\n\r\n").unwrap();
        assert_eq!(
            r,
            Response {
                status: 404,
                body: vec![]
            }
        );
        assert_eq!(parse(b"HTTP/1.1 503 Slow Down\n\nx").unwrap().status, 503);
    }

    #[test]
    fn chunked_then_gzip() {
        let r = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nDisal\r\nB\r\nlow: /chunk\r\n0\r\nX-T: 1\r\n\r\n").unwrap();
        assert_eq!(r.body, b"Disallow: /chunk");
        let mut message = b"HTTP/1.1 200 OK\r\nContent-Encoding: GZIP\r\n\r\n".to_vec();
        message.extend(gzip(b"Disallow: /gz\n"));
        assert_eq!(parse(&message).unwrap().body, b"Disallow: /gz\n");
    }

    #[test]
    fn deflate_zlib_and_raw() {
        for raw in [false, true] {
            let mut encoded = Vec::new();
            if raw {
                let mut e = flate2::write::DeflateEncoder::new(&mut encoded, Default::default());
                e.write_all(b"Allow: /\n").unwrap();
                e.finish().unwrap();
            } else {
                let mut e = flate2::write::ZlibEncoder::new(&mut encoded, Default::default());
                e.write_all(b"Allow: /\n").unwrap();
                e.finish().unwrap();
            }
            let mut message = b"HTTP/1.1 200 OK\r\ncontent-encoding: deflate\r\n\r\n".to_vec();
            message.extend(encoded);
            assert_eq!(parse(&message).unwrap().body, b"Allow: /\n", "raw: {raw}");
        }
    }

    #[test]
    fn malformed_responses_are_errors() {
        for (message, error) in [
            (&b"GET / HTTP/1.1\r\n\r\n"[..], "not an HTTP status line"),
            (b"HTTP/1.1 2000 OK\r\n\r\n", "not an HTTP status line"),
            (b"HTTP/1.1 abc OK\r\n\r\n", "not an HTTP status code"),
            (b"HTTP/1.1 200 OK\r\nbroken\r\n\r\n", "without a colon"),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "not a chunk size",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc",
                "a chunk of 9 octets with 3 left",
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nplain",
                "cannot decode",
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx",
                "unsupported Content-Encoding \"br\"",
            ),
            (b"", "empty"),
        ] {
            let got = parse(message).unwrap_err();
            assert!(got.contains(error), "{got} for {message:?}");
        }
    }
}
