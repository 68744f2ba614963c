//! JSON shown to a person: objects as labelled lists, arrays as lists, long
//! text folded behind its beginning, and the exact JSON one click away.

use maud::{Markup, html};
use serde_json::Value;

/// Text longer than this is folded.
const FOLD_AT: usize = 160;
/// How much of folded text stays visible.
const PREVIEW: usize = 80;

/// `value` as nested HTML lists.
pub fn render(value: &Value) -> Markup {
    match value {
        Value::Object(map) if map.is_empty() => html! { span.empty { "(nothing)" } },
        Value::Object(map) => html! {
            dl.json {
                @for (key, v) in map {
                    dt { (key) }
                    dd { (render(v)) }
                }
            }
        },
        Value::Array(items) if items.is_empty() => html! { span.empty { "(none)" } },
        Value::Array(items) => html! {
            ol.json {
                @for v in items { li { (render(v)) } }
            }
        },
        Value::String(text) => text_value(text),
        other => html! { code { (other.to_string()) } },
    }
}

fn text_value(text: &str) -> Markup {
    if text.chars().count() <= FOLD_AT {
        return html! { span.text { (text) } };
    }
    let preview: String = text.chars().take(PREVIEW).collect();
    html! {
        details.fold {
            summary { (preview) "… (" (text.chars().count()) " characters)" }
            p.text { (text) }
        }
    }
}

/// The exact JSON, pretty-printed, folded.
pub fn raw(value: &Value) -> Markup {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    html! {
        details.raw {
            summary { "Exact JSON" }
            pre { code { (pretty) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markup_in_values_is_escaped_and_long_text_folded() {
        let html = render(&json!({"<b>key</b>": "<script>x</script>", "long": "a".repeat(500)}))
            .into_string();
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;") && html.contains("&lt;b&gt;key"));
        assert!(html.contains("<details") && html.contains("(500 characters)"));
    }
}
