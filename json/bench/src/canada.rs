//! Types of canada.json, adapted from serde-rs/json-benchmark (MIT): maps are
//! `json::Entries`, colours and ID strings are plain strings.

use json::{Entries, ReadJson, WriteJson};
use serde::{Deserialize, Serialize};
pub type Canada = FeatureCollection;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FeatureCollection {
    #[serde(rename = "type")]
    pub obj_type: ObjType,
    pub features: Vec<Feature>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Feature {
    #[serde(rename = "type")]
    pub obj_type: ObjType,
    pub properties: Entries<String, String>,
    pub geometry: Geometry,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    #[serde(rename = "type")]
    pub obj_type: ObjType,
    pub coordinates: Vec<Vec<(Latitude, Longitude)>>,
}

pub type Latitude = f32;
pub type Longitude = f32;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Copy, Debug, PartialEq)]
pub enum ObjType {
    #[serde(rename = "FeatureCollection")]
    FeatureCollection,
    #[serde(rename = "Feature")]
    Feature,
    #[serde(rename = "Polygon")]
    Polygon,
}
