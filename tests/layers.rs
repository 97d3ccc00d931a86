//! The architecture, kept: each layer of `src/` imports only the layers
//! below it (rules < engine < protocol < tournament < rooms < analyze <
//! train), no two modules import each other, and no module imports its
//! parent (a folder's `mod.rs`). `rng`, `files` and `clock` are leaves any layer may use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module's layer is its first path segment.
const LAYERS: [&str; 7] = [
    "rules",
    "engine",
    "protocol",
    "tournament",
    "rooms",
    "analyze",
    "train",
];

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
    graph_of(str::to_string)
}

/// `text` without its `//` comments, doc comments included: a doc link to
/// the parent (`[`super::Thing`]`) is not an import.
fn without_comments(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect();
    code.join("\n")
}

/// Each module's imports, read from `code(file text)`.
fn graph_of(code: fn(&str) -> String) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();
    files
        .iter()
        .map(|f| {
            let module = module_of(&src, f);
            let text = code(&std::fs::read_to_string(f).unwrap());
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

/// The folder of `module` (`a` for `a::b`), if it has one.
fn parent_of(module: &str) -> Option<&str> {
    module.rsplit_once("::").map(|(parent, _)| parent)
}

/// Modules allowed, for now, to import their parent, each with the reason:
/// a module's name, or `folder::*` for all the folder's children. The list
/// only shrinks.
const PARENT_IMPORTS_ALLOWED: [(&str, &str); 2] = [
    // Not imports at all: the checker reads files, not inline modules, and
    // `super::` inside bitboard.rs's `mod avx2` and inside endgame.rs's
    // `kernel!` modules names the file itself.
    ("rules::bitboard", "super:: inside its inline mod avx2"),
    (
        "engine::search::endgame",
        "super:: inside its kernel! modules",
    ),
];

#[test]
fn no_module_imports_its_parent() {
    let mut wrong = Vec::new();
    for (module, deps) in graph_of(without_comments) {
        let Some(parent) = parent_of(&module) else {
            continue;
        };
        let folder = format!("{parent}::*");
        if PARENT_IMPORTS_ALLOWED
            .iter()
            .any(|&(m, _)| m == module || m == folder)
        {
            continue;
        }
        if deps.contains(parent) {
            wrong.push(format!("{module} imports {parent}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "modules that import their parent (move what both need into a file of its own):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_parent_imports() {
    // Guards the test itself, on text of its own: `super::Thing` and
    // `crate::a::Thing` name the parent, `super::c::Thing` a sibling.
    let modules: BTreeSet<String> = ["a", "a::b", "a::c"].map(String::from).into();
    for text in ["use super::Thing;", "use crate::a::Thing;"] {
        assert!(imports("a::b", text, &modules).contains("a"), "{text}");
    }
    let sibling = imports("a::b", "use super::c::Thing;", &modules);
    assert!(!sibling.contains("a") && sibling.contains("a::c"));
    assert_eq!(parent_of("a::b"), Some("a"));
    // A doc link is not an import.
    let doc = without_comments("/// See [`super::Thing`].\nfn f() {}");
    assert!(imports("a::b", &doc, &modules).is_empty());
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
