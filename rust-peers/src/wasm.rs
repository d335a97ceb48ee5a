//! The parsers as a WebAssembly module for the site's playground: plain `extern "C"` exports, as
//! the oracle's module has (`playground/`). The page copies the body's octets and a JSON question
//! (`{"agent": ..., "url": ...}`) into memory from [`alloc`], calls [`ask`] with a parser's place
//! in [`crate::PEERS`], and reads the JSON answer (`{"answer": "allowed"}`, `{"answer": "error",
//! "message": ...}`) at [`answer_ptr`]. A panic traps the module: the page reads the panic's
//! message at [`panic_ptr`] and starts a fresh module.

use std::cell::RefCell;

use crate::PEERS;

thread_local! {
    /// The last answer, kept until the next call so the page can read it.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The last panic's message (a fixed buffer: a panic leaves the allocator as it was).
static mut PANIC: [u8; 512] = [0; 512];
static mut PANIC_LEN: usize = 0;

fn record_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = info.to_string();
    let octets = message.as_bytes();
    // SAFETY: one thread; the page reads the buffer only after the call that panicked.
    unsafe {
        let buffer = &mut *std::ptr::addr_of_mut!(PANIC);
        let n = octets.len().min(buffer.len());
        buffer[..n].copy_from_slice(&octets[..n]);
        PANIC_LEN = n;
    }
}

/// The parsers' ids, as a JSON list, in [`ask`]'s order; read at [`answer_ptr`].
#[no_mangle]
pub extern "C" fn peers() -> usize {
    let ids: Vec<&str> = PEERS.iter().map(|p| p.id).collect();
    keep(serde_json::to_string(&ids).expect("ids serialise"))
}

/// Reserves `len` octets for the page to write into; give them back with [`release`].
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back `len` octets reserved by [`alloc`].
///
/// # Safety
/// `ptr` and `len` must be what one [`alloc`] call gave and took, released once.
#[no_mangle]
pub unsafe extern "C" fn release(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Asks parser `index` (its place in [`PEERS`]) the question (JSON: `agent`, `url`) about the
/// body; returns the answer's length, to be read at [`answer_ptr`].
///
/// # Safety
/// Each pointer must point to as many initialised octets as its length says (from [`alloc`]).
#[no_mangle]
pub unsafe extern "C" fn ask(
    index: usize,
    body_ptr: *const u8,
    body_len: usize,
    question_ptr: *const u8,
    question_len: usize,
) -> usize {
    std::panic::set_hook(Box::new(record_panic));
    let body = std::slice::from_raw_parts(body_ptr, body_len);
    let question = std::slice::from_raw_parts(question_ptr, question_len);
    keep(crate::answer_json(index, body, question))
}

/// Where the last answer of [`ask`] (or the list of [`peers`]) is.
#[no_mangle]
pub extern "C" fn answer_ptr() -> *const u8 {
    ANSWER.with(|cell| cell.borrow().as_ptr())
}

/// Where the last panic's message is; its length is [`panic_len`].
#[no_mangle]
pub extern "C" fn panic_ptr() -> *const u8 {
    std::ptr::addr_of!(PANIC) as *const u8
}

/// The last panic's message's length.
#[no_mangle]
pub extern "C" fn panic_len() -> usize {
    // SAFETY: one thread.
    unsafe { PANIC_LEN }
}

fn keep(text: String) -> usize {
    ANSWER.with(|cell| {
        *cell.borrow_mut() = text.into_bytes();
        cell.borrow().len()
    })
}
