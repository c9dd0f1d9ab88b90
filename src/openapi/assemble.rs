//! The drafts of the operations assembled into the plugin through the plugin layer's
//! builders: tool names made unique, parameters ordered and named, credentials placed
//! (the plugin's auth, or secret parameters per endpoint), shared schemas hoisted into
//! `$defs`, and each endpoint the plugin refuses left out with a warning (or the import
//! failed with `strict`).
use super::error::{Error, ErrorKind, Warning};
use super::operation::Draft;
use super::options::ImportOptions;
use super::params::ParamOut;
use super::security::Scheme;
use super::tool_schema;
use crate::http::Method;
use crate::plugin::naming::{self, Names};
use crate::plugin::Refused;
use crate::plugin::{Endpoint, EndpointBuilder, HttpPlugin, Location, Param};

/// Tool names: `operationId` made valid, else method and path; collisions get `_2`, `_3`
/// in document order, each a warning.
pub(super) fn assign_names(drafts: &mut [Draft], warnings: &mut Vec<Warning>) {
    let mut taken = Names::default();
    for draft in drafts.iter_mut() {
        let base = std::mem::take(&mut draft.name);
        let name = taken.unique(&base);
        if name != base {
            warnings.push(Warning::new(
                draft.pointer.as_str(),
                format!("tool name '{}' is already taken: named '{}'", base, name),
            ));
        }
        taken.take(&name);
        draft.name = name;
    }
}

