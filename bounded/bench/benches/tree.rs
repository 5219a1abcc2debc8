//! Tree building: a balanced binary tree of 1,048,576 nodes of 48 bytes, built 30
//! times, keys 1..=n summed on each build (checksum 16,492,690,145,280). Four
//! layouts: a `Box` per node, an index slab (`Vec` of nodes, children as indices),
//! `bumpalo` (reset between builds), and `bounded`'s region (a pooled `Vec` whose
//! chunks go back to the pool when the region ends). Prints time and allocations
//! per build.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bounded::Chunks;
use bounded::alloctest::{self, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

const NODES: u32 = 1 << 20;
const BUILDS: u64 = 30;
const CHECKSUM: u64 = 16_492_690_145_280;
/// Chunks of the region's pool: `MAX_CHUNKS` chunks hold every node.
const CHUNK_LEN: usize = NODES as usize / bounded::MAX_CHUNKS;

struct BoxNode {
    key: u64,
    left: Option<Box<BoxNode>>,
    right: Option<Box<BoxNode>>,
    _payload: [u64; 3],
}

#[derive(Clone, Copy)]
struct IndexNode {
    key: u64,
    left: u32,
    right: u32,
    _payload: [u64; 4],
}

struct BumpNode<'b> {
    key: u64,
    left: Option<&'b BumpNode<'b>>,
    right: Option<&'b BumpNode<'b>>,
    _payload: [u64; 3],
}

const NONE: u32 = u32::MAX;

fn boxed(lo: u32, hi: u32) -> Option<Box<BoxNode>> {
    (lo <= hi).then(|| {
        let mid = lo + (hi - lo) / 2;
        let left = if mid > lo { boxed(lo, mid - 1) } else { None };
        let right = boxed(mid + 1, hi);
        Box::new(BoxNode { key: mid as u64, left, right, _payload: [0; 3] })
    })
}

fn sum_boxed(node: &Option<Box<BoxNode>>) -> u64 {
    node.as_ref().map_or(0, |n| n.key + sum_boxed(&n.left) + sum_boxed(&n.right))
}

/// Builds post-order into anything that stores nodes and hands back an index.
fn indexed(lo: u32, hi: u32, push: &mut impl FnMut(IndexNode) -> u32) -> u32 {
    if lo > hi {
        return NONE;
    }
    let mid = lo + (hi - lo) / 2;
    let left = if mid > lo { indexed(lo, mid - 1, push) } else { NONE };
    let right = indexed(mid + 1, hi, push);
    push(IndexNode { key: mid as u64, left, right, _payload: [0; 4] })
}

fn sum_indexed(root: u32, get: &impl Fn(u32) -> IndexNode) -> u64 {
    if root == NONE {
        return 0;
    }
    let node = get(root);
    node.key + sum_indexed(node.left, get) + sum_indexed(node.right, get)
}

fn bumped<'b>(bump: &'b bumpalo::Bump, lo: u32, hi: u32) -> Option<&'b BumpNode<'b>> {
    if lo > hi {
        return None;
    }
    let mid = lo + (hi - lo) / 2;
    let left = if mid > lo { bumped(bump, lo, mid - 1) } else { None };
    let right = bumped(bump, mid + 1, hi);
    Some(bump.alloc(BumpNode { key: mid as u64, left, right, _payload: [0; 3] }))
}

fn sum_bumped(node: Option<&BumpNode<'_>>) -> u64 {
    node.map_or(0, |n| n.key + sum_bumped(n.left) + sum_bumped(n.right))
}

/// Builds, in rounds: every layout builds `BUILDS / ROUNDS` times per round, the
/// layouts taking turns, so a busy machine slows them alike. A layout's time is its
/// fastest round.
const ROUNDS: u64 = 3;

type Build<'a> = (&'static str, Box<dyn FnMut() -> u64 + 'a>);

fn main() {
    assert_eq!(std::mem::size_of::<BoxNode>(), 48);
    assert_eq!(std::mem::size_of::<IndexNode>(), 48);
    assert_eq!(std::mem::size_of::<BumpNode<'_>>(), 48);

    let mut bump = bumpalo::Bump::with_capacity(NODES as usize * 48);
    let mut slab: Vec<IndexNode> = Vec::with_capacity(NODES as usize);
    let pool = bounded::Pool::<IndexNode>::new(Chunks { count: bounded::MAX_CHUNKS, len: CHUNK_LEN });
    let mut layouts: Vec<Build<'_>> = vec![
        ("Box per node", Box::new(|| sum_boxed(&boxed(1, NODES)))),
        ("index slab (one Vec, cleared per build)", Box::new(|| {
            // Reused across builds, as the region reuses the pool's chunks.
            slab.clear();
            let nodes = &mut slab;
            let root = indexed(1, NODES, &mut |node| {
                nodes.push(node);
                nodes.len() as u32 - 1
            });
            let nodes = &*nodes;
            sum_indexed(root, &|i| nodes[i as usize])
        })),
        ("bumpalo (one Bump, reset per build)", Box::new(|| {
            bump.reset();
            sum_bumped(bumped(&bump, 1, NODES))
        })),
        ("bounded Region + pooled Vec", Box::new(|| {
            let region = bounded::Region::new(NODES as usize * 48);
            let mut nodes = bounded::Vec::in_region(&pool, &region);
            let root = indexed(1, NODES, &mut |node| {
                assert!(nodes.push(node));
                nodes.len() as u32 - 1
            });
            sum_indexed(root, &|i| *nodes.get(i as usize).expect("built"))
        })),
    ];

    // `cargo test --benches` (no `--bench` argument): each layout builds once and
    // its keys are checked, so CI sees the benchmark work without timing it.
    if !std::env::args().any(|arg| arg == "--bench") {
        for (name, build) in &mut layouts {
            assert_eq!(build() * BUILDS, CHECKSUM, "{name}: keys summed over one build");
        }
        println!("each layout built once; run `cargo bench --bench tree` to time them");
        return;
    }

    // Warm-up build, counted: allocations per build.
    let allocations: Vec<u64> = layouts
        .iter_mut()
        .map(|(_, build)| alloctest::count(1, || {
            black_box(build());
        }))
        .collect();
    let mut best = vec![Duration::MAX; layouts.len()];
    let mut sums = vec![0u64; layouts.len()];
    for _ in 0..ROUNDS {
        for (i, (_, build)) in layouts.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..BUILDS / ROUNDS {
                sums[i] += build();
            }
            best[i] = best[i].min(start.elapsed() / (BUILDS / ROUNDS) as u32);
        }
    }
    let fastest = *best.iter().min().expect("layouts");
    println!("| layout ({NODES} nodes x 48 B) | time per build | vs fastest | allocations per build |");
    println!("| --- | ---: | ---: | ---: |");
    for (i, (name, _)) in layouts.iter().enumerate() {
        assert_eq!(sums[i], CHECKSUM, "{name}: keys summed over {BUILDS} builds");
        let ratio = best[i].as_secs_f64() / fastest.as_secs_f64();
        println!("| {name} | {:.1} ms | {ratio:.2}x | {} |", best[i].as_secs_f64() * 1e3, allocations[i]);
    }
    println!("checksum {CHECKSUM} (keys 1..={NODES} summed over {BUILDS} builds) for every layout");
}
