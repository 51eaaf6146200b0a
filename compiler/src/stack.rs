//! Deep recursion on a thread of its own: the checker and the lowering recurse
//! over expressions, bounded in depth but at several kilobytes of stack per
//! level in unoptimised builds — more than a default 2 MiB thread offers.

/// Stack for the compiling thread.
const STACK_BYTES: usize = 32 << 20;

/// Runs `work` on a helper thread with a large stack (on the caller's thread if
/// none can be started); a panic in it becomes `on_panic()` rather than
/// unwinding into the caller.
pub(crate) fn with_large_stack<T: Send>(
    name: &str,
    work: impl Fn() -> T + Sync,
    on_panic: impl FnOnce() -> T,
) -> T {
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, &work);
        match helper {
            Ok(handle) => handle.join().unwrap_or_else(|_| on_panic()),
            Err(_) => work(),
        }
    })
}
