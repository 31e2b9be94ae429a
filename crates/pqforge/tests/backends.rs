//! The backend each registered parameter set reports (what the benchmarks
//! print next to their figures): one of its crate's backends, available on
//! this CPU, the fastest available one (the dispatch's rule), and the one
//! the crate's own backend API names.

use pqforge::{Algorithm, FAMILIES, cpu};

/// The backend the crate of `family` says its dispatch picks, through the
/// crate's own API (`None` for a family without one: Falcon).
fn crate_says(family: &str) -> Option<&'static str> {
    Some(match family {
        #[cfg(feature = "hqc")]
        "hqc" => pqforge::hqc::testing::Backend::selected().name(),
        #[cfg(feature = "mlkem")]
        "mlkem" => pqforge::mlkem::backend_name(),
        #[cfg(feature = "mceliece")]
        "mceliece" => pqforge::mceliece::testing::available()
            .last()
            .copied()
            .unwrap_or("portable"),
        #[cfg(feature = "mldsa")]
        "mldsa" => pqforge::mldsa::Backend::selected().name(),
        #[cfg(feature = "slhdsa")]
        "slhdsa" => pqforge::slhdsa::Backend::selected().name(),
        #[cfg(feature = "xwing")]
        "xwing" => pqforge::mlkem::backend_name(),
        #[cfg(feature = "frodokem")]
        "frodokem" => pqforge::frodokem::testing::Backend::selected().name(),
        #[cfg(feature = "ntru")]
        "ntru" => pqforge::ntru::testing::Backend::selected().name(),
        #[cfg(feature = "ntruprime")]
        "ntruprime" => pqforge::ntruprime::testing::Backend::selected().name(),
        _ => return None,
    })
}

#[test]
fn every_algorithm_reports_the_fastest_available_backend_of_its_crate() {
    let mut n = 0;
    for f in FAMILIES {
        for &s in f.schemes {
            let a = Algorithm::find(s.info().name).expect("registered");
            let (b, name) = (a.backends(), a.backend());
            assert_eq!(name, s.backend(), "{a}");
            let i = b
                .names()
                .iter()
                .position(|&x| x == name)
                .unwrap_or_else(|| panic!("{a}: `{name}` is not one of {:?}", b.names()));
            assert!(b.is_available(name), "{a}: `{name}` is not available here");
            assert_eq!(b.names()[0], "portable", "{a}");
            assert!(b.is_available("portable"), "{a}");
            for later in &b.names()[i + 1..] {
                assert!(
                    !b.is_available(later),
                    "{a}: reports `{name}` but the faster `{later}` is available"
                );
            }
            assert!(!b.is_available("no-such-backend"), "{a}");
            if let Some(expected) = crate_says(f.feature) {
                assert_eq!(name, expected, "{a}: the crate's own API disagrees");
            }
            // Every crate has an AVX2 (or faster) x86_64 backend.
            if cpu::X86_SIMD && cpu::avx2() && cpu::pclmulqdq() && cpu::aes() {
                assert_ne!(name, "portable", "{a}");
            }
            n += 1;
        }
    }
    assert_eq!(n, Algorithm::all().count());
}
