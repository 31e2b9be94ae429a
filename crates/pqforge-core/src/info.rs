//! [`AlgInfo`]: everything the registry, the CLI, the key-file code, the C
//! ABI and the Cortex-M4 harness need to know about one parameter set.
//!
//! Scheme crates build it with the `const` builder methods:
//!
//! ```
//! use pqforge_core::{AlgInfo, KatRng, KeyForms, Status};
//! const INFO: AlgInfo = AlgInfo::kem("ml-kem-768", "ML-KEM", 1184, 2400, 1088, 32, 3)
//!     .with_status(Status::Standard)
//!     .with_oid("2.16.840.1.101.3.4.4.2")
//!     .with_key_forms(KeyForms::SEED_AND_EXPANDED)
//!     .with_c_stem("mlkem768")
//!     .with_seeds(64, 32);
//! assert!(INFO.matches("ML-KEM-768") && INFO.matches("mlkem768") && INFO.matches("ml_kem_768"));
//! ```

use crate::sig::SignCaps;

/// KEM or signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Key-encapsulation mechanism.
    Kem,
    /// Digital signature.
    Sig,
}

impl Kind {
    /// `"kem"` or `"sig"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Kem => "kem",
            Kind::Sig => "sig",
        }
    }
}

/// Standardisation status of a parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Published standard (FIPS 203/204/205, or NIST-selected with final parameters).
    Standard,
    /// Draft or pre-standard revision: the bytes may still change.
    Draft,
    /// Published cryptanalysis questions its claimed security; use for
    /// interoperability and research only.
    AtRisk,
}

impl Status {
    /// `"standard"`, `"draft"` or `"at-risk"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Standard => "standard",
            Status::Draft => "draft",
            Status::AtRisk => "at-risk",
        }
    }
}

/// Which generator the official KAT files of a parameter set were made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KatRng {
    /// NIST PQCgenKAT AES-256-CTR DRBG ([`crate::kat::NistDrbg`]).
    NistDrbg,
    /// HQC's SHAKE256 generator ([`crate::kat::HqcPrng`]).
    HqcShake256,
    /// No `.rsp` KAT (the scheme is checked with other vector formats).
    None,
}

/// The private-key encodings a parameter set defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyForms {
    /// The key-generation seed is a private-key form (FIPS 203 `d || z`,
    /// FIPS 204 `ξ`): [`AlgInfo::keygen_seed_bytes`] long.
    pub seed: bool,
    /// The expanded encoding ([`AlgInfo::sk_bytes`] long) is a private-key form.
    pub expanded: bool,
}

impl KeyForms {
    /// Only the expanded encoding (HQC, Classic McEliece, Falcon, SLH-DSA).
    pub const EXPANDED: Self = Self {
        seed: false,
        expanded: true,
    };
    /// Seed and expanded encoding (ML-KEM per RFC 9935, ML-DSA per RFC 9881).
    pub const SEED_AND_EXPANDED: Self = Self {
        seed: true,
        expanded: true,
    };
}

/// Everything the registry knows about one parameter set.
///
/// `#[non_exhaustive]`: build it with [`AlgInfo::kem`] / [`AlgInfo::sig`] and
/// the `with_*` methods; read the public fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AlgInfo {
    /// Canonical name, as `pqforge list` prints it (`"hqc-1"`, `"ml-kem-768"`).
    pub name: &'static str,
    /// Scheme family (`"HQC"`, `"ML-KEM"`).
    pub family: &'static str,
    /// KEM or signature.
    pub kind: Kind,
    /// Public-key bytes.
    pub pk_bytes: usize,
    /// Secret-key bytes (expanded encoding).
    pub sk_bytes: usize,
    /// Ciphertext bytes (KEM; 0 for signatures).
    pub ct_bytes: usize,
    /// Maximum signature bytes (signature; 0 for KEMs).
    pub sig_bytes: usize,
    /// Shared-secret bytes (KEM; 0 for signatures).
    pub ss_bytes: usize,
    /// NIST security category (1..=5).
    pub category: u8,
    /// Standardisation status.
    pub status: Status,
    /// KAT generator of the official `.rsp` files.
    pub kat: KatRng,
    /// First line of the official `.rsp` file (e.g. `"# HQC-1"`).
    pub kat_header: &'static str,
    /// One line on the exact revision implemented.
    pub revision: &'static str,
    /// Other accepted names, besides the spellings [`AlgInfo::matches`]
    /// derives from [`AlgInfo::name`] and [`AlgInfo::c_stem`].
    pub aliases: &'static [&'static str],
    /// The object identifier (dotted decimal) where one is assigned.
    pub oid: Option<&'static str>,
    /// Which private-key encodings exist.
    pub key_forms: KeyForms,
    /// Stem of the set's C symbol names, by convention
    /// `pqforge_<stem>_<operation>` (e.g. `pqforge_mlkem768_keypair`); the C
    /// library that will export them is not built yet.
    pub c_stem: &'static str,
    /// The `pqforge` cargo feature that compiles this set in.
    pub feature: &'static str,
    /// Bytes of the key-generation seed (deterministic key generation).
    pub keygen_seed_bytes: usize,
    /// Bytes of the randomness of deterministic encapsulation (0: the
    /// standard defines none).
    pub encaps_seed_bytes: usize,
    /// The signing options a signature scheme accepts.
    pub sign: SignCaps,
}

