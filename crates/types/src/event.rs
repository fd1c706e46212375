//! The words of events (teams playing each other in rounds): how rounds are paired, and where an
//! event stands.

use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// How an event's rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventFormat {
    /// Every team meets every other (Berger tables), once or twice.
    RoundRobin,
    /// A given number of rounds, teams of equal scores meeting, never twice.
    Swiss,
}

/// Where an event stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventStatus {
    /// Teams are being added and join; nothing is paired yet.
    Registration,
    /// Round 1 is paired; rounds go on.
    Running,
    /// Every game of the last round has ended.
    Finished,
}

impl EventFormat {
    pub const ALL: [EventFormat; 2] = [EventFormat::RoundRobin, EventFormat::Swiss];

    pub const fn name(self) -> &'static str {
        match self {
            EventFormat::RoundRobin => "round_robin",
            EventFormat::Swiss => "swiss",
        }
    }
}

impl EventStatus {
    pub const ALL: [EventStatus; 3] = [
        EventStatus::Registration,
        EventStatus::Running,
        EventStatus::Finished,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            EventStatus::Registration => "registration",
            EventStatus::Running => "running",
            EventStatus::Finished => "finished",
        }
    }
}

impl FromStr for EventFormat {
    type Err = crate::UnknownName;

    fn from_str(name: &str) -> Result<EventFormat, crate::UnknownName> {
        EventFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| crate::UnknownName {
                what: "an event format",
                name: name.to_owned(),
            })
    }
}

impl FromStr for EventStatus {
    type Err = crate::UnknownName;

    fn from_str(name: &str) -> Result<EventStatus, crate::UnknownName> {
        EventStatus::ALL
            .into_iter()
            .find(|status| status.name() == name)
            .ok_or_else(|| crate::UnknownName {
                what: "an event status",
                name: name.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::{EventFormat, EventStatus};

    #[test]
    fn names_are_as_the_wire_spells_them() {
        for format in EventFormat::ALL {
            let wire = serde_json::to_value(format).expect("serialised");
            assert_eq!(wire, format.name());
            assert_eq!(format.name().parse::<EventFormat>(), Ok(format));
        }
        for status in EventStatus::ALL {
            let wire = serde_json::to_value(status).expect("serialised");
            assert_eq!(wire, status.name());
            assert_eq!(status.name().parse::<EventStatus>(), Ok(status));
        }
        assert!("knockout".parse::<EventFormat>().is_err());
    }
}
