//! The opt-in retry policy for 429 and 503 responses, and `Retry-After` (RFC 9110 section
//! 10.2.3) with HTTP-date parsing (RFC 9110 section 5.6.7). Pure: the caller passes the time.

use std::time::Duration;

use super::method::Method;

/// The longest wait the retry policy takes before retrying a 429 or 503. Defaults to 10 seconds.
pub const DEFAULT_RETRY_MAX_WAIT: Duration = Duration::from_secs(10);
/// The retry policy's wait when a 429 or 503 has no usable `Retry-After`. Defaults to 1 second.
pub const DEFAULT_RETRY_WAIT: Duration = Duration::from_secs(1);

/// Whether and how 429 (Too Many Requests) and 503 (Service Unavailable) responses are
/// retried. Off by default.
///
/// The wait is the response's `Retry-After` (seconds or an HTTP-date), or `default_wait`
/// without one. A wait longer than `max_wait`, or one that would end after the call's
/// deadline (`timeout_call`), is not taken: the 429 or 503 response is returned as it is.
/// Only idempotent methods are retried unless [`allow_non_idempotent`] says otherwise.
///
/// This is separate from the retry every client does on its own: an idempotent request whose
/// connection failed before any response byte, and before the server could have acted on it
/// (nothing of the request was written, or all of it was and the connection then closed), is
/// sent once more on a fresh connection. A request written in part is never sent again: what
/// the server answered before closing (a `413` to an upload) is the response.
///
/// [`allow_non_idempotent`]: RetryPolicy::allow_non_idempotent
///
/// ```
/// use httptool::http::{Config, RetryPolicy};
/// use std::time::Duration;
/// let config =
/// Config::new().retry(RetryPolicy::overload_retries(2).max_wait(Duration::from_secs(5)));
/// # drop(config);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    max_retries: u32,
    max_wait: Duration,
    default_wait: Duration,
    allow_non_idempotent: bool,
}

impl Default for RetryPolicy {
    /// [`RetryPolicy::none`].
    fn default() -> RetryPolicy {
        RetryPolicy::none()
    }
}

impl RetryPolicy {
    /// No retries of 429 and 503 responses. The default.
    pub fn none() -> RetryPolicy {
        RetryPolicy {
            max_retries: 0,
            max_wait: DEFAULT_RETRY_MAX_WAIT,
            default_wait: DEFAULT_RETRY_WAIT,
            allow_non_idempotent: false,
        }
    }

    /// Retries 429 and 503 responses up to `retries` times in one call (the plugin file's
    /// `overload_retries`).
    pub fn overload_retries(retries: u32) -> RetryPolicy {
        RetryPolicy {
            max_retries: retries,
            ..RetryPolicy::none()
        }
    }

    /// The longest wait taken; a longer `Retry-After` ends the retries. Defaults to
    /// [`DEFAULT_RETRY_MAX_WAIT`] (10 s).
    #[must_use]
    pub fn max_wait(mut self, wait: Duration) -> RetryPolicy {
        self.max_wait = wait;
        self
    }

    /// The wait when the response has no usable `Retry-After`. Defaults to
    /// [`DEFAULT_RETRY_WAIT`] (1 s).
    #[must_use]
    pub fn default_wait(mut self, wait: Duration) -> RetryPolicy {
        self.default_wait = wait;
        self
    }

    /// Also retry `POST` and `PATCH`: a 429 or 503 usually means the request was not
    /// processed, but only the server knows. Off by default.
    #[must_use]
    pub fn allow_non_idempotent(mut self, allow: bool) -> RetryPolicy {
        self.allow_non_idempotent = allow;
        self
    }

    /// How long to wait before retrying, or `None` to return the response as it is.
    /// `retries_done` counts the retries already made in this call; `now` is seconds since
    /// the Unix epoch.
    pub(crate) fn wait_for(
        &self,
        method: Method,
        status: u16,
        retry_after: Option<&str>,
        retries_done: u32,
        now: u64,
    ) -> Option<Duration> {
        if retries_done >= self.max_retries || !matches!(status, 429 | 503) {
            return None;
        }
        if !method.is_idempotent() && !self.allow_non_idempotent {
            return None;
        }
        let wait = retry_after
            .and_then(|v| parse_retry_after(v, now))
            .unwrap_or(self.default_wait);
        (wait <= self.max_wait).then_some(wait)
    }
}

