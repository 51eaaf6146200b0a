//! The session key of a keyed log line (`--key POINTER`): found by a serde
//! walk along the pointer that skips everything else, so a line costs one
//! extra parse and no allocation for a key without escapes.

use super::visit::{forward_scalars, KeyText, Scalar};
use hindsight_runtime::pointer::{Pointer, PointerError};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Where the session key of a line lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionPointer {
    /// The pointer as written.
    text: String,
    /// Its keys, unescaped.
    keys: Vec<String>,
}

/// What a line holds at the session pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyFound {
    /// Nothing.
    Absent,
    /// A string or an integer, written as JSON into the caller's buffer.
    Key,
    /// Another value, described (`bool true`, `an object`).
    Bad(String),
    /// The key is repeated on the way to the value.
    Repeated,
}

impl SessionPointer {
    /// The pointer `text` (RFC 6901: empty, or `/`-separated keys).
    pub fn parse(text: &str) -> Result<Self, PointerError> {
        let pointer = Pointer::parse(text)?;
        let keys = pointer
            .tokens()
            .map(|t| super::record::unescape(t.0))
            .collect();
        Ok(SessionPointer {
            text: text.to_string(),
            keys,
        })
    }

    /// The pointer as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// What `line` (valid JSON or not) holds at the pointer; a string or
    /// integer key is written as JSON into `key` (cleared first). A JSON
    /// syntax error is the caller's to report when it decodes the line.
    pub fn find(&self, line: &str, key: &mut String) -> KeyFound {
        key.clear();
        let mut found = KeyFound::Absent;
        let mut de = serde_json::Deserializer::from_str(line);
        let seed = KeySeed {
            keys: &self.keys,
            key,
            found: &mut found,
        };
        // A key found before a syntax error still names the line's session
        // (whose error the broken line then is).
        match (seed.deserialize(&mut de), found) {
            (Err(_), KeyFound::Key) => KeyFound::Key,
            (Err(_), _) => KeyFound::Absent,
            (Ok(()), found) => found,
        }
    }
}

/// Walks one value along the rest of the pointer.
struct KeySeed<'p> {
    keys: &'p [String],
    key: &'p mut String,
    found: &'p mut KeyFound,
}

impl KeySeed<'_> {
    fn scalar<E: de::Error>(self, value: Scalar<'_>) -> Result<(), E> {
        if !self.keys.is_empty() {
            return Ok(());
        }
        *self.found = match value {
            Scalar::Str(s) => {
                crate::json::push_string(self.key, s);
                KeyFound::Key
            }
            Scalar::Int(i) => {
                self.key.push_str(&i.to_string());
                KeyFound::Key
            }
            Scalar::UInt(u) => {
                self.key.push_str(&u.to_string());
                KeyFound::Key
            }
            // `null` is no value, as for inputs.
            Scalar::Null => KeyFound::Absent,
            other => KeyFound::Bad(other.describe()),
        };
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = ();

    forward_scalars!("a JSON value");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.keys.split_first() else {
            *self.found = KeyFound::Bad(Scalar::Object.describe());
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let mut met = false;
        while let Some(k) = map.next_key::<KeyText<'de>>()? {
            if k.as_str() != first.as_str() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            if met {
                // A repeated key on the way: which value is meant is unclear.
                *self.found = KeyFound::Repeated;
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            met = true;
            map.next_value_seed(KeySeed {
                keys: rest,
                key: &mut *self.key,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.keys.split_first() else {
            *self.found = KeyFound::Bad(Scalar::Array.describe());
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let index = hindsight_runtime::pointer::Token(first).index();
        let mut seed = Some(KeySeed {
            keys: rest,
            key: self.key,
            found: self.found,
        });
        let mut at = 0usize;
        loop {
            let more = match (Some(at) == index, seed.take()) {
                (true, Some(s)) => seq.next_element_seed(s)?.is_some(),
                (_, s) => {
                    seed = s;
                    seq.next_element::<IgnoredAny>()?.is_some()
                }
            };
            if !more {
                return Ok(());
            }
            at += 1;
        }
    }
}

impl fmt::Display for SessionPointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyFound, SessionPointer};

    fn find(pointer: &str, line: &str) -> (KeyFound, String) {
        let mut key = String::new();
        let p = SessionPointer::parse(pointer);
        assert!(p.is_ok());
        let found = p.map_or(KeyFound::Absent, |p| p.find(line, &mut key));
        (found, key)
    }

    #[test]
    fn keys_are_strings_or_integers_found_along_the_pointer() {
        let line = r#"{"a": {"x": 1, "id": "s\"1"}, "b": [5, 7], "n": 12, "f": 1.5}"#;
        assert_eq!(
            find("/a/id", line),
            (KeyFound::Key, r#""s\"1""#.to_string())
        );
        assert_eq!(find("/n", line), (KeyFound::Key, "12".to_string()));
        assert_eq!(find("/b/1", line), (KeyFound::Key, "7".to_string()));
        assert_eq!(find("/zz", line), (KeyFound::Absent, String::new()));
        assert_eq!(find("/b/9", line), (KeyFound::Absent, String::new()));
        assert_eq!(
            find("/f", line),
            (KeyFound::Bad("number 1.5".to_string()), String::new())
        );
        assert_eq!(
            find("/a", line),
            (KeyFound::Bad("an object".to_string()), String::new())
        );
        assert_eq!(find("/a~1b", r#"{"a/b": "k"}"#).1, r#""k""#);
        assert_eq!(find("/n", "not json").0, KeyFound::Absent);
        // null is no key; a repeated key on the way is refused.
        assert_eq!(find("/n", r#"{"n": null}"#).0, KeyFound::Absent);
        assert_eq!(find("/n", r#"{"n": 1, "n": 2}"#).0, KeyFound::Repeated);
        assert_eq!(
            find("/a/n", r#"{"a": {"n": 1}, "a": {}}"#).0,
            KeyFound::Repeated
        );
    }
}
