//! Who a client is, and per-client rate limits on the routes that create something (games, labs,
//! genomes, presets, seeks, evaluations, accounts, personal tokens): a token bucket per client
//! address, in a table of bounded size. Use [`CreationLimit`] as the first extractor of such a route.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most client addresses the table remembers (a few MiB at most).
pub const MAX_CLIENTS: usize = 65_536;

/// One client's bucket: `tokens` as of `at`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Token buckets by client: each holds up to `per_minute` creations and refills at
/// `per_minute` a minute. `per_minute == 0` turns the limit off.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    max_clients: usize,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(per_minute: u32, max_clients: usize) -> RateLimiter {
        RateLimiter {
            per_minute,
            max_clients: max_clients.max(1),
            buckets: Mutex::default(),
        }
    }

    /// Takes one creation from `client`'s bucket, or says how long until it holds one.
    pub fn check_creation(&self, client: IpAddr) -> Result<(), Duration> {
        self.check_at(client, Instant::now())
    }

    fn check_at(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let key = client_key(client);
        if !buckets.contains_key(&key) && buckets.len() >= self.max_clients {
            evict(&mut buckets, now, capacity, per_second, self.max_clients);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(capacity);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }

    /// How many clients the table remembers now.
    pub fn clients(&self) -> usize {
        self.buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .len()
    }
}

/// Makes room in a full table: first every bucket that has refilled (it is as good as absent),
/// then, if the table is still over three quarters full (many clients at once), arbitrary
/// entries down to that, so that eviction runs once per many inserts, not on each.
fn evict(
    buckets: &mut HashMap<IpAddr, Bucket>,
    now: Instant,
    capacity: f64,
    per_second: f64,
    max_clients: usize,
) {
    buckets.retain(|_, bucket| {
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens + elapsed * per_second < capacity
    });
    let keep = max_clients - max_clients / 4;
    if buckets.len() > keep {
        let excess: Vec<IpAddr> = buckets.keys().take(buckets.len() - keep).copied().collect();
        for key in excess {
            buckets.remove(&key);
        }
    }
}

/// An IPv6 client is its /64 (one host usually has a whole /64 to pick addresses from).
fn client_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let segments = v6.segments();
                IpAddr::V6(Ipv6Addr::new(
                    segments[0],
                    segments[1],
                    segments[2],
                    segments[3],
                    0,
                    0,
                    0,
                    0,
                ))
            }
        },
    }
}

/// The client's address: the socket's peer, or, when the peer is a trusted proxy, the last
/// address in `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_address(parts: &Parts, trusted: &[IpAddr]) -> Option<IpAddr> {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())?;
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let forwarded = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in forwarded.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(address) if trusted.contains(&address) => continue,
            Ok(address) => return Some(address),
            // A hop the proxy did not write (garbage from the client): the proxy's view ends.
            Err(_) => return Some(peer),
        }
    }
    Some(peer)
}

/// What the server knows of its clients: whose `X-Forwarded-For` it believes, and each
/// address's creation budget.
#[derive(Debug)]
pub struct Clients {
    limiter: RateLimiter,
    trusted: Vec<IpAddr>,
}

impl Clients {
    /// Clients with `per_minute` creations each (0: no limit), behind the `trusted` proxies.
    pub fn new(per_minute: u32, trusted: Vec<IpAddr>) -> Clients {
        Clients {
            limiter: RateLimiter::new(per_minute, MAX_CLIENTS),
            trusted,
        }
    }

    /// How many client addresses the rate limiter remembers now.
    pub fn len(&self) -> usize {
        self.limiter.clients()
    }

    /// Whether the rate limiter remembers no client.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An extractor that takes one creation from the client's budget, or refuses the request with
/// 429 and `Retry-After`. Put it first, so a refused request does nothing else.
#[derive(Debug, Clone, Copy)]
pub struct CreationLimit;

impl<S> FromRequestParts<S> for CreationLimit
where
    Arc<Clients>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let clients = Arc::<Clients>::from_ref(state);
        // Without a socket address (a request built in a test, not served): nothing to key on.
        let Some(client) = client_address(parts, &clients.trusted) else {
            return Ok(CreationLimit);
        };
        clients
            .limiter
            .check_creation(client)
            .map(|()| CreationLimit)
            .map_err(|wait| {
                let per_minute = clients.limiter.per_minute;
                ApiError::TooManyRequests {
                    message: format!(
                        "at most {per_minute} creations (games, labs, genomes, presets) a minute \
                         from one address; try again in {} s",
                        retry_after_seconds(wait)
                    ),
                    retry_after: retry_after_seconds(wait),
                }
            })
    }
}

