//! The JSON Schema a model reads for an endpoint
//! ([parameters](crate::design::endpoints#parameters)). Internal keywords
//! (location, wire name, secret, hidden, context) never reach it.

use super::model::{Endpoint, Param, ParamType};
use crate::json::{Json, Map};

/// `{"type": "object", "properties": {...}, "required": [...], "additionalProperties": false}`
/// with the parameters the model may set, in declaration order.
pub(crate) fn endpoint_schema(endpoint: &Endpoint) -> Json {
    let mut properties = Vec::with_capacity(endpoint.params.len());
    let mut required = Vec::new();
    for param in endpoint.params.iter().filter(|p| !p.is_hidden()) {
        properties.push((param.name.clone(), param_schema(param)));
        // A parameter with a default is never missing, so the model need not send it.
        if param.is_required() && param.default.is_none() {
            required.push(Json::from(param.name.as_str()));
        }
    }
    // Collected, not inserted one by one (each insert scans the keys): linear in the number
    // of parameters.
    let mut properties: Map = properties.into_iter().collect();
    if endpoint.fields_argument {
        properties.insert(super::shape::FIELDS_ARGUMENT, super::shape::fields_schema());
    }
    let mut schema = Map::with_capacity(4);
    schema.insert("type", "object");
    schema.insert("properties", properties);
    if !required.is_empty() {
        schema.insert("required", required);
    }
    schema.insert("additionalProperties", false);
    Json::Object(schema)
}

/// A declared `schema` is taken as it is, the parameter's description, enum and default
/// written over it; otherwise the schema of the type.
fn param_schema(param: &Param) -> Json {
    let mut schema = match &param.schema {
        Some(declared) => {
            let mut declared = declared.clone();
            if let (Some(map), false) = (declared.as_object_mut(), param.description.is_empty()) {
                map.insert("description", param.description.as_str());
            }
            declared
        }
        None => type_schema(&param.ty, &param.description),
    };
    if let Some(map) = schema.as_object_mut() {
        if let Some(format) = &param.format {
            map.insert("format", format.as_str());
        }
        if !param.enum_values.is_empty() {
            map.insert("enum", param.enum_values.clone());
        }
        if let Some(default) = &param.default {
            map.insert("default", default.clone());
        }
    }
    schema
}

/// The schema of a type. Recursion follows the declared type, whose depth the plugin's
/// checks bound.
fn type_schema(ty: &ParamType, description: &str) -> Json {
    let mut map = Map::with_capacity(3);
    if *ty != ParamType::Any {
        map.insert("type", ty.as_str());
    }
    if !description.is_empty() {
        map.insert("description", description);
    }
    match ty {
        ParamType::Array(items) => {
            map.insert("items", type_schema(items, ""));
        }
        ParamType::Object(properties) if !properties.is_empty() => {
            let mut props = Vec::with_capacity(properties.len());
            let mut required = Vec::new();
            for property in properties {
                let schema = type_schema(property.ty(), property.description());
                props.push((property.name().to_string(), schema));
                if property.is_required() {
                    required.push(Json::from(property.name()));
                }
            }
            map.insert("properties", props.into_iter().collect::<Map>());
            if !required.is_empty() {
                map.insert("required", required);
            }
            map.insert("additionalProperties", false);
        }
        _ => {}
    }
    Json::Object(map)
}
