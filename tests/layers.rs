//! The architecture, kept: each layer of `src/` imports only the layers
//! below it (rules < engine < protocol < tournament < train), and no two
//! modules import each other. `rng` and `files` are leaves any layer may use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module's layer is its first path segment.
const LAYERS: [&str; 5] = ["rules", "engine", "protocol", "tournament", "train"];

fn rank(module: &str) -> Option<usize> {
    let top = module.split("::").next()?;
    LAYERS.iter().position(|&l| l == top)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/engine/search/mod.rs` -> `engine::search`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The modules a file's code (tests excluded) names through `crate::` or
/// `super::` paths, resolved to the longest known module.
fn imports(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = BTreeSet::new();
    // `super` is the parent module, for `a/b.rs` and `a/b/mod.rs` alike.
    let mut parent: Vec<&str> = module.split("::").collect();
    parent.pop();
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent)] {
        for (i, _) in code.match_indices(prefix) {
            if prefix == "super::" && code[..i].ends_with("super::") {
                continue;
            }
            let rest: String = code[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut path: Vec<&str> = base.clone();
            path.extend(rest.split("::").filter(|s| !s.is_empty()));
            while !path.is_empty() {
                let candidate = path.join("::");
                if modules.contains(&candidate) {
                    if candidate != module {
                        out.insert(candidate);
                    }
                    break;
                }
                path.pop();
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    files
        .iter()
        .map(|f| {
            let module = module_of(&src, f);
            let text = std::fs::read_to_string(f).unwrap();
            let deps = imports(&module, &text, &modules);
            (module, deps)
        })
        .collect()
}

#[test]
fn no_layer_imports_one_above_it() {
    let mut wrong = Vec::new();
    for (module, deps) in graph() {
        let Some(mine) = rank(&module) else { continue };
        for dep in deps {
            if rank(&dep).is_some_and(|theirs| theirs > mine) {
                wrong.push(format!("{module} imports {dep}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports from a higher layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_modules_import_each_other() {
    let g = graph();
    let mut both = Vec::new();
    for (a, deps) in &g {
        for b in deps {
            // A module and its own submodules (`mod.rs` re-exports) are one unit.
            let nested = b.starts_with(&format!("{a}::")) || a.starts_with(&format!("{b}::"));
            if a < b && !nested && g.get(b).is_some_and(|d| d.contains(a)) {
                both.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(
        both.is_empty(),
        "modules that import each other:\n{}",
        both.join("\n")
    );
}

#[test]
fn the_checker_sees_imports() {
    // Guards the test itself: a known import must be found.
    let g = graph();
    assert!(
        g["engine::search"].contains("rules::position"),
        "{:?}",
        g["engine::search"]
    );
    assert!(g["protocol::gtp"].contains("protocol::session"));
}