impl AlgInfo {
    const fn base(name: &'static str, family: &'static str, kind: Kind, category: u8) -> Self {
        Self {
            name,
            family,
            kind,
            pk_bytes: 0,
            sk_bytes: 0,
            ct_bytes: 0,
            sig_bytes: 0,
            ss_bytes: 0,
            category,
            status: Status::Draft,
            kat: KatRng::None,
            kat_header: "",
            revision: "",
            aliases: &[],
            oid: None,
            key_forms: KeyForms::EXPANDED,
            c_stem: "",
            feature: "",
            keygen_seed_bytes: 0,
            encaps_seed_bytes: 0,
            sign: SignCaps::NONE,
        }
    }

    /// A KEM parameter set with its sizes (status draft, no KAT, until set).
    #[must_use]
    pub const fn kem(
        name: &'static str,
        family: &'static str,
        pk_bytes: usize,
        sk_bytes: usize,
        ct_bytes: usize,
        ss_bytes: usize,
        category: u8,
    ) -> Self {
        let mut i = Self::base(name, family, Kind::Kem, category);
        i.pk_bytes = pk_bytes;
        i.sk_bytes = sk_bytes;
        i.ct_bytes = ct_bytes;
        i.ss_bytes = ss_bytes;
        i
    }

    /// A signature parameter set with its sizes (`sig_bytes` is the
    /// maximum signature length).
    #[must_use]
    pub const fn sig(
        name: &'static str,
        family: &'static str,
        pk_bytes: usize,
        sk_bytes: usize,
        sig_bytes: usize,
        category: u8,
    ) -> Self {
        let mut i = Self::base(name, family, Kind::Sig, category);
        i.pk_bytes = pk_bytes;
        i.sk_bytes = sk_bytes;
        i.sig_bytes = sig_bytes;
        i
    }

    /// Sets the status.
    #[must_use]
    pub const fn with_status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }

    /// Sets the KAT generator and the first line of the official `.rsp`.
    #[must_use]
    pub const fn with_kat(mut self, kat: KatRng, header: &'static str) -> Self {
        self.kat = kat;
        self.kat_header = header;
        self
    }

    /// Sets the revision line.
    #[must_use]
    pub const fn with_revision(mut self, revision: &'static str) -> Self {
        self.revision = revision;
        self
    }

    /// Sets extra accepted names.
    #[must_use]
    pub const fn with_aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }

    /// Sets the OID (dotted decimal).
    #[must_use]
    pub const fn with_oid(mut self, oid: &'static str) -> Self {
        self.oid = Some(oid);
        self
    }

    /// Sets the private-key forms.
    #[must_use]
    pub const fn with_key_forms(mut self, forms: KeyForms) -> Self {
        self.key_forms = forms;
        self
    }

    /// Sets the C symbol stem.
    #[must_use]
    pub const fn with_c_stem(mut self, stem: &'static str) -> Self {
        self.c_stem = stem;
        self
    }

    /// Sets the cargo feature of the umbrella crate that enables the set.
    #[must_use]
    pub const fn with_feature(mut self, feature: &'static str) -> Self {
        self.feature = feature;
        self
    }

    /// Sets the lengths of the deterministic key-generation seed and of the
    /// deterministic encapsulation randomness (0 if none is defined).
    #[must_use]
    pub const fn with_seeds(mut self, keygen: usize, encaps: usize) -> Self {
        self.keygen_seed_bytes = keygen;
        self.encaps_seed_bytes = encaps;
        self
    }

    /// Sets the accepted signing options.
    #[must_use]
    pub const fn with_sign_caps(mut self, caps: SignCaps) -> Self {
        self.sign = caps;
        self
    }

    /// Whether `name` names this set: the canonical name, the C stem or an
    /// alias, compared case-insensitively and ignoring `-`, `_`, `.`, `/`
    /// and spaces (`ML-KEM-768`, `mlkem768` and `ml_kem_768` all match
    /// `ml-kem-768`).
    #[must_use]
    pub fn matches(&self, name: &str) -> bool {
        self.names().any(|n| crate::names::same_name(n, name))
    }

    /// The canonical name, the C stem and the aliases.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + Clone + use<> {
        let (name, stem, aliases) = (self.name, self.c_stem, self.aliases);
        core::iter::once(name)
            .chain((!stem.is_empty()).then_some(stem))
            .chain(aliases.iter().copied())
    }
}
