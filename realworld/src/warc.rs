//! robots.txt captures from WARC files (`.warc`, or `.warc.gz` with one gzip member per record as
//! Common Crawl writes them), read with the `warc` crate.
//!
//! Each `response` record whose block is an HTTP response (`Content-Type: application/http`, or
//! no Content-Type) becomes one [`RealFile`]: its id is the `WARC-Record-ID`, its URL the
//! `WARC-Target-URI`, its fetch the HTTP status with no redirect hop (a 3xx is the redirect
//! response itself: whether the crawler followed it is another record's business), and its body
//! the HTTP body with `chunked` and `gzip`/`deflate` undone ([`crate::http`]). Every other record
//! (`warcinfo`, `request`, `metadata`, `revisit`, a DNS `response`, ...) is skipped.
//!
//! A record that cannot be read is an error naming the file, the record's number and id. By
//! default ([`crate::corpus::each_file`]) it stops the run: an HTTP response we cannot decode
//! would otherwise be dropped silently or tested as garbage. A caller that counts them instead
//! ([`crate::corpus::each_file_counting`]) gets each as an [`Unreadable`] and the run goes on: with
//! the next record after an HTTP-level error, with the next file after a WARC framing error (the
//! reader is then at an unknown offset, so the rest of that file is lost and only the one error is
//! counted).

use std::cell::Cell;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::rc::Rc;

use ::warc::{WarcHeader, WarcReader};
use robotstxt_oracle::Fetch;

use crate::file::{RealFile, Shard};
use crate::http;

/// A record that could not be read, when the caller counts them instead of stopping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The key that sharding used for it: the record's id, or `<file>#<record number>` when the
    /// record has none or could not be framed.
    pub id: String,
    /// What is wrong, naming the file and the record.
    pub error: String,
}

/// Calls `each` for every robots.txt response in the WARC file at `path` that `shard` takes,
/// among its first `limit` responses, in file order. A record that cannot be read is an error,
/// or, when `unreadable` is given, passed to it (if `shard` takes it) and skipped.
pub fn each_response(
    path: &Path,
    shard: Shard,
    limit: Option<usize>,
    each: &mut dyn FnMut(RealFile) -> Result<(), String>,
    mut unreadable: Option<&mut dyn FnMut(Unreadable)>,
) -> Result<(), String> {
    let mut report = |id: String, error: String| -> Result<(), String> {
        match unreadable.as_mut() {
            None => Err(error),
            Some(note) => {
                if shard.takes(&id) {
                    note(Unreadable { id, error });
                }
                Ok(())
            }
        }
    };
    let file =
        std::fs::File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let file = BufReader::with_capacity(1 << 20, file);
    let reader: Box<dyn BufRead> = if path.to_string_lossy().ends_with(".gz") {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    let consumed = Rc::new(Cell::new(0u64));
    let counting = Counting {
        inner: reader,
        consumed: Rc::clone(&consumed),
    };
    let mut record_end = 0;
    let mut previous: Option<String> = None;
    let mut responses = 0;
    for (index, record) in WarcReader::new(counting).iter_raw_records().enumerate() {
        let number = index + 1;
        let after = previous.clone();
        let at = |what: &str| match &after {
            Some(id) => format!("{}: record {number} (after {id}): {what}", path.display()),
            None => format!("{}: record {number}: {what}", path.display()),
        };
        let (headers, block) = match record {
            Ok(record) => record,
            Err(e) => {
                // The reader cannot find the next record: the rest of this file is lost.
                report(format!("{}#{number}", path.display()), at(&describe(&e)))?;
                return Ok(());
            }
        };
        record_end = consumed.get();
        let header = |name: WarcHeader| {
            headers
                .as_ref()
                .get(&name)
                .map(|v| String::from_utf8_lossy(v).trim().to_string())
        };
        let id = header(WarcHeader::RecordID);
        let is_http = header(WarcHeader::ContentType)
            .is_none_or(|t| t.to_ascii_lowercase().starts_with("application/http"));
        let is_response = header(WarcHeader::WarcType).as_deref() == Some("response");
        if let Some(id) = &id {
            previous = Some(id.clone());
        }
        if !is_response || !is_http {
            continue;
        }
        if limit.is_some_and(|limit| responses >= limit) {
            return Ok(());
        }
        responses += 1;
        let Some(id) = id else {
            let key = format!("{}#{number}", path.display());
            report(key, at("a response record without WARC-Record-ID"))?;
            continue;
        };
        if !shard.takes(&id) {
            continue;
        }
        let response = match http::parse(&block) {
            Ok(response) => response,
            Err(e) => {
                let error = at(&format!("{id}: {e}"));
                report(id, error)?;
                continue;
            }
        };
        let robots_url = header(WarcHeader::TargetURI).map(|uri| {
            // WARC 1.1's own example writes the URI in angle brackets; readers accept both.
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .map(str::to_string)
                .unwrap_or(uri)
        });
        each(RealFile {
            id,
            robots_url,
            fetch: Fetch::Status {
                status: response.status,
                redirects: 0,
            },
            body: response.body,
        })?;
    }
    if consumed.get() > record_end {
        let error = format!(
            "{}: {} octets after the last whole record are not a WARC record (a truncated file?)",
            path.display(),
            consumed.get() - record_end
        );
        report(format!("{}#end", path.display()), error)?;
    }
    Ok(())
}

/// The warc crate's error with its cause, which its `Display` leaves out.
fn describe(error: &::warc::Error) -> String {
    match error {
        ::warc::Error::ReadData(io) => format!("cannot read: {io}"),
        ::warc::Error::ParseHeaders(_) => "the WARC header block cannot be parsed".to_string(),
        ::warc::Error::UnexpectedEOB => {
            "the file ends before the record's Content-Length octets".to_string()
        }
        ::warc::Error::ReadOverflow => {
            "the record's block does not end where its Content-Length says".to_string()
        }
        other => other.to_string(),
    }
}

/// A reader that counts the octets its user consumed (not those read ahead), so that the end of
/// the last whole record is known when the warc crate's iterator stops.
struct Counting {
    inner: Box<dyn BufRead>,
    consumed: Rc<Cell<u64>>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + n as u64);
        Ok(n)
    }
}

