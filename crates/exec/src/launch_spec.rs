//! The launch description of `ptxvm run`: the SPEC.json format and the flag sugar.
//!
//! ```json
//! {"kernel": "name", "grid": [1, 1, 1], "block": [64, 1, 1], "shared_bytes": 0,
//!  "params": [{"buffer": {"type": "u32", "data": [1, 2, 3]}},
//!             {"buffer": {"type": "f32", "len": 1024}},
//!             {"buffer": {"type": "u8", "file": "in.bin"}},
//!             {"value": 7, "type": "u32"}],
//!  "textures": [{"name": "tex0", "geometry": "2d", "type": "f32", "channels": 1,
//!                "width": 4, "height": 2, "data": [1, 2, 3, 4, 5, 6, 7, 8]}]}
//! ```
//! Integers are exact up to 64 bits (never routed through f64); a float where an integer type
//! is declared is an error. Every error names the JSON field at fault.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

use crate::launch_textures::TextureSpec;
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// A PTX fundamental type usable as a buffer element or scalar parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    B8,
    B16,
    B32,
    B64,
    F16,
    F32,
    F64,
}

impl ElemType {
    pub const ALL: [ElemType; 15] = [
        ElemType::U8,
        ElemType::U16,
        ElemType::U32,
        ElemType::U64,
        ElemType::S8,
        ElemType::S16,
        ElemType::S32,
        ElemType::S64,
        ElemType::B8,
        ElemType::B16,
        ElemType::B32,
        ElemType::B64,
        ElemType::F16,
        ElemType::F32,
        ElemType::F64,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::U64 => "u64",
            ElemType::S8 => "s8",
            ElemType::S16 => "s16",
            ElemType::S32 => "s32",
            ElemType::S64 => "s64",
            ElemType::B8 => "b8",
            ElemType::B16 => "b16",
            ElemType::B32 => "b32",
            ElemType::B64 => "b64",
            ElemType::F16 => "f16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }
    pub fn from_name(s: &str) -> Option<ElemType> {
        ElemType::ALL.iter().copied().find(|t| t.name() == s)
    }
    pub fn bytes(self) -> usize {
        match self {
            ElemType::U8 | ElemType::S8 | ElemType::B8 => 1,
            ElemType::U16 | ElemType::S16 | ElemType::B16 | ElemType::F16 => 2,
            ElemType::U32 | ElemType::S32 | ElemType::B32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::S64 | ElemType::B64 | ElemType::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F16 | ElemType::F32 | ElemType::F64)
    }
    fn is_signed(self) -> bool {
        matches!(
            self,
            ElemType::S8 | ElemType::S16 | ElemType::S32 | ElemType::S64
        )
    }
    fn is_bits(self) -> bool {
        matches!(
            self,
            ElemType::B8 | ElemType::B16 | ElemType::B32 | ElemType::B64
        )
    }
}

/// A malformed launch description: the field at fault and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub field: String,
    pub message: String,
}

impl SpecError {
    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> SpecError {
        SpecError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for SpecError {}

/// One kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamSpec {
    /// A global allocation with these initial bytes; the parameter gets its address.
    Buffer { ty: ElemType, bytes: Vec<u8> },
    /// A zero-filled global allocation of `len` elements (nothing is held until launch).
    Zeros { ty: ElemType, len: u64 },
    /// A global allocation filled from a regular file of `bytes` bytes (size checked when
    /// the spec is read; the file is streamed into device memory at launch).
    File {
        ty: ElemType,
        path: PathBuf,
        bytes: u64,
    },
    /// A scalar, as little-endian bytes of its type.
    Value { ty: ElemType, bytes: Vec<u8> },
}

/// A whole launch.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    pub params: Vec<ParamSpec>,
    /// Textures bound at launch (`"textures"`; see [`TextureSpec`]).
    pub textures: Vec<TextureSpec>,
}

/// Largest buffer a launch spec may ask for: the device's 4 GiB address space. What a launch
/// may allocate in total is the device memory limit (`RunOptions::mem_limit`), checked
/// before anything is allocated.
pub const MAX_BUFFER_BYTES: u64 = 1 << 32;

impl ParamSpec {
    /// Device bytes this parameter allocates (0 for a value).
    pub fn device_bytes(&self) -> u64 {
        match self {
            ParamSpec::Buffer { bytes, .. } => bytes.len() as u64,
            ParamSpec::Zeros { ty, len } => len.saturating_mul(ty.bytes() as u64),
            ParamSpec::File { bytes, .. } => *bytes,
            ParamSpec::Value { .. } => 0,
        }
    }
}

