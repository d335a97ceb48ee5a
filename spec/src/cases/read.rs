//! Reading a parsed case file into a [`Case`], value by value, so that every problem in a file
//! that parses is reported, each with its line and column, not only the first. The fields are those
//! of the types in `model.rs`, from which `schema.json` is generated (a test checks that they agree).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::PathBuf;

use robotstxt_oracle::{Fetch, ProfileId, Verdict};
use serde_yaml::{Mapping, Value};

use super::case::{Case, CaseFetch, Check, PreferenceCheck};
use super::citation::Citation;
use super::escape;
use super::locate::locate;
use super::model::{
    check_absolute_url, parse_verdict, AbsoluteUrl, BodyPart, CaseUrl, CategoryLabel,
    PreferenceName, ProductToken, StatementRef, Tag, TextEncoding, Time,
};
use robotstxt_oracle::history::format_minutes;

/// A problem: 1-based line and column, and what is wrong.
pub type Located = (Option<usize>, Option<usize>, String);

/// Generated bodies may not exceed this (a typo in `repeat` must not exhaust memory).
pub const MAX_GENERATED_BODY: usize = 64 * 1024 * 1024;

const EMPTY_LIST: &str = "the list is empty; give at least one entry";

/// The fields of one kind of map in a case file.
#[derive(Debug)]
pub struct Fields {
    /// What the map is, for messages.
    pub what: &'static str,
    /// Every field it may have.
    pub known: &'static [&'static str],
    /// The fields it must have.
    pub required: &'static [&'static str],
}

/// A case file (`model::CaseFile`).
pub const CASE_FIELDS: Fields = Fields {
    what: "a case",
    known: &[
        "title",
        "cite",
        "tags",
        "covers",
        "note",
        "robots_url",
        "body",
        "body_escaped",
        "body_generated",
        "fetch",
        "fetches",
        "checks",
    ],
    required: &["title", "cite", "checks"],
};

/// A check (`model::CheckSpec`).
pub const CHECK_FIELDS: Fields = Fields {
    what: "a check",
    known: &[
        "agent",
        "url",
        "expect",
        "category",
        "expect_preference",
        "at",
        "note",
    ],
    required: &["agent", "url"],
};

/// `body_generated` (`model::GeneratedBody`).
pub const GENERATED_FIELDS: Fields = Fields {
    what: "body_generated",
    known: &["encoding", "parts"],
    required: &["parts"],
};

/// A part of `body_generated` (`model::BodyPart`).
pub const PART_FIELDS: Fields = Fields {
    what: "a part",
    known: &["text", "escaped", "repeat"],
    required: &[],
};

/// `fetch` (`model::FetchSpec`).
pub const FETCH_FIELDS: Fields = Fields {
    what: "fetch",
    known: &["status", "redirects", "unreachable"],
    required: &[],
};

/// A fetch of a history (`model::TimedFetchSpec`).
pub const TIMED_FETCH_FIELDS: Fields = Fields {
    what: "a fetch of `fetches`",
    known: &[
        "at",
        "status",
        "redirects",
        "unreachable",
        "body",
        "body_escaped",
    ],
    required: &["at"],
};

/// Reads case `id` from `value`, the parse of `text`; every problem, or the case.
pub fn read_case(id: &str, value: &Value, text: &str) -> Result<Case, Vec<Located>> {
    let mut reader = Reader {
        text,
        problems: Vec::new(),
    };
    match reader.case(id, value) {
        Some(case) if reader.problems.is_empty() => Ok(case),
        // Every value that could not be read was reported where it was found.
        _ => Err(reader.problems),
    }
}

/// A check as read, by its question.
enum ReadCheck {
    /// `expect`: the verdict per profile.
    Crawl(Check),
    /// `category` and `expect_preference`: the `aipref` question.
    Preference(PreferenceCheck),
}

/// Where a problem points: the entry's key, or its value.
#[derive(Clone, Copy)]
enum At {
    Key,
    Value,
}

