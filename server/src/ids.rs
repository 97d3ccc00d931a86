//! Room ids and seat tokens: 128 bits from the OS's randomness, as 32
//! lowercase hex characters, so neither can be guessed.

/// A fresh 128-bit random id.
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    // Without OS randomness the ids could be guessed: better to stop.
    getrandom::fill(&mut bytes).expect("the OS's random number source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// True for a string shaped like an id (checked before any lookup).
pub fn looks_like_id(s: &str) -> bool {
    s.len() == 32
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A coin toss from the same source (the creator's colour when "random").
pub fn coin() -> bool {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).expect("the OS's random number source is available");
    b[0] & 1 == 1
}
