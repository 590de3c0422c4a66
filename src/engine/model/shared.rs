//! Copy on write by part: a snapshot or an analysis copied while a published feed still
//! holds it shares each of its large parts until one is changed, so a change copies only the
//! parts it touches, not the whole value.
//!
//! Owns: `Shared`.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// A value shared by every copy until one copy changes it (`DerefMut` copies it then, once,
/// if another copy still holds it). Reads, equality and `Debug` are the value's own.
#[derive(Clone, Default, PartialEq)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// `value`, not yet shared.
    pub fn new(value: T) -> Self {
        Shared(Arc::new(value))
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T, A> FromIterator<A> for Shared<T>
where
    T: FromIterator<A>,
{
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        Shared::new(iter.into_iter().collect())
    }
}

impl<T: Clone + Extend<A>, A> Extend<A> for Shared<T> {
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        (**self).extend(iter);
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (**self).into_iter()
    }
}

impl<'a, T: Clone> IntoIterator for &'a mut Shared<T>
where
    &'a mut T: IntoIterator,
{
    type Item = <&'a mut T as IntoIterator>::Item;
    type IntoIter = <&'a mut T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (**self).into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_copies_only_the_changed_copy() {
        let a = Shared::new(vec![1, 2, 3]);
        let mut b = a.clone();
        b.push(4);
        assert_eq!(*a, vec![1, 2, 3]);
        assert_eq!(*b, vec![1, 2, 3, 4]);
        assert_ne!(a, b);
        let c = a.clone();
        assert_eq!(a, c);
        assert_eq!(format!("{a:?}"), "[1, 2, 3]");
    }
}
