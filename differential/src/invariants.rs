//! TODO(helper): metamorphic relations.

use crate::input::Input;

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

/// Checks every relation on `input`.
pub fn check(input: &Input) -> Result<(), Violation> {
    let _ = input;
    Ok(())
}
