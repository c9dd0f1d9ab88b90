//! The files of `src/plugin/` use each other without a circle (`builder` -> `compile` ->
//! `validate` -> `builder` was one once), and its phase folders are layers: `declare/`, then
//! `call/`, then `build/`. Reads the sources: every `super::name` and
//! `crate::plugin::name` outside comments and `#[cfg(test)]` modules is an edge, a name
//! re-exported by `plugin/mod.rs` counting as the file it comes from.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Module name (`builder`, `file/read`) -> source text before its `#[cfg(test)]`.
fn sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/plugin");
    let mut out = BTreeMap::new();
    let mut dirs = vec![(root.clone(), String::new())];
    while let Some((dir, prefix)) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                dirs.push((path, format!("{}{}/", prefix, name)));
                continue;
            }
            if path.extension().map_or(true, |e| e != "rs") {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            out.insert(format!("{}{}", prefix, name), code);
        }
    }
    out
}

/// `pub use self::path::to::module::{A, B}` lines of `mod.rs`: item -> module file.
fn reexports(mod_rs: &str, modules: &[String]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = mod_rs;
    while let Some(i) = rest.find("use self::") {
        let after = &rest[i + "use self::".len()..];
        let end = after.find(';').unwrap();
        let (module, items) = resolve(&after[..end], "", modules);
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim();
            if !item.is_empty() {
                if let Some(module) = &module {
                    out.insert(item.to_string(), module.clone());
                }
            }
        }
        rest = &after[end..];
    }
    out
}

/// The file a path (`build::compile::Compiled`, `naming`) names from `base`, and the rest of
/// the path after it: segments are followed while they name a folder.
fn resolve<'a>(path: &'a str, base: &str, modules: &[String]) -> (Option<String>, &'a str) {
    let mut dir = base.to_string();
    let mut rest = path;
    loop {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let candidate = format!("{}{}", dir, name);
        let after = &rest[name.len()..];
        let after = after.strip_prefix("::").unwrap_or(after);
        if modules.contains(&format!("{}/mod", candidate)) {
            if after.starts_with(|c: char| c.is_ascii_lowercase()) {
                dir = format!("{}/", candidate);
                rest = after;
                continue;
            }
            return (Some(format!("{}/mod", candidate)), after);
        }
        if modules.contains(&candidate) {
            return (Some(candidate), after);
        }
        return (None, rest);
    }
}

/// The plugin modules `code` names, resolved to their files.
fn uses(
    module: &str,
    code: &str,
    reexports: &BTreeMap<String, String>,
    modules: &[String],
) -> Vec<String> {
    let parent = match module.rsplit_once('/') {
        Some((dir, _)) => format!("{}/", dir),
        None => String::new(),
    };
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        for (prefix, base) in [("super::", parent.as_str()), ("crate::plugin::", "")] {
            let mut rest = line;
            while let Some(i) = rest.find(prefix) {
                rest = &rest[i + prefix.len()..];
                let (file, _) = resolve(rest, base, modules);
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let target = match file {
                    Some(file) => file,
                    None => match reexports.get(&name) {
                        Some(m) => m.clone(),
                        None => continue,
                    },
                };
                if target != module && !out.contains(&target) {
                    out.push(target);
                }
            }
        }
    }
    out
}

#[test]
fn plugin_modules_form_a_dag() {
    let sources = sources();
    let modules: Vec<String> = sources.keys().cloned().collect();
    let reexports = reexports(&sources["mod"], &modules);
    let graph: BTreeMap<&str, Vec<String>> = sources
        .iter()
        .map(|(m, code)| (m.as_str(), uses(m, code, &reexports, &modules)))
        .collect();
    assert!(graph["build/compile"].contains(&String::from("build/validate")));
    assert!(graph["build/builder"].contains(&String::from("build/compile")));
    assert!(graph["build/compile"].contains(&String::from("call/args")));
    // The phases are layers: a declaration uses no step of a call and nothing of the build,
    // and a step of a call uses nothing of the build.
    for (module, targets) in &graph {
        let below: &[&str] = match module.split('/').next() {
            Some("declare") => &["declare/"],
            Some("call") => &["declare/", "call/"],
            _ => continue,
        };
        for target in targets {
            assert!(
                target == "error" || below.iter().any(|b| target.starts_with(b)),
                "{} uses {}, a later phase",
                module,
                target
            );
        }
    }
    // Depth-first search with colours: a grey module reached again closes a circle.
    let mut colour: BTreeMap<&str, u8> = BTreeMap::new();
    for start in graph.keys() {
        if colour.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        colour.insert(start, 1);
        while let Some(&mut (module, ref mut next)) = stack.last_mut() {
            match graph[module].get(*next) {
                Some(target) => {
                    *next += 1;
                    match colour.get(target.as_str()) {
                        Some(1) => {
                            let path: Vec<&str> = stack.iter().map(|(m, _)| *m).collect();
                            panic!("circle: {} -> {}", path.join(" -> "), target);
                        }
                        Some(_) => {}
                        None => {
                            colour.insert(target.as_str(), 1);
                            stack.push((target.as_str(), 0));
                        }
                    }
                }
                None => {
                    colour.insert(module, 2);
                    stack.pop();
                }
            }
        }
    }
}
