//! `hindsight fmt`'s layout: hand-written expectations for the rules, and on
//! every spec in the repository: formatting succeeds, keeps every token and
//! comment, and formatting twice changes nothing.

use hindsight_grammar::format;
use std::path::{Path, PathBuf};

/// Every `.hind` file under `dir`, recursively, in a stable order.
fn specs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            specs(&path, out);
        } else if path.extension().is_some_and(|e| e == "hind") {
            out.push(path);
        }
    }
}

/// The comments of `text`, in order (`//` to the end of the line, `/* */`,
/// nesting), string literals skipped.
fn comments(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        match (bytes[k], bytes.get(k + 1)) {
            (b'"', _) => {
                k += 1;
                while k < bytes.len() && bytes[k] != b'"' {
                    k += if bytes[k] == b'\\' { 2 } else { 1 };
                }
                k += 1;
            }
            (b'/', Some(b'/')) => {
                let end = text[k..].find('\n').map_or(text.len(), |e| k + e);
                found.push(text[k..end].trim_end().to_string());
                k = end;
            }
            (b'/', Some(b'*')) => {
                let (mut depth, start) = (0, k);
                while k < bytes.len() {
                    if bytes[k..].starts_with(b"/*") {
                        depth += 1;
                        k += 2;
                    } else if bytes[k..].starts_with(b"*/") {
                        depth -= 1;
                        k += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        k += 1;
                    }
                }
                found.push(text[start..k.min(text.len())].to_string());
            }
            _ => k += 1,
        }
    }
    found
}

#[test]
fn every_spec_in_the_repository_formats_stably_and_keeps_its_comments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["examples", "cli/tests/fixtures", "compiler/tests", "docs"] {
        specs(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "found {} specs", files.len());
    let mut formatted = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let Ok(once) = format(&source) else {
            // Specs that are meant to be rejected.
            assert!(
                hindsight_grammar::parse(&source).is_err(),
                "{}",
                file.display()
            );
            continue;
        };
        formatted += 1;
        let twice = format(&once).expect("formatted text parses");
        assert_eq!(once, twice, "{} is not stable", file.display());
        assert_eq!(comments(&once), comments(&source), "{}", file.display());
    }
    assert!(formatted > 20);
}

#[test]
fn the_layout_follows_the_rules() {
    let messy = "enum Phase{idle,busy}\n\n\n// the jobs\nmonitor jobs{input request:bool; input phase :Phase;   // where\nlet p=!request S[0,3]request;\nproperty q=G(request->F[0,5]phase==Phase::busy)&&- 1<2;\n\n\nproperty r =\n  request\n  ||  X  request ;}\n";
    let expected = "enum Phase { idle, busy }\n\n// the jobs\nmonitor jobs {\n    input request: bool;\n    input phase: Phase;  // where\n    let p = !request S[0,3] request;\n    property q = G (request -> F[0,5] phase == Phase::busy) && -1 < 2;\n\n    property r =\n        request\n        || X request;\n}\n";
    assert_eq!(format(messy).unwrap(), expected);
}

#[test]
fn a_file_that_does_not_parse_is_refused_with_its_errors() {
    let diags = format("monitor m { input a: bool }").unwrap_err();
    assert_eq!(diags[0].code.as_deref(), Some("E0100"));
}

/// The bundled code-review spec, formatted (reviewed by hand: its guards keep
/// their line breaks, continuation lines one level deeper).
#[test]
fn the_code_review_example_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let source = std::fs::read_to_string(root.join("examples/code_review/review.hind")).unwrap();
    insta::assert_snapshot!(format(&source).unwrap());
}

/// Protocols (`.` is sequencing, spaced like any infix operator), braces an
/// author broke over lines (the `}` under the member), and signs after `@L`
/// and after a bound (worked by hand).
#[test]
fn protocols_broken_braces_and_signs_follow_the_rules() {
    let messy = "system s{lifeline A{x:int} lifeline B{y:int}\nprotocol p=A->B:m1.B->A:m2.p+skip;\nprotocol q sync={A->B:m1}>>p|||p;\nguard g at A=@B -y<0 && G[0,5] -x<0;}\npopulation q{agent{\nh:int,\nk:bool\n}\nproperty r=forall a in agents:a.k;}\n";
    let expected = "system s {\n    lifeline A { x: int }\n    lifeline B { y: int }\n    protocol p = A -> B: m1 . B -> A: m2 . p + skip;\n    protocol q sync = { A -> B: m1 } >> p ||| p;\n    guard g at A = @B -y < 0 && G[0,5] -x < 0;\n}\npopulation q {\n    agent {\n        h: int,\n        k: bool\n    }\n    property r = forall a in agents: a.k;\n}\n";
    assert_eq!(format(messy).unwrap(), expected);
}
