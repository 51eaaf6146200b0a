//! The generated monitor of `examples/trucks/trucks.hind`, the population
//! monitor of `herd.hind`, the protocol monitors of
//! `examples/protocols/abp.hind` and the code-review system with sealed stamps
//! (HMAC-SHA-256 included; written by `hindsight-build` in build.rs) in a
//! `#![no_std]` crate without `alloc`: CI
//! builds it for `thumbv7em-none-eabihf`, which proves generated code needs
//! nothing but `core` and `hindsight-runtime`. The zero-allocation test of
//! `hindsight-generated-tests` runs this very code.
#![no_std]

hindsight_runtime::include_monitors!("trucks");

/// The population monitor of `herd.hind` (its enum `Mood` included).
pub mod herd_spec {
    hindsight_runtime::include_monitors!("herd");
}

/// The code-review system of `tests/codegen/specs/system_review.hind`, its
/// stamps sealed.
pub mod review_spec {
    hindsight_runtime::include_monitors!("system_review");
}

/// The alternating-bit protocol of `examples/protocols/abp.hind`: its
/// central and group monitors.
pub mod abp_spec {
    hindsight_runtime::include_monitors!("abp");
}
