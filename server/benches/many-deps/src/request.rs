//! Parsing what a request carries: JSON bodies, URLs, dates, routes.

use aho_corasick::AhoCorasick;
use once_cell::sync::Lazy;
use regex::Regex;
use serde::Deserialize;
use time::macros::format_description;
use time::Date;
use url::Url;

static ROUTE: Lazy<Regex> = Lazy::new(|| Regex::new(r"^/api/v[0-9]+/[a-z]+$").unwrap());
static BLOCKED: Lazy<AhoCorasick> = Lazy::new(|| AhoCorasick::new(["../", "%2e%2e", "\0"]).unwrap());

#[derive(Debug, Deserialize)]
pub struct Order<'a> {
    pub id: u64,
    pub item: &'a str,
    pub quantity: u32,
}

// noalloc:root
pub fn parse_order(body: &str) -> Option<u64> {
    let order: Order<'_> = serde_json::from_str(body).ok()?;
    Some(order.id * u64::from(order.quantity))
}

// noalloc:root
pub fn parse_number(body: &str) -> Option<f64> {
    serde_json::from_str::<f64>(body).ok()
}

// noalloc:root
pub fn is_route(path: &str) -> bool {
    ROUTE.is_match(path)
}

// noalloc:root
pub fn is_blocked(path: &str) -> bool {
    BLOCKED.is_match(path)
}

// noalloc:root
pub fn host_of(link: &str) -> Option<u16> {
    let url = Url::parse(link).ok()?;
    url.port_or_known_default()
}

// noalloc:root
pub fn parse_day(text: &str) -> Option<u16> {
    let format = format_description!("[year]-[month]-[day]");
    Date::parse(text, &format).ok().map(|d| d.ordinal())
}
