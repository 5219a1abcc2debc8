//! `bounded` against the natural peer of each type, in one divan run:
//! - `pool`: take + give back one chunk of 64 `u64`s made at start-up, writing one
//!   item, 1 and 2 threads;
//! - `map`: inserts into an emptied map, hits, misses, and remove + insert, of
//!   `u64` keys in 2,048 slots at 50 % and 87.5 % load, every table made once
//!   outside the timed loop;
//! - `vec_read`: summing 4,096 `u64`s, by iterator and by index;
//! - `buf_write`: a 2 KiB query string of literals and integers (against `write!`
//!   and against `itoa` into a `Vec`).

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::mem::MaybeUninit;
use std::sync::{LazyLock, Mutex};

use bounded::Chunks;
use bounded::map::{FxBuildHasher, Slot};
use divan::Bencher;

fn main() {
    divan::main();
}

mod pool {
    use super::*;

    const CHUNKS: usize = 64;
    const CHUNK_LEN: usize = 64;

    static BOUNDED: LazyLock<bounded::Pool<u64>> = LazyLock::new(|| bounded::Pool::new(Chunks { count: CHUNKS, len: CHUNK_LEN }));
    static MUTEX_VEC: LazyLock<Mutex<Vec<Box<[u64]>>>> =
        LazyLock::new(|| Mutex::new((0..CHUNKS).map(|_| vec![0; CHUNK_LEN].into_boxed_slice()).collect()));
    static ARRAY_QUEUE: LazyLock<crossbeam_queue::ArrayQueue<Box<[u64]>>> = LazyLock::new(|| {
        let queue = crossbeam_queue::ArrayQueue::new(CHUNKS);
        for _ in 0..CHUNKS {
            let _ = queue.push(vec![0; CHUNK_LEN].into_boxed_slice());
        }
        queue
    });
    static SHARDED_SLAB: LazyLock<sharded_slab::Pool<SlabChunk>> = LazyLock::new(sharded_slab::Pool::new);

    /// A chunk of `CHUNK_LEN` items made once, as the other pools' are: clearing it
    /// for reuse touches nothing (a `Vec` would be emptied, and refilled each time).
    struct SlabChunk(Box<[u64; CHUNK_LEN]>);

    impl Default for SlabChunk {
        fn default() -> Self {
            SlabChunk(Box::new([0; CHUNK_LEN]))
        }
    }

    impl sharded_slab::Clear for SlabChunk {
        fn clear(&mut self) {}
    }

    #[divan::bench(threads = [1, 2], sample_size = 1000)]
    fn bounded_region() {
        let region = bounded::Region::new(CHUNK_LEN * 8);
        let mut chunk = BOUNDED.take(&region).expect("sized for the threads");
        chunk[0].write(1);
        black_box(&chunk);
    }

    #[divan::bench(threads = [1, 2], sample_size = 1000)]
    fn mutex_vec() {
        let mut chunk = MUTEX_VEC.lock().unwrap().pop().expect("sized for the threads");
        chunk[0] = 1;
        black_box(&chunk);
        MUTEX_VEC.lock().unwrap().push(chunk);
    }

    #[divan::bench(threads = [1, 2], sample_size = 1000)]
    fn crossbeam_array_queue() {
        let mut chunk = ARRAY_QUEUE.pop().expect("sized for the threads");
        chunk[0] = 1;
        black_box(&chunk);
        let _ = ARRAY_QUEUE.push(chunk);
    }

    #[divan::bench(threads = [1, 2], sample_size = 1000)]
    fn sharded_slab() {
        let key = SHARDED_SLAB.create_with(|chunk| chunk.0[0] = 1).expect("room");
        black_box(key);
        SHARDED_SLAB.clear(key);
    }
}

mod map {
    //! Every map has 2,048 slots (bounded's table, hashbrown's buckets, heapless's
    //! capacity), made once outside the timed loop, and holds `load` of its keys:
    //! 1,024 (50 %) or 1,792 (87.5 %, the most bounded's and hashbrown's tables take).
    //! `insert`: clear, then insert every key; `hit`/`miss`: look up every key /
    //! as many absent ones in the filled map; `remove_insert`: remove each key and
    //! insert it again, the load unchanged.

    use super::*;

    const SLOTS: usize = 2048;
    const LOADS: [usize; 2] = [1024, 1792];

    /// `n` distinct keys, and `n` others none of them equals.
    fn keys(n: usize) -> (Vec<u64>, Vec<u64>) {
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7;
        ((0..n as u64).map(key).collect(), (n as u64..2 * n as u64).map(key).collect())
    }

