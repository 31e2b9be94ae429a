//! The C boundary driven from Rust through raw pointers, as a C caller
//! would: in-place signing and opening (`m` inside `sm`), outputs that
//! overlap inputs, NULL and wrong sizes, the randombytes callback.
//!
//! Small on purpose: `scripts/miri.sh pqforge-capi` runs these under Miri,
//! which checks what the compiler cannot (every `from_raw_parts`, the
//! callback's function-pointer round trip, that no `&mut` output is made
//! while an overlapping input is still borrowed). ML-KEM-512 and ML-DSA-44
//! are the cheapest sets of the two kinds under Miri's interpreter.

use core::ffi::{CStr, c_int};
use core::ptr::{null, null_mut};

use super::*;

const OK: c_int = PQFORGE_OK as c_int;

/// The counter of [`counter_bytes`].
static NEXT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The callback of the deterministic test: a counter stream.
unsafe extern "C" fn counter_bytes(buf: *mut u8, len: usize) -> c_int {
    for i in 0..len {
        // SAFETY: the callback's contract: `buf` has `len` writable bytes.
        unsafe { *buf.add(i) = NEXT.fetch_add(1, Ordering::Relaxed) };
    }
    0
}

/// A callback that fails: the operation must fail and wipe its outputs.
unsafe extern "C" fn failing_bytes(_buf: *mut u8, _len: usize) -> c_int {
    1
}

/// The callback is global: tests that draw randomness hold this lock, so
/// that none runs while another has a failing or counter callback
/// installed.
fn callback_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn kem_roundtrip_with_overlapping_output() {
    let _g = callback_lock();
    let mut pk = vec![0u8; PQFORGE_MLKEM512_CRYPTO_PUBLICKEYBYTES];
    let mut sk = vec![0u8; PQFORGE_MLKEM512_CRYPTO_SECRETKEYBYTES];
    let mut ct = vec![0u8; PQFORGE_MLKEM512_CRYPTO_CIPHERTEXTBYTES];
    let mut ss = [0u8; PQFORGE_MLKEM512_CRYPTO_BYTES];
    // SAFETY: every buffer has the set's size.
    unsafe {
        assert_eq!(
            pqforge_mlkem512_crypto_kem_keypair(pk.as_mut_ptr(), sk.as_mut_ptr()),
            OK
        );
        assert_eq!(
            pqforge_mlkem512_crypto_kem_enc(ct.as_mut_ptr(), ss.as_mut_ptr(), pk.as_ptr()),
            OK
        );
    }
    // The shared secret written over the start of the ciphertext it is
    // decapsulated from (inputs are copied in before any output is made).
    let mut buf = ct.clone();
    let p = buf.as_mut_ptr();
    // SAFETY: `buf` has the ciphertext's size, more than the secret's.
    let rc = unsafe { pqforge_mlkem512_crypto_kem_dec(p, p, sk.as_ptr()) };
    assert_eq!(rc, OK);
    assert_eq!(buf[..32], ss);
    // NULL in any position is an error, never a dereference.
    // SAFETY: NULL is allowed by the contract's checks.
    unsafe {
        let e = PQFORGE_ERR_NULL as c_int;
        assert_eq!(
            pqforge_mlkem512_crypto_kem_dec(null_mut(), ct.as_ptr(), sk.as_ptr()),
            e
        );
        assert_eq!(
            pqforge_mlkem512_crypto_kem_dec(ss.as_mut_ptr(), null(), sk.as_ptr()),
            e
        );
        assert_eq!(
            pqforge_mlkem512_crypto_kem_enc(ct.as_mut_ptr(), ss.as_mut_ptr(), null()),
            e
        );
    }
}

#[test]
fn sign_and_open_in_place() {
    let _g = callback_lock();
    let mut pk = vec![0u8; PQFORGE_MLDSA44_CRYPTO_PUBLICKEYBYTES];
    let mut sk = vec![0u8; PQFORGE_MLDSA44_CRYPTO_SECRETKEYBYTES];
    let msg = b"signed in place";
    let n = PQFORGE_MLDSA44_CRYPTO_BYTES + msg.len();
    // pqm4 / PQClean's layout: the message at sm + CRYPTO_BYTES.
    let mut buf = vec![0u8; n];
    buf[PQFORGE_MLDSA44_CRYPTO_BYTES..].copy_from_slice(msg);
    let mut out_of_place = vec![0u8; n];
    let (mut smlen, mut smlen2, mut mlen) = (0usize, 0usize, 0usize);
    // SAFETY: every buffer has the size the NIST API states; the in-place
    // call passes `m` inside `sm`, which the contract allows.
    unsafe {
        assert_eq!(
            pqforge_mldsa44_crypto_sign_keypair(pk.as_mut_ptr(), sk.as_mut_ptr()),
            OK
        );
        // The same randomness for both signatures (hedged signing).
        let old = pqforge_set_randombytes(Some(counter_bytes));
        NEXT.store(0, Ordering::Relaxed);
        let p = buf.as_mut_ptr();
        let m = p.add(PQFORGE_MLDSA44_CRYPTO_BYTES).cast_const();
        assert_eq!(
            pqforge_mldsa44_crypto_sign(p, &raw mut smlen, m, msg.len(), sk.as_ptr()),
            OK
        );
        NEXT.store(0, Ordering::Relaxed);
        assert_eq!(
            pqforge_mldsa44_crypto_sign(
                out_of_place.as_mut_ptr(),
                &raw mut smlen2,
                msg.as_ptr(),
                msg.len(),
                sk.as_ptr()
            ),
            OK
        );
        pqforge_set_randombytes(old);
        assert_eq!((smlen, smlen2), (n, n));
        assert!(buf == out_of_place, "in place and out of place differ");
        // Open in place (`m == sm`).
        let p = buf.as_mut_ptr();
        assert_eq!(
            pqforge_mldsa44_crypto_sign_open(p, &raw mut mlen, p, smlen, pk.as_ptr()),
            OK
        );
        assert_eq!((mlen, &buf[..mlen]), (msg.len(), &msg[..]));
        // A changed signed message: an error, `m` wiped, `*mlen` 0.
        out_of_place[0] ^= 1;
        let mut m2 = vec![0xAAu8; n];
        assert_eq!(
            pqforge_mldsa44_crypto_sign_open(
                m2.as_mut_ptr(),
                &raw mut mlen,
                out_of_place.as_ptr(),
                smlen2,
                pk.as_ptr()
            ),
            PQFORGE_ERR_VERIFICATION as c_int
        );
        assert_eq!(mlen, 0);
        assert!(m2.iter().all(|&b| b == 0));
    }
}

