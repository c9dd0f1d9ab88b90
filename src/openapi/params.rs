//! Parameters (OpenAPI 3.1 section 4.8.12, Swagger 2.0 "Parameter Object") into plugin
//! parameters: location, name, schema, and `style`/`explode` as `array_style`.

use super::error::{child, Error, Warning};
use super::options::Version;
use super::schema::{param_type, Converter};
use super::text;
use crate::http;
use crate::json::{Json, Map};
use crate::plugin::naming;
use crate::plugin::{ArrayStyle, Location, Param, ParamType};

/// A plugin parameter being made.
#[derive(Clone, Debug)]
pub(crate) struct ParamOut {
    /// The name the model reads, before clashes are resolved.
    pub name: String,
    pub wire: String,
    pub location: Location,
    pub ty: ParamType,
    pub schema: Json,
    pub required: bool,
    pub style: ArrayStyle,
    pub file: bool,
    pub whole_body: bool,
}

impl ParamOut {
    pub(crate) fn new(wire: &str, location: Location, schema: Json) -> ParamOut {
        ParamOut {
            name: naming::valid_name(wire, "param"),
            wire: wire.to_string(),
            location,
            ty: param_type(&schema),
            schema,
            required: false,
            style: ArrayStyle::Repeat,
            file: false,
            whole_body: false,
        }
    }

    /// The plugin parameter, through its builder; the schema moves into it.
    pub(crate) fn take_param(&mut self) -> Param {
        let mut schema = self.schema.take();
        let description = schema
            .as_object_mut()
            .and_then(|s| s.remove("description"))
            .and_then(|d| d.as_str().map(str::to_string));
        // A schema that says no more than the type is left out: the plugin stays short.
        let plain = match schema.as_object() {
            Some(s) => {
                s.is_empty()
                    || (s.len() == 1
                        && s.get("type").and_then(Json::as_str) == Some(self.ty.as_str())
                        && !self.ty.is_container())
            }
            None => false,
        };
        let mut builder = Param::builder(self.name.as_str())
            .location(self.location)
            .ty(self.ty.clone())
            .required(self.required)
            .whole_body(self.whole_body)
            .file(self.file)
            .array_style(self.style);
        if self.wire != self.name {
            builder = builder.wire_name(self.wire.as_str());
        }
        if let Some(description) = description {
            builder = builder.description(description);
        }
        if !plain && !self.file {
            builder = builder.schema(schema);
        }
        builder.build()
    }
}

/// Header parameters OpenAPI 3 ignores (section 4.8.12.1: "If in is "header" and the name
/// field is "Accept", "Content-Type" or "Authorization", the parameter definition SHALL be
/// ignored"); the plugin sets them itself.
const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

/// One resolved parameter object, and where it is.
pub(crate) struct Source<'j> {
    pub value: &'j Json,
    pub doc: usize,
    pub pointer: String,
}

/// A path, query, header or cookie parameter; `Ok(None)` when it is not imported (with a
/// warning).
pub(crate) fn convert(
    source: &Source<'_>,
    conv: &mut Converter<'_, '_>,
) -> Result<Option<ParamOut>, Error> {
    let p = source.value;
    let at = &source.pointer;
    let name = p.get("name").and_then(Json::as_str).unwrap_or("");
    let location = match p.get("in").and_then(Json::as_str) {
        Some("path") => Location::Path,
        Some("query") => Location::Query,
        Some("header") => Location::Header,
        Some("cookie") => Location::Cookie,
        other => {
            conv.warnings.push(Warning::new(
                at.as_str(),
                format!(
                    "parameter location '{}' is not imported",
                    other.unwrap_or("")
                ),
            ));
            return Ok(None);
        }
    };
    if name.is_empty() {
        conv.warnings.push(Warning::new(
            at.as_str(),
            "a parameter without a name is not imported",
        ));
        return Ok(None);
    }
    if location == Location::Header && IGNORED_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(name))
    {
        conv.warnings.push(Warning::new(
            at.as_str(),
            format!(
                "header parameter '{}' is ignored (OpenAPI 3 section 4.8.12.1): the plugin sets it",
                name
            ),
        ));
        return Ok(None);
    }
    // Framing and routing headers (`Content-Length`, `Host`) are the client's to write: a
    // document declaring one (Azure's) describes the wire, not a value to choose.
    if location == Location::Header
        && crate::plugin::MANAGED_HEADERS
            .iter()
            .any(|h| h.eq_ignore_ascii_case(name))
    {
        conv.warnings.push(Warning::new(
            at.as_str(),
            format!(
                "header parameter '{}' is not imported: the client writes it",
                super::refs::short(name)
            ),
        ));
        return Ok(None);
    }
    let mut schema = if conv.version == Version::Swagger2 {
        conv.convert(p, source.doc, at)?
    } else if let Some(schema) = p.get("schema") {
        conv.convert(schema, source.doc, &child(at, "schema"))?
    } else if let Some(content) = p.get("content").and_then(Json::as_object) {
        // A parameter with `content` is sent serialized in that media type: JSON text.
        match content.iter().next() {
            Some((media, media_object)) => {
                let mut schema = match media_object.get("schema") {
                    Some(s) => conv.convert(
                        s,
                        source.doc,
                        &child(&child(&child(at, "content"), media), "schema"),
                    )?,
                    None => Json::Object(Map::new()),
                };
                if !http::media::is_json(media) {
                    conv.warnings.push(Warning::new(
                        child(at, "content"),
                        format!("parameter content '{}' is sent as JSON text", media),
                    ));
                }
                if let Some(map) = schema.as_object_mut() {
                    map.remove("type");
                }
                schema
            }
            None => Json::Object(Map::new()),
        }
    } else {
        Json::Object(Map::new())
    };
    if let (Some(description), Some(map)) = (
        p.get("description").and_then(Json::as_str),
        schema.as_object_mut(),
    ) {
        if !description.trim().is_empty() {
            map.insert("description", text::cap(description, conv.max_description));
        }
    }
    if p.get("deprecated").and_then(Json::as_bool) == Some(true) {
        if let Some(map) = schema.as_object_mut() {
            let old = map
                .get("description")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            map.insert(
                "description",
                format!("Deprecated. {}", old).trim_end().to_string(),
            );
        }
    }
    let mut out = ParamOut::new(name, location, schema);
    out.required =
        location == Location::Path || p.get("required").and_then(Json::as_bool) == Some(true);
    if location == Location::Path && out.ty.is_container() {
        conv.warnings.push(Warning::new(
            at.as_str(),
            "an array or object path parameter is sent as one string: give the value as the path segment",
        ));
        to_string_param(&mut out);
    }
    out.style = style(p, location, &out.ty, conv, at);
    Ok(Some(out))
}

