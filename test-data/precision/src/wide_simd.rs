//! Code that names std's AVX-512 intrinsics. Naming one keeps std's intrinsic files
//! loaded (the engine leaves them out while no source names one), so these calls
//! resolve and are followed like any other. The AVX-512 path runs only on a CPU that
//! has it: the caller says so (`avx512`).

use std::arch::x86_64::{__m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_set1_epi64, _mm512_storeu_si512};

/// Adds `by` to each of eight lanes, in place.
// noalloc:root
pub fn add_to_lanes(lanes: &mut [i64; 8], by: i64, avx512: bool) {
    if avx512 {
        // SAFETY: the caller saw that the CPU has AVX-512F.
        unsafe { add_wide(lanes, by) }
    } else {
        for lane in lanes.iter_mut() {
            *lane += by;
        }
    }
}

/// The same, into a new vector.
// noalloc:root
pub fn add_to_lanes_allocates(lanes: &[i64; 8], by: i64, avx512: bool) -> Vec<i64> {
    let mut out = *lanes;
    add_to_lanes(&mut out, by, avx512);
    out.to_vec()
}

#[target_feature(enable = "avx512f")]
unsafe fn add_wide(lanes: &mut [i64; 8], by: i64) {
    let v: __m512i = _mm512_loadu_si512(lanes.as_ptr().cast());
    _mm512_storeu_si512(lanes.as_mut_ptr().cast(), _mm512_add_epi64(v, _mm512_set1_epi64(by)));
}
