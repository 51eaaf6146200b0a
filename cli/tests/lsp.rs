//! `hindsight lsp` driven over its protocol, as an editor drives it: the real
//! binary on stdin/stdout with Content-Length framing. Positions below are
//! worked out from the files' text by [`at`], never read from the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

/// A client speaking to one `hindsight lsp` process.
struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received while waiting for a response.
    notifications: Vec<Value>,
}

impl Client {
    /// Starts the server and runs the initialize handshake; `utf8` offers
    /// UTF-8 positions (otherwise the protocol's default, UTF-16).
    fn start(utf8: bool) -> (Client, Value) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hindsight"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("hindsight lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 0,
            notifications: Vec::new(),
        };
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let init = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null,
                   "capabilities": {"general": {"positionEncodings": encodings}}}),
        );
        client.notify("initialized", json!({}));
        (client, init)
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).expect("read") > 0,
                "server closed stdout"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().expect("a length"));
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.stdout.read_exact(&mut body).expect("the body");
        serde_json::from_slice(&body).expect("a JSON message")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, keeping notifications.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
            self.notifications.push(message);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let message = match self.notifications.is_empty() {
                true => self.receive(),
                false => self.notifications.remove(0),
            };
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
            {
                return message["params"]["diagnostics"]
                    .as_array()
                    .expect("a list")
                    .clone();
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "hindsight", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
        self.diagnostics(uri)
    }

    fn at(&mut self, method: &str, uri: &str, position: Value) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
    }

    /// Asks the server to shut down and exit; returns its exit status.
    fn stop(mut self) -> std::process::ExitStatus {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.child.wait().expect("the server exits")
    }
}

/// The position of `needle` where it first occurs inside the first
/// occurrence of `context`, in UTF-16 code units.
fn at(text: &str, context: &str, needle: &str) -> Value {
    let start = text.find(context).expect("the context");
    let offset = start + context.find(needle).expect("the needle in its context");
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or("")
        .encode_utf16()
        .count();
    json!({"line": line, "character": column})
}

/// The range `needle` covers inside `context` (as [`at`]).
fn range(text: &str, context: &str, needle: &str) -> Value {
    let start = at(text, context, needle);
    let width = needle.encode_utf16().count() as u64;
    let end =
        json!({"line": start["line"], "character": start["character"].as_u64().unwrap() + width});
    json!({"start": start, "end": end})
}

fn read(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).expect("the example")
}

const DUPLICATE: &str = "// Two inputs called `a`; non-ASCII before `b` for UTF-16.\nmonitor m {\n    input a: bool;\n    input a: int;\n    /* café ✓ */ property p = a && b;\n}\n";

#[test]
fn diagnostics_carry_the_clis_codes_messages_and_related_spans() {
    let (mut client, init) = Client::start(false);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["serverInfo"]["name"], "hindsight");
    let uri = "file:///tmp/dup.hind";
    let diags = client.open(uri, DUPLICATE);
    assert_eq!(diags.len(), 2, "{diags:#?}");
    // The CLI's words (see `hindsight check` on the same text in cli/tests).
    assert_eq!(diags[0]["code"], "E0201");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["source"], "hindsight");
    assert_eq!(
        diags[0]["message"],
        "the name `a` is declared more than once in this monitor\n`a` redeclared here\nnote: inputs, `let`s, goals and properties share one namespace"
    );
    assert_eq!(diags[0]["range"], range(DUPLICATE, "a: int", "a"));
    let related = &diags[0]["relatedInformation"][0];
    assert_eq!(related["message"], "first declared here");
    assert_eq!(related["location"]["uri"], uri);
    assert_eq!(
        related["location"]["range"],
        range(DUPLICATE, "a: bool", "a")
    );
    assert_eq!(diags[1]["code"], "E0200");
    assert_eq!(diags[1]["range"], range(DUPLICATE, "b;", "b"));
    assert_eq!(diags[1]["range"]["start"]["character"], 35); // 38 in bytes
                                                             // The CLI reports the same two codes with the same first lines.
    let dir = crate::common::scratch("lsp");
    let spec = dir.path().join("dup.hind");
    std::fs::write(&spec, DUPLICATE).unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(["check", spec.to_str().unwrap(), "--trace", "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&cli.stderr);
    for diag in &diags {
        let first = diag["message"].as_str().unwrap().lines().next().unwrap();
        let code = diag["code"].as_str().unwrap();
        assert!(
            stderr.contains(&format!("error[{code}]: {first}")),
            "{stderr}"
        );
    }
    // Fixing the text clears the diagnostics; a syntax error brings one.
    let fixed = DUPLICATE.replace("input a: int;", "input b: bool;");
    assert_eq!(client.change(uri, 2, &fixed), Vec::<Value>::new());
    let broken = fixed.replace("a && b;", "a && ;");
    let diags = client.change(uri, 3, &broken);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "E0100", "{diags:#?}"); // unexpected token
                                                         // Closing the document clears what was published for it.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(client.diagnostics(uri), Vec::<Value>::new());
    assert!(client.stop().success());
}

