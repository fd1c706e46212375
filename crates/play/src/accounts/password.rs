//! Passwords: checked before anything else happens to them, hashed with Argon2id at OWASP's
//! parameters (19 MiB, 2 passes, 1 lane) on threads of their own at the lowest CPU priority, a few
//! at a time, so that a flood of sign-ins cannot stall play.

use crate::error::{PlayError, PlayResult};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::fmt;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
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

/// How many hashes may wait for a thread; one more is refused as unavailable (try again).
const WAITING: usize = 256;

/// A job for a hashing thread.
type Job = Box<dyn FnOnce() + Send>;

/// Hashes and checks passwords on threads of its own, at most one per thread at once, at the
/// lowest CPU priority: a flood of sign-ins takes what CPU play leaves, and never the async
/// workers (tokio's blocking pool is not used, as its threads also run bots' and evaluations'
/// work, which must keep their priority).
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

impl Hasher {
    /// Starts `threads` hashing threads (at least one); they end with the last clone.
    pub fn new(threads: usize) -> Hasher {
        let (jobs, waiting) = sync_channel::<Job>(WAITING);
        let waiting = Arc::new(Mutex::new(waiting));
        for n in 0..threads.max(1) {
            let waiting = waiting.clone();
            let started = std::thread::Builder::new()
                .name(format!("gmo-hash-{n}"))
                .spawn(move || hash_forever(&waiting));
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
    pub async fn verify(&self, password: &Password, hash: Option<&str>) -> PlayResult<bool> {
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
            let _ = done.send(work());
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

/// A hashing thread: at the lowest priority, it runs jobs until the hasher is dropped.
fn hash_forever(waiting: &Mutex<Receiver<Job>>) {
    lowest_priority();
    loop {
        // The lock is held while waiting, so one idle thread waits and the others wait for it.
        let job = match waiting.lock() {
            Ok(receiver) => receiver.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
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
        let hasher = Hasher::new(2);
        let password = Password::parse("correct horse").expect("a password");
        let hash = hasher.hash(&password).await.expect("hashed");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(
            hasher
                .verify(&password, Some(&hash))
                .await
                .expect("checked")
        );
        let wrong = Password::parse("battery staple").expect("a password");
        assert!(!hasher.verify(&wrong, Some(&hash)).await.expect("checked"));
        assert!(!hasher.verify(&password, None).await.expect("the decoy"));
        let again = hasher.hash(&password).await.expect("hashed");
        assert_ne!(hash, again, "a fresh salt each time");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_run_at_the_lowest_priority() {
        let hasher = Hasher::new(1);
        let nice = hasher
            .off_the_workers(|| {
                rustix::process::getpriority_process(None).map_err(PlayError::internal)
            })
            .await
            .expect("read on a hashing thread");
        assert_eq!(nice, 19);
    }
}
