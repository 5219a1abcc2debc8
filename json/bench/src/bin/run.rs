//! One measurement per process: `run LIB SET OP [ITERS]` decodes or encodes data
//! set SET with library LIB ITERS times and prints one tab-separated line (library,
//! set, op, iterations, bytes, CPU seconds, allocations per op).
//! `run table FILE` turns such lines into the README's markdown table (medians).

use std::collections::BTreeMap;
use std::hint::black_box;

use json_bench::citm_catalog::{CitmCatalog, CitmCatalogRef};
use json_bench::small::{Cookie, CookieRef, Feed, FeedCore, FeedRef};
use json_bench::twitter::{Twitter, TwitterRef};
use json_bench::{allocations, canada::Canada, cpu_seconds, data};

#[global_allocator]
static ALLOC: json_bench::Counting = json_bench::Counting;

fn default_iters(set: &str) -> u64 {
    match set {
        "twitter" => 400,
        "citm_catalog" => 200,
        "canada" => 100,
        "feed" => 2000,
        "cookie" => 3_000_000,
        other => panic!("unknown set {other}"),
    }
}

/// Runs `f` once to warm up, then `iters` times; CPU seconds and allocations per op.
fn measure(iters: u64, mut f: impl FnMut()) -> (f64, f64) {
    f();
    let (a0, t0) = (allocations(), cpu_seconds());
    for _ in 0..iters {
        f();
    }
    let (a1, t1) = (allocations(), cpu_seconds());
    (t1 - t0, (a1 - a0) as f64 / iters as f64)
}

/// The same JSON value (an owned and a borrowed model compare too), equal up to
/// one unit in the last place of floats: serde_json's default float
/// parser (the one benchmarked) is not always correctly rounded, ours is.
fn same<T: serde::Serialize, U: serde::Serialize>(a: &T, b: &U) -> bool {
    fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value::*;
        match (a, b) {
            (Number(x), Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                x == y || (x - y).abs() <= x.abs().max(y.abs()) * 4.0 * f64::EPSILON
            }
            (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y)),
            (Object(x), Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((k, x), (l, y))| k == l && close(x, y)),
            _ => a == b,
        }
    }
    close(&serde_json::to_value(a).unwrap(), &serde_json::to_value(b).unwrap())
}

/// Libraries that decode into owned types through serde, plus ours into a reused value.
fn owned<T>(lib: &str, op: &str, input: &[u8], iters: u64) -> Option<(f64, f64)>
where
    T: serde::Serialize
        + serde::de::DeserializeOwned
        + json::WriteJson
        + for<'de> json::ReadJson<'de>
        + PartialEq
        + std::fmt::Debug,
{
    let value: T = serde_json::from_slice(input).expect("serde_json decodes the data set");
    let mut out: Vec<u8> = Vec::with_capacity(input.len() * 2);
    Some(match (lib, op) {
        ("json", "decode") => {
            let mut place: T = serde_json::from_slice(input).unwrap();
            let r = measure(iters, || json::from_slice_into(black_box(&mut place), black_box(input)).unwrap());
            assert!(same(&place, &value), "json decodes to serde_json's value");
            r
        }
        ("json", "encode") => {
            let mut buf = vec![0u8; input.len() * 2];
            let r = measure(iters, || {
                black_box(json::to_slice(black_box(&value), &mut buf).unwrap());
            });
            let n = json::to_slice(&value, &mut buf).unwrap();
            assert!(same(&serde_json::from_slice::<T>(&buf[..n]).unwrap(), &value), "json's encoding decodes back");
            r
        }
        ("serde_json", "decode") => {
            let mut last = None;
            let r = measure(iters, || last = Some(black_box(serde_json::from_slice::<T>(black_box(input)).unwrap())));
            assert!(same(&last.expect("decoded"), &value), "serde_json decodes to the reference value");
            r
        }
        ("serde_json-in-place", "decode") => {
            let mut place: T = serde_json::from_slice(input).unwrap();
            let r = measure(iters, || {
                let mut de = serde_json::Deserializer::from_slice(black_box(input));
                T::deserialize_in_place(&mut de, black_box(&mut place)).unwrap();
            });
            assert!(same(&place, &value), "serde_json in place decodes to the reference value");
            r
        }
        ("serde_json", "encode") => measure(iters, || {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&value)).unwrap();
        }),
        ("simd-json", "decode") => {
            let mut buf = Vec::with_capacity(input.len());
            let mut buffers = simd_json::Buffers::new(input.len());
            let mut last = None;
            let r = measure(iters, || {
                buf.clear();
                buf.extend_from_slice(black_box(input));
                last = Some(black_box(simd_json::serde::from_slice_with_buffers::<T>(&mut buf, &mut buffers).unwrap()));
            });
            assert!(same(&last.expect("decoded"), &value), "simd-json decodes to the reference value");
            r
        }
        ("simd-json", "encode") => measure(iters, || {
            out.clear();
            simd_json::serde::to_writer(&mut out, black_box(&value)).unwrap();
        }),
        ("sonic-rs", "decode") => {
            let mut last = None;
            let r = measure(iters, || last = Some(black_box(sonic_rs::from_slice::<T>(black_box(input)).unwrap())));
            assert!(same(&last.expect("decoded"), &value), "sonic-rs decodes to the reference value");
            r
        }
        ("sonic-rs", "encode") => measure(iters, || {
            out.clear();
            sonic_rs::to_writer(&mut out, black_box(&value)).unwrap();
        }),
        _ => return None,
    })
}

