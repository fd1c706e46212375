//! Issue 10, the edge: what a hostile client sends is refused before it reaches the database or
//! grows anything (ids and references, metric labels, bodies of the wrong shape, 405s).

mod inputs;
mod limits;
mod metrics;
mod outage;
mod retention;
