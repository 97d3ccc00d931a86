//! `wss://` rooms: the TLS client settings (the web PKI's roots, plus a
//! private CA from `--ca`) and a failed handshake told in words.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::{CertificateError, ClientConfig, RootCertStore};
use std::path::Path;
use std::sync::Arc;

/// The client settings: servers whose certificate chains to a root of the
/// web PKI, or to a certificate of the PEM file `ca` (a private CA, or a
/// self-signed server certificate).
pub fn client_config(ca: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca {
        let shown = path.display();
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| format!("--ca {shown}: {}", pem_error(e)))?;
        if certs.is_empty() {
            return Err(format!("--ca {shown}: no certificate in it (a PEM file holds one or more 'BEGIN CERTIFICATE' blocks)"));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| format!("--ca {shown}: a certificate that cannot be used: {e}"))?;
        }
    }
    // ring, the provider compiled in (Cargo.toml says why). rustls 0.23.48
    // deprecated it for lacking post-quantum key exchange, which moves in a
    // game between friends do not need.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

fn pem_error(e: rustls::pki_types::pem::Error) -> String {
    use rustls::pki_types::pem::Error;
    match e {
        Error::Io(e) => e.to_string(),
        Error::NoItemsFound => "no certificate in it".to_string(),
        _ => "not a PEM certificate file".to_string(),
    }
}

/// A TLS failure in words, with what to do where there is something.
pub fn explain(e: &rustls::Error) -> String {
    let cert = |why: &str| format!("its certificate {why}");
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => cert(
                "is signed by an authority this machine does not trust: give that CA (or a self-signed certificate itself) with --ca FILE",
            ),
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                cert("was made for another name: use the host name the certificate names in the link")
            }
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                cert("has expired")
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                cert("is not valid yet (is this machine's clock right?)")
            }
            CertificateError::BadSignature => cert("has a bad signature"),
            CertificateError::InvalidPurpose | CertificateError::InvalidPurposeContext { .. } => {
                cert("is not one for a server (a CA certificate used as the server's?)")
            }
            other => cert(&format!("is refused ({other})")),
        },
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
            "it does not speak TLS there (a plain http:// server?)".to_string()
        }
        rustls::Error::AlertReceived(alert) => {
            format!("it refused the TLS handshake ({alert:?})")
        }
        other => format!("TLS failed ({other})"),
    }
}
