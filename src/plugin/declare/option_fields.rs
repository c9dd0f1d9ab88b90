//! The fields of the plugin file that set an [`Options`] value: one table that reading
//! (`file/read.rs`), writing (`file/write.rs`) and checking (`validate.rs`) all walk, so an
//! option cannot be read but not written, or written but not checked (one owner
//! per rule). Each of the three matches every [`Value`] kind without a catch-all, so a new
//! kind of option does not compile until all three handle it.
//!
//! The names are the plugin file's wire format: never renamed (see the table in the plugin
//! module docs for the name of each option in the other layers).

use std::time::Duration;

use crate::plugin::declare::model::{AddressMode, Options};

/// One field of the plugin file that sets an option, at the top level or in an endpoint.
pub(crate) struct OptionField {
    /// The field's name in the plugin file.
    pub(crate) name: &'static str,
    /// What the field holds, and the setting of [`Options`] it reads and writes.
    pub(crate) value: Value,
}

/// The kind of value a field holds; each kind has one reader, one writer and one check.
pub(crate) enum Value {
    /// A whole number of milliseconds in the file, a `Duration` in [`Options`]; at least 1 ms.
    Millis(Slot<Duration>),
    /// A whole number of bytes; with a message when 0 is refused.
    Bytes(Slot<usize>, Option<&'static str>),
    /// A whole number that fits in 32 bits (redirects, retries).
    Count(Slot<u32>),
    /// `true` or `false`.
    Flag(Slot<bool>),
    /// An array of host names.
    Hosts(Slot<Vec<String>>),
    /// `allow_all` or `strict` ([`AddressMode::as_str`]).
    Address(Slot<AddressMode>),
}

/// Where an option lives in [`Options`]: how to read it and how to set it.
pub(crate) struct Slot<T> {
    /// The setting, if set.
    pub(crate) get: fn(&Options) -> Option<T>,
    /// Sets it.
    pub(crate) set: fn(&mut Options, T),
}

macro_rules! slot {
    ($field:ident) => {
        Slot {
            get: |o| o.$field,
            set: |o, v| o.$field = Some(v),
        }
    };
    (clone $field:ident) => {
        Slot {
            get: |o| o.$field.clone(),
            set: |o, v| o.$field = Some(v),
        }
    };
}

/// Every option field, in the order the plugin file's docs list them (and errors are found).
pub(crate) const OPTION_FIELDS: &[OptionField] = &[
    OptionField {
        name: "timeout_connect_ms",
        value: Value::Millis(slot!(timeout_connect)),
    },
    OptionField {
        name: "timeout_read_ms",
        value: Value::Millis(slot!(timeout_read)),
    },
    OptionField {
        name: "timeout_write_ms",
        value: Value::Millis(slot!(timeout_write)),
    },
    OptionField {
        name: "timeout_call_ms",
        value: Value::Millis(slot!(timeout_call)),
    },
    OptionField {
        name: "max_response_bytes",
        value: Value::Bytes(slot!(max_response_bytes), None),
    },
    OptionField {
        name: "max_output_bytes",
        value: Value::Bytes(
            slot!(max_output_bytes),
            Some("the output cap must be at least 1 byte"),
        ),
    },
    OptionField {
        name: "max_redirects",
        value: Value::Count(slot!(max_redirects)),
    },
    OptionField {
        name: "redirect_hosts",
        value: Value::Hosts(slot!(clone redirect_hosts)),
    },
    OptionField {
        name: "address_policy",
        value: Value::Address(slot!(address_policy)),
    },
    OptionField {
        name: "overload_retries",
        value: Value::Count(slot!(overload_retries)),
    },
    OptionField {
        name: "full_schemas",
        value: Value::Flag(slot!(full_schemas)),
    },
    OptionField {
        name: "max_description_bytes",
        value: Value::Bytes(slot!(max_description_bytes), None),
    },
    OptionField {
        name: "max_attachment_bytes",
        value: Value::Bytes(slot!(max_attachment_bytes), None),
    },
    OptionField {
        name: "max_stream_events",
        value: Value::Count(slot!(max_stream_events)),
    },
    OptionField {
        name: "max_stream_bytes",
        value: Value::Bytes(
            slot!(max_stream_bytes),
            Some("the stream budget must be at least 1 byte"),
        ),
    },
    OptionField {
        name: "timeout_stream_ms",
        value: Value::Millis(slot!(timeout_stream)),
    },
];

/// The names of [`OPTION_FIELDS`], for the lists of fields an object of the file accepts.
pub(crate) const OPTION_NAMES: [&str; OPTION_FIELDS.len()] = names();

const fn names<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = OPTION_FIELDS[i].name;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every setting of `Options` set. A struct literal, so a new setting does not compile
    /// here until it is given a value (and, for the test below to pass, a row of the table).
    fn every_option_set() -> Options {
        Options {
            timeout_connect: Some(Duration::from_millis(1)),
            timeout_read: Some(Duration::from_millis(2)),
            timeout_write: Some(Duration::from_millis(3)),
            timeout_call: Some(Duration::from_millis(4)),
            max_response_bytes: Some(5),
            max_output_bytes: Some(6),
            max_redirects: Some(7),
            redirect_hosts: Some(vec![String::from("a.example")]),
            address_policy: Some(AddressMode::Strict),
            overload_retries: Some(8),
            full_schemas: Some(true),
            max_description_bytes: Some(9),
            max_attachment_bytes: Some(10),
            max_stream_events: Some(11),
            max_stream_bytes: Some(12),
            timeout_stream: Some(Duration::from_millis(13)),
        }
    }

    /// Copies every field of the table from `from` into a fresh `Options`.
    fn copy(from: &Options) -> Options {
        fn take<T>(slot: &Slot<T>, from: &Options, to: &mut Options) {
            if let Some(v) = (slot.get)(from) {
                (slot.set)(to, v);
            }
        }
        let mut to = Options::default();
        for field in OPTION_FIELDS {
            match &field.value {
                Value::Millis(s) => take(s, from, &mut to),
                Value::Bytes(s, _) => take(s, from, &mut to),
                Value::Count(s) => take(s, from, &mut to),
                Value::Flag(s) => take(s, from, &mut to),
                Value::Hosts(s) => take(s, from, &mut to),
                Value::Address(s) => take(s, from, &mut to),
            }
        }
        to
    }

    #[test]
    fn the_table_holds_every_setting_of_options() {
        let all = every_option_set();
        assert_eq!(copy(&all), all);
    }

    #[test]
    fn no_two_rows_name_the_same_field() {
        for (i, name) in OPTION_NAMES.iter().enumerate() {
            assert!(!OPTION_NAMES[..i].contains(name), "{}", name);
        }
        assert_eq!(OPTION_NAMES.len(), OPTION_FIELDS.len());
    }
}
