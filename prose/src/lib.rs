//! What the matrix, the real-world report and the site share to put results in words for a
//! person: HTML escaping ([`html`]), the glossary of profiles, knobs and deviations ([`glossary`]),
//! and text without the machine's home directory ([`home`]).

pub mod glossary;
pub mod home;
pub mod html;

pub use home::without_home;
