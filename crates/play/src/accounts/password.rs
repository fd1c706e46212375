//! Passwords: checked before anything else happens to them, hashed with Argon2id at OWASP's
//! parameters (19 MiB, 2 passes, 1 lane) on threads of their own at the lowest CPU priority, a few
//! at a time and within a budget of CPU time, so that a flood of sign-ins cannot stall play.

use crate::error::{PlayError, PlayResult};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::fmt;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The fewest and most characters of a password (characters, not bytes; all of them count).
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;

/// A password as given, checked; never shown (its `Debug` hides it).
#[derive(Clone)]
pub struct Password(String);

impl Password {
    /// The password, or why `raw` cannot be one (length, NUL).
    pub fn parse(raw: &str) -> Result<Password, String> {
        let length = raw.chars().count();
        if !PASSWORD_LENGTH.contains(&length) {
            return Err(format!(
                "a password is {} to {} characters; this one has {length}",
                PASSWORD_LENGTH.start(),
                PASSWORD_LENGTH.end()
            ));
        }
        if raw.contains('\0') {
            return Err("a password may not hold a NUL character".into());
        }
        Ok(Password(raw.to_owned()))
    }
}

/// Read from JSON, checked as [`Password::parse`] checks it (the refusal names the length, never
/// the password).
impl<'de> serde::Deserialize<'de> for Password {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Password, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Password::parse(&raw).map_err(serde::de::Error::custom)
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

/// A password given to prove who one is (signing in, confirming a change of password or a
/// deletion): any text, never held to the rules of [`Password`], which are for new passwords
/// only. A sign-in with a password no rule would allow is only a wrong password (`401`, checked
/// against the hash as any other, so it takes as long): a sign-in tells nothing of the rules, and
/// a change of them locks nobody out. Its length is bounded by the request body's.
#[derive(Clone)]
pub struct GivenPassword(String);

impl GivenPassword {
    pub fn new(raw: impl Into<String>) -> GivenPassword {
        GivenPassword(raw.into())
    }
}

impl From<Password> for GivenPassword {
    fn from(password: Password) -> GivenPassword {
        GivenPassword(password.0)
    }
}

/// Any JSON string.
impl<'de> serde::Deserialize<'de> for GivenPassword {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<GivenPassword, D::Error> {
        String::deserialize(deserializer).map(GivenPassword)
    }
}

impl fmt::Debug for GivenPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GivenPassword(…)")
    }
}

/// How many hashes may wait for a thread; one more is refused as unavailable (try again).
const WAITING: usize = 256;

/// A job for a hashing thread.
type Job = Box<dyn FnOnce() + Send>;

/// Hashes and checks passwords on threads of its own, at most one per thread at once, at the
/// lowest CPU priority and within a [`Budget`]: a flood of sign-ins never takes the async workers
/// (tokio's blocking pool is not used, as its threads also run bots' and evaluations' work, which
/// must keep their priority), and takes at most its share of a core from play. A low priority
/// alone was measured not to be enough: on a machine that play keeps busy, the kernel shares the
/// CPU between processes before it looks at a thread's priority, and hashing beside 64 games
/// cost them 15–18 % of their moves (docs/performance.md, "Sign-ins beside play").
#[derive(Debug, Clone)]
pub struct Hasher {
    jobs: SyncSender<Job>,
}

/// The hash a sign-in with an unknown name is checked against, so that it takes as long as one
/// with a known name and a wrong password: made once per process, of a password nobody knows.
static DECOY: OnceLock<String> = OnceLock::new();

fn decoy() -> PlayResult<String> {
    if let Some(hash) = DECOY.get() {
        return Ok(hash.clone());
    }
    let unknowable = hex(&rand::random::<[u8; 32]>());
    let hash = hash_now(&unknowable)?;
    Ok(DECOY.get_or_init(|| hash).clone())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn hash_now(password: &str) -> PlayResult<String> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).map_err(PlayError::internal)?;
    let hash = argon2()?
        .hash_password(password.as_bytes(), &salt)
        .map_err(PlayError::internal)?;
    Ok(hash.to_string())
}

fn argon2() -> PlayResult<Argon2<'static>> {
    let params = Params::new(19 * 1024, 2, 1, None).map_err(PlayError::internal)?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// How much hashing may take of one core over time: hashing time (CPU time, where the system
