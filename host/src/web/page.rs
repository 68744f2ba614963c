//! The frame every page shares, and small helpers for times.

use maud::{DOCTYPE, Markup, html};

use crate::clock::rfc3339;
use crate::model::Millis;

/// A whole page: `title` in the tab and as the heading, `body` below.
pub fn page(title: &str, body: Markup) -> Markup {
    framed("narrow", title, body)
}

/// A page as wide as the screen, for tables.
pub fn wide_page(title: &str, body: Markup) -> Markup {
    framed("wide", title, body)
}

fn framed(width: &str, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="same-origin";
                title { (title) " · wakeful" }
                link rel="stylesheet" href="/ui/static/style.css";
                script src="/ui/static/app.js" defer {}
            }
            body {
                main class=(width) {
                    h1 { (title) }
                    (body)
                }
            }
        }
    }
}

/// `when` as an RFC 3339 time in a `<time>` element, with how long ago or
/// how far ahead it is from `now`.
pub fn time_from_now(when: Millis, now: Millis) -> Markup {
    html! {
        time datetime=(rfc3339(when)) { (rfc3339(when)) }
        " (" (relative(when, now)) ")"
    }
}

/// "3 min ago", "in 2 h 5 min", "now".
pub fn relative(when: Millis, now: Millis) -> String {
    let (span, ahead) = if when >= now {
        (when - now, true)
    } else {
        (now - when, false)
    };
    let text = span_text(span);
    match (text.as_str(), ahead) {
        ("now", _) => text,
        (_, true) => format!("in {text}"),
        (_, false) => format!("{text} ago"),
    }
}

fn span_text(ms: Millis) -> String {
    let s = ms / 1000;
    match s {
        0 => "now".into(),
        1..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, (s % 3600) / 60),
        _ => format!("{} d {} h", s / 86_400, (s % 86_400) / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_times_read_naturally() {
        assert_eq!(relative(1_000, 1_000), "now");
        assert_eq!(relative(0, 30_000), "30 s ago");
        assert_eq!(relative(10 * 60_000, 0), "in 10 min");
        assert_eq!(relative(0, 3_900_000), "1 h 5 min ago");
    }
}