impl BufRead for Counting {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.consumed.set(self.consumed.get() + amount as u64);
        self.inner.consume(amount);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ::warc::{RawRecordHeader, WarcWriter};
    use std::collections::HashMap;
    use std::io::Write;
    use std::path::PathBuf;

    /// One WARC record: its type, id, target and block.
    pub(crate) struct Rec<'a> {
        pub warc_type: &'a str,
        pub id: &'a str,
        pub target: &'a str,
        pub content_type: &'a str,
        pub block: Vec<u8>,
    }

    /// A `response` record of an HTTP response with this head and body.
    pub(crate) fn response<'a>(id: &'a str, target: &'a str, head: &str, body: &[u8]) -> Rec<'a> {
        let mut block = format!("{head}\r\n\r\n").into_bytes();
        block.extend_from_slice(body);
        Rec {
            warc_type: "response",
            id,
            target,
            content_type: "application/http; msgtype=response",
            block,
        }
    }

    /// The records written with the warc crate's writer, one gzip member each when `gzip`.
    pub(crate) fn write_warc(path: &Path, records: &[Rec], gzip: bool) {
        let mut out = Vec::new();
        for rec in records {
            let mut headers = HashMap::new();
            headers.insert(WarcHeader::WarcType, rec.warc_type.as_bytes().to_vec());
            headers.insert(WarcHeader::RecordID, rec.id.as_bytes().to_vec());
            headers.insert(WarcHeader::Date, b"2026-11-23T00:00:00Z".to_vec());
            headers.insert(WarcHeader::TargetURI, rec.target.as_bytes().to_vec());
            headers.insert(
                WarcHeader::ContentType,
                rec.content_type.as_bytes().to_vec(),
            );
            headers.insert(
                WarcHeader::ContentLength,
                rec.block.len().to_string().into_bytes(),
            );
            let header = RawRecordHeader {
                version: "1.0".to_string(),
                headers,
            };
            let mut one = Vec::new();
            WarcWriter::new(&mut one)
                .write_raw(header, &rec.block)
                .unwrap();
            if gzip {
                let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                encoder.write_all(&one).unwrap();
                out.extend(encoder.finish().unwrap());
            } else {
                out.extend(one);
            }
        }
        std::fs::write(path, out).unwrap();
    }

    fn read(path: &Path, shard: Shard, limit: Option<usize>) -> Result<Vec<RealFile>, String> {
        let mut files = Vec::new();
        each_response(
            path,
            shard,
            limit,
            &mut |f| {
                files.push(f);
                Ok(())
            },
            None,
        )?;
        Ok(files)
    }

    /// The files read and the unreadable records counted, over `shard`.
    fn read_counting(path: &Path, shard: Shard) -> (Vec<RealFile>, Vec<Unreadable>) {
        let (mut files, mut bad) = (Vec::new(), Vec::new());
        each_response(
            path,
            shard,
            None,
            &mut |f| {
                files.push(f);
                Ok(())
            },
            Some(&mut |u| bad.push(u)),
        )
        .unwrap();
        (files, bad)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// The records of the tests: a warcinfo, a request, and responses 200, 404, 503, 301,
    /// chunked and gzip.
    pub(crate) fn sample() -> Vec<Rec<'static>> {
        vec![
            Rec {
                warc_type: "warcinfo",
                id: "<urn:uuid:00000000-0000-0000-0000-000000000000>",
                target: "",
                content_type: "application/warc-fields",
                block: b"software: test\r\n".to_vec(),
            },
            Rec {
                warc_type: "request",
                id: "<urn:uuid:00000000-0000-0000-0000-000000000001>",
                target: "http://a.example/robots.txt",
                content_type: "application/http; msgtype=request",
                block: b"GET /robots.txt HTTP/1.1\r\nHost: a.example\r\n\r\n".to_vec(),
            },
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000002>",
                "http://a.example/robots.txt",
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain",
                b"User-agent: *\r\nDisallow: /a\r\n",
            ),
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000003>",
                "https://b.example/robots.txt",
                "HTTP/1.1 404 Not Found",
                b"<html>not here</html>",
            ),
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000004>",
                "<https://c.example/robots.txt>",
                "HTTP/1.1 503 Service Unavailable",
                b"",
            ),
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000005>",
                "http://d.example/robots.txt",
                "HTTP/1.1 301 Moved Permanently\r\nLocation: https://d.example/robots.txt",
                b"",
            ),
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000006>",
                "http://e.example/robots.txt",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked",
                b"8\r\nDisallow\r\n6\r\n: /e\r\n\r\n0\r\n\r\n",
            ),
            response(
                "<urn:uuid:00000000-0000-0000-0000-000000000007>",
                "http://f.example/robots.txt",
                "HTTP/1.1 200 OK\r\nContent-Encoding: gzip",
                &gzip(b"Disallow: /f\n"),
            ),
        ]
    }

    fn check_sample(files: &[RealFile]) {
        let got: Vec<(&str, Option<&str>, Fetch, &[u8])> = files
            .iter()
            .map(|f| (&f.id[..], f.robots_url.as_deref(), f.fetch, &f.body[..]))
            .collect();
        let status = |status| Fetch::Status {
            status,
            redirects: 0,
        };
        let expected: Vec<(&str, Option<&str>, Fetch, &[u8])> = vec![
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000002>",
                Some("http://a.example/robots.txt"),
                status(200),
                b"User-agent: *\r\nDisallow: /a\r\n",
            ),
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000003>",
                Some("https://b.example/robots.txt"),
                status(404),
                b"<html>not here</html>",
            ),
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000004>",
                Some("https://c.example/robots.txt"),
                status(503),
                b"",
            ),
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000005>",
                Some("http://d.example/robots.txt"),
                status(301),
                b"",
            ),
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000006>",
                Some("http://e.example/robots.txt"),
                status(200),
                b"Disallow: /e\r\n",
            ),
            (
                "<urn:uuid:00000000-0000-0000-0000-000000000007>",
                Some("http://f.example/robots.txt"),
                status(200),
                b"Disallow: /f\n",
            ),
        ];
        assert_eq!(got, expected);
    }

    fn tmp_file(dir: &tempfile::TempDir, name: &str) -> PathBuf {
        dir.path().join(name)
    }

    #[test]
    fn responses_of_a_plain_warc() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "sample.warc");
        write_warc(&path, &sample(), false);
        check_sample(&read(&path, Shard::ALL, None).unwrap());
    }

    #[test]
    fn responses_of_a_gzipped_warc() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "sample.warc.gz");
        write_warc(&path, &sample(), true);
        check_sample(&read(&path, Shard::ALL, None).unwrap());
    }

    #[test]
    fn limit_counts_responses_and_shards_split_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "sample.warc");
        write_warc(&path, &sample(), false);
        let first: Vec<String> = read(&path, Shard::ALL, Some(2))
            .unwrap()
            .into_iter()
            .map(|f| f.id)
            .collect();
        assert_eq!(
            first,
            [
                "<urn:uuid:00000000-0000-0000-0000-000000000002>",
                "<urn:uuid:00000000-0000-0000-0000-000000000003>"
            ]
        );
        let mut union = Vec::new();
        for index in 0..3 {
            let shard = Shard { index, count: 3 };
            for f in read(&path, shard, None).unwrap() {
                assert!(shard.takes(&f.id));
                union.push(f);
            }
        }
        union.sort_by(|a, b| a.id.cmp(&b.id));
        check_sample(&union);
    }

    #[test]
    fn a_bad_http_response_names_the_file_and_the_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "bad.warc");
        let mut records = sample();
        records.insert(
            3,
            response(
                "<urn:uuid:bad>",
                "http://x.example/robots.txt",
                "HTTP/1.1 200 OK\r\nContent-Encoding: gzip",
                b"not gzip",
            ),
        );
        write_warc(&path, &records, false);
        let error = read(&path, Shard::ALL, None).unwrap_err();
        assert!(error.starts_with(&format!("{}: record 4 (after <urn:uuid:00000000-0000-0000-0000-000000000002>): <urn:uuid:bad>: Content-Encoding gzip: cannot decode", path.display())), "{error}");
    }

    #[test]
    fn a_truncated_warc_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "cut.warc");
        write_warc(&path, &sample(), false);
        let bytes = std::fs::read(&path).unwrap();
        // Cut inside the last record's block, then inside its header block.
        for cut in [bytes.len() - 10, bytes.len() - 40 - sample()[7].block.len()] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let error = read(&path, Shard::ALL, None).unwrap_err();
            assert!(error.starts_with(&path.display().to_string()), "{error}");
            assert!(
                error.contains("record 8") || error.contains("after the last whole record"),
                "{error}"
            );
        }
    }

    #[test]
    fn a_missing_file_is_an_error() {
        let error = read(Path::new("/nonexistent/x.warc"), Shard::ALL, None).unwrap_err();
        assert!(
            error.starts_with("/nonexistent/x.warc: cannot read"),
            "{error}"
        );
    }

    #[test]
    fn counted_bad_responses_are_skipped_and_the_run_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "bad.warc.gz");
        let mut records = sample();
        records.insert(
            3,
            response(
                "<urn:uuid:bad>",
                "http://x.example/robots.txt",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked",
                b"zz\r\n",
            ),
        );
        write_warc(&path, &records, true);
        let (files, bad) = read_counting(&path, Shard::ALL);
        check_sample(&files);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].id, "<urn:uuid:bad>");
        assert!(
            bad[0].error.contains("not a chunk size"),
            "{}",
            bad[0].error
        );
        // Counted by the one shard that takes its id.
        let counted: usize = (0..4)
            .map(|index| read_counting(&path, Shard { index, count: 4 }).1.len())
            .sum();
        assert_eq!(counted, 1);
    }

    #[test]
    fn a_counted_framing_error_loses_the_rest_of_the_file_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = tmp_file(&dir, "cut.warc");
        write_warc(&path, &sample(), false);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        let (files, bad) = read_counting(&path, Shard::ALL);
        assert_eq!(files.len(), 5);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].id, format!("{}#8", path.display()));
        assert!(bad[0].error.contains("record 8"), "{}", bad[0].error);
    }
}
