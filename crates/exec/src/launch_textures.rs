//! The `"textures"` field of a launch spec: what each texture binds to, its shape and its
//! texels, turned into the [`Texture`]s of [`crate::LaunchConfig::textures`].
//!
//! ```json
//! "textures": [
//!   {"name": "tex2", "geometry": "2d", "type": "f32", "channels": 1,
//!    "width": 4, "height": 2, "data": [1, 2, 3, 4, 5, 6, 7, 8]},
//!   {"unit": 3, "geometry": "a1d", "type": "u32", "channels": 2, "width": 8, "layers": 2,
//!    "address": "clamp", "filter": "point", "normalized": false, "file": "t.bin"}]
//! ```
//! Texel arithmetic is `ops::tex`'s: point sampling, unnormalised coordinates, clamp-to-edge
//! addressing, raw 32-bit elements. The sampler fields exist so a spec says what it means;
//! any other value than those is refused naming the field (docs/spec-notes.md, "Textures in
//! launch specs").
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

use crate::launch_spec::{
    check_fields, file_size, kind, parse_type, parse_u32, raw_object, value_of, ElemType,
    SpecError, MAX_BUFFER_BYTES,
};
use crate::Texture;
use serde_json::value::RawValue;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Texture units a launch may bind (0 to 255): Fermi's `TEX`/`TLD`/`TXQ` name a texture with an
/// 8-bit field, and the bound table is a vector indexed by unit, so the bound also keeps a
/// stray `"unit": 4000000000` from allocating.
pub const MAX_TEXTURE_UNITS: u32 = 256;

/// What a texture binds to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextureBind {
    /// A `.tex`/`.texref` global of the PTX module (its unit is `ir::Module::texture_slot`).
    Name(String),
    /// A unit: the value of a texture object (handle) in PTX, the texture field of
    /// `TEX`/`TLD`/`TXQ` in a cubin.
    Unit(u32),
}

/// The texture shapes `ops::tex` addresses (PTX's `.1d` … `.acube`, Fermi's `1D` …
/// `ARRAY_CUBE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    D1,
    D2,
    D3,
    A1d,
    A2d,
    Cube,
    Acube,
}

impl Geometry {
    const NAMES: [(&'static str, Geometry); 7] = [
        ("1d", Geometry::D1),
        ("2d", Geometry::D2),
        ("3d", Geometry::D3),
        ("a1d", Geometry::A1d),
        ("a2d", Geometry::A2d),
        ("cube", Geometry::Cube),
        ("acube", Geometry::Acube),
    ];

    /// The extent fields this geometry needs, in storage order (`width` first).
    fn extents(self) -> &'static [&'static str] {
        match self {
            Geometry::D1 | Geometry::Cube => &["width"],
            Geometry::D2 => &["width", "height"],
            Geometry::D3 => &["width", "height", "depth"],
            Geometry::A1d | Geometry::Acube => &["width", "layers"],
            Geometry::A2d => &["width", "height", "layers"],
        }
    }

    /// `ops::tex`'s extents `[W, H, D]` from the given ones (in [`Geometry::extents`] order):
    /// the layer is the last dimension of an array, a cube map is `[w, w, 6 * cubes]`.
    fn dims(self, e: &[u32]) -> [u32; 3] {
        let at = |k: usize| e.get(k).copied().unwrap_or(1);
        match self {
            Geometry::D1 => [at(0), 1, 1],
            Geometry::D2 | Geometry::A1d => [at(0), at(1), 1],
            Geometry::D3 | Geometry::A2d => [at(0), at(1), at(2)],
            Geometry::Cube => [at(0), at(0), 6],
            Geometry::Acube => [at(0), at(0), at(1).saturating_mul(6)],
        }
    }
}

/// Where the texels come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TexelSource {
    /// The `data` array, as 32-bit elements.
    Inline(Vec<u32>),
    /// A regular file of exactly the texture's bytes (checked when the spec is read, read at
    /// launch).
    File { path: PathBuf, bytes: u64 },
}

