//! Issue 36, point 1: a read answered `503 unavailable` (the database away for a moment) is asked
//! again quietly; only when it stays away does the reader see the refusal.
//!
//! The 503s are the browser's own: `fetch` is wrapped so that the first N reads of one path get
//! the answer the server gives while its database restarts (`503`, `Retry-After: 1`, the error
//! body) without reaching the server; every other request goes through untouched.

use super::*;

/// Wraps `fetch` so that the next `times` GETs of `path` are answered 503, counts every GET of
/// `path`, and records every alert or notice the page shows from now on.
async fn fail_reads(client: &Client, path: &str, times: u32) {
    let script = format!(
        "const path = {path:?}; let left = {times}; window.__reads = 0; window.__alerts = []; \
         const real = window.__realFetch || window.fetch; window.__realFetch = real; \
         window.fetch = (input, init) => {{ \
           const url = new URL(typeof input === 'string' ? input : input.url, location.href); \
           const method = ((init && init.method) || 'GET').toUpperCase(); \
           if (method === 'GET' && url.pathname === path) {{ \
             window.__reads += 1; \
             if (left > 0) {{ left -= 1; return Promise.resolve(new Response( \
               JSON.stringify({{ error: {{ code: 'unavailable', message: 'the database is not answering' }} }}), \
               {{ status: 503, headers: {{ 'Content-Type': 'application/json', 'Retry-After': '1' }} }})); }} \
           }} \
           return real(input, init); }}; \
         new MutationObserver(() => {{ \
           for (const e of document.querySelectorAll('[role=alert], .notice')) \
             if (e.textContent.trim()) window.__alerts.push(e.textContent.trim()); \
         }}).observe(document.body, {{ subtree: true, childList: true, characterData: true }});"
    );
    client
        .execute(&script, vec![])
        .await
        .expect("fetch is wrapped");
}

/// Opens the home page and waits until the page has started.
async fn open_home(client: &Client, base: &str) {
    client
        .goto(&format!("{base}/#/"))
        .await
        .expect("the home page opens");
    wait_for(
        client,
        "the home page",
        "return document.body.dataset.page === 'home'",
    )
    .await;
}

/// Three 503s in a row: the leaderboard still comes, after the retries, with nothing said.
/// Four (one more than the page's retries): the refusal is shown, so the quiet is the retry's.
async fn a_503_read_is_retried_quietly(driver: &mut Driver, base: String) {
    let client = driver.session(1280, 900).await;
    open_home(&client, &base).await;
    fail_reads(&client, "/api/leaderboard", 3).await;
    let asked = Instant::now();
    client
        .execute("location.hash = '#/leaderboard'", vec![])
        .await
        .expect("the leaderboard is asked for");
    wait_for(
        &client,
        "the leaderboard after three 503s",
        "return !!document.querySelector('#leaderboard-empty, #leaderboard-table')",
    )
    .await;
    let took = asked.elapsed();
    let seen = client
        .execute("return [window.__reads, window.__alerts]", vec![])
        .await
        .expect("what the page did");
    assert_eq!(seen, json!([4, []]), "four reads, no alert shown");
    // Retry-After: 1, three times.
    assert!(took >= Duration::from_millis(2_900), "{took:?}");
    no_script_errors(&client).await;

    open_home(&client, &base).await;
    fail_reads(&client, "/api/leaderboard", 4).await;
    client
        .execute("location.hash = '#/leaderboard'", vec![])
        .await
        .expect("the leaderboard is asked for again");
    let shown = wait_for(
        &client,
        "the refusal after four 503s",
        "return document.querySelector('#leaderboard .notice[role=alert]')?.textContent",
    )
    .await;
    assert!(
        shown
            .as_str()
            .is_some_and(|text| text.contains("the database is not answering")),
        "{shown}"
    );
    let reads = client
        .execute("return window.__reads", vec![])
        .await
        .expect("the reads");
    assert_eq!(
        reads,
        json!(4),
        "one read and three retries, then the refusal"
    );
}

browser_test!(
    a_read_answered_503_is_retried_quietly,
    a_503_read_is_retried_quietly
);
