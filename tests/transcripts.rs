//! The transcripts in `protocol.md` and README's session run against the
//! engine, so the documents cannot go stale; and every command and option
//! has its documentation.

mod common;

use mollett::protocol::{COMMANDS, OPTIONS};
use mollett::Variant;

const DOC: &str = include_str!("../protocol.md");
const README: &str = include_str!("../README.md");

struct Transcript {
    line: usize,
    variant: Variant,
    input: String,
    expected: String,
}

/// Fenced blocks whose info string starts with `transcript`: lines starting
/// with `> ` are input, the rest expected output.
fn transcripts(doc: &str) -> Vec<Transcript> {
    let mut found = Vec::new();
    let mut current: Option<Transcript> = None;
    for (n, line) in doc.lines().enumerate() {
        match current.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```transcript") {
                    let variant = match info.trim() {
                        "" => Variant::Modern,
                        v => Variant::parse(v)
                            .unwrap_or_else(|| panic!("line {}: unknown variant {v}", n + 1)),
                    };
                    current = Some(Transcript {
                        line: n + 1,
                        variant,
                        input: String::new(),
                        expected: String::new(),
                    });
                }
            }
            Some(t) => {
                if line == "```" {
                    found.push(current.take().unwrap());
                } else if let Some(input) = line.strip_prefix("> ") {
                    t.input.push_str(input);
                    t.input.push('\n');
                } else {
                    t.expected.push_str(line);
                    t.expected.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "unclosed transcript block");
    found
}

#[test]
fn protocol_md_transcripts_hold() {
    let all = transcripts(DOC);
    assert!(all.len() >= 5, "transcripts missing from protocol.md");
    check(all);
}

#[test]
fn the_readme_session_holds() {
    let all = transcripts(README);
    assert_eq!(all.len(), 1, "README's session is one transcript block");
    check(all);
}

fn check(all: Vec<Transcript>) {
    for t in all {
        assert!(
            t.expected.ends_with("\n\n"),
            "transcript at line {}: the last answer needs its empty line",
            t.line
        );
        let out = common::run_bytes(t.variant, t.input.as_bytes());
        if out != t.expected {
            let (exp, got) = (common::answers(&t.expected), common::answers(&out));
            for (i, (e, g)) in exp.iter().zip(&got).enumerate() {
                assert_eq!(
                    g,
                    e,
                    "transcript at line {}: answer {} differs",
                    t.line,
                    i + 1
                );
            }
            panic!(
                "transcript at line {}: {} answers expected, {} given\n{out}",
                t.line,
                exp.len(),
                got.len()
            );
        }
    }
}

#[test]
fn every_command_and_option_is_documented() {
    for c in COMMANDS {
        assert!(
            DOC.contains(&format!("#### `{}", c.name)),
            "command {} has no section in protocol.md",
            c.name
        );
    }
    for o in OPTIONS {
        let row = format!("| `{}` |", o.name);
        let line = DOC
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("option {} not in the table", o.name));
        let default = line.split('|').nth(3).unwrap().trim().trim_matches('`');
        assert_eq!(
            default,
            o.default_text(),
            "option {}: documented default",
            o.name
        );
        assert!(
            line.contains(o.description),
            "option {}: documented description",
            o.name
        );
    }
}
