//! A global allocator that counts allocations per thread, for the tests that
//! prove generated monitors and the Python package's steps never allocate,
//! and the bytes live in the whole process with their peak, for the
//! fuzzer's memory bound. A binary (or the Python extension) installs it
//! with `#[global_allocator] static GLOBAL: Counting = Counting;` and reads
//! [`allocations`] (or [`peak_bytes`]) before and after the code under test.
//!
//! Besides the JIT's call into its machine code, the only `unsafe` of the
//! project is here: a `GlobalAlloc` cannot be written without it. It
//! forwards every call to `System` unchanged.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated and not yet freed, by every thread.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The largest [`LIVE`] since the last [`reset_peak`].
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Adds `added` and removes `removed` live bytes, raising the peak.
fn account(added: usize, removed: usize) {
    let live = LIVE
        .fetch_add(added, Ordering::Relaxed)
        .wrapping_add(added)
        .wrapping_sub(removed);
    LIVE.fetch_sub(removed, Ordering::Relaxed);
    PEAK.fetch_max(live, Ordering::Relaxed);
}

thread_local! {
    /// Allocations made by this thread (the test harness's threads are not counted).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// `System`, counting allocations per thread.
pub struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments, so it
// upholds `GlobalAlloc`'s contract exactly as `System` does; the counter is a
// const-initialised thread-local without destructor, so touching it never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        account(layout.size(), 0);
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        account(layout.size(), 0);
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        account(new_size, layout.size());
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        account(0, layout.size());
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made by this thread so far (0 unless [`Counting`] is installed).
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Bytes allocated and not yet freed, by every thread (0 unless [`Counting`]
/// is installed).
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// The most bytes live at once since the last [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Starts a new peak from the bytes live now.
pub fn reset_peak() {
    PEAK.store(live_bytes(), Ordering::Relaxed);
}

/// Panics unless [`Counting`] is this binary's global allocator and counts one
/// allocation as one: the check a no-allocation test needs to mean anything.
pub fn assert_counting() {
    let before = allocations();
    std::hint::black_box(vec![1u8; 16]);
    assert_eq!(allocations() - before, 1, "one allocation is counted once");
}
