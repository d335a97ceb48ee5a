//! Fault-injecting adapters. TODO.

use crate::inprocess::InProcess;

/// Whether `id` is a fault adapter.
pub fn is_fault_id(id: &str) -> bool {
    id.starts_with("fault-")
}

/// Opens a fault adapter.
pub fn open(_id: &str) -> Option<InProcess> {
    None
}