/// Who a client is for per-client bounds: its address as the rate limiter sees it (the socket's
/// peer, or `X-Forwarded-For` from a trusted proxy; `unknown` when the server was not started
/// with connection info, as in tests that build the router alone).
#[derive(Debug)]
pub struct ClientAddress(pub String);

impl<S> FromRequestParts<S> for ClientAddress
where
    Arc<Clients>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let clients = Arc::<Clients>::from_ref(state);
        let address = client_address(parts, &clients.trusted);
        Ok(ClientAddress(address.map_or_else(
            || "unknown".to_owned(),
            |address| address.to_string(),
        )))
    }
}

/// Whole seconds, rounded up, at least 1.
fn retry_after_seconds(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 2));

    #[test]
    fn a_bucket_empties_and_refills() {
        let limiter = RateLimiter::new(60, 10);
        let start = Instant::now();
        for _ in 0..60 {
            assert!(limiter.check_at(A, start).is_ok());
        }
        let wait = limiter.check_at(A, start).expect_err("the 61st is refused");
        assert!((0.9..=1.0).contains(&wait.as_secs_f64()), "{wait:?}");
        assert!(
            limiter.check_at(B, start).is_ok(),
            "another client is not affected"
        );
        assert!(limiter.check_at(A, start + Duration::from_secs(1)).is_ok());
        assert!(limiter.check_at(A, start + Duration::from_secs(1)).is_err());
    }

    #[test]
    fn zero_turns_it_off() {
        let limiter = RateLimiter::new(0, 10);
        let now = Instant::now();
        assert!((0..10_000).all(|_| limiter.check_at(A, now).is_ok()));
        assert_eq!(limiter.clients(), 0);
    }

    #[test]
    fn the_table_stays_bounded() {
        let limiter = RateLimiter::new(60, 1_000);
        let now = Instant::now();
        for n in 0..100_000u32 {
            let client = IpAddr::V4(n.into());
            let _ = limiter.check_at(client, now);
            assert!(limiter.clients() <= 1_000);
        }
        // A busy client keeps its (empty) bucket while idle ones were refilled and dropped.
        let later = now + Duration::from_secs(120);
        for _ in 0..60 {
            assert!(limiter.check_at(A, later).is_ok());
        }
        for n in 0..5_000u32 {
            let _ = limiter.check_at(IpAddr::V4((n + 1_000_000).into()), later);
        }
        assert!(limiter.clients() <= 1_000);
    }

    #[test]
    fn ipv6_clients_are_their_64() {
        let one: IpAddr = "2001:db8:1:2::1".parse().expect("an address");
        let two: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("an address");
        assert_eq!(client_key(one), client_key(two));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().expect("an address");
        assert_eq!(client_key(mapped), A);
    }

    fn parts(peer: &str, forwarded: Option<&str>) -> Parts {
        let mut request = axum::http::Request::builder();
        if let Some(forwarded) = forwarded {
            request = request.header("x-forwarded-for", forwarded);
        }
        let (mut parts, ()) = request.body(()).expect("a request").into_parts();
        let peer: SocketAddr = peer.parse().expect("an address");
        parts.extensions.insert(ConnectInfo(peer));
        parts
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let proxy: IpAddr = "10.0.0.1".parse().expect("an address");
        let spoofed = parts("192.0.2.1:5000", Some("203.0.113.9"));
        assert_eq!(client_address(&spoofed, &[proxy]), Some(A));
        assert_eq!(client_address(&spoofed, &[]), Some(A));
        let proxied = parts("10.0.0.1:5000", Some("198.51.100.7, 192.0.2.2"));
        assert_eq!(client_address(&proxied, &[proxy]), Some(B));
        let bare = parts("10.0.0.1:5000", None);
        assert_eq!(client_address(&bare, &[proxy]), Some(proxy));
    }
}