    /// The four benchmarks of one map: `$new` makes it (outside the timed loop),
    /// `$map` names it in the bodies.
    macro_rules! map_benches {
        // The map `$map` over `$mem`, made by `$new` and holding `$keys`.
        (@filled $mem:ident, $map:ident, $new:expr, $keys:expr) => {
            #[allow(unused_mut)]
            let mut $mem: Vec<Slot<u64, u64>> = (0..SLOTS).map(|_| Slot::EMPTY).collect();
            let mut $map = $new;
            $keys.iter().for_each(|&k| assert!($map.insert(k, k).is_ok_insert()));
        };
        ($name:ident, |$mem:ident| $new:expr) => {
            pub mod $name {
                use super::*;

                #[divan::bench(args = LOADS)]
                fn insert(bencher: Bencher, load: usize) {
                    let (present, _) = keys(load);
                    map_benches!(@filled $mem, map, $new, present);
                    bencher.bench_local(|| {
                        map.clear();
                        for &k in &present {
                            let _ = map.insert(k, k);
                        }
                        black_box(map.len())
                    });
                    assert_eq!(map.len(), load);
                }

                #[divan::bench(args = LOADS)]
                fn hit(bencher: Bencher, load: usize) {
                    let (present, _) = keys(load);
                    map_benches!(@filled $mem, map, $new, present);
                    bencher.bench_local(|| black_box(present.iter().filter_map(|k| map.get(k)).fold(0u64, |sum, v| sum.wrapping_add(*v))));
                }

                #[divan::bench(args = LOADS)]
                fn miss(bencher: Bencher, load: usize) {
                    let (present, absent) = keys(load);
                    map_benches!(@filled $mem, map, $new, present);
                    bencher.bench_local(|| black_box(absent.iter().filter(|&k| map.get(k).is_none()).count()));
                }

                #[divan::bench(args = LOADS)]
                fn remove_insert(bencher: Bencher, load: usize) {
                    let (present, _) = keys(load);
                    map_benches!(@filled $mem, map, $new, present);
                    bencher.bench_local(|| {
                        for &k in &present {
                            let v = map.remove(&k).expect("present");
                            let _ = map.insert(k, v);
                        }
                    });
                    assert_eq!(map.len(), load);
                }
            }
        };
    }

    /// What each map's `insert` returns, read as "stored".
    trait Stored {
        fn is_ok_insert(&self) -> bool;
    }

    impl Stored for Option<u64> {
        fn is_ok_insert(&self) -> bool {
            true
        }
    }

    impl Stored for Result<Option<u64>, (u64, u64)> {
        fn is_ok_insert(&self) -> bool {
            self.is_ok()
        }
    }

    map_benches!(bounded_map, |mem| bounded::Map::new(&mut mem));
    map_benches!(hashbrown_default_hasher, |mem| {
        let map = hashbrown::HashMap::<u64, u64>::with_capacity(SLOTS - SLOTS / 8);
        assert_eq!((map.capacity(), mem.len()), (SLOTS - SLOTS / 8, SLOTS), "2,048 buckets, as ours");
        map
    });
    map_benches!(hashbrown_fx_hasher, |mem| {
        let map = hashbrown::HashMap::<u64, u64, _>::with_capacity_and_hasher(SLOTS - SLOTS / 8, FxBuildHasher::default());
        assert_eq!((map.capacity(), mem.len()), (SLOTS - SLOTS / 8, SLOTS), "2,048 buckets, as ours");
        map
    });
    map_benches!(heapless_index_map, |mem| {
        assert_eq!(mem.len(), SLOTS);
        Box::new(heapless::FnvIndexMap::<u64, u64, SLOTS>::new())
    });
}

mod vec_read {
    use super::*;

    const N: usize = 4096;

    static POOL: LazyLock<bounded::Pool<u64>> = LazyLock::new(|| bounded::Pool::new(Chunks { count: N / 256, len: 256 }));

    #[divan::bench]
    fn bounded_pooled_iter(bencher: Bencher) {
        let region = bounded::Region::new(N * 8);
        let mut v = bounded::Vec::in_region(&POOL, &region);
        (0..N as u64).for_each(|i| assert!(v.push(i)));
        bencher.bench_local(|| black_box(&v).iter().sum::<u64>());
    }

    #[divan::bench]
    fn bounded_pooled_get(bencher: Bencher) {
        let region = bounded::Region::new(N * 8);
        let mut v = bounded::Vec::in_region(&POOL, &region);
        (0..N as u64).for_each(|i| assert!(v.push(i)));
        bencher.bench_local(|| {
            let v = black_box(&v);
            (0..N).map(|i| v.get(i).copied().unwrap_or(0)).sum::<u64>()
        });
    }

    #[divan::bench]
    fn bounded_own_iter(bencher: Bencher) {
        let mut mem = vec![MaybeUninit::uninit(); N];
        let mut v = bounded::Vec::new(&mut mem);
        (0..N as u64).for_each(|i| assert!(v.push(i)));
        bencher.bench_local(|| black_box(&v).iter().sum::<u64>());
    }