/// One entry of `"textures"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureSpec {
    pub bind: TextureBind,
    pub geometry: Geometry,
    pub ty: ElemType,
    /// 32-bit words per texel (1 to 4).
    pub channels: u32,
    /// `ops::tex`'s extents (`Geometry::dims`).
    pub dims: [u32; 3],
    pub source: TexelSource,
}

impl TextureSpec {
    /// Device bytes the texels take (counted against the launch's memory limit).
    pub fn device_bytes(&self) -> u64 {
        texel_bytes(self.dims, self.channels)
    }

    /// The texture, its file read now (it must still have the size checked when the spec was
    /// read). `field` names this entry in errors.
    pub fn texture(&self, field: &str) -> Result<Texture, String> {
        let data = match &self.source {
            TexelSource::Inline(words) => words.clone(),
            TexelSource::File { path, bytes } => {
                read_words(path, *bytes).map_err(|e| format!("{field}.file: {e}"))?
            }
        };
        Ok(Texture {
            dims: self.dims,
            channels: self.channels,
            data,
        })
    }
}

fn texel_bytes(dims: [u32; 3], channels: u32) -> u64 {
    dims.iter().fold(u64::from(channels) * 4, |a, &d| {
        a.saturating_mul(u64::from(d))
    })
}

/// Reads a texture file of `bytes` bytes as little-endian words, never more than that.
fn read_words(path: &Path, bytes: u64) -> Result<Vec<u32>, String> {
    use std::io::Read;
    let what = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let f = std::fs::File::open(path).map_err(what)?;
    let mut buf = Vec::new();
    f.take(bytes.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(what)?;
    if buf.len() as u64 != bytes {
        return Err(format!(
            "{} changed size since the spec was read ({} bytes, expected {bytes})",
            path.display(),
            buf.len()
        ));
    }
    Ok(words(&buf))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w.copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

const FIELDS: [&str; 15] = [
    "name",
    "unit",
    "geometry",
    "type",
    "channels",
    "width",
    "height",
    "depth",
    "layers",
    "address",
    "filter",
    "normalized",
    "data",
    "file",
    "comment",
];

/// Parses the `"textures"` array; `file` paths are relative to `base`.
pub fn parse_textures(raw: &RawValue, base: &Path) -> Result<Vec<TextureSpec>, SpecError> {
    let items: Vec<Box<RawValue>> = serde_json::from_str(raw.get()).map_err(|_| {
        let found = value_of(raw, "textures").map_or("invalid JSON", |v| kind(&v));
        SpecError::new("textures", format!("expected an array, found {found}"))
    })?;
    if items.len() > MAX_TEXTURE_UNITS as usize {
        return Err(SpecError::new(
            "textures",
            format!(
                "{} textures; at most {MAX_TEXTURE_UNITS} can be bound",
                items.len()
            ),
        ));
    }
    let mut out: Vec<TextureSpec> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let field = format!("textures[{i}]");
        let t = parse_texture(item, &field, base)?;
        if let Some(j) = out.iter().position(|o| o.bind == t.bind) {
            return Err(SpecError::new(
                field,
                format!("binds the same texture as textures[{j}]"),
            ));
        }
        out.push(t);
    }
    Ok(out)
}

fn parse_texture(raw: &RawValue, field: &str, base: &Path) -> Result<TextureSpec, SpecError> {
    let obj = raw_object(raw, field)?;
    check_fields(&obj, &FIELDS, field)?;
    // Every small field as a value; `data` stays raw text until its type is known.
    let small = |k: &str| -> Result<Option<(Value, String)>, SpecError> {
        let f = format!("{field}.{k}");
        obj.get(k)
            .map(|v| value_of(v, &f).map(|v| (v, f)))
            .transpose()
    };
    let bind = match (small("name")?, small("unit")?) {
        (Some((Value::String(s), _)), None) => TextureBind::Name(s),
        (Some((other, f)), None) => {
            return Err(SpecError::new(
                f,
                format!("expected a texture variable's name, found {}", kind(&other)),
            ))
        }
        (None, Some((v, f))) => {
            let u = parse_u32(&v, &f, 0)?;
            if u >= MAX_TEXTURE_UNITS {
                return Err(SpecError::new(
                    f,
                    format!("unit {u} is out of range (0 to {})", MAX_TEXTURE_UNITS - 1),
                ));
            }
            TextureBind::Unit(u)
        }
        _ => {
            return Err(SpecError::new(
                field,
                "give exactly one of \"name\" (a .tex/.texref variable) or \"unit\"",
            ))
        }
    };
    let geometry = match small("geometry")? {
        None => Geometry::D1,
        Some((Value::String(s), f)) => Geometry::NAMES
            .iter()
            .find(|(n, _)| *n == s.trim_start_matches('.'))
            .map(|(_, g)| *g)
            .ok_or_else(|| {
                SpecError::new(
                    f,
                    format!(
                        "unknown geometry \"{s}\" (expected one of: 1d, 2d, 3d, a1d, a2d, cube, acube)"
                    ),
                )
            })?,
        Some((other, f)) => {
            return Err(SpecError::new(
                f,
                format!("expected a geometry name, found {}", kind(&other)),
            ))
        }
    };
    let tf = format!("{field}.type");
    let ty = parse_type(small("type")?.map(|(v, _)| v).as_ref(), &tf)?;
    if ty.bytes() != 4 {
        return Err(SpecError::new(
            tf,
            format!(
                ".{} texels are not supported: textures hold raw 32-bit elements \
                 (u32, s32, b32 or f32)",
                ty.name()
            ),
        ));
    }
    let channels = match small("channels")? {
        None => 1,
        Some((v, f)) => {
            let c = parse_u32(&v, &f, 1)?;
            if c > 4 {
                return Err(SpecError::new(
                    f,
                    format!("{c} channels; a texel has 1 to 4"),
                ));
            }
            c
        }
    };
    let mut extents = Vec::new();
    for k in ["width", "height", "depth", "layers"] {
        let needed = geometry.extents().contains(&k);
        match (small(k)?, needed) {
            (Some((v, f)), true) => extents.push(parse_u32(&v, &f, 1)?),
            (None, true) => {
                return Err(SpecError::new(
                    format!("{field}.{k}"),
                    format!("missing (a {} texture needs it)", geometry_name(geometry)),
                ))
            }
            (Some((_, f)), false) => {
                return Err(SpecError::new(
                    f,
                    format!("a {} texture has no {k}", geometry_name(geometry)),
                ))
            }
            (None, false) => {}
        }
    }
    let dims = geometry.dims(&extents);
    let bytes = texel_bytes(dims, channels);
    if bytes > MAX_BUFFER_BYTES {
        return Err(SpecError::new(
            field,
            format!("the texels take {bytes} bytes, more than the {MAX_BUFFER_BYTES}-byte limit"),
        ));
    }
    sampler_field(small("address")?, "clamp", &["wrap", "border", "mirror"])?;
    sampler_field(small("filter")?, "point", &["linear"])?;
    match small("normalized")? {
        None | Some((Value::Bool(false), _)) => {}
        Some((Value::Bool(true), f)) => {
            return Err(SpecError::new(
                f,
                "normalized coordinates are not supported: ptxvm's textures take texel \
                 coordinates (ops::tex)",
            ))
        }
        Some((other, f)) => {
            return Err(SpecError::new(
                f,
                format!("expected true or false, found {}", kind(&other)),
            ))
        }
    }
    let source = match (obj.get("data"), obj.get("file")) {
        (Some(d), None) => {
            let f = format!("{field}.data");
            let b = crate::spec_data::parse_data(d.get(), ty, &f)?;
            if b.len() as u64 != bytes {
                return Err(SpecError::new(
                    f,
                    format!(
                        "{} elements; a {} texture of extents {dims:?} with {channels} \
                         channel(s) has {}",
                        b.len() / 4,
                        geometry_name(geometry),
                        bytes / 4
                    ),
                ));
            }
            TexelSource::Inline(words(&b))
        }
        (None, Some(p)) => {
            let f = format!("{field}.file");
            let Value::String(p) = value_of(p, &f)? else {
                return Err(SpecError::new(f, "expected a file name string"));
            };
            let path = base.join(p);
            let len = file_size(&path, ty, &f)?;
            if len != bytes {
                return Err(SpecError::new(
                    f,
                    format!(
                        "{} holds {len} bytes; the texture's texels take {bytes}",
                        path.display()
                    ),
                ));
            }
            TexelSource::File { path, bytes }
        }
        _ => {
            return Err(SpecError::new(
                field,
                "give exactly one of \"data\" or \"file\"",
            ))
        }
    };
    Ok(TextureSpec {
        bind,
        geometry,
        ty,
        channels,
        dims,
        source,
    })
}

fn geometry_name(g: Geometry) -> &'static str {
    Geometry::NAMES
        .iter()
        .find(|(_, x)| *x == g)
        .map_or("?", |(n, _)| n)
}

