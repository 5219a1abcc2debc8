//! Types of twitter.json, adapted from serde-rs/json-benchmark (MIT): maps are
//! `json::Entries`, colours and ID strings are plain strings.

use json::{ReadJson, WriteJson};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Twitter {
    pub statuses: Vec<Status>,
    pub search_metadata: SearchMetadata,
}

pub type LongId = u64;
pub type ShortId = u32;

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Status {
    pub metadata: Metadata,
    pub created_at: String,
    pub id: LongId,
    pub id_str: String,
    pub text: String,
    pub source: String,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<LongId>,
    pub in_reply_to_status_id_str: Option<String>,
    pub in_reply_to_user_id: Option<ShortId>,
    pub in_reply_to_user_id_str: Option<String>,
    pub in_reply_to_screen_name: Option<String>,
    pub user: User,
    pub geo: (),
    pub coordinates: (),
    pub place: (),
    pub contributors: (),
    pub retweeted_status: Option<Box<Status>>,
    pub retweet_count: u32,
    pub favorite_count: u32,
    pub entities: StatusEntities,
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
pub struct User {
    pub id: ShortId,
    pub id_str: String,
    pub name: String,
    pub screen_name: String,
    pub location: String,
    pub description: String,
    pub url: Option<String>,
    pub entities: UserEntities,
    pub protected: bool,
    pub followers_count: u32,
    pub friends_count: u32,
    pub listed_count: u32,
    pub created_at: String,
    pub favourites_count: u32,
    pub utc_offset: Option<i32>,
    pub time_zone: Option<String>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u32,
    pub lang: LanguageCode,
    pub contributors_enabled: bool,
    pub is_translator: bool,
    pub is_translation_enabled: bool,
    pub profile_background_color: String,
    pub profile_background_image_url: String,
    pub profile_background_image_url_https: String,
    pub profile_background_tile: bool,
    pub profile_image_url: String,
    pub profile_image_url_https: String,
    pub profile_banner_url: Option<String>,
    pub profile_link_color: String,
    pub profile_sidebar_border_color: String,
    pub profile_sidebar_fill_color: String,
    pub profile_text_color: String,
    pub profile_use_background_image: bool,
    pub default_profile: bool,
    pub default_profile_image: bool,
    pub following: bool,
    pub follow_request_sent: bool,
    pub notifications: bool,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntities {
    pub url: Option<UserUrl>,
    pub description: UserEntitiesDescription,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserUrl {
    pub urls: Vec<Url>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Url {
    pub url: String,
    pub expanded_url: String,
    pub display_url: String,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntitiesDescription {
    pub urls: Vec<Url>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatusEntities {
    pub hashtags: Vec<Hashtag>,
    pub symbols: [(); 0],
    pub urls: Vec<Url>,
    pub user_mentions: Vec<UserMention>,
    pub media: Option<Vec<Media>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Hashtag {
    pub text: String,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserMention {
    pub screen_name: String,
    pub name: String,
    pub id: ShortId,
    pub id_str: String,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Media {
    pub id: LongId,
    pub id_str: String,
    pub indices: Indices,
    pub media_url: String,
    pub media_url_https: String,
    pub url: String,
    pub display_url: String,
    pub expanded_url: String,
    #[serde(rename = "type")]
    pub media_type: String,
    pub sizes: Sizes,
    pub source_status_id: Option<LongId>,
    pub source_status_id_str: Option<String>,
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
pub struct SearchMetadata {
    pub completed_in: f32,
    pub max_id: LongId,
    pub max_id_str: String,
    pub next_results: String,
    pub query: String,
    pub refresh_url: String,
    pub count: u8,
    pub since_id: LongId,
    pub since_id_str: String,
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

// The borrowed model (`json-borrowed`, `serde_json-borrowed`, ... rows): strings
// that may hold escapes are `Cow<'a, str>` with `#[serde(borrow)]` (serde borrows
// them when unescaped; `json` borrows from the input or its arena), optional strings
// and those of the corpus that never hold escapes are `&'a str`.

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TwitterRef<'a> {
    #[serde(borrow)]
    pub statuses: Vec<StatusRef<'a>>,
    #[serde(borrow)]
    pub search_metadata: SearchMetadataRef<'a>,
}


#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatusRef<'a> {
    pub metadata: Metadata,
    #[serde(borrow)]
    pub created_at: Cow<'a, str>,
    pub id: LongId,
    #[serde(borrow)]
    pub id_str: Cow<'a, str>,
    #[serde(borrow)]
    pub text: Cow<'a, str>,
    #[serde(borrow)]
    pub source: Cow<'a, str>,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<LongId>,
    #[serde(borrow)]
    pub in_reply_to_status_id_str: Option<&'a str>,
    pub in_reply_to_user_id: Option<ShortId>,
    #[serde(borrow)]
    pub in_reply_to_user_id_str: Option<&'a str>,
    #[serde(borrow)]
    pub in_reply_to_screen_name: Option<&'a str>,
    #[serde(borrow)]
    pub user: UserRef<'a>,
    pub geo: (),
    pub coordinates: (),
    pub place: (),
    pub contributors: (),
    #[serde(borrow)]
    pub retweeted_status: Option<Box<StatusRef<'a>>>,
    pub retweet_count: u32,
    pub favorite_count: u32,
    #[serde(borrow)]
    pub entities: StatusEntitiesRef<'a>,
    pub favorited: bool,
    pub retweeted: bool,
    pub possibly_sensitive: Option<bool>,
    pub lang: LanguageCode,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserRef<'a> {
    pub id: ShortId,
    #[serde(borrow)]
    pub id_str: Cow<'a, str>,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub screen_name: Cow<'a, str>,
    #[serde(borrow)]
    pub location: Cow<'a, str>,
    #[serde(borrow)]
    pub description: Cow<'a, str>,
    #[serde(borrow)]
    pub url: Option<&'a str>,
    #[serde(borrow)]
    pub entities: UserEntitiesRef<'a>,
    pub protected: bool,
    pub followers_count: u32,
    pub friends_count: u32,
    pub listed_count: u32,
    #[serde(borrow)]
    pub created_at: Cow<'a, str>,
    pub favourites_count: u32,
    pub utc_offset: Option<i32>,
    #[serde(borrow)]
    pub time_zone: Option<&'a str>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u32,
    pub lang: LanguageCode,
    pub contributors_enabled: bool,
    pub is_translator: bool,
    pub is_translation_enabled: bool,
    #[serde(borrow)]
    pub profile_background_color: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_background_image_url: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_background_image_url_https: Cow<'a, str>,
    pub profile_background_tile: bool,
    #[serde(borrow)]
    pub profile_image_url: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_image_url_https: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_banner_url: Option<&'a str>,
    #[serde(borrow)]
    pub profile_link_color: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_sidebar_border_color: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_sidebar_fill_color: Cow<'a, str>,
    #[serde(borrow)]
    pub profile_text_color: Cow<'a, str>,
    pub profile_use_background_image: bool,
    pub default_profile: bool,
    pub default_profile_image: bool,
    pub following: bool,
    pub follow_request_sent: bool,
    pub notifications: bool,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntitiesRef<'a> {
    #[serde(borrow)]
    pub url: Option<UserUrlRef<'a>>,
    #[serde(borrow)]
    pub description: UserEntitiesDescriptionRef<'a>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserUrlRef<'a> {
    #[serde(borrow)]
    pub urls: Vec<UrlRef<'a>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UrlRef<'a> {
    #[serde(borrow)]
    pub url: Cow<'a, str>,
    #[serde(borrow)]
    pub expanded_url: Cow<'a, str>,
    #[serde(borrow)]
    pub display_url: Cow<'a, str>,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserEntitiesDescriptionRef<'a> {
    #[serde(borrow)]
    pub urls: Vec<UrlRef<'a>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatusEntitiesRef<'a> {
    #[serde(borrow)]
    pub hashtags: Vec<HashtagRef<'a>>,
    pub symbols: [(); 0],
    #[serde(borrow)]
    pub urls: Vec<UrlRef<'a>>,
    #[serde(borrow)]
    pub user_mentions: Vec<UserMentionRef<'a>>,
    #[serde(borrow)]
    pub media: Option<Vec<MediaRef<'a>>>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HashtagRef<'a> {
    #[serde(borrow)]
    pub text: Cow<'a, str>,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct UserMentionRef<'a> {
    #[serde(borrow)]
    pub screen_name: Cow<'a, str>,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    pub id: ShortId,
    #[serde(borrow)]
    pub id_str: Cow<'a, str>,
    pub indices: Indices,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MediaRef<'a> {
    pub id: LongId,
    #[serde(borrow)]
    pub id_str: Cow<'a, str>,
    pub indices: Indices,
    #[serde(borrow)]
    pub media_url: Cow<'a, str>,
    #[serde(borrow)]
    pub media_url_https: Cow<'a, str>,
    #[serde(borrow)]
    pub url: Cow<'a, str>,
    #[serde(borrow)]
    pub display_url: Cow<'a, str>,
    #[serde(borrow)]
    pub expanded_url: Cow<'a, str>,
    #[serde(rename = "type")]
    #[serde(borrow)]
    pub media_type: Cow<'a, str>,
    pub sizes: Sizes,
    pub source_status_id: Option<LongId>,
    #[serde(borrow)]
    pub source_status_id_str: Option<&'a str>,
}

#[derive(Serialize, Deserialize, WriteJson, ReadJson, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SearchMetadataRef<'a> {
    pub completed_in: f32,
    pub max_id: LongId,
    #[serde(borrow)]
    pub max_id_str: Cow<'a, str>,
    #[serde(borrow)]
    pub next_results: Cow<'a, str>,
    #[serde(borrow)]
    pub query: Cow<'a, str>,
    #[serde(borrow)]
    pub refresh_url: Cow<'a, str>,
    pub count: u8,
    pub since_id: LongId,
    #[serde(borrow)]
    pub since_id_str: Cow<'a, str>,
}
