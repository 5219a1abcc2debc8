//! Types of twitter.json, adapted from serde-rs/json-benchmark (MIT): maps are
//! `json::Entries`, colours and ID strings are plain strings. Every string is of
//! type `S`: `String` in the owned model, [`Str`] in the borrowed one.

use json::{ReadJson, WriteJson};
use serde::{Deserialize, Serialize};

use crate::Str;

/// The borrowed model: every string borrows the input where it can.
pub type TwitterRef<'a> = Twitter<Str<'a>>;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Twitter<S = String> {
    pub statuses: Vec<Status<S>>,
    pub search_metadata: SearchMetadata<S>,
}

pub type LongId = u64;
pub type ShortId = u32;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Status<S = String> {
    pub metadata: Metadata,
    pub created_at: S,
    pub id: LongId,
    pub id_str: S,
    pub text: S,
    pub source: S,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<LongId>,
    pub in_reply_to_status_id_str: Option<S>,
    pub in_reply_to_user_id: Option<ShortId>,
    pub in_reply_to_user_id_str: Option<S>,
    pub in_reply_to_screen_name: Option<S>,
    pub user: User<S>,
    pub geo: (),
    pub coordinates: (),
    pub place: (),
    pub contributors: (),
    pub retweeted_status: Option<Box<Status<S>>>,
    pub retweet_count: u32,
    pub favorite_count: u32,
    pub entities: StatusEntities<S>,
    pub favorited: bool,
    pub retweeted: bool,
    pub possibly_sensitive: Option<bool>,
    pub lang: LanguageCode,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    pub result_type: ResultType,
    pub iso_language_code: LanguageCode,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct User<S = String> {
    pub id: ShortId,
    pub id_str: S,
    pub name: S,
    pub screen_name: S,
    pub location: S,
    pub description: S,
    pub url: Option<S>,
    pub entities: UserEntities<S>,
    pub protected: bool,
    pub followers_count: u32,
    pub friends_count: u32,
    pub listed_count: u32,
    pub created_at: S,
    pub favourites_count: u32,
    pub utc_offset: Option<i32>,
    pub time_zone: Option<S>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u32,
    pub lang: LanguageCode,
    pub contributors_enabled: bool,
    pub is_translator: bool,
    pub is_translation_enabled: bool,
    pub profile_background_color: S,
    pub profile_background_image_url: S,
    pub profile_background_image_url_https: S,
    pub profile_background_tile: bool,
    pub profile_image_url: S,
    pub profile_image_url_https: S,
    pub profile_banner_url: Option<S>,
    pub profile_link_color: S,
    pub profile_sidebar_border_color: S,
    pub profile_sidebar_fill_color: S,
    pub profile_text_color: S,
    pub profile_use_background_image: bool,
    pub default_profile: bool,
    pub default_profile_image: bool,
    pub following: bool,
    pub follow_request_sent: bool,
    pub notifications: bool,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntities<S = String> {
    pub url: Option<UserUrl<S>>,
    pub description: UserEntitiesDescription<S>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserUrl<S = String> {
    pub urls: Vec<Url<S>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Url<S = String> {
    pub url: S,
    pub expanded_url: S,
    pub display_url: S,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntitiesDescription<S = String> {
    pub urls: Vec<Url<S>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatusEntities<S = String> {
    pub hashtags: Vec<Hashtag<S>>,
    pub symbols: [(); 0],
    pub urls: Vec<Url<S>>,
    pub user_mentions: Vec<UserMention<S>>,
    pub media: Option<Vec<Media<S>>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Hashtag<S = String> {
    pub text: S,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserMention<S = String> {
    pub screen_name: S,
    pub name: S,
    pub id: ShortId,
    pub id_str: S,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Media<S = String> {
    pub id: LongId,
    pub id_str: S,
    pub indices: Indices,
    pub media_url: S,
    pub media_url_https: S,
    pub url: S,
    pub display_url: S,
    pub expanded_url: S,
    #[serde(rename = "type")]
    pub media_type: S,
    pub sizes: Sizes,
    pub source_status_id: Option<LongId>,
    pub source_status_id_str: Option<S>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    pub medium: Size,
    pub small: Size,
    pub thumb: Size,
    pub large: Size,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Size {
    pub w: u16,
    pub h: u16,
    pub resize: Resize,
}

pub type Indices = (u8, u8);

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SearchMetadata<S = String> {
    pub completed_in: f32,
    pub max_id: LongId,
    pub max_id_str: S,
    pub next_results: S,
    pub query: S,
    pub refresh_url: S,
    pub count: u8,
    pub since_id: LongId,
    pub since_id_str: S,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Copy, Debug, PartialEq)]
pub enum Resize {
    #[serde(rename = "fit")]
    Fit,
    #[serde(rename = "crop")]
    Crop,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Copy, Debug, PartialEq)]
pub enum LanguageCode {
    #[serde(rename = "zh-cn")]
    Cn,
    #[serde(rename = "en")]
    En,
    #[serde(rename = "es")]
    Es,
    #[serde(rename = "it")]
    It,
    #[serde(rename = "ja")]
    Ja,
    #[serde(rename = "zh")]
    Zh,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Copy, Debug, PartialEq)]
pub enum ResultType {
    #[serde(rename = "recent")]
    Recent,
}