/// A sampler setting that may only take `only` (the other `known` values are real modes that
/// `ops::tex` does not model): a string, or an array of one string per dimension.
fn sampler_field(v: Option<(Value, String)>, only: &str, known: &[&str]) -> Result<(), SpecError> {
    let Some((v, f)) = v else { return Ok(()) };
    let check = |s: &Value, f: &str| -> Result<(), SpecError> {
        match s {
            Value::String(s) if s == only => Ok(()),
            Value::String(s) if known.contains(&s.as_str()) => Err(SpecError::new(
                f,
                format!(
                    "\"{s}\" is not supported: ptxvm's textures are \"{only}\" only (ops::tex)"
                ),
            )),
            Value::String(s) => Err(SpecError::new(
                f,
                format!(
                    "unknown mode \"{s}\" (expected one of: {only}, {})",
                    known.join(", ")
                ),
            )),
            other => Err(SpecError::new(
                f,
                format!("expected a string, found {}", kind(other)),
            )),
        }
    };
    match &v {
        Value::Array(a) if (1..=3).contains(&a.len()) => {
            for (k, s) in a.iter().enumerate() {
                check(s, &format!("{f}[{k}]"))?;
            }
            Ok(())
        }
        Value::Array(_) => Err(SpecError::new(
            f,
            "expected 1 to 3 modes, one per dimension",
        )),
        s => check(s, &f),
    }
}

