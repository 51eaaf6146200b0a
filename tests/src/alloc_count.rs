//! A global allocator that counts allocations per thread, for the tests that
//! prove generated monitors never allocate. A test binary installs it with
//! `#[global_allocator] static GLOBAL: Counting = Counting;` and reads
//! [`allocations`] before and after the code under test.
//!
//! The only `unsafe` of the project is here: a `GlobalAlloc` cannot be written
//! without it. It forwards every call to `System` unchanged.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Allocations made by this thread (the test harness's threads are not counted).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// `System`, counting allocations per thread.
pub struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments, so it
// upholds `GlobalAlloc`'s contract exactly as `System` does; the counter is a
// const-initialised thread-local without destructor, so touching it never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made by this thread so far (0 unless [`Counting`] is installed).
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}
