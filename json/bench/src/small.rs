//! The generated data sets: a feed of 500 items (about 130 KB) and a
//! session-cookie-sized object, each in three models — owned strings, borrowed
//! strings, and the fixed-capacity model serde-json-core needs.

use json::{ReadJson, WriteJson};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, WriteJson, ReadJson, miniserde::Serialize, miniserde::Deserialize, Clone, Debug, PartialEq)]
pub struct Cookie {
    pub sid: String,
    pub uid: u64,
    pub iat: u64,
    pub exp: u64,
    pub role: String,
    pub csrf: String,
    pub remember: bool,
    pub theme: String,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Copy, Debug, PartialEq)]
pub struct CookieRef<'a> {
    pub sid: &'a str,
    pub uid: u64,
    pub iat: u64,
    pub exp: u64,
    pub role: &'a str,
    pub csrf: &'a str,
    pub remember: bool,
    pub theme: &'a str,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, miniserde::Serialize, miniserde::Deserialize, Clone, Debug, PartialEq)]
pub struct Feed {
    pub next: String,
    pub items: Vec<Item>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, miniserde::Serialize, miniserde::Deserialize, Clone, Debug, PartialEq)]
pub struct Item {
    pub id: u64,
    pub title: String,
    pub author: String,
    pub url: String,
    pub summary: String,
    pub score: i64,
    pub published: u64,
    pub ratio: f64,
    pub draft: bool,
    pub tags: Vec<String>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
pub struct FeedRef<'a> {
    pub next: &'a str,
    #[serde(borrow)]
    pub items: Vec<ItemRef<'a>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
pub struct ItemRef<'a> {
    pub id: u64,
    pub title: &'a str,
    pub author: &'a str,
    pub url: &'a str,
    pub summary: &'a str,
    pub score: i64,
    pub published: u64,
    pub ratio: f64,
    pub draft: bool,
    #[serde(borrow)]
    pub tags: Vec<&'a str>,
}

/// serde-json-core needs fixed capacities: at most 512 items of 4 tags.
#[derive(Serialize, Deserialize, Debug)]
pub struct FeedCore<'a> {
    pub next: &'a str,
    #[serde(borrow)]
    pub items: heapless::Vec<ItemCore<'a>, 512>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct ItemCore<'a> {
    pub id: u64,
    pub title: &'a str,
    pub author: &'a str,
    pub url: &'a str,
    pub summary: &'a str,
    pub score: i64,
    pub published: u64,
    pub ratio: f64,
    pub draft: bool,
    #[serde(borrow)]
    pub tags: heapless::Vec<&'a str, 4>,
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "allocation", "buffer", "parser", "latency", "request", "handler", "arena", "capacity", "zero", "copy",
    "stream", "decode", "encode", "typed", "borrowed", "field", "struct", "vector", "budget", "region",
];

/// A feed of 500 items, about 130 KB (no escapes, so every model can borrow it).
pub fn feed() -> Vec<u8> {
    let mut rng = Lcg(7);
    let sentence = |rng: &mut Lcg, n: usize| {
        let words: Vec<&str> = (0..n).map(|_| rng.pick(WORDS)).collect();
        words.join(" ")
    };
    let items: Vec<Item> = (0..500)
        .map(|i| {
            let id = 1_000_000 + i * 7919;
            Item {
                id,
                title: sentence(&mut rng, 6),
                author: format!("{} {}", rng.pick(WORDS), rng.pick(WORDS)),
                url: format!("https://news.example.com/posts/{id}/{}", rng.pick(WORDS)),
                summary: sentence(&mut rng, 8),
                score: rng.next() as i64 % 2000 - 500,
                published: 1_767_225_600 + rng.next() % 1_000_000,
                ratio: (rng.next() % 100_000) as f64 / 997.0,
                draft: rng.next() % 5 == 0,
                tags: (0..1 + rng.next() % 4).map(|_| rng.pick(WORDS).to_owned()).collect(),
            }
        })
        .collect();
    let feed = Feed { next: "https://news.example.com/feed?cursor=eyJwYWdlIjoyfQ".into(), items };
    serde_json::to_vec(&feed).unwrap()
}

/// A session cookie's worth of JSON (about 200 bytes).
pub fn cookie() -> Vec<u8> {
    let c = Cookie {
        sid: "8f14e45fceea167a5a36dedd4bea2543".into(),
        uid: 48213,
        iat: 1_767_225_600,
        exp: 1_767_312_000,
        role: "editor".into(),
        csrf: "b1946ac92492d2347c6235b4d2611184".into(),
        remember: true,
        theme: "dark".into(),
    };
    serde_json::to_vec(&c).unwrap()
}
