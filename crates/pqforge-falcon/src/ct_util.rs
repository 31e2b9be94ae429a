//! Small constant-time helpers shared by keygen and signing.

/// Declassifies a secret-derived decision bit (rejection-loop accept bits,
/// validity of a key encoding). Every call site says why it is public.
#[inline(always)]
pub(crate) fn declassify_bool(b: bool) -> bool {
    pqforge_core::ctgrind::declassify_val(u8::from(b)) != 0
}

/// Marks a byte buffer public (a deliberate declassification).
#[inline(always)]
pub(crate) fn declassify(b: &mut [u8]) {
    pqforge_core::ctgrind::declassify(b);
}
