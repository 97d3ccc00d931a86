//! Answer framing: `=id answer` or `?id message`, closed by one empty line.

use std::io::{self, Write};

/// The text of an answer: `=` or `?`, the id, then a space and the answer
/// unless it is empty or starts with a line break. Empty lines inside the
/// answer are dropped, so the closing empty line is the only one.
pub fn format(id: Option<&str>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text.as_str()),
        Err(message) => ('?', message.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    let first = lines.next().unwrap_or("");
    if !first.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in lines.filter(|l| !l.is_empty()) {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// Writes answers and flushes after each one.
pub struct Responder<W: Write> {
    out: W,
}

impl<W: Write> Responder<W> {
    pub fn new(out: W) -> Responder<W> {
        Responder { out }
    }

    pub fn answer(&mut self, id: Option<&str>, result: &Result<String, String>) -> io::Result<()> {
        let text = format(id, result);
        log::debug!("answer {:?}", text);
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn framing() {
        assert_eq!(format(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format(Some("5"), &Ok("2".into())), "=5 2\n\n");
        assert_eq!(
            format(Some("7"), &Err("unknown command".into())),
            "?7 unknown command\n\n"
        );
        assert_eq!(format(None, &Ok("a\n\nb\n".into())), "= a\nb\n\n");
        assert_eq!(
            format(None, &Ok("\nrow 1\nrow 2".into())),
            "=\nrow 1\nrow 2\n\n"
        );
    }
}