#[test]
fn hover_explains_operators_declarations_and_properties() {
    let (mut client, _) = Client::start(false);
    let trucks = read("examples/trucks/trucks.hind");
    let uri = "file:///trucks.hind";
    assert_eq!(client.open(uri, &trucks), Vec::<Value>::new());
    let hover = |client: &mut Client, position: Value| {
        let result = client.at("textDocument/hover", uri, position);
        result["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // An operator: its meaning from the operator table.
    let since = hover(&mut client, at(&trucks, " S unloaded_here", "S"));
    assert!(since.starts_with("`S` — since:"), "{since}");
    assert!(
        since.contains("past-time operator; takes a bound"),
        "{since}"
    );
    // A let used in a property: its expansion.
    let used = hover(&mut client, at(&trucks, "loading -> area", "ading"));
    assert!(used.contains("let loading = action == load"), "{used}");
    assert!(used.contains("let of monitor `trucks`"), "{used}");
    // An input: its type.
    let input = hover(&mut client, at(&trucks, "pkg == 1", "pkg"));
    assert!(input.contains("input pkg: int"), "{input}");
    // A past property: how it is computed.
    let property = hover(&mut client, at(&trucks, "no_double_look", "double"));
    assert!(property.contains("past-time: slot s"), "{property}");
    // A future property: its automaton's size (3 states, hand-worked:
    // G (request -> F grant) waits, owes a grant, or has none pending).
    let jobs = read("cli/tests/fixtures/explain_future.hind");
    let jobs_uri = "file:///jobs.hind";
    client.open(jobs_uri, &jobs);
    let result = client.at(
        "textDocument/hover",
        jobs_uri,
        at(&jobs, "responds", "sponds"),
    );
    let text = result["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("property responds = G (request -> F grant)"),
        "{text}"
    );
    assert!(
        text.contains("future-time: automaton a0, 3 states, 12 transitions"),
        "{text}"
    );
    // Nothing to say about white space.
    let blank = client.at(
        "textDocument/hover",
        uri,
        json!({"line": 7, "character": 0}),
    );
    assert_eq!(blank, Value::Null);
    assert!(client.stop().success());
}

#[test]
fn definitions_and_references_follow_the_checkers_scopes() {
    let (mut client, _) = Client::start(false);
    let review = read("examples/code_review/review.hind");
    let uri = "file:///review.hind";
    assert_eq!(client.open(uri, &review), Vec::<Value>::new());
    let definition = |client: &mut Client, position: Value| {
        let result = client.at("textDocument/definition", uri, position);
        assert_eq!(result["uri"], uri, "{result}");
        result["range"].clone()
    };
    // A bare name in a guard at Committer is the Committer's variable.
    let cand = definition(&mut client, at(&review, "== cand &&", "cand"));
    assert_eq!(cand, range(&review, "Committer    { cand", "cand"));
    // `L.x` is L's variable.
    let remote = definition(&mut client, at(&review, "Security.cand", "cand"));
    assert_eq!(remote, range(&review, "Security     { cand", "cand"));
    // Under `@TestRunner`, a bare name is TestRunner's variable.
    let status = definition(&mut client, at(&review, "status != failed", "status"));
    assert_eq!(
        status,
        range(&review, "TestRunner   { cand: int, status", "status")
    );
    // A bare variant is the enum's variant; a lifeline in `@L` the lifeline.
    let passed = definition(&mut client, at(&review, "== passed", "passed"));
    assert_eq!(passed, range(&review, "pending, passed", "passed"));
    let lifeline = definition(&mut client, at(&review, "@Security", "Security"));
    assert_eq!(lifeline, range(&review, "lifeline Security", "Security"));
    // A quantified variable and the group it ranges over.
    let group = definition(&mut client, at(&review, "in Reviewers", "Reviewers"));
    assert_eq!(group, range(&review, "group Reviewers", "Reviewers"));
    let bound = definition(&mut client, at(&review, "Reviewers: r.cand", "r."));
    assert_eq!(bound, range(&review, "exists r in", "r"));
    // Every use of TestRunner: group member, `TestRunner.cand`, `@TestRunner`.
    let uses = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": at(&review, "lifeline TestRunner", "TestRunner"),
               "context": {"includeDeclaration": false}}),
    );
    let ranges: Vec<Value> = uses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"].clone())
        .collect();
    let expected = [
        range(&review, "{ TestRunner, Security }", "TestRunner"),
        range(&review, "TestRunner.cand", "TestRunner"),
        range(&review, "@TestRunner", "TestRunner"),
    ];
    assert_eq!(ranges, expected);
    // With the declaration: one more, first.
    let all = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": at(&review, "TestRunner.cand", "stRunner"),
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(all.as_array().unwrap().len(), 4);
    assert_eq!(
        all[0]["range"],
        range(&review, "lifeline TestRunner", "TestRunner")
    );
    assert!(client.stop().success());
}

