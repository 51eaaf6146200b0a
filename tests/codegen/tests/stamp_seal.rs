//! Sealed stamps of the generated code-review system: every single-bit flip of
//! every real stamp, every truncation and extension, another key, an unsealed
//! stamp and a stamp of another spec are refused before anything is merged,
//! and a forged clock beyond the limit is refused where it arrives.

use hindsight_codegen_tests::system_review::review as plain;
use hindsight_codegen_tests::system_review_sealed::review::{
    Committer, Orchestrator, Stamp, TestRunner,
};
use hindsight_codegen_tests::system_review_sealed::Status;
use hindsight_runtime::stamp::{SealedStampCodec, StampError, StampKey, TAG_BYTES};

fn key() -> StampKey {
    StampKey::new(&[0x5a; 32])
}

fn sealed(stamp: Stamp, key: &StampKey) -> Vec<u8> {
    let mut out = [0u8; Stamp::BYTES];
    let len = stamp
        .to_bytes(key, &mut out)
        .expect("BYTES always suffices");
    out[..len].to_vec()
}

/// Real stamps of a run: a proposal, and a pass report after it.
fn stamps() -> Vec<Stamp> {
    let mut o = Orchestrator::Monitor::new();
    let mut t = TestRunner::Monitor::new();
    let proposal = o
        .on_send(&Orchestrator::Changes { cand: Some(7) })
        .expect("sends");
    t.on_recv(&proposal, &TestRunner::Changes::default())
        .expect("consistent");
    t.on_act(&TestRunner::Changes {
        cand: Some(7),
        status: Some(Status::passed),
    });
    let pass = t.on_send(&TestRunner::Changes::default()).expect("sends");
    vec![proposal, pass]
}

#[test]
fn sealed_stamps_round_trip_and_carry_a_tag() {
    let key = key();
    assert_eq!(Stamp::BYTES, plain::Stamp::BYTES + TAG_BYTES);
    for stamp in stamps() {
        let bytes = sealed(stamp, &key);
        assert_eq!(Stamp::from_bytes(&bytes, &key), Ok(stamp));
        assert_eq!(<Stamp as SealedStampCodec>::decode(&bytes, &key), Ok(stamp));
    }
}

#[test]
fn every_flipped_bit_of_every_stamp_is_refused_and_nothing_merged() {
    let key = key();
    for stamp in stamps() {
        let bytes = sealed(stamp, &key);
        for bit in 0..bytes.len() * 8 {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                Stamp::from_bytes(&flipped, &key),
                Err(StampError::Unauthenticated),
                "bit {bit} of {bytes:?}"
            );
        }
        for len in 0..bytes.len() {
            assert_eq!(
                Stamp::from_bytes(&bytes[..len], &key),
                Err(StampError::Unauthenticated)
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Stamp::from_bytes(&longer, &key),
            Err(StampError::Unauthenticated)
        );
        let other = StampKey::new(&[0x5b; 32]);
        assert_eq!(
            Stamp::from_bytes(&bytes, &other),
            Err(StampError::Unauthenticated)
        );
    }
    // What the receiver holds is unchanged by refused bytes: only a stamp that
    // opened can be merged (there is no other way to get a `Stamp`).
    let c = Committer::Monitor::new();
    assert_eq!(c.clock(), &[0, 0, 0, 0]);
}

#[test]
fn unsealed_bytes_and_forgeries_without_the_key_are_refused() {
    let key = key();
    let proposal = plain::Orchestrator::Monitor::new()
        .on_send(&plain::Orchestrator::Changes { cand: Some(7) })
        .expect("sends");
    let mut out = [0u8; plain::Stamp::BYTES];
    let len = proposal.to_bytes(&mut out).expect("fits");
    // The unsealed encoding, alone or with a guessed tag.
    assert_eq!(
        Stamp::from_bytes(&out[..len], &key),
        Err(StampError::Unauthenticated)
    );
    for guess in [[0u8; TAG_BYTES], [0xff; TAG_BYTES]] {
        let mut forged = out[..len].to_vec();
        forged.extend_from_slice(&guess);
        assert_eq!(
            Stamp::from_bytes(&forged, &key),
            Err(StampError::Unauthenticated)
        );
    }
    // A clock of u64::MAX for the Orchestrator, sealed by someone without the
    // key (here: under another key), is refused.
    let mut forged = out[..len].to_vec();
    forged.splice(
        9..10,
        [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
    );
    assert_eq!(
        Stamp::from_bytes(&forged, &key),
        Err(StampError::Unauthenticated)
    );
}

#[test]
fn a_forged_clock_beyond_the_limit_is_malformed_unsealed_too() {
    // Unsealed stamps: the header (9 bytes), then the clock varints. A clock
    // of u64::MAX (ten bytes) for the Orchestrator is refused as malformed,
    // so it never freezes the receivers' view of the Orchestrator.
    let proposal = plain::Orchestrator::Monitor::new()
        .on_send(&plain::Orchestrator::Changes { cand: Some(7) })
        .expect("sends");
    let mut out = [0u8; plain::Stamp::BYTES];
    let len = proposal.to_bytes(&mut out).expect("fits");
    let mut forged = out[..9].to_vec();
    forged.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    forged.extend_from_slice(&out[10..len]);
    assert_eq!(out[9], 1, "the Orchestrator's clock, one event");
    assert_eq!(
        plain::Stamp::from_bytes(&forged),
        Err(StampError::Malformed)
    );
    // Just below the limit, the same stamp decodes (the limit is 2^63).
    let mut below = out[..9].to_vec();
    below.extend_from_slice(&[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
    below.extend_from_slice(&out[10..len]);
    assert!(plain::Stamp::from_bytes(&below).is_ok());
}
