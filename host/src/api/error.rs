//! The API's one error type and its one mapping to HTTP: every refusal or
//! failure becomes `{"error": "<message>"}` with a status that says what kind
//! of problem it is.

use axum::Json;
use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::app::AppError;
use crate::runtime::LoadError;
use crate::store::{AnswerRefused, StoreError};

/// Why a request was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    App(#[from] AppError),
    /// Input the API itself refuses before the app sees it.
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A body the framework refused (too large, not JSON, wrong type).
    #[error("{1}")]
    Rejected(StatusCode, String),
    #[error("{0}")]
    Internal(String),
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError::App(AppError::Store(e))
    }
}

impl From<AnswerRefused> for ApiError {
    fn from(e: AnswerRefused) -> Self {
        ApiError::App(AppError::Refused(e))
    }
}

impl From<LoadError> for ApiError {
    fn from(e: LoadError) -> Self {
        ApiError::App(AppError::Load(e))
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        rejected(r.status(), r.body_text(), "limits.max_payload_bytes")
    }
}

impl From<BytesRejection> for ApiError {
    fn from(r: BytesRejection) -> Self {
        rejected(r.status(), r.body_text(), "limits.max_component_mib")
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::BadRequest(format!("bad query string: {}", r.body_text()))
    }
}

fn rejected(status: StatusCode, text: String, limit: &str) -> ApiError {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::Rejected(
            status,
            format!("the request body is too large ({text}); the limit is set by {limit}"),
        ),
        // A body of the wrong shape is bad input like any other.
        StatusCode::UNPROCESSABLE_ENTITY => ApiError::Rejected(StatusCode::BAD_REQUEST, text),
        _ => ApiError::Rejected(status, text),
    }
}

fn store_status(e: &StoreError) -> StatusCode {
    match e {
        StoreError::UnknownRun(_) | StoreError::UnknownDigest(_) => StatusCode::NOT_FOUND,
        StoreError::RunExists(_)
        | StoreError::RunIdRetired(_)
        | StoreError::VersionConflict { .. }
        | StoreError::LostClaim { .. } => StatusCode::CONFLICT,
        StoreError::Db(_) | StoreError::TooNew { .. } | StoreError::Corrupt(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

fn refused_status(e: &AnswerRefused) -> StatusCode {
    match e {
        AnswerRefused::UnknownRun(_) | AnswerRefused::UnknownRequest { .. } => {
            StatusCode::NOT_FOUND
        }
        AnswerRefused::Expired { .. } => StatusCode::GONE,
        AnswerRefused::AlreadyAnswered { .. }
        | AnswerRefused::DetailsChanged { .. }
        | AnswerRefused::NotWaiting { .. } => StatusCode::CONFLICT,
    }
}

fn load_status(e: &LoadError) -> StatusCode {
    match e {
        LoadError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        LoadError::Unavailable(_) => StatusCode::INTERNAL_SERVER_ERROR,
        LoadError::NotWasm
        | LoadError::CoreModule
        | LoadError::UnsupportedImport(_)
        | LoadError::Invalid(_) => StatusCode::BAD_REQUEST,
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::App(e) => match e {
                AppError::Store(e) => store_status(e),
                AppError::Load(e) => load_status(e),
                AppError::Refused(e) => refused_status(e),
                AppError::Runtime(_) => StatusCode::INTERNAL_SERVER_ERROR,
                AppError::Invalid(_) => StatusCode::BAD_REQUEST,
                AppError::NotFound(_) => StatusCode::NOT_FOUND,
                AppError::Conflict(_) => StatusCode::CONFLICT,
            },
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Rejected(status, _) => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = self.to_string();
        let server_error = status.is_server_error().then(|| message.clone());
        let mut response = (status, Json(json!({"error": message}))).into_response();
        if let Some(message) = server_error {
            response
                .extensions_mut()
                .insert(super::logging::ServerError(message));
        }
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}
