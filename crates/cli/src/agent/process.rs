//! An agent program, started without a shell, fed and read on threads of its own so that the
//! host never waits on it longer than it chooses: a program that stops reading, stops writing,
//! writes without end or exits costs the host at most the deadline of the answer it waits for.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest answer line read; a longer one is an error (and is not kept in memory).
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the host (an agent that writes more than it is asked waits for them).
const AHEAD: usize = 4;
/// How long an agent whose output closed may take to exit before its status is read anyway.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// A running agent.
#[derive(Debug)]
pub struct AgentProcess {
    child: Child,
    to_agent: SyncSender<String>,
    lines: Receiver<Line>,
    log: Arc<Mutex<Log>>,
}

/// One line the agent wrote, or why there is none.
#[derive(Debug)]
enum Line {
    Text(String),
    TooLong,
}

/// The agent's standard error: its last non-empty line, and whether it is closed.
#[derive(Debug, Default)]
struct Log {
    last: String,
    closed: bool,
}

impl AgentProcess {
    /// Starts `argv` (a program and its arguments). With `echo`, each line of its log is copied
    /// to our standard error after that prefix.
    pub fn spawn(argv: &[String], echo: Option<String>) -> Result<AgentProcess, String> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| "an empty command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{program}`: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(format!("cannot start `{program}`: no pipes"));
        };
        let (to_agent, outbox) = mpsc::sync_channel::<String>(AHEAD);
        thread::spawn(move || write_lines(stdin, outbox));
        let (inbox, lines) = mpsc::sync_channel(AHEAD);
        thread::spawn(move || read_lines(stdout, inbox));
        let log = Arc::new(Mutex::new(Log::default()));
        let kept = Arc::clone(&log);
        thread::spawn(move || keep_log(stderr, kept, echo));
        Ok(AgentProcess {
            child,
            to_agent,
            lines,
            log,
        })
    }

    /// Sends one message line (without its newline). A program that has exited is noticed by
    /// the next [`AgentProcess::answer`].
    pub fn send(&mut self, line: String) {
        // A full queue means the agent stopped reading; the answer's deadline will tell.
        let _ = self.to_agent.try_send(line);
    }

    /// The agent's next line, waiting at most `within`. The error is the protocol's wording:
    /// `no answer within 2000 ms`, `exited with status 1; last line of its log: …`.
    pub fn answer(&mut self, within: Duration) -> Result<String, String> {
        match self.lines.recv_timeout(within) {
            Ok(Line::Text(text)) => Ok(text),
            Ok(Line::TooLong) => Err(format!("an answer longer than {MAX_LINE} bytes")),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("no answer within {} ms", within.as_millis()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }

    /// Why the agent's output closed: how it exited, and the last line of its log.
    fn gone(&mut self) -> String {
        let deadline = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let how = match status {
            Some(status) => exit_words(status),
            None => "closed its standard output".to_string(),
        };
        format!("{how}; {}", self.last_log_line(deadline))
    }

    /// The last line of the log, once the log is closed or `deadline` passed.
    fn last_log_line(&self, deadline: Instant) -> String {
        loop {
            let log = self.log.lock().map(|log| (log.closed, log.last.clone()));
            let (closed, last) = log.unwrap_or((true, String::new()));
            if closed || Instant::now() >= deadline {
                return if last.is_empty() {
                    "its log is empty".to_string()
                } else {
                    format!("last line of its log: {last}")
                };
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Closes its input and gives it a moment to exit on its own, then kills it.
    pub fn finish(mut self) {
        let (closed, _) = mpsc::sync_channel(0);
        // Dropping the sender ends the writer thread, which closes the agent's input.
        self.to_agent = closed;
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills it at once (after an error: it gets no second chance in this game).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// `exited with status 1`, or the signal that ended it.
fn exit_words(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was ended by signal {signal}"),
        (None, None) => "exited".to_string(),
    }
}

fn write_lines(mut stdin: impl Write, outbox: Receiver<String>) {
    for line in outbox {
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            return;
        }
    }
}

fn read_lines(stdout: impl Read, inbox: SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        match read_bounded(&mut reader, MAX_LINE) {
            Ok(Some(line)) => {
                if inbox.send(line).is_err() {
                    return;
                }
            }
            Ok(None) | Err(_) => return,
        }
    }
}

/// The next line, at most `limit` bytes (a longer one is read to its end and dropped); `None` at
/// the end of the output.
fn read_bounded(reader: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok((!line.is_empty() || too_long).then(|| finish_line(line, too_long)));
        }
        let (part, end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], Some(at + 1)),
            None => (buffer, None),
        };
        if line.len() + part.len() > limit {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(part);
        }
        let used = end.unwrap_or(buffer.len());
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(finish_line(line, too_long)));
        }
    }
}

fn finish_line(line: Vec<u8>, too_long: bool) -> Line {
    if too_long {
        return Line::TooLong;
    }
    let text = String::from_utf8_lossy(&line);
    Line::Text(text.trim_end_matches('\r').to_string())
}

fn keep_log(stderr: impl Read, log: Arc<Mutex<Log>>, echo: Option<String>) {
    let mut reader = BufReader::new(stderr);
    while let Ok(Some(line)) = read_bounded(&mut reader, MAX_LINE) {
        let Line::Text(text) = line else { continue };
        if let Some(prefix) = &echo {
            eprintln!("{prefix}{text}");
        }
        if !text.trim().is_empty() {
            if let Ok(mut log) = log.lock() {
                log.last = super::protocol::quote(&text);
            }
        }
    }
    if let Ok(mut log) = log.lock() {
        log.closed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> AgentProcess {
        let argv = ["sh", "-c", script].map(String::from);
        AgentProcess::spawn(&argv, None).expect("sh starts")
    }

    #[test]
    fn an_answer_comes_back_and_a_silent_agent_times_out() {
        let mut echo = sh("read line; echo \"got $line\"; sleep 5");
        echo.send("hello".into());
        assert_eq!(echo.answer(Duration::from_secs(5)), Ok("got hello".into()));
        let started = Instant::now();
        let late = echo.answer(Duration::from_millis(100));
        assert_eq!(late, Err("no answer within 100 ms".into()));
        assert!(started.elapsed() < Duration::from_secs(2));
        echo.kill();
    }

    #[test]
    fn an_exit_is_reported_with_its_status_and_last_log_line() {
        let mut quits = sh("echo first >&2; echo 'bad thing' >&2; exit 3");
        let gone = quits.answer(Duration::from_secs(5)).expect_err("exited");
        assert_eq!(
            gone,
            "exited with status 3; last line of its log: bad thing"
        );
    }

    #[test]
    fn overlong_lines_are_refused_without_being_kept() {
        let mut long = sh("head -c 100000 /dev/zero | tr '\\0' x; echo; echo ok; sleep 5");
        let refused = long.answer(Duration::from_secs(5)).expect_err("too long");
        assert!(refused.starts_with("an answer longer than"), "{refused}");
        assert_eq!(long.answer(Duration::from_secs(5)), Ok("ok".into()));
        long.kill();
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let argv = ["/nonexistent/agent".to_string()];
        let error = AgentProcess::spawn(&argv, None).expect_err("no such program");
        assert!(
            error.starts_with("cannot start `/nonexistent/agent`"),
            "{error}"
        );
    }
}
