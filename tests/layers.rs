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
    assert!(g["protocol::gtp::exec"].contains("protocol::session"));
}

// ---- The page (web/www): plain ES modules, checked the same way ----

/// The `./` or `../` modules that `text` imports (`import … from "…"` and
/// `export … from "…"`), as paths relative to web/www. A dynamic
/// `import(…)` (a language's table) is loaded on demand and not counted.
fn js_imports(file: &str, text: &str) -> BTreeSet<String> {
    let dir = Path::new(file).parent().unwrap_or(Path::new(""));
    let mut out = BTreeSet::new();
    for line in without_comments(text).lines() {
        let line = line.trim();
        if !(line.starts_with("import ")
            || line.starts_with("export ")
            || line.starts_with("} from"))
        {
            continue;
        }
        let Some(i) = line.find("from \"") else {
            continue;
        };
        let target = &line[i + 6..];
        let Some(end) = target.find('"') else {
            continue;
        };
        let target = &target[..end];
        if !target.starts_with('.') {
            continue;
        }
        let mut parts: Vec<&str> = dir.iter().map(|p| p.to_str().unwrap()).collect();
        for seg in target.split('/') {
            match seg {
                "." => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        out.insert(parts.join("/"));
    }
    out
}

fn js_files(dir: &Path, www: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            js_files(&path, www, out);
        } else if path.extension().is_some_and(|e| e == "js") {
            let rel = path.strip_prefix(www).unwrap();
            out.push(rel.to_str().unwrap().replace('\\', "/"));
        }
    }
}

fn web_graph() -> BTreeMap<String, BTreeSet<String>> {
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/www");
    let mut files = Vec::new();
    js_files(&www, &www, &mut files);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(www.join(&f)).unwrap();
            let deps = js_imports(&f, &text);
            (f, deps)
        })
        .collect()
}

/// The import cycles of `g`: each strongly connected component of more
/// than one module (or a module importing itself), its modules sorted.
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Modules that reach each other are one component: `a` and `b` share
    // one when each reaches the other. The page has a few dozen modules,
    // so reachability by search from each is cheap enough.
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = g.get(from).into_iter().flatten().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(g.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for (m, r) in &reaches {
        if done.contains(*m) || !r.contains(*m) {
            continue;
        }
        let comp: Vec<String> = r
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|ro| ro.contains(*m)))
            .cloned()
            .collect();
        done.extend(comp.iter().cloned());
        out.push(comp);
    }
    out
}

/// A folder of the page imports only itself and `shared/`; `shared/`
/// imports only itself (nothing imports back up, no page another's).
fn folder_of(file: &str) -> &str {
    file.rsplit_once('/')
        .map_or("", |(d, _)| d.split('/').next().unwrap())
}

/// Modules that act on the game (engine, history, storage, records, the
/// controller's writes): a view draws and is handed its handlers, so it
/// imports none of these.
const WEB_ACTS: [&str; 10] = [
    "board/actions.js",
    "board/ctrl.js",
    "board/address.js",
    "board/games.js",
    "board/records.js",
    "board/review.js",
    "board/session.js",
    "board/settings.js",
    "board/app.js",
    "room/room.js",
];

/// A module that draws: the board page's `view/`, the room's view, and
/// `shared/` (which the pages' views use).
fn is_view(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or("");
    file.starts_with("board/view/") || name == "roomview.js" || file.starts_with("shared/")
}

