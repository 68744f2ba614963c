use super::*;

fn secrets() -> Secrets {
    Secrets::from_values([
        ("slack".to_string(), "T000/B000/xoxo-hook-1".to_string()),
        ("erp".to_string(), "erp \"quoted\" key".to_string()),
    ])
}

#[test]
fn references_expand_and_unknown_names_are_refused() {
    let s = secrets();
    let (url, used) = s
        .expand(
            "tools.x.url",
            "https://hooks.example/services/${secret:slack}",
        )
        .unwrap();
    assert_eq!(url, "https://hooks.example/services/T000/B000/xoxo-hook-1");
    assert!(used);
    assert_eq!(s.expand("w", "plain").unwrap(), ("plain".into(), false));
    let err = s.expand("tools.x.url", "a${secret:nope}b").unwrap_err();
    assert!(
        err.contains("no secret named `nope`") && err.contains("erp, slack"),
        "{err}"
    );
    let err = s.expand("w", "${env:HOME}").unwrap_err();
    assert!(err.contains("not a secret reference"), "{err}");
    let err = s.expand("w", "${secret:slack").unwrap_err();
    assert!(err.contains("without a closing"), "{err}");
    assert_eq!(format!("{s:?}"), "{\"erp\", \"slack\"}");
}

#[test]
fn every_common_encoding_of_a_value_is_redacted() {
    let _ = secrets();
    for text in [
        "POST https://hooks.example/services/T000/B000/xoxo-hook-1 failed",
        "T000%2FB000%2Fxoxo-hook-1",
        "T000%2fB000%2fxoxo-hook-1",
        "T000%2FB000%2Fxoxo%2Dhook%2D1",
        r#"{"error":"erp \"quoted\" key"}"#,
        r#"{"data":"{\"error\":\"erp \\\"quoted\\\" key\"}"}"#,
    ] {
        let out = redact(text);
        assert!(out.contains(REDACTED), "{text} -> {out}");
        assert!(
            !out.contains("xoxo-hook") && !out.contains("quoted"),
            "{out}"
        );
    }
    assert_eq!(redact("nothing to hide"), "nothing to hide");
}

#[test]
fn files_readable_by_anyone_and_short_values_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("wakeful-secrets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("erp");
    std::fs::write(&file, "file-secret-value\n").unwrap();
    let config = |file: &std::path::Path| {
        BTreeMap::from([(
            "erp".to_string(),
            SecretConfig {
                env: None,
                file: Some(file.to_path_buf()),
            },
        )])
    };
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = Secrets::load(&config(&file)).unwrap_err();
    assert!(
        err.contains("secrets.erp") && err.contains("chmod o-r"),
        "{err}"
    );
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let s = Secrets::load(&config(&file)).unwrap();
    assert_eq!(
        s.expand("w", "${secret:erp}").unwrap().0,
        "file-secret-value"
    );
    let err = Secrets::load(&config(&dir.join("missing"))).unwrap_err();
    assert!(
        err.contains("secrets.erp: file") && err.contains("missing"),
        "{err}"
    );
    std::fs::write(&file, "short").unwrap();
    let err = Secrets::load(&config(&file)).unwrap_err();
    assert!(err.contains("at least 8"), "{err}");
    let env = BTreeMap::from([(
        "k".to_string(),
        SecretConfig {
            env: Some("WAKEFUL_TEST_NO_SUCH_VARIABLE".into()),
            file: None,
        },
    )]);
    let err = Secrets::load(&env).unwrap_err();
    assert!(
        err.contains("secrets.k") && err.contains("WAKEFUL_TEST_NO_SUCH_VARIABLE"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_configured_url_is_named_without_its_query_or_secret_segments() {
    assert_eq!(
        display_url("https://hooks.example/services/${secret:slack}?api_key=k"),
        "https://hooks.example/services/[redacted]?[redacted]"
    );
    assert_eq!(
        display_url("http://127.0.0.1:9/page"),
        "http://127.0.0.1:9/page"
    );
}
