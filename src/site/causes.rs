//! The causes a divergence is grouped by: a knob of `docs/profiles.md` (`K7`, whichever of its
//! fields) or a deviation of `docs/deviations.md` (`D-typo-fields`), and where their words are.
//! Ledgers name a knob by its field (`encoding`), fingerprints and real-world buckets by its label
//! (`K7 encoding`); every name is brought to one [`Cause`] here.

use robotstxt_oracle::cause::changes;
use robotstxt_oracle::deviation::Deviation;
use robotstxt_oracle::ProfileId;

/// The knob chapter of `docs/profiles.md`, compiled in: a knob's page quotes its section.
const PROFILES_MD: &str = include_str!("../../docs/profiles.md");

/// What a divergence is put down to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A knob, by its number (`K7`).
    Knob(String),
    /// A named deviation, by its id (`D-typo-fields`).
    Deviation(String),
    /// No knob or deviation named: the ledger's reason alone.
    Unnamed(String),
}

impl Cause {
    /// The cause a ledger group's `id` names (a knob field or a deviation id); its reason when it
    /// names none.
    pub fn of_ledger(id: Option<&str>, reason: &str) -> Cause {
        match id {
            Some(id) if Deviation::from_id(id).is_some() => Cause::Deviation(id.to_string()),
            Some(id) => match knob_labels()
                .into_iter()
                .find(|label| label_field(label) == id)
            {
                Some(label) => Cause::Knob(label_number(label).to_string()),
                None => Cause::Unnamed(reason.to_string()),
            },
            None => Cause::Unnamed(reason.to_string()),
        }
    }

    /// The cause a label names (`K4 precedence`, `D-typo-fields`), if it is one.
    pub fn of_label(label: &str) -> Option<Cause> {
        if Deviation::from_id(label).is_some() {
            Some(Cause::Deviation(label.to_string()))
        } else if knob_labels().contains(&label) {
            Some(Cause::Knob(label_number(label).to_string()))
        } else {
            None
        }
    }

    /// The parts of a real-world bucket's cause (`K4 precedence + D-typo-fields`).
    pub fn parts_of_bucket(cause: &str) -> Vec<Cause> {
        cause.split(" + ").filter_map(Cause::of_label).collect()
    }

    /// The page's name (`K7`, `D-typo-fields`), or `None` for an unnamed cause.
    pub fn slug(&self) -> Option<&str> {
        match self {
            Cause::Knob(number) | Cause::Deviation(number) => Some(number),
            Cause::Unnamed(_) => None,
        }
    }

    /// A title in words: `K7 percent-encoding: normalisation before comparison`,
    /// `D-typo-fields: misspelt field names are read as the field`.
    pub fn title(&self) -> String {
        match self {
            Cause::Knob(number) => match knob_section(number) {
                Some((heading, _)) => heading.replace('`', ""),
                None => number.clone(),
            },
            Cause::Deviation(id) => match Deviation::from_id(id) {
                Some(d) => format!("{id}: {}", d.entry().summary),
                None => id.clone(),
            },
            Cause::Unnamed(reason) => format!("no knob or deviation named: {reason}"),
        }
    }
}

/// Every knob field's label (`K1 grouping`, ..., `K14 size_limit`), in the oracle's order.
pub fn knob_labels() -> Vec<&'static str> {
    let mut labels: Vec<&'static str> = Vec::new();
    for profile in ProfileId::ALL {
        for change in changes(profile) {
            let label = change.label();
            if label.starts_with('K') && !labels.contains(&label) {
                labels.push(label);
            }
        }
    }
    labels
}

/// The knob numbers, in order (`K1`, `K3`, ...), each once.
pub fn knob_numbers() -> Vec<&'static str> {
    let mut numbers: Vec<&'static str> = Vec::new();
    for label in knob_labels() {
        let number = label_number(label);
        if !numbers.contains(&number) {
            numbers.push(number);
        }
    }
    numbers
}

/// `K7` of `K7 encoding`.
pub fn label_number(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}

/// `encoding` of `K7 encoding`.
pub fn label_field(label: &str) -> &str {
    label.split(' ').nth(1).unwrap_or("")
}

/// A knob's section of `docs/profiles.md`: its heading (without `### `) and its text, up to the
/// next heading.
pub fn knob_section(number: &str) -> Option<(String, String)> {
    let prefix = format!("### {number} ");
    let start = PROFILES_MD.find(&prefix)?;
    let rest = &PROFILES_MD[start + 4..];
    let heading_end = rest.find('\n').unwrap_or(rest.len());
    let heading = rest[..heading_end].to_string();
    let body = &rest[heading_end..];
    let end = body
        .find("\n## ")
        .into_iter()
        .chain(body.find("\n### "))
        .min();
    let body = &body[..end.unwrap_or(body.len())];
    Some((heading, body.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ledger_ids_and_labels_name_the_same_causes() {
        assert_eq!(
            Cause::of_ledger(Some("encoding"), "r"),
            Cause::Knob("K7".into())
        );
        assert_eq!(
            Cause::of_label("K7 encoding"),
            Some(Cause::Knob("K7".into()))
        );
        assert_eq!(
            Cause::of_ledger(Some("D-typo-fields"), "r"),
            Cause::Deviation("D-typo-fields".into())
        );
        assert_eq!(Cause::of_ledger(None, "why"), Cause::Unnamed("why".into()));
        assert_eq!(
            Cause::parts_of_bucket("K4 precedence + D-typo-fields"),
            [
                Cause::Knob("K4".into()),
                Cause::Deviation("D-typo-fields".into())
            ]
        );
        assert!(Cause::parts_of_bucket("unexplained").is_empty());
    }

    #[test]
    fn every_knob_has_its_section() {
        for number in knob_numbers() {
            let (heading, body) = knob_section(number).expect(number);
            assert!(heading.starts_with(number), "{heading}");
            assert!(!body.is_empty(), "{number}");
        }
    }
}
