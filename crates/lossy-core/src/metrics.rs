//! A result row's open record of named metrics (issue 26 item 2: schemes own their
//! metrics). A flow's or a link's row is a few typed core fields (`result.rs`) plus this
//! ordered record, which each scheme fills in its own `report` by name, as agents fill
//! their `counters()`: a new counter is a line in its scheme's file, not a field here.
//!
//! Two kinds of column:
//! - **declared** ones, which every row of a table has: a family lists its schemes'
//!   [`Columns`] (a name and the value a row gets when nothing sets it, whose variant is
//!   the column's type), so a UDP flow's `ce_received` is 0, not missing, and a column
//!   has one type in every row and every run;
//! - a scheme's **own** ones, set without a declaration: appended after the declared
//!   ones, present only in the rows of that scheme (NaN elsewhere in a table, absent from
//!   the row's JSON). A scheme fixes their order and defaults by adding its own
//!   `Columns` first ([`Metrics::add`]).
//!
//! Values keep their Rust type through serde, so the JSON text and the table's column
//! types (`columns.rs`) are what the typed fields gave before.

use serde::{Serialize, Serializer};

/// One metric's value; the variant is its type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Metric {
    U64(u64),
    F64(f64),
    Bool(bool),
    /// A count that may be unknown (null in JSON, NaN in a table).
    OptU64(Option<u64>),
    /// A quantity without a sample (an RTT with no sample: null in JSON, NaN in a table).
    OptF64(Option<f64>),
    OptBool(Option<bool>),
}

impl Metric {
    /// `v` in the type of `self` (a declared column's default): the same variant, or a
    /// plain value where the column is optional. `None` when the types differ.
    fn fit(&self, v: Metric) -> Option<Metric> {
        use Metric::*;
        Some(match (self, v) {
            (U64(_), U64(_)) | (F64(_), F64(_)) | (Bool(_), Bool(_)) => v,
            (OptU64(_), OptU64(_)) | (OptF64(_), OptF64(_)) | (OptBool(_), OptBool(_)) => v,
            (OptU64(_), U64(x)) => OptU64(Some(x)),
            (OptF64(_), F64(x)) => OptF64(Some(x)),
            (OptBool(_), Bool(x)) => OptBool(Some(x)),
            _ => return None,
        })
    }

    /// A whole number (a `U64`, or an `OptU64` that has one).
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Metric::U64(x) | Metric::OptU64(Some(x)) => Some(x),
            _ => None,
        }
    }

    /// A float (an `F64`, or an `OptF64` that has one).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Metric::F64(x) | Metric::OptF64(Some(x)) => Some(x),
            _ => None,
        }
    }

    /// A flag (a `Bool`, or an `OptBool` that has one).
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Metric::Bool(x) | Metric::OptBool(Some(x)) => Some(x),
            _ => None,
        }
    }
}

macro_rules! metric_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Metric {
            fn from(x: $t) -> Self {
                Metric::$v(x)
            }
        }
    )*};
}
metric_from!(u64 => U64, f64 => F64, bool => Bool, Option<u64> => OptU64, Option<f64> => OptF64, Option<bool> => OptBool);

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Metric::U64(x) => s.serialize_u64(*x),
            Metric::F64(x) => s.serialize_f64(*x),
            Metric::Bool(x) => s.serialize_bool(*x),
            Metric::OptU64(x) => x.serialize(s),
            Metric::OptF64(x) => x.serialize(s),
            Metric::OptBool(x) => x.serialize(s),
        }
    }
}