/// A parameter that can only be sent as text: a string whose schema says what to write.
pub(crate) fn to_string_param(out: &mut ParamOut) {
    out.ty = ParamType::String;
    let description = out.schema.get("description").cloned();
    let mut schema = Map::new();
    schema.insert("type", "string");
    if let Some(d) = description {
        schema.insert("description", d);
    }
    out.schema = Json::Object(schema);
}

/// `style` and `explode` (OpenAPI 3.1 section 4.8.12.4), or Swagger 2.0 `collectionFormat`.
fn style(
    p: &Json,
    location: Location,
    ty: &ParamType,
    conv: &mut Converter<'_, '_>,
    at: &str,
) -> ArrayStyle {
    let object = matches!(ty, ParamType::Object(_));
    let container = ty.is_container() || *ty == ParamType::Any;
    if let Some(word @ ("label" | "matrix")) = p.get("style").and_then(Json::as_str) {
        conv.warnings.push(Warning::new(
            child(at, "style"),
            format!(
                "path style '{}' is not supported: the value is sent as a plain segment",
                word
            ),
        ));
        return ArrayStyle::Repeat;
    }
    if !container {
        return ArrayStyle::Repeat;
    }
    if conv.version == Version::Swagger2 {
        return match p
            .get("collectionFormat")
            .and_then(Json::as_str)
            .unwrap_or("csv")
        {
            "multi" => ArrayStyle::Repeat,
            "ssv" => ArrayStyle::Space,
            "pipes" => ArrayStyle::Pipe,
            "tsv" => {
                conv.warnings.push(Warning::new(
                    child(at, "collectionFormat"),
                    "collectionFormat tsv is sent comma-separated",
                ));
                ArrayStyle::Comma
            }
            _ => ArrayStyle::Comma,
        };
    }
    let default_style = match location {
        Location::Query | Location::Cookie => "form",
        _ => "simple",
    };
    let style = p
        .get("style")
        .and_then(Json::as_str)
        .unwrap_or(default_style);
    let explode = p
        .get("explode")
        .and_then(Json::as_bool)
        .unwrap_or(style == "form");
    if p.get("allowReserved").and_then(Json::as_bool) == Some(true) {
        conv.warnings.push(Warning::new(
            child(at, "allowReserved"),
            "allowReserved is not honoured: reserved characters are percent-encoded",
        ));
    }
    let header = location == Location::Header;
    match (style, explode) {
        ("form", true) if object && !header => ArrayStyle::Spread,
        ("form", true) => ArrayStyle::Repeat,
        ("form", false) => ArrayStyle::Comma,
        ("simple", _) if header => ArrayStyle::Comma,
        ("simple", _) => ArrayStyle::Comma,
        ("spaceDelimited", _) if !header => ArrayStyle::Space,
        ("pipeDelimited", _) if !header => ArrayStyle::Pipe,
        ("deepObject", _) if !header => ArrayStyle::DeepObject,
        (other, _) => {
            conv.warnings.push(Warning::new(
                child(at, "style"),
                format!(
                    "style '{}' is not supported here: values are sent comma-separated",
                    other
                ),
            ));
            ArrayStyle::Comma
        }
    }
}
