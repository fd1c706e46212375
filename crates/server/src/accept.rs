//! The accept loop: HTTP/1.1 over hyper, with what `axum::serve` lacks for a public server. A
//! connection whose request headers are not complete within the header timeout is closed (also
//! while it idles between keep-alive requests: hyper times the wait for the next request's
//! headers the same way), and at most `max_connections` are open at once: beyond that the
//! loop stops accepting and new connections wait in the kernel's backlog, so the process never
//! runs out of file descriptors.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

/// How long to wait before accepting again after an error (out of descriptors, most likely).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The limits every connection lives under.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    pub header_timeout: Duration,
    pub max_connections: u32,
}

/// Serves `router` on `listener` until `closing` turns true, then stops accepting and waits for
/// the open connections to finish (idle ones close at once; streams end on `closing` too).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    mut closing: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(
        usize::try_from(limits.max_connections.max(1)).unwrap_or(Semaphore::MAX_PERMITS),
    ));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    // A request fits in 8 kB (the body limit applies to bodies, read apart): a connection's read
    // buffer never grows past it, which keeps thousands of open streams small.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(8_192);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = closed(&mut closing) => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = closed(&mut closing) => break,
        };
        // Small answers go out at once rather than waiting for more to send.
        let _ = stream.set_nodelay(true);
        let service =
            router
                .clone()
                .map_request(move |mut request: axum::http::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(peer));
                    request
                });
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, %peer, "connection closed with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Until the server stops (the guard `wait_for` returns is not held across an await).
async fn closed(closing: &mut watch::Receiver<bool>) {
    let _ = closing.wait_for(|closing| *closing).await;
}
