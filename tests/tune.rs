//! `mollett tune`: SPSA over the match runner, on a fake engine whose
//! strength peaks at a known option value, and briefly on Mollett itself.

mod common;

use common::*;
use std::path::Path;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `name=value` of a tuning line.
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {name} in '{line}'"))
}

/// Iteration lines of a tuning file (the header left out).
fn iterations(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out).unwrap();
    let mut lines = text.lines();
    assert!(
        lines.next().unwrap().starts_with("# mollett tune "),
        "{text}"
    );
    lines.map(str::to_string).collect()
}

/// The fake engine lasts longer the closer its `skill` is to 7 (`--peak 7`)
/// and resigns when it runs out: starting from 2, SPSA climbs toward 7 and
/// never steps away from it; `other`, which does nothing, stays near 5.
/// A run resumed from its first two lines ends as the whole run did.
#[test]
fn skill_climbs_toward_the_peak_and_resumes_the_same() {
    let dir = tmpdir("tune-fake");
    let engine = format!("name=fake cmd={}", fake("--peak 7"));
    let out = dir.join("tune.txt");
    let args = |out: &Path| -> Vec<String> {
        [
            "tune",
            "--engine",
            &engine,
            "--param",
            "skill=2.0,0,10,1,0.3",
            "--param",
            "other=5,0,10,1",
            "--iterations",
            "5",
            "--seed",
            "3",
            "--out",
            path_str(out),
        ]
        .map(str::to_string)
        .to_vec()
    };
    let run = |args: &[String]| mollett_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let stdout = run(&args(&out));

    let lines = iterations(&out);
    assert_eq!(lines.len(), 5, "{lines:?}");
    let mut skill = 2.0;
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(field(line, "iter"), (k + 1).to_string());
        let now: f64 = field(line, "skill").parse().unwrap();
        assert!(now >= skill && now <= 10.0, "{lines:?}");
        skill = now;
        let other: f64 = field(line, "other").parse().unwrap();
        assert!((other - 5.0).abs() < 0.5, "{lines:?}");
    }
    assert!(skill > 5.0, "{lines:?}");
    // The final values, rounded for the integer option.
    let last = lines.last().unwrap();
    let want = format!(
        "set_option skill {}\nset_option other {}\n",
        format!("{:.6}", field(last, "skill").parse::<f64>().unwrap())
            .trim_end_matches('0')
            .trim_end_matches('.'),
        field(last, "other").parse::<f64>().unwrap().round()
    );
    assert_eq!(stdout, want);

    // An existing file is not overwritten without --resume...
    let o = mollett(&args(&out).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    assert_eq!(iterations(&out).len(), 5);
    // ...and with it, continues after the last line it holds.
    let text = std::fs::read_to_string(&out).unwrap();
    let cut = dir.join("cut.txt");
    let head: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&cut, head.join("\n") + "\n").unwrap();
    let mut resume = args(&cut);
    resume.push("--resume".into());
    assert_eq!(run(&resume), stdout);
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
    // A header that differs (another seed) is refused.
    let mut other_seed = args(&cut);
    other_seed[10] = "4".into();
    other_seed.push("--resume".into());
    let o = mollett(&other_seed.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!o.status.success());
}

/// Two quick iterations on Mollett with an integer and a float option, one
/// of them starting at its maximum: the output's format, values in range.
#[test]
fn mollett_two_iterations() {
    let dir = tmpdir("tune-mollett");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f5d6c3d3c4\nf5f6e6f4\nf5d6c5f4e3\n").unwrap();
    let out = dir.join("tune.txt");
    let engine = format!(
        "name=m cmd={} time=frac init=set_option endgame 10",
        mollett_bin()
    );
    let o = mollett(&[
        "tune",
        "--engine",
        &engine,
        "--param",
        "depth=3,1,3,1",
        "--param",
        "randomness=1.0,0,2,0.5,0.05",
        "--iterations",
        "2",
        "--tc",
        "10+0.05",
        "--openings",
        path_str(&openings),
        "--seed",
        "1",
        "--out",
        path_str(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = iterations(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let w: Vec<u32> = field(line, "wdl")
            .split('-')
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(w.iter().sum::<u32>(), 2, "{line}");
        assert_eq!(
            field(line, "result"),
            format!("{:+}", w[0] as i32 - w[2] as i32)
        );
        let depth: f64 = field(line, "depth").parse().unwrap();
        let randomness: f64 = field(line, "randomness").parse().unwrap();
        assert!((1.0..=3.0).contains(&depth), "{line}");
        assert!((0.0..=2.0).contains(&randomness), "{line}");
    }
    let err = stderr(&o);
    assert!(err.contains("[1/2] ") && err.contains("[2/2] "), "{err}");
    // No game lost on time or by a refused value.
    assert!(!err.contains("(time)") && !err.contains("(crash)"), "{err}");
    let stdout = stdout(&o);
    let set: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(set.len(), 2, "{stdout}");
    assert_eq!(set[0][..2], ["set_option", "depth"]);
    let depth: u32 = set[0][2].parse().expect("an integer");
    assert!((1..=3).contains(&depth), "{stdout}");
    assert_eq!(set[1][..2], ["set_option", "randomness"]);
    let randomness: f64 = set[1][2].parse().unwrap();
    assert!((0.0..=2.0).contains(&randomness), "{stdout}");
}
