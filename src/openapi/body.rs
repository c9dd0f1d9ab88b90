//! Request bodies (OpenAPI 3.1 section 4.8.13, Swagger 2.0 `in: body` and `formData`) into
//! body, form or raw parameters.

use std::collections::HashSet;

use super::error::{child, Error, Warning};
use super::params::ParamOut;
use super::schema::Converter;
use super::tool_schema;
use crate::http;
use crate::json::{Json, Map};
use crate::plugin::{ArrayStyle, BodyEncoding, Location, ParamType};

/// What a body becomes on the endpoint.
pub(crate) struct BodyOut {
    pub params: Vec<ParamOut>,
    /// `form`, `multipart` or `raw`; `None` for JSON.
    pub encoding: Option<BodyEncoding>,
    /// A media type to send other than the encoding's usual one.
    pub content_type: Option<String>,
}

/// The kinds of media type, in the order one is preferred.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    ExactJson,
    Json,
    Form,
    Multipart,
    Raw,
}

fn kind(media_type: &str) -> Kind {
    let base = http::media::essence(media_type).to_ascii_lowercase();
    if base == "application/json" {
        Kind::ExactJson
    } else if http::media::is_json(&base) || base == "*/*" || base == "application/*" {
        Kind::Json
    } else if http::media::is_form(&base) {
        Kind::Form
    } else if base.starts_with("multipart/") {
        Kind::Multipart
    } else {
        Kind::Raw
    }
}

/// The media type to use among `medias` (in document order), and a warning naming the
/// others.
fn choose<'m>(medias: &[&'m str], at: &str, warnings: &mut Vec<Warning>) -> Option<&'m str> {
    let chosen = medias.iter().copied().min_by_key(|m| kind(m))?;
    if medias.len() > 1 {
        let others: Vec<&str> = medias.iter().copied().filter(|m| *m != chosen).collect();
        warnings.push(Warning::new(
            at,
            format!(
                "the body is sent as {}; not offered: {}",
                chosen,
                others.join(", ")
            ),
        ));
    }
    Some(chosen)
}

