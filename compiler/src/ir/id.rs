//! Typed indices into the IR's lists (naga's `Handle<T>`): an [`Id<T>`]
//! indexes a list of `T` and nothing else, so a slot cannot be used where a
//! state cell is meant. Displayed (and debug-printed) as the bare number:
//! generated names such as `s3` and `c1` are built from it.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// The index of one `T` in a list of them.
pub struct Id<T> {
    index: usize,
    of: PhantomData<fn() -> T>,
}

impl<T> Id<T> {
    /// The id of position `index`.
    pub const fn new(index: usize) -> Self {
        Id {
            index,
            of: PhantomData,
        }
    }

    /// The position in the list.
    pub const fn index(self) -> usize {
        self.index
    }

    /// The item this id names in `list`, if the list is that long.
    pub fn get(self, list: &[T]) -> Option<&T> {
        list.get(self.index)
    }

    /// The ids of a list of `len` items, in order.
    pub fn range(len: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator {
        (0..len).map(Id::new)
    }
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Id<T> {}

impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<T> Eq for Id<T> {}

impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}

impl<T> Hash for Id<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.index.fmt(f)
    }
}

impl<T> fmt::Display for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.index.fmt(f)
    }
}

impl<T> Index<Id<T>> for [T] {
    type Output = T;

    fn index(&self, id: Id<T>) -> &T {
        &self[id.index]
    }
}

impl<T> IndexMut<Id<T>> for [T] {
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        &mut self[id.index]
    }
}

impl<T> Index<Id<T>> for Vec<T> {
    type Output = T;

    fn index(&self, id: Id<T>) -> &T {
        &self[id.index]
    }
}

impl<T> IndexMut<Id<T>> for Vec<T> {
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        &mut self[id.index]
    }
}
