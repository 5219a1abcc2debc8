//! Code that does not compile: a syntax error, an unknown type, a missing function.

mod plain;

// noalloc:root
pub fn handler(x: u32) -> u32 {
    let s = String::from("still seen");
    let y: UnknownType = missing_function(x);
    s.len() as u32 + 
}

pub fn unfinished( {
