//! A broken invariant of the oracle: a metamorphic relation ([`crate::relations`]) or the fast
//! path against the literal mode ([`FAST_EQUALS_LITERAL`]). Either is an oracle bug.

use crate::input::Input;

/// The name a difference between the fast path and the literal mode is reported under.
pub const FAST_EQUALS_LITERAL: &str = "fast-equals-literal";

/// A broken invariant: an oracle bug.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The relation's name.
    pub relation: &'static str,
    /// The input it was checked on.
    pub input: Input,
    /// The transformed input.
    pub transformed: Input,
    /// What differed.
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.relation == FAST_EQUALS_LITERAL {
            // The detail holds the request and the readings; there is no transformed input.
            return write!(f, "invariant `{}` broken: {}", self.relation, self.detail);
        }
        writeln!(
            f,
            "metamorphic relation `{}` violated: {}",
            self.relation, self.detail
        )?;
        writeln!(
            f,
            "  input:       agent {:?}, url {:?}, body {:?}",
            self.input.agent,
            self.input.url,
            String::from_utf8_lossy(&self.input.body)
        )?;
        write!(
            f,
            "  transformed: agent {:?}, url {:?}, body {:?}",
            self.transformed.agent,
            self.transformed.url,
            String::from_utf8_lossy(&self.transformed.body)
        )
    }
}
