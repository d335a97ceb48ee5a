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
    /// Several knobs or deviations together (`D-typo-fields + D-space-for-colon`): each part a
    /// [`Cause::Knob`] or a [`Cause::Deviation`], in the order named.
    Combined(Vec<Cause>),
    /// A behaviour group of divergences no knob or deviation explains, by its key (the ledger id
    /// `unexplained 1f0c...`, `robotstxt_oracle::behaviour`).
    Behaviour(String),
    /// No knob or deviation named: the ledger's reason alone.
    Unnamed(String),
}

impl Cause {
    /// The cause a ledger group's `id` names, in any of its spellings: a knob's label
    /// (`K7 encoding`, what `ledger rewrite` writes), its field (`encoding`) or its number (`K7`),
    /// a deviation id (`D-typo-fields`), or several joined by ` + `; a behaviour group
    /// (`unexplained 1f0c...`); its reason when the id is missing or names something else.
    pub fn of_ledger(id: Option<&str>, reason: &str) -> Cause {
        if let Some(key) = id.and_then(robotstxt_oracle::behaviour::key_of) {
            return Cause::Behaviour(key.to_string());
        }
        id.and_then(Cause::of_id)
            .unwrap_or_else(|| Cause::Unnamed(reason.to_string()))
    }

    /// The cause an id names (see [`Cause::of_ledger`]), if every part of it names one.
    pub fn of_id(id: &str) -> Option<Cause> {
        let mut parts: Vec<Cause> = Vec::new();
        for part in id.split(" + ") {
            let cause = Cause::of_part(part.trim())?;
            if !parts.contains(&cause) {
                parts.push(cause);
            }
        }
        match parts.len() {
            0 => None,
            1 => parts.pop(),
            _ => Some(Cause::Combined(parts)),
        }
    }

    /// One knob (label, field or number) or one deviation id.
    fn of_part(part: &str) -> Option<Cause> {
        if Deviation::from_id(part).is_some() {
            return Some(Cause::Deviation(part.to_string()));
        }
        knob_labels()
            .into_iter()
            .find(|label| {
                *label == part || label_field(label) == part || label_number(label) == part
            })
            .map(|label| Cause::Knob(label_number(label).to_string()))
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

    /// The single knobs and deviations this cause names: itself, or a combination's parts; none
    /// for a behaviour group or an unnamed cause.
    pub fn parts(&self) -> Vec<&Cause> {
        match self {
            Cause::Knob(_) | Cause::Deviation(_) => vec![self],
            Cause::Combined(parts) => parts.iter().collect(),
            Cause::Behaviour(_) | Cause::Unnamed(_) => Vec::new(),
        }
    }

    /// Whether this cause names `single` (a knob or a deviation), alone or in a combination.
    pub fn involves(&self, single: &Cause) -> bool {
        self.parts().contains(&single)
    }

    /// Whether a real-world bucket's cause (`K4 precedence + D-typo-fields`) names every part of
    /// this one.
    pub fn in_bucket(&self, bucket_cause: &str) -> bool {
        let found = Cause::parts_of_bucket(bucket_cause);
        let parts = self.parts();
        !parts.is_empty() && parts.iter().all(|p| found.contains(p))
    }

    /// The page's name (`K7`, `D-typo-fields`), or `None` for an unnamed cause.
    pub fn slug(&self) -> Option<&str> {
        match self {
            Cause::Knob(number) | Cause::Deviation(number) => Some(number),
            Cause::Combined(_) | Cause::Behaviour(_) | Cause::Unnamed(_) => None,
        }
    }

    /// A stable name for file names: the page's name, or a combination's parts joined by `+`
    /// (`D-typo-fields+D-space-for-colon`), a behaviour group's `unexplained-<key>`; `None` for an
    /// unnamed cause.
    pub fn name(&self) -> Option<String> {
        match self {
            Cause::Combined(parts) => Some(
                parts
                    .iter()
                    .filter_map(|p| p.slug())
                    .collect::<Vec<_>>()
                    .join("+"),
            ),
            Cause::Behaviour(key) => Some(format!("unexplained-{key}")),
            other => other.slug().map(str::to_string),
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
            Cause::Combined(parts) => parts
                .iter()
                .map(Cause::title)
                .collect::<Vec<_>>()
                .join(" + "),
            Cause::Behaviour(key) => robotstxt_prose::glossary::behaviour_words(key),
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
        // Every spelling of a knob: its label (what `ledger rewrite` writes), field and number.
        for id in ["K7 encoding", "encoding", "K7"] {
            assert_eq!(
                Cause::of_ledger(Some(id), "r"),
                Cause::Knob("K7".into()),
                "{id}"
            );
        }
        let both = Cause::of_ledger(Some("K6 wildcards + D-dollar-anywhere"), "r");
        assert_eq!(
            both,
            Cause::Combined(vec![
                Cause::Knob("K6".into()),
                Cause::Deviation("D-dollar-anywhere".into())
            ])
        );
        assert!(both.involves(&Cause::Knob("K6".into())));
        assert!(both.in_bucket("D-dollar-anywhere + K6 wildcards"));
        assert!(!both.in_bucket("K6 wildcards"));
        assert_eq!(both.name().as_deref(), Some("K6+D-dollar-anywhere"));
        // An id naming nothing known leaves the group unnamed, under its reason.
        assert_eq!(
            Cause::of_ledger(Some("K99 nothing"), "why"),
            Cause::Unnamed("why".into())
        );
        // A behaviour group's id names the group, in words, with a stable name.
        let group = Cause::of_ledger(Some("unexplained 1f0c2d3e4f5a6b7c"), "why");
        assert_eq!(group, Cause::Behaviour("1f0c2d3e4f5a6b7c".into()));
        assert_eq!(
            group.title(),
            "a behaviour no knob or deviation explains, group 1f0c2d3e4f5a6b7c"
        );
        assert_eq!(
            group.name().as_deref(),
            Some("unexplained-1f0c2d3e4f5a6b7c")
        );
        assert!(group.parts().is_empty() && group.slug().is_none());
        // Not a group's id (a key of 15 digits): unnamed, under its reason.
        assert_eq!(
            Cause::of_ledger(Some("unexplained 1f0c2d3e4f5a6b7"), "why"),
            Cause::Unnamed("why".into())
        );
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
    fn no_shipped_ledger_group_with_an_id_is_unnamed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../adapters/expectations");
        let mut with_id = 0;
        for entry in std::fs::read_dir(&dir).expect("the ledgers") {
            let path = entry.expect("a ledger").path();
            let text = std::fs::read_to_string(&path).expect("readable");
            let file: robotstxt_matrix::ledger::LedgerFile =
                robotstxt_spec::ledger::parse_yaml(&path, &text).expect("a ledger parses");
            for group in &file.divergences {
                let Some(id) = group.id.as_deref() else {
                    continue;
                };
                with_id += 1;
                let cause = Cause::of_ledger(Some(id), &group.reason);
                assert!(
                    !matches!(cause, Cause::Unnamed(_)),
                    "{}: the group with id `{id}` is shown as unnamed",
                    path.display()
                );
            }
        }
        // 92 groups carry an id since ids need evidence (issue 33); fewer than half of that
        // would mean the test reads too little to mean anything.
        assert!(with_id > 45, "only {with_id} groups with an id");
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
