//! The case format's types, exactly as a case file is written (`spec-cases/README.md`): the JSON
//! Schema is generated from them (the `serde` attributes say what is optional and that unknown
//! fields are errors), and `read.rs` reads a file field by field as they say.
//!
//! Each value that needs checking has its own type whose `parse` validates it.

use std::borrow::Cow;
use std::collections::BTreeMap;

use robotstxt_oracle::{ProfileId, Verdict};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use super::citation::Citation;
use super::statements;

/// One case file.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "robots.txt conformance case",
    description = "One case of the robotstxt-conformance corpus; see spec-cases/README.md."
)]
pub struct CaseFile {
    /// One line: what the case shows.
    pub title: String,
    /// Citations, `document#section` (at least one).
    #[schemars(length(min = 1))]
    pub cite: Vec<Citation>,
    /// Lower-case topic words.
    #[serde(default)]
    pub tags: Vec<Tag>,
    /// RFC 9309 statements this case tests (ids from rfc9309-statements.yaml).
    #[serde(default)]
    pub covers: Vec<StatementRef>,
    /// Free text.
    #[serde(default)]
    pub note: Option<String>,
    /// The URL the body was fetched from; with it, every check's `url` is absolute and step 0
    /// (scope) decides whether this file governs it.
    #[serde(default)]
    pub robots_url: Option<AbsoluteUrl>,
    /// The body as UTF-8 text.
    #[serde(default)]
    pub body: Option<String>,
    /// The body with escapes for arbitrary octets.
    #[serde(default)]
    pub body_escaped: Option<EscapedBytes>,
    /// A body described rather than stored.
    #[serde(default)]
    pub body_generated: Option<GeneratedBody>,
    /// The fetch outcome; absent means HTTP 200 with no redirect.
    #[serde(default)]
    pub fetch: Option<FetchSpec>,
    /// A history: every fetch of the robots.txt file a crawler made, in time order, each with its
    /// outcome and body (instead of `body` and `fetch`); every check then gives its time `at`.
    #[serde(default)]
    #[schemars(length(min = 1))]
    pub fetches: Option<Vec<TimedFetchSpec>>,
    /// The checks, numbered from 1 (at least one).
    #[schemars(length(min = 1))]
    pub checks: Vec<CheckSpec>,
}

/// One check of a case: a crawl question (`expect`, the verdict per profile) or the `aipref`
/// question (`category` and `expect_preference`), never both.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [
    { "required": ["expect"], "not": { "anyOf": [{ "required": ["category"] }, { "required": ["expect_preference"] }] } },
    { "required": ["category", "expect_preference"], "not": { "required": ["expect"] } }
]))]
pub struct CheckSpec {
    /// The crawler's product token.
    pub agent: ProductToken,
    /// An absolute URL or an absolute path.
    pub url: CaseUrl,
    /// The expected verdict per profile (a crawl question).
    #[serde(default)]
    pub expect: Option<Expect>,
    /// The category of use the `aipref` question asks about (`aipref-vocab#6.1` label, e.g.
    /// `train-ai`); with it, the check expects `expect_preference` instead of `expect`.
    #[serde(default)]
    pub category: Option<CategoryLabel>,
    /// The preference the `aipref` reading gives: `y`, `n`, `none` or `either`.
    #[serde(default)]
    pub expect_preference: Option<PreferenceName>,
    /// When the check is asked (only in a case with `fetches`), e.g. `13h`.
    #[serde(default)]
    pub at: Option<Time>,
    /// Free text.
    #[serde(default)]
    pub note: Option<String>,
}

impl JsonSchema for Citation {
    fn schema_name() -> Cow<'static, str> {
        "Citation".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let ids: Vec<String> = super::citation::DOCUMENTS
            .iter()
            .flat_map(|d| d.sections.iter().map(move |s| format!("{}#{}", d.id, s)))
            .collect();
        json_schema!({ "type": "string", "enum": ids })
    }
}