/// RFC 9110 section 10.2.3: `Retry-After = HTTP-date / delay-seconds`. A date in the past is
/// no wait.
pub(crate) fn parse_retry_after(value: &str, now: u64) -> Option<Duration> {
    let value = value.trim();
    // Absurdly long delays saturate; max_wait refuses them anyway.
    if let Some(seconds) = crate::decimal::parse_saturating(value.as_bytes()) {
        return Some(Duration::from_secs(seconds));
    }
    let at = parse_http_date(value, now)?;
    Some(Duration::from_secs(at.saturating_sub(now)))
}

fn month(name: &str) -> Option<u32> {
    const MONTHS: [(&str, u32); 12] = [
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ];
    for &(month, number) in MONTHS.iter() {
        if month.eq_ignore_ascii_case(name) {
            return Some(number);
        }
    }
    None
}

/// A date field of `min` to `max` digits (the digits are all it may hold).
fn number(s: &str, min: usize, max: usize) -> Option<u32> {
    if s.len() < min || s.len() > max {
        return None;
    }
    u32::try_from(crate::decimal::parse(s.as_bytes())?).ok()
}

/// `hh:mm:ss`, as seconds into the day.
fn time_of_day(s: &str) -> Option<u64> {
    let mut parts = s.split(':');
    let h = number(parts.next()?, 2, 2)?;
    let m = number(parts.next()?, 2, 2)?;
    let sec = number(parts.next()?, 2, 2)?;
    if parts.next().is_some() || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    Some(u64::from(h * 3600 + m * 60 + sec))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (the "days from civil" algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn to_unix(year: u32, mon: u32, day: u32, secs: u64) -> Option<u64> {
    if !(1..=31).contains(&day) || year < 1970 {
        return None;
    }
    let days = u64::try_from(days_from_civil(i64::from(year), mon, day)).ok()?;
    Some(days * 86_400 + secs)
}

/// RFC 9110 section 5.6.7: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete
/// rfc850-date (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`)
/// forms. Returns seconds since the Unix epoch; `now` (the same) places two-digit years.
pub(crate) fn parse_http_date(s: &str, now: u64) -> Option<u64> {
    match s.split_once(',') {
        Some((_, rest)) => {
            let (fields, n) = date_fields(rest)?;
            match *fields.get(..n)? {
                [d, mon, y, t, "GMT"] => to_unix(
                    number(y, 4, 4)?,
                    month(mon)?,
                    number(d, 2, 2)?,
                    time_of_day(t)?,
                ),
                [date, t, "GMT"] => {
                    let mut parts = date.split('-');
                    let d = number(parts.next()?, 2, 2)?;
                    let mon = month(parts.next()?)?;
                    let yy = number(parts.next()?, 2, 2)?;
                    to_unix(full_year(yy, now), mon, d, time_of_day(t)?)
                }
                _ => None,
            }
        }
        None => {
            let (fields, n) = date_fields(s)?;
            match *fields.get(..n)? {
                [_, mon, d, t, y] => to_unix(
                    number(y, 4, 4)?,
                    month(mon)?,
                    number(d, 1, 2)?,
                    time_of_day(t)?,
                ),
                _ => None,
            }
        }
    }
}

/// The whitespace-separated fields of a date and their count, or `None` for more than five
/// (no date form has more). A fixed array, not a `Vec`: collecting compiles the standard
/// library's generic collection code for a handful of words (build cost, see
/// `design::performance`).
fn date_fields(s: &str) -> Option<([&str; 5], usize)> {
    let mut fields = [""; 5];
    let mut n = 0;
    for field in s.split_whitespace() {
        *fields.get_mut(n)? = field;
        n += 1;
    }
    Some((fields, n))
}

/// The year of a Unix time (the "civil from days" algorithm).
fn year_of(unix: u64) -> u32 {
    let z = i64::try_from(unix / 86_400).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let january_or_february = mp >= 10;
    let year = yoe + era * 400 + i64::from(january_or_february);
    u32::try_from(year).unwrap_or(1970)
}

/// RFC 9110 section 5.6.7: a two-digit year more than 50 years in the future is the most
/// recent past year with those digits.
fn full_year(yy: u32, now: u64) -> u32 {
    let this_year = year_of(now);
    let year = this_year - this_year % 100 + yy;
    if year > this_year + 50 {
        year - 100
    } else {
        year
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1994-11-06 08:49:37 UTC.
    const RFC_EXAMPLE: u64 = 784_111_777;
    /// 2024-01-01 00:00:00 UTC.
    const NOW: u64 = 1_704_067_200;

    #[test]
    fn http_date_forms() {
        let cases = [
            ("Sun, 06 Nov 1994 08:49:37 GMT", Some(RFC_EXAMPLE)),
            ("Sunday, 06-Nov-94 08:49:37 GMT", Some(RFC_EXAMPLE)),
            ("Sun Nov  6 08:49:37 1994", Some(RFC_EXAMPLE)),
            ("Thu, 01 Jan 1970 00:00:00 GMT", Some(0)),
            ("Mon, 01 Jan 2024 00:00:00 GMT", Some(NOW)),
            (
                "Thu, 29 Feb 2024 12:00:00 GMT",
                Some(NOW + 59 * 86_400 + 43_200),
            ),
            ("Monday, 01-Jan-24 00:00:00 GMT", Some(NOW)),
            ("Sun, 06 Nov 1994 08:49:37 UTC", None),
            ("Sun, 6 Nov 1994 08:49:37 GMT", None),
            ("Sun, 06 Foo 1994 08:49:37 GMT", None),
            ("Sun, 06 Nov 1994 24:00:00 GMT", None),
            ("Sun, 06 Nov 94 08:49:37 GMT", None),
            ("Sun, 32 Nov 1994 08:49:37 GMT", None),
            ("Sun, 06 Nov 1969 08:49:37 GMT", None),
            ("", None),
            ("soon", None),
        ];
        for (input, want) in cases {
            assert_eq!(parse_http_date(input, NOW), want, "{input}");
        }
    }

    #[test]
    fn years() {
        assert_eq!(year_of(0), 1970);
        assert_eq!(year_of(NOW - 1), 2023);
        assert_eq!(year_of(NOW), 2024);
        assert_eq!(year_of(RFC_EXAMPLE), 1994);
        assert_eq!(year_of(951_782_400), 2000); // 2000-02-29
    }

    #[test]
    fn two_digit_years() {
        assert_eq!(full_year(24, NOW), 2024);
        assert_eq!(full_year(74, NOW), 2074);
        assert_eq!(full_year(75, NOW), 1975);
        assert_eq!(full_year(94, NOW), 1994);
    }

    #[test]
    fn retry_after_values() {
        assert_eq!(
            parse_retry_after("120", NOW),
            Some(Duration::from_secs(120))
        );
        assert_eq!(parse_retry_after(" 0 ", NOW), Some(Duration::ZERO));
        assert_eq!(
            parse_retry_after("Mon, 01 Jan 2024 00:00:30 GMT", NOW),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", NOW),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("-1", NOW), None);
        assert_eq!(parse_retry_after("1.5", NOW), None);
        assert_eq!(
            parse_retry_after("99999999999999999999999", NOW),
            Some(Duration::from_secs(u64::MAX))
        );
    }

    #[test]
    fn policy_decisions() {
        let p = RetryPolicy::overload_retries(2).max_wait(Duration::from_secs(5));
        let s = Duration::from_secs;
        assert_eq!(p.wait_for(Method::Get, 503, Some("3"), 0, NOW), Some(s(3)));
        assert_eq!(
            p.wait_for(Method::Get, 429, None, 1, NOW),
            Some(DEFAULT_RETRY_WAIT)
        );
        assert_eq!(
            p.wait_for(Method::Get, 429, Some("junk"), 1, NOW),
            Some(DEFAULT_RETRY_WAIT)
        );
        assert_eq!(p.wait_for(Method::Get, 429, Some("3"), 2, NOW), None);
        assert_eq!(p.wait_for(Method::Get, 429, Some("6"), 0, NOW), None);
        assert_eq!(p.wait_for(Method::Get, 500, Some("1"), 0, NOW), None);
        assert_eq!(p.wait_for(Method::Post, 503, Some("1"), 0, NOW), None);
        let p = p.allow_non_idempotent(true);
        assert_eq!(p.wait_for(Method::Post, 503, Some("1"), 0, NOW), Some(s(1)));
        assert_eq!(
            RetryPolicy::none().wait_for(Method::Get, 503, Some("1"), 0, NOW),
            None
        );
    }
}
