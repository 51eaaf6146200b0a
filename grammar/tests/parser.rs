//! The parser is generated from `src/grammar.lalrpop` by lalrpop and
//! committed (`src/generated/grammar.rs`), so that building this crate —
//! and every crate that uses the attribute macro — runs no parser generator
//! and compiles none. This test generates it again and fails if the
//! committed file differs; `HINDSIGHT_BLESS=1` writes the new one.

use std::fs;
use std::path::Path;

#[test]
fn the_committed_parser_is_what_lalrpop_generates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("hindsight-lalrpop-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch directory");
    fs::copy(
        root.join("src/grammar.lalrpop"),
        dir.join("grammar.lalrpop"),
    )
    .expect("the grammar");
    lalrpop::Configuration::new()
        .set_in_dir(&dir)
        .set_out_dir(&dir)
        .process()
        .expect("lalrpop generates the parser");
    let generated = fs::read_to_string(dir.join("grammar.rs")).expect("the generated parser");
    let _ = fs::remove_dir_all(&dir);
    let committed_path = root.join("src/generated/grammar.rs");
    if std::env::var_os("HINDSIGHT_BLESS").is_some() {
        fs::write(&committed_path, &generated).expect("the committed parser written");
        return;
    }
    let committed = fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == generated,
        "grammar/src/generated/grammar.rs is not what lalrpop generates from \
         grammar/src/grammar.lalrpop: run `HINDSIGHT_BLESS=1 cargo test -p hindsight-grammar \
         --test all parser` and commit the result"
    );
}