/// The lines of `text` that write the board page's state `S` (state.js):
/// an assignment to `S.field…` (`=`, `+=`, `++`, …), or a call that
/// changes a field in place (`S.notes.push(…)`).
fn state_writes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in without_comments(text).lines() {
        let b = line.as_bytes();
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let mut i = 0;
        while let Some(at) = line[i..].find("S.").map(|k| k + i) {
            i = at + 2;
            if at > 0 && (ident(b[at - 1]) || b[at - 1] == b'.') {
                continue;
            }
            // The place written: S.a.b[c].d
            let mut j = at + 1;
            let mut depth = 0;
            while j < b.len() {
                match b[j] {
                    b'[' => depth += 1,
                    b']' if depth > 0 => depth -= 1,
                    c if depth > 0 || c == b'.' || ident(c) => {}
                    _ => break,
                }
                j += 1;
            }
            let place = &line[at..j];
            let rest = line[j..].trim_start();
            let assigns = ["=", "+=", "-=", "*=", "/=", "||=", "&&=", "??=", "++", "--"]
                .iter()
                .any(|op| rest.starts_with(op))
                && !rest.starts_with("==")
                && !rest.starts_with("=>");
            let mutates = [
                ".push", ".pop", ".splice", ".shift", ".unshift", ".sort", ".fill",
            ]
            .iter()
            .any(|m| place.ends_with(m));
            if assigns || mutates {
                out.push(line.trim().to_string());
                break;
            }
        }
    }
    out
}

#[test]
fn the_page_writes_its_state_in_the_controller_only() {
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/www");
    let mut files = Vec::new();
    js_files(&www.join("board"), &www, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        if file == "board/ctrl.js" || file == "board/state.js" {
            continue;
        }
        let text = std::fs::read_to_string(www.join(file)).unwrap();
        for w in state_writes(&text) {
            let who = if is_view(file) {
                "a view"
            } else {
                "not the controller"
            };
            wrong.push(format!("{file} ({who}) writes the state: {w}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the page's state is written by board/ctrl.js alone:\n{}",
        wrong.join("\n")
    );
    assert!(files.iter().any(|f| f.starts_with("board/view/")));
}

#[test]
fn the_page_checker_sees_state_writes() {
    let text = "S.node = x;\nif (S.node === y) a = S.node;\n  S.reviewing.done += 1;\n\
                S.notes.push(t);\nS.editing.board[i] = 'X';\nconst f = (n) => S.hints;\n\
                // S.node = z;\nthis.S.x = 1; FOO_S.y = 2;";
    assert_eq!(
        state_writes(text),
        [
            "S.node = x;",
            "S.reviewing.done += 1;",
            "S.notes.push(t);",
            "S.editing.board[i] = 'X';"
        ]
    );
    assert!(is_view("board/view/moves.js") && !is_view("board/ctrl.js"));
}

#[test]
fn the_page_has_no_import_cycle() {
    let found = cycles(&web_graph());
    assert!(
        found.is_empty(),
        "web/www modules that import each other, directly or round a circle:\n{}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_page_imports_down_only() {
    let mut wrong = Vec::new();
    for (file, deps) in web_graph() {
        let mine = folder_of(&file);
        for dep in &deps {
            let theirs = folder_of(dep);
            let ok = theirs == mine || theirs == "shared";
            if !ok {
                wrong.push(format!("{file} imports {dep}"));
            }
            if is_view(&file) && WEB_ACTS.contains(&dep.as_str()) {
                wrong.push(format!("{file} (drawing) imports {dep} (acting)"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up or across:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_page_checker_sees_cycles() {
    // Guards the checks on a graph of their own: a -> b -> c -> a is one
    // cycle, d -> d another, e -> a none.
    let text = "import { x } from \"./b.js\";\nimport * as y from \"../shared/c.js\";\n// import { z } from \"./z.js\";";
    let deps = js_imports("board/a.js", text);
    assert_eq!(deps, ["board/b.js", "shared/c.js"].map(String::from).into());
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["d"]),
        ("e", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, d)| (m.to_string(), d.into_iter().map(String::from).collect()))
    .collect();
    let found = cycles(&g);
    assert_eq!(found, vec![vec!["a", "b", "c"], vec!["d"]]);
    assert_eq!(folder_of("board/view.js"), "board");
    assert!(web_graph()["board/app.js"].contains("shared/engine.js"));
}