/// The launch's texture table: entry `u` is the texture bound to unit `u`. `unit_of` gives a
/// name's unit (PTX: `ir::Module::texture_slot` of the variable; `None`: no such texture).
/// Errors name the spec field.
pub fn bind_textures(
    specs: &[TextureSpec],
    unit_of: &dyn Fn(&str) -> Result<u32, String>,
) -> Result<Vec<Option<Texture>>, String> {
    let mut table: Vec<Option<Texture>> = Vec::new();
    for (i, t) in specs.iter().enumerate() {
        let field = format!("textures[{i}]");
        let unit = match &t.bind {
            TextureBind::Unit(u) => *u,
            TextureBind::Name(n) => unit_of(n).map_err(|e| format!("{field}.name: {e}"))?,
        };
        if unit >= MAX_TEXTURE_UNITS {
            return Err(format!(
                "{field}: binds unit {unit}; units 0 to {} can be bound",
                MAX_TEXTURE_UNITS - 1
            ));
        }
        let u = unit as usize;
        if table.len() <= u {
            table.resize(u + 1, None);
        }
        let slot = table
            .get_mut(u)
            .ok_or_else(|| format!("{field}: unit {unit}"))?;
        if slot.is_some() {
            return Err(format!(
                "{field}: unit {unit} is already bound by an earlier texture"
            ));
        }
        *slot = Some(t.texture(&field)?);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Vec<TextureSpec>, SpecError> {
        let raw: Box<RawValue> = serde_json::from_str(json).unwrap();
        parse_textures(&raw, Path::new("."))
    }

    #[test]
    fn shapes_become_ops_tex_extents() {
        let t = parse(
            r#"[{"name": "t", "geometry": "a2d", "type": "u32", "width": 2, "height": 3,
                 "layers": 2, "data": [1,2,3,4,5,6,7,8,9,10,11,12]},
                {"unit": 5, "geometry": "acube", "type": "f32", "channels": 2, "width": 1,
                 "layers": 2, "data": [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}]"#,
        )
        .unwrap();
        assert_eq!(t[0].dims, [2, 3, 2]);
        assert_eq!(t[0].bind, TextureBind::Name("t".into()));
        assert_eq!(t[1].dims, [1, 1, 12]);
        assert_eq!(t[1].bind, TextureBind::Unit(5));
        assert_eq!(
            t[1].source,
            TexelSource::Inline((0..24).map(|x: u32| (x as f32).to_bits()).collect())
        );
    }

    #[test]
    fn errors_name_the_field() {
        let e = |j: &str| parse(j).unwrap_err().to_string();
        assert!(
            e(r#"[{"unit": 0, "type": "u32", "width": 2, "data": [1]}]"#)
                .starts_with("textures[0].data: 1 elements")
        );
        assert!(
            e(r#"[{"unit": 0, "type": "u16", "width": 1, "data": [1]}]"#)
                .starts_with("textures[0].type: .u16 texels")
        );
        assert!(e(r#"[{"unit": 0, "type": "u32", "data": [1]}]"#)
            .starts_with("textures[0].width: missing"));
        assert!(
            e(r#"[{"unit": 0, "type": "u32", "width": 1, "depth": 1, "data": [1]}]"#)
                .starts_with("textures[0].depth: a 1d texture has no depth")
        );
        assert!(e(
            r#"[{"unit": 0, "type": "u32", "width": 1, "address": ["clamp", "wrap"], "data": [1]}]"#
        )
        .starts_with("textures[0].address[1]: \"wrap\" is not supported"));
        assert!(
            e(r#"[{"unit": 0, "type": "u32", "width": 1, "filter": "linear", "data": [1]}]"#)
                .starts_with("textures[0].filter:")
        );
        assert!(
            e(r#"[{"unit": 0, "type": "u32", "width": 1, "normalized": true, "data": [1]}]"#)
                .starts_with("textures[0].normalized:")
        );
        assert!(
            e(r#"[{"unit": 256, "type": "u32", "width": 1, "data": [1]}]"#)
                .starts_with("textures[0].unit: unit 256")
        );
        assert!(
            e(r#"[{"name": "a", "unit": 1, "type": "u32", "width": 1, "data": [1]}]"#)
                .starts_with("textures[0]: give exactly one of \"name\"")
        );
        assert!(e(r#"[{"unit": 1, "type": "u32", "width": 1, "data": [1]},
                      {"unit": 1, "type": "u32", "width": 1, "data": [2]}]"#)
        .starts_with("textures[1]: binds the same texture as textures[0]"));
        // 2^16 x 2^16 x 2 channels x 4 bytes is 32 GiB: refused before anything is held.
        assert!(e(
            r#"[{"unit": 0, "geometry": "2d", "type": "u32", "channels": 2,
                       "width": 65536, "height": 65536, "data": []}]"#
        )
        .starts_with("textures[0]: the texels take 34359738368 bytes"));
        assert!(
            e(r#"[{"unit": 0, "type": "u32", "width": 1, "file": "/dev/null"}]"#)
                .contains("not a regular file")
        );
        assert!(e(r#"{"unit": 0}"#).starts_with("textures: expected an array"));
    }

    #[test]
    fn binding_resolves_names_and_refuses_a_unit_twice() {
        let t = parse(
            r#"[{"name": "a", "type": "u32", "width": 1, "data": [7]},
                {"unit": 2, "type": "u32", "width": 1, "data": [9]}]"#,
        )
        .unwrap();
        let table =
            bind_textures(&t, &|n| if n == "a" { Ok(0) } else { Err("none".into()) }).unwrap();
        assert_eq!(table.len(), 3);
        assert_eq!(table[0].as_ref().unwrap().data, vec![7]);
        assert!(table[1].is_none());
        assert_eq!(table[2].as_ref().unwrap().data, vec![9]);
        let clash = bind_textures(&t, &|_| Ok(2)).unwrap_err();
        assert!(
            clash.starts_with("textures[1]: unit 2 is already bound"),
            "{clash}"
        );
        let missing = bind_textures(&t, &|_| Err("no .tex variable `a`".into())).unwrap_err();
        assert_eq!(missing, "textures[0].name: no .tex variable `a`");
    }
}
