//! Rows → typed columns (a long table: one row per flow or link), through the rows' own
//! `Serialize`, so a metric a scheme adds to a row's record (`metrics.rs`) becomes a
//! column with no edit here and no JSON in between.
//!
//! Whole numbers become `U64`, floats `F64`, text `Str`. A missing value (`None`) is NaN
//! in a float column, and turns a whole-number column into a float one (NaN cannot be a
//! u64); in a text column it is "".

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum ColumnData {
    U64(Vec<u64>),
    F64(Vec<f64>),
    Str(Vec<String>),
    /// Only missing values so far (becomes F64 of NaN at the end).
    Missing(usize),
}

impl ColumnData {
    pub fn len(&self) -> usize {
        match self {
            ColumnData::U64(v) => v.len(),
            ColumnData::F64(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::Missing(n) => *n,
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Named columns of equal length, in the rows' field order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, ColumnData)>,
    pub rows: usize,
}

/// The columns of `rows`, each row a struct (or map) of scalars.
pub fn to_columns<T: Serialize>(rows: &[T]) -> Table {
    let mut t = Table::default();
    for (r, row) in rows.iter().enumerate() {
        row.serialize(RowSer { t: &mut t, row: r, next: 0 }).expect("a row of scalars");
        t.rows = r + 1;
        // A key this row lacks is missing in it.
        for i in 0..t.columns.len() {
            if t.columns[i].1.len() < t.rows {
                let name = t.columns[i].0.clone();
                t.push(i, &name, r, Owned::Null);
            }
        }
    }
    for (_, c) in &mut t.columns {
        if let ColumnData::Missing(n) = c {
            *c = ColumnData::F64(vec![f64::NAN; *n]);
        }
    }
    t
}

impl Table {
    /// Appends `cell` to column `name` of row `row`; `hint` is where the column was in the
    /// previous row (the usual case: same order every row).
    fn push(&mut self, hint: usize, name: &str, row: usize, cell: Owned) -> usize {
        let i = match self.columns.get(hint) {
            Some((n, _)) if n == name => hint,
            _ => match self.columns.iter().position(|(n, _)| n == name) {
                Some(i) => i,
                None => {
                    self.columns.push((name.to_string(), ColumnData::Missing(row)));
                    self.columns.len() - 1
                }
            },
        };
        let col = &mut self.columns[i].1;
        match (col, cell) {
            (ColumnData::U64(v), Owned::U(x)) => v.push(x),
            (ColumnData::F64(v), Owned::F(x)) => v.push(x),
            (ColumnData::F64(v), Owned::U(x)) => v.push(x as f64),
            (ColumnData::F64(v), Owned::Null) => v.push(f64::NAN),
            (ColumnData::Str(v), Owned::S(x)) => v.push(x),
            (ColumnData::Str(v), Owned::Null) => v.push(String::new()),
            (ColumnData::Missing(n), Owned::Null) => *n += 1,
            (c @ ColumnData::Missing(_), cell) => {
                let ColumnData::Missing(n) = *c else { unreachable!() };
                *c = match cell {
                    Owned::U(x) if n == 0 => ColumnData::U64(vec![x]),
                    Owned::U(x) => ColumnData::F64([vec![f64::NAN; n], vec![x as f64]].concat()),
                    Owned::F(x) => ColumnData::F64([vec![f64::NAN; n], vec![x]].concat()),
                    Owned::S(x) => ColumnData::Str([vec![String::new(); n], vec![x]].concat()),
                    Owned::Null => unreachable!(),
                };
            }
            (c @ ColumnData::U64(_), cell @ (Owned::F(_) | Owned::Null)) => {
                let ColumnData::U64(v) = c else { unreachable!() };
                let mut f: Vec<f64> = v.iter().map(|&x| x as f64).collect();
                f.push(if let Owned::F(x) = cell { x } else { f64::NAN });
                *c = ColumnData::F64(f);
            }
            (_, _) => panic!("column {name} mixes text and numbers"),
        }
        i + 1
    }
}

#[derive(Debug)]
pub struct NotScalar(String);

impl fmt::Display for NotScalar {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for NotScalar {}
impl ser::Error for NotScalar {
    fn custom<M: fmt::Display>(m: M) -> Self {
        NotScalar(m.to_string())
    }
}

/// Serialises one row: a struct, or the map serde makes of a struct with flattened parts.
struct RowSer<'t> {
    t: &'t mut Table,
    row: usize,
    next: usize,
}

struct Fields<'t> {
    s: RowSer<'t>,
    key: String,
}

impl<'t> Fields<'t> {
    fn field<V: Serialize + ?Sized>(&mut self, name: &str, v: &V) -> Result<(), NotScalar> {
        let cell = v.serialize(CellSer)?;
        self.s.next = self.s.t.push(self.s.next, name, self.s.row, cell);
        Ok(())
    }
}

impl SerializeStruct for Fields<'_> {
    type Ok = ();
    type Error = NotScalar;
    fn serialize_field<V: Serialize + ?Sized>(&mut self, key: &'static str, v: &V) -> Result<(), NotScalar> {
        self.field(key, v)
    }
    fn end(self) -> Result<(), NotScalar> {
        Ok(())
    }
}

impl SerializeMap for Fields<'_> {
    type Ok = ();
    type Error = NotScalar;
    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), NotScalar> {
        match key.serialize(CellSer)? {
            Owned::S(k) => self.key = k,
            _ => return Err(NotScalar("a column name must be text".into())),
        }
        Ok(())
    }
    fn serialize_value<V: Serialize + ?Sized>(&mut self, v: &V) -> Result<(), NotScalar> {
        let key = std::mem::take(&mut self.key);
        self.field(&key, v)
    }
    fn end(self) -> Result<(), NotScalar> {
        Ok(())
    }
}

