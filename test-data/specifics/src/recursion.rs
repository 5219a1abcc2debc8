//! Recursion and mutual recursion terminate.

// noalloc:root
pub fn factorial(n: u64) -> u64 {
    if n == 0 { 1 } else { n * factorial(n - 1) }
}

fn is_even(n: u32) -> bool {
    if n == 0 { true } else { is_odd(n - 1) }
}

fn is_odd(n: u32) -> bool {
    if n == 0 { false } else { is_even(n - 1) }
}

// noalloc:root
pub fn mutual_recursion(n: u32) -> bool {
    is_even(n)
}

// noalloc:root
pub fn recursion_that_allocates(n: u32) -> usize {
    if n == 0 {
        return String::from("bottom").len();
    }
    recursion_that_allocates(n - 1)
}
