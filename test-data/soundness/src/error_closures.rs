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