macro_rules! validated_string {
    ($(#[$doc:meta])* $name:ident, $check:expr, $schema:tt) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(pub String);

        impl $name {
            /// Checks `text` and wraps it, or says what is wrong.
            pub fn parse(text: &str) -> Result<$name, String> {
                let check: fn(&str) -> Result<(), String> = $check;
                check(text)?;
                Ok($name(text.to_string()))
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

validated_string!(
    /// A lower-case tag.
    Tag,
    |t| {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            Ok(())
        } else {
            Err(format!("tag `{t}` must be lower-case letters, digits and `-`"))
        }
    },
    { "type": "string", "pattern": "^[a-z0-9-]+$" }
);

validated_string!(
    /// A product token (`rfc9309#2.2.1`): letters, `_` and `-`.
    ProductToken,
    check_product_token,
    { "type": "string", "pattern": "^[A-Za-z_-]+$" }
);

validated_string!(
    /// An absolute URL naming a host (`scheme://host...`) or an absolute path (`/...`)
    /// ([`check_request_url`]).
    CaseUrl,
    check_request_url,
    { "type": "string", "pattern": "^(/|[A-Za-z][A-Za-z0-9+.-]*:)" }
);

validated_string!(
    /// An absolute URL naming a host (`scheme://host...`, [`check_absolute_url`]).
    AbsoluteUrl,
    check_absolute_url,
    { "type": "string", "pattern": "^[A-Za-z][A-Za-z0-9+.-]*:" }
);

/// Checks that `url` is an absolute URL (it has a scheme, RFC 3986 4.3) that names a host:
/// [`robotstxt_oracle::url::check_absolute_url`].
pub fn check_absolute_url(url: &str) -> Result<(), String> {
    robotstxt_oracle::url::check_absolute_url(url)
}

/// Checks that `agent` is a product token (`rfc9309#2.2.1`).
pub fn check_product_token(agent: &str) -> Result<(), String> {
    if robotstxt_oracle::select::is_product_token(agent.as_bytes()) {
        Ok(())
    } else {
        Err(format!(
            "agent `{agent}` is not a product token: use letters, `_` and `-` only (rfc9309#2.2.1)"
        ))
    }
}

/// Checks that `url` can be asked about: a path starting with `/`, or an absolute URL that names a
/// host (not empty), with a port from 0 to 65535 when it gives one; the one test `check`,
/// `--batch`, the playground and the case loader share
/// ([`robotstxt_oracle::url::check_request_url`], with the RFC 3986 reasons). The path and query
/// may hold any octets (the corpus asks about raw spaces and non-ASCII on purpose);
/// `javascript:alert(1)`, `http://`, `http://example.com:99999/x`, `http://exa mple.com/x` and
/// `http://[::1` are refused.
pub fn check_request_url(url: &str) -> Result<(), String> {
    robotstxt_oracle::url::check_request_url(url)
}

/// Checks that `url` is an absolute URL or a path starting with `/`.
pub fn check_case_url(url: &str) -> Result<(), String> {
    let scheme = url.split_once(':').is_some_and(|(s, _)| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if url.starts_with('/') || scheme {
        Ok(())
    } else {
        Err(format!("url `{url}` is neither an absolute URL (`https://example.com/a`) nor a path starting with `/`"))
    }
}

validated_string!(
    /// A category of use as the vocabulary spells its labels (`aipref-vocab#6.1`: lower-case
    /// letters, digits, `_`, `-`, `.` and `*`), defined by the vocabulary or not.
    CategoryLabel,
    |c| {
        if robotstxt_oracle::aipref::is_label(c) {
            Ok(())
        } else {
            Err(format!(
                "category `{c}` is not a usage category label: use lower-case letters, digits, `_`, `-`, `.` and `*` (aipref-vocab#6.1), e.g. train-ai or search"
            ))
        }
    },
    { "type": "string", "pattern": "^[a-z0-9_.*-]+$" }
);

validated_string!(
    /// A preference as a check expects it: `y`, `n`, `none` or `either`.
    PreferenceName,
    |p| {
        match robotstxt_oracle::aipref::Preference::from_name(p) {
            Some(_) => Ok(()),
            None => Err(format!("unknown preference `{p}`; use y, n, none or either")),
        }
    },
    { "type": "string", "enum": ["y", "n", "none", "either"] }
);

validated_string!(
    /// An id from `rfc9309-statements.yaml`.
    StatementRef,
    |s| {
        if statements::statements().iter().any(|st| st.id == s) {
            Ok(())
        } else {
            Err(format!("unknown statement `{s}`; see spec-cases/rfc9309-statements.yaml for the ids"))
        }
    },
    { "type": "string", "pattern": "^rfc9309/" }
);

/// Octets written with escapes (`\xHH`, ...), decoded at load time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapedBytes(pub Vec<u8>);

impl JsonSchema for EscapedBytes {
    fn schema_name() -> Cow<'static, str> {
        "EscapedBytes".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "Text with escapes: \\n \\r \\t \\0 \\\\ \\xHH \\u{HHHH}"
        })
    }
}

/// A body described by parts.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneratedBody {
    /// How text parts are encoded.
    #[serde(default)]
    pub encoding: TextEncoding,
    /// The parts, concatenated (at least one).
    #[schemars(length(min = 1))]
    pub parts: Vec<BodyPart>,
}

/// The encoding of a generated body's text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, JsonSchema)]
pub enum TextEncoding {
    /// UTF-8.
    #[default]
    #[serde(rename = "utf-8")]
    Utf8,
    /// UTF-16, little-endian, no BOM added.
    #[serde(rename = "utf-16le")]
    Utf16le,
    /// UTF-16, big-endian, no BOM added.
    #[serde(rename = "utf-16be")]
    Utf16be,
}

impl TextEncoding {
    /// Parses an encoding's name.
    pub fn parse(name: &str) -> Result<TextEncoding, String> {
        match name {
            "utf-8" => Ok(TextEncoding::Utf8),
            "utf-16le" => Ok(TextEncoding::Utf16le),
            "utf-16be" => Ok(TextEncoding::Utf16be),
            other => Err(format!(
                "unknown encoding `{other}`; use utf-8, utf-16le or utf-16be"
            )),
        }
    }
}

/// One part of a generated body: `text` or `escaped`, repeated.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BodyPart {
    /// Plain text.
    #[serde(default)]
    pub text: Option<String>,
    /// Text with escapes.
    #[serde(default)]
    pub escaped: Option<EscapedBytes>,
    /// How many times (default 1).
    #[serde(default = "one")]
    pub repeat: u32,
}