/// The plugin of `drafts`, the variables it reads, and the drafts of the endpoints it
/// holds (those the plugin refused are left out, each with a warning).
///
/// # Errors
///
/// The plugin's refusal of a part of itself (its name or base URL), of every endpoint, or
/// with `strict` of any.
pub(super) fn build(
    name: &str,
    description: &str,
    base_url: &str,
    mut drafts: Vec<Draft>,
    schemes: &[Scheme],
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<(HttpPlugin, Vec<String>, Vec<Draft>), Error> {
    // One scheme for every endpoint: the plugin's `auth`; otherwise secret parameters.
    let first = drafts
        .first()
        .map(|d| d.security.clone())
        .unwrap_or_default();
    // A credential is named by the host it goes to: shared only when every endpoint goes
    // to the plugin's base URL.
    let shared = first.len() == 1
        && drafts
            .iter()
            .all(|d| d.security == first && d.base_url.is_none())
        && schemes
            .iter()
            .find(|s| s.name == first[0])
            .map_or(false, Scheme::has_auth);
    // The value of each variable for the plugin made here; the plugin writes the
    // variable's name back, never its value.
    let lookup = |var: &str| -> String {
        options
            .variables
            .iter()
            .rev()
            .find(|(n, _)| n == var)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let mut variables: Vec<String> = Vec::new();
    let add_vars = |vars: Vec<String>, variables: &mut Vec<String>| {
        for v in vars {
            if !variables.contains(&v) {
                variables.push(v);
            }
        }
    };
    let mut plugin = HttpPlugin::builder(name, base_url);
    if !description.is_empty() {
        plugin = plugin.description(description);
    }
    let mut shared_place = None;
    if shared {
        if let Some(scheme) = schemes.iter().find(|s| s.name == first[0]) {
            let scheme = scheme.for_host(base_url);
            if let Some(auth) = scheme.auth(&lookup) {
                plugin = plugin.auth(auth);
            }
            add_vars(scheme.variables(), &mut variables);
            shared_place = Some(scheme.place());
        }
    }
    // Shared and recursive components, once for the plugin.
    let mut defs = tool_schema::Hoisted::default();
    for draft in drafts.iter_mut() {
        let mut all: Vec<ParamOut> = std::mem::take(&mut draft.params);
        crate::sort::by_key(&mut all, |p| u64::from(location_rank(p.location)));
        all.append(&mut draft.body.params);
        unique_params(&mut all);
        // The credentials this endpoint sends, and where: a document parameter in the same
        // place is the credential's slot, left out (the plugin fills it).
        let host = draft.base_url.as_deref().unwrap_or(base_url);
        let own: Vec<Scheme> = if shared {
            Vec::new()
        } else {
            draft
                .security
                .iter()
                .filter_map(|n| schemes.iter().find(|s| &s.name == n))
                .map(|s| s.for_host(host))
                .collect()
        };
        let places: Vec<(Location, String)> = own
            .iter()
            .map(Scheme::place)
            .chain(shared_place.clone())
            .collect();
        if !places.is_empty() {
            drop_credential_slots(&mut all, &places, draft, warnings);
        }
        for p in all.iter_mut() {
            tool_schema::hoist(&mut p.schema, &mut defs);
        }
        let mut params: Vec<Param> = all.iter_mut().map(ParamOut::take_param).collect();
        for scheme in &own {
            let base = naming::valid_name(&format!("auth_{}", scheme.name), "auth");
            let pname = naming::unique(&base, &|n| all.iter().any(|p| p.name == n));
            params.push(scheme.param(&pname, &lookup));
            add_vars(scheme.param_variables(), &mut variables);
        }
        draft.params = all;
        plugin = plugin.endpoint(endpoint(draft, params));
    }
    let plugin = plugin.defs(defs.into_map());
    // The plugin checks each endpoint; one it refuses is left out with its message, never
    // silently, and the rest imported (with `strict`, the first refusal ends the import).
    let refusal = |at: &str, what: &str, e: &crate::plugin::Error| {
        Error::new(ErrorKind::Plugin, at, format!("{}: {}", what, e))
    };
    let first_pointer = drafts
        .first()
        .map(|d| d.pointer.clone())
        .unwrap_or_default();
    let (plugin, refused) = match plugin.build_each(options.thread_count()) {
        Ok(built) => built,
        Err(Refused::Plugin(e)) => return Err(refusal("", "the plugin refused the import", &e)),
        Err(Refused::EveryEndpoint(e)) if options.strict => {
            return Err(refusal(&first_pointer, "the plugin refused the import", &e))
        }
        Err(Refused::EveryEndpoint(e)) => {
            let what = "the plugin refused every operation; the first";
            return Err(refusal(&first_pointer, what, &e));
        }
    };
    if refused.is_empty() {
        return Ok((plugin, variables, drafts));
    }
    if options.strict {
        let (i, e) = &refused[0];
        let at = drafts.get(*i).map(|d| d.pointer.as_str()).unwrap_or("");
        return Err(refusal(at, "the plugin refused the import", e));
    }
    let mut gone = vec![false; drafts.len()];
    for (i, error) in &refused {
        if let Some(draft) = drafts.get(*i) {
            warnings.push(Warning::new(
                draft.pointer.as_str(),
                format!(
                    "{} not imported: the plugin refused it: {}",
                    draft.label,
                    error.message()
                ),
            ));
        }
        if let Some(slot) = gone.get_mut(*i) {
            *slot = true;
        }
    }
    let mut index = 0;
    drafts.retain(|_| {
        let keep = !gone.get(index).copied().unwrap_or(false);
        index += 1;
        keep
    });
    Ok((plugin, variables, drafts))
}

/// Leaves out the parameters in a place a credential goes (`places`: location and name,
/// a header's in lower case), with one warning naming them.
fn drop_credential_slots(
    all: &mut Vec<ParamOut>,
    places: &[(Location, String)],
    draft: &Draft,
    warnings: &mut Vec<Warning>,
) {
    let mut dropped: Vec<String> = Vec::new();
    all.retain(|p| {
        let key = if p.location == Location::Header {
            p.wire.to_ascii_lowercase()
        } else {
            p.wire.clone()
        };
        let taken = places.iter().any(|(l, n)| *l == p.location && *n == key);
        if taken {
            dropped.push(format!("{} '{}'", p.location.as_str(), p.wire));
        }
        !taken
    });
    if !dropped.is_empty() {
        warnings.push(Warning::new(
            draft.pointer.as_str(),
            format!(
                "{} is where the security scheme's credential goes: filled from its variable, not a parameter",
                super::refs::short(&dropped.join(", "))
            ),
        ));
    }
}

/// The endpoint of `draft` with `params`. Name, title, description and tags move into it
/// (the figures and warnings after this read the pointer, label, method and path): copied,
/// they were the import's largest strings twice over at its peak.
fn endpoint(draft: &mut Draft, params: Vec<Param>) -> EndpointBuilder {
    let name = std::mem::take(&mut draft.name);
    let mut e = Endpoint::builder(name, draft.method, draft.path.as_str());
    if let Some(title) = draft.title.take() {
        e = e.title(title);
    }
    for tag in std::mem::take(&mut draft.tags) {
        e = e.tag(tag);
    }
    let description = std::mem::take(&mut draft.description);
    if !description.is_empty() {
        e = e.description(description);
    }
    if let Some(url) = &draft.base_url {
        e = e.base_url(url.as_str());
    }
    if let Some(encoding) = draft.body.encoding {
        e = e.body_encoding(encoding);
    }
    if let Some(ct) = &draft.body.content_type {
        e = e.content_type(ct.as_str());
    }
    let has_body = draft
        .params
        .iter()
        .any(|p| matches!(p.location, Location::Body | Location::Form));
    if draft.method == Method::Delete && has_body {
        e = e.allow_delete_body(true);
    }
    e = e.params(params);
    if let Some(schema) = draft.output_schema.take() {
        e = e.output_schema(schema);
    }
    if let Some(pages) = draft
        .pages
        .as_ref()
        .and_then(|f| f.pagination(&draft.params))
    {
        e = e.pagination(pages);
    }
    e
}

/// Model-facing parameter names made unique per endpoint: the first keeps the name, a later
/// one is `{name}_{location}`, then `_2`, `_3` (wire names untouched).
pub(super) fn unique_params(params: &mut [ParamOut]) {
    // A set: an operation may have 100,000 parameters.
    let mut taken = Names::default();
    for p in params.iter_mut() {
        if taken.contains(&p.name) {
            let with_location = naming::fit(
                &format!("{}_{}", p.name, p.location.as_str()),
                &p.wire,
                crate::tool::MAX_NAME_LEN,
            );
            p.name = taken.unique(&with_location);
        }
        taken.take(&p.name);
    }
}

fn location_rank(location: Location) -> u8 {
    match location {
        Location::Path => 0,
        Location::Query => 1,
        Location::Header => 2,
        Location::Cookie => 3,
        _ => 4,
    }
}