/// A map of the case file, with the path it was found at.
struct Map<'v> {
    map: &'v Mapping,
    path: String,
}

impl<'v> Map<'v> {
    /// The value of `name`, if written.
    fn get(&self, name: &str) -> Option<&'v Value> {
        self.map.get(name)
    }

    /// The value of an optional `name`: absent when not written or written empty (`null`).
    fn optional(&self, name: &str) -> Option<&'v Value> {
        self.get(name).filter(|v| !v.is_null())
    }

    /// The path of `name` in this map.
    fn field(&self, name: &str) -> String {
        join(&self.path, name)
    }
}

/// `path.name`, or `name` at the top.
fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// What a YAML value is, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean; quote it to make it text",
        Value::Number(_) => "a number; quote it to make it text",
        Value::String(_) => "text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a map",
        Value::Tagged(_) => "a tagged value",
    }
}

/// Collects problems while reading.
struct Reader<'t> {
    text: &'t str,
    problems: Vec<Located>,
}

impl Reader<'_> {
    /// Records `message` about the entry at `path`, pointing at its key or value, and naming
    /// `prefix` (the path, or the map the entry is in).
    fn report_at(&mut self, path: &str, at: At, prefix: &str, message: impl Display) {
        let (line, column) = match (locate(self.text, path), at) {
            (Some(spot), At::Key) => spot.key,
            (Some(spot), At::Value) => spot.value,
            (None, _) => (1, 1),
        };
        let message = if prefix.is_empty() {
            message.to_string()
        } else {
            format!("{prefix}: {message}")
        };
        self.problems.push((Some(line), Some(column), message));
    }

    /// Records `message` about the value at `path`.
    fn report(&mut self, path: &str, message: impl Display) {
        self.report_at(path, At::Value, path, message);
    }

    /// `result`'s value, or its error reported at the value at `path`.
    fn valid<T>(&mut self, path: &str, result: Result<T, String>) -> Option<T> {
        result.map_err(|message| self.report(path, message)).ok()
    }

    /// The map at `path`, with each unknown field and each missing required field reported.
    fn map<'v>(&mut self, value: &'v Value, path: &str, fields: &Fields) -> Option<Map<'v>> {
        let Value::Mapping(map) = value else {
            let names = fields.known.join(", ");
            self.report(
                path,
                format!(
                    "expected a map (the fields of {}: {names}), found {}",
                    fields.what,
                    kind(value)
                ),
            );
            return None;
        };
        for key in map.keys() {
            match key.as_str() {
                Some(name) if fields.known.contains(&name) => {}
                Some(name) => self.report_at(
                    &join(path, name),
                    At::Key,
                    path,
                    format!(
                        "unknown field `{name}`; the fields of {} are {} (see spec-cases/README.md)",
                        fields.what,
                        fields.known.join(", ")
                    ),
                ),
                None => self.report(path, format!("a field name must be text, not {}", kind(key))),
            }
        }
        for name in fields.required {
            if !map.contains_key(*name) {
                self.report(
                    path,
                    format!(
                        "missing field `{name}` ({} needs {})",
                        fields.what,
                        fields.required.join(", ")
                    ),
                );
            }
        }
        Some(Map {
            map,
            path: path.to_string(),
        })
    }

    /// The text at `path`.
    fn string<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v str> {
        if let Value::String(text) = value {
            return Some(text);
        }
        self.report(path, format!("expected text, found {}", kind(value)));
        None
    }

    /// The whole number at `path`, at most `max`.
    fn number(&mut self, value: &Value, path: &str, max: u64) -> Option<u64> {
        match value.as_u64() {
            Some(n) if n <= max => Some(n),
            _ => {
                self.report(
                    path,
                    format!("expected a whole number from 0 to {max}, found {value:?}"),
                );
                None
            }
        }
    }

    /// The list at `path` (`value` is `None` when it is not written), each item read by `item`;
    /// `None` if the list or any item is bad, after reporting every bad item.
    fn list<T>(
        &mut self,
        value: Option<&Value>,
        path: &str,
        non_empty: bool,
        mut item: impl FnMut(&mut Self, &Value, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        let Some(value) = value else {
            // Not written: an optional list is empty; a required one was reported missing.
            return (!non_empty).then(Vec::new);
        };
        let Value::Sequence(items) = value else {
            self.report(path, format!("expected a list, found {}", kind(value)));
            return None;
        };
        if non_empty && items.is_empty() {
            self.report(path, EMPTY_LIST);
            return None;
        }
        let read: Vec<Option<T>> = items
            .iter()
            .enumerate()
            .map(|(i, v)| item(self, v, &format!("{path}[{i}]")))
            .collect();
        read.into_iter().collect()
    }

    /// An optional field: `Some(None)` when not written, `None` when written but bad (reported).
    fn optional<T>(
        &mut self,
        value: Option<&Value>,
        read: impl FnOnce(&mut Self, &Value) -> Option<T>,
    ) -> Option<Option<T>> {
        match value {
            None => Some(None),
            Some(value) => read(self, value).map(Some),
        }
    }

    /// The case: every field read (and every problem reported) before any is given up on.
    fn case(&mut self, id: &str, value: &Value) -> Option<Case> {
        if value.is_null() {
            self.report("", "the file is empty; a case needs title, cite and checks");
            return None;
        }
        let map = self.map(value, "", &CASE_FIELDS)?;
        let title = map
            .get("title")
            .and_then(|v| self.string(v, "title"))
            .map(str::to_string);
        let cite = self.list(map.get("cite"), "cite", true, |r, v, path| {
            let text = r.string(v, path)?;
            r.valid(path, Citation::parse(text))
        });
        let tags = self.list(map.get("tags"), "tags", false, |r, v, path| {
            let text = r.string(v, path)?;
            r.valid(path, Tag::parse(text))
        });
        let covers = self.list(map.get("covers"), "covers", false, |r, v, path| {
            let text = r.string(v, path)?;
            r.valid(path, StatementRef::parse(text))
        });
        let note = self.optional(map.optional("note"), |r, v| {
            r.string(v, "note").map(str::to_string)
        });
        let robots_url = self.optional(map.optional("robots_url"), |r, v| {
            let text = r.string(v, "robots_url")?;
            r.valid("robots_url", AbsoluteUrl::parse(text))
        });
        let fetch = self.optional(map.optional("fetch"), |r, v| r.fetch(v, "fetch"));
        let history = map.optional("fetches").is_some();
        let fetches = self.optional(map.optional("fetches"), |r, v| r.history(v, &map));
        let body = if history {
            Some(Vec::new())
        } else {
            self.body(&map, fetch.as_ref().map(|f| f.unwrap_or_default()))
        };
        let read = self.list(map.get("checks"), "checks", true, |r, v, path| {
            r.check(v, path)
        });
        let (checks, preferences) = match read {
            Some(read) => self.one_question(read, robots_url.as_ref(), history),
            None => (None, None),
        };
        if let (Some(robots_url), Some(checks)) = (&robots_url, &checks) {
            self.scope_checks(robots_url.is_some(), history, checks);
        }
        if let (Some(fetches), Some(checks)) = (&fetches, &checks) {
            self.time_checks(fetches.as_deref(), checks);
        }
        let preferences = preferences?;
        let (title, cite, tags, covers, note, robots_url, fetch, fetches, body, checks) = (
            title?,
            cite?,
            tags?,
            covers?,
            note?,
            robots_url?,
            fetch?,
            fetches?,
            body?,
            checks?,
        );
        Some(Case {
            id: id.to_string(),
            path: PathBuf::new(),
            title,
            cite,
            tags: tags.into_iter().map(|t| t.0).collect(),
            covers: covers.into_iter().map(|s| s.0).collect(),
            note,
            body,
            fetch: fetch.unwrap_or_default(),
            robots_url: robots_url.map(|u| u.0),
            fetches: fetches.unwrap_or_default(),
            checks: checks
                .into_iter()
                .enumerate()
                .map(|(i, check)| Check {
                    number: i + 1,
                    ..check
                })
                .collect(),
            preferences: preferences
                .into_iter()
                .enumerate()
                .map(|(i, check)| PreferenceCheck {
                    number: i + 1,
                    ..check
                })
                .collect(),
        })
    }

    /// The checks split by question: a case asks the crawl question (`expect`) or the `aipref`
    /// question (`category`), not both; an `aipref` check is asked of one fetched body, so not in
    /// a case with `fetches`, and with the case's `robots_url` its URL is absolute.
    #[allow(clippy::type_complexity)]
    fn one_question(
        &mut self,
        read: Vec<ReadCheck>,
        robots_url: Option<&Option<AbsoluteUrl>>,
        history: bool,
    ) -> (Option<Vec<Check>>, Option<Vec<PreferenceCheck>>) {
        let (mut checks, mut preferences) = (Vec::new(), Vec::new());
        for check in read {
            match check {
                ReadCheck::Crawl(check) => checks.push(check),
                ReadCheck::Preference(check) => preferences.push(check),
            }
        }
        if !checks.is_empty() && !preferences.is_empty() {
            self.report(
                "checks",
                "a case asks one question: every check gives `expect` (the verdict per profile), or every check gives `category` and `expect_preference` (the aipref question); put the aipref checks in a case of their own",
            );
            return (None, None);
        }
        let mut fine = true;
        for (i, check) in preferences.iter().enumerate() {
            if history {
                self.report(
                    &format!("checks[{i}].category"),
                    "the aipref question is asked of one fetched body, not of a history: give `body` (and `fetch`) instead of `fetches`",
                );
                fine = false;
            }
            if robots_url.is_some_and(Option::is_some) && check_absolute_url(&check.url).is_err() {
                self.report(
                    &format!("checks[{i}].url"),
                    format!(
                        "`{}` is not an absolute URL, but the case gives `robots_url`: write the URL with its scheme and host",
                        check.url
                    ),
                );
                fine = false;
            }
        }
        (Some(checks), fine.then_some(preferences))
    }

    /// Step 0 compares each check's URL with the robots.txt URL: with one, a URL must be absolute
    /// (a path names no host); without one (or a history, where a copy can expire), no check may
    /// expect `not-governed`.
    fn scope_checks(&mut self, has_robots_url: bool, has_history: bool, checks: &[Check]) {
        for (i, check) in checks.iter().enumerate() {
            if has_robots_url && check_absolute_url(&check.url).is_err() {
                let example = if check.url.starts_with('/') {
                    check.url.as_str()
                } else {
                    "/"
                };
                self.report(
                    &format!("checks[{i}].url"),
                    format!(
                        "`{}` is not an absolute URL, but the case gives `robots_url`: write the \
                         URL with its scheme and host (e.g. `https://example.com{example}`)",
                        check.url
                    ),
                );
            }
            if !has_robots_url
                && !has_history
                && check.expect.values().any(|v| *v == Verdict::NotGoverned)
            {
                self.report(
                    &format!("checks[{i}].expect"),
                    "`not-governed` needs the case's `robots_url` or `fetches` (without them the \
                     file governs every URL it is asked about)",
                );
            }
        }
    }

    /// With a history every check is asked at a time, at or after the first fetch; without one,
    /// no check has a time.
    fn time_checks(&mut self, fetches: Option<&[CaseFetch]>, checks: &[Check]) {
        for (i, check) in checks.iter().enumerate() {
            match (fetches.and_then(|f| f.first()), check.at) {
                (Some(_), None) => self.report(
                    &format!("checks[{i}]"),
                    "the case gives `fetches`, so every check needs its time `at` (e.g. `at: 13h`)",
                ),
                (None, Some(_)) => self.report(
                    &format!("checks[{i}].at"),
                    "`at` needs the case's `fetches` (a check of a single fetch has no time)",
                ),
                (Some(first), Some(at)) if at < first.at => self.report(
                    &format!("checks[{i}].at"),
                    format!(
                        "the check is asked at {} but the first fetch is at {}: ask after it",
                        format_minutes(at),
                        format_minutes(first.at)
                    ),
                ),
                _ => {}
            }
        }
    }

    /// `fetches`: a history, in time order, each fetch with its outcome and (for a 2xx) a body,
    /// and no single-fetch `body` or `fetch` beside it.
    fn history(&mut self, value: &Value, case: &Map<'_>) -> Option<Vec<CaseFetch>> {
        for name in ["body", "body_escaped", "body_generated", "fetch"] {
            if case.optional(name).is_some() {
                self.report_at(
                    name,
                    At::Key,
                    name,
                    "a case with `fetches` gives each fetch its own outcome and body; remove this field",
                );
            }
        }
        let fetches = self.list(Some(value), "fetches", true, |r, v, path| {
            r.timed_fetch(v, path)
        })?;
        let mut in_order = true;
        for (i, pair) in fetches.windows(2).enumerate() {
            if pair[1].at <= pair[0].at {
                self.report(
                    &format!("fetches[{}].at", i + 1),
                    format!(
                        "fetches are in time order: {} is not after the previous fetch's {}",
                        format_minutes(pair[1].at),
                        format_minutes(pair[0].at)
                    ),
                );
                in_order = false;
            }
        }
        in_order.then_some(fetches)
    }

    /// One fetch of a history.
    fn timed_fetch(&mut self, value: &Value, path: &str) -> Option<CaseFetch> {
        let map = self.map(value, path, &TIMED_FETCH_FIELDS)?;
        let at_path = map.field("at");
        let at = map.get("at").and_then(|v| {
            let text = self.string(v, &at_path)?;
            self.valid(&at_path, Time::parse(text))
        });
        let fetch = self.outcome(&map, path);
        let body = self.optional(map.optional("body"), |r, v| {
            r.string(v, &map.field("body"))
                .map(|text| text.as_bytes().to_vec())
        });
        let escaped_path = map.field("body_escaped");
        let escaped = self.optional(map.optional("body_escaped"), |r, v| {
            let text = r.string(v, &escaped_path)?;
            r.valid(&escaped_path, escape::decode(text))
        });
        let (at, fetch, body, escaped) = (at?, fetch?, body?, escaped?);
        let success = matches!(
            fetch,
            Fetch::Status {
                status: 200..=299,
                ..
            }
        );
        let body = match (body, escaped) {
            (Some(_), Some(_)) => {
                self.report_at(
                    &escaped_path,
                    At::Key,
                    path,
                    "the fetch has two bodies: keep one of `body` and `body_escaped`",
                );
                return None;
            }
            (None, None) if success => {
                self.report_at(
                    path,
                    At::Value,
                    path,
                    "a successful fetch needs its `body` (or `body_escaped`)",
                );
                return None;
            }
            (body, escaped) => body.or(escaped).unwrap_or_default(),
        };
        Some(CaseFetch {
            at: at.0,
            fetch,
            body,
        })
    }

    /// The body: exactly one of `body`, `body_escaped` and `body_generated`, or none when the fetch
    /// (if it could be read) did not succeed.
    fn body(&mut self, map: &Map<'_>, fetch: Option<Fetch>) -> Option<Vec<u8>> {
        let written: Vec<&str> = ["body", "body_escaped", "body_generated"]
            .into_iter()
            .filter(|name| map.optional(name).is_some())
            .collect();
        let body = self.optional(map.optional("body"), |r, v| {
            r.string(v, "body").map(|text| text.as_bytes().to_vec())
        });
        let escaped = self.optional(map.optional("body_escaped"), |r, v| {
            let text = r.string(v, "body_escaped")?;
            r.valid("body_escaped", escape::decode(text))
        });
        let generated = self.optional(map.optional("body_generated"), |r, v| {
            r.generated(v, "body_generated")
        });
        let success = matches!(
            fetch,
            Some(Fetch::Status {
                status: 200..=299,
                ..
            })
        );
        match written.len() {
            0 if success => {
                self.report(
                    "",
                    "the case has no body: give one of `body`, `body_escaped` or `body_generated`",
                );
                return None;
            }
            0 | 1 => {}
            _ => {
                self.report_at(
                    written[1],
                    At::Key,
                    "",
                    "the case has more than one body: keep exactly one of `body`, `body_escaped`, `body_generated`",
                );
                return None;
            }
        }
        Some(body?.or(escaped?).or(generated?).unwrap_or_default())
    }

    /// `fetch`: a status with redirects, or unreachable.
    fn fetch(&mut self, value: &Value, path: &str) -> Option<Fetch> {
        let map = self.map(value, path, &FETCH_FIELDS)?;
        self.outcome(&map, path)
    }

    /// A fetch outcome from the `status`, `redirects` and `unreachable` of `map` (at `path`).
    fn outcome(&mut self, map: &Map<'_>, path: &str) -> Option<Fetch> {
        let status_path = map.field("status");
        let status = self.optional(map.optional("status"), |r, v| {
            // Any status a server may send, those outside 100 to 599 included (each profile
            // decides what they mean: `robotstxt_oracle::fetch`).
            let status = r.number(v, &status_path, u64::from(u16::MAX))?;
            u16::try_from(status).ok()
        });
        let redirects_path = map.field("redirects");
        let redirects = self.optional(map.optional("redirects"), |r, v| {
            r.number(v, &redirects_path, u64::from(u32::MAX))
                .map(|n| n as u32)
        });
        let unreachable_path = map.field("unreachable");
        let unreachable = self.optional(map.optional("unreachable"), |r, v| {
            v.as_bool().or_else(|| {
                r.report(
                    &unreachable_path,
                    format!("expected true or false, found {}", kind(v)),
                );
                None
            })
        });
        let (status, redirects, unreachable) = (status?, redirects?, unreachable?);
        let combination = |r: &mut Self, message: &str| {
            r.report_at(path, At::Key, path, message);
            None
        };
        match (unreachable, status, redirects) {
            (Some(true), None, None) => Some(Fetch::Unreachable),
            (Some(true), _, _) => combination(
                self,
                "`unreachable: true` cannot have a status or redirects",
            ),
            (Some(false), _, _) => combination(self, "write `unreachable: true` or leave it out"),
            (None, status, redirects) => Some(Fetch::Status {
                status: status.unwrap_or(200),
                redirects: redirects.unwrap_or(0),
            }),
        }
    }

    /// `body_generated`: its parts' octets, repeated and joined.
    fn generated(&mut self, value: &Value, path: &str) -> Option<Vec<u8>> {
        let map = self.map(value, path, &GENERATED_FIELDS)?;
        let encoding_path = map.field("encoding");
        let encoding = match map.get("encoding") {
            None => Some(TextEncoding::default()),
            Some(v) => self
                .string(v, &encoding_path)
                .and_then(|text| self.valid(&encoding_path, TextEncoding::parse(text))),
        };
        let parts = self.list(map.get("parts"), &map.field("parts"), true, |r, v, path| {
            r.part(v, path, encoding)
        });
        let (parts, _) = (parts?, encoding?);
        let total = parts.iter().fold(0usize, |total, (octets, repeat)| {
            total.saturating_add(octets.len().saturating_mul(*repeat as usize))
        });
        if total > MAX_GENERATED_BODY {
            self.report_at(
                path,
                At::Key,
                path,
                format!("the body is larger than {MAX_GENERATED_BODY} octets; lower `repeat`"),
            );
            return None;
        }
        let mut body = Vec::with_capacity(total);
        for (octets, repeat) in &parts {
            for _ in 0..*repeat {
                body.extend_from_slice(octets);
            }
        }
        Some(body)
    }

    /// One part of `body_generated`: its octets (in `encoding`, when that could be read) and how
    /// many times they repeat.
    fn part(
        &mut self,
        value: &Value,
        path: &str,
        encoding: Option<TextEncoding>,
    ) -> Option<(Vec<u8>, u32)> {
        let map = self.map(value, path, &PART_FIELDS)?;
        let text = self.optional(map.optional("text"), |r, v| {
            r.string(v, &map.field("text")).map(str::to_string)
        });
        let escaped_path = map.field("escaped");
        let escaped = self.optional(map.optional("escaped"), |r, v| {
            let text = r.string(v, &escaped_path)?;
            r.valid(&escaped_path, escape::decode(text))
        });
        let repeat = match map.get("repeat") {
            None => Some(1),
            Some(v) => self
                .number(v, &map.field("repeat"), u64::from(u32::MAX))
                .map(|n| n as u32),
        };
        let part = BodyPart {
            text: text?,
            escaped: escaped?.map(super::model::EscapedBytes),
            repeat: repeat?,
        };
        let octets = self.valid(path, part.octets(encoding?))?;
        Some((octets, part.repeat))
    }

    /// One check (numbered by the caller): a crawl check or an `aipref` check.
    fn check(&mut self, value: &Value, path: &str) -> Option<ReadCheck> {
        let map = self.map(value, path, &CHECK_FIELDS)?;
        let agent_path = map.field("agent");
        let agent = map.get("agent").and_then(|v| {
            let text = self.string(v, &agent_path)?;
            self.valid(&agent_path, ProductToken::parse(text))
        });
        let url_path = map.field("url");
        let url = map.get("url").and_then(|v| {
            let text = self.string(v, &url_path)?;
            self.valid(&url_path, CaseUrl::parse(text))
        });
        let expect = self.optional(map.optional("expect"), |r, v| {
            r.expect(v, &map.field("expect"))
        });
        let category_path = map.field("category");
        let category = self.optional(map.optional("category"), |r, v| {
            let text = r.string(v, &category_path)?;
            r.valid(&category_path, CategoryLabel::parse(text))
        });
        let preference_path = map.field("expect_preference");
        let expect_preference = self.optional(map.optional("expect_preference"), |r, v| {
            let text = r.string(v, &preference_path)?;
            r.valid(&preference_path, PreferenceName::parse(text))
        });
        let note = self.optional(map.optional("note"), |r, v| {
            r.string(v, &map.field("note")).map(str::to_string)
        });
        let at_path = map.field("at");
        let at = self.optional(map.optional("at"), |r, v| {
            let text = r.string(v, &at_path)?;
            r.valid(&at_path, Time::parse(text))
        });
        let written = |name: &str| map.optional(name).is_some();
        let question = match (
            written("expect"),
            written("category"),
            written("expect_preference"),
        ) {
            (true, false, false) | (false, true, true) => true,
            (true, _, _) => {
                let name = if written("category") {
                    "category"
                } else {
                    "expect_preference"
                };
                self.report(
                    &map.field(name),
                    format!(
                        "a check asks one question: `expect` (the verdict per profile) or `category` with `expect_preference` (the aipref question), not both; remove `{name}` or `expect`"
                    ),
                );
                false
            }
            (false, true, false) => {
                self.report(
                    &category_path,
                    "`category` needs `expect_preference`: the preference the aipref reading gives (y, n, none or either)",
                );
                false
            }
            (false, false, true) => {
                self.report(
                    &preference_path,
                    "`expect_preference` needs `category`: the category of use asked about (e.g. train-ai or search)",
                );
                false
            }
            (false, false, false) => {
                self.report(
                    path,
                    "a check needs `expect` (the verdict per profile), or `category` and `expect_preference` (the aipref question)",
                );
                false
            }
        };
        let (agent, url, expect, category, expect_preference, at, note) = (
            agent?.0,
            url?.0,
            expect?,
            category?,
            expect_preference?,
            at?,
            note?,
        );
        if !question {
            return None;
        }
        if let (Some(category), Some(preference)) = (category, expect_preference) {
            if at.is_some() {
                self.report(
                    &at_path,
                    "`at` needs the case's `fetches`, and the aipref question is asked of one fetched body",
                );
                return None;
            }
            return Some(ReadCheck::Preference(PreferenceCheck {
                number: 0,
                agent,
                url,
                category: category.0,
                expect: robotstxt_oracle::aipref::Preference::from_name(&preference.0)?,
                note,
            }));
        }
        Some(ReadCheck::Crawl(Check {
            number: 0,
            agent,
            url,
            expect: expect?,
            at: at.map(|t| t.0),
            note,
        }))
    }

    /// `expect`: one verdict for every profile, or a map from profile (or `others`) to verdict
    /// that leaves no profile without one.
    fn expect(&mut self, value: &Value, path: &str) -> Option<BTreeMap<ProfileId, Verdict>> {
        let entries = match value {
            Value::String(text) => {
                let verdict = self.valid(path, parse_verdict(text))?;
                return Some(ProfileId::ALL.iter().map(|&p| (p, verdict)).collect());
            }
            Value::Mapping(entries) => entries,
            other => {
                self.report(
                    path,
                    format!(
                        "expected a verdict (allowed, disallowed, either, not-governed) or a map from profile to verdict, found {}",
                        kind(other)
                    ),
                );
                return None;
            }
        };
        let mut named = BTreeMap::new();
        let mut others = None;
        let mut complete = true;
        for (key, verdict) in entries {
            let Some(name) = key.as_str() else {
                self.report(
                    path,
                    format!("a profile name must be text, not {}", kind(key)),
                );
                complete = false;
                continue;
            };
            let entry = join(path, name);
            let profile = ProfileId::from_name(name);
            if profile.is_none() && name != "others" {
                self.report_at(
                    &entry,
                    At::Key,
                    path,
                    format!("unknown profile `{name}`; use rfc9309, google, draft-1996, original-1994 or others"),
                );
                complete = false;
                continue;
            }
            let verdict = self
                .string(verdict, &entry)
                .and_then(|text| self.valid(&entry, parse_verdict(text)));
            match (profile, verdict) {
                (_, None) => complete = false,
                (Some(profile), Some(verdict)) => {
                    named.insert(profile, verdict);
                }
                (None, Some(verdict)) => others = Some(verdict),
            }
        }
        let has_others = entries.contains_key("others");
        for profile in ProfileId::ALL {
            let written = entries.contains_key(profile.name());
            if !written && !has_others {
                self.report(
                    path,
                    format!(
                        "no verdict for profile `{}`; name it or add `others:`",
                        profile.name()
                    ),
                );
                complete = false;
            } else if !written {
                if let Some(verdict) = others {
                    named.insert(profile, verdict);
                }
            }
        }
        complete.then_some(named)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of an object's properties in the schema, and its required ones.
    fn schema_fields(object: &serde_json::Value) -> (Vec<String>, Vec<String>) {
        let mut known: Vec<String> = object["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        let mut required: Vec<String> = object["required"]
            .as_array()
            .map(|r| r.iter().map(|n| n.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        known.sort();
        required.sort();
        (known, required)
    }

    fn fields(fields: &Fields) -> (Vec<String>, Vec<String>) {
        let sorted = |names: &[&str]| {
            let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            names.sort();
            names
        };
        (sorted(fields.known), sorted(fields.required))
    }

    #[test]
    fn the_reader_knows_the_fields_the_schema_has() {
        let schema = super::super::model::case_schema();
        let defs = &schema["$defs"];
        for (object, read) in [
            (&schema, &CASE_FIELDS),
            (&defs["CheckSpec"], &CHECK_FIELDS),
            (&defs["GeneratedBody"], &GENERATED_FIELDS),
            (&defs["BodyPart"], &PART_FIELDS),
            (&defs["FetchSpec"], &FETCH_FIELDS),
            (&defs["TimedFetchSpec"], &TIMED_FETCH_FIELDS),
        ] {
            assert_eq!(schema_fields(object), fields(read), "{}", read.what);
        }
    }
}