#[test]
fn failing_callback_wipes_outputs() {
    let _g = callback_lock();
    let mut pk = vec![0x55u8; PQFORGE_MLKEM512_CRYPTO_PUBLICKEYBYTES];
    let mut sk = vec![0x55u8; PQFORGE_MLKEM512_CRYPTO_SECRETKEYBYTES];
    // SAFETY: the buffers have the set's sizes; the callback is valid.
    let rc = unsafe {
        let old = pqforge_set_randombytes(Some(failing_bytes));
        let rc = pqforge_mlkem512_crypto_kem_keypair(pk.as_mut_ptr(), sk.as_mut_ptr());
        pqforge_set_randombytes(old);
        rc
    };
    assert_eq!(rc, PQFORGE_ERR_RNG as c_int);
    assert!(pk.iter().chain(&sk).all(|&b| b == 0));
}

#[test]
fn by_name_handles_and_errors() {
    // SAFETY: NUL-terminated names or NULL; handles from `_new`.
    unsafe {
        assert!(pqforge_kem_new(null()).is_null());
        assert!(pqforge_kem_new(c"no-such-kem".as_ptr()).is_null());
        assert!(pqforge_kem_new(c"ml-dsa-44".as_ptr()).is_null());
        let k = pqforge_kem_new(c"MLKEM512".as_ptr());
        assert!(!k.is_null());
        assert_eq!(
            CStr::from_ptr(pqforge_kem_name(k)).to_str(),
            Ok("ml-kem-512")
        );
        assert_eq!(pqforge_kem_size(k, PQFORGE_CIPHERTEXT_BYTES), 768);
        assert_eq!(pqforge_kem_size(k, 99), 0);
        assert_eq!(pqforge_kem_size(null(), PQFORGE_CIPHERTEXT_BYTES), 0);
        assert!(pqforge_kem_name(null()).is_null());
        // A wrong length is an error before any byte is read.
        let mut ss = [0u8; 32];
        let ct = [0u8; 8];
        let sk = [0u8; 8];
        assert_eq!(
            pqforge_kem_decaps(
                k,
                ss.as_mut_ptr(),
                32,
                ct.as_ptr(),
                ct.len(),
                sk.as_ptr(),
                8
            ),
            PQFORGE_ERR_LENGTH as c_int
        );
        // A length no allocation can have, with a dangling pointer.
        assert_eq!(
            pqforge_kem_decaps(
                k,
                ss.as_mut_ptr(),
                32,
                ct.as_ptr(),
                usize::MAX,
                sk.as_ptr(),
                8
            ),
            PQFORGE_ERR_LENGTH as c_int
        );
        let s = pqforge_sig_new(c"ml-dsa-44".as_ptr());
        assert!(!s.is_null());
        let mut sig_len = 10usize;
        let mut sig = [0u8; 10];
        assert_eq!(
            pqforge_sig_sign(
                s,
                sig.as_mut_ptr(),
                null_mut(),
                null(),
                0,
                null(),
                0,
                null(),
                0
            ),
            PQFORGE_ERR_NULL as c_int
        );
        assert_ne!(
            pqforge_sig_sign(
                s,
                sig.as_mut_ptr(),
                &raw mut sig_len,
                null(),
                0,
                null(),
                0,
                sk.as_ptr(),
                sk.len()
            ),
            OK
        );
        assert_eq!(sig_len, 0);
        let st = CStr::from_ptr(pqforge_strerror(PQFORGE_ERR_NULL as c_int));
        assert_eq!(st.to_str(), Ok("NULL pointer"));
        for i in 0..pqforge_algorithm_count() {
            assert!(!pqforge_algorithm_name(i).is_null());
        }
        assert!(pqforge_algorithm_name(usize::MAX).is_null());
    }
}
