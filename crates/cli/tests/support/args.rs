//! The benchmarks' options: `--name value` pairs after `cargo bench … --`.

/// The value after `name` on the command line, or `default` (also when it does not parse).
pub fn option(name: &str, default: u64) -> u64 {
    text(name)
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The text after `name` on the command line, if any.
pub fn text(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|arg| arg == name)
        .and_then(|at| args.get(at + 1))
        .cloned()
}
