//! `for` loops call `IntoIterator::into_iter` and `Iterator::next` of the type.

pub struct Countdown(pub u32);

impl Iterator for Countdown {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        self.0 = self.0.checked_sub(1)?;
        Some(self.0)
    }
}

pub struct Words;

impl IntoIterator for &Words {
    type Item = &'static str;
    type IntoIter = std::vec::IntoIter<&'static str>;
    fn into_iter(self) -> Self::IntoIter {
        vec!["a", "b"].into_iter()
    }
}

// noalloc:root
pub fn for_over_clean_iterator() -> u32 {
    let mut sum = 0;
    for x in Countdown(4) {
        sum += x;
    }
    sum
}

// noalloc:root
pub fn for_over_allocating_into_iter(words: &Words) -> usize {
    let mut total = 0;
    for w in words {
        total += w.len();
    }
    total
}
