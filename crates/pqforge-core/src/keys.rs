//! The shapes every typed key shares, written once for both contracts:
//! prepared views ([`crate::PreparedEk`], [`crate::PreparedVk`], ...),
//! public keys ([`crate::EncapsKey`], [`crate::VerifyingKey`]) and the
//! common part of secret keys ([`crate::DecapsKey`], [`crate::SigningKey`]).

/// A borrowed, checked key: its bytes and what `prepare_*` derived.
macro_rules! prepared_view {
    ($(#[$doc:meta])* $name:ident: $tr:ident, $bytes:ident, $state:ident, $prepare:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a, P: $tr> {
            bytes: &'a P::$bytes,
            state: &'a P::$state,
        }

        impl<'a, P: $tr> $name<'a, P> {
            pub(crate) fn new(bytes: &'a P::$bytes, state: &'a P::$state) -> Self {
                Self { bytes, state }
            }

            #[doc = concat!("The encoded key", $what, ".")]
            #[must_use]
            pub fn bytes(&self) -> &'a P::$bytes {
                self.bytes
            }

            #[doc = concat!("What [`", stringify!($tr), "::", stringify!($prepare), "`] derived", $what, ".")]
            #[must_use]
            pub fn state(&self) -> &'a P::$state {
                self.state
            }
        }
    };
}

/// An owned public key: bytes plus derived state, checked by `TryFrom`.
macro_rules! public_key {
    ($(#[$doc:meta])* $name:ident: $tr:ident, $bytes:ident, $state:ident, $view:ident, $prepare:ident) => {
        $(#[$doc])*
        pub struct $name<P: $tr> {
            pub(crate) bytes: P::$bytes,
            pub(crate) state: P::$state,
        }

        impl<P: $tr> $name<P> {
            /// An all-zero key with a default state (filled in place before use).
            pub(crate) fn blank() -> Self {
                Self {
                    bytes: <P::$bytes as $crate::ByteArray>::zeroed(),
                    state: <P::$state as Default>::default(),
                }
            }

            /// The encoded key.
            #[must_use]
            pub fn as_bytes(&self) -> &P::$bytes {
                &self.bytes
            }

            /// Overwrites the key with zeros and a default state (a signing
            /// key wipes the verifying key it carries, so that every byte
            /// of a dropped signing key reads back zero).
            #[allow(dead_code)]
            pub(crate) fn wipe(&mut self) {
                $crate::ct::wipe(self.bytes.as_mut());
                self.state = <P::$state as Default>::default();
                core::hint::black_box(&mut self.state);
            }

            /// The prepared form the in-place operations take.
            #[must_use]
            pub fn prepared(&self) -> $view<'_, P> {
                $view::new(&self.bytes, &self.state)
            }
        }

        impl<P: $tr> TryFrom<&[u8]> for $name<P> {
            type Error = $crate::Error;

            /// Checks the length and runs every check the standard asks for.
            ///
            /// # Errors
            /// [`Error::Length`](crate::Error::Length), [`Error::Encoding`](crate::Error::Encoding)
            /// or [`Error::InvalidKey`](crate::Error::InvalidKey).
            fn try_from(b: &[u8]) -> Result<Self, $crate::Error> {
                let (bytes, state) = $prepare::<P>(b)?;
                Ok(Self { bytes: *bytes, state })
            }
        }

        impl<P: $tr> AsRef<[u8]> for $name<P> {
            fn as_ref(&self) -> &[u8] {
                self.bytes.as_ref()
            }
        }

        impl<P: $tr> Clone for $name<P> {
            fn clone(&self) -> Self {
                Self { bytes: self.bytes, state: self.state.clone() }
            }
        }

        impl<P: $tr> PartialEq for $name<P> {
            fn eq(&self, other: &Self) -> bool {
                // Public data: an ordinary comparison.
                self.bytes.as_ref() == other.bytes.as_ref()
            }
        }

        impl<P: $tr> Eq for $name<P> {}

        impl<P: $tr> core::fmt::Debug for $name<P> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(
                    f,
                    concat!(stringify!($name), "<{}>({} bytes)"),
                    P::INFO.name,
                    <P::$bytes as $crate::ByteArray>::LEN
                )
            }
        }
    };
}

/// What secret keys share: `seed()`, `prepared()`, `AsRef`, wiping on drop
/// (bytes, state and seed) and a `Debug` that prints no secret.
macro_rules! secret_key_common {
    ($name:ident: $tr:ident, $bytes:ident, $view:ident $(, also wipes $extra:ident)?) => {
        impl<P: $tr> $name<P> {
            /// The encoded key (secret).
            #[must_use]
            pub fn as_bytes(&self) -> &P::$bytes {
                &self.bytes
            }

            /// The key-generation seed, if this key was generated from one
            /// and the seed is a private-key form of `P`
            /// ([`KeyForms::seed`](crate::KeyForms::seed)).
            #[must_use]
            pub fn seed(&self) -> Option<&P::KeygenSeed> {
                self.has_seed.then_some(&self.seed)
            }

            /// Rebuilds the key from its seed (`P::keygen_derand`).
            ///
            /// # Errors
            /// [`Error::Unsupported`](crate::Error::Unsupported) if the seed is
            /// not a private-key form of `P`.
            pub fn from_seed(seed: &P::KeygenSeed) -> Result<Self, $crate::Error> {
                if !P::INFO.key_forms.seed {
                    return Err($crate::Error::Unsupported {
                        alg: P::INFO.name,
                        what: "seed-form private keys",
                    });
                }
                Ok(P::keygen_derand(seed).1)
            }

            /// The prepared form the in-place operations take.
            #[must_use]
            pub fn prepared(&self) -> $view<'_, P> {
                $view::new(&self.bytes, &self.state)
            }
        }

        impl<P: $tr> AsRef<[u8]> for $name<P> {
            fn as_ref(&self) -> &[u8] {
                self.bytes.as_ref()
            }
        }

        impl<P: $tr> zeroize::Zeroize for $name<P> {
            fn zeroize(&mut self) {
                // One memset behind a barrier: volatile byte stores over a
                // 2-3 KB key cost ~4 % of an ML-KEM key generation.
                $crate::ct::wipe(self.bytes.as_mut());
                zeroize::Zeroize::zeroize(&mut self.state);
                // The seed field is wiped whether or not it holds a seed:
                // every byte of a dropped key reads back zero.
                $crate::ct::wipe(self.seed.as_mut());
                self.has_seed = false;
                $(self.$extra.wipe();)?
            }
        }

        impl<P: $tr> Drop for $name<P> {
            fn drop(&mut self) {
                zeroize::Zeroize::zeroize(self);
            }
        }

        impl<P: $tr> zeroize::ZeroizeOnDrop for $name<P> {}

        impl<P: $tr> core::fmt::Debug for $name<P> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($name), "<{}>(..)"), P::INFO.name)
            }
        }
    };
}

pub(crate) use {prepared_view, public_key, secret_key_common};