enum Owned {
    U(u64),
    F(f64),
    S(String),
    Null,
}

/// Serialises one scalar.
struct CellSer;

macro_rules! not_scalar {
    ($($m:ident($($t:ty),*) -> $r:ty;)*) => {$(
        fn $m(self, $(_: $t),*) -> Result<$r, NotScalar> {
            Err(NotScalar(concat!("not a scalar: ", stringify!($m)).into()))
        }
    )*};
}

impl Serializer for CellSer {
    type Ok = Owned;
    type Error = NotScalar;
    type SerializeSeq = Impossible<Owned, NotScalar>;
    type SerializeTuple = Impossible<Owned, NotScalar>;
    type SerializeTupleStruct = Impossible<Owned, NotScalar>;
    type SerializeTupleVariant = Impossible<Owned, NotScalar>;
    type SerializeMap = Impossible<Owned, NotScalar>;
    type SerializeStruct = Impossible<Owned, NotScalar>;
    type SerializeStructVariant = Impossible<Owned, NotScalar>;

    fn serialize_bool(self, v: bool) -> Result<Owned, NotScalar> {
        Ok(Owned::U(v as u64))
    }
    fn serialize_i8(self, v: i8) -> Result<Owned, NotScalar> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<Owned, NotScalar> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<Owned, NotScalar> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<Owned, NotScalar> {
        Ok(if v >= 0 { Owned::U(v as u64) } else { Owned::F(v as f64) })
    }
    fn serialize_u8(self, v: u8) -> Result<Owned, NotScalar> {
        Ok(Owned::U(v as u64))
    }
    fn serialize_u16(self, v: u16) -> Result<Owned, NotScalar> {
        Ok(Owned::U(v as u64))
    }
    fn serialize_u32(self, v: u32) -> Result<Owned, NotScalar> {
        Ok(Owned::U(v as u64))
    }
    fn serialize_u64(self, v: u64) -> Result<Owned, NotScalar> {
        Ok(Owned::U(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Owned, NotScalar> {
        Ok(Owned::F(v as f64))
    }
    fn serialize_f64(self, v: f64) -> Result<Owned, NotScalar> {
        Ok(Owned::F(v))
    }
    fn serialize_char(self, v: char) -> Result<Owned, NotScalar> {
        Ok(Owned::S(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Owned, NotScalar> {
        Ok(Owned::S(v.to_string()))
    }
    fn serialize_none(self) -> Result<Owned, NotScalar> {
        Ok(Owned::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Owned, NotScalar> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Owned, NotScalar> {
        Ok(Owned::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Owned, NotScalar> {
        Ok(Owned::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<Owned, NotScalar> {
        Ok(Owned::S(v.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<Owned, NotScalar> {
        v.serialize(self)
    }
    not_scalar! {
        serialize_bytes(&[u8]) -> Owned;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<Owned, NotScalar> {
        Err(NotScalar("not a scalar: newtype variant".into()))
    }
}

macro_rules! not_a_row {
    ($($m:ident($($t:ty),*) -> $r:ty;)*) => {$(
        fn $m(self, $(_: $t),*) -> Result<$r, NotScalar> {
            Err(NotScalar(concat!("a row must be a struct or map, not ", stringify!($m)).into()))
        }
    )*};
}

impl<'t> Serializer for RowSer<'t> {
    type Ok = ();
    type Error = NotScalar;
    type SerializeSeq = Impossible<(), NotScalar>;
    type SerializeTuple = Impossible<(), NotScalar>;
    type SerializeTupleStruct = Impossible<(), NotScalar>;
    type SerializeTupleVariant = Impossible<(), NotScalar>;
    type SerializeMap = Fields<'t>;
    type SerializeStruct = Fields<'t>;
    type SerializeStructVariant = Impossible<(), NotScalar>;

    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'t>, NotScalar> {
        Ok(Fields { s: self, key: String::new() })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'t>, NotScalar> {
        Ok(Fields { s: self, key: String::new() })
    }
    not_a_row! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), NotScalar> {
        v.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), NotScalar> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), NotScalar> {
        Err(NotScalar("a row must be a struct or map".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct Inner {
        retx: u64,
    }

    #[derive(Serialize)]
    struct Row {
        name: String,
        bps: f64,
        n: u64,
        rtt: Option<f64>,
        #[serde(flatten)]
        inner: Inner,
        #[serde(flatten)]
        extra: BTreeMap<String, u64>,
    }

    #[test]
    fn rows_become_typed_columns_with_nan_for_missing() {
        let rows = [
            Row { name: "a".into(), bps: 1.5, n: 3, rtt: None, inner: Inner { retx: 1 }, extra: BTreeMap::new() },
            Row { name: "b".into(), bps: 2.5, n: 4, rtt: Some(0.1), inner: Inner { retx: 0 }, extra: [("k".to_string(), 9)].into() },
            Row { name: "c".into(), bps: 0.0, n: 5, rtt: None, inner: Inner { retx: 2 }, extra: BTreeMap::new() },
        ];
        let t = to_columns(&rows);
        assert_eq!(t.rows, 3);
        assert!(t.columns.iter().all(|(_, c)| c.len() == 3));
        let get = |n: &str| t.columns.iter().find(|(k, _)| k == n).map(|(_, c)| c.clone()).unwrap();
        assert_eq!(get("name"), ColumnData::Str(vec!["a".into(), "b".into(), "c".into()]));
        assert_eq!(get("n"), ColumnData::U64(vec![3, 4, 5]));
        assert_eq!(get("retx"), ColumnData::U64(vec![1, 0, 2]));
        let ColumnData::F64(rtt) = get("rtt") else { panic!() };
        assert!(rtt[0].is_nan() && rtt[1] == 0.1);
        // A key only the second row has: NaN above it, in a float column.
        let ColumnData::F64(k) = get("k") else { panic!() };
        assert!(k[0].is_nan() && k[1] == 9.0 && k[2].is_nan());
        let names: Vec<&str> = t.columns.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["name", "bps", "n", "rtt", "retx", "k"]);
    }
}
