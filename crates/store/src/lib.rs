//! GMO chess persistence. All SQL of the project lives here.