/// Encode one JSON element of type `ty` as little-endian bytes.
pub(crate) fn encode(v: &Value, ty: ElemType, field: &str) -> Result<Vec<u8>, SpecError> {
    let n = ty.bytes();
    if ty.is_float() {
        let x = match v {
            Value::Number(num) => num
                .as_f64()
                .ok_or_else(|| SpecError::new(field, "number out of range"))?,
            Value::String(s) => match s.as_str() {
                "nan" | "NaN" => f64::NAN,
                "inf" | "+inf" | "Infinity" => f64::INFINITY,
                "-inf" | "-Infinity" => f64::NEG_INFINITY,
                _ => {
                    return Err(SpecError::new(
                        field,
                        format!("expected a number, \"nan\", \"inf\" or \"-inf\", found \"{s}\""),
                    ))
                }
            },
            other => {
                return Err(SpecError::new(
                    field,
                    format!("expected a number, found {}", kind(other)),
                ))
            }
        };
        // Integers beyond 2^53 in a float field: as_f64 rounds, like any decimal literal.
        return Ok(match ty {
            ElemType::F16 => {
                ops::cvt::f64_to_f16(x, ops::float::Rounding::Rn, ops::cvt::F16Rules::Ieee)
                    .to_le_bytes()
                    .to_vec()
            }
            ElemType::F32 => (x as f32).to_le_bytes().to_vec(),
            _ => x.to_le_bytes().to_vec(),
        });
    }
    let Value::Number(num) = v else {
        return Err(SpecError::new(
            field,
            format!("expected an integer, found {}", kind(v)),
        ));
    };
    let bits = (n * 8) as u32;
    let value: u64 = if let Some(u) = num.as_u64() {
        let max = if ty.is_signed() {
            (1u64 << (bits - 1)) - 1
        } else if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        if u > max {
            return Err(SpecError::new(
                field,
                format!("{u} does not fit in .{}", ty.name()),
            ));
        }
        u
    } else if let Some(i) = num.as_i64() {
        if !(ty.is_signed() || ty.is_bits()) {
            return Err(SpecError::new(
                field,
                format!("{i} is negative but .{} is unsigned", ty.name()),
            ));
        }
        let min = if bits == 64 {
            i64::MIN
        } else {
            -(1i64 << (bits - 1))
        };
        if i < min {
            return Err(SpecError::new(
                field,
                format!("{i} does not fit in .{}", ty.name()),
            ));
        }
        i as u64
    } else {
        return Err(SpecError::new(
            field,
            format!("expected an integer for .{}, found {num}", ty.name()),
        ));
    };
    Ok(value.to_le_bytes().get(..n).unwrap_or(&[]).to_vec())
}

pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn check_fields<V>(
    obj: &Map<String, V>,
    allowed: &[&str],
    field: &str,
) -> Result<(), SpecError> {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            let at = if field.is_empty() {
                k.clone()
            } else {
                format!("{field}.{k}")
            };
            return Err(SpecError::new(
                at,
                format!("unknown field (expected one of: {})", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

pub(crate) fn parse_type(v: Option<&Value>, field: &str) -> Result<ElemType, SpecError> {
    match v {
        None => Err(SpecError::new(field, "missing")),
        Some(Value::String(s)) => ElemType::from_name(s.trim_start_matches('.'))
            .ok_or_else(|| SpecError::new(field, format!("unknown type \"{s}\""))),
        Some(other) => Err(SpecError::new(
            field,
            format!("expected a type name string, found {}", kind(other)),
        )),
    }
}

pub(crate) fn parse_u32(v: &Value, field: &str, min: u32) -> Result<u32, SpecError> {
    let n = match v {
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
    .ok_or_else(|| SpecError::new(field, format!("expected a non-negative integer, found {v}")))?;
    let n = u32::try_from(n).map_err(|_| SpecError::new(field, format!("{n} is too large")))?;
    if n < min {
        return Err(SpecError::new(field, format!("must be at least {min}")));
    }
    Ok(n)
}

fn parse_dims(v: Option<&Value>, field: &str) -> Result<[u32; 3], SpecError> {
    let mut d = [1u32; 3];
    match v {
        None => Ok(d),
        Some(Value::Array(a)) if (1..=3).contains(&a.len()) => {
            for (i, (x, slot)) in a.iter().zip(d.iter_mut()).enumerate() {
                *slot = parse_u32(x, &format!("{field}[{i}]"), 1)?;
            }
            Ok(d)
        }
        Some(Value::Number(_)) => {
            if let Some(x) = v {
                d[0] = parse_u32(x, field, 1)?;
            }
            Ok(d)
        }
        Some(other) => Err(SpecError::new(
            field,
            format!("expected an array of 1 to 3 positive integers, found {other}"),
        )),
    }
}

fn parse_buffer(v: &RawValue, field: &str, base: &Path) -> Result<ParamSpec, SpecError> {
    let b = raw_object(v, field)?;
    check_fields(&b, &["type", "data", "len", "file"], field)?;
    let tf = format!("{field}.type");
    let ty = parse_type(
        b.get("type")
            .map(|t| value_of(t, &tf))
            .transpose()?
            .as_ref(),
        &tf,
    )?;
    let sources = ["data", "len", "file"]
        .iter()
        .filter(|k| b.contains_key(**k))
        .count();
    if sources != 1 {
        return Err(SpecError::new(
            field,
            "give exactly one of \"data\", \"len\" or \"file\"",
        ));
    }
    if let Some(d) = b.get("data") {
        let f = format!("{field}.data");
        let bytes = crate::spec_data::parse_data(d.get(), ty, &f)?;
        return Ok(ParamSpec::Buffer { ty, bytes });
    }
    if let Some(l) = b.get("len") {
        let f = format!("{field}.len");
        let l = value_of(l, &f)?;
        let n = match &l {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
        .ok_or_else(|| SpecError::new(&f, format!("expected a non-negative integer, found {l}")))?;
        n.checked_mul(ty.bytes() as u64)
            .filter(|&t| t <= MAX_BUFFER_BYTES)
            .ok_or_else(|| {
                SpecError::new(
                    &f,
                    format!("{n} elements exceed the {MAX_BUFFER_BYTES}-byte limit"),
                )
            })?;
        return Ok(ParamSpec::Zeros { ty, len: n });
    }
    let f = format!("{field}.file");
    let Some(Value::String(p)) = b.get("file").map(|v| value_of(v, &f)).transpose()? else {
        return Err(SpecError::new(f, "expected a file name string"));
    };
    let path: PathBuf = base.join(p);
    let bytes = file_size(&path, ty, &f)?;
    Ok(ParamSpec::File { ty, path, bytes })
}

/// The size of a `file` buffer, checked before anything is read: a regular file (a device
/// such as `/dev/urandom` or a pipe would never end), within [`MAX_BUFFER_BYTES`], and a whole
/// number of elements.
pub(crate) fn file_size(path: &Path, ty: ElemType, f: &str) -> Result<u64, SpecError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| SpecError::new(f, format!("cannot read {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(SpecError::new(
            f,
            format!(
                "{} is not a regular file (a directory, device or pipe cannot be a buffer)",
                path.display()
            ),
        ));
    }
    let len = meta.len();
    if len > MAX_BUFFER_BYTES {
        return Err(SpecError::new(
            f,
            format!(
                "{} holds {len} bytes, more than the {MAX_BUFFER_BYTES}-byte limit",
                path.display()
            ),
        ));
    }
    if len % ty.bytes() as u64 != 0 {
        return Err(SpecError::new(
            f,
            format!(
                "{} holds {len} bytes, not a whole number of .{} elements",
                path.display(),
                ty.name()
            ),
        ));
    }
    Ok(len)
}

/// A raw JSON value parsed into a tree: for the small fields only (never a `data` array).
pub(crate) fn value_of(raw: &RawValue, field: &str) -> Result<Value, SpecError> {
    serde_json::from_str(raw.get()).map_err(|e| SpecError::new(field, format!("invalid JSON: {e}")))
}

/// A JSON object whose values stay unparsed text until their field is known.
pub(crate) type RawMap = Map<String, Box<RawValue>>;
pub(crate) type Map<K, V> = std::collections::BTreeMap<K, V>;

pub(crate) fn raw_object(raw: &RawValue, field: &str) -> Result<RawMap, SpecError> {
    serde_json::from_str(raw.get()).map_err(|_| {
        let found = value_of(raw, field).map_or("invalid JSON", |v| kind(&v));
        SpecError::new(field, format!("expected an object, found {found}"))
    })
}

impl LaunchSpec {
    /// Parse SPEC.json; `file` paths are relative to `base` (the spec's directory).
    pub fn from_json(text: &str, base: &Path) -> Result<LaunchSpec, SpecError> {
        // The top level and each parameter are split into unparsed values first, so a `data`
        // array is parsed once, straight into typed bytes (no JSON tree per element).
        let root: Box<RawValue> = serde_json::from_str(text)
            .map_err(|e| SpecError::new("", format!("invalid JSON: {e}")))?;
        let obj: RawMap = serde_json::from_str(root.get())
            .map_err(|_| SpecError::new("", "the launch spec must be a JSON object"))?;
        check_fields(
            &obj,
            &[
                "kernel",
                "grid",
                "block",
                "shared_bytes",
                "params",
                "textures",
            ],
            "",
        )?;
        let small = |k: &str| obj.get(k).map(|v| value_of(v, k)).transpose();
        let kernel = match small("kernel")? {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                return Err(SpecError::new(
                    "kernel",
                    format!("expected a string, found {}", kind(&other)),
                ))
            }
        };
        let grid = parse_dims(small("grid")?.as_ref(), "grid")?;
        let block = parse_dims(small("block")?.as_ref(), "block")?;
        let shared_bytes = match small("shared_bytes")? {
            None => 0,
            Some(v) => parse_u32(&v, "shared_bytes", 0)?,
        };
        let mut params = Vec::new();
        if let Some(raw) = obj.get("params") {
            let items: Vec<Box<RawValue>> = serde_json::from_str(raw.get()).map_err(|_| {
                let found = value_of(raw, "params").map_or("invalid JSON", |v| kind(&v));
                SpecError::new("params", format!("expected an array, found {found}"))
            })?;
            for (i, p) in items.iter().enumerate() {
                let field = format!("params[{i}]");
                let po = raw_object(p, &field)?;
                if let Some(b) = po.get("buffer") {
                    check_fields(&po, &["buffer"], &field)?;
                    params.push(parse_buffer(b, &format!("{field}.buffer"), base)?);
                } else if let Some(v) = po.get("value") {
                    check_fields(&po, &["value", "type"], &field)?;
                    let tf = format!("{field}.type");
                    let t = po.get("type").map(|t| value_of(t, &tf)).transpose()?;
                    let ty = parse_type(t.as_ref(), &tf)?;
                    let vf = format!("{field}.value");
                    let bytes = encode(&value_of(v, &vf)?, ty, &vf)?;
                    params.push(ParamSpec::Value { ty, bytes });
                } else {
                    return Err(SpecError::new(field, "expected \"buffer\" or \"value\""));
                }
            }
        }
        let textures = match obj.get("textures") {
            None => Vec::new(),
            Some(raw) => crate::launch_textures::parse_textures(raw, base)?,
        };
        Ok(LaunchSpec {
            kernel,
            grid,
            block,
            shared_bytes,
            params,
            textures,
        })
    }

    /// The flag sugar: `--grid 4,1,1`, `--block 256`, `--arg u32:7`, `--arg buf:u32:1,2,3`,
    /// `--arg zeros:f32:1024`, `--arg file:f32:x.bin` (each `args` entry is one `--arg`
    /// value; a file path is relative to the working directory).
    pub fn from_flags(
        kernel: Option<&str>,
        grid: Option<&str>,
        block: Option<&str>,
        shared_bytes: Option<u32>,
        args: &[String],
    ) -> Result<LaunchSpec, SpecError> {
        let dims = |s: Option<&str>, field: &str| -> Result<[u32; 3], SpecError> {
            let mut d = [1u32; 3];
            let Some(s) = s else { return Ok(d) };
            let parts: Vec<&str> = s.split(',').map(str::trim).collect();
            if parts.is_empty() || parts.len() > 3 {
                return Err(SpecError::new(
                    field,
                    "expected 1 to 3 comma-separated numbers",
                ));
            }
            for (p, slot) in parts.iter().zip(d.iter_mut()) {
                *slot = p.parse::<u32>().ok().filter(|&x| x >= 1).ok_or_else(|| {
                    SpecError::new(field, format!("\"{p}\" is not a positive integer"))
                })?;
            }
            Ok(d)
        };
        let mut params = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let field = format!("--arg[{i}]");
            let parts: Vec<&str> = a.splitn(3, ':').collect();
            let num = |s: &str| -> Value {
                if let Ok(u) = s.parse::<u64>() {
                    Value::from(u)
                } else if let Ok(x) = s.parse::<i64>() {
                    Value::from(x)
                } else if let Ok(f) = s.parse::<f64>() {
                    serde_json::Number::from_f64(f)
                        .map_or(Value::String(s.to_string()), Value::Number)
                } else {
                    Value::String(s.to_string())
                }
            };
            match parts.as_slice() {
                ["buf", t, data] => {
                    let ty = parse_type(Some(&Value::String(t.to_string())), &field)?;
                    let mut bytes = Vec::new();
                    for (k, x) in data.split(',').filter(|x| !x.trim().is_empty()).enumerate() {
                        bytes.extend(encode(&num(x.trim()), ty, &format!("{field}[{k}]"))?);
                    }
                    params.push(ParamSpec::Buffer { ty, bytes });
                }
                ["zeros", t, n] => {
                    let ty = parse_type(Some(&Value::String(t.to_string())), &field)?;
                    let n: u64 = n
                        .trim()
                        .parse()
                        .map_err(|_| SpecError::new(&field, format!("\"{n}\" is not a length")))?;
                    n.checked_mul(ty.bytes() as u64)
                        .filter(|&t| t <= MAX_BUFFER_BYTES)
                        .ok_or_else(|| SpecError::new(&field, "buffer too large"))?;
                    params.push(ParamSpec::Zeros { ty, len: n });
                }
                ["file", t, path] => {
                    let ty = parse_type(Some(&Value::String(t.to_string())), &field)?;
                    let path = PathBuf::from(path);
                    let bytes = file_size(&path, ty, &field)?;
                    params.push(ParamSpec::File { ty, path, bytes });
                }
                [t, v] => {
                    let ty = parse_type(Some(&Value::String(t.to_string())), &field)?;
                    let bytes = encode(&num(v.trim()), ty, &field)?;
                    params.push(ParamSpec::Value { ty, bytes });
                }
                _ => {
                    return Err(SpecError::new(
                        field,
                        format!(
                        "expected TYPE:VALUE, buf:TYPE:V1,V2,..., zeros:TYPE:LEN or file:TYPE:PATH, found \"{a}\""
                    ),
                    ))
                }
            }
        }
        Ok(LaunchSpec {
            kernel: kernel.map(str::to_string),
            grid: dims(grid, "--grid")?,
            block: dims(block, "--block")?,
            shared_bytes: shared_bytes.unwrap_or(0),
            params,
            textures: Vec::new(),
        })
    }
}

/// One element's JSON text (`c` holds its little-endian bytes).
pub fn decode_element(c: &[u8], ty: ElemType) -> String {
    let n = ty.bytes();
    let mut b = [0u8; 8];
    if let (Some(dst), Some(src)) = (b.get_mut(..n), c.get(..n)) {
        dst.copy_from_slice(src);
    }
    let u = u64::from_le_bytes(b);
    let float = |x: f64, text: String| {
        if x.is_nan() {
            "\"nan\"".to_string()
        } else if x.is_infinite() {
            if x > 0.0 { "\"inf\"" } else { "\"-inf\"" }.to_string()
        } else {
            text
        }
    };
    match ty {
        ElemType::S8 => (u as u8 as i8).to_string(),
        ElemType::S16 => (u as u16 as i16).to_string(),
        ElemType::S32 => (u as u32 as i32).to_string(),
        ElemType::S64 => (u as i64).to_string(),
        ElemType::F16 => {
            let x = crate::convert::f16_to_f32(u as u16);
            float(x as f64, json_float(x as f64, format!("{x:?}")))
        }
        ElemType::F32 => {
            let x = f32::from_bits(u as u32);
            float(x as f64, json_float(x as f64, format!("{x:?}")))
        }
        ElemType::F64 => {
            let x = f64::from_bits(u);
            float(x, json_float(x, format!("{x:?}")))
        }
        _ => u.to_string(),
    }
}

/// Rust's `{:?}` gives the shortest round-trip digits (`0.1`, `1e-7`, `1.0`); JSON accepts
/// all of those spellings.
fn json_float(_x: f64, text: String) -> String {
    text
}