/// Columns a scheme declares: each name with the value a row gets when nothing sets it.
pub type Columns = [(&'static str, Metric)];

/// The ordered record of one row.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    entries: Vec<(&'static str, Metric)>,
    /// Entries before this index are the table's declared columns.
    declared: usize,
    /// Where the next `set` looks first (one past the last column set).
    next: usize,
}

impl Metrics {
    /// A row with the table's declared columns at their defaults, in the order of
    /// `lists` (a family's schemes' `Columns`, in the family's order). A name in two
    /// lists keeps its first place, and must have the same default in both.
    pub fn declared(lists: &[&Columns]) -> Self {
        // Sized once: a run's result holds a row per flow and per link direction
        // (30,000 behind a 10,000-host base station), and a row grown one push at a time
        // kept up to twice its columns' bytes (issue 28).
        let mut m = Metrics { entries: Vec::with_capacity(lists.iter().map(|l| l.len()).sum()), ..Metrics::default() };
        for list in lists {
            m.add(list);
        }
        m.entries.shrink_to_fit();
        m.declared = m.entries.len();
        m
    }

    /// Adds the columns of `list` this row lacks, at their defaults, in order (a scheme
    /// fixing the order of its own columns before it sets them; both sides of a flow may
    /// add the same list).
    pub fn add(&mut self, list: &Columns) {
        for &(name, default) in list {
            match self.get(name) {
                None => self.entries.push((name, default)),
                Some(had) => assert!(
                    had.fit(default).is_some(),
                    "metric {name} declared twice with different types: {had:?} and {default:?}"
                ),
            }
        }
    }

    /// Sets `name`: in its place, in the column's type, if the row has it (a value of
    /// another type is a bug in the scheme, caught by any run of it); else appended.
    pub fn set(&mut self, name: &'static str, v: impl Into<Metric>) {
        let v = v.into();
        match self.position(name) {
            Some(i) => {
                let slot = &mut self.entries[i].1;
                *slot = slot.fit(v).unwrap_or_else(|| panic!("metric {name} is {slot:?}, set as {v:?}"));
                self.next = i + 1;
            }
            None => self.entries.push((name, v)),
        }
    }

    /// Where `name` is, looking first after the last column set: reports set their
    /// columns in the declared order, so a row of thousands of flows costs one
    /// comparison per metric.
    fn position(&self, name: &str) -> Option<usize> {
        let (tail, head) = (self.next.min(self.entries.len()), &self.entries);
        (tail..head.len()).chain(0..tail).find(|&i| head[i].0 == name)
    }

    pub fn get(&self, name: &str) -> Option<&Metric> {
        self.position(name).map(|i| &self.entries[i].1)
    }

    /// The whole number `name` holds. Panics when the row lacks it or it is not one: for
    /// readers that know the column (tests, a scheme reading back its own).
    pub fn u64(&self, name: &str) -> u64 {
        self.expect(name).as_u64().unwrap_or_else(|| panic!("metric {name} is not a whole number: {:?}", self.get(name)))
    }

    /// The float `name` holds (None when it is an optional float without a value).
    pub fn opt_f64(&self, name: &str) -> Option<f64> {
        match *self.expect(name) {
            Metric::F64(x) => Some(x),
            Metric::OptF64(x) => x,
            ref other => panic!("metric {name} is not a float: {other:?}"),
        }
    }

    /// The whole number `name` holds, if any (an optional count).
    pub fn opt_u64(&self, name: &str) -> Option<u64> {
        match *self.expect(name) {
            Metric::U64(x) => Some(x),
            Metric::OptU64(x) => x,
            ref other => panic!("metric {name} is not a whole number: {other:?}"),
        }
    }

    /// The flag `name` holds, if any.
    pub fn opt_bool(&self, name: &str) -> Option<bool> {
        match *self.expect(name) {
            Metric::Bool(x) => Some(x),
            Metric::OptBool(x) => x,
            ref other => panic!("metric {name} is not a flag: {other:?}"),
        }
    }

    /// The float `name` holds; panics when it has none.
    pub fn f64(&self, name: &str) -> f64 {
        self.opt_f64(name).unwrap_or_else(|| panic!("metric {name} has no value"))
    }

    fn expect(&self, name: &str) -> &Metric {
        self.get(name).unwrap_or_else(|| panic!("no metric {name} in the row"))
    }

    /// Every entry, declared columns first.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Metric)> {
        self.entries.iter().map(|(n, v)| (*n, v))
    }

    /// The table's declared columns, in order.
    pub fn declared_part(&self) -> &[(&'static str, Metric)] {
        &self.entries[..self.declared]
    }

    /// The row's own columns (its schemes' undeclared ones), in the order first set.
    pub fn own_part(&self) -> &[(&'static str, Metric)] {
        &self.entries[self.declared..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHARED: &Columns = &[("sent", Metric::U64(0)), ("rtt_s", Metric::OptF64(None))];
    const OTHER: &Columns = &[("sent", Metric::U64(0)), ("marks", Metric::U64(0))];

    #[test]
    fn declared_columns_keep_their_place_and_type_and_own_ones_follow() {
        let mut m = Metrics::declared(&[SHARED, OTHER]);
        m.set("extra", true);
        m.set("marks", 3u64);
        m.set("rtt_s", 0.25);
        let names: Vec<&str> = m.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["sent", "rtt_s", "marks", "extra"]);
        // A plain float into an optional column is stored as the optional type.
        assert_eq!(m.get("rtt_s"), Some(&Metric::OptF64(Some(0.25))));
        assert_eq!((m.declared_part().len(), m.own_part().len()), (3, 1));
        assert_eq!((m.u64("marks"), m.u64("sent"), m.f64("rtt_s")), (3, 0, 0.25));
    }

    #[test]
    #[should_panic(expected = "metric sent is U64(0), set as F64(1.5)")]
    fn a_value_of_another_type_is_refused() {
        Metrics::declared(&[SHARED]).set("sent", 1.5);
    }

    #[test]
    fn values_serialise_as_their_rust_types_did() {
        let mut m = Metrics::declared(&[SHARED]);
        m.set("flag", Some(false));
        m.set("none", None::<u64>);
        let text: Vec<String> = m.iter().map(|(_, v)| serde_json::to_string(v).unwrap()).collect();
        assert_eq!(text, ["0", "null", "false", "null"]);
    }
}