#[test]
fn names_resolve_in_items_around_a_syntax_error() {
    let (mut client, _) = Client::start(true);
    let text = "enum Color { red, green }\nmonitor broken {\n    input x: int\n}\nmonitor fine {\n    input c: Color;\n    property p = c == green;\n}\n";
    let uri = "file:///partial.hind";
    let diags = client.open(uri, text);
    assert!(!diags.is_empty());
    let result = client.at("textDocument/definition", uri, at(text, "green;", "reen"));
    assert_eq!(result["range"], range(text, "red, green", "green"));
    assert!(client.stop().success());
}

#[test]
fn document_symbols_and_completion_list_the_specs_names() {
    let (mut client, init) = Client::start(true);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    let review = read("examples/code_review/review.hind");
    let uri = "file:///review.hind";
    client.open(uri, &review);
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&symbols), ["Status", "review"]);
    assert_eq!(
        names(&symbols[0]["children"]),
        ["pending", "passed", "failed", "cleared", "critical"]
    );
    assert_eq!(
        names(&symbols[1]["children"]),
        [
            "Orchestrator",
            "TestRunner",
            "Security",
            "Committer",
            "Reviewers",
            "may_merge",
            "failure_seen"
        ]
    );
    assert_eq!(
        names(&symbols[1]["children"][1]["children"]),
        ["cand", "status"]
    );
    assert_eq!(symbols[1]["children"][1]["kind"], 5); // Class
                                                      // Completion inside a guard: the block's names, variants, keywords, operators.
    let items = client.at(
        "textDocument/completion",
        uri,
        at(&review, "&& @Security", "&&"),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for expected in [
        "TestRunner",
        "Reviewers",
        "cand",
        "status",
        "passed",
        "Status",
        "forall",
        "exists",
        "S",
        "O",
    ] {
        assert!(
            labels.contains(&expected),
            "{expected} missing from {labels:?}"
        );
    }
    let status = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "status")
        .unwrap();
    assert_eq!(status["detail"], "status: Status");
    assert!(client.stop().success());
}

#[test]
fn formatting_replaces_the_document_with_its_canonical_layout() {
    let (mut client, init) = Client::start(false);
    assert_eq!(init["capabilities"]["documentFormattingProvider"], true);
    let uri = "file:///messy.hind";
    let messy = "monitor m{input a:bool;property p=G(a->F[0,2]!a);} // é ✓";
    client.open(uri, messy);
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    // One edit over the whole text (its end in UTF-16 units: 57; 60 bytes).
    assert_eq!(
        edits,
        json!([{
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 57}},
            "newText": "monitor m {\n    input a: bool;\n    property p = G (a -> F[0,2] !a);\n}  // é ✓\n"
        }])
    );
    // A formatted document needs no edit; one that does not parse gets none.
    client.change(uri, 2, edits[0]["newText"].as_str().unwrap());
    let none = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(none, json!([]));
    client.change(uri, 3, "monitor m {");
    let refused = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(refused, Value::Null);
    assert!(client.stop().success());
}
