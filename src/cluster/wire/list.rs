//! A List response body cut into its items while its bytes arrive: each element of the
//! top-level `items` array is handed over as its own JSON text as soon as its last byte is in,
//! so a watcher decodes the objects while the API server is still sending the rest (one plain
//! LIST, no pagination), and never holds the body or its tree at once. What lies outside the
//! items (`kind`, `apiVersion`, `metadata` with the list's `resourceVersion`) is kept, with
//! the items array left empty, and read when the body ends (`Envelope`).
//!
//! The cutting is a small JSON tokenizer: strings (skipped with `memchr`, escapes honoured),
//! nesting depth, and the top-level object's keys; it does not validate what it does not
//! need to: each item's text is decoded by serde_json and the envelope is parsed at the end.
//!
//! Owns: `ListSplitter`, `Envelope`, `SplitError`. Pure.

use serde::Deserialize;

/// What lies around the items of a List.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Envelope {
    /// `kind` (`PodList`).
    pub kind: Option<String>,
    /// The list's metadata.
    pub metadata: ListMeta,
}

/// The list metadata a watcher needs.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ListMeta {
    /// The resourceVersion the list was served at: a watch from it misses nothing.
    pub resource_version: Option<String>,
    /// Set when the server paginated the list after all (it never should without a limit).
    #[serde(rename = "continue")]
    pub continue_: Option<String>,
}

/// Why a body is not a List.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// An element of `items` is not an object.
    #[error("items[{0}] is not an object")]
    NotAnObject(usize),
    /// The body ended inside a value.
    #[error("the list ended early")]
    Truncated,
    /// The envelope is not a JSON object with list metadata.
    #[error("not a list: {0}")]
    Envelope(serde_json::Error),
    /// A JSON object without an `items` array that is not of a `…List` kind either.
    #[error("not a list: no items array")]
    NoItems,
}

/// Where the tokenizer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Outside the items array.
    Outside,
    /// Inside the items array, between elements.
    Between,
    /// Inside an element (its bytes are being gathered).
    Item,
}

/// The state of one body's cutting; feed it the chunks in order, then `finish`.
#[derive(Debug)]
pub struct ListSplitter {
    /// Bytes not yet consumed: the current item's text so far (only while in an item).
    pending: Vec<u8>,
    envelope: Vec<u8>,
    place: Place,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At depth 1: the next string is a key.
    expect_key: bool,
    /// The top-level key being read, and the last one read.
    key: Vec<u8>,
    reading_key: bool,
    /// The value after the current `:` at depth 1 belongs to `items`.
    items_value: bool,
    saw_items: bool,
    items: usize,
}

impl Default for ListSplitter {
    fn default() -> Self {
        ListSplitter {
            pending: Vec::new(),
            envelope: Vec::new(),
            place: Place::Outside,
            depth: 0,
            in_string: false,
            escaped: false,
            expect_key: false,
            key: Vec::new(),
            reading_key: false,
            items_value: false,
            saw_items: false,
            items: 0,
        }
    }
}

impl ListSplitter {
    /// Items handed over so far.
    pub fn items(&self) -> usize {
        self.items
    }

    /// Scans `chunk`, calling `each` with the text of every item it completes, in order.
    /// An error of `each` stops the scan and is returned.
    pub fn feed<E: From<SplitError>>(
        &mut self,
        chunk: &[u8],
        mut each: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut i = 0;
        // Where the current item starts in `chunk` (`None`: it started in an earlier chunk,
        // its bytes so far are in `pending`).
        let mut start = None;
        while i < chunk.len() {
            if self.in_string {
                i = self.string(chunk, i);
                continue;
            }
            let b = chunk[i];
            match self.place {
                Place::Outside => self.outside(b),
                Place::Between => match b {
                    b'{' => {
                        self.place = Place::Item;
                        self.depth += 1;
                        start = Some(i);
                    }
                    b']' => {
                        self.depth -= 1;
                        self.place = Place::Outside;
                        self.envelope.push(b);
                    }
                    b',' | b' ' | b'\n' | b'\r' | b'\t' => {}
                    _ => return Err(SplitError::NotAnObject(self.items).into()),
                },
                Place::Item => match b {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 2 {
                            self.place = Place::Between;
                            self.items += 1;
                            match start.take() {
                                Some(s) => each(&chunk[s..=i])?,
                                None => {
                                    self.pending.extend_from_slice(&chunk[..=i]);
                                    let r = each(&self.pending);
                                    self.pending.clear();
                                    r?;
                                }
                            }
                        }
                    }
                    _ => {}
                },
            }
            i += 1;
        }
        if self.place == Place::Item {
            self.pending.extend_from_slice(&chunk[start.unwrap_or(0)..]);
        }
        Ok(())
    }

    /// Skips string bytes from `i`; returns where scanning goes on (after the closing quote,
    /// or the chunk's end). Outside the items, the bytes go to the envelope (and a top-level
    /// key's to `key`).
    fn string(&mut self, chunk: &[u8], mut i: usize) -> usize {
        let from = i;
        let end = loop {
            if self.escaped {
                self.escaped = false;
                i += 1;
                if i >= chunk.len() {
                    break chunk.len();
                }
            }
            match memchr::memchr2(b'"', b'\\', &chunk[i..]) {
                None => break chunk.len(),
                Some(n) if chunk[i + n] == b'\\' => {
                    self.escaped = true;
                    i += n + 1;
                    if i >= chunk.len() {
                        break chunk.len();
                    }
                }
                Some(n) => {
                    self.in_string = false;
                    break i + n + 1;
                }
            }
        };
        if self.place == Place::Outside {
            self.envelope.extend_from_slice(&chunk[from..end]);
            if self.reading_key {
                let text = &chunk[from..end];
                let text = if self.in_string {
                    text
                } else {
                    self.reading_key = false;
                    &text[..text.len() - 1]
                };
                self.key.extend_from_slice(text);
            }
        }
        end
    }

    /// One byte outside the items (not in a string).
    fn outside(&mut self, b: u8) {
        self.envelope.push(b);
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    self.reading_key = true;
                    self.key.clear();
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = b == b'{';
                } else if self.depth == 2 && b == b'[' && self.items_value {
                    self.place = Place::Between;
                    self.saw_items = true;
                }
                self.items_value = false;
            }
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b':' if self.depth == 1 => self.items_value = self.key == b"items",
            b',' if self.depth == 1 => {
                self.expect_key = true;
                self.items_value = false;
            }
            _ => {}
        }
    }

    /// The envelope, once the body has ended.
    pub fn finish(self) -> Result<Envelope, SplitError> {
        if self.place != Place::Outside || self.depth != 0 || self.in_string {
            return Err(SplitError::Truncated);
        }
        let envelope: Envelope =
            serde_json::from_slice(&self.envelope).map_err(SplitError::Envelope)?;
        // `"items": null` is how an empty list may come.
        let listish = envelope
            .kind
            .as_deref()
            .is_some_and(|k| k.ends_with("List"));
        if !self.saw_items && !listish {
            return Err(SplitError::NoItems);
        }
        Ok(envelope)
    }
}

#[cfg(test)]
#[path = "list_tests.rs"]
mod tests;
