//! The server's one error type and its one mapping to HTTP: every refusal
//! or failure becomes `{"error": "<message>"}` ([`ErrorBody`]) with a
//! status that says what kind of problem it is.

use axum::Json;
use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::app::AppError;
use crate::app::terms::Terms;
use crate::runtime::LoadError;
use crate::store::{AnswerRefused, StoreError};

/// The body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, worded for the client.
    pub error: String,
}

/// Why a request was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Worded for an API client: fields and routes, not flags.
    #[error("{}", .0.worded(Terms::Api))]
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
        | StoreError::LostClaim { .. }
        | StoreError::Conflict(_) => StatusCode::CONFLICT,
        StoreError::Db(_)
        | StoreError::TooNew { .. }
        | StoreError::Corrupt(_)
        | StoreError::TooLarge(_) => StatusCode::INTERNAL_SERVER_ERROR,
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
        LoadError::Compiler(_) => StatusCode::SERVICE_UNAVAILABLE,
        LoadError::OverLimit(_) => StatusCode::UNPROCESSABLE_ENTITY,
        LoadError::NotWasm
        | LoadError::CoreModule
        | LoadError::Refused(_)
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
                AppError::Invalid(_)
                | AppError::BadInput { .. }
                | AppError::MissingGrants { .. }
                | AppError::MissingDigest(_) => StatusCode::BAD_REQUEST,
                AppError::NotFound(_)
                | AppError::UnknownRun(_)
                | AppError::PrunedRun(_)
                | AppError::UnknownAgent(_)
                | AppError::UnknownVersion { .. } => StatusCode::NOT_FOUND,
                AppError::Conflict(_) => StatusCode::CONFLICT,
                AppError::Forbidden(_) => StatusCode::FORBIDDEN,
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

/// The outermost layer: an error answer made by the framework itself (a
/// path it cannot decode, say) still reaches the client as `{"error":
/// "..."}`, its text kept.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    // Pages (`text/html`) answer people in a browser with their own words.
    let ours = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|t| {
            t.as_bytes().starts_with(b"application/json") || t.as_bytes().starts_with(b"text/html")
        });
    if ours || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), 64 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let text = if text.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_string()
    } else {
        text
    };
    ApiError::Rejected(status, text).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = self.to_string();
        let server_error = status.is_server_error().then(|| message.clone());
        let mut response = (status, Json(ErrorBody { error: message })).into_response();
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
