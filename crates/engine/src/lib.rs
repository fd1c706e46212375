//! The GMO chess rules engine. Pure: no I/O, no async, no wall clock.