fn one() -> u32 {
    1
}

impl BodyPart {
    /// The part's octets, once: its text in `encoding`, or its escaped octets as they are.
    pub fn octets(&self, encoding: TextEncoding) -> Result<Vec<u8>, String> {
        match (&self.text, &self.escaped) {
            (Some(text), None) => Ok(match encoding {
                TextEncoding::Utf8 => text.as_bytes().to_vec(),
                TextEncoding::Utf16le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                TextEncoding::Utf16be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            }),
            (None, Some(escaped)) => match encoding {
                TextEncoding::Utf8 => Ok(escaped.0.clone()),
                _ => Err(
                    "`escaped` parts are raw octets and cannot be transcoded; use `text` with utf-16"
                        .into(),
                ),
            },
            _ => Err("give exactly one of `text` or `escaped`".into()),
        }
    }
}

/// The fetch outcome of a case.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FetchSpec {
    /// The final HTTP status.
    #[serde(default)]
    pub status: Option<u16>,
    /// Redirect hops before it.
    #[serde(default)]
    pub redirects: Option<u32>,
    /// No response at all (DNS failure, timeout, reset).
    #[serde(default)]
    pub unreachable: Option<bool>,
}

/// One fetch of a history: when, how it went (as `fetch`), and the body it returned.
#[derive(Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimedFetchSpec {
    /// When the crawler fetched the file, e.g. `0h`, `13h`, `30d12h`.
    pub at: Time,
    /// The final HTTP status (default 200).
    #[serde(default)]
    pub status: Option<u16>,
    /// Redirect hops before it.
    #[serde(default)]
    pub redirects: Option<u32>,
    /// No response at all (DNS failure, timeout, reset).
    #[serde(default)]
    pub unreachable: Option<bool>,
    /// The body as UTF-8 text.
    #[serde(default)]
    pub body: Option<String>,
    /// The body with escapes for arbitrary octets.
    #[serde(default)]
    pub body_escaped: Option<EscapedBytes>,
}

/// A time from the start of a history: days, hours and minutes (`0h`, `90m`, `13h`, `30d12h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Time(pub robotstxt_oracle::history::Minutes);

impl Time {
    /// Parses a time as cases write it, or says what is wrong.
    pub fn parse(text: &str) -> Result<Time, String> {
        robotstxt_oracle::history::parse_minutes(text)
            .map(Time)
            .ok_or_else(|| {
                format!("`{text}` is not a time: write days, hours and minutes in that order, e.g. `0h`, `13h`, `30d12h`, `90m`")
            })
    }
}

impl JsonSchema for Time {
    fn schema_name() -> Cow<'static, str> {
        "Time".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": "^([0-9]+d)?([0-9]+h)?([0-9]+m)?$" })
    }
}

/// The expected verdict of a check for every profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect(pub BTreeMap<ProfileId, Verdict>);

/// Parses a verdict as a case writes it.
pub fn parse_verdict(text: &str) -> Result<Verdict, String> {
    Verdict::from_name(text).ok_or_else(|| {
        format!("unknown verdict `{text}`; use allowed, disallowed, either or not-governed")
    })
}

impl JsonSchema for Expect {
    fn schema_name() -> Cow<'static, str> {
        "Expect".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "oneOf": [
                { "$ref": "#/$defs/Verdict" },
                {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "rfc9309": { "$ref": "#/$defs/Verdict" },
                        "google": { "$ref": "#/$defs/Verdict" },
                        "draft-1996": { "$ref": "#/$defs/Verdict" },
                        "original-1994": { "$ref": "#/$defs/Verdict" },
                        "others": { "$ref": "#/$defs/Verdict" }
                    }
                }
            ]
        })
    }
}

/// The JSON Schema of a case file (`spec-cases/schema.json`).
pub fn case_schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(CaseFile).to_value();
    schema["$defs"]["Verdict"] = serde_json::json!({
        "type": "string",
        "enum": ["allowed", "disallowed", "either", "not-governed"]
    });
    schema
}
