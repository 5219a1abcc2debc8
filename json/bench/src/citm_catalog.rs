//! Types of citm_catalog.json, adapted from serde-rs/json-benchmark (MIT): maps are
//! `json::Entries`, colours and ID strings are plain strings.

use json::{Entries, ReadJson, WriteJson};
use serde::{Deserialize, Serialize};
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