/// A model whose strings borrow the input: `Of<'a>` borrows for `'a`.
trait Borrowed {
    type Of<'a>: serde::Serialize + serde::Deserialize<'a> + json::ReadJson<'a> + json::WriteJson;
}

struct TwitterModel;
impl Borrowed for TwitterModel {
    type Of<'a> = TwitterRef<'a>;
}

struct CitmModel;
impl Borrowed for CitmModel {
    type Of<'a> = CitmCatalogRef<'a>;
}

struct FeedModel;
impl Borrowed for FeedModel {
    type Of<'a> = FeedRef<'a>;
}

struct CookieModel;
impl Borrowed for CookieModel {
    type Of<'a> = CookieRef<'a>;
}

/// Borrowed decodes (strings borrow the input; escaped ones are decoded into an
/// arena by `json`, into a `Cow::Owned` by serde): ours into a reused value, serde_json
/// fresh and in place, simd-json and sonic-rs fresh. Each is checked against
/// serde_json's owned decode.
fn borrowed<B: Borrowed>(lib: &str, op: &str, input: &[u8], iters: u64, reference: &impl serde::Serialize) -> Option<(f64, f64)> {
    if op != "decode" {
        return None;
    }
    Some(match lib {
        "json-borrowed" => {
            // Escaped strings go to the arena. A reused value keeps borrowing the
            // arena memory of its last decode, so each call gets a fresh slice of
            // one buffer (written once before timing, so no page faults are timed).
            let mut probe = vec![0u8; input.len()];
            let used = {
                let mut first: B::Of<'_> = serde_json::from_slice(input).unwrap();
                let mut reader = json::Reader::new(input).with_arena(json::Arena::new(&mut probe));
                reader.read_into(&mut first).unwrap();
                reader.arena().used()
            };
            // The arena needs room for the decoded strings only.
            let slice = used.max(1);
            let mut memory = vec![1u8; slice * (iters as usize + 1)];
            let mut slices = memory.chunks_mut(slice);
            let mut place: B::Of<'_> = serde_json::from_slice(input).unwrap();
            let r = measure(iters, || {
                let arena = json::Arena::new(slices.next().expect("one arena slice per call"));
                let mut reader = json::Reader::new(black_box(input)).with_arena(arena);
                reader.read_into(black_box(&mut place)).unwrap();
            });
            assert!(same(&place, reference), "json decodes borrowed to serde_json's value");
            r
        }
        "serde_json-borrowed" => {
            let mut last = None;
            let r = measure(iters, || last = Some(black_box(serde_json::from_slice::<B::Of<'_>>(black_box(input)).unwrap())));
            assert!(same(&last.expect("decoded"), reference), "serde_json decodes borrowed to the reference value");
            r
        }
        "serde_json-borrowed-in-place" => {
            let mut place: B::Of<'_> = serde_json::from_slice(input).unwrap();
            let r = measure(iters, || {
                let mut de = serde_json::Deserializer::from_slice(black_box(input));
                serde::Deserialize::deserialize_in_place(&mut de, black_box(&mut place)).unwrap();
            });
            assert!(same(&place, reference), "serde_json in place decodes borrowed to the reference value");
            r
        }
        "simd-json-borrowed" => {
            // The decoded value borrows simd-json's mutable copy of the input, so it
            // is dropped within each call; a separate decode is checked.
            let mut buf = Vec::with_capacity(input.len());
            let mut buffers = simd_json::Buffers::new(input.len());
            let r = measure(iters, || {
                buf.clear();
                buf.extend_from_slice(black_box(input));
                black_box(simd_json::serde::from_slice_with_buffers::<B::Of<'_>>(&mut buf, &mut buffers).unwrap());
            });
            let mut copy = input.to_vec();
            let once = simd_json::serde::from_slice_with_buffers::<B::Of<'_>>(&mut copy, &mut buffers).unwrap();
            assert!(same(&once, reference), "simd-json decodes borrowed to the reference value");
            r
        }
        "sonic-rs-borrowed" => {
            let mut last = None;
            let r = measure(iters, || last = Some(black_box(sonic_rs::from_slice::<B::Of<'_>>(black_box(input)).unwrap())));
            assert!(same(&last.expect("decoded"), reference), "sonic-rs decodes borrowed to the reference value");
            r
        }
        _ => return None,
    })
}

/// Asserts that `lib`'s decode of `input` is serde_json's owned decode, as `Owned`.
fn check_decode<Owned: serde::de::DeserializeOwned + serde::Serialize>(lib: &str, decoded: &impl serde::Serialize, input: &[u8]) {
    let reference: Owned = serde_json::from_slice(input).expect("serde_json decodes the data set");
    assert!(same(decoded, &reference), "{lib} decodes to serde_json's value");
}

fn miniserde_case<T>(op: &str, input: &[u8], iters: u64) -> (f64, f64)
where
    T: miniserde::Serialize + miniserde::Deserialize + serde::Serialize + serde::de::DeserializeOwned,
{
    let text = std::str::from_utf8(input).unwrap();
    let value: T = miniserde::json::from_str(text).unwrap();
    check_decode::<T>("miniserde", &value, input);
    match op {
        "decode" => measure(iters, || {
            black_box(miniserde::json::from_str::<T>(black_box(text)).unwrap());
        }),
        _ => measure(iters, || {
            black_box(miniserde::json::to_string(black_box(&value)));
        }),
    }
}

fn run(lib: &str, set: &str, op: &str, input: &[u8], iters: u64) -> Option<(f64, f64)> {
    match (set, lib) {
        ("feed", "simd-json-borrowed" | "sonic-rs-borrowed" | "serde_json-borrowed-in-place") => {
            borrowed::<FeedModel>(lib, op, input, iters, &serde_json::from_slice::<Feed>(input).unwrap())
        }
        ("cookie", "simd-json-borrowed" | "sonic-rs-borrowed" | "serde_json-borrowed-in-place") => {
            borrowed::<CookieModel>(lib, op, input, iters, &serde_json::from_slice::<Cookie>(input).unwrap())
        }
        ("twitter", _) if lib.contains("-borrowed") => {
            borrowed::<TwitterModel>(lib, op, input, iters, &serde_json::from_slice::<Twitter>(input).unwrap())
        }
        ("citm_catalog", _) if lib.contains("-borrowed") => {
            borrowed::<CitmModel>(lib, op, input, iters, &serde_json::from_slice::<CitmCatalog>(input).unwrap())
        }
        ("twitter", _) => owned::<Twitter>(lib, op, input, iters),
        ("citm_catalog", _) => owned::<CitmCatalog>(lib, op, input, iters),
        ("canada", "json-floats-only") if op == "encode" => Some(canada_floats_only(input, iters)),
        ("canada", _) => owned::<Canada>(lib, op, input, iters),
        ("feed", "miniserde") => Some(miniserde_case::<Feed>(op, input, iters)),
        ("cookie", "miniserde") => Some(miniserde_case::<Cookie>(op, input, iters)),
        ("feed", "json-borrowed") => {
            let mut place: FeedRef = serde_json::from_slice(input).unwrap();
            let value = place.clone();
            let mut buf = vec![0u8; input.len() * 2];
            Some(match op {
                "decode" => {
                    let r = measure(iters, || json::from_slice_into(black_box(&mut place), black_box(input)).unwrap());
                    check_decode::<Feed>(lib, &place, input);
                    r
                }
                _ => measure(iters, || {
                    black_box(json::to_slice(black_box(&value), &mut buf).unwrap());
                }),
            })
        }
        ("cookie", "json-borrowed") => {
            let value: CookieRef = json::from_slice(input).unwrap();
            check_decode::<Cookie>(lib, &value, input);
            let mut buf = [0u8; 512];
            Some(match op {
                "decode" => measure(iters, || {
                    black_box(json::from_slice::<CookieRef>(black_box(input)).unwrap());
                }),
                _ => measure(iters, || {
                    black_box(json::to_slice(black_box(&value), &mut buf).unwrap());
                }),
            })
        }
        ("feed", "serde_json-borrowed") => {
            let value: FeedRef = serde_json::from_slice(input).unwrap();
            check_decode::<Feed>(lib, &value, input);
            let mut out = Vec::with_capacity(input.len() * 2);
            Some(match op {
                "decode" => measure(iters, || {
                    black_box(serde_json::from_slice::<FeedRef>(black_box(input)).unwrap());
                }),
                _ => measure(iters, || {
                    out.clear();
                    serde_json::to_writer(&mut out, black_box(&value)).unwrap();
                }),
            })
        }
        ("cookie", "serde_json-borrowed") => {
            let value: CookieRef = serde_json::from_slice(input).unwrap();
            check_decode::<Cookie>(lib, &value, input);
            let mut out = Vec::with_capacity(512);
            Some(match op {
                "decode" => measure(iters, || {
                    black_box(serde_json::from_slice::<CookieRef>(black_box(input)).unwrap());
                }),
                _ => measure(iters, || {
                    out.clear();
                    serde_json::to_writer(&mut out, black_box(&value)).unwrap();
                }),
            })
        }
        ("feed", "serde-json-core") => {
            let value: FeedCore = serde_json_core::from_slice(input).unwrap().0;
            check_decode::<Feed>(lib, &value, input);
            let mut buf = vec![0u8; input.len() * 2];
            Some(match op {
                "decode" => measure(iters, || {
                    black_box(serde_json_core::from_slice::<FeedCore>(black_box(input)).unwrap());
                }),
                _ => measure(iters, || {
                    black_box(serde_json_core::to_slice(black_box(&value), &mut buf).unwrap());
                }),
            })
        }
        ("cookie", "serde-json-core") => {
            let value: CookieRef = serde_json_core::from_slice(input).unwrap().0;
            check_decode::<Cookie>(lib, &value, input);
            let mut buf = [0u8; 512];
            Some(match op {
                "decode" => measure(iters, || {
                    black_box(serde_json_core::from_slice::<CookieRef>(black_box(input)).unwrap());
                }),
                _ => measure(iters, || {
                    black_box(serde_json_core::to_slice(black_box(&value), &mut buf).unwrap());
                }),
            })
        }
        ("feed", _) => owned::<Feed>(lib, op, input, iters),
        ("cookie", _) => owned::<Cookie>(lib, op, input, iters),
        _ => None,
    }
}

/// The floor under encoding canada for any library that formats floats with zmij,
/// as json and serde_json both do: every coordinate through `Writer::f32` into a
/// 64-byte buffer emptied after each number. No brackets, commas or keys are
/// written, and no output leaves the first cache line.
fn canada_floats_only(input: &[u8], iters: u64) -> (f64, f64) {
    let value: Canada = serde_json::from_slice(input).unwrap();
    let coordinates: Vec<f32> = (value.features.iter())
        .flat_map(|feature| feature.geometry.coordinates.iter().flatten())
        .flat_map(|&(latitude, longitude)| [latitude, longitude])
        .collect();
    let mut buf = [0u8; 64];
    measure(iters, || {
        let mut w = json::Writer::new(&mut buf);
        for &x in black_box(&coordinates) {
            w.f32(x);
            black_box(w.bytes());
            w.clear();
        }
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The serde_json row a library's row compares with, like for like: a decode into
/// a reused value (ours, serde_json in place) with serde_json's decode in place, a
/// fresh one with serde_json's fresh decode, borrowed models with borrowed ones.
/// Encodes all compare with serde_json's.
fn like_for_like(lib: &str, set: &str, op: &str) -> &'static str {
    match (op, lib) {
        ("encode", _) => "serde_json",
        (_, "json" | "serde_json-in-place") => "serde_json-in-place",
        // The cookie model is `Copy`: ours decodes it fresh.
        (_, "json-borrowed") if set == "cookie" => "serde_json-borrowed",
        (_, "json-borrowed" | "serde_json-borrowed-in-place") => "serde_json-borrowed-in-place",
        (_, "serde-json-core") => "serde_json-borrowed",
        (_, lib) if lib.ends_with("-borrowed") => "serde_json-borrowed",
        _ => "serde_json",
    }
}

/// The markdown table from result lines: medians over rounds, ratios to the like
/// for like serde_json row.
fn table(path: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    // (set, op) -> lib -> (iters, bytes, cpu list, allocs)
    let mut rows: BTreeMap<(String, String), BTreeMap<String, (f64, f64, Vec<f64>, f64)>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (lib, set, op) = (f[0].to_owned(), f[1].to_owned(), f[2].to_owned());
        if !order.contains(&lib) {
            order.push(lib.clone());
        }
        let e = rows.entry((set, op)).or_default().entry(lib).or_insert((0.0, 0.0, Vec::new(), 0.0));
        e.0 = f[3].parse().unwrap();
        e.1 = f[4].parse().unwrap();
        e.2.push(f[5].parse().unwrap());
        e.3 = f[6].parse().unwrap();
    }
    let sets = ["twitter", "citm_catalog", "canada", "feed", "cookie"];
    for op in ["decode", "encode"] {
        println!("\n**{op}** (median of rounds; × = the like-for-like serde_json row's CPU time / this row's)\n");
        println!("| data | library | ops | CPU s (user+sys) | MB/s | like for like | × | allocs/op |");
        println!("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |");
        for set in sets {
            let Some(libs) = rows.get_mut(&(set.to_owned(), op.to_owned())) else { continue };
            let medians: BTreeMap<String, f64> = libs.iter_mut().map(|(lib, e)| (lib.clone(), median(&mut e.2))).collect();
            for lib in &order {
                let Some(e) = libs.get(lib) else { continue };
                let cpu = medians[lib];
                let mbs = e.0 * e.1 / cpu / 1e6;
                let base = like_for_like(lib, set, op);
                let ratio = medians.get(base).map_or("".to_owned(), |b| format!("{:.2}", b / cpu));
                println!("| {set} | {lib} | {} | {cpu:.3} | {mbs:.0} | {base} | {ratio} | {:.1} |", e.0, e.3);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("table") {
        table(&args[1]);
        return;
    }
    let [lib, set, op] = [&args[0], &args[1], &args[2]];
    let iters = args.get(3).map_or_else(|| default_iters(set), |s| s.parse().unwrap());
    let input = data(set);
    match run(lib, set, op, &input, iters) {
        Some((cpu, allocs)) => println!("{lib}\t{set}\t{op}\t{iters}\t{}\t{cpu:.4}\t{allocs:.2}", input.len()),
        None => eprintln!("{lib} has no {op} path for {set}"),
    }
}
