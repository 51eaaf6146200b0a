//! Reading a spec file, bounded: every shell (the CLI, the attribute macro,
//! the build API) reads specs through [`read_spec`], so no spec input can
//! exhaust memory or time before compilation even starts.

use std::io::{self, Read};
use std::path::Path;

/// The largest spec accepted, in bytes (1 MiB): hundreds of times any spec
/// written by hand, and small enough that every stage stays well within its
/// time and memory bounds. [`crate::compile()`] refuses a longer source (E0900).
pub const MAX_SPEC_BYTES: usize = 1 << 20;

/// The text of the spec file at `path`: at most [`MAX_SPEC_BYTES`] bytes are
/// read; a longer file, or one that is not UTF-8, is an `InvalidData` error
/// whose message says which.
pub fn read_spec(path: &Path) -> io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_SPEC_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_SPEC_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidData, too_large()));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the spec is not valid UTF-8 (byte {at})"),
        )
    })
}

/// Why a source is refused for its size.
pub(crate) fn too_large() -> String {
    format!("the spec is larger than {MAX_SPEC_BYTES} bytes (1 MiB), the most a spec may be")
}
