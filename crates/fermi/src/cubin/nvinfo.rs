//! `.nv.info` attribute records: `[format u8][attribute u8][u16]`, where the `u16` is the value
//! for `EIFMT_HVAL`/`EIFMT_BVAL`, zero for `EIFMT_NVAL`, and the payload length for
//! `EIFMT_SVAL` (the payload follows). All little-endian.

use super::consts::*;

/// One attribute record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Record {
    /// `EIFMT_NVAL`, `EIFMT_BVAL` or `EIFMT_HVAL`: a value in the header.
    Short { format: u8, attr: u8, value: u16 },
    /// `EIFMT_SVAL`: a sized payload.
    Sized { attr: u8, payload: Vec<u8> },
}

pub(crate) fn encode_hval(out: &mut Vec<u8>, attr: u8, value: u16) {
    out.extend_from_slice(&[EIFMT_HVAL, attr]);
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends an `EIFMT_SVAL` record whose payload is the given little-endian `u32`s.
pub(crate) fn encode_sval_words(out: &mut Vec<u8>, attr: u8, words: &[u32]) {
    let len = u16::try_from(words.len() * 4).unwrap_or(u16::MAX);
    out.extend_from_slice(&[EIFMT_SVAL, attr]);
    out.extend_from_slice(&len.to_le_bytes());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// Splits a `.nv.info` section into records; `Err` names what is wrong.
pub(crate) fn decode_records(mut data: &[u8]) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    while !data.is_empty() {
        let [format, attr, lo, hi, rest @ ..] = data else {
            return Err(format!(
                "{} trailing byte(s) are too short for an attribute record",
                data.len()
            ));
        };
        let value = u16::from_le_bytes([*lo, *hi]);
        match *format {
            EIFMT_NVAL | EIFMT_BVAL | EIFMT_HVAL => {
                records.push(Record::Short {
                    format: *format,
                    attr: *attr,
                    value,
                });
                data = rest;
            }
            EIFMT_SVAL => {
                let len = usize::from(value);
                let (Some(payload), Some(after)) = (rest.get(..len), rest.get(len..)) else {
                    return Err(format!(
                        "attribute 0x{attr:02x} declares {len} payload bytes but only {} remain",
                        rest.len()
                    ));
                };
                records.push(Record::Sized {
                    attr: *attr,
                    payload: payload.to_vec(),
                });
                data = after;
            }
            other => return Err(format!("unknown attribute record format 0x{other:02x}")),
        }
    }
    Ok(records)
}

/// The little-endian `u32` at word index `i` of a payload.
pub(crate) fn payload_word(payload: &[u8], i: usize) -> Option<u32> {
    let bytes = payload.get(i * 4..i * 4 + 4)?;
    Some(u32::from_le_bytes([
        *bytes.first()?,
        *bytes.get(1)?,
        *bytes.get(2)?,
        *bytes.get(3)?,
    ]))
}
