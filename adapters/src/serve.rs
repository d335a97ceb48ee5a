//! The server side of `PROTOCOL.md`. TODO.
