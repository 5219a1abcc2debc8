//! Types of citm_catalog.json, adapted from serde-rs/json-benchmark (MIT): maps are
//! `json::Entries`, colours and ID strings are plain strings.

use json::{Entries, ReadJson, WriteJson};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CitmCatalog {
    pub area_names: Entries<String, String>,
    pub audience_sub_category_names: Entries<String, String>,
    pub block_names: Entries<String, String>,
    pub events: Entries<String, Event>,
    pub performances: Vec<Performance>,
    pub seat_category_names: Entries<String, String>,
    pub sub_topic_names: Entries<String, String>,
    pub subject_names: Entries<String, String>,
    pub topic_names: Entries<String, String>,
    pub topic_sub_topics: Entries<String, Vec<Id>>,
    pub venue_names: Entries<String, String>,
}

pub type Id = u32;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Event {
    pub description: (),
    pub id: Id,
    pub logo: Option<String>,
    pub name: String,
    pub sub_topic_ids: Vec<Id>,
    pub subject_code: (),
    pub subtitle: (),
    pub topic_ids: Vec<Id>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Performance {
    pub event_id: Id,
    pub id: Id,
    pub logo: Option<String>,
    pub name: (),
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: (),
    pub start: u64,
    pub venue_code: String,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Price {
    pub amount: u32,
    pub audience_sub_category_id: Id,
    pub seat_category_id: Id,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SeatCategory {
    pub areas: Vec<Area>,
    pub seat_category_id: Id,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Area {
    pub area_id: Id,
    pub block_ids: [(); 0],
}

// The borrowed model (`json-borrowed`, `serde_json-borrowed`, ... rows): names that
// may hold escapes are `Cow<'a, str>` with `#[serde(borrow)]`; the maps' keys and
// values (no escapes in the corpus; serde borrows `&str` inside `Entries` but would
// not borrow a `Cow` there) are `&'a str`.

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CitmCatalogRef<'a> {
    #[serde(borrow)]
    pub area_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub audience_sub_category_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub block_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub events: Entries<&'a str, EventRef<'a>>,
    #[serde(borrow)]
    pub performances: Vec<PerformanceRef<'a>>,
    #[serde(borrow)]
    pub seat_category_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub sub_topic_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub subject_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub topic_names: Entries<&'a str, &'a str>,
    #[serde(borrow)]
    pub topic_sub_topics: Entries<&'a str, Vec<Id>>,
    #[serde(borrow)]
    pub venue_names: Entries<&'a str, &'a str>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventRef<'a> {
    pub description: (),
    pub id: Id,
    #[serde(borrow)]
    pub logo: Option<&'a str>,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    pub sub_topic_ids: Vec<Id>,
    pub subject_code: (),
    pub subtitle: (),
    pub topic_ids: Vec<Id>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PerformanceRef<'a> {
    pub event_id: Id,
    pub id: Id,
    #[serde(borrow)]
    pub logo: Option<&'a str>,
    pub name: (),
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: (),
    pub start: u64,
    #[serde(borrow)]
    pub venue_code: Cow<'a, str>,
}
