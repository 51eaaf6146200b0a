//! Compiles the code-review spec to `$OUT_DIR/review.rs` with sealed stamps:
//! every stamp this agent sends carries an HMAC tag under the workflow's key,
//! and every stamp it receives is checked before a byte of it is decoded.

fn main() {
    hindsight_build::Config::new()
        .sealed_stamps(true)
        .compile(&["../code_review/review.hind"])
        .unwrap();
}