    #[divan::bench]
    fn slice_iter(bencher: Bencher) {
        let v: Vec<u64> = (0..N as u64).collect();
        bencher.bench_local(|| black_box(&v[..]).iter().sum::<u64>());
    }

    #[divan::bench]
    fn slice_get(bencher: Bencher) {
        let v: Vec<u64> = (0..N as u64).collect();
        bencher.bench_local(|| {
            let v = black_box(&v[..]);
            (0..N).map(|i| v.get(i).copied().unwrap_or(0)).sum::<u64>()
        });
    }

    #[divan::bench]
    fn slice_index(bencher: Bencher) {
        let v: Vec<u64> = (0..N as u64).collect();
        bencher.bench_local(|| {
            let v = black_box(&v[..]);
            (0..N).map(|i| v[i]).sum::<u64>()
        });
    }
}

mod buf_write {
    use super::*;

    const CAP: usize = 4096;
    const PAIRS: u64 = 128;

    #[divan::bench]
    fn bounded_buf(bencher: Bencher) {
        let mut mem = vec![0u8; CAP];
        bencher.bench_local(|| {
            let mut buf = bounded::Buf::new(&mut mem);
            for i in 0..PAIRS {
                buf.write_str("&key");
                buf.write_int(black_box(i));
                buf.write_str("=");
                buf.write_int(black_box(i * 1_000_003));
            }
            assert!(!buf.is_full());
            black_box(buf.bytes()).len()
        });
    }

    #[divan::bench]
    fn itoa_into_vec(bencher: Bencher) {
        let mut out = Vec::with_capacity(CAP);
        bencher.bench_local(|| {
            out.clear();
            let mut digits = itoa::Buffer::new();
            for i in 0..PAIRS {
                out.extend_from_slice(b"&key");
                out.extend_from_slice(digits.format(black_box(i)).as_bytes());
                out.extend_from_slice(b"=");
                out.extend_from_slice(digits.format(black_box(i * 1_000_003)).as_bytes());
            }
            black_box(&out[..]).len()
        });
    }

    #[divan::bench]
    fn std_vec_write_macro(bencher: Bencher) {
        let mut out = Vec::with_capacity(CAP);
        bencher.bench_local(|| {
            out.clear();
            for i in 0..PAIRS {
                out.extend_from_slice(b"&key");
                let _ = write!(out, "{}", black_box(i));
                out.extend_from_slice(b"=");
                let _ = write!(out, "{}", black_box(i * 1_000_003));
            }
            black_box(&out[..]).len()
        });
    }

    #[divan::bench]
    fn std_string_write_macro(bencher: Bencher) {
        let mut out = String::with_capacity(CAP);
        bencher.bench_local(|| {
            out.clear();
            for i in 0..PAIRS {
                out.push_str("&key");
                let _ = write!(out, "{}", black_box(i));
                out.push('=');
                let _ = write!(out, "{}", black_box(i * 1_000_003));
            }
            black_box(&out[..]).len()
        });
    }

    #[divan::bench]
    fn arrayvec_write_macro(bencher: Bencher) {
        bencher.bench_local(|| {
            let mut out = arrayvec::ArrayVec::<u8, CAP>::new();
            for i in 0..PAIRS {
                let _ = out.try_extend_from_slice(b"&key");
                let _ = write!(out, "{}", black_box(i));
                let _ = out.try_extend_from_slice(b"=");
                let _ = write!(out, "{}", black_box(i * 1_000_003));
            }
            black_box(&out[..]).len()
        });
    }

    #[divan::bench]
    fn bounded_buf_literals_only(bencher: Bencher) {
        let mut mem = vec![0u8; CAP];
        bencher.bench_local(|| {
            let mut buf = bounded::Buf::new(&mut mem);
            for _ in 0..PAIRS * 2 {
                buf.write_str(black_box("&key=value"));
            }
            black_box(buf.bytes()).len()
        });
    }

    #[divan::bench]
    fn std_vec_literals_only(bencher: Bencher) {
        let mut out = Vec::with_capacity(CAP);
        bencher.bench_local(|| {
            out.clear();
            for _ in 0..PAIRS * 2 {
                out.extend_from_slice(black_box("&key=value").as_bytes());
            }
            black_box(&out[..]).len()
        });
    }

    #[divan::bench]
    fn arrayvec_literals_only(bencher: Bencher) {
        bencher.bench_local(|| {
            let mut out = arrayvec::ArrayVec::<u8, CAP>::new();
            for _ in 0..PAIRS * 2 {
                let _ = out.try_extend_from_slice(black_box("&key=value").as_bytes());
            }
            black_box(&out[..]).len()
        });
    }
}
