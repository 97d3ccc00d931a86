//! Static evaluation. STUB: to be written by the search work.
