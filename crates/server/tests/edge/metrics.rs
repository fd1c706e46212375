//! Finding 2: what labels `gmo_http_requests_total` is the service's, not the client's: made-up
//! methods count as `other`, unmatched paths as `unmatched`.

use crate::common::Server;
use reqwest::Method;

both!(made_up_methods_and_paths_do_not_grow_the_metrics);

async fn made_up_methods_and_paths_do_not_grow_the_metrics(server: Server) {
    let metrics = || async { server.get("/metrics", None).await.text };
    // Once of each shape first, so that the label sets they need exist.
    let send = |n: usize| {
        let method = Method::from_bytes(format!("MADEUP{n}").as_bytes()).expect("a token");
        let path = format!("{}/api/genomes/rook{n}/x", server.base);
        let request = server.client.request(method.clone(), path);
        let known = server
            .client
            .request(method, format!("{}/api/genomes/rook", server.base));
        async move {
            let unmatched = request.send().await.expect("an answer").status();
            let matched = known.send().await.expect("an answer").status();
            (unmatched.as_u16(), matched.as_u16())
        }
    };
    assert_eq!(send(0).await, (404, 405));
    let before = metrics().await;
    for n in 1..=300 {
        send(n).await;
    }
    let after = metrics().await;
    let lines = |text: &str| {
        text.lines()
            .filter(|line| line.starts_with("gmo_http_requests_total{"))
            .map(|line| {
                line.rsplit_once(' ')
                    .map_or(line, |(labels, _)| labels)
                    .to_owned()
            })
            .collect::<std::collections::BTreeSet<_>>()
    };
    let (before_sets, after_sets) = (lines(&before), lines(&after));
    // `/metrics` itself was asked once more: at most its own label set is new.
    let new: Vec<_> = after_sets.difference(&before_sets).collect();
    assert!(new.len() <= 1, "new label sets: {new:?}");
    assert!(
        !after.contains("MADEUP"),
        "a client's method became a label"
    );
    assert!(!after.contains("rook1"), "a client's path became a label");
    assert!(
        after.contains(r#"method="other",route="unmatched",status="404""#),
        "{after}"
    );
    assert!(
        after.contains(r#"method="other",route="/api/genomes/{reference}",status="405""#),
        "{after}"
    );
    assert!(
        after.len() < before.len() + 200,
        "{} → {} bytes",
        before.len(),
        after.len()
    );
}
