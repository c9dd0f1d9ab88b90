//! Long-running operations: a `202 Accepted` that says where to ask how the work is going
//! (`Operation-Location`, as Azure writes it, or `Location`; RFC 9110 section 15.3.3) is
//! asked again, after its `Retry-After`, until the work is done or the call's deadline comes.
//! Pure: the plugin's tool sends and waits.
//!
//! Done means an answer other than `202`, unless it is a `200` whose JSON object has a
//! `status` that says the work is still going (`running`, `notStarted`, `inProgress`,
//! `pending`, `queued`, `accepted`), as status monitors answer. The status URL must be on
//! the origin of the request: neither the API nor the model can send the call elsewhere.

use std::time::Duration;

use crate::http::Response;
use crate::json::{self, Json};
use crate::url::Url;

/// The wait between two asks when the answer has no `Retry-After`: 1 s.
pub(crate) const DEFAULT_POLL_WAIT: Duration = Duration::from_secs(1);

/// The longest wait between two asks, whatever `Retry-After` says: 60 s (the call's deadline
/// still comes first).
pub(crate) const MAX_POLL_WAIT: Duration = Duration::from_secs(60);

const RUNNING: [&str; 7] = [
    "running",
    "notstarted",
    "inprogress",
    "pending",
    "queued",
    "accepted",
    "started",
];

/// Where to ask how a `202` is going, when it names a place on the request's origin.
pub(crate) fn status_url(response: &Response) -> Option<Url> {
    if response.status() != 202 {
        return None;
    }
    let target = response
        .header("operation-location")
        .or_else(|| response.header("location"))?;
    let url = response.url().join(target.trim()).ok()?;
    if url.same_origin(response.url()) {
        Some(url)
    } else {
        None
    }
}

/// Whether an answer to a status ask says the work is still going.
pub(crate) fn still_running(response: &Response) -> bool {
    match response.status() {
        202 => true,
        200 => json::parse_bytes(response.body())
            .ok()
            .as_ref()
            .and_then(|v| v.get("status"))
            .and_then(Json::as_str)
            .map_or(false, |status| {
                let status: String = status
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_ascii_lowercase();
                RUNNING.contains(&status.as_str())
            }),
        _ => false,
    }
}

/// The wait before the next ask: the answer's `Retry-After` (seconds or an HTTP-date, `now`
/// the Unix time), else [`DEFAULT_POLL_WAIT`], at most [`MAX_POLL_WAIT`].
pub(crate) fn wait(response: &Response, now: u64) -> Duration {
    response
        .header("retry-after")
        .and_then(|v| crate::http::parse_retry_after(v, now))
        .unwrap_or(DEFAULT_POLL_WAIT)
        .min(MAX_POLL_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Headers;

    fn response(status: u16, headers: &[(&str, &str)], body: &str) -> Response {
        let mut h = Headers::new();
        for (name, value) in headers {
            h.append(name, value).unwrap();
        }
        Response::new(
            status,
            Url::parse("https://api.example.com/v1/jobs").unwrap(),
        )
        .with_headers(h)
        .with_body(body.as_bytes().to_vec())
    }

    #[test]
    fn status_urls_stay_on_the_origin() {
        let r = response(202, &[("Location", "/v1/jobs/7")], "");
        assert_eq!(
            status_url(&r).unwrap().as_str(),
            "https://api.example.com/v1/jobs/7"
        );
        let r = response(
            202,
            &[
                ("Operation-Location", "https://api.example.com/ops/1"),
                ("Location", "/x"),
            ],
            "",
        );
        assert_eq!(
            status_url(&r).unwrap().as_str(),
            "https://api.example.com/ops/1"
        );
        let r = response(202, &[("Location", "https://evil.example.com/ops/1")], "");
        assert!(status_url(&r).is_none());
        let r = response(201, &[("Location", "/v1/jobs/7")], "");
        assert!(status_url(&r).is_none());
    }

    #[test]
    fn running_statuses() {
        assert!(still_running(&response(202, &[], "")));
        assert!(still_running(&response(
            200,
            &[],
            r#"{"status":"NotStarted"}"#
        )));
        assert!(still_running(&response(
            200,
            &[],
            r#"{"status":"in_progress"}"#
        )));
        assert!(!still_running(&response(
            200,
            &[],
            r#"{"status":"succeeded"}"#
        )));
        assert!(!still_running(&response(200, &[], "[1]")));
        assert!(!still_running(&response(500, &[], "")));
    }

    #[test]
    fn waits_follow_retry_after_within_the_cap() {
        assert_eq!(
            wait(&response(202, &[("Retry-After", "3")], ""), 0),
            Duration::from_secs(3)
        );
        assert_eq!(wait(&response(202, &[], ""), 0), DEFAULT_POLL_WAIT);
        assert_eq!(
            wait(&response(202, &[("Retry-After", "86400")], ""), 0),
            MAX_POLL_WAIT
        );
    }
}
