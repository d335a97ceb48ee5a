//! TODO(helper): structure-aware and raw generation.

use arbitrary::Unstructured;

use crate::input::Input;

/// A structured input: a body built from robots.txt parts, an agent and a URL derived partly from it.
pub fn structured(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    raw(u)
}

/// A raw input: arbitrary octets as the body, with a plausible agent and URL.
pub fn raw(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    let body: Vec<u8> = u.arbitrary()?;
    Ok(Input {
        body,
        agent: "FooBot".to_string(),
        url: "http://example.com/".to_string(),
    })
}

/// Either mode, chosen by the first byte (mostly structured).
pub fn any(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    if u.ratio(1, 8)? {
        raw(u)
    } else {
        structured(u)
    }
}
