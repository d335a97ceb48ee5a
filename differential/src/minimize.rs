//! TODO.
