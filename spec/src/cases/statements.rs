//! The normative statements of RFC 9309 sections 2.1 to 2.5 (`spec-cases/rfc9309-statements.yaml`).

use std::sync::OnceLock;

use serde::Deserialize;

/// One MUST, SHOULD or MAY of RFC 9309, in our words.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Statement {
    /// Stable id, e.g. `rfc9309/2.2.2/most-specific`.
    pub id: String,
    /// The RFC section.
    pub section: String,
    /// MUST, MUST NOT, SHOULD, SHOULD NOT or MAY.
    pub level: String,
    /// What it requires.
    pub summary: String,
    /// Why no single check can observe it, when that is so.
    #[serde(default)]
    pub untestable: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatementsFile {
    statements: Vec<Statement>,
}

/// The statements file's text, compiled in so the table is always available.
pub const STATEMENTS_YAML: &str = include_str!("../../spec-cases/rfc9309-statements.yaml");

/// Every statement, in document order.
pub fn statements() -> &'static [Statement] {
    static TABLE: OnceLock<Vec<Statement>> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_yaml::from_str::<StatementsFile>(STATEMENTS_YAML)
            .expect("spec-cases/rfc9309-statements.yaml is valid (checked by a unit test)")
            .statements
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn statements_file_is_valid_and_ids_unique() {
        let all = super::statements();
        assert!(all.len() >= 30);
        let mut ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
    }
}
