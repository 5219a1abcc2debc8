//! Errors built in closures follow the error rule: allowed when they end the
//! root's call, reported where they are dropped somewhere that repeats.

// noalloc:root
pub fn map_err_propagated(s: &str) -> Result<u32, String> {
    let n = s.parse::<u32>().map_err(|e| format!("bad number {s}: {e}"))?;
    Ok(n + 1)
}

// noalloc:root
pub fn ok_or_else_propagated(v: Option<u32>) -> Result<u32, String> {
    let n = v.ok_or_else(|| String::from("missing"))?;
    Ok(n * 2)
}

// noalloc:root
pub fn map_err_swallowed_in_loop(items: &[&str]) -> u32 {
    let mut total = 0;
    for s in items {
        total += s.parse::<u32>().map_err(|e| e.to_string()).unwrap_or(0);
    }
    total
}

/// Fails with an allocated message on odd numbers.
fn check(x: u32) -> Result<u32, String> {
    if x % 2 == 1 { Err(format!("odd: {x}")) } else { Ok(x) }
}

// noalloc:root
pub fn fn_item_errors_dropped_by_std(xs: &[u32]) -> usize {
    xs.iter().copied().map(check).filter_map(Result::ok).count()
}

// noalloc:root
pub fn fn_item_errors_dropped_by_std_fold(xs: &[u32]) -> u32 {
    xs.iter().copied().map(check).fold(0, |total, r| total + r.unwrap_or(0))
}

/// Flagged, though it builds at most one error per call (the one `?` returns): the
/// loop's `next()` is taken to drop what its pattern binds. Imprecise, not unsound.
// noalloc:root
pub fn fn_item_errors_collected_and_returned(xs: &[u32]) -> Result<u32, String> {
    let mut total = 0;
    for r in xs.iter().copied().map(check) {
        total += r?;
    }
    Ok(total)
}

/// Drops `check`'s error once per level of its recursion.
fn count_even(xs: &[u32]) -> usize {
    match xs.split_first() {
        None => 0,
        Some((&x, rest)) => usize::from(check(x).is_ok()) + count_even(rest),
    }
}

// noalloc:root
pub fn recursion_drops_an_error_each_level(xs: &[u32]) -> usize {
    count_even(xs)
}

/// Passes `check`'s error up through its recursion: built once, at the bottom.
fn first_odd(xs: &[u32]) -> Result<usize, String> {
    match xs.split_first() {
        None => Ok(0),
        Some((&x, rest)) => {
            check(x)?;
            Ok(1 + first_odd(rest)?)
        }
    }
}

// noalloc:root
pub fn recursion_passes_the_error_up(xs: &[u32]) -> Result<usize, String> {
    first_odd(xs)
}
