//! The strict JSON tokenizer behind [`parse_strict`]: one value per input, members kept in
//! document order with duplicates, numbers as raw text, nesting bounded by [`MAX_DEPTH`]. Total
//! on arbitrary bytes.

use super::{StrictError, StrictValue, MAX_DEPTH};

/// Parses exactly one JSON value surrounded by optional whitespace. Total on any input.
pub fn parse_strict(input: &[u8]) -> Result<StrictValue, StrictError> {
    let text = std::str::from_utf8(input).map_err(|e| StrictError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    let mut p = Parser { text, pos: 0 };
    p.skip_ws();
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(StrictError::Trailing { offset: p.pos });
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn err(&self, why: &'static str) -> StrictError {
        StrictError::Syntax {
            offset: self.pos,
            why,
        }
    }

    fn skip_ws(&mut self) {
        // JSON whitespace only; a BOM or NBSP is a syntax error, as in Go.
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(StrictValue::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", StrictValue::Bool(true)),
            Some(b'f') => self.literal("false", StrictValue::Bool(false)),
            Some(b'n') => self.literal("null", StrictValue::Null),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    fn literal(&mut self, word: &str, value: StrictValue) -> Result<StrictValue, StrictError> {
        let end = self.pos.saturating_add(word.len());
        if self.text.as_bytes().get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        if depth > MAX_DEPTH {
            return Err(StrictError::TooDeep { offset: self.pos });
        }
        self.pos += 1; // '{'
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(StrictValue::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a member name"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            members.push((key, self.value(depth)?));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(StrictValue::Object(members));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        if depth > MAX_DEPTH {
            return Err(StrictError::TooDeep { offset: self.pos });
        }
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(StrictValue::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(StrictValue::Array(items));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<StrictValue, StrictError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1, // no leading zeros: "01" leaves '1' as trailing data
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.err("expected a digit after '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("expected a digit in the exponent"));
            }
        }
        let raw = self.text.get(start..self.pos).unwrap_or_default();
        Ok(StrictValue::Number(raw.to_owned()))
    }

    fn string(&mut self) -> Result<String, StrictError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while matches!(self.peek(), Some(c) if c != b'"' && c != b'\\' && c >= 0x20) {
                self.pos += 1;
            }
            // The run ends on an ASCII byte or the end, so it is a char boundary.
            out.push_str(self.text.get(run_start..self.pos).unwrap_or_default());
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, StrictError> {
        self.pos += 1; // backslash
        let c = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
        self.pos += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.err("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, StrictError> {
        let end = self.pos.saturating_add(4);
        let hex = self
            .text
            .get(self.pos..end)
            .ok_or_else(|| self.err("short \\u escape"))?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.err("invalid \\u escape"));
        }
        let v = u32::from_str_radix(hex, 16).map_err(|_| self.err("invalid \\u escape"))?;
        self.pos = end;
        Ok(v)
    }

    fn unicode_escape(&mut self) -> Result<char, StrictError> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) {
            // Only consume a following escape if it completes the pair (Go does the same).
            let next = self
                .text
                .as_bytes()
                .get(self.pos..self.pos.saturating_add(2));
            if next == Some(b"\\u".as_slice()) {
                let save = self.pos;
                self.pos += 2;
                let second = self.hex4()?;
                if (0xDC00..0xE000).contains(&second) {
                    let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
                }
                self.pos = save;
            }
            return Ok('\u{FFFD}');
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }
}
