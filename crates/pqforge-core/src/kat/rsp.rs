//! NIST `.req` / `.rsp` files: parser and writer.
//!
//! A file is an optional `# header` line, then records separated by blank
//! lines. Each record is a list of `name = value` lines starting with
//! `count = N`; values are decimal (`count`, `mlen`, `smlen`) or upper-case
//! hex. A `.req` file has the same records with empty values (`pk =`).
//!
//! ```
//! use pqforge_core::kat::rsp;
//! let text = "# X\n\ncount = 0\nseed = 0A0B\npk =\n\n";
//! let recs = rsp::parse(text).unwrap();
//! assert_eq!(recs[0].get("seed"), Some("0A0B"));
//! assert_eq!(recs[0].bytes("seed").unwrap(), vec![10, 11]);
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// One record: its `name = value` lines in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `(name, value)` pairs; `value` is empty for `.req` placeholders.
    pub fields: Vec<(String, String)>,
}

/// What went wrong while parsing, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl core::error::Error for ParseError {}

impl Record {
    /// The value of field `name`, if present.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Field `name` decoded from hex.
    ///
    /// # Errors
    /// If the field is missing or not valid hex.
    pub fn bytes(&self, name: &str) -> Result<Vec<u8>, String> {
        let v = self
            .get(name)
            .ok_or_else(|| alloc::format!("missing field `{name}`"))?;
        from_hex(v).map_err(|e| alloc::format!("field `{name}`: {e}"))
    }

    /// The 48-byte `seed` field.
    ///
    /// # Errors
    /// If missing, not hex, or not 48 bytes.
    pub fn seed(&self) -> Result<[u8; 48], String> {
        let b = self.bytes("seed")?;
        b.as_slice()
            .try_into()
            .map_err(|_| alloc::format!("seed has {} bytes, expected 48", b.len()))
    }
}

/// Parses a `.req` or `.rsp` file.
///
/// # Errors
/// A line that is neither blank, a `#` comment, nor `name = value`; a record
/// that does not start with `count`.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut out: Vec<Record> = Vec::new();
    let mut cur: Option<Record> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            return Err(ParseError {
                line: i + 1,
                msg: "expected `name = value`".to_string(),
            });
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || !k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return Err(ParseError {
                line: i + 1,
                msg: alloc::format!("bad field name `{k}`"),
            });
        }
        if k == "count" {
            if let Some(r) = cur.take() {
                out.push(r);
            }
            cur = Some(Record::default());
        }
        let Some(r) = cur.as_mut() else {
            return Err(ParseError {
                line: i + 1,
                msg: "record does not start with `count`".to_string(),
            });
        };
        r.fields.push((k.to_string(), v.to_string()));
    }
    if let Some(r) = cur {
        out.push(r);
    }
    Ok(out)
}

/// Upper-case hex, as the KAT files print it.
#[must_use]
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(s, "{b:02X}");
    }
    s
}

/// Decodes hex (either case).
///
/// # Errors
/// Odd length or a non-hex character.
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return Err("odd number of hex digits".to_string());
    }
    let nib = |c: u8| -> Result<u8, String> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(alloc::format!("non-hex character {:?}", c as char)),
        }
    };
    s.chunks_exact(2)
        .map(|p| Ok((nib(p[0])? << 4) | nib(p[1])?))
        .collect()
}

/// A field value for [`write_record`].
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// Decimal integer.
    Int(usize),
    /// Bytes, printed as upper-case hex.
    Hex(&'a [u8]),
    /// Empty placeholder (`.req` files): prints `name =`.
    Empty,
}

/// Appends one record (fields in order, then a blank line).
pub fn write_record(out: &mut String, fields: &[(&str, Value<'_>)]) {
    for (k, v) in fields {
        match v {
            Value::Int(n) => {
                let _ = writeln!(out, "{k} = {n}");
            }
            Value::Hex(b) => {
                let _ = writeln!(out, "{k} = {}", to_hex(b));
            }
            Value::Empty => {
                let _ = writeln!(out, "{k} =");
            }
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let mut s = String::new();
        write_record(
            &mut s,
            &[
                ("count", Value::Int(3)),
                ("seed", Value::Hex(&[0xAB, 0x01])),
                ("pk", Value::Empty),
            ],
        );
        assert_eq!(s, "count = 3\nseed = AB01\npk =\n\n");
        let r = parse(&s).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].get("count"), Some("3"));
        assert_eq!(r[0].bytes("seed").unwrap(), [0xAB, 0x01]);
        assert_eq!(r[0].get("pk"), Some(""));
        assert!(parse("garbage\n").is_err());
        assert!(parse("seed = 00\n").is_err());
        assert!(from_hex("0G").is_err());
        assert!(from_hex("0").is_err());
    }
}
