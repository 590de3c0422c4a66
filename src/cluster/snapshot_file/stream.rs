//! The List read as a stream: the top-level object's `kind` and `items` are visited in place
//! and each item becomes a JSON tree of its own, is converted and dropped before the next, so a
//! file is never held as one tree. The same visitors serve JSON (each item taken as its raw
//! text first: its length is the progress) and YAML (each item a tree).
//!
//! Owns: `ListSeed`, `Top`, `Stop`, `Item`. Pure.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::reader::Reader;
use crate::cluster::convert::ConvertError;

/// An item as a format hands it over.
pub trait Item<'de>: Deserialize<'de> {
    /// The item as a tree, and how many bytes of the file it took (0: unknown).
    fn tree(self) -> Result<(Value, usize), ItemError>;
}

/// An item whose text is not a JSON tree (nesting too deep, a number out of range).
#[derive(Debug, thiserror::Error)]
#[error("{0} of the item")]
pub struct ItemError(serde_json::Error);

impl<'de> Item<'de> for &'de RawValue {
    fn tree(self) -> Result<(Value, usize), ItemError> {
        let text = self.get();
        let v = serde_json::from_str(text).map_err(ItemError)?;
        Ok((v, text.len()))
    }
}

impl Item<'_> for Value {
    fn tree(self) -> Result<(Value, usize), ItemError> {
        Ok((self, 0))
    }
}

/// Why the stream stopped early (the format's error then only says "stopped").
#[derive(Debug)]
pub enum Stop {
    /// An object broke a rule or could not be converted.
    Object(ConvertError),
    /// An item is not a readable tree (`items[3]: recursion limit exceeded …`).
    Item(String),
    /// The document is not an object with an `items` array: what it is.
    NotAList(String),
}

/// What the top level held besides the items.
#[derive(Debug, Default)]
pub struct Top {
    /// `kind`, when it is a string.
    pub kind: Option<String>,
    /// Whether `items` was there (an array).
    pub items: bool,
}

/// The state one read shares between the visitors.
pub struct State<'a, 'p> {
    /// Where the objects go.
    pub reader: &'a mut Reader<'p>,
    /// Why it stopped, when it did.
    pub stop: Option<Stop>,
    /// go-yaml's value of the document's final block scalar (`go_yaml::Scan`), applied to the
    /// last item when the items are the last thing in the document.
    pub final_block: Option<String>,
}

impl State<'_, '_> {
    fn take(&mut self, at: &str, v: &Value, bytes: usize) -> Result<(), Stop> {
        self.reader.item(at, v, bytes).map_err(Stop::Object)
    }
}

fn stopped<E: de::Error>(state: &mut State<'_, '_>, why: Stop) -> E {
    state.stop = Some(why);
    E::custom("stopped")
}

/// Reads a List document into the state's reader.
pub struct ListSeed<'s, 'a, 'p, I> {
    /// The read's state.
    pub state: &'s mut State<'a, 'p>,
    /// The item type of the format.
    pub item: PhantomData<I>,
}

impl<'de, I: Item<'de>> DeserializeSeed<'de> for ListSeed<'_, '_, '_, I> {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(ListVisitor::<I> {
            state: self.state,
            item: PhantomData,
        })
    }
}

struct ListVisitor<'s, 'a, 'p, I> {
    state: &'s mut State<'a, 'p>,
    item: PhantomData<I>,
}

/// Visitor methods refusing what is not a List (`$pre` then the value's type in words).
macro_rules! not_a_list {
    ($out:ty, $pre:literal, $post:literal; $($method:ident($($t:ty)?) => $what:literal),* $(,)?) => {$(
        fn $method<E: de::Error>(self $(, _: $t)?) -> Result<$out, E> {
            let why = format!("found {}{}{}", $pre, $what, $post);
            Err(stopped(self.state, Stop::NotAList(why)))
        }
    )*};
}

impl<'de, I: Item<'de>> Visitor<'de> for ListVisitor<'_, '_, '_, I> {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Kubernetes List (an object with an items array)")
    }

    not_a_list! {
        Top, "", "";
        visit_bool(bool) => "a boolean",
        visit_i64(i64) => "a number",
        visit_u64(u64) => "a number",
        visit_f64(f64) => "a number",
        visit_str(&str) => "a string",
        visit_unit() => "nothing (null)",
        visit_none() => "nothing (null)",
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Top, A::Error> {
        Err(stopped(self.state, Stop::NotAList("found an array".into())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut top = Top::default();
        let mut last: Option<Pending> = None;
        let mut after_items = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "items" if top.items => {
                    let why = Stop::NotAList("an object with two items members".into());
                    return Err(stopped(self.state, why));
                }
                "items" => {
                    last = map.next_value_seed(ItemsSeed::<I> {
                        state: &mut *self.state,
                        item: PhantomData,
                    })?;
                    top.items = true;
                }
                "kind" => {
                    top.kind = map.next_value::<Value>()?.as_str().map(str::to_string);
                    after_items |= top.items;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    after_items |= top.items;
                }
            }
        }
        if let Some((n, mut v, bytes)) = last {
            if let (false, Some(go)) = (after_items, self.state.final_block.take()) {
                if let Some(s) = crate::engine::formats::go_yaml::last_leaf(&mut v) {
                    crate::engine::formats::go_yaml::undo_final_line_break(s, &go);
                }
            }
            let at = format!("items[{n}]");
            if let Err(why) = self.state.take(&at, &v, bytes) {
                return Err(stopped(self.state, why));
            }
        }
        Ok(top)
    }
}

/// An item not yet handed over: its index, tree and length in bytes.
type Pending = (usize, Value, usize);

/// Reads `items`, handing each item to the reader but the last, which it returns (a final
/// block scalar may still need go-yaml's reading once the document's end is known).
struct ItemsSeed<'s, 'a, 'p, I> {
    state: &'s mut State<'a, 'p>,
    item: PhantomData<I>,
}

impl<'de, I: Item<'de>> DeserializeSeed<'de> for ItemsSeed<'_, '_, '_, I> {
    type Value = Option<Pending>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, I: Item<'de>> Visitor<'de> for ItemsSeed<'_, '_, '_, I> {
    type Value = Option<Pending>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an items array")
    }

    not_a_list! {
        Option<Pending>, "items: ", ", not an array";
        visit_bool(bool) => "a boolean",
        visit_i64(i64) => "a number",
        visit_u64(u64) => "a number",
        visit_f64(f64) => "a number",
        visit_str(&str) => "a string",
        visit_unit() => "null",
        visit_none() => "null",
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        let why = Stop::NotAList("found items: an object, not an array".into());
        Err(stopped(self.state, why))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut pending: Option<Pending> = None;
        let mut n = 0usize;
        while let Some(item) = seq.next_element::<I>()? {
            let (v, bytes) = match item.tree() {
                Ok(t) => t,
                Err(e) => return Err(stopped(self.state, Stop::Item(format!("items[{n}]: {e}")))),
            };
            if let Some((m, v, bytes)) = pending.replace((n, v, bytes)) {
                if let Err(why) = self.state.take(&format!("items[{m}]"), &v, bytes) {
                    return Err(stopped(self.state, why));
                }
            }
            n += 1;
        }
        Ok(pending)
    }
}
