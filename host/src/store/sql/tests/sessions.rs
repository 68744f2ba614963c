//! Console sessions' per-principal generation and secret: made once,
//! shared by every connection, changed by a revoke.

use super::*;

#[test]
fn a_principals_session_key_is_made_once_and_a_revoke_changes_it_for_every_connection() {
    let db = TempDb::new("sessions");
    let mut one = db.open();
    let mut two = db.open();
    let first = one.session_key("alice").unwrap();
    assert_eq!(first.0, 1);
    assert_eq!(first.1.len(), 64, "{first:?}");
    assert_eq!(two.session_key("alice").unwrap(), first, "one row, shared");
    let bob = two.session_key("bob").unwrap();
    assert_ne!(bob.1, first.1, "each principal has its own secret");

    assert_eq!(two.revoke_sessions("alice").unwrap(), 2);
    let revoked = one.session_key("alice").unwrap();
    assert_eq!(revoked.0, 2);
    assert_ne!(revoked.1, first.1);
    assert_eq!(one.session_key("bob").unwrap(), bob, "bob's sessions stay");
    // Revoking a name that never signed in leaves it past generation 1.
    assert_eq!(one.revoke_sessions("carol").unwrap(), 2);
}
