//! The handlers of what the client sends, in the manner of rust-analyzer's
//! `handlers/`: `request` answers, `notification` changes the server's state. The
//! main loop picks the handler by method (`Server::on_request`,
//! `Server::on_notification`); a handler's failure is a `HandlerError`.

pub(super) mod notification;
pub(super) mod request;

use lsp_server::ErrorCode;
use serde::de::DeserializeOwned;

/// What a handler could not do: becomes an error response.
pub(super) struct HandlerError {
    pub(super) code: ErrorCode,
    pub(super) message: String,
}

pub(super) fn invalid_params(message: impl Into<String>) -> HandlerError {
    HandlerError { code: ErrorCode::InvalidParams, message: message.into() }
}

pub(super) fn parse_params<P: DeserializeOwned>(params: serde_json::Value) -> Result<P, HandlerError> {
    serde_json::from_value(params).map_err(|err| invalid_params(format!("invalid params: {err}")))
}

pub(super) fn to_json(value: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}
