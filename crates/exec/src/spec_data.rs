//! A launch spec's `data` array parsed straight into the little-endian bytes of its element
//! type: one pass over the text, one small value per element and no JSON tree, so a
//! 16M-element array costs its device bytes and not tens of bytes of host memory per element.

use crate::launch_spec::{encode, ElemType, SpecError};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// Parse the JSON text of a `data` array into typed bytes; errors name `field[index]`.
pub fn parse_data(text: &str, ty: ElemType, field: &str) -> Result<Vec<u8>, SpecError> {
    let mut out = Vec::new();
    let mut failure = None;
    let seed = DataSeed {
        ty,
        field,
        out: &mut out,
        failure: &mut failure,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = seed.deserialize(&mut de).and_then(|()| de.end());
    if let Some(e) = failure {
        return Err(e);
    }
    parsed.map_err(|e| SpecError::new(field, format!("{e}")))?;
    Ok(out)
}

struct DataSeed<'a> {
    ty: ElemType,
    field: &'a str,
    out: &'a mut Vec<u8>,
    /// The first element error, kept as a [`SpecError`] (serde's error type cannot carry the
    /// field name in our format).
    failure: &'a mut Option<SpecError>,
}

impl<'de> DeserializeSeed<'de> for DataSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DataSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if let Some(n) = seq.size_hint() {
            self.out.reserve(n.saturating_mul(self.ty.bytes()));
        }
        let mut i = 0usize;
        while let Some(v) = seq.next_element_seed(Scalar)? {
            match encode(&v, self.ty, &format!("{}[{i}]", self.field)) {
                Ok(b) => self.out.extend_from_slice(&b),
                Err(e) => {
                    *self.failure = Some(e);
                    return Err(de::Error::custom("bad element"));
                }
            }
            i += 1;
        }
        Ok(())
    }

    fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        *self.failure = Some(SpecError::new(
            self.field,
            "expected an array, found an object",
        ));
        Err(de::Error::custom("not an array"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.not_an_array("a string")
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_an_array("a number")
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_an_array("a number")
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_an_array("a number")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_an_array("a boolean")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.not_an_array("null")
    }
}

impl DataSeed<'_> {
    fn not_an_array<E: de::Error>(self, found: &str) -> Result<(), E> {
        *self.failure = Some(SpecError::new(
            self.field,
            format!("expected an array, found {found}"),
        ));
        Err(E::custom("not an array"))
    }
}

/// One element as a scalar [`Value`] (numbers and strings need no tree); an array or object
/// element is skipped and stands for itself as an empty one, which `encode` rejects by kind.
struct Scalar;

impl<'de> DeserializeSeed<'de> for Scalar {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scalar {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number or a string")
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Array(Vec::new()))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Value::Object(serde_json::Map::new()))
    }
}