/// An OpenAPI 3 `requestBody` (resolved), at `at` of document `doc`.
pub(crate) fn request_body(
    body: &Json,
    doc: usize,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> Result<BodyOut, Error> {
    let required = body.get("required").and_then(Json::as_bool) == Some(true);
    let content = match body.get("content").and_then(Json::as_object) {
        Some(content) if !content.is_empty() => content,
        _ => return Ok(empty()),
    };
    let medias: Vec<&str> = content.keys().map(|k| k.as_str()).collect();
    let at_content = child(at, "content");
    let media = match choose(&medias, &at_content, &mut conv.warnings) {
        Some(media) => media,
        None => return Ok(empty()),
    };
    let media_at = child(&at_content, media);
    let null = Json::Null;
    let media_object = content.get(media).unwrap_or(&null);
    let schema = match media_object.get("schema") {
        Some(schema) => {
            // A shared component too wide to be one parameter a property stays one `$ref`.
            let in_place = !wide_component(schema, doc, conv);
            conv.convert_with(schema, doc, &child(&media_at, "schema"), in_place)?
        }
        None => Json::Object(Map::new()),
    };
    let encoding = media_object.get("encoding").and_then(Json::as_object);
    Ok(match kind(media) {
        Kind::ExactJson | Kind::Json => json_body(schema, media, required),
        Kind::Form | Kind::Multipart => {
            let multipart = kind(media) == Kind::Multipart;
            if multipart
                && !media
                    .to_ascii_lowercase()
                    .starts_with("multipart/form-data")
            {
                conv.warnings.push(Warning::new(
                    media_at.as_str(),
                    format!("{} is sent as multipart/form-data", media),
                ));
            }
            form_body(schema, multipart, required, encoding, &media_at, conv)
        }
        Kind::Raw => raw_body(schema, media, required, &media_at, conv),
    })
}

/// The most properties a JSON body that is a shared component is flattened into: past it,
/// one `body` parameter that refers to the component (written once, under the plugin's
/// `$defs`), so that operations sharing a wide schema cost its size once, not once each.
const MAX_FLAT_SHARED_PROPERTIES: usize = 256;

/// Whether `schema` is a `$ref` to a component with more than
/// [`MAX_FLAT_SHARED_PROPERTIES`] properties.
fn wide_component(schema: &Json, doc: usize, conv: &Converter<'_, '_>) -> bool {
    let reference = match schema.get("$ref").and_then(Json::as_str) {
        Some(reference) => reference,
        None => return false,
    };
    let target = match conv.refs.resolve(reference, doc, "") {
        Ok(target) => target,
        Err(_) => return false,
    };
    conv.refs
        .target_value(&target)
        .and_then(|value| value.get("properties"))
        .and_then(Json::as_object)
        .map_or(false, |properties| {
            properties.len() > MAX_FLAT_SHARED_PROPERTIES
        })
}

fn empty() -> BodyOut {
    BodyOut {
        params: Vec::new(),
        encoding: None,
        content_type: None,
    }
}

/// Whether a converted schema is an object whose properties can be flattened.
fn flattens(schema: &Json) -> bool {
    let props = schema.get("properties").and_then(Json::as_object);
    let object_type = match schema.get("type") {
        None => true,
        Some(Json::String(t)) => t == "object",
        Some(_) => false,
    };
    let composed = ["oneOf", "anyOf", "allOf"]
        .iter()
        .any(|k| schema.get(k).is_some());
    object_type && !composed && props.map_or(false, |p| !p.is_empty())
}

/// A set: each property looks itself up, and an object may have 100,000 of them.
fn required_names(schema: &Json) -> HashSet<String> {
    schema
        .get("required")
        .and_then(Json::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A JSON body: an object's properties flattened into body parameters, anything else one
/// whole-body parameter.
pub(crate) fn json_body(schema: Json, media: &str, required: bool) -> BodyOut {
    let content_type =
        if kind(media) == Kind::ExactJson || media == "*/*" || media == "application/*" {
            None
        } else {
            Some(http::media::essence(media).to_string())
        };
    let mut params = Vec::new();
    // A required body whose properties are all optional is one parameter: flattened, a call
    // that gives none of them would send no body at all.
    let all_optional = required_names(&schema).is_empty();
    if flattens(&schema) && !(required && all_optional) {
        let names = required_names(&schema);
        // The properties are moved out of the converted schema, which is not needed again;
        // each takes the `$defs` entries it refers to.
        let mut map = schema.into_object().unwrap_or_default();
        let defs = take_defs(&mut map);
        let props = map.remove("properties").and_then(Json::into_object);
        let mut carrier = Some(defs.clone());
        for (name, property) in props.into_iter().flat_map(Map::into_iter) {
            let property = tool_schema::carry(property, &defs, &mut carrier);
            let mut param = ParamOut::new(&name, Location::Body, property);
            param.required = required && names.contains(name.as_str());
            params.push(param);
        }
    } else {
        // A `$ref` at the root (a wide shared component) shows its type.
        let schema = match schema.as_object() {
            Some(map) if map.contains_key("$defs") => {
                let mut map = map.clone();
                let defs = take_defs(&mut map);
                tool_schema::carry(Json::Object(map), &defs, &mut Some(defs.clone()))
            }
            _ => schema,
        };
        let mut param = ParamOut::new("body", Location::Body, schema);
        param.whole_body = true;
        param.required = required;
        params.push(param);
    }
    BodyOut {
        params,
        encoding: None,
        content_type,
    }
}

/// The `$defs` of a converted schema's root, taken out of it.
fn take_defs(map: &mut Map) -> Map {
    map.remove("$defs")
        .and_then(Json::into_object)
        .unwrap_or_default()
}

/// Whether a converted schema is binary content (a file part or raw bytes).
fn is_binary(schema: &Json) -> bool {
    let format = schema.get("format").and_then(Json::as_str);
    let media = schema.get("contentMediaType").and_then(Json::as_str);
    matches!(format, Some("binary")) || (media.is_some() && schema.get("contentEncoding").is_none())
}

/// Form and multipart bodies: one form parameter per property, `encoding` styles kept
/// (OpenAPI 3.1 section 4.8.15).
fn form_body(
    schema: Json,
    multipart: bool,
    required: bool,
    encoding: Option<&Map>,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> BodyOut {
    let encoding_name = if multipart {
        BodyEncoding::Multipart
    } else {
        BodyEncoding::Form
    };
    let mut params = Vec::new();
    let props = schema.get("properties").and_then(Json::as_object);
    let props = match props {
        Some(props) => props,
        None => {
            conv.warnings.push(Warning::new(
                child(at, "schema"),
                "a form body without properties: nothing to send is declared",
            ));
            return BodyOut {
                params,
                encoding: None,
                content_type: None,
            };
        }
    };
    let names = required_names(&schema);
    let defs = match schema.get("$defs") {
        Some(Json::Object(defs)) => defs.clone(),
        _ => Map::new(),
    };
    let mut carrier = Some(defs.clone());
    for (name, property) in props.iter() {
        let own = tool_schema::carry(property.clone(), &defs, &mut carrier);
        let binary = is_binary(&own);
        let item_binary = own.get("items").map_or(false, is_binary);
        let mut param = ParamOut::new(name, Location::Form, own);
        param.required = required && names.contains(name.as_str());
        if multipart && (binary || item_binary) {
            if item_binary {
                conv.warnings.push(Warning::new(
                    child(&child(at, "schema"), name),
                    "an array of files is sent as one file part",
                ));
            }
            param.file = true;
            param.ty = ParamType::String;
            param.style = ArrayStyle::Repeat;
        } else {
            param.style = form_style(name, &param.ty, encoding, multipart, at, conv);
        }
        params.push(param);
    }
    BodyOut {
        params,
        encoding: Some(encoding_name),
        content_type: None,
    }
}

/// The style of a form property: its `encoding` entry, else `form` exploded (OpenAPI 3.1
/// section 4.8.15.1). In multipart, objects are JSON parts and arrays repeat.
fn form_style(
    name: &str,
    ty: &ParamType,
    encoding: Option<&Map>,
    multipart: bool,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> ArrayStyle {
    let container = ty.is_container() || *ty == ParamType::Any;
    if !container {
        return ArrayStyle::Repeat;
    }
    let entry = encoding.and_then(|e| e.get(name));
    let style = entry.and_then(|e| e.get("style")).and_then(Json::as_str);
    if multipart && style.is_none() {
        return ArrayStyle::Repeat;
    }
    let json_part = entry
        .and_then(|e| e.get("contentType"))
        .and_then(Json::as_str)
        .map_or(false, http::media::is_json);
    if json_part {
        return ArrayStyle::Repeat;
    }
    let style = style.unwrap_or("form");
    let explode = entry
        .and_then(|e| e.get("explode"))
        .and_then(Json::as_bool)
        .unwrap_or(style == "form");
    let object = matches!(ty, ParamType::Object(_));
    match (style, explode) {
        ("form", true) if object => ArrayStyle::Spread,
        ("form", true) => ArrayStyle::Repeat,
        ("form", false) => ArrayStyle::Comma,
        ("spaceDelimited", _) => ArrayStyle::Space,
        ("pipeDelimited", _) => ArrayStyle::Pipe,
        ("deepObject", _) => ArrayStyle::DeepObject,
        (other, _) => {
            conv.warnings.push(Warning::new(
                child(&child(at, "encoding"), name),
                format!(
                    "encoding style '{}' is not supported: sent comma-separated",
                    other
                ),
            ));
            ArrayStyle::Comma
        }
    }
}

/// Any other media type: the whole body as it is, text or a file's bytes.
fn raw_body(
    schema: Json,
    media: &str,
    required: bool,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> BodyOut {
    let base = http::media::essence(media).to_ascii_lowercase();
    let texty = base.starts_with("text/")
        || base.contains("xml")
        || base.contains("yaml")
        || base.contains("csv");
    let binary = is_binary(&schema) || !texty;
    let content_type = if media.contains('*') {
        conv.warnings.push(Warning::new(
            at,
            format!(
                "media type '{}' is a range: sent as application/octet-stream",
                media
            ),
        ));
        String::from("application/octet-stream")
    } else {
        media.to_string()
    };
    let mut description = match schema.get("description").and_then(Json::as_str) {
        Some(d) => d.to_string(),
        None => String::new(),
    };
    if binary {
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&format!(
            "A handle of the file to send as {}.",
            content_type
        ));
    }
    let mut raw = Map::new();
    raw.insert("type", "string");
    if !description.is_empty() {
        raw.insert("description", description);
    }
    let mut param = ParamOut::new("body", Location::Body, Json::Object(raw));
    param.required = required;
    param.file = binary;
    BodyOut {
        params: vec![param],
        encoding: Some(BodyEncoding::Raw),
        content_type: Some(content_type),
    }
}

/// Swagger 2.0: the `in: body` parameter or the `formData` parameters, and `consumes`.
pub(crate) fn swagger_body(
    body: Option<(&Json, usize, String)>,
    form: &[(ParamOut, bool)],
    consumes: &[&str],
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> Result<BodyOut, Error> {
    if let Some((param, doc, param_at)) = body {
        let required = param.get("required").and_then(Json::as_bool) == Some(true);
        let schema = match param.get("schema") {
            Some(schema) => conv.convert(schema, doc, &child(&param_at, "schema"))?,
            None => Json::Object(Map::new()),
        };
        let medias: Vec<&str> = if consumes.is_empty() {
            vec!["application/json"]
        } else {
            consumes.to_vec()
        };
        let media = choose(&medias, &child(at, "consumes"), &mut conv.warnings)
            .unwrap_or("application/json");
        return Ok(match kind(media) {
            Kind::ExactJson | Kind::Json => json_body(schema, media, required),
            Kind::Form | Kind::Multipart => json_body(schema, "application/json", required),
            Kind::Raw => raw_body(schema, media, required, &param_at, conv),
        });
    }
    if form.is_empty() {
        return Ok(empty());
    }
    let has_file = form.iter().any(|(_, file)| *file);
    let multipart = has_file || consumes.iter().any(|c| kind(c) == Kind::Multipart);
    let params = form
        .iter()
        .map(|(p, file)| {
            let mut p = p.clone();
            p.location = Location::Form;
            if *file {
                p.file = true;
                p.ty = ParamType::String;
                p.style = ArrayStyle::Repeat;
            }
            p
        })
        .collect();
    Ok(BodyOut {
        params,
        encoding: Some(if multipart {
            BodyEncoding::Multipart
        } else {
            BodyEncoding::Form
        }),
        content_type: None,
    })
}
