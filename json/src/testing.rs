//! Checks this crate against serde_json (feature `testing`): a value's encoding
//! must decode, with serde_json, to what serde_json's own encoding decodes to, and
//! our decoder must read serde_json's encoding back to an equal value. Test-only:
//! it allocates freely.

use std::fmt::Debug;

use serde::Serialize;

use crate::{ReadJson, Reader, WriteJson, Writer};

/// Why a round trip failed, with both encodings for the message.
#[derive(Debug)]
pub struct RoundTripError {
    /// Which check failed.
    pub what: &'static str,
    /// Our encoding of the value.
    pub ours: String,
    /// serde_json's encoding of the value.
    pub theirs: String,
    /// The values or the error that differ.
    pub detail: String,
}

impl std::fmt::Display for RoundTripError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}\n  ours:   {}\n  serde_json: {}\n  {}", self.what, self.ours, self.theirs, self.detail)
    }
}

impl std::error::Error for RoundTripError {}

/// Encodes `value` with this crate into a growing buffer (test helper).
pub fn encode<T: WriteJson + ?Sized>(value: &T) -> Vec<u8> {
    let mut buf = [0u8; 512];
    let mut out = Vec::new();
    {
        let mut w = Writer::with_sink(&mut buf, &mut out);
        value.write_json(&mut w);
        w.flush().expect("writing to a Vec does not fail");
    }
    out
}

/// Round-trips `value` through both libraries:
/// 1. our encoding and serde_json's decode (with serde_json) to equal
///    `serde_json::Value`s;
/// 2. our decoder reads serde_json's encoding into a value equal to `value` — into
///    a fresh value when the type allows (`read_json`), and into a copy of `value`
///    (`read_json_into`, reusing its capacity) in any case.
///
/// 3. our decoder reads the encoding of `T::default()` into a copy of `value`, and
///    must produce the default: a decoder that leaves a field unchanged is caught
///    (wherever `value` differs from the default).
pub fn round_trip<T>(value: &T) -> Result<(), RoundTripError>
where
    T: WriteJson + for<'de> ReadJson<'de> + Serialize + Clone + PartialEq + Debug + Default,
{
    let ours = encode(value);
    let theirs = serde_json::to_vec(value).expect("serde_json encodes the value");
    let fail = |what, detail: String| RoundTripError {
        what,
        ours: String::from_utf8_lossy(&ours).into_owned(),
        theirs: String::from_utf8_lossy(&theirs).into_owned(),
        detail,
    };
    let ours_value: serde_json::Value =
        serde_json::from_slice(&ours).map_err(|e| fail("serde_json cannot decode our encoding", e.to_string()))?;
    let theirs_value: serde_json::Value = serde_json::from_slice(&theirs).expect("serde_json reads its own output");
    if ours_value != theirs_value {
        return Err(fail("encodings decode to different values", format!("{ours_value:?} != {theirs_value:?}")));
    }

    let mut arena_mem = vec![0u8; theirs.len()];
    let mut r = Reader::new(&theirs).with_arena(crate::Arena::new(&mut arena_mem));
    match T::read_json(&mut r).and_then(|v| r.finish().map(|()| v)) {
        Ok(fresh) if &fresh != value => {
            return Err(fail("fresh decode differs", format!("{fresh:?} != {value:?}")));
        }
        Ok(_) => {}
        Err(e) if e.kind() == crate::ErrorKind::Full => {}
        Err(e) => return Err(fail("fresh decode failed", e.to_string())),
    }

    let mut place = value.clone();
    crate::from_slice_into(&mut place, &theirs).map_err(|e| fail("decode into a copy failed", e.to_string()))?;
    if &place != value {
        return Err(fail("decode into a copy differs", format!("{place:?} != {value:?}")));
    }

    let empty = T::default();
    crate::from_slice_into(&mut place, &encode(&empty))
        .map_err(|e| fail("decode of the default into a copy failed", e.to_string()))?;
    if place != empty {
        return Err(fail("decode of the default into a copy differs", format!("{place:?} != {empty:?}")));
    }
    Ok(())
}
