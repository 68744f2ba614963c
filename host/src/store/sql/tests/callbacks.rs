//! Callback links: made with their ledger row, used once, refused after
//! expiry.

use super::*;
use crate::store::{Callback, CallbackRefused, NewCallback};

fn render(c: &Callback) -> String {
    json!({"topic": c.topic, "token": c.token}).to_string()
}

#[test]
fn a_link_is_made_with_its_ledger_row_and_delivers_once_before_its_expiry() {
    let (_db, mut store) = setup("callbacks");
    let (c, _) = claim(&mut store, 10).unwrap();
    let call = |key: &str| LedgerWrite {
        run_id: "r1".into(),
        incarnation: "i1".into(),
        epoch: c.epoch,
        key: key.into(),
        tool: "callback".into(),
        args: format!(r#"{{"key":"{key}"}}"#),
    };
    let link = |id: &str| NewCallback {
        id: id.into(),
        valid_for_ms: 1_000,
        now: 10,
    };
    let a = store
        .create_callback(&call("make-a"), &link("a"), &render)
        .unwrap()
        .unwrap();
    assert_eq!((a.topic.as_str(), a.expires_at), ("callback:a", 1_010));
    assert_eq!(a.token.len(), 64);
    let recorded = store.ledger_get("r1", "make-a").unwrap().unwrap();
    assert_eq!(recorded.result, Ok(render(&a)));
    // The key is recorded: running the effect again is refused.
    let again = store.create_callback(&call("make-a"), &link("a"), &render);
    assert!(matches!(again, Err(StoreError::Db(_))), "{again:?}");
    // Another key for the same id: a second link of that name is refused.
    let twin = store
        .create_callback(&call("make-a2"), &link("a"), &render)
        .unwrap();
    assert!(twin.unwrap_err().contains("already has a link with id `a`"));
    let b = store
        .create_callback(&call("make-b"), &link("b"), &render)
        .unwrap()
        .unwrap();
    assert_eq!(store.callbacks("r1").unwrap().len(), 2);

    let unknown = store.use_callback("nope", "{}", None, 20).unwrap();
    assert!(matches!(unknown, Err(CallbackRefused::Unknown)));
    let used = store
        .use_callback(&a.token, r#"{"ok":true}"#, Some("127.0.0.1:9"), 500)
        .unwrap()
        .unwrap();
    assert_eq!(used.used_at, Some(500));
    let inbox = store.inbox("r1").unwrap();
    assert_eq!(inbox.len(), 1);
    assert_eq!(inbox[0].event.topic, "callback:a");
    assert_eq!(inbox[0].event.payload, r#"{"ok":true}"#);
    let twice = store.use_callback(&a.token, "{}", None, 600).unwrap();
    assert!(
        matches!(twice, Err(CallbackRefused::Used { used_at: 500, .. })),
        "{twice:?}"
    );
    // Valid in [created_at, expires_at): at its expiry it is refused.
    let late = store.use_callback(&b.token, "{}", None, 1_010).unwrap();
    assert!(matches!(
        late,
        Err(CallbackRefused::Expired {
            expires_at: 1_010,
            ..
        })
    ));
    assert_eq!(store.inbox("r1").unwrap().len(), 1);
    let kinds = audit_kinds(&store);
    assert_eq!(kinds.iter().filter(|k| *k == "callback").count(), 1);
    assert_eq!(kinds.iter().filter(|k| *k == "callback refused").count(), 1);
}
