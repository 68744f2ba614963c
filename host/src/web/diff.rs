//! What changed between two JSON states, path by path, for a run's
//! timeline: the operator reads what a step did to the state without
//! comparing two documents by eye.

use serde_json::Value;

/// One difference: the path (`/a/0/b`), and the value before and after
/// (`None`: absent on that side).
#[derive(Debug, PartialEq)]
pub struct Change {
    pub path: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// The differences from `before` to `after`, objects compared key by key
/// and arrays index by index; at most `limit` of them.
pub fn changes(before: &Value, after: &Value, limit: usize) -> Vec<Change> {
    let mut out = Vec::new();
    walk(String::new(), before, after, &mut out, limit);
    out
}

fn walk(path: String, before: &Value, after: &Value, out: &mut Vec<Change>, limit: usize) {
    if out.len() >= limit || before == after {
        return;
    }
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let sub = format!("{path}/{}", escape(key));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => walk(sub, x, y, out, limit),
                    (x, y) => push(out, limit, sub, x.cloned(), y.cloned()),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let sub = format!("{path}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => walk(sub, x, y, out, limit),
                    (x, y) => push(out, limit, sub, x.cloned(), y.cloned()),
                }
            }
        }
        _ => push(
            out,
            limit,
            if path.is_empty() { "/".into() } else { path },
            Some(before.clone()),
            Some(after.clone()),
        ),
    }
}

fn push(
    out: &mut Vec<Change>,
    limit: usize,
    path: String,
    before: Option<Value>,
    after: Option<Value>,
) {
    if out.len() < limit {
        out.push(Change {
            path,
            before,
            after,
        });
    }
}

/// JSON Pointer escaping (RFC 6901), so that a key with `/` stays one step.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changes_name_each_path_once() {
        let before = json!({"phase": "triage", "n": [1, 2], "gone": true, "a/b": 1});
        let after = json!({"phase": "act", "n": [1, 3, 4], "new": {"x": 1}, "a/b": 1});
        let got = changes(&before, &after, 100);
        let paths: Vec<&str> = got.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["/gone", "/n/1", "/n/2", "/new", "/phase"]);
        assert_eq!(got[0].after, None);
        assert_eq!(got[2].before, None);
        assert_eq!(changes(&json!(null), &json!({"a": 1}), 10)[0].path, "/");
        assert_eq!(changes(&before, &after, 2).len(), 2);
        assert!(changes(&after, &after, 10).is_empty());
    }
}
