//! Failures that end the root's call are allowed; errors swallowed where the code
//! can run again are reported at the swallowing site.
use std::error::Error;
use std::fmt;

#[derive(Debug)]
pub struct Invalid(pub u32);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}", self.0)
    }
}

impl Error for Invalid {}

fn check(x: u32) -> Result<u32, String> {
    if x > 9 {
        return Err(format!("{x} is too big"));
    }
    Ok(x)
}

fn check_deeper(x: u32) -> Result<u32, String> {
    let v = check(x)?;
    Ok(v * 2)
}

fn check_boxed(x: u32) -> Result<u32, Box<dyn Error>> {
    if x == 0 { Err(Box::new(Invalid(x))) } else { Ok(x) }
}

// Allowed: `return Err(format!(..))` ends the root's call.
// noalloc:root
pub fn return_err_format(x: u32) -> Result<u32, String> {
    if x > 9 {
        return Err(format!("{x} is too big"));
    }
    Ok(x + 1)
}

// Allowed: the tail `Err(..)` is what the root returns.
// noalloc:root
pub fn tail_err_to_string(x: u32) -> Result<u32, String> {
    if x < 10 { Ok(x) } else { Err(x.to_string()) }
}

// Allowed: a helper's error propagated by `?` through two workspace functions.
// noalloc:root
pub fn helper_error_propagated(x: u32) -> Result<u32, String> {
    let v = check_deeper(x)?;
    Ok(v + 1)
}

// Allowed: `?` converts `Invalid` into `Box<dyn Error>` (allocates) on the way out.
// noalloc:root
pub fn question_mark_into_box(x: u32) -> Result<u32, Box<dyn Error>> {
    let v = if x > 9 { Err(Invalid(x)) } else { Ok(x) }?;
    Ok(v)
}

// Allowed: `?` in a loop still ends the call on the first failure.
// noalloc:root
pub fn propagated_from_a_loop(xs: &[u32]) -> Result<u32, String> {
    let mut total = 0;
    for &x in xs {
        total += check_deeper(x)?;
    }
    Ok(total)
}

// Allowed: a swallowed error that can happen at most once per call.
// noalloc:root
pub fn swallowed_once(x: u32) -> u32 {
    check(x).unwrap_or(0)
}

// Flagged: the error is dropped by `.ok()` inside a loop, so each pass allocates.
// noalloc:root
pub fn swallowed_in_loop(xs: &[u32]) -> u32 {
    let mut total = 0;
    for &x in xs {
        total += check(x).ok().unwrap_or(0);
    }
    total
}

// Flagged: `if let Ok` in a `while` loop swallows a boxed error.
// noalloc:root
pub fn if_let_ok_in_while(mut n: u32) -> u32 {
    let mut sum = 0;
    while n > 0 {
        if let Ok(v) = check_boxed(n) {
            sum += v;
        }
        n -= 1;
    }
    sum
}

// Flagged: a `match` that goes on to the next element.
// noalloc:root
pub fn match_continues_in_loop(xs: &[u32]) -> u32 {
    let mut sum = 0;
    for &x in xs {
        match check_deeper(x) {
            Ok(v) => sum += v,
            Err(_) => continue,
        }
    }
    sum
}

// Flagged: a closure's failures are checked: the iterator adapter runs it for every
// element, and `filter_map` drops its errors.
// noalloc:root
pub fn closure_error_in_adapter(xs: &[u32]) -> u32 {
    xs.iter().filter_map(|&x| check(x).ok()).sum()
}

// Flagged: an error built but not returned is an allocation like any other.
// noalloc:root
pub fn error_built_and_logged(x: u32) -> u32 {
    let e: Result<u32, String> = Err(format!("{x}"));
    e.unwrap_or(x)
}

// Flagged: the allocation is on the success path, `?` or not.
// noalloc:root
pub fn ok_path_allocates(x: u32) -> Result<String, String> {
    let v = check(x)?;
    Ok(v.to_string())
}
