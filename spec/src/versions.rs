//! Corpus versions: the version numbers themselves, and `spec-cases/CHECKS`, the record of which
//! corpus version each check first shipped in (one line per check id: `<case-id>#<n> <version>`).
//!
//! A suite uses the record to tell a check that is new since its ledger's corpus version (reported
//! as new, ignored until blessed) from a divergence on a check the ledger has already seen (a
//! failure). The policy is in the crate README, "Versioning".

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::cases::Corpus;

/// A corpus version, `MAJOR.MINOR.PATCH`, ordered numerically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
}

impl FromStr for Version {
    type Err = String;

    fn from_str(text: &str) -> Result<Version, String> {
        let bad = || format!("`{text}` is not a corpus version (MAJOR.MINOR.PATCH, e.g. 0.1.0)");
        let parts: Vec<&str> = text.split('.').collect();
        if parts.len() != 3 {
            return Err(bad());
        }
        let number = |s: &str| {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse::<u64>().map_err(|_| bad())
        };
        Ok(Version {
            major: number(parts[0])?,
            minor: number(parts[1])?,
            patch: number(parts[2])?,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The record's file name below `spec-cases/`.
pub const CHECKS_FILE: &str = "CHECKS";

/// Check id (`<case-id>#<n>`) → the corpus version it first shipped in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckVersions(pub BTreeMap<String, Version>);

impl CheckVersions {
    /// Parses the record's text; errors name `spec-cases/CHECKS` and the line. Blank lines and
    /// lines starting with `#` are skipped.
    pub fn parse(text: &str) -> Result<CheckVersions, Vec<String>> {
        let mut map = BTreeMap::new();
        let mut errors = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let at = |message: String| format!("spec-cases/{CHECKS_FILE}:{}: {message}", index + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [id, version] = fields[..] else {
                errors.push(at(format!(
                    "expected `<case-id>#<n> <version>`, found `{line}`"
                )));
                continue;
            };
            match version.parse::<Version>() {
                Ok(version) => {
                    if map.insert(id.to_string(), version).is_some() {
                        errors.push(at(format!("`{id}` is listed twice")));
                    }
                }
                Err(message) => errors.push(at(message)),
            }
        }
        if errors.is_empty() {
            Ok(CheckVersions(map))
        } else {
            Err(errors)
        }
    }

    /// The version check `id` first shipped in (`None` when the record lacks it).
    pub fn of(&self, id: &str) -> Option<Version> {
        self.0.get(id).copied()
    }

    /// Every way the record and `corpus` (at version `current`) disagree, each saying what to
    /// change: a check without a line, a line naming no check, a version newer than `current`.
    pub fn verify(&self, corpus: &Corpus, current: Version) -> Vec<String> {
        let mut problems = Vec::new();
        let mut ids = std::collections::BTreeSet::new();
        for case in &corpus.cases {
            for check in &case.checks {
                let id = format!("{}#{}", case.id, check.number);
                match self.of(&id) {
                    None => problems.push(format!(
                        "spec-cases/{CHECKS_FILE} has no line for the check `{id}`: add the line \
                         `{id} {current}` (the corpus version it first ships in; if {current} is \
                         already released, bump spec-cases/VERSION's minor first: a new check is \
                         a minor change, see spec/README.md, \"Versioning\")"
                    )),
                    Some(v) if v > current => problems.push(format!(
                        "spec-cases/{CHECKS_FILE}: `{id}` is recorded as new in {v}, after the \
                         corpus version {current} (spec-cases/VERSION); fix the line or the \
                         version"
                    )),
                    Some(_) => {}
                }
                ids.insert(id);
            }
        }
        for id in self.0.keys().filter(|id| !ids.contains(*id)) {
            problems.push(format!(
                "spec-cases/{CHECKS_FILE} lists `{id}`, which names no check of the corpus: \
                 remove the line (removing or renumbering a check is a major change, see \
                 spec/README.md, \"Versioning\")"
            ));
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_numerically_and_reject_junk() {
        let v = |s: &str| s.parse::<Version>().unwrap();
        assert!(v("0.10.0") > v("0.9.3"));
        assert!(v("1.0.0") > v("0.99.99"));
        assert_eq!(v("0.1.0").to_string(), "0.1.0");
        for bad in ["0.1", "0.1.0.0", "a.b.c", "0.1.-1", "", "0..1"] {
            assert!(bad.parse::<Version>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_record_parses_strictly() {
        let ok = CheckVersions::parse("# comment\n\na/b#1 0.1.0\na/b#2 0.2.0\n").unwrap();
        assert_eq!(ok.of("a/b#2").unwrap().to_string(), "0.2.0");
        let errors = CheckVersions::parse("a/b#1 0.1.0\na/b#1 0.1.0\nc#1\nd#1 x\n").unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("spec-cases/CHECKS:2:"), "{errors:?}");
    }
}
