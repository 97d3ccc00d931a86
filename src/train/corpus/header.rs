//! A corpus file's header line: how its games were made.

use crate::rules::color::Variant;

/// First word of a corpus header.
pub const MAGIC: &str = "# mollett-corpus 1";

/// How a corpus file's games were made (its header line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: Variant,
    /// Games are exact (perfect play) from this many empties down.
    pub exact: u32,
    /// The whole `key=value` list, compared when a run appends.
    pub fields: Vec<(String, String)>,
}

impl Header {
    pub fn new(variant: Variant, exact: u32, more: &[(&str, String)]) -> Header {
        let mut fields = vec![
            ("variant".to_string(), variant.name().to_string()),
            ("exact".to_string(), exact.to_string()),
        ];
        fields.extend(more.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Header {
            variant,
            exact,
            fields,
        }
    }

    pub fn to_line(&self) -> String {
        let mut s = MAGIC.to_string();
        for (k, v) in &self.fields {
            s.push_str(&format!(" {k}={v}"));
        }
        s
    }

    pub fn parse(line: &str) -> Result<Header, String> {
        let rest = line
            .strip_prefix(MAGIC)
            .ok_or_else(|| format!("not a corpus header (expected '{MAGIC} ...')"))?;
        let mut fields = Vec::new();
        for word in rest.split_whitespace() {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("bad header field '{word}'"))?;
            fields.push((k.to_string(), v.to_string()));
        }
        let get = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("header has no {key}="))
        };
        let variant = Variant::parse(get("variant")?).ok_or("header: bad variant")?;
        let exact = get("exact")?.parse().map_err(|_| "header: bad exact")?;
        Ok(Header {
            variant,
            exact,
            fields,
        })
    }

    /// The value of `key`, if the header has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A chunk's range of game indices, from its header's `chunk=` field.
pub fn chunk_range(header: &Header) -> Option<(u64, u64)> {
    let (a, b) = header.get("chunk")?.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}