/// tells it) accrues at `share` seconds a second, up to [`BURST`], and a hashing thread that has
/// spent more waits before its next job.
/// A few sign-ins never wait; a flood is held to the share.
#[derive(Debug)]
struct Budget {
    share: f64,
    /// Seconds of hashing left (negative: owed), as of the instant.
    left: Mutex<(f64, Instant)>,
}

/// The most hashing time saved up while nobody signs in.
const BURST: Duration = Duration::from_millis(500);

impl Budget {
    fn new(share: f64, now: Instant) -> Budget {
        Budget {
            share: share.clamp(0.01, 1.0),
            left: Mutex::new((BURST.as_secs_f64(), now)),
        }
    }

    /// What is left at `now`, refilled since the last look.
    fn refill(&self, now: Instant) -> std::sync::MutexGuard<'_, (f64, Instant)> {
        let mut left = self
            .left
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let earned = now.saturating_duration_since(left.1).as_secs_f64() * self.share;
        *left = ((left.0 + earned).min(BURST.as_secs_f64()), now.max(left.1));
        left
    }

    /// How long a thread must wait at `now` before it may hash (zero: at once).
    fn wait_at(&self, now: Instant) -> Duration {
        let left = self.refill(now).0;
        if left >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-left / self.share)
        }
    }

    /// Counts `took` of hashing, ended at `now`.
    fn spend(&self, took: Duration, now: Instant) {
        self.refill(now).0 -= took.as_secs_f64();
    }
}

impl Hasher {
    /// Starts `threads` hashing threads (at least one) that together take at most `share` of one
    /// core over time (0.01 to 1); they end with the last clone.
    pub fn new(threads: usize, share: f64) -> Hasher {
        let (jobs, waiting) = sync_channel::<Job>(WAITING);
        let waiting = Arc::new(Mutex::new(waiting));
        let budget = Arc::new(Budget::new(share, Instant::now()));
        for n in 0..threads.max(1) {
            let waiting = waiting.clone();
            let budget = budget.clone();
            let started = std::thread::Builder::new()
                .name(format!("gmo-hash-{n}"))
                .spawn(move || hash_forever(&waiting, &budget));
            if let Err(error) = started {
                tracing::error!(%error, "could not start a password hashing thread");
            }
        }
        Hasher { jobs }
    }

    /// The PHC string of `password` with a fresh salt.
    pub async fn hash(&self, password: &Password) -> PlayResult<String> {
        let password = password.0.clone();
        self.off_the_workers(move || hash_now(&password)).await
    }

    /// Whether `password` is the one `hash` was made of (`None`: check against a decoy, to take
    /// the same time, and answer no).
    pub async fn verify(&self, password: &GivenPassword, hash: Option<&str>) -> PlayResult<bool> {
        let (password, hash) = (password.0.clone(), hash.map(str::to_owned));
        self.off_the_workers(move || {
            let real = hash.is_some();
            let hash = match hash {
                Some(hash) => hash,
                None => decoy()?,
            };
            let parsed = PasswordHash::new(&hash).map_err(PlayError::internal)?;
            let matches = argon2()?
                .verify_password(password.as_bytes(), &parsed)
                .is_ok();
            Ok(matches && real)
        })
        .await
    }

    async fn off_the_workers<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> PlayResult<T> + Send + 'static,
    ) -> PlayResult<T> {
        let (done, answer) = oneshot::channel();
        let job: Job = Box::new(move || {
            // A request that gave up waiting (timed out, or its client left) costs no hash.
            if !done.is_closed() {
                let _ = done.send(work());
            }
        });
        self.jobs.try_send(job).map_err(|refused| match refused {
            TrySendError::Full(_) => PlayError::Full(
                "too many passwords are waiting to be checked; try again in a moment".into(),
            ),
            TrySendError::Disconnected(_) => PlayError::internal("the hashing threads are gone"),
        })?;
        answer.await.map_err(PlayError::internal)?
    }
}

