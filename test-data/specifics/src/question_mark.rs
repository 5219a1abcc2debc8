//! `?`: `Try::branch`, `FromResidual` and the `From` conversion of the error.
use std::error::Error;
use std::fmt;

#[derive(Debug)]
pub struct ParseError;

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("parse error")
    }
}

impl Error for ParseError {}

fn parse(x: u32) -> Result<u32, ParseError> {
    if x > 9 { Err(ParseError) } else { Ok(x) }
}

// noalloc:root
pub fn question_mark_same_error(x: u32) -> Result<u32, ParseError> {
    let v = parse(x)?;
    Ok(v + 1)
}

// noalloc:root
pub fn question_mark_boxes_error(x: u32) -> Result<u32, Box<dyn Error>> {
    let v = parse(x)?;
    Ok(v + 1)
}

// noalloc:root
pub fn question_mark_option(o: Option<u32>) -> Option<u32> {
    let v = o?;
    Some(v * 2)
}
