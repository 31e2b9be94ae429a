//! [`DynKem`] implementations and the registry statics.

use core::marker::PhantomData;

use pqforge_core::{AlgInfo, CryptoRng, DynKem, Error, check_len};

use crate::params::{
    McEliece348864, McEliece348864f, McEliece348864pc, McEliece348864pcf, McEliece460896,
    McEliece460896f, McEliece460896pc, McEliece460896pcf, McEliece6688128, McEliece6688128f,
    McEliece6688128pc, McEliece6688128pcf, McEliece6960119, McEliece6960119f, McEliece6960119pc,
    McEliece6960119pcf, McEliece8192128, McEliece8192128f, McEliece8192128pc, McEliece8192128pcf,
    ParameterSet,
};

/// The dynamic (byte-slice) interface of parameter set `P`.
pub struct McElieceKem<P>(PhantomData<fn() -> P>);

impl<P> McElieceKem<P> {
    /// The adapter.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<P> Default for McElieceKem<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: ParameterSet> DynKem for McElieceKem<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::INFO }
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        crate::keygen::<P, dyn CryptoRng>(rng, pk, sk)
    }

    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        check_len("shared secret buffer", 32, ss.len())?;
        let mut k = [0u8; 32];
        crate::encaps::<P, dyn CryptoRng>(rng, pk, ct, &mut k)?;
        ss.copy_from_slice(&k);
        zeroize::Zeroize::zeroize(&mut k);
        Ok(())
    }

    fn decaps(&self, sk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        check_len("shared secret buffer", 32, ss.len())?;
        let mut k = [0u8; 32];
        crate::decaps::<P>(sk, ct, &mut k)?;
        ss.copy_from_slice(&k);
        zeroize::Zeroize::zeroize(&mut k);
        Ok(())
    }
}

macro_rules! statics {
    ($($st:ident: $ty:ident;)*) => {$(
        #[doc = concat!("Registry entry of [`", stringify!($ty), "`].")]
        pub static $st: McElieceKem<$ty> = McElieceKem::new();
    )*};
}

statics! {
    MCELIECE348864: McEliece348864;
    MCELIECE348864F: McEliece348864f;
    MCELIECE460896: McEliece460896;
    MCELIECE460896F: McEliece460896f;
    MCELIECE6688128: McEliece6688128;
    MCELIECE6688128F: McEliece6688128f;
    MCELIECE6960119: McEliece6960119;
    MCELIECE6960119F: McEliece6960119f;
    MCELIECE8192128: McEliece8192128;
    MCELIECE8192128F: McEliece8192128f;
    MCELIECE348864PC: McEliece348864pc;
    MCELIECE348864PCF: McEliece348864pcf;
    MCELIECE460896PC: McEliece460896pc;
    MCELIECE460896PCF: McEliece460896pcf;
    MCELIECE6688128PC: McEliece6688128pc;
    MCELIECE6688128PCF: McEliece6688128pcf;
    MCELIECE6960119PC: McEliece6960119pc;
    MCELIECE6960119PCF: McEliece6960119pcf;
    MCELIECE8192128PC: McEliece8192128pc;
    MCELIECE8192128PCF: McEliece8192128pcf;
}