/// A hashing thread: at the lowest priority and within the budget, it runs jobs until the hasher
/// is dropped.
fn hash_forever(waiting: &Mutex<Receiver<Job>>, budget: &Budget) {
    lowest_priority();
    loop {
        // The lock is held while waiting, so one idle thread waits and the others wait for it.
        let job = match waiting.lock() {
            Ok(receiver) => receiver.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(job) = job else {
            return;
        };
        loop {
            let wait = budget.wait_at(Instant::now());
            if wait.is_zero() {
                break;
            }
            std::thread::sleep(wait);
        }
        let (started, cpu) = (Instant::now(), thread_cpu());
        job();
        let took = match (cpu, thread_cpu()) {
            (Some(before), Some(after)) => after.saturating_sub(before),
            _ => started.elapsed(),
        };
        budget.spend(took, Instant::now());
    }
}

/// The CPU time the calling thread has used, where the system tells it: a hash is charged what
/// it took of a core, not the time it spent waiting for one at the lowest priority.
fn thread_cpu() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        let time = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        let seconds = u64::try_from(time.tv_sec).ok()?;
        let nanos = u32::try_from(time.tv_nsec).ok()?;
        Some(Duration::new(seconds, nanos))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Makes the calling thread the last to get a CPU (nice 19; on Linux the nice value is the
/// thread's own).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::process::setpriority_process(None, 19) {
        tracing::warn!(%error, "could not lower a hashing thread's priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_holds_hashing_to_its_share_of_a_core() {
        let start = Instant::now();
        let budget = Budget::new(0.25, start);
        let at = |ms: u64| start + Duration::from_millis(ms);
        // Half a second saved up: the first hashes go at once.
        assert_eq!(budget.wait_at(start), Duration::ZERO);
        // What was earned meanwhile is over the half second saved up: 0.1 s left.
        budget.spend(Duration::from_millis(400), at(400));
        assert_eq!(budget.wait_at(at(400)), Duration::ZERO);
        budget.spend(Duration::from_millis(825), at(500));
        // 0.1 + 0.025 − 0.825 = −0.7 s: owed, repaid at a quarter second a second.
        let wait = budget.wait_at(at(500));
        assert!((wait.as_secs_f64() - 2.8).abs() < 1e-6, "{wait:?}");
        assert!(budget.wait_at(at(3_200)) > Duration::ZERO);
        assert_eq!(budget.wait_at(at(3_301)), Duration::ZERO);
        // Never more than half a second saved up, however long nobody signs in.
        budget.spend(Duration::ZERO, at(1_000_000));
        budget.spend(Duration::from_millis(501), at(1_000_000));
        assert!(budget.wait_at(at(1_000_000)) > Duration::ZERO);
    }

    #[test]
    fn passwords_are_8_to_128_characters_without_nul() {
        assert!(Password::parse("correct horse").is_ok());
        assert!(
            Password::parse(&"é".repeat(8)).is_ok(),
            "characters, not bytes"
        );
        assert!(Password::parse(&"x".repeat(128)).is_ok());
        for bad in ["short", &"x".repeat(129), "with\0nul!"] {
            assert!(Password::parse(bad).is_err(), "{bad:?}");
        }
        let secret = Password::parse("hunter2hunter2").expect("a password");
        assert!(!format!("{secret:?}").contains("hunter2"), "never shown");
    }

    #[tokio::test]
    async fn a_hash_checks_its_password_and_nothing_else() {
        let hasher = Hasher::new(2, 1.0);
        let password = Password::parse("correct horse").expect("a password");
        let hash = hasher.hash(&password).await.expect("hashed");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        let given = GivenPassword::from(password.clone());
        assert!(hasher.verify(&given, Some(&hash)).await.expect("checked"));
        let wrong = GivenPassword::new("battery staple");
        assert!(!hasher.verify(&wrong, Some(&hash)).await.expect("checked"));
        assert!(!hasher.verify(&given, None).await.expect("the decoy"));
        // A password no rule allows is checked as any other, and is only wrong.
        for unruly in ["short", &"x".repeat(129), "with\0nul!", ""] {
            let unruly = GivenPassword::new(unruly);
            assert!(!hasher.verify(&unruly, Some(&hash)).await.expect("checked"));
        }
        let again = hasher.hash(&password).await.expect("hashed");
        assert_ne!(hash, again, "a fresh salt each time");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_run_at_the_lowest_priority() {
        let hasher = Hasher::new(1, 1.0);
        let nice = hasher
            .off_the_workers(|| {
                rustix::process::getpriority_process(None).map_err(PlayError::internal)
            })
            .await
            .expect("read on a hashing thread");
        assert_eq!(nice, 19);
    }
}
